"""The house rules other engines and tables play (issue 19), one knob each, every value tested against the rule
book: RULES.md 2 (four brights, ten ribbons), 4.2-4.3 (chongtong, four of a month on the layout), 4.5 (four at
the table, 광팔기), 5.2-5.5 (a bonus card on a ppuk, a chok on an empty layout, the two-card bomb), 6 (a dealt
stack's steal, the cup stolen as double junk) and 8.2 (the two-card bomb's factor).

Most logs are physical-game logs (hands and stock hidden, every draw stated) on the 2-player layout of
tests/test_game.py, so that a test chooses exactly which cards meet; deals that must be known are built whole.
"""

from __future__ import annotations

import random

import pytest

from engine import (
    CARDS,
    CardSet,
    Combination,
    GameState,
    HandError,
    HandResult,
    IllegalMoveError,
    Move,
    PlayerHand,
    RulesError,
    SitOut,
    by_id,
    replay,
    resolve,
    score,
    settle,
)
from engine.scoring import evaluate, total
from engine.simulate import simulate
from tests.simulated import assert_conserved, deck_of, hidden_form, replay_body

# 2 players: eight layout cards, one each of months 1, 2, 3, 4, 5, 6, 8, 10 (as tests/test_game.py)
BASE = ["jan-bright", "feb-junk-1", "mar-ribbon", "apr-junk-1", "may-animal", "jun-junk-1", "aug-junk-2", "oct-ribbon"]


def rules_of(preset: str = "korean-2p", **knobs):
    return resolve({"preset": preset, **knobs})


def run(moves, layout=BASE, rules=None, players=("A", "B"), **deal):
    return replay(list(players), rules or rules_of(), {"layout": layout, **deal}, moves)


def illegal(moves, code, index, **kw):
    with pytest.raises(IllegalMoveError) as err:
        run(moves, **kw)
    assert (err.value.code, err.value.move_index) == (code, index), str(err.value)
    return err.value


def m(player, play=None, draw=None, **kw):
    move = {"player": player, **kw}
    if play:
        move["play"] = play
    if draw:
        move["draw"] = draw
    return move


def seat(result, pid):
    return next(s for s in result.state.seats if s.id == pid)


def captured(result, pid):
    return {c.id for c in seat(result, pid).captured}


def layout(result):
    return {c.id for c in result.state.layout_cards()}


def events(result, type_=None):
    return [e for e in result.state.events if type_ is None or e.type == type_]


def full_deal(hands, layout_, rules, first=()):
    """A known deal: the hands, the layout, and the stock (``first`` on top, then the rest in catalog order)."""
    used = {c for hand in hands.values() for c in hand} | set(layout_) | set(first)
    rest = [c.id for c in rules.deck if c.id not in used]
    return {"hands": hands, "layout": layout_, "stock": [*first, *rest]}


# --- RULES.md 2: four brights, ten ribbons ----------------------------------------------------------------

FOUR_BRIGHTS = ["jan-bright", "mar-bright", "aug-bright", "nov-bright"]
TEN_RIBBONS = [c.id for c in CARDS if c.kind == "ribbon"]


@pytest.mark.parametrize(("points", "expected"), [(4, 4), (5, 5)])
def test_rules_2_four_brights_score_four_brights_points(points, expected):
    rules = rules_of(four_brights_points=points)
    assert score(FOUR_BRIGHTS, rules).total == expected
    assert score([*FOUR_BRIGHTS[:3], "dec-bright"], rules).total == expected  # the rain bright among the four
    assert score([*FOUR_BRIGHTS, "dec-bright"], rules).total == 15  # five brights are five brights
    assert score(FOUR_BRIGHTS[:3], rules).total == 3  # three are three


@pytest.mark.parametrize(("points", "ribbon_points"), [(0, 6), (15, 15)])
def test_rules_2_all_ten_ribbons_score_ten_ribbons_points_and_the_sets_still_add(points, ribbon_points):
    rules = rules_of(ten_ribbons_points=points)
    s = score(TEN_RIBBONS, rules)
    assert s.points(Combination.RIBBONS) == ribbon_points
    assert s.total == ribbon_points + 3 * 3  # hongdan, cheongdan and chodan add up as ever
    assert score(TEN_RIBBONS[:9], rules).points(Combination.RIBBONS) == 5  # nine ribbons are counted as usual


def test_rules_2_the_go_stop_check_adds_the_same_points_as_the_score():
    """The go/stop check's quick total and the evaluator agree under the scoring knobs, on random captures."""
    rng = random.Random(19)
    for rules in (rules_of(four_brights_points=5, ten_ribbons_points=15), rules_of(four_brights_points=15)):
        piles = [rng.sample(list(rules.deck), rng.randint(0, 30)) for _ in range(2000)]
        piles += [[by_id(i) for i in FOUR_BRIGHTS + TEN_RIBBONS], [by_id(i) for i in TEN_RIBBONS]]
        for pile in piles:
            held = CardSet(pile)
            assert total(held.mask, rules) == evaluate(held, rules).total, held.ids()


