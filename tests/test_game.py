"""RULES.md 4-9 through the engine's replay: the turn table row by row, special moves, steals and calls.

Most logs here are physical-game logs (hands and stock hidden, every draw stated), which lets a test
choose exactly which cards meet; the full-deal form is covered by the simulated hands of test_replay.py.
"""

from __future__ import annotations

import pytest

from engine import GameState, IllegalMoveError, Place, replay, resolve
from tests.simulated import find_hand
from tests.words import detail, event, ids, name

# 2 players: eight layout cards, one each of months 1, 2, 3, 4, 5, 6, 8, 10.
BASE = ["jan-bright", "feb-junk-1", "mar-ribbon", "apr-junk-1", "may-animal", "jun-junk-1", "aug-junk-2", "oct-ribbon"]


def run(moves, layout=BASE, rules="korean-2p", players=("A", "B"), **deal):
    rules = resolve(rules, players=len(players))
    return replay(list(players), rules, {"layout": layout, **deal}, moves)


def illegal(moves, code, index, **kw):
    with pytest.raises(IllegalMoveError) as err:
        run(moves, **kw)
    assert (err.value.code, err.value.move_index) == (code, index), str(err.value)
    return err.value


def seat(result, pid):
    return next(s for s in result.state.seats if s.id == pid)


def captured(result, pid):
    return {c.id for c in seat(result, pid).captured}


def layout(result):
    return {c.id for c in result.state.layout_cards()}


def events(result, type_=None):
    return [e for e in result.state.events if type_ is None or e.type == type_]


def m(player, play=None, draw=None, **kw):
    move = {"player": player, **kw}
    if play:
        move["play"] = play
    if draw:
        move["draw"] = draw
    return move


# --- RULES.md 5: the played card ------------------------------------------------------------------------


def test_rules_5_played_card_meets_no_card_and_stays():
    r = run([m("A", "jul-junk-1", "nov-junk-1")])
    assert {"jul-junk-1", "nov-junk-1"} <= layout(r)
    assert captured(r, "A") == set()


def test_rules_5_played_card_pairs_with_the_only_card():
    r = run([m("A", "jan-junk-1", "nov-junk-1")])
    assert captured(r, "A") == {"jan-bright", "jan-junk-1"}
    assert "nov-junk-1" in layout(r)


TWO_OF_JAN = [c if c != "feb-junk-1" else "jan-junk-1" for c in BASE]  # BASE with two January cards


def test_rules_5_two_layout_cards_need_a_capture_choice():
    err = illegal([m("A", "jan-junk-2", "nov-junk-1")], "capture-required", 0, layout=TWO_OF_JAN)
    assert ids(err.params["layout"]) == ["jan-bright", "jan-junk-1"]
    r = run([m("A", "jan-junk-2", "nov-junk-1", capture="jan-bright")], layout=TWO_OF_JAN)
    assert captured(r, "A") == {"jan-bright", "jan-junk-2"}
    assert "jan-junk-1" in layout(r)


def test_rules_5_a_capture_choice_must_be_one_of_the_two_and_only_when_there_is_a_choice():
    illegal([m("A", "jan-junk-2", "nov-junk-1", capture="feb-junk-1")], "capture-not-allowed", 0, layout=TWO_OF_JAN)
    illegal([m("A", "jan-junk-1", "nov-junk-1", capture="jan-bright")], "capture-not-allowed", 0)


STACK_OF_JAN = [
    "jan-bright",
    "jan-junk-1",
    "jan-junk-2",
    "apr-junk-1",
    "may-animal",
    "jun-junk-1",
    "aug-junk-2",
    "oct-ribbon",
]


def test_rules_5_and_6_a_dealt_stack_is_taken_whole_and_steals():
    r = run(
        [m("A", "jul-junk-1", "nov-junk-1"), m("B", "apr-junk-2", "dec-bright"), m("A", "jan-ribbon", "sep-junk-1")],
        layout=STACK_OF_JAN,
    )
    assert {"jan-bright", "jan-junk-1", "jan-junk-2", "jan-ribbon"} <= captured(r, "A")
    (stack,) = events(r, "stack-capture")
    assert (stack.move_index, stack.player, stack.data["maker"]) == (2, "A", None)
    assert "stack of January (pine) dealt on the layout" in event(stack)
    (steal,) = events(r, "steal")
    assert (steal.data["from"], ids(steal.data["cards"]), steal.data["cause"]) == ("B", ["apr-junk-1"], "stack-capture")
    assert event(steal) == f"A takes {name('apr-junk-1')} from B for capturing the stack dealt on the layout"


# --- RULES.md 5: the flipped card -----------------------------------------------------------------------


