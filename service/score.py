"""POST /v1/score: one player's combination score (RULES.md 2, 3): the request, the answer's shape, how the
answer is made from the engine's ``Score``, and the endpoint.

``score_answer(body, words)`` is the endpoint's whole work, from a validated body (``ScoreRequest().load``)
to the JSON answer, for any caller: the view, the documented examples, a command line.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from marshmallow import fields

from engine import Score, resolve, score

from .catalogs import Echo, echo
from .i18n import Words
from .schemas import Named, Strict, card_list, cup_pin, rules_field
from .sentences import score as words

if TYPE_CHECKING:  # the endpoint needs Flask; the answer (the page's engine, under Pyodide) does not
    from .parsing import GoStopBlueprint

__all__ = ["EXAMPLE", "ScoreOut", "ScoreRequest", "ScoreResponse", "blueprint", "score_answer", "score_json"]


class ScoreRequest(Strict):
    rules = rules_field()
    cards = card_list("the player's captured cards", required=True)
    sep_animal_as = cup_pin()


class ItemOut(Strict):
    combination = Named("Combination", open=True, required=True)
    points = fields.Integer(required=True)
    cards = fields.List(Named("CardId"), required=True, metadata={"description": "the cards that make it"})


class CountsOut(Strict):
    brights = fields.Integer(required=True)
    animals = fields.Integer(required=True)
    ribbons = fields.Integer(required=True)
    junk_units = fields.Integer(required=True)


class ScoreOut(Strict):
    total = fields.Integer(required=True)
    items = fields.List(fields.Nested(ItemOut), required=True)
    counts = fields.Nested(CountsOut, required=True)
    sep_animal_as = Named("CupPlacement", required=True, allow_none=True)
    explanation = fields.List(
        fields.String(),
        required=True,
        metadata={"description": "each scoring combination in words, then what falls just short"},
    )


class ScoreResponse(ScoreOut, Echo):
    pass


def score_json(w: Words, s: Score) -> dict[str, Any]:
    """A score as JSON: card ids, counts, and the explanation in the language of ``w``."""
    return {
        "total": s.total,
        "items": [{"combination": i.combination, "points": i.points, "cards": i.cards.ids()} for i in s.items],
        "counts": {"brights": s.brights, "animals": s.animals, "ribbons": s.ribbons, "junk_units": s.junk_units},
        "sep_animal_as": s.sep_animal_as,
        "explanation": words.explanation(w, s),
    }


def score_answer(body: Mapping[str, Any], w: Words) -> dict[str, Any]:
    """The answer to a validated POST /v1/score body, in the language of ``w``."""
    rules = resolve(body["rules"])
    return {**score_json(w, score(body["cards"], rules, sep_animal_as=body["sep_animal_as"])), **echo(rules)}


EXAMPLE: dict[str, Any] = {
    "rules": "korean-2p",
    "cards": ["jan-bright", "mar-bright", "aug-bright", "feb-animal", "apr-animal", "aug-animal"],
}


def blueprint() -> GoStopBlueprint:
    """The endpoint, documented with the answer it gives to its example (made now, by ``score_answer``)."""
    from .endpoints import post_endpoint

    return post_endpoint(
        "score",
        __name__,
        "A player's combination score",
        path="/score",
        operation_id="scoreCards",
        doc="""Combination score of one player's captured cards (RULES.md 2, 3).

        Only combinations that score are listed. `sep_animal_as` pins the cup where the rules let the
        holder choose; without it the cup goes where it scores more (an animal on a tie).
        """,
        request_schema=ScoreRequest(),
        response_schema=ScoreResponse,
        response_description="the combination score",
        answer=score_answer,
        example=EXAMPLE,
    )
