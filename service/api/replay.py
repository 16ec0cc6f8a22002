"""POST /v1/replay: replay a move log, judge every move, and settle the hand when it is over."""

from __future__ import annotations

from typing import Any

from flask import jsonify
from flask.typing import ResponseReturnValue

from ..answers import replay_answer
from ..i18n import request_words
from ..parsing import GoStopBlueprint
from ..responses import ReplayResponse
from ..schemas import ReplayRequest
from . import examples

blp = GoStopBlueprint("replay", __name__, url_prefix="/v1", description="Move-log replay and arbitration")


@blp.route("/replay", methods=["POST"])
@blp.doc(operationId="replayLog")
@blp.arguments(ReplayRequest(), examples={k: {"value": v} for k, v in examples.REPLAY_REQUESTS.items()})
@blp.alt_response(
    200,
    schema=ReplayResponse,
    success=True,
    description="the log is legal so far: the state, the events, and the settlement when it is over",
    examples={k: {"value": v} for k, v in examples.REPLAY_RESPONSES.items()},
)
def post_replay(body: dict[str, Any]) -> ResponseReturnValue:
    """Replay a hand from its deal and moves (RULES.md 4-9), move by move, strictly.

    `deal.layout` is required; leave out `deal.hands` and `deal.stock` for a physical game whose hands
    are hidden (every turn then says its `draw`). A log sent after every turn is a legal request: the answer
    is `in_progress` with who moves `next` and what is expected. The first illegal move is answered with
    422 and problem details naming it (`move_index`, `code`, `detail`).
    """
    return jsonify(replay_answer(body, request_words()))
