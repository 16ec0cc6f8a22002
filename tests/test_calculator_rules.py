"""The house rules of a Go-Stop calculator app and of the online services (issue 29), one knob each, tested
against the rule book: RULES.md 4.5 (a price per bright sold), 8.2 (meongbak, the chongtong played on), 8.3
(gobak by the table's size, and the go-caller's own share doubled), 8.5 (three ppuks that keep the baks) and
8.6 (the price of a ppuk). Every knob's default plays as before it came (tests/test_rules.py)."""

from __future__ import annotations

import pytest

from engine import GameState, PlayerHand, RuleSet, replay, resolve, settle
from engine.settlement import HandResult
from tests.test_game import m
from tests.test_game import run as run_2p
from tests.test_house_rules import A_FOUR, B_PLAIN, LAY, four_at_the_table, full_deal
from tests.test_settlement import EIGHT, JUNK, SAFE_B, hand, only_payment, p, rules_of

K2 = resolve("korean-2p")
K3 = resolve("korean-3p")
HONGDAN = ("jan-ribbon", "feb-ribbon", "mar-ribbon")  # 3 points: the korean-3p target
ANIMALS_5 = ("feb-animal", "apr-animal", "may-animal", "jun-animal", "jul-animal")  # animal points: 1


def checks(pay):
    return {c.rule: (c.applied, c.factor, c.reason) for c in pay.checks}


# --- RULES.md 8.6: the price of a ppuk ------------------------------------------------------------------------

THREE_PPUKS = [
    m("A", "jan-junk-1", "jan-junk-2"),
    m("B", "jul-junk-1", "nov-junk-1"),
    m("A", "feb-junk-2", "feb-animal"),
    m("B", "jul-junk-2", "nov-junk-2"),
    m("A", "jun-junk-2", "jun-animal"),
]


@pytest.mark.parametrize(("price", "paid"), [(0, [7, 14, 21]), (100, [100, 200, 400]), (3, [3, 6, 12])])
def test_rules_8_6_ppuks_in_a_row_pay_x1_x2_x4_of_the_ppuk_price(price, paid):
    r = run_2p(THREE_PPUKS, rules={"preset": "korean-2p", "ppuk_price": price})
    assert [(x.payer, x.payee, x.points, x.reason) for x in r.state.instant_payments] == [
        ("B", "A", points, "first-ppuk") for points in paid
    ]


def test_rules_8_6_the_ppuk_price_leaves_the_first_ttadak_its_own_payment():
    rules = resolve({"preset": "korean-2p", "ppuk_price": 100})
    assert rules.ppuk_pays == (100, 200, 400) and rules.first_ttadak_payment == 7
    assert resolve({"preset": "pmang-matgo", "ppuk_price": 5}).ppuk_pays == (5, 10, 20)  # replaces (7,)


# --- RULES.md 8.2: meongbak ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("loser", "applied", "reason"),
    [
        (SAFE_B, True, "no-animal"),
        (("oct-animal", *SAFE_B), False, "has-animal"),
    ],
)
def test_rules_8_2_meongbak_a_loser_with_no_animal_pays_double(loser, applied, reason):
    rules = resolve({"preset": "korean-2p", "meongbak": True})
    winner = ("jan-bright", "mar-bright", "aug-bright", *ANIMALS_5, *HONGDAN)  # 3 + 1 + 3 points
    pay = only_payment(settle(hand(p("A", *winner), p("B", *loser)), rules))
    assert checks(pay)["meongbak"] == (applied, 2 if applied else 1, reason)
    assert pay.points == (14 if applied else 7)  # B holds a bright and 8 junk: meongbak is the only factor


def test_rules_8_2_no_meongbak_when_the_winner_scores_no_animals_and_none_by_default():
    rules = resolve({"preset": "korean-2p", "meongbak": True})
    winner = ("jan-bright", "mar-bright", "aug-bright", "dec-bright", "feb-animal", "apr-animal", "aug-animal")
    pay = only_payment(settle(hand(p("A", *winner), p("B", *SAFE_B)), rules))
    assert checks(pay)["meongbak"] == (False, 1, "winner-no-animal-points")
    assert "meongbak" not in checks(only_payment(settle(hand(p("A", *EIGHT), p("B", *SAFE_B)), K2)))


# --- RULES.md 8.3: gobak by the table's size, and the go-caller's own share doubled -----------------------------


