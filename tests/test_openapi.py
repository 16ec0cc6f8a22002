"""openapi.yaml: generated from the app, committed, valid, and every example true."""

import re

import pytest
import yaml
from openapi_spec_validator import validate

from tests.conftest import ROOT


@pytest.fixture(scope="module")
def generated(app) -> str:
    from service.openapi import openapi_yaml

    return openapi_yaml(app)


@pytest.fixture(scope="module")
def spec(generated):
    return yaml.safe_load(generated)


def test_committed_openapi_yaml_is_what_the_app_generates(generated):
    committed = (ROOT / "openapi.yaml").read_text(encoding="utf-8")
    assert committed == generated, "openapi.yaml is stale: run `make openapi` and commit it"


def test_the_document_has_no_yaml_anchors(generated):
    """Client generators read plain YAML: a node shared in the generated dict must not become an alias."""
    assert not re.search(r"(?m)(: |- )[&*]id\d+", generated)


def test_served_document_is_the_committed_one(client):
    resp = client.get("/openapi.yaml")
    assert resp.status_code == 200 and resp.mimetype == "application/yaml"
    assert resp.get_data(as_text=True) == (ROOT / "openapi.yaml").read_text(encoding="utf-8")


def test_openapi_document_is_valid(spec):
    validate(spec)


def _operations(spec):
    for path, item in spec["paths"].items():
        for method, op in item.items():
            if method in ("get", "post", "put", "delete", "patch"):
                yield path, method, op


def test_every_json_endpoint_has_request_and_response_examples(spec):
    for path, method, op in _operations(spec):
        if method == "post":
            content = op["requestBody"]["content"]["application/json"]
            assert "example" in content or "examples" in content, f"{method} {path}: no request example"
        ok = op["responses"]["200"].get("content", {}).get("application/json")
        if ok is not None:
            assert "example" in ok or "examples" in ok, f"{method} {path}: no response example"


def test_errors_are_documented_as_problem_json(spec):
    for path, method, op in _operations(spec):
        assert op["responses"]["default"] == {"$ref": "#/components/responses/DEFAULT_ERROR"}, (method, path)
    default = spec["components"]["responses"]["DEFAULT_ERROR"]
    assert list(default["content"]) == ["application/problem+json"]


def _examples(content):
    if "example" in content:
        yield content["example"]
    for ex in content.get("examples", {}).values():
        yield ex["value"]


def test_request_examples_give_the_documented_responses(spec, client):
    for path, method, op in _operations(spec):
        if method != "post":
            continue
        requests = list(_examples(op["requestBody"]["content"]["application/json"]))
        responses = list(_examples(op["responses"]["200"]["content"]["application/json"]))
        assert len(requests) == len(responses)
        for req, expected in zip(requests, responses, strict=True):
            resp = client.post(path, json=req)
            assert resp.status_code == 200, resp.get_json()
            assert resp.get_json() == expected


# The documented examples, worked out by hand from RULES.md (not by the functions that answer them).
def test_the_examples_show_what_the_rule_book_says(spec):
    by_path = {path: op for path, _, op in _operations(spec)}
    (score,) = _examples(by_path["/v1/score"]["responses"]["200"]["content"]["application/json"])
    assert score["total"] == 3 + 5  # three brights without the rain bright, and godori (RULES.md 2)
    stop, three = _examples(by_path["/v1/settle"]["responses"]["200"]["content"]["application/json"])
    # A: 3 brights + godori = 8 points, one go: 8 + 1 = 9 base (RULES.md 7); B holds no bright: gwangbak x2, and
    # 4 junk units while A scores no junk, so no pibak; stake 100 (RULES.md 8)
    assert (stop["base_points"], stop["payments"][0]["points"], stop["payments"][0]["amount"]) == (9, 18, 1800)
    # korean-3p: A scores hongdan (3) and shook once: x2; A scores neither brights nor junk, so no gwangbak or
    # pibak. B called go and is overtaken: gobak pays-all, B also pays C's share, but C captured nothing and is
    # exempt (0), so B pays 3 x2 = 6 and C nothing
    payers = {p["from"]: p for p in three["payments"]}
    assert (payers["B"]["points"], payers["B"]["covers"], payers["C"]["points"]) == (6, [], 0)


@pytest.mark.parametrize(
    ("schema", "path"),
    [("ScoreResponse", "/v1/score"), ("SettleResponse", "/v1/settle"), ("ReplayResponse", "/v1/replay")],
)
def test_every_answer_has_exactly_the_documented_shape(client, schema, path):
    """The renderers (service.render) and the documented schemas (service.responses) describe the same
    shapes: every example and every simulated hand's answer validates, unknown fields refused."""
    from engine import PRESETS
    from engine.simulate import simulate
    from service import responses
    from service.api import examples

    bodies = {
        "/v1/score": [examples.SCORE_REQUEST],
        "/v1/settle": list(examples.SETTLE_REQUESTS.values()),
        "/v1/replay": [*examples.REPLAY_REQUESTS.values(), *(simulate(p, s) for p in PRESETS for s in range(8))],
    }[path]
    if path == "/v1/replay":  # and every go/stop decision and unfinished state of those hands
        bodies += [{**b, "moves": b["moves"][:n]} for b in bodies[3:] for n in range(0, len(b["moves"]), 3)]
    validator = getattr(responses, schema)()
    for lang in ("en", "ko"):
        for body in bodies:
            answer = client.post(path, json=body, headers={"Accept-Language": lang}).get_json()
            assert validator.validate(answer) == {}, body
