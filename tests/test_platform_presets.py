"""The platform presets (RULES.md 10.4) against what their services' help pages say: for each preset at least ten
cases, each a rule, a hand and what the service would pay, naming the rule it checks and the survey's source for
it (kywoo26/p2p-gostop, docs/research/rules-commercial.md: its source codes, section and grade).

Source codes, as the survey names them: H-맞고 / H-신맞고PC / H-신맞고M (Hangame's old Matgo, new Matgo on PC and
mobile, A), P-룰 / P-FAQ (Pmang's rule files and help desk, A), N-맞고2.0 (Netmarble's archived pages, B), W-* (an
encyclopedia, C): a case resting on a C source says so, and its preset lists the knob as uncertain.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from engine import PRESET_SOURCES, EventType, GameState, HandError, RuleSet, replay, resolve, settle
from tests.test_calculator_rules import HONGDAN, THREE_PPUKS
from tests.test_game import TWO_OF_JAN, m
from tests.test_game import run as run_2p
from tests.test_house_rules import (
    A_FOUR,
    B_FOUR,
    B_PLAIN,
    FOUR_ON_LAYOUT,
    JANUARY,
    LAY,
    bonus_deal,
    full_deal,
)
from tests.test_settlement import EIGHT, JUNK, SAFE_B, hand, p

MAY = ["may-animal", "may-ribbon", "may-junk-1", "may-junk-2"]
A_JUNK = (*EIGHT, *JUNK[:10])  # 8 + 1 = 9 points: brights, godori and junk
ELEVEN = (*EIGHT, *HONGDAN)  # 11 points: enough to stop after four gos
SEVEN_ANIMALS = ("feb-animal", "apr-animal", "aug-animal", "may-animal", "jun-animal", "jul-animal", "oct-animal")
MEONG = ("jan-bright", "mar-bright", "aug-bright", *SEVEN_ANIMALS, *JUNK[:10])  # 3 + 5 + 3 + 1 = 12 points
SEVEN_UNITS = ("nov-bright", *JUNK[10:14], "aug-junk-1", "aug-junk-2", "sep-junk-1")  # a bright and 7 junk units
FOUR_ON_LAYOUT_3P = ["oct-animal", "oct-ribbon", "oct-junk-1", "oct-junk-2", "dec-bright", "feb-junk-1"]
# 3 players: A stops on hongdan (3 points); B and C each hold a bright and enough junk
B3 = ("nov-bright", *JUNK[:6])
C3 = ("dec-bright", *JUNK[6:12])
A3_JUNK = (*HONGDAN, *JUNK[:10])  # 3 + 1 = 4 points, junk among them
B3_FIVE = ("nov-bright", *JUNK[10:14], "aug-junk-1")  # 5 units
C3_SIX = ("dec-bright", "sep-junk-1", "sep-junk-2", "oct-junk-1", "oct-junk-2", "nov-junk-1", "aug-junk-2")


def at_deal(rules: RuleSet, hands: dict[str, list[str]], moves: tuple[Any, ...] = ()) -> tuple[Any, ...]:
    """A known two-player deal: the outcome, the winner and what each loser pays (after ``moves``: the holder's
    chongtong choice, where the rules ask for it)."""
    r = replay(["A", "B"], rules, full_deal(hands, LAY, rules), list(moves))
    return r.state.outcome, r.state.winner, [x.points for x in r.settlement.payments]


LAY_3P = ["oct-animal", "oct-ribbon", "nov-bright", "dec-bright", "feb-junk-1", "mar-junk-1"]


def shown_3p(rules: RuleSet, shown: dict[str, list[str]], layout: list[str] = LAY_3P) -> tuple[Any, ...]:
    """A three-player table whose hands are hidden: what the deal decides from the four shown."""
    r = replay(["A", "B", "C"], rules, {"layout": layout, "shown": shown}, [])
    return r.state.outcome, r.state.winner, [x.points for x in r.settlement.payments]


def moves_2p(rules: RuleSet, moves: list[dict[str, Any]], layout: list[str] | None = None) -> tuple[Any, ...]:
    """A two-player physical hand: its outcome and the payments made at once."""
    r = run_2p(moves, rules=rules, **({"layout": layout} if layout else {}))
    return r.state.outcome, [x.points for x in r.state.instant_payments]


def pays(rules: RuleSet, *players: Any, **kw: Any) -> list[int]:
    """What each loser pays for a hand the first player won."""
    return [x.points for x in settle(hand(*players, **kw), rules).payments]


def refused(rules: RuleSet, *players: Any, **kw: Any) -> str:
    with pytest.raises(HandError) as err:
        settle(hand(*players, **kw), rules)
    return str(err.value.code)


@dataclass(frozen=True)
class Case:
    preset: str
    rule: str
    source: str  # the survey's source code, its section, the grade
    run: Callable[[RuleSet], Any]
    expected: Any


CASES = [
    # --- hangame-matgo: Hangame's new Matgo ----------------------------------------------------------------
    Case(
        "hangame-matgo",
        "chongtong wins 10 at once",
        "H-신맞고M 5.8/A",
        lambda r: at_deal(r, {"A": A_FOUR, "B": B_PLAIN}),
        ("chongtong", "A", [10]),
    ),
    Case(
        "hangame-matgo",
        "two chongtongs: the dealer wins",
        "H-신맞고M 2.3/A",
        lambda r: at_deal(r, {"A": A_FOUR, "B": B_FOUR}),
        ("chongtong", "A", [10]),
    ),
    Case(
        "hangame-matgo",
        "four of a month on the layout: the dealer wins",
        "H-신맞고M 2.3/A, W-신맞고/C",
        lambda r: moves_2p(r, [], FOUR_ON_LAYOUT),
        ("chongtong", []),
    ),
    Case(
        "hangame-matgo",
        "a bonus card's replacement completes a chongtong",
        "H-신맞고M 5.8/A",
        lambda r: replay(["A", "B"], r, bonus_deal(r), [{"player": "A", "bonus": "bonus-2a"}]).state.outcome,
        "chongtong",
    ),
    Case(
        "hangame-matgo",
        "first ppuks in a row pay 7, 14, 21; the third wins 7",
        "H-맞고 5.1/A",
        lambda r: (moves_2p(r, THREE_PPUKS), pays(r, p("A", *A_JUNK), p("B", "oct-junk-1"), outcome="three-ppuk")),
        (("three-ppuk", [7, 14, 21]), [7]),
    ),
    Case(
        "hangame-matgo",
        "a first-turn ttadak pays 7",
        "H-맞고 5.1/A",
        lambda r: moves_2p(r, [m("A", "jan-junk-2", "jan-ribbon", capture="jan-bright")], TWO_OF_JAN)[1],
        [7],
    ),
    Case(
        "hangame-matgo",
        "a two-card bomb (수류탄) does not double",
        "H-신맞고PC 5.1/A",
        lambda r: pays(r, p("A", *EIGHT, two_card_bombs=1), p("B", *SAFE_B)),
        [8],
    ),
    Case(
        "hangame-matgo",
        "gobak: the go-caller pays double",
        "H-신맞고PC 6.3/A",
        lambda r: pays(r, p("A", *EIGHT), p("B", *SAFE_B, go_count=1)),
        [16],
    ),
    Case(
        "hangame-matgo",
        "four gos: (score + 4) x 4",
        "H-신맞고M 6.2/A",
        lambda r: pays(r, p("A", *ELEVEN, go_count=4), p("B", *SAFE_B)),
        [60],
    ),
    Case(
        "hangame-matgo",
        "pibak: 7 junk units or fewer",
        "H 7/A",
        lambda r: pays(r, p("A", *A_JUNK), p("B", *SEVEN_UNITS)),
        [18],
    ),
    Case(
        "hangame-matgo",
        "pibak: no exemption for a loser with no junk",
        "7 (unstated: uncertain)",
        lambda r: pays(r, p("A", *A_JUNK), p("B", "nov-bright")),
        [18],
    ),
    Case(
        "hangame-matgo",
        "the nagari carry has no cap",
        "H 8/A",
        lambda r: pays(r, p("A", *EIGHT), p("B", *SAFE_B), nagari_streak=4),
        [128],
    ),
    Case(
        "hangame-matgo",
        "bonus cards steal a junk card",
        "H-신맞고PC 1.2/A",
        lambda r: r.steal(EventType.BONUS, False),
        1,
    ),
    # --- pmang-matgo: Pmang's new Matgo --------------------------------------------------------------------
    Case(
        "pmang-matgo",
        "chongtong: the holder chooses to stop, and wins 7",
        "P-FAQ 5.8/A",
        lambda r: at_deal(r, {"A": A_FOUR, "B": B_PLAIN}, ({"player": "A", "chongtong_choice": "win"},)),
        ("chongtong", "A", [7]),
    ),
    Case(
        "pmang-matgo",
        "two chongtongs: nagari",
        "P-FAQ 2.3/A",
        lambda r: at_deal(r, {"A": A_FOUR, "B": B_FOUR}),
        ("nagari", None, []),
    ),
    Case(
        "pmang-matgo",
        "four of a month on the layout: nagari",
        "P-FAQ 2.3/A",
        lambda r: moves_2p(r, [], FOUR_ON_LAYOUT),
        ("nagari", []),
    ),
    Case(
        "pmang-matgo",
        "a bonus card's replacement completes no chongtong",
        "P-룰 5.8/A",
        lambda r: (
            replay(
                ["A", "B"],
                r,
                bonus_deal(r),
                [{"player": "A", "bonus": "bonus-2a", "play": "mar-bright", "draw": "feb-junk-2"}],
            ).state.outcome
        ),
        None,
    ),
    Case(
        "pmang-matgo",
        "only a first ppuk is paid at once; three ppuks win 7",
        "P-FAQ 5.1/A",
        lambda r: moves_2p(r, THREE_PPUKS),
        ("three-ppuk", [7]),
    ),
    Case(
        "pmang-matgo",
        "three ppuks pay the base alone, shakes aside",
        "P-룰 5.2/A, W-맞고/C",
        lambda r: pays(r, p("A", *A_JUNK, shakes=2), p("B", "oct-junk-1"), outcome="three-ppuk"),
        [7],
    ),
    Case(
        "pmang-matgo",
        "no first-turn ttadak payment",
        "P-룰 5.2/A",
        lambda r: moves_2p(r, [m("A", "jan-junk-2", "jan-ribbon", capture="jan-bright")], TWO_OF_JAN)[1],
        [],
    ),
    Case(
        "pmang-matgo",
        "a two-card bomb doubles like a shake",
        "P-룰 5.1/A",
        lambda r: pays(r, p("A", *EIGHT, two_card_bombs=1), p("B", *SAFE_B)),
        [16],
    ),
    Case(
        "pmang-matgo",
        "pibak spares a loser with no junk",
        "P-룰 7/A",
        lambda r: pays(r, p("A", *A_JUNK), p("B", "nov-bright")),
        [9],
    ),
    Case(
        "pmang-matgo",
        "the nagari carry stops at x8",
        "P-룰 8/A",
        lambda r: pays(r, p("A", *EIGHT), p("B", *SAFE_B), nagari_streak=4),
        [64],
    ),
    Case(
        "pmang-matgo",
        "taking another's ppuk steals on the last turn too",
        "P-룰 5.1/A",
        lambda r: r.steal_stack_units(False, True),
        1,
    ),
    Case(
        "pmang-matgo",
        "pibak, gwangbak and meongbak multiply",
        "P-룰 7/A",
        lambda r: pays(r, p("A", *MEONG), p("B", *JUNK[10:14])),
        [96],
    ),
    Case(
        "pmang-matgo",
        "gobak: the go-caller pays double",
        "P-룰 6.3/A",
        lambda r: pays(r, p("A", *EIGHT), p("B", *SAFE_B, go_count=1)),
        [16],
    ),
    # --- netmarble-matgo: Netmarble's Matgo 2.0 ------------------------------------------------------------
    Case(
        "netmarble-matgo",
        "chongtong: the holder chooses to stop, and wins 10",
        "N-맞고2.0 5.8/B",
        lambda r: at_deal(r, {"A": A_FOUR, "B": B_PLAIN}, ({"player": "A", "chongtong_choice": "win"},)),
        ("chongtong", "A", [10]),
    ),
    Case(
        "netmarble-matgo",
        "a bonus card's replacement completes a chongtong on the first turn",
        "N-맞고2.0 5.8/B",
        lambda r: replay(["A", "B"], r, bonus_deal(r), [{"player": "A", "bonus": "bonus-2a"}]).state.outcome,
        "chongtong",
    ),
    Case(
        "netmarble-matgo",
        "a hand won after playing on a chongtong pays x2",
        "N-맞고2.0 5.8/B",
        lambda r: pays(
            resolve({"preset": "netmarble-matgo", "chongtong_at_deal": "play-on"}),
            p("A", *EIGHT, chongtong=True),
            p("B", *SAFE_B),
        ),
        [16],
    ),
    Case(
        "netmarble-matgo",
        "three ppuks win 10",
        "N-맞고2.0 5.1/B",
        lambda r: (moves_2p(r, THREE_PPUKS)[0], pays(r, p("A", *A_JUNK), p("B", "oct-junk-1"), outcome="three-ppuk")),
        ("three-ppuk", [10]),
    ),
    Case(
        "netmarble-matgo",
        "first ppuks in a row pay the base x1, x2, x3",
        "N-맞고2.0 5.1/B",
        lambda r: moves_2p(r, THREE_PPUKS)[1],
        [7, 14, 21],
    ),
    Case(
        "netmarble-matgo",
        "a first-turn ttadak pays the base",
        "N-맞고2.0 5.1/B",
        lambda r: moves_2p(r, [m("A", "jan-junk-2", "jan-ribbon", capture="jan-bright")], TWO_OF_JAN)[1],
        [7],
    ),
    Case(
        "netmarble-matgo",
        "a first-turn chok and a first-turn bomb pay the base",
        "N-맞고2.0 5.1/B",
        lambda r: (
            moves_2p(r, [m("A", "jul-junk-1", "jul-junk-2")])[1],
            moves_2p(r, [m("A", bomb=["jan-junk-1", "jan-junk-2", "jan-ribbon"], draw="dec-double")])[1],
        ),
        ([7], [7]),
    ),
    Case(
        "netmarble-matgo",
        "pibak, gwangbak and meongtta: 2 x 2 x 2 = 8",
        "N-맞고2.0 7/B",
        lambda r: pays(r, p("A", *MEONG), p("B", *JUNK[10:14])),
        [96],
    ),
    Case(
        "netmarble-matgo",
        "three gos: (score + 3) x 2",
        "N-맞고2.0 6.2/B",
        lambda r: pays(r, p("A", *ELEVEN, go_count=3), p("B", *SAFE_B)),
        [28],
    ),
    Case(
        "netmarble-matgo",
        "gobak: the go-caller pays double",
        "N-맞고2.0 6.3/B",
        lambda r: pays(r, p("A", *EIGHT), p("B", *SAFE_B, go_count=1)),
        [16],
    ),
    Case(
        "netmarble-matgo",
        "no two-card bomb",
        "N-맞고2.0 5.1/B",
        lambda r: refused(r, p("A", *EIGHT, two_card_bombs=1), p("B", *SAFE_B)),
        "bomb-not-allowed",
    ),
    Case(
        "netmarble-matgo",
        "a loser who captured nothing pays",
        "N-맞고2.0 9 (unstated: uncertain)",
        lambda r: pays(r, p("A", *EIGHT), p("B")),
        [16],
    ),
    # --- hangame-gostop: Hangame's Go-Stop for three -------------------------------------------------------
    Case(
        "hangame-gostop",
        "stop from 3 points",
        "H-신맞고M 6.1/A",
        lambda r: pays(r, p("A", *HONGDAN), p("B", *B3), p("C", *C3)),
        [3, 3],
    ),
    Case(
        "hangame-gostop", "bonus cards steal nothing", "H-신맞고M 1.2/A", lambda r: r.steal(EventType.BONUS, False), 0
    ),
    Case(
        "hangame-gostop",
        "the go-caller pays for everyone",
        "H-맞고 6.3/A",
        lambda r: pays(r, p("A", *HONGDAN), p("B", *B3, go_count=1), p("C", *C3)),
        [6, 0],
    ),
    Case(
        "hangame-gostop",
        "of two go-callers, the last pays",
        "H-맞고 6.3/A, P-룰 6.3/A",
        lambda r: pays(r, p("A", *HONGDAN), p("B", *B3, go_count=1), p("C", *C3, go_count=1), last_go="C"),
        [0, 6],
    ),
    Case(
        "hangame-gostop",
        "chongtong wins 10 at once",
        "H-신맞고M 5.8/A",
        lambda r: shown_3p(r, {"A": JANUARY}),
        ("chongtong", "A", [10, 10]),
    ),
    Case(
        "hangame-gostop",
        "two chongtongs: the dealer wins",
        "H-신맞고M 2.3/A",
        lambda r: shown_3p(r, {"A": JANUARY, "B": MAY}),
        ("chongtong", "A", [10, 10]),
    ),
    Case(
        "hangame-gostop",
        "four of a month on the layout: the dealer wins",
        "W-신맞고 2.3/C",
        lambda r: shown_3p(r, {}, FOUR_ON_LAYOUT_3P),
        ("chongtong", "A", [10, 10]),
    ),
    Case(
        "hangame-gostop",
        "pibak at 5 junk units or fewer",
        "P-룰 7/A, K-위키/C (Hangame silent)",
        lambda r: pays(r, p("A", *A3_JUNK), p("B", *B3_FIVE), p("C", *C3_SIX)),
        [8, 4],
    ),
    Case(
        "hangame-gostop",
        "gwangbak",
        "H 7/A",
        lambda r: pays(r, p("A", "jan-bright", "mar-bright", "aug-bright"), p("B", *JUNK[:6]), p("C", *C3)),
        [6, 3],
    ),
    Case(
        "hangame-gostop",
        "no heodang",
        "H-맞고 5.7/A (the old Matgo alone)",
        lambda r: refused(r, p("A", *HONGDAN), p("B", *B3), p("C", *C3), outcome="heodang"),
        "invalid-outcome",
    ),
    Case(
        "hangame-gostop",
        "the nagari carry has no cap",
        "H 8/A",
        lambda r: pays(r, p("A", *HONGDAN), p("B", *B3), p("C", *C3), nagari_streak=4),
        [48, 48],
    ),
    # --- pmang-gostop: Pmang's Go-Stop for three -----------------------------------------------------------
    Case(
        "pmang-gostop",
        "stop from 3 points",
        "P-룰 6.1/A",
        lambda r: pays(r, p("A", *HONGDAN), p("B", *B3), p("C", *C3)),
        [3, 3],
    ),
    Case(
        "pmang-gostop",
        "the go-caller pays for everyone (독박)",
        "P-룰 6.3/A",
        lambda r: pays(r, p("A", *HONGDAN), p("B", *B3, go_count=1), p("C", *C3)),
        [6, 0],
    ),
    Case(
        "pmang-gostop",
        "of two go-callers, the last pays",
        "P-룰 6.3/A",
        lambda r: pays(r, p("A", *HONGDAN), p("B", *B3, go_count=2), p("C", *C3, go_count=1), last_go="B"),
        [6, 0],
    ),
    Case(
        "pmang-gostop",
        "two go-callers must say who called last",
        "P-룰 6.3/A",
        lambda r: refused(r, p("A", *HONGDAN), p("B", *B3, go_count=1), p("C", *C3, go_count=1)),
        "last-go-required",
    ),
    Case(
        "pmang-gostop",
        "pibak at 5 junk units or fewer",
        "P-룰 7/A",
        lambda r: pays(r, p("A", *A3_JUNK), p("B", *B3_FIVE), p("C", *C3_SIX)),
        [8, 4],
    ),
    Case(
        "pmang-gostop",
        "pibak spares a loser with no junk",
        "P-룰 7/A",
        lambda r: pays(r, p("A", *A3_JUNK), p("B", "nov-bright"), p("C", *C3_SIX)),
        [4, 4],
    ),
    Case(
        "pmang-gostop",
        "chongtong wins 7",
        "P-FAQ 5.8/A (Matgo's)",
        lambda r: shown_3p(r, {"A": JANUARY}),
        ("chongtong", "A", [7, 7]),
    ),
    Case(
        "pmang-gostop",
        "two chongtongs: nagari",
        "P-FAQ 2.3/A",
        lambda r: shown_3p(r, {"A": JANUARY, "B": MAY}),
        ("nagari", None, []),
    ),
    Case(
        "pmang-gostop",
        "four of a month on the layout: nagari",
        "P-FAQ 2.3/A",
        lambda r: shown_3p(r, {}, FOUR_ON_LAYOUT_3P),
        ("nagari", None, []),
    ),
    Case(
        "pmang-gostop",
        "the nagari carry stops at x8",
        "P-룰 8/A",
        lambda r: pays(r, p("A", *HONGDAN), p("B", *B3), p("C", *C3), nagari_streak=4),
        [24, 24],
    ),
    Case(
        "pmang-gostop",
        "taking another's ppuk steals on the last turn too",
        "P-룰 5.1/A",
        lambda r: r.steal_stack_units(False, True),
        1,
    ),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.preset}: {c.rule} [{c.source}]")
def test_rules_10_4_the_preset_pays_what_its_service_would(case):
    assert case.run(resolve(case.preset)) == case.expected


@pytest.mark.parametrize("preset", list(PRESET_SOURCES))
def test_rules_10_4_each_platform_preset_has_ten_cases_from_its_sources(preset):
    assert sum(case.preset == preset for case in CASES) >= 10


@pytest.mark.parametrize("preset", list(PRESET_SOURCES))
def test_rules_10_4_each_platform_preset_names_its_pages_and_grade(preset):
    source = PRESET_SOURCES[preset]
    assert source.pages and all(page.startswith("https://") for page in source.pages)
    assert source.grade in ("A", "B", "C", "D")
    rules = resolve(preset)
    assert all(hasattr(rules, knob) for knob in source.uncertain)


def test_rules_10_4_a_chongtong_played_on_at_pmang_pays_x4_by_its_shake_and_bomb():
    """Pmang's x4 for a hand won on a chongtong played on is the four shaken (x2) and the bomb (x2) (P-FAQ/A)."""
    rules = resolve({"preset": "pmang-matgo", "chongtong_at_deal": "play-on"})
    state = GameState(["A", "B"], rules, full_deal({"A": A_FOUR, "B": B_PLAIN}, LAY, rules))
    assert any(len(mv.shake) == 4 for mv in state.legal_moves())
    assert pays(rules, p("A", *EIGHT, shakes=1, bombs=1), p("B", *SAFE_B)) == [32]


