"""``engine.Log`` and one move's text (``Move.parse`` / ``move.text()``): a logged hand as one value, read from a
replay body or from the notation, written back to either, and replayed (docs/log.md).

The library's example in docs/log.md runs here as a doctest.
"""

from __future__ import annotations

import copy
import doctest
import json
import time
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import (
    PRESETS,
    IllegalMoveError,
    Log,
    LogError,
    Move,
    NotationError,
    RulesError,
    read_log,
    replay,
    resolve,
)
from engine.simulate import simulate
from tests.conftest import GAME_LOGS, ROOT

BODIES = {p.stem: json.loads(p.read_text(encoding="utf-8"))["request"] for p in GAME_LOGS}
LIVE = {  # a physical game logged card by card: hands and stock hidden (service/replay.py's example)
    "rules": "korean-2p",
    "players": ["A", "B"],
    "deal": {"layout": ["jan-bright", "feb-junk-1", "mar-ribbon", "apr-junk-1", "may-animal", "jun-junk-1"]},
}
LIVE["deal"]["layout"] += ["aug-junk-2", "oct-ribbon"]


def readable(body: dict) -> Log | None:
    """The Log of a body, None for a body refused before any move can be read."""
    try:
        return Log.from_dict(body)
    except (LogError, RulesError, IllegalMoveError):
        return None


def ruling(log: Log) -> object:
    """What a replay of the log comes to: the settlement and who moves next, or the refusal."""
    try:
        result = log.replay()
    except IllegalMoveError as err:
        return ("refused", err.code, err.why, err.move_index)
    return (result.settlement, result.state.to_move, result.state.expects, len(result.state.events))


# --- every log of the tests, both ways ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(BODIES))
def test_every_game_log_reads_writes_and_reads_back_to_the_same_log_and_ruling(name):
    body = BODIES[name]
    log = readable(body)
    if log is None:
        pytest.skip("refused before its moves")
    assert Log.from_dict(log.to_dict()) == log
    assert ruling(Log.from_dict(log.to_dict())) == ruling(log)
    for spelling in ("ascii", "korean"):
        again = Log.parse(log.text(spelling))
        assert again == log and ruling(again) == ruling(log)
    for move in log.moves:
        assert Move.parse(move.text()) == move == Move.parse(move.text("korean"))
        assert repr(move) == f"Move.parse({move.text()!r})" and eval(repr(move)) == move


@pytest.mark.parametrize("name", sorted(BODIES))
def test_a_log_rules_as_the_replay_of_its_body_does(name):
    """Log.from_dict(body).replay() refuses what replay() refuses, with the same code and move index; or gives the
    same settlement."""
    body = BODIES[name]
    try:
        rules = resolve(body.get("rules"), players=len(body["players"]))
        streak, stake = body.get("nagari_streak", 0), body.get("stake", 1)
        done = replay(body["players"], rules, body["deal"], body.get("moves", []), nagari_streak=streak, stake=stake)
        expected: object = done.settlement
    except IllegalMoveError as err:
        expected = (err.code, err.why, err.move_index)
    try:
        got: object = Log.from_dict(body).replay().settlement
    except IllegalMoveError as err:
        got = (err.code, err.why, err.move_index)
    assert got == expected


# --- Log.from_dict: the one reader of a replay body -----------------------------------------------------------


# bodies not of the replay's shape, and the field each names: the engine's reader here, the API in test_replay
SHAPE_FAULTS = [
    ({"players": ["A", "B"], "deal": {}}, "deal.layout"),
    ({"players": ["A", "B"]}, "deal"),
    ({"players": ["A"], "deal": LIVE["deal"]}, "players"),
    ({"players": ["A", "B"], "deal": LIVE["deal"], "moves": "A plays"}, "moves"),
    ({"players": ["A", "B"], "deal": LIVE["deal"], "moves": [1]}, "moves.0"),
    ({"players": ["A", "B"], "deal": LIVE["deal"], "moves": [{}] * 201}, "moves"),
]


@pytest.mark.parametrize(
    ("body", "path"),
    [
        *SHAPE_FAULTS,
        ({**LIVE, "stake": 2.5}, "stake"),
        ({**LIVE, "stake": "2"}, "stake"),
        ({**LIVE, "stake": True}, "stake"),
        ({**LIVE, "nagari_streak": 21}, "nagari_streak"),
        ({**LIVE, "players": ["A", "B" * 65]}, "players.1"),
        ({**LIVE, "colour": "red"}, "colour"),
        ({**LIVE, "deal": {**LIVE["deal"], "sit_out": {"player": "D"}}}, "deal.sit_out.seat"),
    ],
)
def test_a_body_not_of_the_replay_shape_is_refused_naming_the_field(body, path):
    with pytest.raises(LogError) as err:
        Log.from_dict(body)
    assert err.value.code == "validation-error" and path in err.value.errors


def test_a_count_written_as_a_whole_float_is_that_count_as_the_api_reads_it():
    assert Log.from_dict({**LIVE, "stake": 2.0, "nagari_streak": 1.0}) == Log.from_dict(
        {**LIVE, "stake": 2, "nagari_streak": 1}
    )
    assert type(Log.from_dict({**LIVE, "stake": 2.0}).stake) is int


