"""Game logs as data: each file of tests/data/ is a POST /v1/replay body and the answer RULES.md gives for it
(but perft-*.json, the perft counts of tests/test_perft.py).

The logs hold the behaviour of RULES.md 4-9 through the HTTP contract only (codes, card ids, numbers; never
the wording of a sentence), so the engine behind it can be rebuilt freely. A file is

    {"description": "one sentence, citing the RULES.md section it shows",
     "request": <a POST /v1/replay body>,
     "expect": {<the fields below, each optional but "status" or "error">},
     "xfail": "why the service disagrees with the rule book"}     (only while it does)

Expected fields, compared with the answer:

- "error": {"status", "code", "move_index"} (null: the problem has no move index), and "card", "player" or
  "why" when given: the log is refused with that problem.
- "status", "next" ({"player", "expects"} or null), "layout" (a set of card ids), "stock_left".
- "outcome", "winner", "base_points": the settlement's.
- "events": every event of the answer, in order; an entry is an event type, or an object whose keys
  ("type", "player", "move_index", "from", "cards", "cause", "card") must match the event's.
- "events_include": entries of the same form that occur in this order, others allowed between them.
- "players": {id: {"captured" (a set), "hand" (a set, or null), "score_total", "go_count", "shakes",
  "bombs", "ppuk_count", "hand_size"}}: only the fields given are compared.
- "instant_payments", "payments": every row in order; a row checks the keys it gives ("from", "to",
  "points", "amount", "move_index"), and a payment's "factors" ({rule: factor}) is the whole set applied.
"""

from __future__ import annotations

import json
import re
from enum import Enum
from pathlib import Path
from typing import Any

import pytest

from engine import Card, CardSet, GoStopError, Log

DATA = Path(__file__).resolve().parent / "data"
LOGS = sorted(p for p in DATA.glob("*.json") if not p.name.startswith("perft-"))

CASE_KEYS = {"description", "request", "expect", "xfail"}
PLAYER_FIELDS = {"captured", "hand", "score_total", "go_count", "shakes", "bombs", "ppuk_count", "hand_size"}
EXPECT_KEYS = {
    "error",
    "status",
    "next",
    "layout",
    "stock_left",
    "outcome",
    "winner",
    "base_points",
    "events",
    "events_include",
    "players",
    "instant_payments",
    "payments",
}
# What the logs must keep covering, so that the set cannot shrink unnoticed.
ERROR_CODES = {
    "bad-deal",
    "bad-move",
    "unknown-card",
    "not-your-turn",
    "card-not-in-hand",
    "card-already-seen",
    "capture-required",
    "capture-not-allowed",
    "draw-required",
    "draw-mismatch",
    "call-required",
    "call-not-allowed",
    "shake-not-allowed",
    "bomb-not-allowed",
    "game-over",
    "bonus-not-in-play",
    "sep-animal-pin",
    "shodang-not-allowed",
}
EVENT_TYPES = {
    "ppuk",
    "chok",
    "ttadak",
    "sseul",
    "ja-ppuk",
    "stack-capture",
    "shake",
    "bomb",
    "bonus",
    "steal",
    "go",
    "stop",
    "chongtong",
    "three-ppuk",
    "heodang",
    "nagari",
    "play-on",
    "shodang",
    "shodang-answer",
}
OUTCOMES = {"stop", "nagari", "chongtong", "three-ppuk", "heodang"}