def test_rules_5_chok_the_flip_takes_the_card_just_played():
    r = run([m("A", "jul-junk-1", "jul-junk-2")])
    assert captured(r, "A") == {"jul-junk-1", "jul-junk-2"}
    assert [e.type for e in events(r)] == ["chok"]


def test_rules_5_ppuk_the_three_stay_as_this_players_stack():
    r = run([m("A", "jan-junk-1", "jan-junk-2")])
    assert {"jan-bright", "jan-junk-1", "jan-junk-2"} <= layout(r)
    assert captured(r, "A") == set()
    assert seat(r, "A").ppuk_count == 1
    assert r.state.table.stack_maker[1] == "A"


def test_rules_5_ttadak_all_four():
    r = run([m("A", "jan-junk-2", "jan-ribbon", capture="jan-bright")], layout=TWO_OF_JAN)
    assert captured(r, "A") == {"jan-bright", "jan-junk-1", "jan-junk-2", "jan-ribbon"}
    assert [e.type for e in events(r)] == ["ttadak"]


def test_rules_5_flip_of_another_month_pairs():
    r = run([m("A", "jul-junk-1", "feb-animal")])
    assert captured(r, "A") == {"feb-junk-1", "feb-animal"}
    assert "jul-junk-1" in layout(r)


def test_rules_5_flip_meeting_two_cards_needs_draw_capture():
    illegal([m("A", "jul-junk-1", "jan-junk-2")], "capture-required", 0, layout=TWO_OF_JAN)
    illegal(
        [m("A", "jul-junk-1", "jan-junk-2", draw_capture="jul-junk-1")], "capture-not-allowed", 0, layout=TWO_OF_JAN
    )
    r = run([m("A", "jul-junk-1", "jan-junk-2", draw_capture="jan-junk-1")], layout=TWO_OF_JAN)
    assert captured(r, "A") == {"jan-junk-1", "jan-junk-2"}


def test_rules_5_flip_onto_a_stack_takes_all_four():
    r = run([m("A", "jul-junk-1", "jan-ribbon")], layout=STACK_OF_JAN)
    assert captured(r, "A") == {"jan-bright", "jan-junk-1", "jan-junk-2", "jan-ribbon"}
    assert [e.type for e in events(r)] == ["stack-capture"]


def test_rules_5_ja_ppuk_own_stack_versus_stack_capture_of_anothers():
    ppuk = [m("A", "jan-junk-1", "jan-junk-2"), m("B", "apr-junk-2", "jul-junk-1")]
    own = run([*ppuk, m("A", "jan-ribbon", "sep-junk-1")])
    (e,) = events(own, "ja-ppuk")
    assert e.player == "A"
    steal = events(own, "steal")[0]  # ja-ppuk steals 2 units (korean-2p): B's two single junk
    assert (steal.data["cause"], ids(steal.data["cards"])) == ("ja-ppuk", ["apr-junk-1", "apr-junk-2"])
    other = run([*ppuk, m("A", "sep-junk-1", "nov-junk-1"), m("B", "jan-ribbon", "sep-junk-2")])
    (e,) = events(other, "stack-capture")
    assert e.player == "B" and e.data["maker"] == "A" and "A's ppuk" in event(e)


def test_rules_5_sseul_and_ttadak_steal_each_and_pay_first_turn_ttadak():
    lay = [
        "jan-bright",
        "jan-junk-1",
        "feb-junk-1",
        "feb-junk-2",
        "mar-ribbon",
        "mar-junk-1",
        "apr-junk-1",
        "apr-ribbon",
    ]
    r = run(
        [
            m("A", "jan-ribbon", "jan-junk-2", capture="jan-bright"),
            m("B", "feb-animal", "feb-ribbon", capture="feb-junk-1"),
            m("A", "mar-bright", "mar-junk-2", capture="mar-ribbon"),
            m("B", "apr-animal", "apr-junk-2", capture="apr-ribbon"),
        ],
        layout=lay,
    )
    assert layout(r) == set()
    assert [e.type for e in events(r) if e.move_index == 3] == ["ttadak", "sseul", "steal", "steal"]
    # RULES.md 6: cheapest first, ties by catalog order; one steal for each event
    steals = [(e.move_index, e.player, ids(e.data["cards"]), e.data["cause"]) for e in events(r, "steal")]
    assert steals == [
        (1, "B", ["jan-junk-1"], "ttadak"),
        (2, "A", ["jan-junk-1"], "ttadak"),
        (3, "B", ["jan-junk-1"], "ttadak"),
        (3, "B", ["jan-junk-2"], "sseul"),
    ]
    # RULES.md 8: first-turn ttadak is paid at once by the opponent, on each player's first turn only
    assert [(p.payer, p.payee, p.points) for p in r.state.instant_payments] == [("B", "A", 7), ("A", "B", 7)]


