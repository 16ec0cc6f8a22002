"""openapi.yaml: generated from the app, committed, valid OpenAPI 3.1, and true: every answer to the game logs of
tests/data and to the documented examples validates strictly (JSON Schema 2020-12) against the schema the
document gives for it."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from jsonschema import Draft202012Validator, FormatChecker
from openapi_spec_validator import validate
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from service.i18n import LANGUAGES
from tests.conftest import GAME_LOGS, ROOT

LOGS = GAME_LOGS
NAMED = {
    "CardId",
    "BonusCardId",
    "PresetName",
    "CupPlacement",
    "EventType",
    "Outcome",
    "Combination",
    "Expect",
    "ProblemCode",
}


@pytest.fixture(scope="module")
def generated(app) -> str:
    from service.openapi import openapi_yaml

    return openapi_yaml(app)


@pytest.fixture(scope="module")
def spec(generated) -> dict[str, Any]:
    return yaml.safe_load(generated)


def test_committed_openapi_yaml_is_what_the_app_generates(generated):
    committed = (ROOT / "openapi.yaml").read_text(encoding="utf-8")
    assert committed == generated, "openapi.yaml is stale: run `make openapi` and commit it"


def test_the_document_has_no_yaml_anchors(generated):
    """Client generators read plain YAML: a node shared in the generated dict must not become an alias."""
    assert not re.search(r"(?m)(: |- )[&*]id\d+", generated)


def test_served_documents_are_the_committed_one_as_yaml_and_as_json(client):
    committed = (ROOT / "openapi.yaml").read_text(encoding="utf-8")
    resp = client.get("/openapi.yaml")
    assert resp.status_code == 200 and resp.mimetype == "application/yaml"
    assert resp.get_data(as_text=True) == committed
    as_json = client.get("/openapi.json")
    assert as_json.status_code == 200 and as_json.mimetype == "application/json"
    assert as_json.get_json() == yaml.safe_load(committed)


def test_openapi_document_is_valid_openapi_3_1(spec):
    assert spec["openapi"].startswith("3.1.")
    validate(spec)


def _walk(node: Any, path: str = "#"):
    yield path, node
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _walk(value, f"{path}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _walk(value, f"{path}/{i}")


def test_null_is_declared_the_json_schema_way(spec):
    """OpenAPI 3.1 has no ``nullable``: a nullable value is a type list with null, or anyOf with null."""
    assert [p for p, node in _walk(spec) if isinstance(node, dict) and "nullable" in node] == []
    schemas = spec["components"]["schemas"]
    assert schemas["ReplayResponse"]["properties"]["next"] == {
        "anyOf": [{"$ref": "#/components/schemas/NextOut"}, {"type": "null"}]
    }
    assert schemas["EventOut"]["properties"]["move_index"]["type"] == ["integer", "null"]


def test_each_named_set_is_defined_once_and_referenced(spec):
    """Card ids, preset names, knob choices, event types, outcomes and codes: one component each, and nowhere
    else an enum of the same values (a generated client gets one type, not one per use)."""
    schemas = spec["components"]["schemas"]
    assert set(schemas) >= NAMED
    choices = {name for name in schemas if name.endswith("Choice")} | {"RedealOrNagari"}
    assert {"GobakChoice", "GoSchemeChoice", "SepAnimalChoice", "RedealOrNagari"} <= choices
    enums = [(p, tuple(node["enum"])) for p, node in _walk(spec) if isinstance(node, dict) and "enum" in node]
    named_values = {tuple(schemas[name]["enum"]): name for name in NAMED | choices}
    for path, values in enums:
        owner = named_values.get(values)
        if owner is not None:
            assert path == f"#/components/schemas/{owner}", f"{path} repeats {owner}"
    assert len(named_values) == len(NAMED | choices), "two named sets hold the same values"
    refs = json.dumps(spec)
    for name in NAMED:
        assert f'"#/components/schemas/{name}"' in refs, f"{name} is defined but never used"
    # a replay's cards are typed as card ids, so they can be sent back in a request
    player = schemas["ReplayPlayerOut"]["properties"]
    assert player["captured"]["items"] == {"$ref": "#/components/schemas/CardId"}
    assert schemas["ScoreRequest"]["properties"]["cards"]["items"] == {"$ref": "#/components/schemas/CardId"}


def _operations(spec):
    for path, item in spec["paths"].items():
        for method, op in item.items():
            if method in ("get", "post", "put", "delete", "patch"):
                yield path, method, op


def test_languages_are_in_the_document(spec):
    """Accept-Language is a parameter of every operation (each answers problems with words), and every JSON
    answer documents its Content-Language."""
    components = spec["components"]
    assert components["parameters"]["AcceptLanguage"]["name"] == "Accept-Language"
    assert components["parameters"]["AcceptLanguage"]["description"]
    for path, method, op in _operations(spec):
        assert {"$ref": "#/components/parameters/AcceptLanguage"} in op["parameters"], (method, path)
        for status, response in op["responses"].items():
            response = components["responses"][response["$ref"].rsplit("/", 1)[1]] if "$ref" in response else response
            if any(kind.endswith("json") for kind in response.get("content", {})):
                assert "Content-Language" in response["headers"], (method, path, status)


def test_problems_are_documented_with_every_code_and_an_example_of_each_status(spec):
    from service.codes import CODES, HTTP_CODES

    components = spec["components"]
    problem = components["schemas"]["Problem"]
    # API.md v1.3: the codes there are today, and any other string a later /v1 may add
    assert problem["properties"]["code"]["anyOf"] == [{"$ref": "#/components/schemas/ProblemCode"}, {"type": "string"}]
    assert components["schemas"]["ProblemCode"]["enum"] == list(CODES)
    for path, method, op in _operations(spec):
        assert op["responses"]["default"] == {"$ref": "#/components/responses/DEFAULT_ERROR"}, (method, path)
    default = components["responses"]["DEFAULT_ERROR"]["content"]["application/problem+json"]
    statuses = {example["value"]["status"] for example in default["examples"].values()}
    assert statuses == set(HTTP_CODES)
    for example in default["examples"].values():
        assert example["value"]["type"] == "/problems/" + example["value"]["code"]
    assert components["responses"]["UNPROCESSABLE_ENTITY"]["content"]["application/problem+json"]["example"]


def _examples(content):
    if "example" in content:
        yield content["example"]
    for ex in content.get("examples", {}).values():
        yield ex["value"]


def test_every_json_endpoint_has_request_and_response_examples(spec):
    for path, method, op in _operations(spec):
        if method == "post":
            content = op["requestBody"]["content"]["application/json"]
            assert "example" in content or "examples" in content, f"{method} {path}: no request example"
        ok = op["responses"]["200"].get("content", {}).get("application/json")
        if ok is not None and path != "/openapi.json":
            assert "example" in ok or "examples" in ok, f"{method} {path}: no response example"


def test_request_examples_give_the_documented_responses(spec, client):
    for path, method, op in _operations(spec):
        if method != "post":
            continue
        requests = list(_examples(op["requestBody"]["content"]["application/json"]))
        # the lean answer of /v1/replay is asked with ?view=lean (tests/test_v13.py checks its example)
        responses = [
            r for r in _examples(op["responses"]["200"]["content"]["application/json"]) if r.get("view") != "lean"
        ]
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
    settled = by_path["/v1/settle"]["responses"]["200"]["content"]["application/json"]
    said, four, stop, three = _examples(settled)  # in the order of their names
    # A: 3 brights + godori = 8 points, one go: 8 + 1 = 9 base (RULES.md 7); B holds no bright: gwangbak x2, and
    # 4 junk units while A scores no junk, so no pibak; stake 100 (RULES.md 8)
    assert (stop["base_points"], stop["payments"][0]["points"], stop["payments"][0]["amount"]) == (9, 18, 1800)
    # korean-3p: A scores hongdan (3) and shook once: x2; A scores neither brights nor junk, so no gwangbak or
    # pibak. B called go and is overtaken: gobak pays-all, B also pays C's share, but C captured nothing and is
    # exempt (0), so B pays 3 x2 = 6 and C nothing
    payers = {p["from"]: p for p in three["payments"]}
    assert (payers["B"]["points"], payers["B"]["covers"], payers["C"]["points"]) == (6, [], 0)
    # API.md v1.2: A says 9 points (3 brights, godori, 10 junk units) after one go: 10 base; B says 6 junk units
    # and no bright: pibak x2 and gwangbak x2, 40 points at 100 (RULES.md 7, 8), each check saying it rests on counts
    assert (said["base_points"], said["payments"][0]["points"], said["payments"][0]["amount"]) == (10, 40, 4000)
    checks = {c["rule"]: c for c in said["payments"][0]["checks"]}
    assert checks["pibak"]["facts"]["declared"] is checks["gwangbak"]["facts"]["declared"] is True
    # RULES.md 4.5: D sells 3 brights and a bonus card (1 each) and the 3 points of three brights, doubled for three
    # of August: 14 from B and from C, the players other than the dealer A
    assert (four["sale"]["value"], four["sale"]["payers"], four["sale"]["month"]) == (14, ["B", "C"], 8)


# --- every answer, strictly against its schema --------------------------------------------------------------


class Contract:
    """Validates a value against a schema of the document, by JSON Schema 2020-12 (formats checked)."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.spec = spec
        resource = Resource.from_contents(spec, default_specification=DRAFT202012)
        self.registry = Registry().with_resource("urn:gostop", resource)

    def errors(self, schema: dict[str, Any], value: Any) -> list[str]:
        schema = json.loads(json.dumps(schema).replace('"#/components/', '"urn:gostop#/components/'))
        validator = Draft202012Validator(schema, registry=self.registry, format_checker=FormatChecker())
        return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(value)]

    def answer_errors(self, path: str, method: str, status: int, value: Any) -> list[str]:
        op = self.spec["paths"][path][method]
        response = op["responses"].get(str(status), op["responses"]["default"])
        if "$ref" in response:
            response = self.spec["components"]["responses"][response["$ref"].rsplit("/", 1)[1]]
        (content,) = response["content"].values()
        return self.errors(content["schema"], value)

    def request_errors(self, path: str, method: str, value: Any) -> list[str]:
        content = self.spec["paths"][path][method]["requestBody"]["content"]["application/json"]
        return self.errors(content["schema"], value)


