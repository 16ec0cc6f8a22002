"""The text notation of a log (engine.notation, docs/NOTATION.md): written and read back to the same ruling.

Every game log of tests/data and simulated hands of every preset go through ``format_log`` and ``parse_log``
in both spellings and must come back as the same log (the same rules, deal and moves, read the way replay
reads them) with the same ruling, move by move. Text that is no log is refused with the line and column.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine import (
    CARDS,
    PRESETS,
    GoStopError,
    Move,
    NotationError,
    format_log,
    parse_log,
    read_deal,
    read_log,
    resolve,
)
from engine.notation import SPELLINGS, card_code, read_card
from engine.simulate import simulate
from tests.conftest import guides_text
from tests.engines import answers, plain
from tests.simulated import hidden_form
from tests.simulated import replay_body as _replay_body
from tests.strategies import logged_moves
from tests.test_logs import LOGS

ROOT = Path(__file__).resolve().parent.parent
README = guides_text()  # the README and the guides of docs/


def replay_body(body: dict) -> engine.Replay:
    return _replay_body({"rules": None, **body})


def same_log(body: dict) -> tuple:
    """A body as replay reads it: the rule set, the players, the deal's cards, the moves, the streak, the stake."""
    players = body["players"]
    return (
        resolve(body.get("rules"), players=len(players)),
        list(players),
        read_deal(body["deal"]),
        [Move.from_dict(m, index=i) for i, m in enumerate(body.get("moves", []))],
        body.get("nagari_streak"),
        body.get("stake"),
    )


def ruling(body: dict) -> list:
    """Everything the engine answers, move by move (tests/engines.py), and the settlement at the body's own
    streak and stake."""
    body = {"rules": None, **body}
    out = answers(engine, body)
    try:
        result = replay_body(body)
    except GoStopError as err:
        return [*out, err.code]
    return [*out, plain(result.settlement)]


def round_trip(body: dict, spelling: str) -> dict:
    text = format_log(body, spelling=spelling)
    back = parse_log(text)
    assert same_log(back) == same_log(body), text
    assert format_log(back, spelling=spelling) == text  # and the text is the one way to write it
    return back


# --- every log, both spellings -------------------------------------------------------------------------------


@pytest.mark.parametrize("spelling", SPELLINGS)
@pytest.mark.parametrize("path", LOGS, ids=[p.stem for p in LOGS])
def test_every_game_log_round_trips_to_the_same_ruling(path, spelling):
    body = json.loads(path.read_text(encoding="utf-8"))["request"]
    try:
        same_log(body)
    except GoStopError:  # a card id that is no card: the notation cannot write it, and says what replay says
        with pytest.raises(GoStopError) as err:
            format_log(body, spelling=spelling)
        with pytest.raises(GoStopError) as replayed:
            replay_body(body)
        assert (err.value.code, err.value.why, err.value.params) == (
            replayed.value.code,
            replayed.value.why,
            replayed.value.params,
        )
        return
    assert ruling(round_trip(body, spelling)) == ruling(body)


def test_the_logs_cover_the_notation():
    """What the round trip above must have met: every kind of move, a capture choice of each card, bonus
    cards flipped, rules with knobs, hidden and known deals, a chongtong shown, a stake and a streak."""
    texts = "\n".join(
        format_log(json.loads(p.read_text(encoding="utf-8"))["request"]) for p in LOGS if "unknown-card" not in p.name
    )
    for needle in ("bonus ", "shake ", "bomb ", " go\n", " stop\n", "cup junk", "x", ",", "[Stock", "[Hand"):
        assert needle in texts, needle
    for needle in ("[Shown", "[Nagari", "[Stake", "[Rules chips-2p bonus_cards=bonus-3]", "gobak=pays-all-double"):
        assert needle in texts, needle


@pytest.mark.parametrize("spelling", SPELLINGS)
@pytest.mark.parametrize("preset", list(PRESETS))
def test_simulated_hands_round_trip_known_and_hidden(preset, spelling):
    for seed in range(4):
        body = simulate(preset, seed).to_dict()
        for form in (body, hidden_form(body)):
            assert ruling(round_trip(form, spelling)) == ruling(form)


@settings(max_examples=300, deadline=None)
@given(logged_moves())
def test_any_move_of_any_form_is_written_and_read_back_exactly(move):
    """Legal or not, every field survives: a bonus card as the draw, an empty list of flipped bonus cards, a
    capture of the flip without its card, players with spaces and quotes..."""
    body = {"players": ["A", "B"], "deal": {"layout": []}, "moves": [move]}
    expected = [Move.from_dict(move)]
    for spelling in SPELLINGS:
        text = format_log(body, spelling=spelling)
        assert [Move.from_dict(m) for m in parse_log(text)["moves"]] == expected, text


