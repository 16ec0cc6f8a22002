"""GET /v1/cards: the catalog of RULES.md 1."""

from __future__ import annotations

from typing import Any

from flask import jsonify
from flask.typing import ResponseReturnValue
from flask_smorest import Blueprint

from engine import CARDS

from ..schemas import CardsResponse

blp = Blueprint("cards", __name__, url_prefix="/v1", description="The Hwatu deck")

_BODY: dict[str, Any] = {
    "cards": [
        {
            "id": c.id,
            "month": c.month or None,
            "kind": c.kind,
            "junk_units": c.junk_units,
            "tags": list(c.tags),
            "names": {"en": c.name_en, "ko": c.name_ko},
        }
        for c in CARDS
    ]
}


@blp.route("/cards", methods=["GET"])
@blp.alt_response(
    200,
    schema=CardsResponse,
    success=True,
    description="every card in catalog order",
    example={"cards": _BODY["cards"][:2]},
)
def list_cards() -> ResponseReturnValue:
    """The 48 month cards and 3 bonus cards, in catalog order (RULES.md 1).

    `junk_units` is the card's printed value: 2 for the double junk even where a rule set turns
    `double_junk` off. The cup (`sep-animal`) is an animal with the tag `cup`.
    """
    return jsonify(_BODY)