def test_rules_8_3_gobak_by_table_doubles_with_two_players():
    rules = resolve({"preset": "korean-2p", "gobak": "by-table"})
    pay = only_payment(settle(hand(p("A", *EIGHT), p("B", *SAFE_B, go_count=1)), rules))
    assert rules_of(pay)["gobak"] == 2 and pay.points == 16


def test_rules_8_3_gobak_by_table_pays_for_all_with_three_players():
    rules = resolve({"preset": "korean-3p", "gobak": "by-table"})
    players = (p("A", *HONGDAN), p("B", "nov-bright", *JUNK[:6], go_count=1), p("C", "dec-bright", *JUNK[6:12]))
    b, c = settle(hand(*players), rules).payments
    assert (b.points, b.covers, c.points) == (6, (("C", 3),), 0)  # as pays-all (RULES.md 8.3)
    assert settle(hand(*players), K3).payments == (b, c)


@pytest.mark.parametrize(("gobak", "b_points", "covers"), [("pays-all-own-double", 9, 3), ("pays-all-double", 12, 6)])
def test_rules_8_3_the_go_caller_pays_every_share_and_their_own_doubled(gobak, b_points, covers):
    rules = resolve({"preset": "korean-3p", "gobak": gobak})
    players = (p("A", *HONGDAN), p("B", "nov-bright", *JUNK[:6], go_count=1), p("C", "dec-bright", *JUNK[6:12]))
    b, c = settle(hand(*players), rules).payments
    assert (b.points, b.covers, c.points) == (b_points, (("C", covers),), 0)
    assert rules_of(b)["gobak"] == 2


def test_rules_8_3_the_own_share_doubled_with_two_players_is_a_double():
    rules = resolve({"preset": "korean-2p", "gobak": "pays-all-own-double"})
    pay = only_payment(settle(hand(p("A", *EIGHT), p("B", *SAFE_B, go_count=1)), rules))
    assert (pay.points, pay.covers) == (16, ())


# --- RULES.md 8.5: three ppuks that keep the baks ---------------------------------------------------------------

A_JUNK = (*EIGHT, *JUNK[:10])  # brights and junk points


@pytest.mark.parametrize(("baks", "points"), [(False, 7), (True, 7 * 2 * 2)])
def test_rules_8_5_three_ppuks_keep_the_losers_baks_where_the_table_says(baks, points):
    rules = resolve({"preset": "korean-2p", "three_ppuk_baks": baks})
    result = settle(hand(p("A", *A_JUNK), p("B", "oct-junk-1", "oct-junk-2"), outcome="three-ppuk"), rules)
    pay = only_payment(result)
    assert pay.points == points  # pibak and gwangbak, each x2
    assert checks(pay)["pibak"][0] is baks and checks(pay)["gwangbak"][0] is baks


def test_rules_8_5_three_ppuks_with_baks_still_leave_out_the_winners_own_factors_and_keep_the_carry():
    rules = resolve({"preset": "korean-2p", "three_ppuk_baks": True})
    result = settle(
        hand(p("A", *A_JUNK, shakes=1), p("B", "oct-junk-1", "oct-junk-2"), outcome="three-ppuk", nagari_streak=1),
        rules,
    )
    pay = only_payment(result)
    assert checks(pay)["shake"] == (False, 1, "instant-win")
    assert pay.points == 7 * 2 * 2 * 2  # pibak, gwangbak, the carry of one nagari


def test_rules_8_5_other_instant_wins_keep_no_baks():
    rules = resolve({"preset": "korean-2p", "three_ppuk_baks": True})
    result = settle(hand(p("A", *A_JUNK), p("B", "oct-junk-1"), outcome="chongtong"), rules)
    assert only_payment(result).points == 10


# --- RULES.md 4.5: a price per bright sold ----------------------------------------------------------------------


def test_rules_4_5_a_price_per_bright_is_paid_by_every_player():
    rules = resolve({"preset": "korean-3p", "gwang_palgi": True, "bright_sale_price": 2})
    r = replay(["A", "B", "C"], rules, four_at_the_table(rules=rules), [])
    sale = r.state.sale
    assert (sale.seller, sale.payers, sale.brights, sale.value) == ("D", ("A", "B", "C"), 3, 6)
    assert [(x.payer, x.points) for x in r.state.instant_payments] == [("A", 6), ("B", 6), ("C", 6)]