# --- cards ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("spelling", SPELLINGS)
def test_every_card_has_one_code_that_reads_back(spelling):
    codes = [card_code(card, spelling) for card in CARDS]
    assert len(set(codes)) == len(CARDS)
    assert [read_card(code) for code in codes] == list(CARDS)
    assert all(" " not in code and "," not in code for code in codes)


@pytest.mark.parametrize(
    ("names", "card"),
    [
        (["1B", "1b", "1광", "송학광", "jan-bright"], "jan-bright"),
        (["8A", "8열", "8열끗", "공산열", "aug-animal"], "aug-animal"),
        (["9R", "9띠", "국화띠"], "sep-ribbon"),
        (["9A", "9열", "국진", "국준"], "sep-animal"),
        (["3J", "3J1", "3피", "3피1", "벚꽃피", "사쿠라피"], "mar-junk-1"),
        (["3J2", "3피2", "벚꽃피2"], "mar-junk-2"),
        (["11D", "11쌍피", "똥쌍피", "오동쌍피"], "nov-double"),
        (["11B", "똥광", "오동광"], "nov-bright"),
        (["12B", "12광", "비광"], "dec-bright"),
        (["12D", "비쌍피"], "dec-double"),
        (["P2a", "p2a", "투피", "bonus-2a"], "bonus-2a"),
        (["P2b", "투피2"], "bonus-2b"),
        (["P3", "쓰리피"], "bonus-3"),
    ],
)
def test_the_names_players_say_are_read(names, card):
    """GLOSSARY.md: month + kind (1광, 8열, 11쌍피), the months' names (똥, 비), 국진, 투피 and 쓰리피."""
    assert {read_card(name).id for name in names} == {card}


@pytest.mark.parametrize("name", ["1A", "12J", "11R", "13B", "0J", "9열열", "광", "P4", "", "1Bx1J"])
def test_a_card_that_is_not_in_the_deck_is_no_code(name):
    assert read_card(name) is None


# --- reading -----------------------------------------------------------------------------------------------

LAYOUT = "[Layout 1B 2J 3R 4J 5A 6J 8J2 10R]"


def test_a_log_is_read_with_comments_blank_lines_mixed_spellings_and_any_case():
    text = f"""
        # a hidden-hand game, logged at the table
        [rules korean-2p]     # tag names in any case
        [PLAYERS 갑 "Kim Lee"]
        {LAYOUT}

        갑 1j 12쌍피          # ASCII and Korean mixed, lower case
        "Kim Lee" 3광x3띠 3피
        갑 흔들기 7열, 7띠, 7피  7피 P3,11J
        "Kim Lee" Go
        """
    log = read_log(text)
    assert log.body == {
        "rules": "korean-2p",
        "players": ["갑", "Kim Lee"],
        "deal": {"layout": ["jan-bright", "feb-junk-1", "mar-ribbon", "apr-junk-1", "may-animal", "jun-junk-1",
                            "aug-junk-2", "oct-ribbon"]},
        "moves": [
            {"player": "갑", "play": "jan-junk-1", "draw": "dec-double"},
            {"player": "Kim Lee", "play": "mar-bright", "capture": "mar-ribbon", "draw": "mar-junk-1"},
            {"player": "갑", "shake": ["jul-animal", "jul-ribbon", "jul-junk-1"], "play": "jul-junk-1",
             "bonus_flipped": ["bonus-3"], "draw": "nov-junk-1"},
            {"player": "Kim Lee", "call": "go"},
        ],
    }  # fmt: skip
    assert log.moves == [(7, 9), (8, 9), (9, 9), (10, 9)]  # where each move was written