def test_rules_8_first_turn_ppuk_payments_need_consecutive_ppuks():
    first = [m("A", "jan-junk-1", "jan-junk-2"), m("B", "jul-junk-1", "nov-junk-1")]  # A's first turn: a ppuk
    b_again = m("B", "jul-junk-2", "nov-junk-2")
    r = run([*first, m("A", "feb-junk-2", "feb-animal"), b_again, m("A", "jun-junk-2", "jun-animal")])
    # three ppuks in a row from the first turn: 7, 14, 21, and the third ppuk ends the hand (three-ppuk)
    assert [p.points for p in r.state.instant_payments] == [7, 14, 21]
    assert r.state.outcome == "three-ppuk" and r.settlement.payments[0].points == 7
    broken = run([*first, m("A", "sep-junk-1", "dec-double"), b_again, m("A", "feb-junk-2", "feb-animal")])
    assert [p.points for p in broken.state.instant_payments] == [7]  # the second ppuk came a turn late


# --- RULES.md 5: shake, bomb, flip turns, bonus cards ----------------------------------------------------


def test_rules_5_shake_shows_three_of_a_month_absent_from_the_layout():
    r = run([m("A", "jul-junk-1", "nov-junk-1", shake=["jul-animal", "jul-ribbon", "jul-junk-1"])])
    assert seat(r, "A").shakes == 1
    assert [e.type for e in events(r)] == ["shake"]
    # the two shown cards stay in A's hand, known: B cannot play them
    illegal(
        [
            m("A", "jul-junk-1", "nov-junk-1", shake=["jul-animal", "jul-ribbon", "jul-junk-1"]),
            m("B", "jul-animal", "nov-junk-2"),
        ],
        "card-already-seen",
        1,
    )


@pytest.mark.parametrize(
    ("shake", "play", "rules"),
    [
        (["jan-junk-1", "jan-junk-2", "jan-ribbon"], "jan-junk-1", "korean-2p"),  # the layout holds jan-bright
        (["jul-animal", "jul-ribbon", "jul-junk-1"], "jul-junk-1", "basic-2p"),  # allow_shake off
        (["jul-animal", "jul-ribbon", "sep-junk-1"], "jul-animal", "korean-2p"),  # not one month
        (["jul-animal", "jul-ribbon", "jul-junk-1"], "nov-junk-2", "korean-2p"),  # plays another card
    ],
)
def test_rules_5_illegal_shakes(shake, play, rules):
    illegal([m("A", play, "nov-junk-1", shake=shake)], "shake-not-allowed", 0, rules=rules)


BOMB_MOVES = [
    m("A", "jul-junk-1", "nov-junk-1"),
    m("B", "sep-junk-1", "sep-junk-2"),  # B: chok
    m("A", bomb=["jan-junk-1", "jan-junk-2", "jan-ribbon"], draw="dec-double"),
]
AFTER_B = [*BOMB_MOVES, m("B", "may-junk-1", "aug-junk-1")]
NEXT = {"preset": "korean-2p", "bomb_flip_timing": "next"}


def test_rules_5_bomb_takes_four_gives_flip_turns_and_steals():
    r = run(BOMB_MOVES)
    a = seat(r, "A")
    assert {"jan-bright", "jan-junk-1", "jan-junk-2", "jan-ribbon"} <= captured(r, "A")
    assert (a.bombs, a.flip_turns, a.hand_size) == (1, 2, 6)
    assert [e.data["cause"] for e in events(r, "steal") if e.player == "A"] == ["bomb"]
    assert r.state.to_move == "B" and r.state.expects == "play"
    r = run([*AFTER_B, m("A", flip=True, draw="oct-junk-1")])
    assert seat(r, "A").flip_turns == 1 and "oct-junk-1" in captured(r, "A")
    assert seat(r, "A").hand_size == 6  # a flip turn plays no hand card
    illegal([m("A", "jul-junk-1", "nov-junk-1", flip=True)], "bad-move", 0)
    illegal([m("A", flip=True, draw="nov-junk-1")], "flip-not-allowed", 0)


def test_rules_5_bomb_flip_timing_next_makes_the_flip_turns_come_first():
    """RULES.md 5, ``bomb_flip_timing: next``: the flip turns must be used in the player's very next turns."""
    state = run(AFTER_B, rules=NEXT).state
    assert (state.to_move, state.expects) == ("A", "flip")
    illegal([*AFTER_B, m("A", "feb-junk-2", "nov-junk-2")], "flip-required", 4, rules=NEXT)
    r = run([*AFTER_B, m("A", flip=True, draw="oct-junk-1"), m("B", "jun-junk-2", "mar-junk-1")], rules=NEXT)
    assert (r.state.expects, seat(r, "A").flip_turns) == ("flip", 1)  # the second, at A's next turn too


