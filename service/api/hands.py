"""POST /v1/score and /v1/settle: a player's combination score, and who pays whom."""

from __future__ import annotations

from typing import Any

from flask import jsonify
from flask.typing import ResponseReturnValue

from engine import HandResult, PlayerHand, parse_cards, resolve, score, settle

from ..parsing import GoStopBlueprint
from ..schemas import (
    ScoreRequest,
    ScoreResponse,
    SettleRequest,
    SettleResponse,
    echo,
    score_json,
    settlement_json,
)
from . import examples

blp = GoStopBlueprint("hands", __name__, url_prefix="/v1", description="Scoring and settlement")


@blp.route("/score", methods=["POST"])
@blp.arguments(ScoreRequest(), example=examples.SCORE_REQUEST)
@blp.alt_response(
    200, schema=ScoreResponse, success=True, description="the combination score", example=examples.SCORE_RESPONSE
)
def post_score(body: dict[str, Any]) -> ResponseReturnValue:
    """Combination score of one player's captured cards (RULES.md 2, 3).

    Only combinations that score are listed. `sep_animal_as` pins the cup where the rules let the
    holder choose; without it the cup goes where it scores more (an animal on a tie).
    """
    rules = resolve(body["rules"])
    cards = parse_cards(body["cards"])
    rules.check_bonus(cards)
    result = score(cards, rules, sep_animal_as=body["sep_animal_as"])
    return jsonify({**score_json(result), **echo(rules)})


@blp.route("/settle", methods=["POST"])
@blp.arguments(SettleRequest(), examples={k: {"value": v} for k, v in examples.SETTLE_REQUESTS.items()})
@blp.alt_response(
    200,
    schema=SettleResponse,
    success=True,
    description="who pays whom, and why",
    examples={k: {"value": v} for k, v in examples.SETTLE_RESPONSES.items()},
)
def post_settle(body: dict[str, Any]) -> ResponseReturnValue:
    """Settle a finished hand from every player's captured cards and calls (RULES.md 7, 8, 9).

    `winner` is the player who stopped; `null` settles a nagari. Every factor applied to a loser is
    listed with a reason, and a loser who pays nothing still has a row saying why.
    """
    players = body["players"]
    rules = resolve(body["rules"], players=len(players))
    hand = HandResult(
        players=tuple(
            PlayerHand(
                p["id"],
                tuple(parse_cards(p["captured"], owner=p["id"])),
                p["go_count"],
                p["shakes"],
                p["bombs"],
                p["sep_animal_as"],
            )
            for p in players
        ),
        winner=body["winner"],
        outcome=body["outcome"] or ("stop" if body["winner"] is not None else "nagari"),
        nagari_streak=body["nagari_streak"],
        stake=body["stake"],
        last_go=body["last_go"],
    )
    return jsonify({**settlement_json(settle(hand, rules)), **echo(rules)})