def test_each_kind_of_move_reads_as_its_json():
    moves = """
        A 1J
        A 1Jx1B 12Dx12B
        A bonus P3 9R 9A
        A bonus P3 - 9A
        A 보너스 쓰리피
        A bonus P3 bomb 1J,1J2,1R 11J
        A 폭탄 1J,1J2,1R 11J
        A flip P2a,P3,11J
        A 뒤집기
        A 1J -,12D
        A 1J P3,-
        A 1J -x12B
        A stop
        A 스톱
        A 고
        A cup animal
        A 국진 쌍피
        A 국진 열
        A 국진 11J
    """
    body = parse_log(f"[Players A B]\n{LAYOUT}\n" + "\n".join(m for m in moves.splitlines()[1:]))
    assert [{k: v for k, v in m.items() if k != "player"} for m in body["moves"]] == [
        {"play": "jan-junk-1"},
        {"play": "jan-junk-1", "capture": "jan-bright", "draw": "dec-double", "draw_capture": "dec-bright"},
        {"bonus": "bonus-3", "play": "sep-ribbon", "draw": "sep-animal"},
        {"bonus": "bonus-3", "draw": "sep-animal"},
        {"bonus": "bonus-3"},
        {"bonus": "bonus-3", "bomb": ["jan-junk-1", "jan-junk-2", "jan-ribbon"], "draw": "nov-junk-1"},
        {"bomb": ["jan-junk-1", "jan-junk-2", "jan-ribbon"], "draw": "nov-junk-1"},
        {"flip": True, "bonus_flipped": ["bonus-2a", "bonus-3"], "draw": "nov-junk-1"},
        {"flip": True},
        {"play": "jan-junk-1", "bonus_flipped": [], "draw": "dec-double"},
        {"play": "jan-junk-1", "bonus_flipped": ["bonus-3"]},
        {"play": "jan-junk-1", "draw_capture": "dec-bright"},
        {"call": "stop"},
        {"call": "stop"},
        {"call": "go"},
        {"sep_animal_as": "animal"},
        {"sep_animal_as": "junk"},
        {"sep_animal_as": "animal"},
        {"play": "sep-animal", "draw": "nov-junk-1"},  # 국진 is also the card
    ]


def test_the_header_holds_the_deal_the_rules_the_streak_and_the_stake():
    text = """
        [Rules korean-3p gobak=pays-all-double first_ppuk_payments=1, 2, 3 double_junk=off bonus_cards=none]
        [Players A B C]
        [Layout 1B 2J 3R 4J 5A 6J]
        [Hand A 1J 1J2 1R 2A 2R 2J2 3B]
        [Hand B 3J 3J2 4A 4R 4J2 5R 5J]
        [Hand C 5J2 6A 6R 6J2 7A 7R 7J]
        [Stock 7J2 8B 8A 8J 8J2 9A 9R 9J 9J2 10A 10R 10J 10J2 11B 11D 11J 11J2 12B 12A 12R 12D]
        [Shown B 11B 11D 11J 11J2]
        [Nagari 2]
        [Stake 100]
    """
    body = parse_log(text)
    assert body["rules"] == {
        "preset": "korean-3p",
        "gobak": "pays-all-double",
        "first_ppuk_payments": [1, 2, 3],
        "double_junk": False,
        "bonus_cards": [],
    }
    assert body["deal"]["hands"]["C"][0] == "may-junk-2" and body["deal"]["stock"][-1] == "dec-double"
    assert body["deal"]["shown"] == {"B": ["nov-bright", "nov-double", "nov-junk-1", "nov-junk-2"]}
    assert (body["nagari_streak"], body["stake"], body["moves"]) == (2, 100, [])
    assert parse_log("[Rules gobak=double]\n[Players A B]\n[Layout]")["rules"] == {"gobak": "double"}


def _refusal(text: str) -> NotationError:
    with pytest.raises(NotationError) as err:
        parse_log(text)
    assert err.value.code == "bad-notation"
    assert err.value.context["line"] == err.value.line and err.value.context["column"] == err.value.column
    return err.value


HEAD = f"[Players A B]\n{LAYOUT}\n"


