"""One reader for every door (docs/log.md): a replay body gets the same refusal from the API (POST /v1/replay),
the command offline (``gostop replay --json``, ``gostop check --json``), the client's offline transport
(``gostop.local.LocalService``) and the audit (``gostop.audit.audit_line``), which reads it with
``engine.Log.from_dict`` and has no schema of its own.

The corpus is every refusal of the API's replay tests: the refused game logs of tests/data/, the malformed moves
and the shapes tests/test_replay.py sends, and counts written as numbers the API reads (or refuses).
"""

from __future__ import annotations

import json
from pathlib import Path

import orjson
import pytest

from engine.simulate import simulate
from gostop import audit, cli
from gostop.local import LocalService
from tests.conftest import GAME_LOGS, ROOT

pytestmark = pytest.mark.xdist_group("programs")

LIVE = {
    "rules": "korean-2p",
    "players": ["A", "B"],
    "deal": {
        "layout": [
            *("jan-bright", "feb-junk-1", "mar-ribbon", "apr-junk-1"),
            *("may-animal", "jun-junk-1", "aug-junk-2", "oct-ribbon"),
        ]
    },
    "moves": [
        {"player": "A", "play": "jan-junk-1", "draw": "dec-double"},
        {"player": "B", "play": "mar-bright", "draw": "mar-junk-1"},
    ],
}
DONE = simulate("korean-2p", 5).to_dict()  # a finished hand


def _corpus() -> dict[str, dict]:
    cases: dict[str, dict] = {}
    for path in GAME_LOGS:
        case = json.loads(path.read_text(encoding="utf-8"))
        if "error" in case["expect"]:
            cases[f"data-{path.stem}"] = case["request"]
    malformed = [  # tests/test_replay.py: test_replay_malformed_moves, and an unknown card
        {"player": "A"},
        {"player": "A", "play": "jul-junk-1", "flip": True},
        {"player": "A", "play": "jul-junk-1", "colour": "red"},
        {"player": "A", "call": "maybe"},
        {"player": "A", "call": "go", "play": "jul-junk-1"},
        {"player": "A", "play": "jul-junk-1"},
        {"player": "A", "play": "jul-junk-1", "draw": "jul-junk-1"},
        {"player": "A", "play": "jan-brite", "draw": "nov-junk-1"},
    ]
    for i, move in enumerate(malformed):
        cases[f"move-{i}"] = {**LIVE, "moves": [*LIVE["moves"], move]}
    shapes = {  # tests/test_replay.py: test_replay_schema_errors, and more of the documented limits
        "no-layout": {"players": ["A", "B"], "deal": {}},
        "no-deal": {"players": ["A", "B"]},
        "one-player": {"players": ["A"], "deal": LIVE["deal"]},
        "moves-a-string": {"players": ["A", "B"], "deal": LIVE["deal"], "moves": "A plays"},
        "move-a-number": {"players": ["A", "B"], "deal": LIVE["deal"], "moves": [1]},
        "too-many-moves": {"players": ["A", "B"], "deal": LIVE["deal"], "moves": [{}] * 201},
        "stake-with-a-fraction": {**LIVE, "stake": 2.5},
        "stake-a-string": {**LIVE, "stake": "2"},
        "stake-a-boolean": {**LIVE, "stake": True},
        "stake-too-high": {**LIVE, "stake": 10**9 + 1},
        "streak-too-long": {**LIVE, "nagari_streak": 21},
        "long-player-id": {**LIVE, "players": ["A", "B" * 65]},
        "unknown-field": {**LIVE, "colour": "red"},
        "unknown-deal-field": {**LIVE, "deal": {**LIVE["deal"], "river": []}},
        "sit-out-without-seat": {**LIVE, "deal": {**LIVE["deal"], "sit_out": {"player": "D"}}},
        "hands-a-list": {**LIVE, "deal": {**LIVE["deal"], "hands": ["jan-bright"]}},
        "unknown-preset": {**LIVE, "rules": "korean-9p"},
        "unknown-card-in-the-deal": {**LIVE, "deal": {"layout": ["jan-brite", *LIVE["deal"]["layout"][1:]]}},
        "finished-then-played": {**DONE, "moves": [*DONE["moves"], DONE["moves"][0]]},
    }
    cases.update(shapes)
    return cases


CORPUS = _corpus()


def refusal(status: int, answer: dict) -> tuple:
    """What a refusal says, door by door: its code, its move index, and the field paths of a validation error."""
    assert status == 422, answer
    return answer["code"], answer.get("move_index"), sorted(answer.get("errors") or ())


def test_the_corpus_holds_refusals_of_every_kind():
    codes = {refusal(*api(body))[0] for body in CORPUS.values()}
    assert {"validation-error", "bad-move", "unknown-card", "bad-deal", "unknown-preset", "game-over"} <= codes
    assert len(CORPUS) >= 40


_APP = {}


def api(body: dict) -> tuple[int, dict]:
    if "app" not in _APP:
        from service.app import create_app

        _APP["app"] = create_app().test_client()
    answer = _APP["app"].post("/v1/replay", json=body)
    return answer.status_code, answer.get_json()


@pytest.fixture(scope="module")
def local():
    return LocalService("en")


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_every_door_gives_the_same_refusal(name, local, tmp_path, capsysbinary):
    body = CORPUS[name]
    expected = refusal(*api(body))

    offline = local.request("POST", "/v1/replay", orjson.dumps(body))
    assert refusal(offline.status, orjson.loads(offline.body)) == expected

    path = tmp_path / "log.json"
    path.write_bytes(orjson.dumps(body))
    for command in ("replay", "check"):
        status = cli.main([command, "--json", str(path)])
        out = capsysbinary.readouterr().out
        assert status == cli.REFUSED
        assert refusal(422, orjson.loads(out)) == expected, command

    verdict = audit.audit_line(orjson.dumps({"id": name, **body}))
    finding = verdict.finding
    assert finding is not None and finding["code"] == expected[0]
    if finding["kind"] == "illegal":
        assert finding["move_index"] == expected[1]
    else:
        assert (finding["kind"], sorted(finding["errors"])) == ("invalid", expected[2])


@pytest.mark.parametrize(("field", "value"), [("stake", 2.0), ("nagari_streak", 1.0)])
def test_a_count_written_2_0_is_read_alike_at_every_door(field, value, local):
    """The API reads 2.0 as 2 (JSON Schema does); the audit refused it before it read bodies with Log.from_dict."""
    body = {**DONE, field: value}
    status, answer = api(body)
    assert status == 200 and answer == api({**DONE, field: int(value)})[1]
    assert local.request("POST", "/v1/replay", orjson.dumps(body)).status == 200
    verdict = audit.audit_line(orjson.dumps({"id": 1, **body}))
    assert verdict.finding is None and verdict.finished


def test_the_audit_has_no_schema_of_its_own():
    """The audit reads a line with the engine's one reader: no field names, limits or marshmallow texts of its own."""
    source = (ROOT / "gostop" / "audit.py").read_text(encoding="utf-8")
    assert "Log.from_dict" in source
    for copied in ("shape_errors", "Missing data for required field", "MAX_MOVES", "marshmallow", "service.schemas"):
        assert copied not in source, copied
    # what it takes from the service is words (issue 30: findings in words), never a schema or an answer
    imported = {line.split()[1] for line in source.splitlines() if line.startswith("from service")}
    assert imported <= {"service.i18n", "service.sentences.audit"}, imported
    assert not hasattr(audit, "shape_errors")
    assert Path(audit.__file__).name == "audit.py"
