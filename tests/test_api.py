"""The HTTP contract of API.md: status, content type and body shape of every endpoint and error."""

import json
import os
import re

import pytest

from engine import CARDS, KNOBS, PRESETS
from tests.http import assert_problem
from tests.words import name

CARD_IDS = {c.id for c in CARDS}


def test_cards(client):
    resp = client.get("/v1/cards")
    assert resp.status_code == 200 and resp.mimetype == "application/json"
    cards = resp.get_json()["cards"]
    assert [c["id"] for c in cards] == [c.id for c in CARDS]
    first = cards[0]
    assert set(first) == {"id", "month", "kind", "junk_units", "tags", "names"}
    assert set(first["names"]) == {"en", "ko"}
    bonus = cards[-1]
    assert (bonus["id"], bonus["kind"], bonus["month"], bonus["junk_units"]) == ("bonus-3", "bonus", None, 3)


def test_rules_list(client):
    body = client.get("/v1/rules").get_json()
    assert [p["name"] for p in body["presets"]] == list(PRESETS)
    assert all(set(p) == {"name", "description", "players"} and p["description"] for p in body["presets"])


@pytest.mark.parametrize("preset", list(PRESETS))
def test_rules_preset(client, preset):
    body = client.get(f"/v1/rules/{preset}").get_json()
    assert body["preset"] == preset and set(body) == {"preset", *KNOBS}


def test_rules_unknown_preset_is_404(client):
    body = assert_problem(client.get("/v1/rules/korean-5p"), 404)
    assert "korean-5p" in body["detail"]


def test_score_contract(client):
    resp = client.post(
        "/v1/score",
        json={"cards": ["jan-bright", "mar-bright", "aug-bright", "feb-animal", "apr-animal", "aug-animal"]},
    )
    assert resp.status_code == 200 and resp.mimetype == "application/json"
    body = resp.get_json()
    assert body["total"] == 8
    assert body["items"] == [
        {"combination": "brights", "points": 3, "cards": ["jan-bright", "mar-bright", "aug-bright"]},
        {"combination": "godori", "points": 5, "cards": ["feb-animal", "apr-animal", "aug-animal"]},
    ]
    assert body["counts"] == {"brights": 3, "animals": 3, "ribbons": 0, "junk_units": 0}
    assert body["sep_animal_as"] is None
    assert body["rules"]["preset"] == "korean-2p" and body["engine_version"]


def test_score_cup_pin_and_overrides(client):
    cards = [
        "jan-junk-1",
        "jan-junk-2",
        "feb-junk-1",
        "feb-junk-2",
        "mar-junk-1",
        "mar-junk-2",
        "apr-junk-1",
        "apr-junk-2",
        "sep-animal",
    ]
    assert client.post("/v1/score", json={"cards": cards}).get_json()["sep_animal_as"] == "junk"
    # RULES.md 3: a pin the rules forbid is refused by /v1/score exactly as by /v1/settle
    forbidden = {"rules": "chips-2p", "sep_animal_as": "junk"}
    score = assert_problem(client.post("/v1/score", json={**forbidden, "cards": cards}), 422, "sep-animal-pin")
    settle_body = {
        "rules": "chips-2p",
        "winner": "A",
        "players": [{"id": "A", "captured": cards, "sep_animal_as": "junk"}, {"id": "B"}],
    }
    settle = assert_problem(client.post("/v1/settle", json=settle_body), 422, "sep-animal-pin")
    assert (score["title"], score["card"]) == (settle["title"], settle["card"]) == ("Invalid hand", "sep-animal")
    pinned = client.post("/v1/score", json={"cards": cards, "sep_animal_as": "animal"}).get_json()
    assert (pinned["sep_animal_as"], pinned["total"]) == ("animal", 0)
    chips = client.post("/v1/score", json={"cards": cards, "rules": {"preset": "chips-2p"}}).get_json()
    assert chips["sep_animal_as"] == "animal" and chips["rules"]["preset"] == "chips-2p"