@pytest.mark.parametrize(
    ("text", "why", "line", "column", "facts"),
    [
        (HEAD + "A 1J 12E", "unknown-card", 3, 6, {"card": "12E"}),
        (HEAD + "A 1Jx1Q 12D", "unknown-card", 3, 6, {"card": "1Q"}),
        (HEAD + "A 1J\nB 13B", "unknown-card", 4, 3, {"card": "13B"}),
        (HEAD + "A 1J 12D 3J", "unexpected", 3, 10, {"token": "3J", "expected": "end-of-move"}),
        (HEAD + "A go now", "unexpected", 3, 6, {"token": "now", "expected": "end-of-move"}),
        (HEAD + "A cup", "unexpected", 3, 3, {"expected": "cup-side"}),
        (HEAD + "A cup bright", "unexpected", 3, 7, {"token": "bright", "expected": "cup-side"}),
        (HEAD + "A shake", "unexpected", 3, 3, {"expected": "cards"}),
        (HEAD + "A 1J,", "unexpected", 3, 5, {"token": ",", "expected": "card"}),
        (HEAD + "A 1J ]", "unexpected", 3, 6, {"token": "]"}),
        (HEAD + "A - 12D", "move", 3, 3, {"error": "bad-move", "error_why": "turn-form", "player": "A"}),
        (HEAD + "A -x1B 12D", "move", 3, 3, {"error": "bad-move", "error_why": "capture-without-play"}),
        (HEAD + '"A 1J', "unclosed-quote", 3, 1, {}),
        (HEAD + "A 1J\n[Stake 1]", "tag-after-moves", 4, 1, {}),
        ("[Players A B\n" + LAYOUT, "unclosed-tag", 1, 1, {}),
        ("[Player A B]\n" + LAYOUT, "unknown-tag", 1, 2, {"tag": "Player"}),
        (HEAD + "[Players C D]", "duplicate-tag", 3, 2, {"tag": "Players", "first_line": 1}),
        (HEAD + "[Hand A 1J]\n[hand A 2J]", "duplicate-tag", 4, 2, {"tag": "Hand"}),
        (HEAD + "[Stake lots]", "not-a-number", 3, 8, {"token": "lots", "tag": "Stake"}),
        (HEAD + "[Nagari]", "unexpected", 3, 8, {"expected": "number"}),
        (LAYOUT + "\nA 1J", "missing-tag", 1, 1, {"tag": "Players"}),
        ("[Players A B]", "missing-tag", 1, 1, {"tag": "Layout"}),
        ("", "missing-tag", 1, 1, {"tag": "Players"}),
        (HEAD + "[Rules]", "unexpected", 3, 7, {"expected": "preset"}),
        (HEAD + "[Rules korean-9p]", "rules", 3, 8, {"error": "unknown-preset", "preset": "korean-9p"}),
        (HEAD + "[Rules korean-2p gobac=double]", "rules", 3, 18, {"error": "unknown-knob", "knob": "gobac"}),
        (
            HEAD + "[Rules korean-2p gobak=triple]",
            "rules",
            3,
            18,
            {"error": "invalid-knob", "error_why": "not-a-choice", "knob": "gobak"},
        ),
        (HEAD + "[Rules korean-2p double_junk=maybe]", "rules", 3, 18, {"error_why": "not-a-bool"}),
        (HEAD + "[Rules korean-2p target_score=0]", "rules", 3, 18, {"error_why": "below-minimum", "minimum": 1}),
        (HEAD + "[Rules korean-2p gobak gobak=none]", "unexpected", 3, 18, {"token": "gobak", "expected": "knob"}),
        (HEAD + "[Rules gobak=none gobak=double]", "duplicate-knob", 3, 19, {"knob": "gobak"}),
        ("[Players A B]\n[Layout 1B 2J 3R 4J 5A 6J 8J2 10R 광]", "unknown-card", 2, 35, {"card": "광"}),
        ("[Players A B]\n[Layout 1B,,2J]", "unexpected", 2, 12, {"token": ",", "expected": "card"}),
        (HEAD + "A 1J ,12D", "unexpected", 3, 7, {"token": ",", "expected": "card"}),
        (HEAD + "A 1J -,P3,12D", "unexpected", 3, 8, {"token": "P3", "expected": "draw"}),
    ],
)
def test_text_that_is_no_log_is_refused_at_its_line_and_column(text, why, line, column, facts):
    err = _refusal(text)
    assert (err.why, err.line, err.column) == (why, line, column), err
    assert facts.items() <= err.params.items(), err.params


def test_a_column_counts_characters_in_korean_too():
    err = _refusal(HEAD + "갑 1광 12쌍삐")
    assert (err.line, err.column, err.params["card"]) == (3, 6, "12쌍삐")


def test_a_refused_move_of_a_replay_is_found_on_its_line():
    """What parse_log leaves to replay (legality) comes back with a move_index; read_log says where it is."""
    log = read_log(HEAD + "# the deal\n\nA 1J 12D\n\n   B 3Bx3J 3J\n")
    with pytest.raises(GoStopError) as err:
        replay_body(log.body)
    assert (err.value.code, err.value.params["move_index"]) == ("capture-not-allowed", 1)
    assert log.moves[err.value.params["move_index"]] == (7, 4)


# --- writing -----------------------------------------------------------------------------------------------


def test_format_log_writes_players_that_are_not_one_word_in_quotes():
    body = {
        "players": ['Kim "the dealer" Lee', "[B]"],
        "deal": {"layout": []},
        "moves": [{"player": "[B]", "call": "go"}],
    }
    text = format_log(body)
    assert '[Players "Kim \\"the dealer\\" Lee" "[B]"]' in text and '\n"[B]" go\n' in text
    assert parse_log(text) == body