# --- RULES.md 4.5: four at the table, 광팔기 ------------------------------------------------------------------

TABLE_OF_FOUR = rules_of("korean-3p", gwang_palgi=True)
LAYOUT_3P = ["jan-junk-1", "feb-junk-1", "mar-junk-1", "apr-junk-1", "may-junk-1", "jun-junk-1"]
HANDS_3P = {
    "A": ["jul-animal", "jul-ribbon", "jul-junk-1", "aug-junk-1", "sep-animal", "sep-ribbon", "sep-junk-2"],
    "B": ["oct-animal", "oct-ribbon", "oct-junk-1", "nov-double", "nov-junk-1", "dec-animal", "dec-ribbon"],
    "C": ["jan-ribbon", "feb-ribbon", "mar-ribbon", "apr-ribbon", "may-ribbon", "jun-ribbon", "sep-junk-1"],
}
# three brights, a bonus card, three August cards: (3 + 1 + 3 for the three brights) x 2 = 14
D_SELLS = ["jan-bright", "mar-bright", "aug-bright", "aug-animal", "aug-junk-2", "bonus-2a", "oct-junk-2"]


def four_at_the_table(seat=4, hand=D_SELLS, rules=TABLE_OF_FOUR):
    deal = full_deal(HANDS_3P, LAYOUT_3P, rules, first=())
    deal["stock"] = [c for c in deal["stock"] if c not in hand]
    return {**deal, "sit_out": {"player": "D", "seat": seat, "hand": hand}}


def test_rules_4_5_the_fourth_sells_the_brights_to_the_players_other_than_the_dealer():
    r = replay(["A", "B", "C"], TABLE_OF_FOUR, four_at_the_table(), [])
    sale = r.state.sale
    assert (sale.seller, sale.payers) == ("D", ("B", "C"))
    assert (sale.brights, sale.bonus_cards, sale.combinations, sale.month, sale.value) == (3, 1, 3, 8, 14)
    assert [(p.payer, p.payee, p.points, p.reason, p.move_index) for p in r.state.instant_payments] == [
        ("B", "D", 14, "gwang-sale", None),
        ("C", "D", 14, "gwang-sale", None),
    ]
    # the three play a three-player hand: the sitter's hand lies under the stock, in the order given
    assert r.state.players == ("A", "B", "C") and r.state.stock_left == 24
    assert [c.id for c in r.state.table.stock[-7:]] == D_SELLS
    assert r.state.sit_out == SitOut("D", 4, tuple(by_id(c) for c in D_SELLS))


def test_rules_4_5_the_value_is_not_doubled_without_three_of_a_month_and_counts_what_the_hand_holds():
    hand = ["jan-bright", "dec-bright", "bonus-2a", "aug-junk-2", "aug-animal", "oct-junk-2", "nov-bright"]
    r = replay(["A", "B", "C"], TABLE_OF_FOUR, four_at_the_table(hand=hand), [])
    # three brights with the rain bright score 2; four cards are brights or bonus: 3 + 1 + 2
    assert (r.state.sale.month, r.state.sale.value) == (None, 6)


@pytest.mark.parametrize("seat", [2, 3])
def test_rules_4_5_a_player_who_chose_to_sit_out_sells_nothing(seat):
    r = replay(["A", "B", "C"], TABLE_OF_FOUR, four_at_the_table(seat=seat), [])
    assert r.state.sale is None and r.state.instant_payments == []
    assert r.state.stock_left == 24  # their hand is under the stock all the same


def test_rules_4_5_the_sale_stands_in_a_nagari_and_the_settlement_says_it():
    hand = HandResult(
        (PlayerHand("A", ["jan-bright"]), PlayerHand("B", ["feb-junk-1"]), PlayerHand("C")),
        None,
        "nagari",
        sit_out=SitOut("D", 4, tuple(by_id(c) for c in D_SELLS)),
    )
    s = settle(hand, TABLE_OF_FOUR)
    assert s.payments == () and s.sale.value == 14 and s.sale.payers == ("B", "C")
    redealt = settle(HandResult(hand.players, None, "redeal", sit_out=hand.sit_out), TABLE_OF_FOUR)
    assert redealt.sale is None  # a deal that does not count sells nothing


def test_rules_4_5_a_settled_hand_and_its_replay_say_the_same_sale():
    body = next(
        b for b in (simulate(TABLE_OF_FOUR, s).to_dict() for s in range(200)) if b["deal"]["sit_out"]["seat"] == 4
    )
    result = replay_body(body)
    assert result.settlement.sale == result.state.sale is not None
    again = settle(result.state.hand_result(), TABLE_OF_FOUR)
    assert again.sale == result.settlement.sale