def test_rules_5_bomb_flip_timing_any_lets_the_player_choose_when():
    """RULES.md 5, ``bomb_flip_timing: any`` (every preset): a flip turn may wait for any later turn, in any
    order with hand cards; a player with no hand card left must flip."""
    state = run(AFTER_B).state
    assert (state.to_move, state.expects) == ("A", "play")
    later = [*AFTER_B, m("A", "feb-junk-2", "nov-junk-2"), m("B", "jun-junk-2", "mar-junk-1")]
    r = run(later)
    assert (seat(r, "A").flip_turns, seat(r, "A").hand_size) == (2, 5)  # played a card, kept both flip turns
    r = run([*later, m("A", flip=True, draw="oct-junk-1")])
    assert seat(r, "A").flip_turns == 1 and "oct-junk-1" in captured(r, "A")


@pytest.mark.parametrize(
    ("bomb", "rules", "layout_"),
    [
        (["jan-junk-1", "jan-junk-2", "jan-ribbon"], "basic-2p", BASE),  # allow_bomb off
        (["jan-junk-1", "jan-junk-2", "jan-ribbon"], "korean-2p", ["nov-bright", *BASE[1:]]),  # no fourth card
        (["jul-junk-1", "jul-junk-2", "jul-ribbon"], "korean-2p", BASE),  # the fourth is not on the layout
        (["jan-junk-1", "jan-junk-2", "feb-animal"], "korean-2p", BASE),  # not one month
    ],
)
def test_rules_5_illegal_bombs(bomb, rules, layout_):
    illegal([m("A", bomb=bomb, draw="nov-junk-1")], "bomb-not-allowed", 0, rules=rules, layout=layout_)


def test_rules_4_bonus_dealt_to_the_layout_goes_to_the_first_player_without_stealing():
    r = run([], layout=["bonus-3", *BASE])
    assert captured(r, "A") == {"bonus-3"}
    assert [(e.move_index, e.type) for e in events(r)] == [(None, "bonus")]
    assert r.state.stock_left == 50 - 9 - 20


def test_rules_5_and_6_bonus_flipped_from_the_stock_is_kept_and_steals_by_preset():
    build = [m("A", "jul-junk-1", "nov-junk-1"), m("B", "sep-junk-1", "sep-junk-2")]  # B holds two junk
    r = run([*build, m("A", "feb-junk-2", "nov-junk-2", bonus_flipped=["bonus-3"])])
    assert {"bonus-3", "feb-junk-1", "feb-junk-2"} <= captured(r, "A")
    (steal,) = events(r, "steal")  # korean-2p: steal_bonus 1
    assert (steal.data["cause"], ids(steal.data["cards"])) == ("bonus", ["sep-junk-1"])
    r3 = run(
        [*build, m("C", "oct-junk-1", "oct-junk-2"), m("A", "feb-junk-2", "nov-junk-2", bonus_flipped=["bonus-3"])],
        rules="korean-3p",
        players=("A", "B", "C"),
        layout=BASE[:6],
    )
    assert "bonus-3" in captured(r3, "A")
    assert [e.data["cause"] for e in events(r3, "steal")] == ["chok"]  # C's chok; korean-3p: steal_bonus 0


def test_rules_5_bonus_from_hand_replace_takes_the_stock_top_into_the_hand():
    r = run([m("A", "jan-junk-1", "nov-junk-1", bonus="bonus-2a")])
    a = seat(r, "A")
    assert {"bonus-2a", "jan-bright", "jan-junk-1"} == captured(r, "A")
    assert a.hand_size == 9  # 10 - the bonus + the stock top - the played card
    assert r.state.stock_left == 22 - 2  # the card taken into the hand, and the draw


def test_rules_5_bonus_from_hand_extra_flip_plays_the_stock_top():
    rules = {"preset": "chips-2p", "bonus_cards": ["bonus-3"]}
    r = run([m("A", "jan-junk-1", "nov-junk-1", bonus="bonus-3")], rules=rules)
    assert captured(r, "A") == {"bonus-3", "jan-bright", "jan-junk-1"}
    assert seat(r, "A").hand_size == 9 and r.state.stock_left == 21 - 2


def test_a_bonus_card_is_played_with_bonus_not_play():
    illegal([m("A", "bonus-3", "nov-junk-1")], "bad-move", 0)
    illegal([m("A", "jan-junk-1", "nov-junk-1", bonus="bonus-2b")], "bonus-not-in-play", 0)