def test_format_log_refuses_what_it_cannot_write():
    layout = {"layout": []}
    with pytest.raises(ValueError, match="spelling"):
        format_log({"players": ["A", "B"], "deal": layout}, spelling="latin")
    with pytest.raises(ValueError, match="description"):
        format_log({"players": ["A", "B"], "deal": layout, "description": "?"})
    with pytest.raises(GoStopError) as err:
        format_log({"players": ["A", "B"], "deal": {"layout": [], "hands": {}}})
    assert (err.value.code, err.value.why) == ("bad-deal", "layout-size")  # as replay refuses the deal


def test_the_readme_example_is_the_log_of_its_replay_example():
    example = re.search(r"```text\n(\[Rules.*?)```", README, re.S)
    assert example, "the README shows a log in the notation"
    replayed = re.search(r"curl -s localhost:8000/v1/replay .*?-d '(.*?)'", README, re.S)
    assert replayed
    assert parse_log(example.group(1)) == json.loads(replayed.group(1))
    assert format_log(json.loads(replayed.group(1))) == example.group(1)


# --- the grammar's documents ---------------------------------------------------------------------------------

DOCS = {
    lang: (ROOT / "docs" / name).read_text(encoding="utf-8")
    for lang, name in (("en", "NOTATION.md"), ("ko", "NOTATION.ko.md"))
}


@pytest.mark.parametrize("lang", DOCS)
def test_the_documents_examples_are_logs_that_replay_in_both_spellings(lang):
    logs = [parse_log(text) for text in re.findall(r"```text\n(.*?)```", DOCS[lang], re.S)]
    assert len(logs) == 2 and logs[0] == logs[1]  # the example, and the same hand in the Korean spelling
    result = replay_body(logs[0])
    assert result.state.is_over and result.state.winner == "A"
    assert logs == [parse_log(t) for t in re.findall(r"```text\n(.*?)```", DOCS["en"], re.S)]


@pytest.mark.parametrize("lang", DOCS)
def test_the_documents_card_table_is_what_format_log_writes(lang):
    rows = re.findall(r"^\| (\d+|bonus|보너스)\b[^|]*\| `([^`]+)` \| `([^`]+)` \|$", DOCS[lang], re.M)
    assert len(rows) == 13
    for month, ascii_codes, korean_codes in rows:
        cards = [c for c in CARDS if c.month == (int(month) if month.isdigit() else 0)]
        assert ascii_codes.split() == [card_code(c) for c in cards]
        assert korean_codes.split() == [card_code(c, "korean") for c in cards]


NOTATION_MODULES = ("notation", "lexicon", "moves")  # the whole log, its words, one move


def test_the_documents_list_every_reason_of_a_refusal():
    """Each ``why`` NotationError gives is explained in both documents."""
    source = "".join((ROOT / "engine" / f"{name}.py").read_text(encoding="utf-8") for name in NOTATION_MODULES)
    whys = set(re.findall(r'(?:\berror|NotationError)\(\s*"([a-z-]+)"', source))
    assert len(whys) >= 10
    for text in DOCS.values():
        explained = set(re.findall(r"`([a-z-]+)`", text.split("## 6.")[1]))
        assert whys <= explained, whys - explained


# --- any text at all ---------------------------------------------------------------------------------------

EXAMPLE = (
    format_log(
        {
            **simulate("korean-2p", 26).to_dict(),
            "rules": {"preset": "korean-2p", "gobak": "pays-all", "first_ppuk_payments": [1, 2, 3], "gwangbak": False},
            "nagari_streak": 1,
            "stake": 100,
        },
        spelling="korean",
    )
    + 'A cup junk\nA bomb 1J, 1J2, 1R -,11J\nA bonus P3 - 9A\n"B c" go  # a comment\n'
)


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(
        st.text(),
        st.text(alphabet=st.sampled_from([*sorted(set(EXAMPLE)), "\u3000", "\r", '"', "\\", "=", "-"])),
        st.tuples(st.integers(0, len(EXAMPLE)), st.integers(0, 40), st.text(max_size=8)).map(
            lambda edit: EXAMPLE[: edit[0]] + edit[2] + EXAMPLE[edit[0] + edit[1] :]
        ),
    )
)
def test_any_text_is_read_or_refused_with_a_line_and_column(text):
    """Never another exception (the service answers a NotationError with a 422, anything else with a 500)."""
    try:
        log = read_log(text)
    except NotationError as err:
        lines = re.split(r"\r\n|\r|\n", text)
        assert 1 <= err.line <= len(lines) and 1 <= err.column <= len(lines[err.line - 1]) + 1, err
        return
    assert len(log.moves) == len(log.body["moves"])
