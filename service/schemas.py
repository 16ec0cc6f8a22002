"""The request bodies: one marshmallow schema each, and the apispec hooks that document the custom fields.

Schemas check the *shape* of a request (types, required fields, sizes); the engine checks what the rules
say (a card id exists, a card is in one place, a knob value is in range) and names the culprit. The OpenAPI
description of each body is generated from these classes, so ``openapi.yaml`` cannot drift from them.
"""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

from engine import CARDS, KNOBS, PRESETS, Kind, Outcome

CARD_IDS = [c.id for c in CARDS]
BONUS_IDS = [c.id for c in CARDS if c.kind is Kind.BONUS]
MAX_PLAYERS = 3
MAX_ID_LENGTH = 64


class Strict(ma.Schema):
    class Meta:
        unknown = ma.RAISE
        ordered = True


class CardIds(fields.Field[Any]):
    """A list of card ids. Checked for shape only, in one pass (a List of String fields costs a call per
    card); the engine resolves the ids and names any that is unknown or repeated."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> list[str]:
        if not isinstance(value, list):
            raise ma.ValidationError("Not a valid list.")
        if len(value) > len(CARDS):
            raise ma.ValidationError(f"Longer than maximum length {len(CARDS)}.")
        _check_items(value, str, "Not a valid string.")
        return value


def _check_items(items: list[Any], kind: type, message: str) -> None:
    """Every item is a ``kind``: one pass in C for what JSON gives (exact types), the slow way to name one."""
    if set(map(type, items)) <= {kind}:
        return
    for i, item in enumerate(items):
        if not isinstance(item, kind):
            raise ma.ValidationError({i: [message]})


def card_ids_property(self: Any, field: fields.Field[Any], **kwargs: Any) -> dict[str, Any]:
    """apispec attribute function: document CardIds as a unique array of catalog ids."""
    if not isinstance(field, CardIds):
        return {}
    return {"type": "array", "items": {"type": "string", "enum": CARD_IDS}, "uniqueItems": True, "maxItems": len(CARDS)}


def card_list(description: str, **kwargs: Any) -> CardIds:
    return CardIds(metadata={"description": description}, **kwargs)


def _knob_field(name: str, required: bool) -> fields.Field[Any]:
    knob = KNOBS[name]
    meta: dict[str, Any] = {"description": knob.doc}
    kw: dict[str, Any] = {"required": required, "metadata": meta}
    if knob.kind == "bool":
        return fields.Boolean(**kw)
    if knob.kind == "int":
        return fields.Integer(validate=validate.Range(knob.minimum, knob.maximum), strict=True, **kw)
    if knob.kind == "choice":
        return fields.String(validate=validate.OneOf(knob.choices), **kw)
    if knob.kind == "set":
        meta["uniqueItems"] = True
        return fields.List(fields.String(validate=validate.OneOf(knob.choices)), **kw)
    return fields.List(
        fields.Integer(validate=validate.Range(0), strict=True), validate=validate.Length(max=knob.max_items), **kw
    )


_PRESET = fields.String(validate=validate.OneOf(list(PRESETS)), metadata={"description": "preset name"})
RulesOverrideSchema = Strict.from_dict(
    {"preset": _PRESET, **{name: _knob_field(name, False) for name in KNOBS}}, name="RulesOverride"
)
RulesSchema = Strict.from_dict(
    {"preset": fields.String(required=True), **{name: _knob_field(name, True) for name in KNOBS}}, name="Rules"
)


class RulesSpec(fields.Field[Any]):
    """A preset name, or an object of a preset and knob overrides (validated by ``engine.resolve``)."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if not isinstance(value, (str, dict)):
            raise ma.ValidationError("must be a preset name or an object of knob overrides")
        return value


def rules_spec_property(self: Any, field: fields.Field[Any], **kwargs: Any) -> dict[str, Any]:
    """apispec attribute function: document RulesSpec as oneOf(preset name, overrides object)."""
    if not isinstance(field, RulesSpec):
        return {}
    return {
        "oneOf": [{"type": "string", "enum": list(PRESETS)}, {"$ref": "#/components/schemas/RulesOverride"}],
        "description": "a preset name, or a preset with knob overrides; omitted: korean-2p for "
        "two players, korean-3p for three",
    }


def rules_field() -> RulesSpec:
    return RulesSpec(load_default=None)


CUP_PIN = fields.String(
    validate=validate.OneOf(["animal", "junk"]),
    load_default=None,
    allow_none=True,
    metadata={"description": "pin the cup (sep-animal) as an animal or as double junk"},
)


# --- requests -------------------------------------------------------------------------------------------


class ScoreRequest(Strict):
    rules = rules_field()
    cards = card_list("the player's captured cards", required=True)
    sep_animal_as = CUP_PIN


class SettlePlayer(Strict):
    id = fields.String(required=True, validate=validate.Length(1, MAX_ID_LENGTH))
    captured = card_list("cards this player captured", load_default=list)
    go_count = fields.Integer(load_default=0, strict=True, validate=validate.Range(0, 20))
    shakes = fields.Integer(load_default=0, strict=True, validate=validate.Range(0, 4))
    bombs = fields.Integer(load_default=0, strict=True, validate=validate.Range(0, 4))
    sep_animal_as = CUP_PIN


