"""The engine as a library gets the protection the HTTP API gives: the same refusals, with the same codes."""

from __future__ import annotations

import pytest

from engine import GameState, GoStopError, HandResult, PlayerHand, resolve, score, settle
from tests.http import assert_problem

K2 = resolve("korean-2p")
WINNER = ["jan-bright", "mar-bright", "aug-bright", "feb-animal", "apr-animal", "aug-animal"]
BASE = ["jan-bright", "feb-junk-1", "mar-ribbon", "apr-junk-1", "may-animal", "jun-junk-1", "aug-junk-2", "oct-ribbon"]


def code_of(call) -> str:
    with pytest.raises(GoStopError) as err:
        call()
    return err.value.code


@pytest.mark.parametrize(
    ("cards", "code"),
    [
        (["jan-bright", "jan-bright"], "duplicate-card"),
        (["jan-brite"], "unknown-card"),
        (["bonus-2b"], "bonus-not-in-play"),
    ],
)
def test_score_refuses_what_the_api_refuses(client, cards, code):
    assert code_of(lambda: score(cards, K2)) == code
    assert_problem(client.post("/v1/score", json={"rules": "korean-2p", "cards": cards}), 422, code)


@pytest.mark.parametrize(
    ("b_cards", "code"),
    [
        (["jan-bright"], "duplicate-card"),  # A holds it too
        (["may-junk-1", "may-junk-1"], "duplicate-card"),
        (["jan-brite"], "unknown-card"),
        (["bonus-2b"], "bonus-not-in-play"),
    ],
)
def test_settle_refuses_what_the_api_refuses(client, b_cards, code):
    hand = HandResult((PlayerHand("A", WINNER), PlayerHand("B", b_cards)), "A")
    assert code_of(lambda: settle(hand, K2)) == code
    body = {
        "rules": "korean-2p",
        "winner": "A",
        "players": [{"id": "A", "captured": WINNER}, {"id": "B", "captured": b_cards}],
    }
    assert_problem(client.post("/v1/settle", json=body), 422, code)


@pytest.mark.parametrize(
    "layout",
    [
        [*BASE[:7], "jan-bright"],  # a card dealt twice
        [*BASE[:7], "jan-brite"],  # an unknown id
        [*BASE, "bonus-2b"],  # a bonus card korean-2p leaves out
    ],
)
def test_a_game_state_refuses_the_deal_the_api_refuses(client, layout):
    assert code_of(lambda: GameState(["A", "B"], K2, {"layout": layout})) == "bad-deal"
    body = {"rules": "korean-2p", "players": ["A", "B"], "deal": {"layout": layout}}
    assert_problem(client.post("/v1/replay", json=body), 422, "bad-deal")


# --- a GameState is a value you can hold (python-chess's Board is the model) -------------------------------


def _midgame(preset: str = "korean-2p", seed: int = 3, moves: int = 6) -> tuple[dict, GameState]:
    from engine import Move
    from engine.simulate import simulate

    body = simulate(preset, seed).to_dict()
    state = GameState(body["players"], resolve(body["rules"]), body["deal"])
    for i, data in enumerate(body["moves"][:moves]):
        state.apply(Move.from_dict(data, index=i))
    return body, state


def _snapshot(state: GameState) -> tuple:
    seats = [(s.id, s.hand.ids(), s.captured.ids(), s.hidden, s.go_count, s.turns) for s in state.seats]
    return (state.to_move, state.expects, state.stock_left, state.layout_cards().ids(), seats, len(state.events))


@pytest.mark.parametrize("make_copy", ["copy", "deepcopy"])
def test_a_copied_state_takes_the_next_legal_move_and_leaves_the_original_as_it_was(make_copy):
    """Cards are values, so a deep copy (new objects everywhere) still recognises the cards it holds."""
    import copy

    _, state = _midgame()
    before = _snapshot(state)
    other = state.copy() if make_copy == "copy" else copy.deepcopy(state)
    assert _snapshot(other) == before
    move = other.legal_moves()[0]
    other.apply(move)
    assert _snapshot(state) == before and len(other.moves) == len(state.moves) + 1
    assert state.is_legal(move)  # the original may still make it


def test_is_legal_agrees_with_apply_and_changes_nothing():
    from engine import CARDS, Move

    _, state = _midgame()
    before = _snapshot(state)
    player = state.to_move
    candidates = [*state.legal_moves(), Move.go(player), *(Move.turn(player, c) for c in CARDS[:48])]
    for move in candidates:
        legal = state.is_legal(move)
        assert _snapshot(state) == before
        trial = state.copy()
        try:
            trial.apply(move)
            applied = True
        except GoStopError:
            applied = False
            assert _snapshot(trial) == before, f"{move} refused but left a mark"
        assert legal == applied, move


