"""API.md "Additions in v1.3" and the service half of issue 30: money every client holds, a winner said, headers
that cost little, strict booleans, the version header, gzip, CORS, the lean replay."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.settlement import MAX_AMOUNT
from tests.http import assert_problem

# RULES.md 2: 5 brights (15) with 10 junk units (1) are 21 points, enough to stop after 14 gos (RULES.md 7)
RICH = {"id": "A", "go_count": 14, "declared": {"points": 21, "brights": 5, "animals": 3, "junk_units": 10}}
POOR = {"id": "B", "declared": {"ribbons": 1, "junk_units": 6}}  # pibak and gwangbak (RULES.md 8)
PAIR = [{"id": "A"}, {"id": "B"}]


def _numbers(value: Any) -> list[int]:
    if isinstance(value, bool):
        return []
    if isinstance(value, int):
        return [value]
    if isinstance(value, dict):
        return [n for v in value.values() for n in _numbers(v)]
    if isinstance(value, list):
        return [n for v in value for n in _numbers(v)]
    return []


# --- money past what a JavaScript number holds --------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_settlement_past_2_53_is_refused_naming_its_factors(client, lang):
    body = {"players": [RICH, POOR], "winner": "A", "stake": 10**9, "nagari_streak": 20}
    resp = client.post("/v1/settle", json=body, headers={"Accept-Language": lang})
    problem = assert_problem(resp, 422, "amount-too-large")
    assert problem["player"] == "B" and problem["limit"] == MAX_AMOUNT == 2**53 - 1
    assert problem["factors"] == {"base": 143360, "pibak": 2, "gwangbak": 2, "nagari": 2**20, "stake": 10**9}
    assert "1048576" in problem["detail"] and "1000000000" in problem["detail"]


def test_the_same_hand_at_a_smaller_stake_is_paid(client):
    body = {"players": [RICH, POOR], "winner": "A", "stake": 1000, "nagari_streak": 20}
    (payment,) = client.post("/v1/settle", json=body).get_json()["payments"]
    assert payment["amount"] == 143360 * 4 * 2**20 * 1000 <= MAX_AMOUNT


def test_an_instant_win_and_a_nagari_carry_are_bounded_too(client):
    rules = {"preset": "korean-2p", "nagari_multiplier": 10, "chongtong_points": 1000}
    chongtong = {"rules": rules, "players": PAIR, "winner": "A", "outcome": "chongtong", "stake": 10**9}
    assert_problem(client.post("/v1/settle", json={**chongtong, "nagari_streak": 5}), 422, "amount-too-large")
    # the carry a nagari leaves (10^21) is an answer's number as well
    nagari = {"rules": rules, "players": PAIR, "winner": None, "nagari_streak": 20}
    assert_problem(client.post("/v1/settle", json=nagari), 422, "amount-too-large")


def test_an_evening_of_many_nagari_hands_stops_at_settles_bound(client):
    nagari = {"settle": {"players": PAIR, "winner": None}}
    evening = {"people": ["A", "B"], "first_dealer": "A"}
    assert client.post("/v1/evening", json={**evening, "hands": [nagari] * 21}).status_code == 200
    problem = assert_problem(client.post("/v1/evening", json={**evening, "hands": [nagari] * 64}), 422)
    assert (problem["code"], problem["hand_index"], problem["limit"]) == ("amount-too-large", 21, 20)


def test_an_evenings_running_total_is_bounded(client):
    big = {"settle": {"players": [RICH, POOR], "winner": "A"}}  # 143360 x 4 points, paid by B
    evening = {"people": ["A", "B"], "first_dealer": "A", "stake": 10**9, "hands": [big] * 20}
    problem = assert_problem(client.post("/v1/evening", json=evening), 422, "amount-too-large")
    assert problem["player"] in ("A", "B") and problem["hand_index"] == 15  # 16 x 573440 x 10^9 > 2^53


def test_a_replay_is_priced_under_the_same_bound(client):
    from bench.common import REPLAY_BODY

    body = {**REPLAY_BODY, "rules": {"preset": "korean-2p", "nagari_multiplier": 10}, "nagari_streak": 20}
    assert_problem(client.post("/v1/replay", json=body), 422, "amount-too-large")
    assert client.post("/v1/replay", json={**body, "nagari_streak": 2}).status_code == 200


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    stake=st.integers(0, 10**9),
    streak=st.integers(0, 20),
    multiplier=st.integers(1, 10),
    gos=st.integers(0, 14),
    shakes=st.integers(0, 4),
)
def test_every_number_of_a_settlement_fits_a_javascript_number(client, stake, streak, multiplier, gos, shakes):
    """API.md v1.3: an answer holds no number past 2^53 - 1; what would is refused as amount-too-large."""
    winner = {**RICH, "go_count": gos, "shakes": shakes}
    rules = {"preset": "korean-2p", "nagari_multiplier": multiplier}
    body = {"rules": rules, "players": [winner, POOR], "winner": "A", "stake": stake, "nagari_streak": streak}
    resp = client.post("/v1/settle", json=body)
    if resp.status_code == 422:
        assert resp.get_json()["code"] == "amount-too-large"
    else:
        assert resp.status_code == 200
    assert max(map(abs, _numbers(resp.get_json()))) <= MAX_AMOUNT


# --- the winner is said -------------------------------------------------------------------------------------


def test_settle_without_winner_is_refused_naming_the_field(client):
    problem = assert_problem(client.post("/v1/settle", json={"players": PAIR}), 422, "validation-error")
    assert problem["errors"] == {"winner": ["Missing data for required field."]}
    stop = {"players": PAIR, "outcome": "stop"}
    assert assert_problem(client.post("/v1/settle", json=stop), 422)["errors"].keys() == {"winner"}
    korean = client.post("/v1/settle", json={"players": PAIR}, headers={"Accept-Language": "ko"}).get_json()
    assert list(korean["errors"]) == ["winner"] and korean["errors"]["winner"] != problem["errors"]["winner"]


@pytest.mark.parametrize("said", [{"winner": None}, {"outcome": "nagari"}, {"winner": None, "outcome": "nagari"}])
def test_a_nagari_is_said(client, said):
    answer = client.post("/v1/settle", json={"players": PAIR, **said}).get_json()
    assert (answer["outcome"], answer["winner"], answer["payments"]) == ("nagari", None, [])


def test_an_evening_hand_without_winner_is_refused_too(client):
    evening = {"people": ["A", "B"], "hands": [{"settle": {"players": PAIR}}]}
    problem = assert_problem(client.post("/v1/evening", json=evening), 422, "validation-error")
    assert list(problem["errors"]) == ["hands.0.settle.winner"]


def test_the_fast_loader_and_marshmallow_agree_on_the_winner():
    from service.loading import Loader
    from service.settlement import SettleRequest

    schema = SettleRequest()
    loader = Loader(schema)
    for body in ({"players": PAIR, "winner": None}, {"players": PAIR, "outcome": "nagari"}, {"players": PAIR}):
        try:
            expected: Any = schema.load(body)
        except Exception as err:
            expected = type(err), getattr(err, "messages", None)
        try:
            got: Any = loader.load(body)
        except Exception as err:
            got = type(err), getattr(err, "messages", None)
        assert got == expected


# --- headers that cost little --------------------------------------------------------------------------------


def test_a_huge_accept_language_costs_milliseconds(client):
    """Issue 30: 95 Accept-Language lines of 8 KB (joined by the server) cost 1.7 s of a worker each."""
    huge = ", ".join(["x" * 8000] * 95) + ", ko"
    started = time.process_time()
    for _ in range(5):
        resp = client.post("/v1/settle", json={"players": PAIR, "winner": None}, headers={"Accept-Language": huge})
        assert resp.status_code == 200 and resp.headers["Content-Language"] == "en"
    assert time.process_time() - started < 0.25  # each well under 50 ms; it was 250 ms and more each


def test_only_the_first_tags_of_accept_language_are_read():
    from service.i18n import MAX_ACCEPT_LANGUAGE, MAX_LANGUAGE_TAGS, cut_accept_language, negotiate

    assert cut_accept_language("ko-KR,ko;q=0.9,en;q=0.8") == "ko-KR,ko;q=0.9,en;q=0.8"
    assert negotiate("fr, " + "x" * 300 + ", ko") == "en"
    assert negotiate("ko, " + "x" * 300) == "ko"
    many = ",".join(["fr"] * 40 + ["ko"])
    assert len(cut_accept_language(many).split(",")) == MAX_LANGUAGE_TAGS and negotiate(many) == "en"
    assert len(cut_accept_language("a," * 1000)) <= MAX_ACCEPT_LANGUAGE


def test_made_up_methods_are_counted_in_one_series(client):
    """Issue 30: every made-up method was a series of its own (10,000 of them: /metrics of 13 MiB)."""
    series = re.compile(r'gostop_requests_total\{endpoint="unmatched",method="other",status="405"\} (\S+)')

    def others() -> float:
        found = series.search(client.get("/metrics").get_data(as_text=True))
        return float(found.group(1)) if found else 0.0

    before = others()
    for i in range(30):
        assert client.open("/v1/score", method=f"MADEUP{i}").status_code == 405
    assert others() - before == 30
    assert "MADEUP" not in client.get("/metrics").get_data(as_text=True)


@pytest.mark.parametrize("path", ["/v1//cards", "/v1//rules//korean-2p?lang=ko"])
def test_a_redirect_is_relative_whatever_the_host_header(client, path):
    resp = client.get(path, headers={"Host": "evil.example"})
    assert resp.status_code in (301, 308)
    location = resp.headers["Location"]
    assert location.startswith("/") and not location.startswith("//") and "evil" not in location


# --- strict booleans, a byte order mark ---------------------------------------------------------------------

NOT_BOOLEANS = ["yes", "on", "true", 1, 0, 0.0, 1.0, None]


@pytest.mark.parametrize("value", NOT_BOOLEANS)
def test_push_takes_only_true_or_false(client, value):
    hand = {"settle": {"players": PAIR, "winner": None}, "push": value}
    problem = assert_problem(client.post("/v1/evening", json={"people": ["A", "B"], "hands": [hand]}), 422)
    assert list(problem["errors"]) == ["hands.0.push"]


@pytest.mark.parametrize("value", NOT_BOOLEANS)
def test_rain_and_knobs_take_only_true_or_false(client, value):
    declared = {"points": 3, "brights": 3, "rain": value}
    body = {"players": [{"id": "A", "declared": declared}, {"id": "B"}], "winner": None}
    problem = assert_problem(client.post("/v1/settle", json=body), 422)
    assert list(problem["errors"]) == ["players.0.declared.rain"]
    knob = {"rules": {"preset": "korean-2p", "gwangbak": value}, "players": PAIR, "winner": None}
    assert assert_problem(client.post("/v1/settle", json=knob), 422, "invalid-knob")["knob"] == "gwangbak"


def test_true_and_false_are_read(client):
    for value in (True, False):
        hand = {"settle": {"players": PAIR, "winner": None}, "push": value}
        resp = client.post(
            "/v1/evening", json={"people": ["A", "B"], "rules": {"preset": "korean-2p", "push": 1}, "hands": [hand]}
        )
        assert resp.status_code == (422 if value else 200)  # a nagari cannot be pushed, but push is read
        if value:
            assert resp.get_json()["code"] == "push-not-allowed"


def test_a_json_body_after_a_byte_order_mark_is_read(client):
    body = b'\xef\xbb\xbf{"cards": ["jan-bright", "mar-bright", "aug-bright"]}'
    resp = client.post("/v1/score", data=body, content_type="application/json")
    assert resp.status_code == 200 and resp.get_json()["total"] == 3
    assert_problem(client.post("/v1/score", data=b"\xef\xbb\xbf", content_type="application/json"), 400)


# --- the version, CORS, gzip --------------------------------------------------------------------------------


def test_the_api_version_is_the_packages_major_and_minor():
    import engine
    from service.codes import API_VERSION

    assert API_VERSION == "1.3" and engine.__version__.startswith(API_VERSION + ".")


@pytest.mark.parametrize(
    ("method", "path"),
    [("GET", "/healthz"), ("GET", "/v1/cards"), ("POST", "/v1/settle"), ("GET", "/nowhere"), ("GET", "/rules")],
)
def test_every_answer_says_the_api_version(client, method, path):
    assert client.open(path, method=method, json={} if method == "POST" else None).headers["API-Version"] == "1.3"


def test_the_servers_own_refusals_say_the_api_version():
    from service.worker import FULL_503

    assert b"\r\nAPI-Version: 1.3\r\n" in FULL_503


def test_cors_exposes_what_a_browser_client_needs():
    from service import create_app

    client = create_app({"TESTING": True, "CORS_ORIGINS": ["https://table.example"]}).test_client()
    resp = client.get("/v1/cards", headers={"Origin": "https://table.example"})
    exposed = {h.strip().lower() for h in resp.headers["Access-Control-Expose-Headers"].split(",")}
    assert exposed == {"etag", "retry-after", "api-version", "x-request-id"}


def test_an_answer_over_1_kb_is_gzipped_when_accepted(client):
    import gzip
    import json

    from bench.common import REPLAY_BODY

    plain = client.post("/v1/replay", json=REPLAY_BODY)
    assert "Content-Encoding" not in plain.headers and "Accept-Encoding" in plain.headers["Vary"]
    packed = client.post("/v1/replay", json=REPLAY_BODY, headers={"Accept-Encoding": "gzip, deflate, br"})
    assert packed.headers["Content-Encoding"] == "gzip" and "Accept-Encoding" in packed.headers["Vary"]
    data = packed.get_data()
    assert len(data) < len(plain.get_data()) / 2
    assert json.loads(gzip.decompress(data)) == plain.get_json()
    assert int(packed.headers["Content-Length"]) == len(data)
    refused = client.post("/v1/replay", json=REPLAY_BODY, headers={"Accept-Encoding": "gzip;q=0, identity"})
    assert "Content-Encoding" not in refused.headers
    small = client.get("/healthz", headers={"Accept-Encoding": "gzip"})
    assert len(small.get_data()) < 1024 and "Content-Encoding" not in small.headers  # not worth it


def test_a_gzipped_catalog_keeps_its_revalidation(client):
    first = client.get("/v1/cards", headers={"Accept-Encoding": "gzip"})
    assert first.headers["Content-Encoding"] == "gzip" and first.headers["ETag"].startswith('W/"')
    again = client.get("/v1/cards", headers={"Accept-Encoding": "gzip", "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304


@pytest.mark.parametrize(
    ("header", "accepted"),
    [("gzip", True), ("GZIP;q=0.5", True), ("*", True), ("br, *;q=0", False), ("gzip;q=0", False), ("", False)],
)
def test_accept_encoding_is_read_as_rfc_9110_says(header, accepted):
    from service.compression import accepts_gzip

    assert accepts_gzip(header) is accepted


# --- the lean replay --------------------------------------------------------------------------------------


def _replay_body() -> dict[str, Any]:
    from service.replay import examples

    return examples()["full-deal"]


@pytest.mark.parametrize(("query", "headers"), [("?view=lean", {}), ("", {"Prefer": "return=minimal"})])
def test_the_lean_replay_is_the_state_and_the_payments_without_words(client, query, headers):
    body = _replay_body()
    full = client.post("/v1/replay", json=body).get_json()
    resp = client.post("/v1/replay" + query, json=body, headers={"Accept-Language": "ko", **headers})
    assert resp.status_code == 200 and "Prefer" in resp.headers["Vary"]
    assert resp.headers.get("Preference-Applied") == ("return=minimal" if headers else None)
    lean = resp.get_json()
    assert lean["view"] == "lean" and lean["status"] == full["status"] == "finished"
    assert set(lean) == {"view", "status", "players", "stock_left", "instant_payments", "next", "settlement"} | {
        "engine_version"
    }
    for mine, whole in zip(lean["players"], full["players"], strict=True):
        assert mine["points"] == whole["score"]["total"] and mine["counts"] == whole["score"]["counts"]
    assert lean["settlement"]["payments"] == [
        {k: p[k] for k in ("from", "to", "points", "amount")} for p in full["settlement"]["payments"]
    ]
    text = resp.get_data(as_text=True)
    assert "detail" not in text and "reason" not in text and "explanation" not in text
    assert len(text) * 4 < len(client.post("/v1/replay", json=body).get_data())


def test_the_lean_replay_of_a_live_hand_says_what_comes_next(client):
    from service.replay import LIVE_EXAMPLE

    full = client.post("/v1/replay", json=LIVE_EXAMPLE).get_json()
    lean = client.post("/v1/replay?view=lean", json=LIVE_EXAMPLE).get_json()
    assert lean["next"] == full["next"] and lean["settlement"] is None and lean["status"] == "in_progress"


def test_the_full_view_wins_over_prefer_and_a_bad_view_is_refused(client):
    body = _replay_body()
    full = client.post("/v1/replay?view=full", json=body, headers={"Prefer": "return=minimal"})
    assert "events" in full.get_json() and "Preference-Applied" not in full.headers
    problem = assert_problem(client.post("/v1/replay?view=tiny", json=body), 422, "validation-error")
    assert list(problem["errors"]) == ["query.view"]


def test_the_lean_replay_is_documented_with_an_example():
    import yaml

    from tests.conftest import ROOT

    spec = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
    operation = spec["paths"]["/v1/replay"]["post"]
    assert {"view", "Prefer"} <= {p.get("name") for p in operation["parameters"]}
    content = operation["responses"]["200"]["content"]["application/json"]
    assert {"$ref": "#/components/schemas/LeanReplayResponse"} in content["schema"]["oneOf"]
    assert content["examples"]["lean-live-hidden-hands"]["value"]["view"] == "lean"


def test_the_lean_example_is_the_answer_of_the_live_example(client):
    import yaml

    from service.replay import LIVE_EXAMPLE
    from tests.conftest import ROOT

    spec = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
    content = spec["paths"]["/v1/replay"]["post"]["responses"]["200"]["content"]["application/json"]
    expected = content["examples"]["lean-live-hidden-hands"]["value"]
    assert client.post("/v1/replay?view=lean", json=LIVE_EXAMPLE).get_json() == expected


# --- make chromium ------------------------------------------------------------------------------------------


def _stub(folder, name: str, script: str) -> None:
    path = folder / name
    path.write_text("#!/bin/sh\n" + script + "\n", encoding="utf-8")
    path.chmod(0o755)


@pytest.mark.parametrize(("korean", "installs"), [("", True), ("/fonts/Nanum.ttf: NanumGothic", False)])
def test_make_chromium_adds_a_korean_font_where_chromium_has_none(tmp_path, korean, installs):
    """Issue 30: with Chromium there but no Korean font, five page tests failed; the target now installs
    fonts-nanum (as root, with apt-get) when fc-list :lang=ko lists nothing."""
    import os
    import subprocess

    from tests.conftest import ROOT

    stubs = tmp_path / "bin"
    stubs.mkdir()
    calls = tmp_path / "apt-get.log"
    _stub(stubs, "chromium", "exit 0")
    _stub(stubs, "id", "echo 0")
    _stub(stubs, "fc-list", f"echo '{korean}'" if korean else "exit 0")
    _stub(stubs, "fc-cache", "exit 0")
    _stub(stubs, "apt-get", f'echo "$@" >> {calls}')
    env = {**os.environ, "PATH": f"{stubs}:{os.environ['PATH']}"}
    done = subprocess.run(["make", "-s", "chromium"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    said = calls.read_text(encoding="utf-8") if calls.exists() else ""
    assert ("fonts-nanum" in said) is installs, said
    assert "chromium" not in said.replace("fonts-nanum", "")  # Chromium itself is there: not installed again