class SettleRequest(Strict):
    rules = rules_field()
    players = fields.List(fields.Nested(SettlePlayer), required=True, validate=validate.Length(2, MAX_PLAYERS))
    winner = fields.String(
        load_default=None,
        allow_none=True,
        validate=validate.Length(1, MAX_ID_LENGTH),
        metadata={"description": "the player who stopped; null for a nagari"},
    )
    outcome = fields.String(
        load_default=None,
        allow_none=True,
        validate=validate.OneOf([o.value for o in Outcome]),
        metadata={
            "description": "stop (default with a winner), nagari (default without), "
            "or an instant win: chongtong, three-ppuk, heodang"
        },
    )
    last_go = fields.String(
        load_default=None,
        allow_none=True,
        validate=validate.Length(1, MAX_ID_LENGTH),
        metadata={
            "description": "the loser who called go last; needed only for gobak pays-all when several losers called go"
        },
    )
    nagari_streak = fields.Integer(load_default=0, strict=True, validate=validate.Range(0, 20))
    stake = fields.Integer(
        load_default=1, strict=True, validate=validate.Range(0, 10**9), metadata={"description": "money per point"}
    )


MAX_MOVES = 200  # a hand has at most about 70 moves (turns, calls, declarations); see README "Limits"


class MoveSchema(Strict):
    """One move of a log (documentation: ``MoveList`` checks shape, ``engine.Move.from_dict`` the rest)."""

    player = fields.String(required=True, validate=validate.Length(1, MAX_ID_LENGTH))
    play = fields.String(metadata={"enum": CARD_IDS, "description": "the hand card played"})
    capture = fields.String(metadata={"enum": CARD_IDS, "description": "which of two layout cards it takes"})
    draw = fields.String(metadata={"enum": CARD_IDS, "description": "the card flipped from the stock"})
    draw_capture = fields.String(metadata={"enum": CARD_IDS, "description": "which of two layout cards it takes"})
    shake = fields.List(
        fields.String(metadata={"enum": CARD_IDS}),
        validate=validate.Length(3, 3),
        metadata={"description": "three cards of one month shown before playing one of them"},
    )
    bomb = fields.List(
        fields.String(metadata={"enum": CARD_IDS}),
        validate=validate.Length(3, 3),
        metadata={"description": "three cards of one month played at once onto the fourth"},
    )
    flip = fields.Boolean(metadata={"description": "a flip-only turn, owed after a bomb"})
    bonus = fields.String(metadata={"enum": BONUS_IDS, "description": "a bonus card played from hand"})
    bonus_flipped = fields.List(
        fields.String(metadata={"enum": BONUS_IDS}),
        metadata={"description": "bonus cards the stock turned up during the turn"},
    )
    call = fields.String(validate=validate.OneOf(["go", "stop"]))
    sep_animal_as = fields.String(
        validate=validate.OneOf(["animal", "junk"]), metadata={"description": "a cup declaration, in a move of its own"}
    )


class MoveList(fields.Field[Any]):
    """The moves of a log: a list of objects, read one by one by the engine so that an error names its move."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> list[dict[str, Any]]:
        if not isinstance(value, list):
            raise ma.ValidationError("Not a valid list.")
        if len(value) > MAX_MOVES:
            raise ma.ValidationError(f"Longer than maximum length {MAX_MOVES}.")
        _check_items(value, dict, "Not a valid move object.")
        return value


def move_list_property(self: Any, field: fields.Field[Any], **kwargs: Any) -> dict[str, Any]:
    """apispec attribute function: document MoveList as an array of Move."""
    if not isinstance(field, MoveList):
        return {}
    return {"type": "array", "items": {"$ref": "#/components/schemas/Move"}, "maxItems": MAX_MOVES}


class DealSchema(Strict):
    layout = card_list(
        "cards turned face up at the deal: the month cards, plus any bonus card dealt there "
        "(it goes to the first player) and the card that replaced it",
        required=True,
    )
    hands = fields.Dict(  # JSON keys are strings already; the engine checks they are exactly the players
        values=card_list("a player's dealt hand"),
        load_default=None,
        metadata={"description": "player id -> dealt hand; leave out for a game whose hands are hidden"},
    )
    stock = card_list(
        "the undealt cards, top first; leave out when unknown (every turn then says its draw)", load_default=None
    )
    shown = fields.Dict(
        values=card_list("four cards of one month"),
        load_default=None,
        metadata={
            "description": "player id -> the chongtong (four cards of one month) that player showed at the deal; "
            "for a game whose hands are hidden, so that the deal can end in chongtong"
        },
    )


class ReplayRequest(Strict):
    rules = rules_field()
    players = fields.List(
        fields.String(validate=validate.Length(1, MAX_ID_LENGTH)),
        required=True,
        validate=validate.Length(2, MAX_PLAYERS),
        metadata={"description": "player ids in turn order; the first deals and plays first"},
    )
    deal = fields.Nested(DealSchema, required=True)
    moves = MoveList(load_default=list, metadata={"description": "the log, in order"})
    nagari_streak = fields.Integer(load_default=0, strict=True, validate=validate.Range(0, 20))
    stake = fields.Integer(
        load_default=1, strict=True, validate=validate.Range(0, 10**9), metadata={"description": "money per point"}
    )