# --- RULES.md 6: steals ---------------------------------------------------------------------------------


def test_rules_6_cheapest_first_a_double_pays_two_units_and_the_cup_is_never_taken():
    lay = [
        "jan-bright",
        "feb-junk-1",
        "mar-ribbon",
        "apr-junk-1",
        "may-animal",
        "sep-animal",
        "nov-double",
        "oct-ribbon",
    ]
    moves = [
        m("A", "jul-junk-1", "aug-junk-1"),
        m("B", "sep-junk-1", "nov-junk-1"),  # B: the cup, sep-junk-1, nov-double, nov-junk-1
        m("A", "dec-ribbon", "dec-animal"),  # chok: one unit, the first single in catalog order
        m("B", "mar-bright", "may-ribbon"),
        m("A", "jun-junk-1", "jun-junk-2"),  # chok: the last single
        m("B", "oct-animal", "jan-ribbon"),
        m("A", "nov-bright", "nov-junk-2"),  # chok: only the double is left, and it pays its 2 units at once
    ]
    r = run(moves, layout=lay)
    steals = [(e.move_index, ids(e.data["cards"])) for e in events(r, "steal")]
    assert steals == [(2, ["sep-junk-1"]), (4, ["nov-junk-1"]), (6, ["nov-double"])]
    assert "sep-animal" in captured(r, "B")


def test_rules_6_an_opponent_without_junk_gives_nothing():
    r = run([m("A", "jul-junk-1", "jul-junk-2")])
    assert events(r, "steal") == []


def test_rules_6_three_players_each_opponent_pays():
    lay = ["jan-bright", "feb-junk-1", "mar-ribbon", "apr-junk-1", "may-animal", "jun-junk-1"]
    r = run(
        [
            m("A", "jul-junk-1", "aug-junk-1"),
            m("B", "feb-junk-2", "oct-junk-1"),
            m("C", "apr-junk-2", "nov-junk-1"),
            m("A", "sep-junk-1", "sep-junk-2"),
        ],
        rules="korean-3p",
        players=("A", "B", "C"),
        layout=lay,
    )
    # A's chok: one unit from B and one from C
    assert sorted(e.data["from"] for e in events(r, "steal")) == ["B", "C"]


# --- RULES.md 5 and 7: turn order, calls --------------------------------------------------------------

BRIGHTS = [
    "jan-bright",
    "mar-bright",
    "aug-bright",
    "nov-bright",
    "dec-bright",
    "feb-junk-1",
    "apr-junk-1",
    "may-junk-1",
]
FIVE_BRIGHTS = [
    m("A", "jan-junk-1", "mar-junk-1"),
    m("B", "feb-junk-2", "jul-junk-1"),
    m("A", "aug-junk-1", "nov-junk-1"),
    m("B", "oct-junk-1", "sep-junk-1"),
    m("A", "dec-animal", "oct-junk-2"),  # five brights: 15 points, a call is due
]


def test_rules_4_play_goes_in_list_order():
    illegal([m("B", "jul-junk-1", "nov-junk-1")], "not-your-turn", 0)
    illegal([m("A", "jul-junk-1", "nov-junk-1"), m("A", "sep-junk-1", "nov-junk-2")], "not-your-turn", 1)
    illegal([m("Z", "jul-junk-1", "nov-junk-1")], "not-your-turn", 0)


def test_rules_7_a_call_is_due_at_the_target_and_nothing_else_may_come_first():
    r = run(FIVE_BRIGHTS, layout=BRIGHTS)
    assert (r.state.to_move, r.state.expects) == ("A", "call")
    illegal([*FIVE_BRIGHTS, m("B", "sep-junk-2", "feb-animal")], "call-required", 5, layout=BRIGHTS)
    illegal([*FIVE_BRIGHTS, {"player": "B", "call": "stop"}], "not-your-turn", 5, layout=BRIGHTS)


def test_rules_7_a_call_when_none_is_due_is_refused():
    illegal([m("A", "jul-junk-1", "nov-junk-1"), {"player": "A", "call": "go"}], "call-not-allowed", 1)


def test_rules_7_stop_ends_the_hand_and_settles():
    r = run([*FIVE_BRIGHTS, {"player": "A", "call": "stop"}], layout=BRIGHTS)
    assert (r.state.outcome, r.state.winner) == ("stop", "A")
    assert r.settlement.base_points == 15
    (pay,) = r.settlement.payments
    assert pay.payer == "B" and {f.rule for f in pay.factors} == {"gwangbak"}
    illegal(
        [*FIVE_BRIGHTS, {"player": "A", "call": "stop"}, m("B", "sep-junk-2", "feb-animal")],
        "game-over",
        6,
        layout=BRIGHTS,
    )


