"""JSON <-> engine values: the marshmallow schemas of every body, and the renderers of engine results.

Schemas check the *shape* of a request (types, required fields, sizes); the engine checks what the rules
say (a card id exists, a card is in one place, a knob value is in range) and names the culprit. Each
schema's OpenAPI description is generated from these classes, so ``openapi.yaml`` cannot drift from them.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

from engine import CARDS, ENGINE_VERSION, KNOBS, PRESETS, RuleSet, Score, Settlement
from engine.settlement import OUTCOMES

CARD_IDS = [c.id for c in CARDS]
MAX_PLAYERS = 3
MAX_ID_LENGTH = 64


class Strict(ma.Schema):
    class Meta:
        unknown = ma.RAISE
        ordered = True


class CardIds(fields.Field):
    """A list of card ids. Checked for shape only, in one pass (a List of String fields costs a call per
    card); the engine resolves the ids and names any that is unknown or repeated."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> list[str]:
        if not isinstance(value, list):
            raise ma.ValidationError("Not a valid list.")
        if len(value) > len(CARDS):
            raise ma.ValidationError(f"Longer than maximum length {len(CARDS)}.")
        for i, item in enumerate(value):
            if not isinstance(item, str):
                raise ma.ValidationError({i: ["Not a valid string."]})
        return value


def card_ids_property(self: Any, field: fields.Field, **kwargs: Any) -> dict[str, Any]:
    """apispec attribute function: document CardIds as a unique array of catalog ids."""
    if not isinstance(field, CardIds):
        return {}
    return {"type": "array", "items": {"type": "string", "enum": CARD_IDS}, "uniqueItems": True, "maxItems": len(CARDS)}


def card_list(description: str, **kwargs: Any) -> CardIds:
    return CardIds(metadata={"description": description}, **kwargs)


def _knob_field(name: str, required: bool) -> fields.Field:
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


class RulesSpec(fields.Field):
    """A preset name, or an object of a preset and knob overrides (validated by ``engine.resolve``)."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if not isinstance(value, (str, dict)):
            raise ma.ValidationError("must be a preset name or an object of knob overrides")
        return value


def rules_spec_property(self: Any, field: fields.Field, **kwargs: Any) -> dict[str, Any]:
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
        validate=validate.OneOf(OUTCOMES),
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
            "description": "the player who called go last; needed only for gobak pays-all when several losers called go"
        },
    )
    nagari_streak = fields.Integer(load_default=0, strict=True, validate=validate.Range(0, 20))
    stake = fields.Integer(
        load_default=1, strict=True, validate=validate.Range(0, 10**9), metadata={"description": "money per point"}
    )


# --- responses (documentation and tests; views render plain dicts with the functions below) --------------


class ItemOut(Strict):
    combination = fields.String(required=True)
    points = fields.Integer(required=True)
    cards = fields.List(fields.String(), required=True)


class CountsOut(Strict):
    brights = fields.Integer(required=True)
    animals = fields.Integer(required=True)
    ribbons = fields.Integer(required=True)
    junk_units = fields.Integer(required=True)


class ScoreOut(Strict):
    total = fields.Integer(required=True)
    items = fields.List(fields.Nested(ItemOut), required=True)
    counts = fields.Nested(CountsOut, required=True)
    sep_animal_as = fields.String(required=True, allow_none=True)


class Echo(Strict):
    rules = fields.Nested(RulesSchema, required=True)
    engine_version = fields.String(required=True)


class ScoreResponse(ScoreOut, Echo):
    pass


class FactorOut(Strict):
    rule = fields.String(required=True)
    factor = fields.Integer(required=True)
    reason = fields.String(required=True)


class CoverOut(Strict):
    player = fields.String(required=True)
    points = fields.Integer(required=True)


class PaymentOut(Strict):
    from_ = fields.String(required=True, data_key="from")
    to = fields.String(required=True)
    points = fields.Integer(required=True)
    amount = fields.Integer(required=True)
    factors = fields.List(fields.Nested(FactorOut), required=True)
    covers = fields.List(
        fields.Nested(CoverOut),
        required=True,
        metadata={"description": "shares this loser pays for other losers (gobak pays-all)"},
    )


class SettlementOut(Strict):
    outcome = fields.String(required=True)
    winner = fields.String(required=True, allow_none=True)
    score = fields.Nested(ScoreOut, required=True, allow_none=True)
    base_points = fields.Integer(required=True)
    payments = fields.List(fields.Nested(PaymentOut), required=True)
    explanation = fields.List(fields.String(), required=True)


class SettleResponse(SettlementOut, Echo):
    pass


class CardOut(Strict):
    id = fields.String(required=True)
    month = fields.Integer(required=True, allow_none=True)
    kind = fields.String(required=True)
    junk_units = fields.Integer(required=True)
    tags = fields.List(fields.String(), required=True)
    names = fields.Dict(keys=fields.String(), values=fields.String(), required=True)


class CardsResponse(Strict):
    cards = fields.List(fields.Nested(CardOut), required=True)


class PresetOut(Strict):
    name = fields.String(required=True)
    description = fields.String(required=True)
    players = fields.Integer(required=True)


class PresetsResponse(Strict):
    presets = fields.List(fields.Nested(PresetOut), required=True)


class HealthResponse(Strict):
    status = fields.String(required=True)


class ProblemSchema(ma.Schema):
    type = fields.String(required=True)
    title = fields.String(required=True)
    status = fields.Integer(required=True)
    detail = fields.String(required=True)
    code = fields.String(metadata={"description": "stable code of a rule violation"})
    errors = fields.Dict(
        keys=fields.String(),
        values=fields.List(fields.String()),
        metadata={"description": "field path -> messages, for schema errors"},
    )
    move_index = fields.Integer(metadata={"description": "0-based index of the first illegal move"})
    player = fields.String()
    card = fields.String()
    knob = fields.String()


# --- renderers ------------------------------------------------------------------------------------------


@lru_cache(maxsize=256)
def _rules_body(rules: RuleSet) -> dict[str, Any]:
    return rules.asdict()


def echo(rules: RuleSet) -> dict[str, Any]:
    """The ``rules`` and ``engine_version`` every rules-dependent answer carries."""
    return {"rules": _rules_body(rules), "engine_version": ENGINE_VERSION}


def score_json(s: Score) -> dict[str, Any]:
    return {
        "total": s.total,
        "items": [
            {"combination": i.combination, "points": i.points, "cards": [c.id for c in i.cards]} for i in s.items
        ],
        "counts": {"brights": s.brights, "animals": s.animals, "ribbons": s.ribbons, "junk_units": s.junk_units},
        "sep_animal_as": s.sep_animal_as,
    }


def settlement_json(s: Settlement) -> dict[str, Any]:
    return {
        "outcome": s.outcome,
        "winner": s.winner,
        "score": score_json(s.score) if s.score is not None else None,
        "base_points": s.base_points,
        "payments": [
            {
                "from": p.payer,
                "to": p.payee,
                "points": p.points,
                "amount": p.amount,
                "factors": [{"rule": f.rule, "factor": f.factor, "reason": f.reason} for f in p.factors],
                "covers": [{"player": who, "points": pts} for who, pts in p.covers],
            }
            for p in s.payments
        ],
        "explanation": list(s.explanation),
    }