def test_rules_4_5_with_hidden_hands_the_seller_shows_the_cards_sold_and_they_lie_in_the_stock():
    deal = {"layout": LAYOUT_3P, "sit_out": {"player": "D", "seat": 4, "hand": D_SELLS[:6]}}
    r = replay(["A", "B", "C"], TABLE_OF_FOUR, deal, [])
    assert r.state.sale.value == 14 and r.state.stock_left == 24
    with pytest.raises(IllegalMoveError) as err:  # nobody holds them: they are under the stock
        replay(["A", "B", "C"], TABLE_OF_FOUR, deal, [m("A", "aug-bright", "dec-animal")])
    assert (err.value.code, err.value.params["seen"].kind) == ("card-already-seen", "stock")
    flipped = replay(["A", "B", "C"], TABLE_OF_FOUR, deal, [m("A", "jul-animal", "aug-bright")])
    assert "aug-bright" in layout(flipped)  # but they can come up from it


@pytest.mark.parametrize(
    ("rules", "sit_out", "why"),
    [
        (rules_of("korean-3p"), {"player": "D", "seat": 4, "hand": D_SELLS}, "off"),
        (TABLE_OF_FOUR, {"player": "C", "seat": 4, "hand": D_SELLS}, "is-playing"),
        (TABLE_OF_FOUR, {"player": "D", "seat": 1, "hand": D_SELLS}, "seat"),
        (TABLE_OF_FOUR, {"player": "D", "seat": 4, "hand": D_SELLS[:6]}, "hand-size"),
        (TABLE_OF_FOUR, {"player": "D", "seat": "4", "hand": D_SELLS}, "seat"),
        (TABLE_OF_FOUR, {"seat": 4, "hand": D_SELLS}, "no-player"),
    ],
)
def test_rules_4_5_a_table_of_four_must_say_who_sat_out_and_where(rules, sit_out, why):
    deal = full_deal(HANDS_3P, LAYOUT_3P, rules)
    deal["stock"] = [c for c in deal["stock"] if c not in D_SELLS]
    deal["sit_out"] = sit_out
    with pytest.raises(IllegalMoveError) as err:
        GameState(["A", "B", "C"], rules, deal)
    assert (err.value.code, err.value.why, err.value.move_index) == ("bad-deal", why, None)


def test_rules_4_5_a_hand_that_names_no_sitter_is_the_three_players_alone():
    """Nobody sold: the second or third chose to sit out, or the log does not say (the sale, like any instant
    payment, is outside the hand's result)."""
    r = replay(["A", "B", "C"], TABLE_OF_FOUR, full_deal(HANDS_3P, LAYOUT_3P, TABLE_OF_FOUR), [])
    assert r.state.sit_out is None and r.state.sale is None and r.state.stock_left == 24
    players = (PlayerHand("A"), PlayerHand("B"), PlayerHand("C"))
    assert settle(HandResult(players, None, "nagari"), TABLE_OF_FOUR).sale is None


def test_rules_4_5_settle_refuses_a_sitter_the_rules_cannot_have():
    players = (PlayerHand("A"), PlayerHand("B"), PlayerHand("C"))
    with pytest.raises(HandError) as err:
        settle(HandResult(players, None, "nagari", sit_out=SitOut("D", 4)), rules_of("korean-3p"))
    assert (err.value.code, err.value.why) == ("sit-out-not-allowed", "off")


def test_rules_4_5_four_at_the_table_needs_a_table_of_three():
    with pytest.raises(RulesError) as err:
        resolve({"preset": "korean-2p", "gwang_palgi": True})
    assert (err.value.code, err.value.why, err.value.context["knob"]) == ("invalid-knob", "not-a-choice", "gwang_palgi")
    assert (err.value.params["depends_on"], err.value.params["choices"]) == ("players", [False])


def test_rules_4_5_simulated_hands_at_a_table_of_four_keep_every_card_in_one_place():
    deck = deck_of(TABLE_OF_FOUR)
    sold = 0
    for seed in range(150):
        body = simulate(TABLE_OF_FOUR, seed).to_dict()
        full = replay_body(body)
        assert_conserved(full.state, deck)
        hidden = replay_body(hidden_form(body))
        assert hidden.settlement == full.settlement and hidden.state.sale == full.state.sale
        assert_conserved(hidden.state, deck)
        sold += full.state.sale is not None
    assert 20 < sold < 130  # about a third of the hands, where the fourth sits out


# --- RULES.md 4.2, 4.3: chongtong played on, completed by a bonus card, and the dealer's win -----------------

