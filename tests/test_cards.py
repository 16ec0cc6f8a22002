"""RULES.md 1: the catalog."""

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import CARDS, CardError, CardSet, Place, by_id, parse_cards
from engine.cards import popcount


def _ids_in_section_1(rules_md: str) -> list[str]:
    section = rules_md.split("## 1. Cards", 1)[1].split("## 2.", 1)[0]
    table = [line for line in section.splitlines() if re.match(r"\| \d+ ", line)]
    ids = []
    for row in table:
        ids += re.findall(r"`([a-z]+-[a-z0-9-]+)`", row)
    return ids


def test_rules_1_ids_and_catalog_order_are_exactly_the_table(rules_md):
    expected = [*_ids_in_section_1(rules_md), "bonus-2a", "bonus-2b", "bonus-3"]
    assert [c.id for c in CARDS] == expected


def test_rules_1_totals():
    kinds = [c.kind for c in CARDS]
    assert (kinds.count("bright"), kinds.count("animal"), kinds.count("ribbon"), kinds.count("junk")) == (5, 9, 10, 24)
    assert kinds.count("bonus") == 3
    for month in range(1, 13):
        assert sum(c.month == month for c in CARDS) == 4


@pytest.mark.parametrize(
    ("card_id", "units"),
    [
        ("jan-junk-1", 1),
        ("nov-double", 2),
        ("dec-double", 2),
        ("bonus-2a", 2),
        ("bonus-2b", 2),
        ("bonus-3", 3),
        ("sep-animal", 0),
        ("jan-bright", 0),
    ],
)
def test_rules_1_junk_units(card_id, units):
    assert by_id(card_id).junk_units == units


@pytest.mark.parametrize(
    ("tag", "members"),
    [
        ("godori", {"feb-animal", "apr-animal", "aug-animal"}),
        ("hongdan", {"jan-ribbon", "feb-ribbon", "mar-ribbon"}),
        ("cheongdan", {"jun-ribbon", "sep-ribbon", "oct-ribbon"}),
        ("chodan", {"apr-ribbon", "may-ribbon", "jul-ribbon"}),
        ("rain", {"dec-bright"}),
        ("double-junk", {"nov-double", "dec-double"}),
        ("cup", {"sep-animal"}),
    ],
)
def test_rules_1_tags(tag, members):
    assert {c.id for c in CARDS if tag in c.tags} == members


def test_unknown_and_duplicate_ids_are_refused_with_their_code():
    with pytest.raises(CardError) as err:
        parse_cards(["jan-bright", "jan-brite"], owner=Place("captured", "A"))
    assert err.value.code == "unknown-card"
    assert err.value.context == {"card": "jan-brite", "player": "A"}
    with pytest.raises(CardError) as err:
        parse_cards(["jan-bright", "jan-bright"])
    assert err.value.code == "duplicate-card"


def test_a_card_set_reads_back_in_catalog_order_and_refuses_nothing_silently():
    """RULES.md 1: catalog order is the tie-break order, so a CardSet lists its cards in that order."""
    import random

    rng = random.Random(7)
    for _ in range(200):
        picked = rng.sample(CARDS, rng.randint(0, len(CARDS)))
        cards = CardSet(picked)
        assert len(cards) == len(picked)
        assert list(cards) == sorted(picked, key=lambda c: c.index)
        assert all(c in cards for c in picked) and not any(c in cards for c in CARDS if c not in picked)
    jan, feb = CARDS[0], CARDS[4]
    assert list(CardSet([jan, jan])) == [jan]  # a set: OR, never a carry into the next card's bit
    assert CardSet([jan]) | CardSet([feb]) == CardSet([feb, jan]) and CardSet([jan, feb]) - CardSet([jan]) == CardSet(
        [feb]
    )
    assert list(CardSet()) == [] and list(CardSet(CARDS)) == list(CARDS)
    with pytest.raises(CardError) as err:  # where a repeat is a mistake, it is refused, naming the card
        parse_cards([jan, jan])
    assert (err.value.code, err.value.context["card"]) == ("duplicate-card", "jan-bright")


@given(st.integers(min_value=0, max_value=2**62 - 1))
def test_popcount_counts_the_cards_of_any_mask(mask):
    """The compiled build counts with machine words (not int.bit_count): any mask below bit 62, every deck's."""
    assert popcount(mask) == mask.bit_count()


def test_popcount_of_the_whole_deck():
    assert popcount(CardSet(CARDS).mask) == len(CARDS)
