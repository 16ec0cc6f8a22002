"""RULES.md 11: the evening's ledger (engine/evening.py), worked out by hand from the rule book.

Every number asserted below is derived in the comments from RULES.md 2 (combination score), 8 (settlement), 9
(nagari) and 11 (the evening), never read off the engine's output. A hand given as its log takes its result
from the log as /v1/replay reads it, and the test checks that premise first.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import (
    CardError,
    DealerBy,
    DealerDraw,
    EveningError,
    EveningHand,
    GoStopError,
    HandError,
    HandResult,
    IllegalMoveError,
    Log,
    PlayerHand,
    checked_rules,
    evening,
    first_dealer,
    replay,
    resolve,
    settle,
    settle_up,
)
from engine.simulate import simulate
from tests.conftest import cards

# RULES.md 2: three brights without the rain bright (3) and godori (5): 8 points, and only 3 animals
EIGHT = ("jan-bright", "mar-bright", "aug-bright", "feb-animal", "apr-animal", "aug-animal")
JUNK_8 = (
    "apr-junk-1",
    "apr-junk-2",
    "may-junk-1",
    "may-junk-2",
    "jun-junk-1",
    "jun-junk-2",
    "jul-junk-1",
    "jul-junk-2",
)
# A loser with a bright is not gwangbak; EIGHT scores no junk points, so nobody is pibak (RULES.md 8.2)
WITH_BRIGHT = ("nov-bright", *JUNK_8)
NO_BRIGHT = JUNK_8


def stop(winner: str, **piles: tuple[str, ...]) -> HandResult:
    return HandResult(tuple(PlayerHand(pid, cards(*pile)) for pid, pile in piles.items()), winner)


def nagari(*players: str) -> HandResult:
    return HandResult(tuple(PlayerHand(pid) for pid in players), None, "nagari")


def carries(ev) -> list[tuple[int, int, int, int]]:
    return [(h.carry.nagari_streak, h.carry.nagari_factor, h.carry.pushes, h.carry.push_factor) for h in ev.hands]


def limit(paid, rule):
    (found,) = [lim for lim in paid.limits if lim.rule == rule]
    return found


def transfers(ev) -> list[tuple[str, str, int]]:
    return [(t.payer, t.payee, t.amount) for t in ev.transfers]


# --- an evening of two ------------------------------------------------------------------------------------------

K2_EVENING = resolve({"preset": "korean-2p", "push": 2, "all_in": True})


def two_player_evening(*more):
    """RULES.md 11: A and B, 100 a point, A brings 3,000 and B 2,000; the first dealer is drawn at night."""
    draw = DealerDraw(
        "night",
        [
            {"A": "mar-junk-1", "B": "mar-ribbon"},  # both March: a tie, they draw again (11.2)
            {"A": "nov-bright", "B": "feb-animal"},  # November against February: at night the lower month deals
        ],
    )
    hands = [
        EveningHand(stop("A", A=EIGHT, B=WITH_BRIGHT), push=True),
        nagari("A", "B"),
        stop("B", B=EIGHT, A=NO_BRIGHT),
        *more,
    ]
    return evening(K2_EVENING, ["A", "B"], hands, balances={"A": 3000, "B": 2000}, draw=draw, stake=100)


def test_rules_11_two_players_the_first_dealer_is_drawn_at_night_and_the_winner_deals_after():
    ev = two_player_evening()
    # 11.2: the tie in March is drawn again; then February (2) is lower than November (11): B deals first
    assert (ev.first_dealer.dealer, ev.first_dealer.by, ev.first_dealer.rounds) == ("B", DealerBy.DRAW, 2)
    assert ev.first_dealer.months == {"A": 11, "B": 2}
    # hand 0 is B's deal, A wins it (and pushes): A deals hand 1; it is a nagari, so A deals hand 2 as well;
    # B wins hand 2, so B deals the next one
    assert [h.dealer for h in ev.hands] == ["B", "A", "A"]
    assert ev.next.dealer == "B"


def test_rules_11_two_players_a_push_a_nagari_and_an_all_in():
    ev = two_player_evening()
    first, drawn, last = ev.hands
    # Hand 0: A stops at 8 (RULES.md 2); B holds a bright and A scores no junk: no factor, B owes 8 points,
    # 800 at 100 a point. A pushes (11.3): nothing is paid, and the next hand pays x2.
    (row,) = first.paid
    assert (row.payer, row.payee, row.owed, row.amount) == ("B", "A", 800, 0)
    push = limit(row, "push")
    assert push.applied and push.facts == {"owed": 800, "pushes": 1, "next_factor": 2, "cap": 2}
    assert first.totals == {"A": 0, "B": 0} and first.balances == {"A": 3000, "B": 2000}
    # Hand 1: a nagari (RULES.md 9). Nobody pays; the push waits through it (11.3).
    assert drawn.paid == () and drawn.settlement.outcome == "nagari"
    # The carry of each hand: (nagari streak, its factor, pushes waiting, their factor)
    assert carries(ev) == [(0, 1, 0, 1), (0, 1, 1, 2), (1, 2, 1, 2)]
    # Hand 2: B stops at 8 and A holds no bright: gwangbak x2 (8.2); one nagari just before: x2; one push
    # waiting: x2. A owes 8 x 2 x 2 x 2 = 64 points, 6,400; A holds 3,000: all-in, A pays 3,000 and 3,400 is
    # forgiven (11.4).
    (payment,) = last.settlement.payments
    assert payment.points == 64 and payment.amount == 6400
    assert {c.rule: c.factor for c in payment.factors} == {"gwangbak": 2, "nagari": 2, "push": 2}
    (row,) = last.paid
    assert (row.payer, row.payee, row.owed, row.amount) == ("A", "B", 6400, 3000)
    all_in = limit(row, "all-in")
    assert all_in.applied and all_in.facts == {"owed": 6400, "balance": 3000, "paid": 3000, "forgiven": 3400}
    assert last.totals == {"A": -3000, "B": 3000} and last.balances == {"A": 0, "B": 5000}
    # The push was used up by a hand won and not pushed, and the streak ended with it (11.3)
    assert (ev.next.carry.nagari_streak, ev.next.carry.pushes, ev.next.carry.push_factor) == (0, 0, 1)
    # 11.5: A lost 3,000 to B: one transfer squares it
    assert ev.totals == {"A": -3000, "B": 3000} and ev.balances == {"A": 0, "B": 5000}
    assert transfers(ev) == [("A", "B", 3000)]


def test_rules_11_someone_with_nothing_left_cannot_play_under_all_in():
    with pytest.raises(EveningError) as err:
        two_player_evening(stop("A", A=EIGHT, B=WITH_BRIGHT))  # A holds 0 after hand 2
    assert (err.value.code, err.value.context) == ("out-of-money", {"hand_index": 3, "player": "A"})
    assert err.value.params["balance"] == 0


# --- an evening of three ----------------------------------------------------------------------------------------

K3_EVENING = resolve({"preset": "korean-3p", "push": 1, "all_in": True, "limited_liability": True})
# three piles that never meet: the winner's, a loser with a bright, a loser without one
LOSER_BRIGHT = ("nov-bright", "may-junk-1", "may-junk-2", "jun-junk-1", "jun-junk-2", "jul-junk-1", "jul-junk-2")
LOSER_BARE = ("oct-junk-1", "oct-junk-2", "sep-junk-1")
LOSER_RAIN = ("dec-bright", "oct-junk-1")


def three_player_evening():
    """RULES.md 11: A, B and C at 10 a point, bringing 300, 400 and 150; C is named to deal first."""
    hands = [
        EveningHand(stop("B", B=EIGHT, A=LOSER_BRIGHT, C=LOSER_RAIN), push=True),
        nagari("A", "B", "C"),
        stop("A", A=EIGHT, B=LOSER_BRIGHT, C=LOSER_BARE),
        stop("C", C=EIGHT, A=LOSER_BRIGHT, B=LOSER_BARE),
    ]
    return evening(
        K3_EVENING, ["A", "B", "C"], hands, balances={"A": 300, "B": 400, "C": 150}, first_dealer="C", stake=10
    )


def test_rules_11_three_players_dealers_and_carry():
    ev = three_player_evening()
    assert (ev.first_dealer.dealer, ev.first_dealer.by) == ("C", DealerBy.GIVEN)
    # C deals hand 0 and B wins it (pushed: the winner still deals); hand 1 is a nagari, B deals again; A wins
    # hand 2 and deals hand 3, which C wins: C deals next
    assert [h.dealer for h in ev.hands] == ["C", "B", "B", "A"]
    assert ev.next.dealer == "C"
    # hand 1 starts under B's push; hand 2 under the push and one nagari; hand 3 under nothing (11.3)
    assert carries(ev) == [(0, 1, 0, 1), (0, 1, 1, 2), (1, 2, 1, 2), (0, 1, 0, 1)]
    assert [h.pushed for h in ev.hands] == [True, False, False, False]


def test_rules_11_three_players_a_push_then_all_in_and_limited_liability_share_the_result():
    ev = three_player_evening()
    pushed, _, capped, small = ev.hands
    # Hand 0: B stops at 8; A and C each hold a bright, so each owes 8 points, 80; B pushes: nothing is paid
    assert [(r.payer, r.owed, r.amount, r.limits[0].rule) for r in pushed.paid] == [
        ("A", 80, 0, "push"),
        ("C", 80, 0, "push"),
    ]
    # Hand 2: A stops at 8, with one nagari (x2) and one push (x2) before it. B has a bright: 8 x 2 x 2 = 32
    # points, 320. C has none: gwangbak, 8 x 2 x 2 x 2 = 64 points, 640.
    assert [p.amount for p in capped.settlement.payments] == [320, 640]
    b, c = capped.paid
    # All-in first (11.4): B holds 400 and pays all 320; C holds 150 and can pay only that (490 forgiven).
    assert not limit(b, "all-in").applied
    assert limit(c, "all-in").facts == {"owed": 640, "balance": 150, "paid": 150, "forgiven": 490}
    # Then limited liability: A began the hand with 300, and B and C now owe 320 + 150 = 470. A takes 300,
    # shared in proportion: B 300 x 320 / 470 = 204.25..., C 300 x 150 / 470 = 95.74...; rounded down that is
    # 204 + 95 = 299, and the unit left goes to the larger remainder, C's (0.74 against 0.25): B 204, C 96.
    assert (b.amount, c.amount) == (204, 96)
    assert limit(b, "limited-liability").facts == {
        "owed": 320,
        "limit": 300,
        "received": 0,
        "owed_in_all": 470,
        "paid": 204,
        "waived": 116,
    }
    assert limit(c, "limited-liability").facts["waived"] == 150 - 96
    assert capped.totals == {"A": 300, "B": -204, "C": -96}
    assert capped.balances == {"A": 600, "B": 196, "C": 54}
    # Hand 3: C stops at 8; A has a bright (8 points, 80), B none (gwangbak: 16 points, 160). Both can pay, but
    # C began the hand with 54: A pays 54 x 80 / 240 = 18 and B 54 x 160 / 240 = 36, exactly.
    assert [(r.payer, r.owed, r.amount) for r in small.paid] == [("A", 80, 18), ("B", 160, 36)]
    assert small.totals == {"A": 282, "B": -240, "C": -42}
    assert small.balances == {"A": 582, "B": 160, "C": 108}


def test_rules_11_three_players_settle_up_in_the_fewest_transfers():
    ev = three_player_evening()
    # A is up 282, B down 240, C down 42: no two of them cancel out, so it takes two transfers (11.5)
    assert transfers(ev) == [("B", "A", 240), ("C", "A", 42)]
    assert sum(ev.balances.values()) == 300 + 400 + 150  # money only changes hands


# --- the carry is the ledger's, and a hand of an evening prices as one hand does ---------------------------------


def test_rules_11_a_hand_of_an_evening_is_priced_as_settle_prices_it_with_that_carry():
    """The same hand settled alone, with the streak and the push written in, gives the same payments."""
    ev = three_player_evening()
    players = stop("A", A=EIGHT, B=LOSER_BRIGHT, C=LOSER_BARE).players
    alone = settle(HandResult(players, "A", nagari_streak=1, stake=10, pushes=1), K3_EVENING)
    assert alone == ev.hands[2].settlement


def test_rules_11_the_push_is_checked_only_in_an_evening_whose_rules_allow_it():
    hand = stop("A", A=EIGHT, B=WITH_BRIGHT)
    # /v1/settle prices a hand outside any evening: its checks are those of RULES.md 8 alone, push or not
    (pay,) = settle(hand, K2_EVENING).payments
    assert [c.rule for c in pay.checks] == list(checked_rules(K2_EVENING)) and "push" not in checked_rules(K2_EVENING)
    # in an evening that allows pushes every payment has a push check, applied or not
    (ledger,) = evening(K2_EVENING, ["A", "B"], [hand]).hands
    (pay,) = ledger.settlement.payments
    assert [(c.rule, c.applied, c.factor, c.reason) for c in pay.checks if c.rule == "push"] == [
        ("push", False, 1, "no-push")
    ]
    # and none where the rules allow no push
    (ledger,) = evening(resolve("korean-2p"), ["A", "B"], [hand]).hands
    assert "push" not in [c.rule for c in ledger.settlement.payments[0].checks]


def test_rules_11_a_redeal_changes_nothing():
    ev = evening(
        K2_EVENING,
        ["A", "B"],
        [
            nagari("A", "B"),
            HandResult((PlayerHand("A"), PlayerHand("B")), None, "redeal"),
            stop("B", B=EIGHT, A=WITH_BRIGHT),
        ],
    )
    # the redeal is dealt by A again, under the nagari before it, and passes it on to the hand after
    assert [h.dealer for h in ev.hands] == ["A", "A", "A"]
    assert carries(ev)[1:] == [(1, 2, 0, 1), (1, 2, 0, 1)]
    assert ev.hands[2].settlement.payments[0].amount == 8 * 2


def test_rules_11_without_balances_only_totals_are_kept():
    ev = evening(resolve({"preset": "korean-2p", "all_in": True}), ["A", "B"], [stop("A", A=EIGHT, B=NO_BRIGHT)])
    # gwangbak: 16 points at 1 a point; no balance, so no cap, and the all-in check says why
    (row,) = ev.hands[0].paid
    assert row.amount == 16 and limit(row, "all-in").reason == "no-balances"
    assert ev.balances is None and ev.hands[0].balances is None and ev.totals == {"A": 16, "B": -16}


def test_rules_11_no_hand_yet_the_first_dealer_deals():
    ev = evening(resolve("korean-3p"), ["A", "B", "C", "D"], [], first_dealer="D")
    assert (ev.next.dealer, ev.hands, ev.transfers) == ("D", (), ())
    # nobody named, nothing drawn: the first person listed deals (11.2)
    assert first_dealer(["C", "A"]).dealer == "C" and first_dealer(["C", "A"]).by == DealerBy.LISTED_FIRST


def test_rules_11_by_day_the_highest_month_deals():
    draw = DealerDraw("day", [{"A": "jan-bright", "B": "dec-double", "C": "jul-ribbon"}])
    assert first_dealer(["A", "B", "C"], draw=draw).dealer == "B"  # December is the highest month
    night = DealerDraw("night", draw.rounds)
    assert first_dealer(["A", "B", "C"], draw=night).dealer == "A"  # January the lowest


def test_rules_11_with_five_people_a_hand_is_played_by_some_of_them():
    # korean-3p: three of the five play each hand, the dealer among them (11.2)
    hands = [stop("B", A=LOSER_BRIGHT, B=EIGHT, C=LOSER_RAIN), stop("A", B=LOSER_BRIGHT, A=EIGHT, E=LOSER_BARE)]
    ev = evening(resolve("korean-3p"), ["A", "B", "C", "D", "E"], hands)
    assert [h.dealer for h in ev.hands] == ["A", "B"] and ev.next.dealer == "A"
    # hand 0: B takes 8 from A and 8 from C; hand 1: A takes 8 from B and 16 from E (gwangbak)
    assert ev.totals == {"A": 16, "B": 8, "C": -8, "D": 0, "E": -16}
    # E owes 16 and C 8; A is up 16, B 8: E pays A, C pays B (two pairs that cancel out, 11.5)
    assert transfers(ev) == [("C", "B", 8), ("E", "A", 16)]


# --- hands given as their logs ------------------------------------------------------------------------------------


def swapped(log: dict) -> dict:
    """The log with A and B trading places (B listed first, so B deals)."""
    other = {"A": "B", "B": "A"}
    return {
        "players": [other[p] for p in log["players"]],
        "deal": {**log["deal"], "hands": {other[p]: cs for p, cs in log["deal"]["hands"].items()}},
        "moves": [{**m, "player": other[m["player"]]} for m in log["moves"]],
    }


def as_log(body: dict) -> Log:
    return Log.from_dict(body)


def test_rules_11_a_logged_hand_is_priced_with_the_carry_and_its_instant_payments_are_paid():
    body = simulate("korean-2p", seed=11).to_dict()  # B wins; A paid B a first-turn ppuk on the spot (RULES.md 8.6)
    rules = resolve("korean-2p")
    ev = evening(rules, ["A", "B"], [nagari("A", "B"), as_log(body)], stake=10)
    alone = replay(body["players"], rules, body["deal"], body["moves"], nagari_streak=1, stake=10)
    logged = ev.hands[1]
    assert logged.settlement == alone.settlement  # as /v1/replay prices it after one nagari
    assert logged.instant_payments == tuple(alone.state.instant_payments)
    (ppuk,) = alone.state.instant_payments
    owed = [(r.payer, r.payee, r.owed, r.source) for r in logged.paid]
    assert owed == [
        (ppuk.payer, ppuk.payee, ppuk.points * 10, "first-ppuk"),  # paid first, on the spot (11.4)
        ("A", "B", alone.settlement.payments[0].amount, "settlement"),
    ]
    assert ev.totals["B"] == ppuk.points * 10 + alone.settlement.payments[0].amount
    # B won, so B deals next: a log of the next hand lists B first
    again = evening(rules, ["A", "B"], [as_log(body), as_log(swapped(simulate("korean-2p", seed=2).to_dict()))])
    assert [h.dealer for h in again.hands] == ["A", "B"]


def test_rules_11_instant_payments_are_paid_first_one_by_one_then_the_result_at_once():
    body = simulate("korean-3p", seed=7).to_dict()
    rules = resolve({"preset": "korean-3p", "all_in": True, "limited_liability": True})
    alone = replay(body["players"], rules, body["deal"], body["moves"], stake=10)
    # the log, as /v1/replay reads it: A and C each pay B a first-turn ppuk (3 points, 30) on the spot
    # (RULES.md 8.6), then A stops and B and C owe 8 points each (80)
    assert [(p.payer, p.payee, p.points) for p in alone.state.instant_payments] == [("A", "B", 3), ("C", "B", 3)]
    assert [(p.payer, p.amount) for p in alone.settlement.payments] == [("B", 80), ("C", 80)]
    ev = evening(rules, ["A", "B", "C"], [as_log(body)], balances={"A": 100, "B": 40, "C": 60}, stake=10)
    ppuk_a, ppuk_c, pay_b, pay_c = ev.hands[0].paid
    # B began the hand with 40 (11.4): A's 30 fits; of C's 30 only 10 is left for B to take (20 waived)
    assert (ppuk_a.amount, ppuk_c.amount) == (30, 10)
    assert limit(ppuk_c, "limited-liability").facts == {
        "owed": 30,
        "limit": 40,
        "received": 30,
        "paid": 10,
        "waived": 20,
    }
    # then the result: B holds 40 + 40 = 80 and pays all 80; C holds 60 - 10 = 50: all-in, 50 (30 forgiven).
    # A began with 100 and is owed 80 + 50 = 130: B 100 x 80 / 130 = 61.5..., C 100 x 50 / 130 = 38.4...,
    # 61 + 38 = 99, and the unit left goes to B's larger remainder: B 62, C 38.
    assert not limit(pay_b, "all-in").applied and limit(pay_c, "all-in").facts["forgiven"] == 30
    assert (pay_b.amount, pay_c.amount) == (62, 38)
    # A: -30 + 100 = 70; B: 30 + 10 - 62 = -22; C: -10 - 38 = -48
    assert ev.totals == {"A": 70, "B": -22, "C": -48}
    assert ev.balances == {"A": 170, "B": 18, "C": 12}


def test_rules_11_an_instant_win_is_doubled_by_a_push_too():
    chongtong = HandResult((PlayerHand("A"), PlayerHand("B")), "B", "chongtong")
    ev = evening(K2_EVENING, ["A", "B"], [EveningHand(PAIR, push=True), chongtong])
    # RULES.md 8.5: korean-2p's chongtong is worth 10 points; one push waiting doubles it (11.3)
    (payment,) = ev.hands[1].settlement.payments
    assert payment.points == 20 and [c.rule for c in payment.factors] == ["push"]
    assert ev.totals == {"A": -20, "B": 20} and ev.next.dealer == "B"


def test_rules_11_a_log_that_lists_another_dealer_first_is_out_of_order():
    body = simulate("korean-2p", seed=11).to_dict()
    with pytest.raises(EveningError) as err:
        evening(resolve("korean-2p"), ["A", "B"], [as_log(body), as_log(simulate("korean-2p", seed=2).to_dict())])
    assert (err.value.code, err.value.context) == ("hand-out-of-order", {"hand_index": 1, "player": "A"})
    assert err.value.params["dealer"] == "B"


# --- refusals: each with its stable code, naming the hand by its index -------------------------------------------

K2 = resolve("korean-2p")
PAIR = stop("A", A=EIGHT, B=WITH_BRIGHT)


def refusal(call) -> GoStopError:
    with pytest.raises(GoStopError) as err:
        call()
    return err.value


@pytest.mark.parametrize(
    ("people", "rules", "why"),
    [
        (["A"], K2, "too-few"),
        (["A", "B", "C", "D", "E", "F"], K2, "too-many"),
        (["A", "B"], resolve("korean-3p"), "fewer-than-players"),
    ],
)
def test_rules_11_two_to_five_people_and_enough_for_a_hand(people, rules, why):
    err = refusal(lambda: evening(rules, people, []))
    assert (type(err), err.code, err.why) == (EveningError, "people-count", why)


@pytest.mark.parametrize(
    ("kwargs", "code", "context"),
    [
        ({"balances": {"A": 100, "B": -1}}, "negative-balance", {"player": "B"}),
        ({"balances": {"A": 100}}, "balance-missing", {"player": "B"}),
        ({"balances": {"A": 1, "B": 1, "Z": 1}}, "unknown-person", {"player": "Z"}),
        ({"first_dealer": "Z"}, "dealer-not-at-table", {"player": "Z"}),
        (
            {"first_dealer": "A", "draw": DealerDraw("day", [{"A": "jan-bright", "B": "feb-ribbon"}])},
            "first-dealer",
            {"player": "A"},
        ),
        ({"stake": -1}, "negative-count", {}),
    ],
)
def test_rules_11_what_an_evening_cannot_start_from(kwargs, code, context):
    err = refusal(lambda: evening(K2, ["A", "B"], [PAIR], **kwargs))
    assert (type(err), err.code, err.context) == (EveningError, code, context)


def test_rules_11_a_person_twice_at_the_table():
    err = refusal(lambda: evening(K2, ["A", "B", "A"], []))
    assert (err.code, err.context) == ("duplicate-person", {"player": "A"})


@pytest.mark.parametrize(
    ("rounds", "why"),
    [
        ([], "no-rounds"),
        ([{"A": "jan-bright"}], "wrong-people"),  # B did not draw
        ([{"A": "bonus-3", "B": "feb-ribbon"}], "bonus-card"),  # a bonus card has no month: drawn again
        ([{"A": "jan-junk-1", "B": "jan-junk-1"}], "same-card"),
        ([{"A": "jan-junk-1", "B": "jan-junk-2"}], "tie"),  # the tie was not drawn again
        ([{"A": "jan-junk-1", "B": "jan-junk-2"}, {"A": "mar-junk-1", "B": "mar-ribbon"}], "tie"),
        ([{"A": "jan-junk-1", "B": "feb-junk-2"}, {"A": "mar-junk-1", "B": "apr-ribbon"}], "round-after-decided"),
        (
            [{"A": "jan-junk-1", "B": "jan-junk-2", "C": "feb-junk-1"}, {"A": "mar-junk-1", "C": "jul-junk-1"}],
            "wrong-people",
        ),
    ],
)
def test_rules_11_a_draw_that_cannot_be(rounds, why):
    people = ["A", "B", "C"] if any("C" in r for r in rounds) else ["A", "B"]
    err = refusal(lambda: first_dealer(people, draw=DealerDraw("night", rounds)))
    assert (type(err), err.code, err.why) == (EveningError, "bad-draw", why)


def test_rules_11_a_draw_names_a_card_that_is_no_card():
    err = refusal(lambda: first_dealer(["A", "B"], draw=DealerDraw("night", [{"A": "jan-brite", "B": "feb-ribbon"}])))
    assert (type(err), err.code) == (CardError, "unknown-card")
    err = refusal(lambda: first_dealer(["A", "B"], draw=DealerDraw("noon", [{"A": "jan-bright", "B": "feb-ribbon"}])))
    assert (err.code, err.why) == ("bad-draw", "time")


def test_rules_11_a_hand_whose_players_are_not_at_the_table():
    err = refusal(lambda: evening(K2, ["A", "B"], [PAIR, stop("A", A=EIGHT, Z=WITH_BRIGHT)]))
    assert (err.code, err.context) == ("player-not-at-table", {"hand_index": 1, "player": "Z"})


def test_rules_11_a_hand_without_its_dealer():
    # four people at a two-player table: A deals the first hand, so a first hand of C and D cannot be
    err = refusal(lambda: evening(K2, ["A", "B", "C", "D"], [stop("C", C=EIGHT, D=WITH_BRIGHT)]))
    assert (err.code, err.context) == ("dealer-not-playing", {"hand_index": 0, "player": "A"})


@pytest.mark.parametrize(
    ("hand", "code", "why"),
    [
        (HandResult(PAIR.players, "A", nagari_streak=1), "carry-stated", "nagari-streak"),
        (HandResult(PAIR.players, "A", pushes=0), "carry-stated", "pushes"),
        (HandResult(PAIR.players, "A", stake=5), "stake-stated", "stake-stated"),
    ],
)
def test_rules_11_a_hand_that_states_what_the_evening_works_out(hand, code, why):
    err = refusal(lambda: evening(K2_EVENING, ["A", "B"], [PAIR, hand], stake=100))
    assert (err.code, err.why, err.context) == (code, why, {"hand_index": 1})


def test_rules_11_a_hand_may_state_the_evenings_own_stake():
    ev = evening(K2, ["A", "B"], [HandResult(PAIR.players, "A", stake=100)], stake=100)
    assert ev.totals["A"] == 800


def test_rules_11_a_log_that_has_not_ended():
    body = simulate("korean-2p", seed=11).to_dict()
    err = refusal(lambda: evening(K2, ["A", "B"], [Log.from_dict({**body, "moves": body["moves"][:5]})]))
    assert (err.code, err.context) == ("hand-not-finished", {"hand_index": 0})


@pytest.mark.parametrize(
    ("rules", "hands", "index", "why"),
    [
        (K2, [EveningHand(PAIR, push=True)], 0, "off"),
        (K2_EVENING, [EveningHand(nagari("A", "B"), push=True)], 0, "no-winner"),
        # the cap is two pushes in a row: a third is refused, even with a nagari between
        (
            K2_EVENING,
            [EveningHand(PAIR, push=True)] * 2 + [nagari("A", "B"), EveningHand(PAIR, push=True)],
            3,
            "over-cap",
        ),
    ],
)
def test_rules_11_a_push_the_table_does_not_allow(rules, hands, index, why):
    err = refusal(lambda: evening(rules, ["A", "B"], hands))
    assert (err.code, err.why, err.context) == ("push-not-allowed", why, {"hand_index": index})


@pytest.mark.parametrize(("pushes", "code"), [(3, "push-not-allowed"), (-1, "negative-count")])
def test_rules_11_settle_refuses_pushes_the_rules_cannot_have(pushes, code):
    err = refusal(lambda: settle(HandResult(PAIR.players, "A", pushes=pushes), K2_EVENING))  # at most 2 in a row
    assert (type(err), err.code) == (HandError, code)


def test_rules_11_two_pushes_in_a_row_make_the_next_hand_pay_four_times():
    ev = evening(K2_EVENING, ["A", "B"], [EveningHand(PAIR, push=True)] * 2 + [PAIR])
    assert carries(ev)[2] == (0, 1, 2, 4)
    assert ev.totals == {"A": 8 * 4, "B": -8 * 4}  # the two pushed hands paid nothing


def test_rules_11_a_refusal_inside_a_hand_names_the_hand_too():
    bad_card = HandResult((PlayerHand("A", cards(*EIGHT)), PlayerHand("B", ("jan-brite",))), "A")
    err = refusal(lambda: evening(K2, ["A", "B"], [PAIR, bad_card]))
    assert (type(err), err.code, err.context) == (
        CardError,
        "unknown-card",
        {"hand_index": 1, "player": "B", "card": "jan-brite"},
    )
    body = simulate("korean-2p", seed=11).to_dict()
    moves = [dict(body["moves"][0], play="dec-bright"), *body["moves"][1:]]  # not in A's hand
    err = refusal(lambda: evening(K2, ["A", "B"], [{**body, "moves": moves}]))
    assert isinstance(err, IllegalMoveError) and err.context["hand_index"] == 0 and err.context["move_index"] == 0


# --- the settle-up ----------------------------------------------------------------------------------------------


def fewest_transfers(values: list[int]) -> int:
    """By brute force over every way to split the people: a settle-up links the people it touches into groups
    whose totals cancel out, and a group of n needs at least n - 1 transfers; so the fewest is the number of
    people owed or owing less the most such groups any split gives."""
    people = [i for i, v in enumerate(values) if v]

    def splits(rest):
        if not rest:
            yield []
            return
        first, others = rest[0], rest[1:]
        for k in range(len(others) + 1):
            for mates in itertools.combinations(others, k):
                left = [p for p in others if p not in mates]
                for split in splits(left):
                    yield [[first, *mates], *split]

    best = max(sum(1 for g in split if sum(values[i] for i in g) == 0) for split in splits(people)) if people else 0
    return len(people) - best


@st.composite
def totals(draw):
    n = draw(st.integers(2, 5))
    values = draw(st.lists(st.integers(-50, 50), min_size=n - 1, max_size=n - 1))
    values.append(-sum(values))
    return {name: v for name, v in zip("ABCDE", values, strict=False)}


@settings(max_examples=300, deadline=None)
@given(totals())
def test_rules_11_the_settle_up_squares_the_totals_from_losers_to_winners_in_the_fewest_transfers(totals):
    moves = settle_up(totals)
    balance = dict.fromkeys(totals, 0)
    for t in moves:
        assert t.amount > 0 and totals[t.payer] < 0 < totals[t.payee]
        balance[t.payer] -= t.amount
        balance[t.payee] += t.amount
    assert balance == totals
    assert len(moves) == fewest_transfers(list(totals.values()))


def test_rules_11_the_settle_up_finds_the_groups_that_cancel_out():
    # The largest debt to the largest claim takes four transfers here: C pays A 3, D pays B 2, then E owes 2
    # to A's 1 and B's 1. But {B, C} and {A, D, E} cancel out: three transfers do.
    totals = {"A": 4, "B": 3, "C": -3, "D": -2, "E": -2}
    assert fewest_transfers(list(totals.values())) == 3
    assert [(t.payer, t.payee, t.amount) for t in settle_up(totals)] == [("C", "B", 3), ("D", "A", 2), ("E", "A", 2)]


def test_rules_11_the_settle_up_refuses_totals_that_do_not_square():
    assert refusal(lambda: settle_up({"A": 5, "B": -4})).code == "unbalanced-totals"


# --- a property of whole evenings --------------------------------------------------------------------------------

THREE_PILES = (EIGHT, LOSER_BRIGHT, LOSER_BARE)
STAKE = 10


@st.composite
def evenings(draw):
    """A random evening of two or three people (korean-2p or -3p with every rule of the evening in play), its
    hands built one by one with the ledger's own next dealer and balances, so that each is a hand it accepts."""
    players = draw(st.sampled_from([2, 3]))
    people = ["A", "B", "C", "D"][: players + draw(st.integers(0, 1))]
    rules = resolve(
        {
            "preset": f"korean-{players}p",
            "all_in": draw(st.booleans()),
            "limited_liability": draw(st.booleans()),
            "push": draw(st.integers(0, 2)),
        }
    )
    balances = draw(st.none() | st.fixed_dictionaries({p: st.integers(1, 400) for p in people}))
    hands = []
    for _ in range(draw(st.integers(0, 7))):
        ev = evening(rules, people, hands, balances=balances, stake=STAKE)
        dealer = ev.next.dealer
        ready = [p for p in people if p != dealer and (ev.balances is None or not rules.all_in or ev.balances[p] > 0)]
        if (ev.balances is not None and rules.all_in and ev.balances[dealer] <= 0) or len(ready) < players - 1:
            break
        seated = [dealer, *draw(st.permutations(ready))[: players - 1]]
        if draw(st.integers(0, 4)) == 0:
            hands.append(nagari(*seated))
            continue
        winner = draw(st.sampled_from(seated))
        order = [winner, *(p for p in seated if p != winner)]
        piles = [draw(st.sampled_from(THREE_PILES[1:])) for _ in order[1:]]
        if players == 3:
            piles = list(THREE_PILES[1:]) if draw(st.booleans()) else list(reversed(THREE_PILES[1:]))
        hand = HandResult(
            tuple(PlayerHand(p, cards(*pile)) for p, pile in zip(order, [EIGHT, *piles], strict=True)), winner
        )
        push = rules.push > ev.next.carry.pushes and draw(st.booleans())
        hands.append(EveningHand(hand, push=push))
    return rules, people, balances, hands