def test_settle_contract(client):
    req = {
        "rules": "korean-2p",
        "stake": 100,
        "winner": "A",
        "players": [
            {
                "id": "A",
                "captured": ["jan-bright", "mar-bright", "aug-bright", "feb-animal", "apr-animal", "aug-animal"],
                "go_count": 1,
            },
            {"id": "B", "captured": ["may-junk-1"]},
        ],
    }
    resp = client.post("/v1/settle", json=req)
    assert resp.status_code == 200
    body = resp.get_json()
    assert set(body) >= {
        "outcome",
        "winner",
        "score",
        "base_points",
        "payments",
        "explanation",
        "rules",
        "engine_version",
    }
    assert (body["outcome"], body["winner"], body["base_points"]) == ("stop", "A", 9)
    (pay,) = body["payments"]
    assert (pay["from"], pay["to"], pay["points"], pay["amount"]) == ("B", "A", 18, 1800)
    assert pay["factors"] == [
        {"rule": "gwangbak", "factor": 2, "reason": "A scores brights and B has no bright (gwangbak)"}
    ]
    assert body["explanation"][0] == "A stops with 8 points and 1 go: 8 + 1 = 9 base points"


def test_settle_nagari(client):
    body = client.post("/v1/settle", json={"players": [{"id": "A"}, {"id": "B"}], "winner": None}).get_json()
    assert (body["outcome"], body["winner"], body["payments"], body["score"]) == ("nagari", None, [], None)


def test_settle_default_rules_follow_player_count(client):
    body = client.post("/v1/settle", json={"players": [{"id": "A"}, {"id": "B"}, {"id": "C"}]}).get_json()
    assert body["rules"]["preset"] == "korean-3p"


A8 = ["jan-bright", "mar-bright", "aug-bright", "feb-animal", "apr-animal", "aug-animal"]


@pytest.mark.parametrize(
    ("body", "code", "field", "value"),
    [
        (
            {"players": [{"id": "A", "captured": [*A8, "jan-brite"]}, {"id": "B"}], "winner": "A"},
            "unknown-card",
            "card",
            "jan-brite",
        ),
        (
            {"players": [{"id": "A", "captured": A8}, {"id": "B", "captured": ["jan-bright"]}], "winner": "A"},
            "duplicate-card",
            "card",
            "jan-bright",
        ),
        (
            {"players": [{"id": "A", "captured": A8}, {"id": "B", "captured": ["bonus-2b"]}], "winner": "A"},
            "bonus-not-in-play",
            "card",
            "bonus-2b",
        ),
        (
            {"rules": "korean-3p", "players": [{"id": "A", "captured": A8}, {"id": "B"}], "winner": "A"},
            "player-count",
            None,
            None,
        ),
        ({"players": [{"id": "A", "captured": A8}, {"id": "A"}], "winner": "A"}, "duplicate-player", "player", "A"),
        ({"players": [{"id": "A", "captured": A8}, {"id": "B"}], "winner": "C"}, "unknown-winner", "player", "C"),
        (
            {"players": [{"id": "A", "captured": A8[:3]}, {"id": "B"}], "winner": "A"},
            "winner-below-target",
            "player",
            "A",
        ),
        (
            {"rules": {"preset": "korean-2p", "gobak": "maybe"}, "players": [{"id": "A"}, {"id": "B"}]},
            "invalid-knob",
            "knob",
            "gobak",
        ),
        (
            {"rules": {"preset": "korean-2p", "gobakk": "double"}, "players": [{"id": "A"}, {"id": "B"}]},
            "unknown-knob",
            "knob",
            "gobakk",
        ),
    ],
)
def test_settle_rule_errors_are_422_naming_the_culprit(client, body, code, field, value):
    problem = assert_problem(client.post("/v1/settle", json=body), 422, code)
    if field:
        assert problem[field] == value
        # the sentence names the culprit as a player would: a card by its name, not its id
        assert (name(value) if field == "card" and value in CARD_IDS else value) in problem["detail"]


