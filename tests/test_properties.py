"""Invariants of scoring and settlement, checked with hypothesis over random captured piles."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import CARDS, CardSet, HandResult, PlayerHand, find_rules, score, settle
from engine.cards import CUP
from engine.scoring import evaluate, total
from service.i18n import LANGUAGES
from service.settlement import settlement_json
from tests.strategies import MONTH_CARDS, deals, preset_names

ALL_CARDS = list(CARDS)  # bonus cards too: the replay scores them
SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(preset_names, st.lists(st.sampled_from(MONTH_CARDS), unique=True), st.sampled_from(MONTH_CARDS))
def test_adding_a_captured_card_never_lowers_the_score(preset, pile, extra):
    """RULES.md 2: every combination grows with the pile (the cup's best placement included)."""
    rules = find_rules(preset)
    if extra in pile:
        return
    assert score([*pile, extra], rules).total >= score(pile, rules).total


@SETTINGS
@given(st.lists(st.sampled_from(MONTH_CARDS), unique=True))
def test_the_cup_goes_where_it_scores_more(pile):
    """RULES.md 3: under `best`, the score is the better of the two pinned placements."""
    rules = find_rules("korean-2p")
    pile = [c for c in pile if c is not CUP] + [CUP]
    as_animal = score(pile, rules, sep_animal_as="animal").total
    as_junk = score(pile, rules, sep_animal_as="junk").total
    best = score(pile, rules)
    assert best.total == max(as_animal, as_junk)
    assert best.sep_animal_as == ("junk" if as_junk > as_animal else "animal")


@SETTINGS
@given(
    preset_names,
    st.lists(st.sampled_from(ALL_CARDS), unique=True),
    st.sampled_from([None, "animal", "junk"]),
)
def test_the_fast_go_stop_total_is_the_score_total(preset, pile, pin):
    """RULES.md 2-3: the total the replay checks after each turn is the full score's total, cup pins included."""
    rules = find_rules(preset)
    if pin == "junk" and rules.sep_animal == "animal":
        pin = None  # such a pin is refused before scoring
    assert total(CardSet(pile).mask, rules, pin) == evaluate(CardSet(pile), rules, pin).total


def _hand(name, piles, winner_index, gos, shakes, bombs, streak, stake):
    """A hand that can happen: shakes and bombs only where the rules have them, and no more gos than the winner's
    score allows (RULES.md 7: each call after a go needs more than the go's score)."""
    rules = find_rules(name)
    ids = ["A", "B", "C"][: len(piles)]
    gos = list(gos)
    gos[winner_index] = max(0, min(gos[winner_index], score(piles[winner_index], rules).total - rules.target_score))
    players = tuple(
        PlayerHand(pid, tuple(pile), gos[i], shakes[i] * rules.allow_shake, bombs[i] * rules.allow_bomb)
        for i, (pid, pile) in enumerate(zip(ids, piles, strict=False))
    )
    return HandResult(
        players, ids[winner_index], nagari_streak=streak, stake=stake, last_go=ids[(winner_index + 1) % len(ids)]
    )


hand_args = st.tuples(
    deals(),
    st.integers(0, 2),
    st.lists(st.integers(0, 6), min_size=3, max_size=3),
    st.lists(st.integers(0, 2), min_size=3, max_size=3),
    st.lists(st.integers(0, 2), min_size=3, max_size=3),
    st.integers(0, 4),
    st.integers(0, 1000),
)


@SETTINGS
@given(hand_args)
def test_payments_are_never_negative_and_only_flow_to_the_winner(args):
    (name, piles), w, gos, shakes, bombs, streak, stake = args
    rules = find_rules(name)
    w %= rules.players
    if score(piles[w], rules).total < rules.target_score:
        return
    result = settle(_hand(name, piles, w, gos, shakes, bombs, streak, stake), rules)
    winner = "ABC"[w]
    assert {p.payee for p in result.payments} <= {winner}
    assert sorted(p.payer for p in result.payments) == sorted(set("ABC"[: rules.players]) - {winner})
    for pay in result.payments:
        assert pay.points >= 0 and pay.amount == pay.points * stake
    assert sum(p.points for p in result.payments) >= 0


@SETTINGS
@given(hand_args, st.randoms())
def test_a_hand_settles_the_same_whatever_order_its_cards_are_listed_in(args, rng):
    """The same hand is the same request: the order of a pile's cards changes nothing in the answer."""
    (name, piles), w, gos, shakes, bombs, streak, stake = args
    rules = find_rules(name)
    w %= rules.players
    if score(piles[w], rules).total < rules.target_score:
        return
    shuffled = [rng.sample(pile, len(pile)) for pile in piles]
    english = LANGUAGES["en"]
    first = settlement_json(english, settle(_hand(name, piles, w, gos, shakes, bombs, streak, stake), rules))
    second = settlement_json(english, settle(_hand(name, shuffled, w, gos, shakes, bombs, streak, stake), rules))
    assert first == second


@settings(max_examples=60, deadline=None)
@given(deals())
def test_identical_http_requests_give_identical_bodies(app, deal):
    name, piles = deal
    body = {"rules": name, "cards": [c.id for c in piles[0]]}
    client = app.test_client()
    first, second = client.post("/v1/score", json=body), client.post("/v1/score", json=body)
    assert first.status_code == second.status_code == 200
    assert first.get_data() == second.get_data()