def test_a_move_that_cannot_be_read_is_refused_after_an_illegal_move_before_it():
    """STYLE.md 6: the first fault in the order a replay meets them stops it: an unreadable move 1 comes after
    move 0, which is not the player's turn."""
    moves = [{"player": "B", "play": "mar-bright", "draw": "mar-junk-1"}, {"player": "A", "flip": "yes"}]
    with pytest.raises(IllegalMoveError) as err:
        Log.from_dict({**LIVE, "moves": moves})
    assert (err.value.code, err.value.move_index) == ("not-your-turn", 0)
    with pytest.raises(IllegalMoveError) as err:
        Log.from_dict({**LIVE, "moves": [{"player": "A", "play": "jan-junk-1", "draw": "dec-double"}, moves[1]]})
    assert (err.value.code, err.value.move_index) == ("bad-move", 1)


def test_a_log_read_from_text_names_the_line_of_the_move_it_refuses():
    text = Log.from_dict({**LIVE, "moves": [{"player": "A", "play": "jan-junk-1", "draw": "dec-double"}]}).text()
    text += "\n# B plays out of turn\n\nA 3B 3J\n"
    log = Log.parse(text)
    assert log.written[-1] == (len(text.splitlines()), 1) and log == Log.from_dict(read_log(text).body)
    with pytest.raises(IllegalMoveError) as err:
        log.replay()
    assert (err.value.code, err.value.move_index) == ("not-your-turn", 1)
    assert (err.value.params["line"], err.value.params["column"]) == (len(text.splitlines()), 1)


# --- one move --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("A 1J 12D", Move.turn("A", "jan-junk-1", draw="dec-double")),
        ("B 3Bx3R 3J", Move.turn("B", "mar-bright", capture="mar-ribbon", draw="mar-junk-1")),
        ("A 2A P3,10J", Move.turn("A", "feb-animal", draw="oct-junk-1", bonus_flipped=["bonus-3"])),
        ("A go", Move.go("A")),
        ("B 스톱", Move.stop("B")),
        ("A cup junk", Move.declare("A", "junk")),
        ("A bomb 5A,5R,5J", Move.bomb_turn("A", ["may-animal", "may-ribbon", "may-junk-1"])),
        ('"Kim Lee" 1광 -,12쌍피', Move.turn("Kim Lee", "jan-bright", draw="dec-double", bonus_flipped=[])),
    ],
)
def test_a_move_reads_from_its_text_and_writes_back(text, move):
    assert Move.parse(text) == move
    assert Move.parse(move.text()) == move and Move.parse(move.text("korean")) == move


@pytest.mark.parametrize("text", ["", "A", "A 1J 2J 3J 4J", "A 1X", "[Players A B]", "A cup"])
def test_text_that_is_no_move_is_a_notation_error_with_its_column(text):
    with pytest.raises(NotationError) as err:
        Move.parse(text)
    assert err.value.code == "bad-notation" and err.value.line == 1 and err.value.column >= 1


# --- any simulated hand, both ways (the property) -----------------------------------------------------------------


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(PRESETS)), st.integers(0, 10_000), st.sampled_from(["ascii", "korean"]))
def test_any_simulated_hand_of_any_preset_reads_back_to_the_same_log_and_ruling(preset, seed, spelling):
    log = simulate(preset, seed)
    from_json = Log.from_dict(json.loads(json.dumps(log.to_dict())))
    from_text = Log.parse(log.text(spelling))
    assert from_json == log == from_text
    assert ruling(from_json) == ruling(log) == ruling(from_text)
    assert all(Move.parse(m.text(spelling)) == m for m in log.moves)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(PRESETS)), st.integers(0, 10_000), st.integers(0, 20), st.integers(0, 10**9))
def test_the_carry_and_a_cut_log_read_back_too(preset, seed, streak, stake):
    whole = simulate(preset, seed)
    log = Log(whole.rules, whole.players, whole.deal, whole.moves[: seed % (len(whole.moves) + 1)], streak, stake)
    assert Log.from_dict(copy.deepcopy(log.to_dict())) == log == Log.parse(log.text())
    assert ruling(Log.parse(log.text())) == ruling(log)


# --- the notation reads in time linear in its length (issue 30) -------------------------------------------------


def _peak_memory(text: str) -> int:
    tracemalloc.start()
    try:
        with pytest.raises(NotationError):
            read_log(text)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("unit", ['"', '""x', ",", '"\\"', "x ", "A 1J 12D "])
def test_a_long_line_is_read_in_one_pass_without_a_word_object_per_mark(unit):
    """64 KiB (the body limit) of quotes took 0.55 s on a trial's machine, slower per character the longer the
    line: every word of the line was built before the first was read. A move line is now read in one pass that
    builds no more words than a move can use, so the memory it takes does not grow with the line (it was 5 to
    10 MB for these lines) and its time is the regular expression's walk over it."""
    line = (unit * 65536)[:65536]
    assert _peak_memory(line) < 64 * 1024
    start = time.perf_counter()
    with pytest.raises(NotationError):
        read_log(line)
    assert time.perf_counter() - start < 1.0


# --- the documentation's example ---------------------------------------------------------------------------------


def test_the_library_example_of_docs_log_md_runs():
    docs = ROOT / "docs" / "log.md"
    failures, tried = doctest.testfile(str(docs), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert tried >= 8 and failures == 0


def test_the_docs_say_where_log_lives():
    assert "engine/log.py" in Path(ROOT / "docs" / "log.md").read_text(encoding="utf-8")