def test_apply_refuses_a_move_of_two_kinds_at_once_and_changes_nothing():
    """A turn and a cup declaration in one Move (only Move.from_dict used to check shapes; RULES.md 3, 5)."""
    from engine import IllegalMoveError, Move, by_id

    _, state = _midgame()
    before = _snapshot(state)
    turn = state.legal_moves()[0]
    both = Move(turn.player, turn.play, turn.capture, turn.draw, turn.draw_capture, sep_animal_as="junk")
    with pytest.raises(IllegalMoveError) as err:
        state.apply(both)
    assert (err.value.code, err.value.why, err.value.move_index) == ("bad-move", "declare-in-turn", 6)
    assert _snapshot(state) == before and not state.is_legal(both)
    with pytest.raises(IllegalMoveError) as err:
        state.apply(Move(turn.player, by_id("jan-bright"), call="go"))
    assert err.value.why == "call-with-more"


def test_each_kind_of_move_has_a_typed_constructor_that_reads_back_the_same():
    from engine import Move, by_id

    built = [
        Move.turn("A", "mar-bright", capture="mar-junk-1", draw="jun-junk-2"),
        Move.shake_turn("A", ["may-animal", "may-ribbon", "may-junk-1"], "may-junk-1", draw="oct-animal"),
        Move.bomb_turn("B", [by_id("jul-animal"), "jul-ribbon", "jul-junk-1"], draw="dec-double"),
        Move.flip_turn("B", draw="nov-junk-1", draw_capture="nov-double"),
        Move.bonus_turn("A", "bonus-3", play="feb-junk-1", bonus_flipped=["bonus-2a"]),
        Move.go("A"),
        Move.stop("B"),
        Move.declare("A", "junk"),
    ]
    for move in built:
        assert move.form_error() is None, move
        assert Move.from_dict(move.to_dict()) == move
        assert eval(repr(move), {"Move": Move}) == move  # the repr reads back
    assert [m.kind for m in built[-3:]] == ["call", "call", "declare"]


def test_a_state_says_where_the_hand_stands():
    _, state = _midgame()
    shown = repr(state)
    assert shown.startswith("<GameState korean-2p after 6 moves, ")
    assert f"{state.to_move} to {state.expects}" in shown and f"{state.stock_left} in the stock" in shown
    assert state.seat("A") is state.seats[0]
    with pytest.raises(KeyError):
        state.seat("Z")


def test_turn_options_say_what_the_legal_moves_ask():
    """For an app that logs a game with hidden hands (no list of legal moves), turn_options says month by month
    where a capture choice is asked and where a shake, a bomb or a two-card bomb can be (RULES.md 5, 5.5);
    checked against the legal moves of known deals along simulated hands."""
    from engine import Move, TwoCardBomb
    from engine.simulate import simulate

    checked = two_card_bombs = 0
    two_card = {"preset": "korean-2p", "two_card_bomb": "bomb-multiplier"}  # a house rule (RULES.md 5.5)
    for preset in ("korean-2p", "korean-3p", "basic-2p", two_card):
        for seed in range(15):
            body = simulate(preset, seed).to_dict()
            state = GameState(body["players"], resolve(body["rules"]), body["deal"])
            for i, data in enumerate(body["moves"]):
                options = state.turn_options()
                if state.expects in (None, "call"):
                    assert options is None
                else:
                    assert options.player == state.to_move
                    assert options.flip_turns == state.seat(state.to_move).flip_turns
                    for move in state.legal_moves():
                        for card, choice in ((move.play, move.capture), (move.draw, move.draw_capture)):
                            if card is not None and choice is not None:
                                assert card.month in options.capture_months
                        if move.shake:
                            assert move.shake[0].month in options.shake_months
                        if len(move.bomb) == 3:
                            assert move.bomb[0].month in options.bomb_months
                        elif move.bomb:
                            assert move.bomb[0].month in options.two_card_bomb_months
                            two_card_bombs += 1
                        if move.play is not None and move.bonus is None and move.play.month in options.capture_months:
                            assert move.capture is not None  # a choice there is always asked
                    if not state.rules.allow_shake:
                        assert options.shake_months == ()
                    if state.rules.two_card_bomb is TwoCardBomb.OFF:
                        assert options.two_card_bomb_months == ()
                    else:  # two cards of the month on the layout (the hand may hold the other two)
                        layout = [card.month for card in state.layout_cards()]
                        assert all(layout.count(m) == 2 for m in options.two_card_bomb_months)
                    checked += 1
                state.apply(Move.from_dict(data, index=i))
    assert checked > 300
    assert two_card_bombs > 0  # the simulated hands offered some