# --- RULES.md 8.2, 4.3: the factor of a hand won after playing on a chongtong -----------------------------------


def play_on(multiplier: int) -> RuleSet:
    return resolve({"preset": "korean-2p", "chongtong_at_deal": "play-on", "chongtong_play_on_multiplier": multiplier})


@pytest.mark.parametrize(("multiplier", "points"), [(1, 8), (2, 16), (4, 32)])
def test_rules_8_2_a_hand_won_after_playing_on_a_chongtong_pays_the_factor(multiplier, points):
    result = settle(hand(p("A", *EIGHT, chongtong=True), p("B", *SAFE_B)), play_on(multiplier))
    pay = only_payment(result)
    assert pay.points == points
    if multiplier > 1:
        assert checks(pay)["chongtong"] == (True, multiplier, "played-on")


def test_rules_8_2_no_factor_for_a_winner_who_held_no_chongtong_or_where_chongtong_wins_at_once():
    pay = only_payment(settle(hand(p("A", *EIGHT), p("B", *SAFE_B, chongtong=True)), play_on(2)))
    assert checks(pay)["chongtong"] == (False, 1, "no-chongtong") and pay.points == 8
    netmarble = resolve("netmarble-matgo")  # its x2 is for a holder who chose to play on (RULES.md 4.3)
    assert "chongtong" in netmarble.checked
    assert only_payment(settle(hand(p("A", *EIGHT), p("B", *SAFE_B)), netmarble)).points == 8
    won_at_once = resolve({"preset": "netmarble-matgo", "chongtong_at_deal": "win"})  # nobody can play on
    assert "chongtong" not in won_at_once.checked
    assert only_payment(settle(hand(p("A", *EIGHT, chongtong=True), p("B", *SAFE_B)), won_at_once)).points == 8


def test_rules_4_3_the_deal_says_who_played_on_a_chongtong():
    rules = play_on(2)
    state = GameState(["A", "B"], rules, full_deal({"A": A_FOUR, "B": B_PLAIN}, LAY, rules))
    assert state.played_on_chongtong == ("A",)
    players = state.hand_result(0, 1).players
    assert [x.chongtong for x in players] == [True, False]
    plain = GameState(["A", "B"], play_on(1), full_deal({"A": A_FOUR, "B": B_PLAIN}, LAY, rules))
    assert plain.played_on_chongtong == ()  # no factor to pay, nothing to look for


def test_a_settle_request_says_who_played_on_a_chongtong(client):
    body = {
        "rules": {"preset": "korean-2p", "chongtong_at_deal": "play-on", "chongtong_play_on_multiplier": 2},
        "players": [{"id": "A", "captured": list(EIGHT), "chongtong": True}, {"id": "B", "captured": list(SAFE_B)}],
        "winner": "A",
    }
    answer = client.post("/v1/settle", json=body).get_json()
    assert answer["payments"][0]["points"] == 16


def test_player_hand_defaults_to_no_chongtong():
    assert PlayerHand("A").chongtong is False
    assert HandResult((PlayerHand("A"), PlayerHand("B")), "A").players[0].chongtong is False


# --- RULES.md 8.6: a chok or a bomb on the first turn, paid at once ---------------------------------------------

FIRST_BOMB = m("A", bomb=["jan-junk-1", "jan-junk-2", "jan-ribbon"], draw="dec-double")


@pytest.mark.parametrize(
    ("moves", "paid"),
    [
        ([m("A", "jul-junk-1", "jul-junk-2")], [("B", "A", 5, "first-chok")]),
        ([FIRST_BOMB], [("B", "A", 9, "first-bomb")]),
        # a chok on the player's second turn is not paid
        (
            [
                m("A", "jul-junk-1", "nov-junk-1"),
                m("B", "may-junk-1", "nov-junk-2"),
                m("A", "sep-junk-1", "sep-junk-2"),
            ],
            [],
        ),
    ],
)
def test_rules_8_6_a_first_turn_chok_or_bomb_pays_where_the_table_says(moves, paid):
    rules = {"preset": "korean-2p", "first_chok_payment": 5, "first_bomb_payment": 9}
    r = run_2p(moves, rules=rules)
    assert [(x.payer, x.payee, x.points, x.reason) for x in r.state.instant_payments] == paid
    assert run_2p(moves).state.instant_payments == []  # none by default