def test_the_rules_catalog_lists_the_platform_presets_with_their_sources(client):
    answer = client.get("/v1/rules").get_json()
    by_name = {x["name"]: x for x in answer["presets"]}
    for name, source in PRESET_SOURCES.items():
        assert by_name[name]["source"] == {
            "service": source.service,
            "pages": list(source.pages),
            "grade": source.grade,
            "uncertain": list(source.uncertain),
        }
    assert "source" not in by_name["korean-2p"]
    ko = client.get("/v1/rules", headers={"Accept-Language": "ko"}).get_json()
    assert {x["name"]: x["description"] for x in ko["presets"]}["pmang-matgo"].startswith("피망 뉴맞고")


def test_the_command_prints_a_platform_preset_and_the_sources(capsysbinary):
    from gostop import cli

    assert cli.main(["rules", "hangame-matgo"]) == 0
    out = capsysbinary.readouterr().out.decode()
    assert out.startswith("preset: hangame-matgo") and re.search(r"floor_four\s+dealer-wins", out)
    assert cli.main(["rules", "--lang", "ko"]) == 0
    listed = " ".join(capsysbinary.readouterr().out.decode().split())  # the table wraps the words
    assert "출처: Netmarble 맞고 2.0 (Matgo 2.0, 2008), 등급 B;" in listed
