"""Production concerns: request ids, access log, metrics, CORS and security headers, input limits."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from service import create_app
from tests.http import assert_problem

SCORE = {"cards": ["jan-bright", "mar-bright", "aug-bright"]}


def test_request_id_is_echoed_when_given_and_generated_when_absent(client):
    assert (
        client.post("/v1/score", json=SCORE, headers={"X-Request-ID": "table-7.hand-3"}).headers["X-Request-ID"]
        == "table-7.hand-3"
    )
    generated = client.post("/v1/score", json=SCORE).headers["X-Request-ID"]
    assert re.fullmatch(r"[0-9a-f]{32}", generated)
    assert client.get("/healthz").headers["X-Request-ID"] != generated


@pytest.mark.parametrize("bad", ["has space", "x" * 129, "<script>", "é"])
def test_an_unsafe_request_id_is_replaced_not_echoed(client, bad):
    got = client.get("/healthz", headers={"X-Request-ID": bad.encode().decode("latin-1")}).headers["X-Request-ID"]
    assert got != bad and re.fullmatch(r"[0-9a-f]{32}", got)


def test_request_id_is_on_errors_too(client):
    resp = client.get("/nowhere", headers={"X-Request-ID": "abc"})
    assert resp.status_code == 404 and resp.headers["X-Request-ID"] == "abc"


def test_one_json_access_line_per_request_without_card_data():
    import io
    import json

    lines = io.BytesIO()
    client = create_app({"TESTING": True, "ACCESS_LOG_STREAM": lines}).test_client()
    client.post("/v1/score", json=SCORE, headers={"X-Request-ID": "r-1"})
    client.post("/v1/score", data="{", content_type="application/json", headers={"X-Request-ID": "r-2"})
    written = lines.getvalue().decode().splitlines()
    assert len(written) == 2
    first, second = (json.loads(line) for line in written)
    assert set(first) == {"method", "path", "status", "duration_ms", "request_id"}
    assert (first["method"], first["path"], first["status"], first["request_id"]) == ("POST", "/v1/score", 200, "r-1")
    assert (second["status"], second["request_id"]) == (400, "r-2")
    assert first["duration_ms"] >= 0
    assert "bright" not in lines.getvalue().decode()


def test_an_access_log_that_cannot_be_written_does_not_fail_the_answer():
    class Broken:
        def write(self, data: bytes) -> int:
            raise BrokenPipeError("stderr is gone")

    client = create_app({"TESTING": True, "ACCESS_LOG_STREAM": Broken()}).test_client()
    assert client.post("/v1/score", json=SCORE).status_code == 200


def test_a_long_path_is_cut_short_in_the_access_log():
    import io
    import json

    lines = io.BytesIO()
    client = create_app({"TESTING": True, "ACCESS_LOG_STREAM": lines}).test_client()
    client.get("/" + "x" * 3000)
    (line,) = lines.getvalue().splitlines()
    assert len(line) < 1200 and json.loads(line)["path"] == "/" + "x" * 1023


@pytest.mark.parametrize(("level", "on"), [(None, True), ("info", True), ("WARNING", False), ("error", False)])
def test_access_log_goes_to_stderr_unless_the_level_is_above_info(monkeypatch, level, on):
    from service.observability import access_log_stream

    if level is None:
        monkeypatch.delenv("ACCESS_LOG_LEVEL", raising=False)
    else:
        monkeypatch.setenv("ACCESS_LOG_LEVEL", level)
    stream = access_log_stream()
    assert (stream is not None) == on
    if stream is not None:
        assert stream.fileno() == 2


def _count(text: str, endpoint: str, status: str) -> float:
    pattern = rf'gostop_requests_total{{endpoint="{re.escape(endpoint)}",method="\w+",status="{status}"}} (\S+)'
    return sum(float(v) for v in re.findall(pattern, text))


def test_metrics_count_requests_and_time_them_per_endpoint(client):
    before = client.get("/metrics").get_data(as_text=True)
    for _ in range(3):
        client.post("/v1/score", json=SCORE)
    client.get("/v1/rules/korean-9p")
    resp = client.get("/metrics")
    assert resp.status_code == 200 and resp.mimetype == "text/plain"
    after = resp.get_data(as_text=True)
    assert _count(after, "/v1/score", "200") - _count(before, "/v1/score", "200") == 3
    assert _count(after, "/v1/rules/<string:preset>", "404") - _count(before, "/v1/rules/<string:preset>", "404") == 1
    assert 'gostop_request_duration_seconds_bucket{endpoint="/v1/score",le="0.005",method="POST"}' in after


def test_security_headers(client):
    api = client.post("/v1/score", json=SCORE)
    assert api.headers["X-Content-Type-Options"] == "nosniff"
    assert api.headers["Cache-Control"] == "no-store"
    error = client.post("/v1/score", json={})
    assert error.headers["Cache-Control"] == "no-store" and error.headers["X-Content-Type-Options"] == "nosniff"
    docs = client.get("/docs")
    csp = docs.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-eval" not in csp and "default-src 'none'" in csp
    assert "http" not in csp  # no outside origin is allowed to serve the page


def test_cors_is_off_by_default(client):
    resp = client.post("/v1/score", json=SCORE, headers={"Origin": "https://app.example"})
    assert "Access-Control-Allow-Origin" not in resp.headers


def test_cors_allows_only_the_configured_origins():
    client = create_app({"TESTING": True, "CORS_ORIGINS": ["https://app.example"]}).test_client()
    ok = client.post("/v1/score", json=SCORE, headers={"Origin": "https://app.example"})
    assert ok.headers["Access-Control-Allow-Origin"] == "https://app.example"
    assert "X-Request-ID" in ok.headers["Access-Control-Expose-Headers"]
    other = client.post("/v1/score", json=SCORE, headers={"Origin": "https://evil.example"})
    assert "Access-Control-Allow-Origin" not in other.headers
    preflight = client.options(
        "/v1/settle",
        headers={
            "Origin": "https://app.example",
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "Content-Type",
        },
    )
    assert preflight.status_code == 200 and "POST" in preflight.headers["Access-Control-Allow-Methods"]


def test_cors_allows_only_the_methods_served_and_every_answer_varies_by_origin():
    """Issue 16: a preflight allowed DELETE, PATCH and PUT, which nothing serves, and an answer did not say
    that it depends on Origin (a shared cache could hand one origin's answer to another)."""
    app = create_app({"TESTING": True, "CORS_ORIGINS": ["https://app.example"]})
    client = app.test_client()
    served = {m for rule in app.url_map.iter_rules() for m in rule.methods or ()}
    assert served == {"GET", "HEAD", "POST", "OPTIONS"}
    preflight = client.options(
        "/v1/settle",
        headers={"Origin": "https://app.example", "Access-Control-Request-Method": "POST"},
    )
    allowed = {m.strip() for m in preflight.headers["Access-Control-Allow-Methods"].split(",")}
    assert allowed == served
    for origin in ("https://app.example", "https://evil.example", None):
        headers = {"Origin": origin} if origin else {}
        for resp in (client.post("/v1/score", json=SCORE, headers=headers), client.get("/rules", headers=headers)):
            vary = [v.strip() for v in resp.headers["Vary"].split(",")]
            assert "Origin" in vary and "Accept-Language" in vary and len(resp.headers.getlist("Vary")) == 1, origin


def test_without_cors_nothing_varies_by_origin(client):
    assert "Origin" not in client.post("/v1/score", json=SCORE).headers.get("Vary", "")


CACHED = ["/v1/cards", "/v1/rules", "/v1/rules/korean-3p", "/rules", "/rules/rules.css", "/problems/bad-deal"]
CACHED += ["/problems", "/openapi.yaml", "/openapi.json"]


@pytest.mark.parametrize("path", CACHED)
def test_what_never_changes_is_cacheable_and_revalidated(client, path):
    """The catalogs, the rule book, the problem types' pages and the document: an ETag, Cache-Control, and
    304 to If-None-Match (with no body)."""
    first = client.get(path)
    etag = first.headers["ETag"]
    assert first.status_code == 200 and first.headers["Cache-Control"] == "public, max-age=3600"
    assert len(first.headers.getlist("Cache-Control")) == 1
    again = client.get(path, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.data == b"" and again.headers["ETag"] == etag
    assert client.get(path, headers={"If-None-Match": '"stale"'}).status_code == 200


def test_a_catalog_in_each_language_has_its_own_etag(client):
    en, ko = (client.get("/v1/rules", headers={"Accept-Language": lang}) for lang in ("en", "ko"))
    assert en.headers["ETag"] != ko.headers["ETag"] and "Accept-Language" in ko.headers["Vary"]
    assert (
        client.get("/v1/rules", headers={"Accept-Language": "ko", "If-None-Match": en.headers["ETag"]}).status_code
        == 200
    )


def test_rulings_and_problems_are_never_cached(client):
    for resp in (client.post("/v1/score", json=SCORE), client.get("/v1/rules/korean-9p"), client.get("/nowhere")):
        assert resp.headers.getlist("Cache-Control") == ["no-store"], resp.status_code
        assert "ETag" not in resp.headers


def test_metrics_are_off_the_public_port_when_they_have_a_port_of_their_own():
    client = create_app({"TESTING": True, "METRICS_PORT": 9100}).test_client()
    assert_problem(client.get("/metrics"), 404, "not-found")


def test_cors_origins_from_the_environment(monkeypatch):
    monkeypatch.setenv("CORS_ORIGINS", "https://a.example, https://b.example")
    client = create_app({"TESTING": True}).test_client()
    resp = client.get("/healthz", headers={"Origin": "https://b.example"})
    assert resp.headers["Access-Control-Allow-Origin"] == "https://b.example"


# --- limits ---------------------------------------------------------------------------------------------


def test_body_over_64_kib_is_413(client):
    assert_problem(client.post("/v1/replay", data=b" " * (64 * 1024 + 1), content_type="application/json"), 413)


def test_deeply_nested_json_is_refused_early_not_a_crash(client):
    deep = b"[" * 5000 + b"]" * 5000
    assert_problem(client.post("/v1/score", data=deep, content_type="application/json"), 400, "malformed-json")
    deep_in_field = b'{"cards": ' + b"[" * 3000 + b"]" * 3000 + b"}"
    assert_problem(client.post("/v1/score", data=deep_in_field, content_type="application/json"), 400)
    # 1,000 levels parse, so they reach validation, whose report must not recurse as deep as the body
    parses = b'{"cards": ' + b"[" * 1000 + b"]" * 1000 + b"}"
    assert_problem(client.post("/v1/score", data=parses, content_type="application/json"), 422, "validation-error")
    # where the engine reads a card from a move, and names the culprit in its answer
    log = json.loads((Path(__file__).parent / "data" / "bomb-2p-known.json").read_text())["request"]
    log["moves"][0] = {**log["moves"][0], "shake": "DEEP"}
    in_move = json.dumps(log).replace('"DEEP"', "[" * 1000 + "]" * 1000)
    resp = client.post("/v1/replay", data=in_move, content_type="application/json")
    assert_problem(resp, 422, "unknown-card")
    assert resp.get_json()["move_index"] == 0 and len(resp.get_json()["card"]) < 80


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("/v1/score", {"cards": ["jan-junk-1"] * 52}, "cards"),
        ("/v1/settle", {"players": [{"id": str(i)} for i in range(4)]}, "players"),
        ("/v1/replay", {"players": ["A", "B"], "deal": {"layout": []}, "moves": [{"player": "A"}] * 201}, "moves"),
        ("/v1/settle", {"players": [{"id": "A" * 65}, {"id": "B"}]}, "players.0.id"),
    ],
)
def test_counts_are_bounded(client, path, body, field):
    assert field in assert_problem(client.post(path, json=body), 422, "validation-error")["errors"]


def test_non_json_content_type_is_415(client):
    assert_problem(client.post("/v1/score", data="cards=jan-bright", content_type="text/plain"), 415)


def test_a_huge_culprit_is_named_briefly_not_echoed(client):
    """A 60 KiB string where a card id goes is refused naming its start, not repeated in full (twice)."""
    huge = "x" * 60_000
    resp = client.post("/v1/score", json={"cards": [huge]})
    problem = assert_problem(resp, 422, "unknown-card")
    assert problem["card"] == "x" * 77 + "..." and len(resp.data) < 1000
