"""RULES.md 2 (combination score) and 3 (the September animal), under each preset where they differ."""

import pytest

from engine import resolve, score
from tests.conftest import cards

K2 = resolve("korean-2p")
CHIPS = resolve("chips-2p")
JUNK10 = (
    "jan-junk-1",
    "jan-junk-2",
    "feb-junk-1",
    "feb-junk-2",
    "mar-junk-1",
    "mar-junk-2",
    "apr-junk-1",
    "apr-junk-2",
    "may-junk-1",
    "may-junk-2",
)


def items(s):
    return {i.combination: i.points for i in s.items}


@pytest.mark.parametrize(
    ("brights", "points"),
    [
        (("jan-bright", "mar-bright"), 0),
        (("jan-bright", "mar-bright", "aug-bright"), 3),
        (("jan-bright", "mar-bright", "dec-bright"), 2),
        (("jan-bright", "mar-bright", "aug-bright", "dec-bright"), 4),
        (("jan-bright", "mar-bright", "aug-bright", "nov-bright"), 4),
        (("jan-bright", "mar-bright", "aug-bright", "nov-bright", "dec-bright"), 15),
    ],
)
def test_rules_2_brights_only_the_best_counts(brights, points):
    assert score(cards(*brights), K2).total == points


@pytest.mark.parametrize(("n", "points"), [(4, 0), (5, 1), (6, 2), (7, 3)])
def test_rules_2_animals_five_and_one_per_extra(n, points):
    animals = ("may-animal", "jun-animal", "jul-animal", "oct-animal", "dec-animal", "feb-animal", "apr-animal")
    assert items(score(cards(*animals[:n]), K2)).get("animals", 0) == points


def test_rules_2_godori_adds_to_animals():
    s = score(cards("feb-animal", "apr-animal", "aug-animal", "may-animal", "jun-animal"), K2)
    assert items(s) == {"animals": 1, "godori": 5} and s.total == 6


def test_rules_2_dec_animal_is_no_godori_bird():
    assert "godori" not in items(score(cards("feb-animal", "apr-animal", "dec-animal"), K2))


@pytest.mark.parametrize(
    ("ribbons", "expected"),
    [
        (("jan-ribbon", "feb-ribbon", "mar-ribbon"), {"hongdan": 3}),
        (("jun-ribbon", "sep-ribbon", "oct-ribbon"), {"cheongdan": 3}),
        (("apr-ribbon", "may-ribbon", "jul-ribbon"), {"chodan": 3}),
        (("apr-ribbon", "may-ribbon", "dec-ribbon"), {}),  # dec-ribbon never counts for chodan
        (("jan-ribbon", "feb-ribbon", "mar-ribbon", "apr-ribbon", "dec-ribbon"), {"hongdan": 3, "ribbons": 1}),
        (
            ("jan-ribbon", "feb-ribbon", "mar-ribbon", "jun-ribbon", "sep-ribbon", "oct-ribbon"),
            {"hongdan": 3, "cheongdan": 3, "ribbons": 2},
        ),
    ],
)
def test_rules_2_ribbons_and_ribbon_sets(ribbons, expected):
    assert items(score(cards(*ribbons), K2)) == expected


@pytest.mark.parametrize(("extra", "points"), [((), 1), (("jun-junk-1",), 2), (("nov-double",), 3), (("bonus-3",), 4)])
def test_rules_2_junk_ten_units_and_one_per_extra(extra, points):
    assert items(score(cards(*JUNK10, *extra), K2))["junk"] == points


def test_rules_1_double_junk_off_counts_one_unit_chips_preset():
    nine_plus_double = cards(*JUNK10[:9], "dec-double")
    assert score(nine_plus_double, K2).junk_units == 11
    assert score(nine_plus_double, CHIPS).junk_units == 10
    assert items(score(nine_plus_double, K2))["junk"] == 2
    assert items(score(nine_plus_double, CHIPS))["junk"] == 1


def test_rules_2_combinations_add_up():
    s = score(
        cards(
            "jan-bright",
            "mar-bright",
            "aug-bright",
            "feb-animal",
            "apr-animal",
            "aug-animal",
            "jan-ribbon",
            "feb-ribbon",
            "mar-ribbon",
            *JUNK10[2:],
            "jun-junk-1",
            "jun-junk-2",
        ),
        K2,
    )
    assert items(s) == {"brights": 3, "godori": 5, "hongdan": 3, "junk": 1}
    assert s.total == 12


def test_rules_3_best_places_the_cup_as_junk_when_that_scores_more():
    s = score(cards(*JUNK10[:8], "sep-animal"), K2)  # 8 + 2 units = 10 -> 1 point; as an animal: nothing
    assert s.sep_animal_as == "junk" and s.total == 1 and s.junk_units == 10 and s.animals == 0


def test_rules_3_best_keeps_the_cup_an_animal_on_a_tie():
    s = score(cards("jan-junk-1", "sep-animal"), K2)
    assert s.sep_animal_as == "animal" and s.animals == 1 and s.junk_units == 1


def test_rules_3_best_places_the_cup_as_animal_when_that_scores_more():
    s = score(cards("may-animal", "jun-animal", "jul-animal", "oct-animal", "sep-animal", *JUNK10[:7]), K2)
    assert s.sep_animal_as == "animal" and items(s) == {"animals": 1}


def test_rules_3_never_both():
    s = score(cards("may-animal", "jun-animal", "jul-animal", "oct-animal", "sep-animal", *JUNK10[:8]), K2)
    # as animal: 5 animals = 1; as junk: 10 units = 1; a tie keeps it an animal, never 2 points
    assert s.total == 1 and s.sep_animal_as == "animal"


def test_rules_3_a_pin_wins_over_best():
    s = score(cards(*JUNK10[:8], "sep-animal"), K2, sep_animal_as="animal")
    assert s.sep_animal_as == "animal" and s.total == 0


def test_rules_3_sep_animal_animal_always_an_animal_chips_preset():
    s = score(cards(*JUNK10[:8], "sep-animal"), CHIPS)
    assert s.sep_animal_as == "animal" and s.total == 0


def test_rules_3_no_cup_no_placement():
    assert score(cards("jan-junk-1"), K2).sep_animal_as is None
    assert score(cards("jan-junk-1"), K2, sep_animal_as="junk").sep_animal_as is None