@pytest.mark.parametrize(
    ("body", "path"),
    [
        ({"players": [{"id": "A", "go_count": -1}, {"id": "B"}]}, "players.0.go_count"),
        ({"players": [{"id": "A", "shakes": "2"}, {"id": "B"}]}, "players.0.shakes"),
        ({"players": [{"id": "A"}, {"id": "B"}], "stake": -5}, "stake"),
        ({"players": [{"id": "A"}, {"id": "B"}], "nagari_streak": -1}, "nagari_streak"),
        ({"players": [{"id": "A"}, {"id": "B"}], "colour": "red"}, "colour"),
        ({"players": "A,B"}, "players"),
        ({}, "players"),
        ({"players": [{"id": ""}, {"id": "B"}]}, "players.0.id"),
    ],
)
def test_schema_errors_are_422_with_field_paths(client, body, path):
    problem = assert_problem(client.post("/v1/settle", json=body), 422, "validation-error")
    assert path in problem["errors"]


def test_score_schema_errors(client):
    assert "cards" in assert_problem(client.post("/v1/score", json={}), 422)["errors"]
    assert "rules" in assert_problem(client.post("/v1/score", json={"cards": [], "rules": 7}), 422)["errors"]
    assert (
        "sep_animal_as"
        in assert_problem(client.post("/v1/score", json={"cards": [], "sep_animal_as": "x"}), 422)["errors"]
    )


@pytest.mark.parametrize("data", ["{", "[1, 2", "nope", '{"cards": [}'])
def test_malformed_json_is_400(client, data):
    assert_problem(client.post("/v1/score", data=data, content_type="application/json"), 400, "malformed-json")


def test_non_object_json_is_422(client):
    assert_problem(client.post("/v1/score", json=[1, 2]), 422)


def test_body_over_the_limit_is_413(client):
    resp = client.post("/v1/score", data=b"[" + b"1," * 40000 + b"1]", content_type="application/json")
    assert_problem(resp, 413)


def test_unknown_path_is_404_and_wrong_method_is_405(client):
    assert_problem(client.get("/v2/score"), 404, "not-found")
    resp = client.get("/v1/score")
    assert_problem(resp, 405, "method-not-allowed")
    assert "POST" in resp.headers["Allow"]
    assert_problem(client.delete("/v1/cards"), 405, "method-not-allowed")
    missing = assert_problem(client.get("/v1/rules/korean-9p"), 404, "not-found")
    assert "korean-9p" in missing["detail"]


def test_every_http_problem_has_a_code_in_the_asked_language(client):
    """API.md v1.1: 404, 405, 411, 413 and 415 carry a ``code`` like every other error, and their words follow
    Accept-Language."""
    korean = {"Accept-Language": "ko"}
    cases = [
        (client.get("/nowhere", headers=korean), 404, "not-found"),
        (client.put("/v1/score", headers=korean), 405, "method-not-allowed"),
        (
            client.post("/v1/score", data="x" * (65 * 1024), content_type="application/json", headers=korean),
            413,
            "body-too-large",
        ),
        (client.post("/v1/score", data="{}", content_type="text/plain", headers=korean), 415, "unsupported-media-type"),
        (client.post("/v1/score", data="{", content_type="application/json", headers=korean), 400, "malformed-json"),
    ]
    for resp, status, code in cases:
        problem = assert_problem(resp, status, code)
        assert re.search("[가-힣]", problem["title"] + problem["detail"]), problem


def test_a_body_with_an_unknown_card_and_a_schema_error_reports_both(client):
    body = {"players": [{"id": "A", "captured": ["jan-brite"], "go_count": -1}, {"id": "B"}], "winner": "A"}
    problem = assert_problem(client.post("/v1/settle", json=body), 422, "validation-error")
    assert set(problem["errors"]) == {"players.0.go_count", "players.0.captured.0"}
    # alone, an unknown card is the engine's refusal, naming the card
    alone = {**body, "players": [{"id": "A", "captured": ["jan-brite"]}, {"id": "B"}]}
    assert assert_problem(client.post("/v1/settle", json=alone), 422, "unknown-card")["card"] == "jan-brite"