@pytest.fixture(scope="module")
def contract(spec) -> Contract:
    return Contract(spec)


def test_the_strict_validation_sees_a_wrong_answer(contract):
    """The validator below refuses what the document refuses: an unknown field, a card id that is no card."""
    assert contract.answer_errors("/v1/score", "post", 200, {"total": 1}) != []
    bad = {"type": "/problems/x", "title": "t", "status": 422, "detail": "d", "code": 7}
    assert contract.answer_errors("/v1/score", "post", 422, bad) != []
    # a code added by a later /v1 is a string the document accepts (API.md v1.3)
    assert contract.answer_errors("/v1/score", "post", 422, {**bad, "code": "no-such-code-yet"}) == []
    assert contract.errors({"$ref": "#/components/schemas/CardId"}, "jan-brite") != []


@pytest.mark.parametrize("log", LOGS, ids=[p.stem for p in LOGS])
def test_every_answer_to_a_game_log_validates_strictly(client, contract, log):
    """Each log of tests/data, whole and cut after every few moves, in both languages: 200 answers against
    ReplayResponse, refusals against Problem."""
    case = json.loads(log.read_text(encoding="utf-8"))
    request = case["request"]
    if "error" not in case["expect"]:  # a refused log may break the documented shape on purpose (a card twice)
        assert contract.request_errors("/v1/replay", "post", request) == []
    moves = request.get("moves", [])
    bodies = [request, *({**request, "moves": moves[:n]} for n in range(0, len(moves), 4))]
    for lang in LANGUAGES:
        for body in bodies:
            resp = client.post("/v1/replay", json=body, headers={"Accept-Language": lang})
            assert resp.headers["Content-Language"] == lang
            assert contract.answer_errors("/v1/replay", "post", resp.status_code, resp.get_json()) == []