A_FOUR = ["jan-bright", "jan-ribbon", "jan-junk-1", "jan-junk-2", "feb-animal", "feb-ribbon", "mar-bright"]
A_FOUR += ["mar-ribbon", "apr-animal", "apr-ribbon"]
B_PLAIN = ["may-animal", "may-ribbon", "jun-animal", "jun-ribbon", "jul-animal", "jul-ribbon", "aug-bright"]
B_PLAIN += ["aug-animal", "sep-animal", "sep-ribbon"]
B_FOUR = ["may-animal", "may-ribbon", "may-junk-1", "may-junk-2", "jul-animal", "jul-ribbon", "aug-bright"]
B_FOUR += ["aug-animal", "sep-animal", "sep-ribbon"]
LAY = ["oct-animal", "oct-ribbon", "nov-bright", "nov-double", "dec-bright", "dec-animal", "feb-junk-1", "mar-junk-1"]
JANUARY = ["jan-bright", "jan-ribbon", "jan-junk-1", "jan-junk-2"]


def test_rules_4_3_a_chongtong_wins_at_the_deal_by_default():
    rules = rules_of(chongtong_at_deal="win")
    r = replay(["A", "B"], rules, full_deal({"A": A_FOUR, "B": B_PLAIN}, LAY, rules), [])
    assert (r.state.outcome, r.state.winner, [p.points for p in r.settlement.payments]) == ("chongtong", "A", [10])


def test_rules_4_3_a_chongtong_played_on_may_be_shaken_all_four():
    rules = rules_of(chongtong_at_deal="play-on")
    deal = full_deal({"A": A_FOUR, "B": B_PLAIN}, LAY, rules)
    state = GameState(["A", "B"], rules, deal)
    assert not state.is_over and state.to_move == "A"
    fours = [mv for mv in state.legal_moves() if len(mv.shake) == 4]
    assert sorted(mv.play.id for mv in fours) == sorted(JANUARY)
    state.apply(Move.from_dict({"player": "A", "shake": JANUARY, "play": "jan-bright", "draw": "feb-junk-2"}))
    (shake,) = [e for e in state.events if e.type == "shake"]
    assert [c.id for c in shake.data["cards"]] == JANUARY
    assert state.seat("A").shakes == 1 and {"jan-ribbon", "jan-junk-1", "jan-junk-2"} <= set(state.seat("A").hand.ids())
    # the hidden form: the four are shown at the deal and the hand goes on
    hidden = replay(["A", "B"], rules, {"layout": LAY, "shown": {"A": JANUARY}}, [])
    assert not hidden.state.is_over


def test_rules_4_3_where_a_chongtong_wins_at_once_four_cards_are_no_shake():
    rules = rules_of(chongtong_points=0)  # chongtong off: the four stay in the hand, shaken three at a time
    move = m("A", "nov-junk-1", "dec-double", shake=["nov-bright", "nov-double", "nov-junk-1", "nov-junk-2"])
    err = illegal([move], "shake-not-allowed", 0, rules=rules)
    assert err.why == "not-three-of-a-month"
    assert run([move], rules=rules_of(chongtong_at_deal="play-on")).state.seat("A").shakes == 1


# A holds a bonus card and three January cards; the stock's top card is the fourth
A_BONUS = ["bonus-2a", "jan-bright", "jan-ribbon", "jan-junk-1", "feb-animal", "feb-ribbon", "mar-bright"]
A_BONUS += ["mar-ribbon", "apr-animal", "apr-ribbon"]


def bonus_deal(rules):
    return full_deal({"A": A_BONUS, "B": B_PLAIN}, LAY, rules, first=["jan-junk-2"])


@pytest.mark.parametrize("when", ["first", "always"])
def test_rules_4_3_a_bonus_cards_replacement_completes_a_chongtong(when):
    rules = rules_of(chongtong_by_bonus=when)
    state = GameState(["A", "B"], rules, bonus_deal(rules))
    bonus_moves = [mv for mv in state.legal_moves() if mv.bonus is not None]
    assert [mv.to_dict() for mv in bonus_moves] == [{"player": "A", "bonus": "bonus-2a", "chongtong": JANUARY}]
    r = replay(["A", "B"], rules, bonus_deal(rules), [{"player": "A", "bonus": "bonus-2a"}])
    assert (r.state.outcome, r.state.winner) == ("chongtong", "A")
    (chongtong,) = events(r, "chongtong")
    assert (chongtong.move_index, chongtong.data["month"], chongtong.data["source"]) == (0, 1, "bonus")
    assert [p.points for p in r.settlement.payments] == [10]
    with pytest.raises(IllegalMoveError) as err:  # the hand ended at the replacement: nothing is played after it
        replay(["A", "B"], rules, bonus_deal(rules), [{"player": "A", "bonus": "bonus-2a", "play": "feb-animal"}])
    assert (err.value.code, err.value.why) == ("game-over", "after-chongtong")