def test_rules_7_after_a_go_the_next_decision_needs_a_higher_score():
    go = [*FIVE_BRIGHTS, {"player": "A", "call": "go"}, m("B", "sep-junk-2", "may-animal")]
    same = [*go, m("A", "jul-junk-2", "jun-junk-1")]  # one junk pair more: 8 junk units, still 15 points
    r = run(same, layout=BRIGHTS)
    assert (r.state.to_move, r.state.expects) == ("B", "play") and seat(r, "A").go_bar == 15
    illegal([*same, {"player": "A", "call": "stop"}], "call-not-allowed", 8, layout=BRIGHTS)
    more = [*same, m("B", "feb-animal", "apr-animal"), m("A", "jun-junk-2", "feb-ribbon")]
    r = run(more, layout=BRIGHTS)  # A sweeps the layout (sseul) and steals a junk: 11 units, 17 points > 15
    assert [e.type for e in events(r) if e.move_index == 9] == ["sseul", "steal"]
    assert (r.state.to_move, r.state.expects) == ("A", "call")
    r = run([*more, {"player": "A", "call": "stop"}], layout=BRIGHTS)
    assert seat(r, "A").go_count == 1 and r.settlement.score.total == 17
    assert r.settlement.base_points == 17 + 1  # RULES.md 7 add-and-double: s + n


def test_rules_7_the_bar_stays_when_stolen_junk_lowers_a_score():
    r = run([*FIVE_BRIGHTS, {"player": "A", "call": "go"}, m("B", "jun-junk-2", "jun-animal")], layout=BRIGHTS)
    assert [e.data["cause"] for e in events(r, "steal")] == ["chok"]  # B's chok took one of A's junk
    assert seat(r, "A").go_bar == 15


# --- RULES.md 4, 8, 9: deal-time outcomes and instant wins ---------------------------------------------


def full_deal(hands_a, hands_b, layout_, rules="korean-2p"):
    rules = resolve(rules)
    from engine import CARDS

    used = set(hands_a) | set(hands_b) | set(layout_)
    stock = [c.id for c in CARDS if c.id not in used and (c.kind != "bonus" or c.id in rules.bonus_cards)]
    return {"hands": {"A": hands_a, "B": hands_b}, "layout": layout_, "stock": stock}


A_FOUR = [
    "jan-bright",
    "jan-ribbon",
    "jan-junk-1",
    "jan-junk-2",
    "feb-animal",
    "feb-ribbon",
    "mar-bright",
    "mar-ribbon",
    "apr-animal",
    "apr-ribbon",
]
B_PLAIN = [
    "may-animal",
    "may-ribbon",
    "jun-animal",
    "jun-ribbon",
    "jul-animal",
    "jul-ribbon",
    "aug-bright",
    "aug-animal",
    "sep-animal",
    "sep-ribbon",
]
B_FOUR = [
    "may-animal",
    "may-ribbon",
    "may-junk-1",
    "may-junk-2",
    "jul-animal",
    "jul-ribbon",
    "aug-bright",
    "aug-animal",
    "sep-animal",
    "sep-ribbon",
]
LAY = ["oct-animal", "oct-ribbon", "nov-bright", "nov-double", "dec-bright", "dec-animal", "feb-junk-1", "mar-junk-1"]


@pytest.mark.parametrize(("rules", "points"), [("korean-2p", 10), ("chips-2p", 5)])
def test_rules_4_chongtong_wins_at_the_deal(rules, points):
    r = replay(["A", "B"], resolve(rules), full_deal(A_FOUR, B_PLAIN, LAY, rules), [])
    assert (r.state.outcome, r.state.winner) == ("chongtong", "A")
    assert [p.points for p in r.settlement.payments] == [points]
    illegal(
        [m("A", "feb-animal")],
        "game-over",
        0,
        **{"layout": LAY, "hands": {"A": A_FOUR, "B": B_PLAIN}, "stock": full_deal(A_FOUR, B_PLAIN, LAY)["stock"]},
    )


@pytest.mark.parametrize(("rules", "outcome"), [("korean-2p", "nagari"), ("chips-2p", "redeal")])
def test_rules_4_multiple_chongtong(rules, outcome):
    r = replay(["A", "B"], resolve(rules), full_deal(A_FOUR, B_FOUR, LAY, rules), [])
    assert (r.state.outcome, r.state.winner, r.settlement.payments) == (outcome, None, ())