def load(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def _cases() -> list[Any]:
    out = []
    for path in LOGS:
        case = load(path)
        marks = [pytest.mark.xfail(strict=True, reason=case["xfail"])] if "xfail" in case else []
        out.append(pytest.param(path, id=path.stem, marks=marks))
    return out


# --- comparing an answer with "expect" ------------------------------------------------------------------


def _sorted(ids: list[str] | None) -> list[str] | None:
    return None if ids is None else sorted(ids)


def _same_set(expected: list[str] | None, got: list[str] | None) -> bool:
    return _sorted(expected) == _sorted(got)


def _entry_matches(expected: str | dict[str, Any], got: dict[str, Any]) -> bool:
    if isinstance(expected, str):
        return got["type"] == expected
    return all(got.get(key) == value for key, value in expected.items())


def _rows(name: str, expected: list[Any], got: list[dict[str, Any]], problems: list[str]) -> None:
    """Every row in order; each expected row checks the keys it names."""
    if len(expected) != len(got) or not all(_entry_matches(e, g) for e, g in zip(expected, got, strict=False)):
        problems.append(f"{name}: expected {json.dumps(expected)}\n    got {json.dumps(_trim(got, expected))}")


def _trim(got: list[dict[str, Any]], expected: list[Any]) -> list[Any]:
    """The answer's rows cut to the keys the expectation uses, so a failure message compares like with like."""
    keys = {k for e in expected if isinstance(e, dict) for k in e} or {"type"}
    return [{k: g.get(k) for k in g if k in keys} for g in got]


def _subsequence(expected: list[Any], got: list[dict[str, Any]]) -> bool:
    """Each expected entry matches an event after the previous one's match (one iterator, consumed in order)."""
    rest = iter(got)
    return all(any(_entry_matches(e, g) for g in rest) for e in expected)


def _payments(expected: list[dict[str, Any]], got: list[dict[str, Any]], problems: list[str]) -> None:
    rows = []
    for pay in got:
        row = {k: v for k, v in pay.items() if k in ("from", "to", "points", "amount")}
        row["factors"] = {f["rule"]: f["factor"] for f in pay["factors"]}
        rows.append(row)
    _rows("payments", expected, rows, problems)


def compare(expect: dict[str, Any], status: int, body: dict[str, Any]) -> list[str]:
    """What differs between the answer and the expectation, one line per field."""
    problems: list[str] = []

    def check(name: str, expected: Any, got: Any) -> None:
        if expected != got:
            problems.append(f"{name}: expected {json.dumps(expected)}, got {json.dumps(got)}")

    if "error" in expect:
        error = expect["error"]
        check("error.status", error["status"], status)
        for key in ("code", "why", "move_index", "card", "player"):
            if key in error:
                check(f"error.{key}", error[key], body.get(key))
        return problems
    if status != 200:
        return [f"expected 200, got {status} {body.get('code')} at move {body.get('move_index')}: {body.get('detail')}"]

    for key in ("status", "stock_left"):
        if key in expect:
            check(key, expect[key], body[key])
    if "next" in expect:
        got_next = body["next"] and {k: body["next"][k] for k in ("player", "expects")}
        check("next", expect["next"], got_next)
    if "layout" in expect and not _same_set(expect["layout"], body["layout"]):
        check("layout (as a set)", _sorted(expect["layout"]), _sorted(body["layout"]))
    settlement = body["settlement"] or {}
    for key in ("outcome", "winner", "base_points"):
        if key in expect:
            check(key, expect[key], settlement.get(key))
    if "events" in expect:
        _rows("events", expect["events"], body["events"], problems)
    if "events_include" in expect and not _subsequence(expect["events_include"], body["events"]):
        problems.append(
            f"events_include: {json.dumps(expect['events_include'])} do not occur in this order in\n"
            f"    {json.dumps(_trim(body['events'], expect['events_include']))}"
        )
    seats = {p["id"]: p for p in body["players"]}
    for pid, fields in expect.get("players", {}).items():
        seat = seats.get(pid)
        if seat is None:
            problems.append(f"players: no player {pid!r}")
            continue
        for key, expected in fields.items():
            if key in ("captured", "hand"):
                if not _same_set(expected, seat[key]):
                    check(f"players.{pid}.{key} (as a set)", _sorted(expected), _sorted(seat[key]))
            elif key == "score_total":
                check(f"players.{pid}.score_total", expected, seat["score"]["total"])
            else:
                check(f"players.{pid}.{key}", expected, seat[key])
    if "instant_payments" in expect:
        _rows("instant_payments", expect["instant_payments"], body["instant_payments"], problems)
    if "payments" in expect:
        _payments(expect["payments"], settlement.get("payments", []), problems)
    return problems


# --- the engine's own answer, without the words ------------------------------------------------------------


def _plain(value: Any) -> Any:
    """An engine fact as the answers give it: cards as ids, choices as their values."""
    if isinstance(value, Card):
        return value.id
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, (list, tuple, CardSet)):
        return [_plain(v) for v in value]
    return value