def test_rules_4_3_by_default_a_bonus_cards_replacement_completes_nothing():
    rules = rules_of(chongtong_by_bonus="never")
    state = GameState(["A", "B"], rules, bonus_deal(rules))
    assert not any(mv.chongtong for mv in state.legal_moves())
    r = replay(["A", "B"], rules, bonus_deal(rules), [{"player": "A", "bonus": "bonus-2a", "play": "feb-animal"}])
    assert not r.state.is_over and "jan-junk-2" in seat(r, "A").hand.ids()


NOVEMBER = ["nov-bright", "nov-double", "nov-junk-1", "nov-junk-2"]
A_SECOND_TURN = [m("A", "jul-junk-1", "dec-animal"), m("B", "jul-junk-2", "dec-ribbon")]


@pytest.mark.parametrize(
    ("when", "before", "outcome"),
    [("first", [], "chongtong"), ("always", A_SECOND_TURN, "chongtong"), ("always", [], "chongtong")],
)
def test_rules_4_3_with_hidden_hands_the_player_shows_the_chongtong_completed(when, before, outcome):
    claim = {"player": "A", "bonus": "bonus-2a", "chongtong": NOVEMBER}
    r = run([*before, claim], rules=rules_of(chongtong_by_bonus=when))
    assert (r.state.outcome, r.state.winner) == (outcome, "A")
    assert events(r, "chongtong")[0].data == {"month": 11, "source": "bonus"}


@pytest.mark.parametrize(
    ("knobs", "before", "chongtong", "code", "why"),
    [
        ({}, [], NOVEMBER, "bad-move", "unknown-field"),  # where no turn completes one, no move shows one
        ({"chongtong_by_bonus": "first"}, A_SECOND_TURN, NOVEMBER, "chongtong-not-allowed", "after-first-turn"),
        (
            {"chongtong_by_bonus": "always"},
            [],
            [*NOVEMBER[:3], "dec-bright"],
            "chongtong-not-allowed",
            "not-four-of-a-month",
        ),
        ({"chongtong_by_bonus": "always"}, [], JANUARY, "card-already-seen", None),  # January's bright is on the layout
        (
            {"chongtong_by_bonus": "always", "bonus_from_hand": "extra-flip"},
            [],
            NOVEMBER,
            "chongtong-not-allowed",
            "extra-flip",
        ),
        (
            {"chongtong_by_bonus": "always", "chongtong_at_deal": "play-on"},
            [],
            NOVEMBER,
            "chongtong-not-allowed",
            "off",
        ),
    ],
)
def test_rules_4_3_a_chongtong_shown_where_none_can_be_is_refused(knobs, before, chongtong, code, why):
    claim = {"player": "A", "bonus": "bonus-2a", "chongtong": chongtong}
    err = illegal([*before, claim], code, len(before), rules=rules_of(**knobs))
    if why is not None:
        assert err.why == why


def test_rules_4_3_a_chongtong_shown_only_in_a_bonus_turn():
    move = m("A", "jul-junk-1", "dec-animal", chongtong=NOVEMBER)
    err = illegal([move], "bad-move", 0, rules=rules_of(chongtong_by_bonus="always"))
    assert err.why == "chongtong-without-bonus"


FOUR_ON_LAYOUT = ["oct-animal", "oct-ribbon", "oct-junk-1", "oct-junk-2", "dec-bright", "dec-animal", "feb-junk-1"]
FOUR_ON_LAYOUT += ["mar-junk-1"]


@pytest.mark.parametrize(("preset", "points"), [("korean-2p", 10), ("basic-2p", 5)])
def test_rules_4_2_four_of_a_month_on_the_layout_the_dealer_wins(preset, points):
    r = run([], layout=FOUR_ON_LAYOUT, rules=rules_of(preset, floor_four="dealer-wins"))
    assert (r.state.outcome, r.state.winner) == ("chongtong", "A")
    assert [(p.payer, p.points) for p in r.settlement.payments] == [("B", points)]
    assert events(r, "chongtong")[0].data == {"month": 10, "reason": "floor-four"}


@pytest.mark.parametrize(("ruling", "outcome"), [("nagari", "nagari"), ("redeal", "redeal")])
def test_rules_4_2_four_of_a_month_on_the_layout_otherwise(ruling, outcome):
    r = run([], layout=FOUR_ON_LAYOUT, rules=rules_of(floor_four=ruling))
    assert (r.state.outcome, r.state.winner) == (outcome, None)


@pytest.mark.parametrize("knob", ["floor_four", "multiple_chongtong"])
def test_rules_4_the_dealer_wins_only_where_a_chongtong_is_worth_points(knob):
    with pytest.raises(RulesError) as err:
        resolve({"preset": "korean-2p", knob: "dealer-wins", "chongtong_points": 0})
    assert (err.value.why, err.value.context["knob"]) == ("not-a-choice", knob)
    assert err.value.params["depends_on"] == "chongtong_points" and "dealer-wins" not in err.value.params["choices"]