@pytest.mark.parametrize(("rules", "outcome"), [("korean-2p", "nagari"), ("basic-2p", "redeal")])
def test_rules_4_floor_four(rules, outcome):
    four = [
        "oct-animal",
        "oct-ribbon",
        "oct-junk-1",
        "oct-junk-2",
        "dec-bright",
        "dec-animal",
        "feb-junk-1",
        "mar-junk-1",
    ]
    r = run([], layout=four, rules=rules)
    assert r.state.outcome == outcome and r.settlement.outcome == outcome


def test_rules_8_heodang_five_empty_turns_in_a_row_korean_3p():
    """A leaves two cards each turn that B then captures; C clears the rest. A's fifth empty turn wins."""
    lay = ["jan-bright", "feb-junk-1", "mar-ribbon", "apr-junk-1", "may-animal", "jun-junk-1"]
    rounds = [
        (("jul-junk-1", "aug-junk-1"), ("jul-junk-2", "aug-junk-2"), ("jan-junk-1", "feb-junk-2")),
        (("jul-ribbon", "aug-animal"), ("jul-animal", "aug-bright"), ("mar-junk-1", "apr-junk-2")),
        (("sep-junk-1", "oct-junk-1"), ("sep-junk-2", "oct-junk-2"), ("may-junk-1", "jun-junk-2")),
        (("sep-ribbon", "oct-animal"), ("sep-animal", "oct-ribbon"), ("jan-junk-2", "feb-animal")),
    ]
    moves = [m(p, *cards) for a, b, c in rounds for p, cards in zip("ABC", (a, b, c), strict=True)]
    r = run(moves, rules="korean-3p", players=("A", "B", "C"), layout=lay)
    assert r.state.outcome is None and seat(r, "A").empty_turns == 4
    r = run([*moves, m("A", "nov-junk-1", "dec-double")], rules="korean-3p", players=("A", "B", "C"), layout=lay)
    assert (r.state.outcome, r.state.winner) == ("heodang", "A")
    assert [(p.payer, p.points) for p in r.settlement.payments] == [("B", 3), ("C", 3)]
    off = run(
        [*moves, m("A", "nov-junk-1", "dec-double")],
        rules={"preset": "korean-3p", "heodang_points": 0},
        players=("A", "B", "C"),
        layout=lay,
    )
    assert off.state.outcome is None


# --- RULES.md 3: the cup declared in a log; RULES.md 8: gobak through a replayed hand -----------------


def test_rules_3_a_cup_declaration_pins_the_holders_cup():
    lay = [
        "jan-bright",
        "feb-junk-1",
        "mar-ribbon",
        "apr-junk-1",
        "may-animal",
        "sep-animal",
        "jun-junk-1",
        "oct-ribbon",
    ]
    take_cup = [m("A", "sep-junk-1", "nov-junk-1")]
    r = run([*take_cup, {"player": "A", "sep_animal_as": "junk"}], layout=lay)
    assert seat(r, "A").sep_animal_as == "junk"
    assert [e.type for e in events(r)] == ["declare"]
    assert r.state.expects == "play" and r.state.to_move == "B"  # a declaration takes no turn
    illegal([*take_cup, {"player": "A", "sep_animal_as": "junk"}], "sep-animal-pin", 1, layout=lay, rules="chips-2p")
    illegal([{"player": "A", "sep_animal_as": "junk", "play": "sep-junk-1"}], "bad-move", 0, layout=lay)


def test_rules_8_gobak_pays_all_in_a_replayed_three_player_hand():
    def loser_called_go(body, result):
        s = result.settlement
        return s is not None and s.outcome == "stop" and any(p.covers for p in s.payments)

    _body, result = find_hand("korean-3p", loser_called_go)
    payer = next(p for p in result.settlement.payments if p.covers)
    caller = next(x for x in result.state.seats if x.id == payer.payer)
    assert caller.go_count >= 1 and caller.id != result.state.winner
    others = [p for p in result.settlement.payments if p is not payer]
    assert all(p.points == 0 for p in others)
    assert payer.points == sum(points for _, points in payer.covers) + result.settlement.base_points * _product(
        f.factor for f in payer.factors
    )


def _product(factors):
    out = 1
    for f in factors:
        out *= f
    return out


# --- RULES.md 5 (v1.1): a shake or a bomb after a bonus card, and a flipped bonus card given as the draw ------


def test_rules_5_a_bonus_card_then_a_shake_in_the_same_turn():
    """``bonus_from_hand: replace``: after the bonus card, the hand card played may be shaken."""
    shake = ["jul-animal", "jul-ribbon", "jul-junk-1"]
    r = run([m("A", "jul-junk-1", "nov-junk-1", bonus="bonus-2a", shake=shake)])
    assert [e.type for e in events(r)] == ["bonus", "shake"]
    a = seat(r, "A")
    assert (a.shakes, a.hand_size) == (1, 9)  # 10 - the bonus card + the stock top - the played card
    assert {c.id for c in a.hand} == {"jul-animal", "jul-ribbon"}  # shown, so known to be in the hand