def engine_answer(request: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """What /v1/replay answers to a log, in the fields ``compare`` reads, made by the engine alone: a log whose
    rule's words are still to come is checked against the rule book all the same."""
    try:
        log = Log.from_dict(request)
        result = log.replay()
    except GoStopError as err:
        why = {"why": err.why} if err.why != err.code else {}  # as the API's problem gives it
        return 422, {"code": err.code, **why, **{k: _plain(v) for k, v in err.context.items()}}
    state, settled = result.state, result.settlement
    stake = log.stake
    settlement = None
    if settled is not None:
        settlement = {
            "outcome": settled.outcome.value,
            "winner": settled.winner,
            "base_points": settled.base_points,
            "payments": [
                {
                    "from": p.payer,
                    "to": p.payee,
                    "points": p.points,
                    "amount": p.amount,
                    "factors": [{"rule": c.rule, "factor": c.factor} for c in p.factors],
                }
                for p in settled.payments
            ],
        }
    return 200, {
        "status": "finished" if state.is_over else "in_progress",
        "next": {"player": state.to_move, "expects": state.expects.value} if state.expects is not None else None,
        "players": [
            {
                "id": s.id,
                "captured": s.captured.ids(),
                "hand": s.hand.ids(),
                "score": {"total": s.score(log.rules).total},
                "go_count": s.go_count,
                "shakes": s.shakes,
                "bombs": s.bombs,
                "ppuk_count": s.ppuk_count,
                "hand_size": s.hand_size,
            }
            for s in state.seats
        ],
        "layout": state.layout_cards().ids(),
        "stock_left": state.stock_left,
        "events": [
            {
                "move_index": e.move_index,
                "player": e.player,
                "type": e.type.value,
                **{k: _plain(v) for k, v in e.data.items()},
            }
            for e in state.events
        ],
        "instant_payments": [
            {
                "from": p.payer,
                "to": p.payee,
                "points": p.points,
                "amount": p.points * stake,
                "code": p.reason,
                "move_index": p.move_index,
            }
            for p in state.instant_payments
        ],
        "settlement": settlement,
    }


# --- the tests ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", _cases())
def test_game_log(client, path):
    """Replay the log over HTTP and compare the answer with what RULES.md says, field by field."""
    case = load(path)
    resp = client.post("/v1/replay", json=case["request"])
    problems = compare(case["expect"], resp.status_code, resp.get_json())
    if problems:
        pytest.fail(f"{path.name}: {case['description']}\n  " + "\n  ".join(problems), pytrace=False)


@pytest.mark.parametrize("path", LOGS, ids=[p.stem for p in LOGS])
def test_game_log_in_the_engine(path):
    """The same log replayed by the engine alone, compared on the same fields: every log holds the engine to the
    rule book, those whose words or request fields the service does not have yet (an ``xfail``) included."""
    case = load(path)
    status, body = engine_answer(case["request"])
    problems = compare(case["expect"], status, body)
    if problems:
        pytest.fail(f"{path.name}: {case['description']}\n  " + "\n  ".join(problems), pytrace=False)


def _event_types(expect: dict[str, Any]) -> set[str]:
    entries = [*expect.get("events", []), *expect.get("events_include", [])]
    return {e if isinstance(e, str) else e["type"] for e in entries if isinstance(e, str) or "type" in e}


def test_every_log_is_well_formed_and_the_set_keeps_its_coverage():
    """Each log says what it shows and where the rule book says so; together they cover every special event,
    instant win, outcome and error code of a replay, with 2 and 3 players, hidden and known hands."""
    assert len(LOGS) >= 20
    codes: set[str] = set()
    events: set[str] = set()
    outcomes: set[str] = set()
    kinds: set[tuple[int, str]] = set()
    for path in LOGS:
        case = load(path)
        name = path.name
        assert set(case) <= CASE_KEYS and {"description", "request", "expect"} <= set(case), name
        assert re.search(r"RULES\.md \d", case["description"]), f"{name}: the description cites no RULES.md section"
        expect = case["expect"]
        assert set(expect) <= EXPECT_KEYS, f"{name}: unknown fields {set(expect) - EXPECT_KEYS}"
        assert ("error" in expect) != ("status" in expect), f"{name}: expects either an error or a status"
        for fields in expect.get("players", {}).values():
            assert set(fields) <= PLAYER_FIELDS, f"{name}: unknown player fields {set(fields) - PLAYER_FIELDS}"
        if "xfail" in case:
            continue  # a log the service fails today covers nothing yet
        request = case["request"]
        kinds.add((len(request["players"]), "known" if "hands" in request["deal"] else "hidden"))
        if "error" in expect:
            codes.add(expect["error"]["code"])
        events |= _event_types(expect)
        if "outcome" in expect:
            outcomes.add(expect["outcome"])
    assert not ERROR_CODES - codes, f"no log for the error codes {sorted(ERROR_CODES - codes)}"
    assert not EVENT_TYPES - events, f"no log shows the events {sorted(EVENT_TYPES - events)}"
    assert not OUTCOMES - outcomes, f"no log ends in {sorted(OUTCOMES - outcomes)}"
    assert kinds == {(2, "hidden"), (2, "known"), (3, "hidden"), (3, "known")}, kinds
