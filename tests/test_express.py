"""The express lane (service.express) changes no answer: the same request to the service with the lane and
without it (``EXPRESS_LANE`` off: Flask answers everything) gets the same status, the same headers in the same
order and the same bytes; and the lane really answers the sound requests, and only those (docs/speed.md).
"""

from __future__ import annotations

import json
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from werkzeug.test import EnvironBuilder

from engine.simulate import simulate
from service import create_app
from service.evening import EXAMPLES as EVENING_EXAMPLES
from service.replay import LIVE_EXAMPLE
from service.score import EXAMPLE as SCORE_EXAMPLE
from service.settlement import EXAMPLES as SETTLE_EXAMPLES
from tests.conftest import GAME_LOGS
from tests.test_replay_shape import PATHS, VALUES, rewritten

LANGS = ("en", "ko", "zh", "ja")


class Spy:
    """The Flask app behind the lane, counting the requests that reach it."""

    def __init__(self, app: Any) -> None:
        lane = app.wsgi_app.wsgi_app  # inside the request id, metrics and access log (service.observability)
        self.inner, self.calls = lane.flask_app, 0
        lane.flask_app = self

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        self.calls += 1
        return self.inner(environ, start_response)


@pytest.fixture(scope="module")
def apps() -> tuple[Any, Any, Spy]:
    config = {"TESTING": True, "ACCESS_LOG_STREAM": None}
    lane = create_app(config)
    plain = create_app({**config, "EXPRESS_LANE": False})
    return lane, plain, Spy(lane)


def answer(app: Any, path: str, body: bytes, query: str = "", **headers: str) -> tuple[str, list[Any], bytes]:
    headers.setdefault("X-Request-ID", "same-id")
    content_type = headers.pop("content_type", "application/json")
    environ = EnvironBuilder(
        path=path,
        method="POST",
        data=body,
        content_type=content_type,
        query_string=query,
        headers={k.replace("_", "-"): v for k, v in headers.items()},
    ).get_environ()
    said: dict[str, Any] = {}

    def start_response(status: str, header_list: list[Any], exc_info: Any = None) -> None:
        said["status"], said["headers"] = status, list(header_list)

    data = b"".join(app.wsgi_app(environ, start_response))
    return said["status"], said["headers"], data


def same(apps: tuple[Any, Any, Spy], path: str, body: bytes, query: str = "", **headers: str) -> tuple[str, bool]:
    """Asserts both paths answer alike; returns the status and whether the lane answered (Flask not reached)."""
    lane, plain, spy = apps
    before = spy.calls
    got = answer(lane, path, body, query, **headers)
    assert got == answer(plain, path, body, query, **headers)
    return got[0], spy.calls == before


def logged(path: Any) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))["request"]


@pytest.mark.parametrize("log", GAME_LOGS, ids=lambda p: p.stem)
def test_every_logged_hand_is_answered_alike_in_every_language_and_view(apps, log):
    body = orjson.dumps(logged(log))
    refused = log.stem.startswith("error-")
    for lang in LANGS:
        status, express = same(apps, "/v1/replay", body, Accept_Language=lang, Accept_Encoding="gzip")
        assert express is not refused and status.startswith("422" if refused else "200"), (lang, status)
    for query, prefer in (("view=lean", ""), ("", "return=minimal"), ("view=full", "return=minimal")):
        status, express = same(apps, "/v1/replay", body, query, Prefer=prefer)
        assert express is not refused, (query, prefer, status)


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/v1/score", SCORE_EXAMPLE),
        *(("/v1/settle", b) for b in SETTLE_EXAMPLES.values()),
        *(("/v1/evening", b) for b in EVENING_EXAMPLES.values()),
        ("/v1/replay", simulate("korean-3p", 5).to_dict()),
    ],
)
def test_the_documented_requests_are_answered_alike(apps, path, body):
    for lang in LANGS:
        for encoding in ("", "gzip", "gzip;q=0"):
            status, express = same(apps, path, orjson.dumps(body), Accept_Language=lang, Accept_Encoding=encoding)
            assert status == "200 OK" and express


BODY = orjson.dumps(LIVE_EXAMPLE)


@pytest.mark.parametrize(
    ("path", "body", "query", "headers"),
    [
        ("/v1/replay", b"{not json", "", {}),  # malformed: 400
        ("/v1/replay", b"[]", "", {}),  # not an object: 422
        ("/v1/replay", b"\xef\xbb\xbf" + BODY, "", {}),  # a byte-order mark, skipped by both
        ("/v1/replay", BODY, "view=bogus", {}),  # 422 from Flask's reading of the query
        ("/v1/replay", BODY, "view=lean&x=1", {}),
        ("/v1/replay", BODY, "", {"content_type": "text/plain; charset=utf-8"}),  # JSON sent as text: 422
        ("/v1/replay", BODY, "", {"content_type": "application/json; charset=latin-1"}),
        ("/v1/replay", BODY, "", {"Origin": "https://example.org"}),
        ("/v1/replay", b" " * 70_000, "", {}),  # over the limit: 413
        ("/v1/replay", orjson.dumps({**LIVE_EXAMPLE, "players": ["A", "A"]}), "", {}),  # the engine refuses
        ("/v1/score", orjson.dumps({"rules": "korean-2p", "cards": ["jan-bright", "jan-bright"]}), "", {}),
        ("/v1/settle", orjson.dumps({"rules": "nope", "players": []}), "", {}),
    ],
)
def test_what_the_lane_leaves_to_flask_is_answered_as_flask_answers_it(apps, path, body, query, headers):
    status, express = same(apps, path, body, query, **headers)
    plain = body.startswith(b"\xef") or (query == "" and headers == {} and status.startswith("2"))
    assert express is plain, status


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from([LIVE_EXAMPLE, simulate("korean-2p", 3).to_dict()]),
    st.sampled_from(PATHS),
    st.sampled_from(["set", "drop", "add"]),
    VALUES,
    st.sampled_from(LANGS),
)
def test_a_rewritten_body_is_answered_alike(apps, body, path, how, value, lang):
    body = rewritten(json.loads(json.dumps(body)), path, how, value)
    same(apps, "/v1/replay", orjson.dumps(body), Accept_Language=lang)


def test_the_metrics_count_the_lanes_answers_under_their_endpoint(apps):
    lane, _, spy = apps
    client = lane.test_client()
    before = spy.calls
    assert client.post("/v1/score", json=SCORE_EXAMPLE).status_code == 200
    assert spy.calls == before  # the lane answered it
    metrics = client.get("/metrics").get_data(as_text=True)
    assert 'gostop_requests_total{endpoint="/v1/score",method="POST",status="200"}' in metrics
