"""GET /v1/cards: the catalog of RULES.md 1."""

from __future__ import annotations

from flask import jsonify
from flask.typing import ResponseReturnValue
from flask_smorest import Blueprint

from ..render import CARDS_BODY
from ..responses import CardsResponse

blp = Blueprint("cards", __name__, url_prefix="/v1", description="The Hwatu deck")


@blp.route("/cards", methods=["GET"])
@blp.doc(operationId="listCards")
@blp.alt_response(
    200,
    schema=CardsResponse,
    success=True,
    description="every card in catalog order",
    example={"cards": CARDS_BODY["cards"][:2]},
)
def list_cards() -> ResponseReturnValue:
    """The 48 month cards and 3 bonus cards, in catalog order (RULES.md 1), with their names in every language.

    `junk_units` is the card's printed value: 2 for the double junk even where a rule set turns
    `double_junk` off. The cup (`sep-animal`) is an animal with the tag `cup`.
    """
    return jsonify(CARDS_BODY)