def test_rules_5_a_bonus_card_then_a_bomb_in_the_same_turn():
    r = run([m("A", bonus="bonus-2a", bomb=["jan-junk-1", "jan-junk-2", "jan-ribbon"], draw="nov-junk-1")])
    assert [e.type for e in events(r)][:2] == ["bonus", "bomb"]
    a = seat(r, "A")
    assert {"bonus-2a", "jan-bright", "jan-junk-1", "jan-junk-2", "jan-ribbon"} <= captured(r, "A")
    assert (a.bombs, a.flip_turns, a.hand_size) == (1, 2, 10 - 1 + 1 - 3)


def test_rules_5_after_an_extra_flip_bonus_card_nothing_can_be_shaken_or_bombed():
    rules = {"preset": "chips-2p", "bonus_cards": ["bonus-3"]}
    shake = ["jul-animal", "jul-ribbon", "jul-junk-1"]
    err = illegal(
        [m("A", "jul-junk-1", "nov-junk-1", bonus="bonus-3", shake=shake)], "shake-not-allowed", 0, rules=rules
    )
    assert err.why == "after-extra-flip"
    bomb = ["jan-junk-1", "jan-junk-2", "jan-ribbon"]
    illegal([m("A", bonus="bonus-3", bomb=bomb, draw="nov-junk-1")], "bomb-not-allowed", 0, rules=rules)


def _known_deal(a_hand, stock_top):
    """A full known deal for korean-2p: BASE on the layout, A's hand as given, the stock starting as given."""
    rules = resolve("korean-2p")
    rest = [c.id for c in rules.deck if c.id not in {*BASE, *a_hand, *stock_top}]
    a = [*a_hand, *rest[: 10 - len(a_hand)]]
    b, stock = rest[10 - len(a_hand) : 20 - len(a_hand)], [*stock_top, *rest[20 - len(a_hand) :]]
    return {"layout": BASE, "hands": {"A": a, "B": b}, "stock": stock}


def test_rules_5_the_stock_top_taken_for_a_bonus_card_counts_for_the_shake():
    """With the deal known: the bonus card brings the stock top into the hand, and it completes three of July."""
    deal = _known_deal(["bonus-2a", "jul-animal", "jul-ribbon"], ["jul-junk-1"])
    state = GameState(["A", "B"], resolve("korean-2p"), deal)
    shakes = [mv for mv in state.legal_moves() if mv.bonus is not None and mv.shake]
    assert {frozenset(c.id for c in mv.shake) for mv in shakes} == {
        frozenset({"jul-animal", "jul-ribbon", "jul-junk-1"})
    }
    state.apply(shakes[0])
    assert [e.type for e in state.events] == ["bonus", "shake"] and state.table.seat("A").shakes == 1


def test_rules_5_a_flipped_bonus_card_given_as_the_draw():
    """A physical table records the flips as they happen: a bonus card first, then the card under it."""
    deal = _known_deal(["jan-junk-1"], ["bonus-3", "nov-junk-1"])
    r = replay(["A", "B"], resolve("korean-2p"), deal, [m("A", "jan-junk-1", "bonus-3")])
    assert {"bonus-3", "jan-bright", "jan-junk-1"} <= captured(r, "A") and "nov-junk-1" in layout(r)
    # with the stock unknown, the card under the bonus card must be said: refused, saying how, never "seen"
    err = illegal([m("A", "jan-junk-1", "bonus-3")], "draw-required", 0)
    assert err.why == "after-bonus-draw" and "already" not in detail(err)
    assert "list 3-junk bonus card among the bonus cards flipped" in detail(err)
    r = run([m("A", "jan-junk-1", "nov-junk-1", bonus_flipped=["bonus-3"])])
    assert {"bonus-3", "jan-bright", "jan-junk-1"} <= captured(r, "A")


def test_a_card_already_seen_says_where_and_since_when():
    played = [m("A", "jan-junk-1", "nov-junk-1"), m("B", "jan-junk-2", "apr-junk-2")]
    err = illegal([played[0], m("B", "jan-bright", "apr-junk-2")], "card-already-seen", 1)
    assert err.params["seen"] == Place("captured", "A", None)
    assert detail(err) == f"{name('jan-bright')} is already among A's captures (seen since the deal)"
    err = illegal([*played[:1], m("B", "nov-junk-1", "apr-junk-2")], "card-already-seen", 1)
    assert err.params["seen"] == Place("layout", None, 0)
    assert detail(err).endswith("has been on the layout since move 1")