def test_every_documented_example_validates_strictly(spec, contract):
    for path, method, op in _operations(spec):
        if method == "post":
            for req in _examples(op["requestBody"]["content"]["application/json"]):
                assert contract.request_errors(path, method, req) == [], (path, req)
        for status, response in op["responses"].items():
            if "$ref" in response:
                response = spec["components"]["responses"][response["$ref"].rsplit("/", 1)[1]]
            for kind, content in response.get("content", {}).items():
                if "schema" in content and kind.endswith("json"):
                    for example in _examples(content):
                        assert contract.errors(content["schema"], example) == [], (path, status, example)


def test_answers_of_every_endpoint_validate_strictly(client, contract):
    """Simulated hands of every preset (settled and cut at their go/stop decisions), their settle and score
    requests, the catalogs, and a refusal of each kind."""
    from engine import PRESETS
    from engine.simulate import simulate

    posted: list[tuple[str, Any]] = []
    for preset in PRESETS:
        for seed in range(4):
            body = simulate(preset, seed).to_dict()
            calls = [i for i, m in enumerate(body["moves"]) if "call" in m]
            posted += [("/v1/replay", body)] + [("/v1/replay", {**body, "moves": body["moves"][:i]}) for i in calls]
            answer = client.post("/v1/replay", json=body).get_json()
            players = [{"id": p["id"], "captured": p["captured"], "go_count": p["go_count"]} for p in answer["players"]]
            winner = answer["settlement"]["winner"]
            posted += [("/v1/settle", {"rules": preset, "players": players, "winner": winner, "stake": 100})]
            posted += [("/v1/score", {"rules": preset, "cards": p["captured"]}) for p in players]
    posted += [
        ("/v1/settle", {"players": [{"id": "A"}, {"id": "A"}], "winner": "A"}),
        ("/v1/score", {"cards": ["jan-brite"], "rules": {"preset": "korean-2p", "gobak": "x"}}),
        ("/v1/score", {"rules": "korean-9p", "cards": []}),
        ("/v1/score", {"cards": 7, "extra": 1}),
    ]
    for lang in LANGUAGES:
        for path, body in posted:
            resp = client.post(path, json=body, headers={"Accept-Language": lang})
            assert contract.answer_errors(path, "post", resp.status_code, resp.get_json()) == [], (path, body)
        for path in ("/v1/cards", "/v1/rules", "/v1/rules/korean-3p", "/v1/rules/korean-9p", "/healthz"):
            resp = client.get(path, headers={"Accept-Language": lang})
            rule = "/v1/rules/{preset}" if path.startswith("/v1/rules/") else path
            assert contract.answer_errors(rule, "get", resp.status_code, resp.get_json()) == [], path


