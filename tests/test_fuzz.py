"""schemathesis against the app's own openapi.yaml: every documented operation, every applicable check.

A body can match the schema and still describe something the rules refuse (a card held by two players, a
move that is not legal), and the API answers that with a 422 carrying a rule `code`. So the positive-data
check accepts 422, and the extra check below makes it strict where it matters: schema-valid data must never
be refused by the *schema layer* (`code: validation-error`), which would mean the document and the code
disagree.

schemathesis gives every operation the same test id, and pytest-xdist runs one item per id, so under xdist
only one operation would be fuzzed. `make test` runs this module in a pass of its own, without xdist, and
the module skips itself on an xdist worker rather than pass having fuzzed one operation.
"""

from __future__ import annotations

import json
import os

import pytest
import schemathesis
from hypothesis import HealthCheck, settings

from service import create_app

if os.environ.get("PYTEST_XDIST_WORKER"):
    pytest.skip("run without xdist, as make test does (under xdist one operation is fuzzed)", allow_module_level=True)

app = create_app({"TESTING": True})
# 413: a body the schema allows may still be larger than the service reads (docs/production.md); JSON Schema cannot
# bound a body's bytes, and an evening's list of hands (each a settle body or a whole log) easily passes 64 KiB
config = schemathesis.Config.from_dict(
    {
        "checks": {
            "positive_data_acceptance": {"expected-statuses": ["2xx", "404", "413", "422"]},
            "negative_data_rejection": {"expected-statuses": ["400", "404", "405", "413", "415", "422"]},
        }
    }
)
schema = schemathesis.openapi.from_wsgi("/openapi.yaml", app, config=config)
EXAMPLES = int(os.environ.get("GOSTOP_FUZZ_EXAMPLES", "60"))
# The same cases on every run, so that a clean clone's CI passes or fails as this machine did; explore new
# ones with GOSTOP_FUZZ_RANDOM=1 (and more of them with GOSTOP_FUZZ_EXAMPLES=500).
DERANDOMIZE = not os.environ.get("GOSTOP_FUZZ_RANDOM")


def schema_valid_data_passes_the_schema_layer(ctx, response, case):
    """Positive (schema-valid) data may be refused by the rules, never by request validation."""
    if case.meta is None or not case.meta.generation.mode.is_positive or response.status_code != 422:
        return None
    body = json.loads(response.content)
    if body.get("code") == "validation-error":
        raise AssertionError(f"schema-valid body refused by validation: {body.get('errors')}")
    return None


def problems_are_problem_json(ctx, response, case):
    """RFC 9457: every error answers application/problem+json with type, title, status and detail."""
    if response.status_code < 400:
        return None
    assert response.headers["content-type"][0].startswith("application/problem+json"), response.headers
    body = json.loads(response.content)
    assert {"type", "title", "status", "detail"} <= set(body) and body["status"] == response.status_code


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), derandomize=DERANDOMIZE)
def test_api_conforms_to_its_schema(case):
    case.call_and_validate(additional_checks=[schema_valid_data_passes_the_schema_layer, problems_are_problem_json])