@settings(max_examples=60, deadline=None)
@given(evenings())
def test_rules_11_an_evening_only_moves_money_and_keeps_every_limit(case):
    rules, people, balances, hands = case
    ev = evening(rules, people, hands, balances=balances, stake=STAKE)
    assert sum(ev.totals.values()) == 0
    running = dict.fromkeys(people, 0)
    for ledger in ev.hands:
        held = {p: balances[p] + running[p] for p in people} if balances else None  # when the hand began
        received = dict.fromkeys(people, 0)
        for row in ledger.paid:
            assert 0 <= row.amount <= row.owed
            running[row.payer] -= row.amount
            running[row.payee] += row.amount
            received[row.payee] += row.amount
            if ledger.pushed and row.source == "settlement":
                assert row.amount == 0  # a pushed hand's result is not paid (11.3)
        assert ledger.totals == running  # the totals are the payments made, and nothing else
        if balances is not None:
            assert ledger.balances == {p: balances[p] + running[p] for p in people}
            if rules.all_in:
                assert min(ledger.balances.values()) >= 0  # nobody pays more than they hold (11.4)
            if rules.limited_liability:
                assert all(received[p] <= max(held[p], 0) for p in people)  # nor takes more than they held
    moved = dict.fromkeys(people, 0)
    for t in ev.transfers:
        moved[t.payer] -= t.amount
        moved[t.payee] += t.amount
    assert moved == ev.totals  # the settle-up squares the evening