def test_docs_with_a_slash_and_the_favicon(client):
    resp = client.get("/docs/")
    assert resp.status_code == 308 and resp.headers["Location"].endswith("/docs")
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200 and icon.mimetype == "image/svg+xml" and b"<svg" in icon.data


def test_healthz_says_which_engine_answers(client):
    """Issue 14.1: the body names the engine's version and its build, as ``engine`` itself says them."""
    import engine

    resp = client.get("/healthz")
    build = "compiled" if engine.COMPILED else "pure"
    assert resp.status_code == 200
    assert resp.get_json() == {"status": "ok", "engine": {"version": engine.ENGINE_VERSION, "build": build}}
    # and the gauge gostop_engine_info in /metrics, with the same labels
    metrics = client.get("/metrics").get_data(as_text=True)
    info = re.findall(r"^gostop_engine_info\{(.*)\} (\S+)$", metrics, re.M)
    assert info == [(f'build="{build}",version="{engine.ENGINE_VERSION}"', "1.0")]


def test_the_pure_engine_says_so_in_healthz_and_metrics():
    """With GOSTOP_PURE=1 the engine runs from its Python sources, and the service says ``pure``."""
    import subprocess
    import sys

    from tests.conftest import ROOT

    script = (
        "import json, re\n"
        "from service.app import create_app\n"
        "c = create_app({'TESTING': True, 'ACCESS_LOG_STREAM': None}).test_client()\n"
        "m = c.get('/metrics').get_data(as_text=True)\n"
        "print(json.dumps([c.get('/healthz').get_json(), re.findall(r'^gostop_engine_info.*$', m, re.M)]))\n"
    )
    env = {**os.environ, "GOSTOP_PURE": "1"}
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    health, info = json.loads(done.stdout.splitlines()[-1])
    assert health["engine"]["build"] == "pure"
    assert info == [f'gostop_engine_info{{build="pure",version="{health["engine"]["version"]}"}} 1.0']


def test_docs_page_and_its_assets_are_served_locally(client):
    page = client.get("/docs")
    assert page.status_code == 200 and page.mimetype == "text/html"
    html = page.get_data(as_text=True)
    assert "http" not in html.replace("http-equiv", "")  # no CDN: every asset is ours
    for asset in ("/docs/swagger-ui.css", "/docs/swagger-ui-bundle.js", "/docs/init.js"):
        assert asset in html
        with client.get(asset) as resp:
            assert resp.status_code == 200
    assert "/openapi.yaml" in client.get("/docs/init.js").get_data(as_text=True)


def test_an_unexpected_error_is_a_bare_500_problem(app):
    from flask import Flask

    from service import problems

    broken = Flask("broken")
    problems.init_app(broken)

    @broken.get("/boom")
    def boom():
        raise RuntimeError("secret internals")

    resp = broken.test_client().get("/boom")
    body = assert_problem(resp, 500)
    assert "secret" not in resp.get_data(as_text=True) and "RuntimeError" not in body["detail"]


def test_a_whole_number_written_with_a_fraction_is_that_number(client):
    """OpenAPI 3.1 reads numbers as JSON Schema does: 2.0 is the integer 2, so the service does too (a count
    with a fraction is still refused)."""
    five = ["jan-bright", "mar-bright", "aug-bright", "nov-bright", "dec-bright"]
    players = [{"id": "A", "captured": five, "shakes": 1.0}, {"id": "B"}]
    written = client.post("/v1/settle", json={"players": players, "winner": "A", "stake": 100.0})
    plain = client.post(
        "/v1/settle", json={"players": [{**players[0], "shakes": 1}, players[1]], "winner": "A", "stake": 100}
    )
    assert written.status_code == 200 and written.get_json() == plain.get_json()
    refused = assert_problem(client.post("/v1/settle", json={"players": players, "winner": "A", "stake": 1.5}), 422)
    assert refused["errors"] == {"stake": ["Not a valid integer."]}