def test_rules_4_3_two_chongtongs_the_dealer_wins():
    rules = rules_of(multiple_chongtong="dealer-wins")
    r = replay(["A", "B"], rules, full_deal({"A": A_FOUR, "B": B_FOUR}, LAY, rules), [])
    assert (r.state.outcome, r.state.winner, [p.points for p in r.settlement.payments]) == ("chongtong", "A", [10])
    assert events(r, "chongtong")[0].data["players"] == ["A", "B"]


def test_rules_4_3_two_chongtongs_at_a_table_of_three_the_holder_who_plays_first_wins():
    rules = rules_of("korean-3p", multiple_chongtong="dealer-wins")
    hands = {
        "A": ["mar-bright", "mar-ribbon", "apr-animal", "apr-ribbon", "jun-animal", "jun-ribbon", "jul-animal"],
        "B": [*JANUARY, "aug-bright", "aug-animal", "sep-animal"],
        "C": [*NOVEMBER, "dec-bright", "dec-animal", "oct-animal"],
    }
    lay = ["feb-junk-1", "mar-junk-1", "may-junk-1", "jun-junk-1", "jul-junk-1", "oct-junk-1"]
    r = replay(["A", "B", "C"], rules, full_deal(hands, lay, rules), [])
    assert (r.state.outcome, r.state.winner) == ("chongtong", "B")
    assert [(p.payer, p.points) for p in r.settlement.payments] == [("A", 5), ("C", 5)]


# --- RULES.md 5.5 and 8.2: the two-card bomb ------------------------------------------------------------------

TWO_JUNE = [
    "jan-bright",
    "feb-junk-1",
    "mar-ribbon",
    "apr-junk-1",
    "may-animal",
    "jun-junk-1",
    "jun-junk-2",
    "oct-ribbon",
]
TWO_CARD = {"player": "A", "bomb": ["jun-animal", "jun-ribbon"], "draw": "dec-animal"}


@pytest.mark.parametrize("value", ["no-multiplier", "bomb-multiplier"])
def test_rules_5_5_a_two_card_bomb_takes_the_four_steals_as_a_bomb_and_gives_one_flip_turn(value):
    r = run([TWO_CARD], layout=TWO_JUNE, rules=rules_of(two_card_bomb=value))
    (bomb,) = events(r, "bomb")
    assert [c.id for c in bomb.data["played"]] == ["jun-animal", "jun-ribbon"]
    assert {c.id for c in bomb.data["cards"]} == {"jun-animal", "jun-ribbon", "jun-junk-1", "jun-junk-2"}
    a = seat(r, "A")
    assert (a.two_card_bombs, a.bombs, a.flip_turns, a.hand_size) == (1, 0, 1, 8)
    assert layout(r) == {
        "jan-bright",
        "feb-junk-1",
        "mar-ribbon",
        "apr-junk-1",
        "may-animal",
        "oct-ribbon",
        "dec-animal",
    }
    # one flip turn where a bomb of three gives two, none where it gives none
    assert seat(run([TWO_CARD], layout=TWO_JUNE, rules=rules_of("basic-2p", two_card_bomb=value)), "A").flip_turns == 0


def test_rules_5_5_a_two_card_bomb_steals_what_a_bomb_steals():
    """B holds junk when A bombs two cards: one unit for the bomb (korean-2p's steal_bomb)."""
    moves = [m("A", "jul-junk-1", "jul-junk-2"), m("B", "jan-junk-1", "aug-junk-1"), TWO_CARD]
    r = run(moves, layout=TWO_JUNE, rules=rules_of(two_card_bomb="no-multiplier"))
    steals = [e for e in events(r, "steal") if e.move_index == 2]
    assert [(e.data["from"], [c.id for c in e.data["cards"]], e.data["cause"]) for e in steals] == [
        ("B", ["jan-junk-1"], "bomb")
    ]


@pytest.mark.parametrize(
    ("layout_", "bomb", "knobs", "why"),
    [
        (TWO_JUNE, ["jun-animal", "jun-ribbon"], {}, "not-three-of-a-month"),  # as ever where there are none
        (BASE, ["jun-animal", "jun-ribbon"], {"two_card_bomb": "bomb-multiplier"}, "not-two-on-layout"),
        (TWO_JUNE, ["jun-animal", "may-ribbon"], {"two_card_bomb": "bomb-multiplier"}, "not-two-of-a-month"),
    ],
)
def test_rules_5_5_two_card_bombs_refused(layout_, bomb, knobs, why):
    err = illegal(
        [{"player": "A", "bomb": bomb, "draw": "dec-animal"}],
        "bomb-not-allowed",
        0,
        layout=layout_,
        rules=rules_of(**knobs),
    )
    assert err.why == why


