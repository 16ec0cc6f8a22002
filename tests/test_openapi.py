"""openapi.yaml: generated from the app, committed, valid, and every example true."""

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