def test_rules_11_the_fourths_sale_is_paid_in_the_ledger_for_a_hand_given_as_its_result():
    """RULES.md 4.5 and 11.1: the fourth, who sat out, sells the brights at the deal, and the ledger pays it
    whether the hand comes as a log or as its result. D shows the December bright alone: one bright is 1, the
    hand holds no combination and no three of a month, so each player but the dealer A pays D 1 point, 100 at
    the evening's stake. A wins with EIGHT (8 points, RULES.md 2, brights among them, no junk) against B, who has a
    bright (8 points, 800), and C with four junk and no bright: gwangbak x2, 16 points, 1,600 (RULES.md 8)."""
    from engine import SitOut

    rules = resolve({"preset": "korean-3p", "gwang_palgi": True})
    hand = HandResult(
        (
            PlayerHand("A", cards(*EIGHT)),
            PlayerHand("B", cards(*WITH_BRIGHT)),
            PlayerHand("C", cards("sep-junk-1", "sep-junk-2", "oct-junk-1", "oct-junk-2")),
        ),
        "A",
        sit_out=SitOut("D", 4, cards("dec-bright")),
    )
    (ledger,) = evening(rules, ["A", "B", "C", "D"], [hand], first_dealer="A", stake=100).hands
    sold = [(p.payer, p.payee, p.points, p.reason) for p in ledger.instant_payments]
    assert sold == [("B", "D", 1, "gwang-sale"), ("C", "D", 1, "gwang-sale")]
    assert ledger.totals == {"A": 2400, "B": -900, "C": -1700, "D": 200}