WINNER = ["jan-bright", "mar-bright", "aug-bright", "feb-animal", "apr-animal", "aug-animal"]  # 3 + godori 5 = 8
LOSER = ["nov-bright", "may-junk-1", "may-junk-2", "jun-junk-1", "jun-junk-2", "oct-junk-1", "oct-junk-2", "dec-double"]


def bomb_check(value, bombs=0, two_card=1):
    hand = HandResult((PlayerHand("A", WINNER, bombs=bombs, two_card_bombs=two_card), PlayerHand("B", LOSER)), "A")
    s = settle(hand, rules_of(two_card_bomb=value))
    (check,) = [c for c in s.payments[0].checks if c.rule == "bomb"]
    return s.payments[0].points, check


@pytest.mark.parametrize(
    ("value", "bombs", "points", "applied", "factor", "reason"),
    [
        ("no-multiplier", 0, 8, False, 1, "two-card-no-multiplier"),
        ("no-multiplier", 1, 16, True, 2, "bombed"),
        ("bomb-multiplier", 0, 16, True, 2, "bombed"),
        ("bomb-multiplier", 1, 32, True, 4, "bombed"),
    ],
)
def test_rules_8_2_a_two_card_bomb_doubles_only_where_it_counts_as_a_bomb(
    value, bombs, points, applied, factor, reason
):
    paid, check = bomb_check(value, bombs)
    assert (paid, check.applied, check.factor, check.reason) == (points, applied, factor, reason)
    assert check.facts == {"bombs": bombs, "two_card_bombs": 1, "multiplier": 2}


def test_rules_8_2_without_two_card_bombs_the_bomb_check_is_as_it_was():
    s = settle(HandResult((PlayerHand("A", WINNER, bombs=1), PlayerHand("B", LOSER)), "A"), rules_of())
    (check,) = [c for c in s.payments[0].checks if c.rule == "bomb"]
    assert check.facts == {"bombs": 1, "multiplier": 2} and check.factor == 2
    with pytest.raises(HandError) as err:  # a two-card bomb where the rules have none
        bomb_check("off")
    assert (err.value.code, err.value.why) == ("bomb-not-allowed", "two-card-off")


def test_rules_5_5_a_replayed_two_card_bomb_reaches_the_settlement():
    rules = rules_of(two_card_bomb="bomb-multiplier")
    _, result = _find(rules, lambda r: r.state.winner and seat(r, r.state.winner).two_card_bombs)
    winner = seat(result, result.state.winner)
    for payment in result.settlement.payments:
        (check,) = [c for c in payment.checks if c.rule == "bomb"]
        assert check.applied and check.facts["two_card_bombs"] == winner.two_card_bombs
        assert check.factor == 2 ** (winner.bombs + winner.two_card_bombs)


def _find(rules, predicate, limit=3000):
    for seed in range(limit):
        body = simulate(rules, seed).to_dict()
        result = replay_body(body)
        if predicate(result):
            return body, result
    raise AssertionError("no simulated hand shows this")


# --- RULES.md 5.2: a bonus card flipped onto a ppuk -------------------------------------------------------------

PPUK_WITH_BONUS = m("A", "mar-bright", "mar-junk-1", bonus_flipped=["bonus-2a"])


def test_rules_5_2_by_default_a_bonus_card_flipped_in_a_ppuk_goes_to_the_flipper():
    r = run([PPUK_WITH_BONUS], rules=rules_of(bonus_on_ppuk=False))
    assert "bonus-2a" in captured(r, "A") and [e.data["source"] for e in events(r, "bonus")] == ["stock"]
    assert "bonus" not in events(r, "ppuk")[0].data


def test_rules_5_2_a_bonus_card_flipped_onto_a_ppuk_stays_with_its_stack_and_goes_to_who_takes_it():
    rules = rules_of(bonus_on_ppuk=True)
    r = run([PPUK_WITH_BONUS], rules=rules)
    assert "bonus-2a" not in captured(r, "A") and not events(r, "bonus")
    assert {"mar-ribbon", "mar-bright", "mar-junk-1", "bonus-2a"} <= layout(r)
    assert [c.id for c in events(r, "ppuk")[0].data["bonus"]] == ["bonus-2a"]
    assert [p.points for p in r.state.instant_payments] == [7]  # still the first-turn ppuk
    taken = run([PPUK_WITH_BONUS, m("B", "mar-junk-2", "dec-animal")], rules=rules)
    assert {"mar-ribbon", "mar-bright", "mar-junk-1", "mar-junk-2", "bonus-2a"} <= captured(taken, "B")
    (stack,) = events(taken, "stack-capture")
    assert "bonus-2a" in [c.id for c in stack.data["cards"]] and "bonus-2a" not in layout(taken)
    assert not events(taken, "bonus")  # taken with a stack, a bonus card steals nothing


