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