def test_a_problem_type_is_a_page_of_every_code(client, spec):
    """Every problem ``type`` is /problems/<code>, and that address answers, in English and in Korean, with
    what the code means (from the same catalog as the answers)."""
    from service.codes import CODES

    for code in spec["components"]["schemas"]["ProblemCode"]["enum"]:
        pages = {lang: client.get(f"/problems/{code}", headers={"Accept-Language": lang}) for lang in LANGUAGES}
        for lang, page in pages.items():
            text = page.get_data(as_text=True)
            assert page.status_code == 200 and page.mimetype == "text/html", code
            assert page.headers["Content-Language"] == lang
            assert f"<code>{code}</code>" in text and str(CODES[code]) in text
        assert re.search("[가-힣]{4}", pages["ko"].get_data(as_text=True)), code
        assert pages["en"].data != pages["ko"].data
    index = client.get("/problems?lang=ko").get_data(as_text=True)
    assert all(f'href="/problems/{code}"' in index for code in CODES)
    assert client.get("/problems/no-such-code").status_code == 404
    refused = client.post("/v1/replay", json={"players": ["A", "B"], "deal": {"layout": []}})
    assert refused.get_json()["type"] == "/problems/bad-deal"
    assert client.get(refused.get_json()["type"]).status_code == 200


def test_readme_lists_every_problem_code():
    """The error tables (docs/errors.md) name every code of the document (and no other)."""
    from service.codes import CODES

    section = (ROOT / "docs" / "errors.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"`([a-z]+(?:-[a-z]+)+|[a-z]+)`", section)) & set(CODES)
    assert listed == set(CODES), set(CODES) - listed


def test_every_code_the_engine_raises_is_a_documented_code():
    """service.codes.RULE_CODES holds exactly the codes the engine's errors are raised with (read from the
    engine's source: the first argument of every ``...Error("code", ...)`` and ``self.fail("code", ...)``, and
    bad-notation for a NotationError, whose first argument is its why)."""
    import ast

    from service.codes import RULE_CODES

    raised = set()
    for source in (ROOT / "engine").glob("*.py"):
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant)):
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", "")
            if name == "NotationError":  # its first argument says why: its code is always bad-notation
                raised.add("bad-notation")
            elif (name.endswith("Error") or name == "fail") and isinstance(node.args[0].value, str):
                raised.add(node.args[0].value)
    raised -= {"the hand is not over", "no go/stop decision is due", "legal_moves needs a known deal: hands and stock"}
    assert raised == set(RULE_CODES)


def test_the_openapi_module_writes_the_document(tmp_path):
    """`make openapi` runs ``python -m service.openapi openapi.yaml``."""
    import subprocess
    import sys

    out = tmp_path / "openapi.yaml"
    subprocess.run([sys.executable, "-m", "service.openapi", str(out)], cwd=ROOT, check=True, timeout=120)
    assert out.read_text(encoding="utf-8") == Path(ROOT / "openapi.yaml").read_text(encoding="utf-8")


def test_the_servers_own_refusals_use_the_same_codes_and_types():
    """What gunicorn's worker answers before the application (408, 503 busy...) is a documented code, with the
    type of every other problem."""
    from http import HTTPStatus

    from service import worker
    from service.codes import CODES, SERVER_CODES

    for status, code in SERVER_CODES.items():
        assert CODES[code] == status
        answer = worker.problem_response(HTTPStatus(status), "why")
        body = json.loads(answer.split(b"\r\n\r\n", 1)[1])
        assert (body["code"], body["type"], body["status"]) == (code, f"/problems/{code}", status)
    busy = json.loads(worker.FULL_503.split(b"\r\n\r\n", 1)[1])
    assert busy["type"] == "/problems/busy"