def test_rules_5_2_a_bonus_card_flipped_in_a_turn_without_ppuk_is_kept_as_ever():
    r = run([m("A", "mar-bright", "apr-junk-2", bonus_flipped=["bonus-2a"])], rules=rules_of(bonus_on_ppuk=True))
    assert "bonus-2a" in captured(r, "A") and events(r, "bonus")


# --- RULES.md 5.3 and 6: a chok on an empty layout --------------------------------------------------------------

SWEEP = [
    m("A", "jan-junk-1", "feb-junk-2"),
    m("B", "mar-junk-1", "apr-junk-2"),
    m("A", "may-junk-1", "jun-junk-2"),
    m("B", "aug-junk-1", "oct-junk-1"),  # the layout swept clean: sseul
    m("A", "nov-junk-1", "nov-junk-2"),  # A's turn begins on an empty layout: a chok
]


# B's sseul took A's January junk; B gives it back first, then March's (catalog order, RULES.md 6)
@pytest.mark.parametrize(
    ("value", "sseuls", "b_gives"), [(False, 0, ["jan-junk-1"]), (True, 1, ["jan-junk-1", "mar-junk-1"])]
)
def test_rules_5_3_a_chok_on_a_layout_empty_when_the_turn_began_is_a_sseul_where_the_table_says(value, sseuls, b_gives):
    r = run(SWEEP, rules=rules_of(chok_sseul=value))
    assert [e.move_index for e in events(r, "sseul")] == [3, *([4] * sseuls)]
    assert [e.type for e in events(r) if e.move_index == 4] == [
        "chok",
        *(["sseul"] * sseuls),
        *(["steal"] * (1 + sseuls)),
    ]
    given = [c.id for e in events(r, "steal") if e.move_index == 4 for c in e.data["cards"]]
    assert given == b_gives


# --- RULES.md 6: the steal of a dealt stack, and the cup ---------------------------------------------------------

DEALT_STACK = [
    "jan-bright",
    "feb-junk-1",
    "mar-ribbon",
    "mar-junk-1",
    "mar-junk-2",
    "jun-junk-1",
    "aug-junk-2",
    "oct-ribbon",
]
TAKE_DEALT = [
    m("A", "jul-junk-1", "jul-junk-2"),
    m("B", "jun-junk-2", "aug-junk-1"),
    m("A", "mar-bright", "dec-animal"),
]


@pytest.mark.parametrize(("value", "units"), [(-1, 1), (0, 0), (2, 2)])
def test_rules_6_a_stack_dealt_on_the_layout_steals_steal_dealt_stack(value, units):
    """B holds two junk cards when A takes the March stack dealt on the layout."""
    r = run(TAKE_DEALT, layout=DEALT_STACK, rules=rules_of(steal_dealt_stack=value))
    (stack,) = events(r, "stack-capture")
    assert stack.data["maker"] is None
    steals = [e for e in events(r, "steal") if e.move_index == 2]
    assert sum(len(e.data["cards"]) for e in steals) == units
    assert all(e.data["cause"] == "stack-capture" and e.data["maker"] is None for e in steals)


@pytest.mark.parametrize("dealt", [0, 2])
def test_rules_6_another_players_ppuk_still_steals_steal_stack(dealt):
    moves = [m("A", "mar-bright", "mar-junk-1"), m("B", "jul-junk-1", "jul-junk-2"), m("A", "aug-junk-1", "dec-animal")]
    moves += [m("B", "mar-junk-2", "dec-ribbon")]
    r = run(moves, rules=rules_of(steal_dealt_stack=dealt))
    (stack,) = events(r, "stack-capture")
    steals = [e for e in events(r, "steal") if e.move_index == 3]
    assert stack.data["maker"] == "A" and [e.data["maker"] for e in steals] == ["A"]
    assert [[c.id for c in e.data["cards"]] for e in steals] == [["aug-junk-1"]]


CUP_TO_B = [
    m("A", "sep-ribbon", "jul-junk-1"),
    m("B", "sep-animal", "dec-animal"),  # B takes the cup with the ribbon: B's only cards
    {"player": "B", "sep_animal_as": "junk"},
    m("A", "nov-junk-1", "nov-junk-2"),  # a chok: one unit from B
]


@pytest.mark.parametrize(
    ("value", "declared", "taken"), [(False, True, []), (True, True, ["sep-animal"]), (True, False, [])]
)
def test_rules_6_a_steal_takes_the_cup_only_where_the_table_says_and_its_owner_counts_it_as_double_junk(
    value, declared, taken
):
    moves = CUP_TO_B if declared else [mv for mv in CUP_TO_B if "sep_animal_as" not in mv]
    r = run(moves, rules=rules_of(sep_animal_stealable=value))
    given = [c.id for e in events(r, "steal") for c in e.data["cards"]]
    assert given == taken
    assert ("sep-animal" in captured(r, "A")) == bool(taken)
