"""POST /v1/score and /v1/settle: a player's combination score, and who pays whom."""

from __future__ import annotations

from typing import Any

from flask import jsonify
from flask.typing import ResponseReturnValue

from ..answers import score_answer, settle_answer
from ..i18n import request_words
from ..parsing import GoStopBlueprint
from ..responses import ScoreResponse, SettleResponse
from ..schemas import ScoreRequest, SettleRequest
from . import examples

blp = GoStopBlueprint("hands", __name__, url_prefix="/v1", description="Scoring and settlement")


@blp.route("/score", methods=["POST"])
@blp.doc(operationId="scoreCards")
@blp.arguments(ScoreRequest(), example=examples.SCORE_REQUEST)
@blp.alt_response(
    200, schema=ScoreResponse, success=True, description="the combination score", example=examples.SCORE_RESPONSE
)
def post_score(body: dict[str, Any]) -> ResponseReturnValue:
    """Combination score of one player's captured cards (RULES.md 2, 3).

    Only combinations that score are listed. `sep_animal_as` pins the cup where the rules let the
    holder choose; without it the cup goes where it scores more (an animal on a tie).
    """
    return jsonify(score_answer(body, request_words()))


@blp.route("/settle", methods=["POST"])
@blp.doc(operationId="settleHand")
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
    return jsonify(settle_answer(body, request_words()))
