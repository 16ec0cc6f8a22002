"""The types every request and answer shares: the named sets of values (card ids, preset names, knob choices,
event types, outcomes...), the ``rules`` of a request and of an answer, and gostop's own marshmallow fields.

Schemas check the *shape* of a request (types, required fields, sizes); the engine checks what the rules
say (a card id exists, a card is in one place, a knob value is in range) and names the culprit. The OpenAPI
document is generated from these classes: each named set is one component schema (``NAMED``), and a field
of a named set is documented as a reference to it (``document``), so a generated client has one type for a
card id, whether it comes in a request or in an answer.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

from engine import CARDS, KNOBS, PRESETS, Combination, EventType, Expect, Kind, Outcome

from .loading import Loader

# What a schema says of a whole body beyond its fields (a field required unless another says otherwise), by
# component name: added by the module that checks it (``validates_schema``), so that the OpenAPI document
# (service/openapi.py) says it too.
SCHEMA_RULES: dict[str, dict[str, Any]] = {}

CARD_IDS = [c.id for c in CARDS]
BONUS_IDS = [c.id for c in CARDS if c.kind is Kind.BONUS]
CUP_PLACEMENTS = ["animal", "junk"]
CUP_COUNTED = ["none", "animal", "junk"]
MAX_PLAYERS = 3
MAX_ID_LENGTH = 64


# Knobs whose choices are the same set share its component: one type in a generated client, not two. The set
# of floor_four and multiple_chongtong keeps the name it had before the dealer could win (issue 19), so that a
# generated client keeps its type.
_SHARED_CHOICES: dict[tuple[str, ...], str] = {("redeal", "nagari", "dealer-wins"): "RedealOrNagari"}


def _knob_component(knob: str) -> str:
    """The component of a knob's choices: ``gobak`` -> GobakChoice, ``no_steal_on_last_turn`` ->
    NoStealOnLastTurnChoice; ``floor_four`` and ``multiple_chongtong`` -> RedealOrNagari."""
    shared = _SHARED_CHOICES.get(tuple(KNOBS[knob].choices))
    return shared or "".join(part.title() for part in knob.split("_")) + "Choice"


def _enum(values: list[str], description: str) -> dict[str, Any]:
    return {"type": "string", "enum": values, "description": description}


_CHOICE_DOCS = {
    "RedealOrNagari": "what the deal becomes (floor_four, multiple_chongtong): a redeal, a nagari, or the dealer's "
    "win, as by chongtong"
}

# The named sets of values, each one component schema of the OpenAPI document.
NAMED: Mapping[str, dict[str, Any]] = {
    "CardId": _enum(CARD_IDS, "a card of the deck (RULES.md 1), as GET /v1/cards lists them"),
    "BonusCardId": _enum(BONUS_IDS, "a bonus card"),
    "PresetName": _enum(list(PRESETS), "a preset: a named rule set (RULES.md 10), as GET /v1/rules lists them"),
    "CupPlacement": _enum(CUP_PLACEMENTS, "where the cup (sep-animal) counts: as an animal, or as double junk"),
    "CupCounted": _enum(
        CUP_COUNTED, "where a player's declared counts put the cup: not held, counted as an animal, or as double junk"
    ),
    "CardKind": _enum([k.value for k in Kind], "what a card is"),
    "Combination": _enum([c.value for c in Combination], "a scoring combination (RULES.md 2)"),
    "EventType": _enum([t.value for t in EventType], "what happened at the table"),
    "Outcome": _enum([o.value for o in Outcome], "how a hand ended"),
    "CheckRule": _enum(
        ["go", "shake", "bomb", "meongtta", "pibak", "gwangbak", "gobak", "nagari", "push", "empty-loser", "shodang"],
        "a rule of RULES.md 8 checked for each loser, as a payment's checks and factors name it",
    ),
    "Expect": _enum(
        [e.value for e in Expect],
        "what the log must say next: a turn, a flip turn, a go/stop call, the chongtong choice at the deal, or an "
        "answer to a shodang",
    ),
    "ReplayStatus": _enum(["in_progress", "finished"], "whether the hand of a replayed log is over"),
    "InstantPaymentCode": _enum(
        ["first-ppuk", "first-ttadak", "first-chok", "first-bomb", "gwang-sale"],
        "why a payment was made at once: first-turn ppuks, a first-turn ttadak, chok or bomb, or the brights sold by "
        "the fourth "
        "at a table of three (at the deal)",
    ),
    "DrawTime": _enum(
        ["night", "day"], "밤일낮장 (RULES.md 11.2): at night the lowest month drawn deals, by day the highest"
    ),
    "DealerBy": _enum(
        ["given", "draw", "listed-first"], "how the first dealer was found: named by the table, drawn, or listed first"
    ),
    **{
        _knob_component(name): _enum(list(knob.choices), _CHOICE_DOCS.get(_knob_component(name), f"a value of {name}"))
        for name, knob in KNOBS.items()
        if knob.choices and name != "bonus_cards"  # bonus_cards lists BonusCardIds
    },
}


class Named(fields.String):
    """A string of a named set: documented as a reference to the set's component schema. The request schemas
    check membership themselves, where they check it at all (card ids are the engine's to check).

    ``open``: a set an answer may grow within /v1 (API.md v1.3: an event type, a problem code, a knob choice),
    documented as the set or any other string, so that a generated client takes a value it does not know yet.
    """

    def __init__(self, component: str, *, open: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.component = component
        self.open = open


def one_of(component: str, **kwargs: Any) -> Named:
    """A request field whose value must be one of a named set (marshmallow's own OneOf message)."""
    values = NAMED[component]["enum"]
    return Named(component, validate=validate.OneOf(values), **kwargs)


class Count(fields.Integer):
    """A whole number of a request (a go count, a streak, a stake). JSON Schema, and so the document, reads 2.0
    as the integer 2: so does this field; a number with a fraction, a string or a boolean is refused."""

    plain_type = int  # an int passes through unchanged (service.loading)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(strict=True, **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> int:
        if type(value) is float and value.is_integer():
            value = int(value)
        return super()._deserialize(value, attr, data, **kwargs)


class Flag(fields.Boolean):
    """A yes or no of a request: JSON true or false, nothing else (marshmallow's Boolean also reads "yes", "on",
    1 and 0.0 as one, which JSON Schema, and so the document, does not)."""

    plain_type = bool  # a bool passes through unchanged (service.loading)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if type(value) is not bool:
            raise self.make_error("invalid", input=value)
        return value


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
        check_items(value, str, "Not a valid string.")
        return value


def check_items(items: list[Any], kind: type, message: str) -> None:
    """Every item is a ``kind``: one pass in C for what JSON gives (exact types), the slow way to name one."""
    if set(map(type, items)) <= {kind}:
        return
    for i, item in enumerate(items):
        if not isinstance(item, kind):
            raise ma.ValidationError({i: [message]})


def card_list(description: str, **kwargs: Any) -> CardIds:
    return CardIds(metadata={"description": description}, **kwargs)


def _open(component: str, description: str | None) -> str:
    said = f"{description}: " if description else ""
    return f"{said}one of {component} today; a later /v1 may add values, which a client must accept"


def _said(prop: dict[str, Any]) -> dict[str, Any]:
    return {"description": prop["description"]} if "description" in prop else {}


def _knob_field(name: str, required: bool) -> fields.Field[Any]:
    """A knob of a request's overrides (``required`` False: checked) or of an answer's rules (True: echoed, open)."""
    knob = KNOBS[name]
    meta: dict[str, Any] = {"description": knob.doc}
    kw: dict[str, Any] = {"required": required, "metadata": meta}
    if knob.kind == "bool":
        return Flag(**kw)
    if knob.kind == "int":
        return fields.Integer(validate=validate.Range(knob.minimum, knob.maximum), strict=True, **kw)
    if knob.kind == "choice":
        return Named(_knob_component(name), open=True, **kw) if required else one_of(_knob_component(name), **kw)
    if knob.kind == "set":
        meta["uniqueItems"] = True
        component = "BonusCardId" if name == "bonus_cards" else _knob_component(name)
        return fields.List(Named(component, open=component != "BonusCardId") if required else one_of(component), **kw)
    return fields.List(
        fields.Integer(validate=validate.Range(0), strict=True), validate=validate.Length(max=knob.max_items), **kw
    )


RulesOverrideSchema = Strict.from_dict(
    {
        "preset": one_of("PresetName", metadata={"description": "the preset the overrides start from"}),
        **{name: _knob_field(name, False) for name in KNOBS},
    },
    name="RulesOverride",
)
RulesSchema = Strict.from_dict(
    {"preset": Named("PresetName", open=True, required=True), **{name: _knob_field(name, True) for name in KNOBS}},
    name="Rules",
)


class RulesSpec(fields.Field[Any]):
    """A preset name, or an object of a preset and knob overrides (validated by ``engine.resolve``)."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if not isinstance(value, (str, dict)):
            raise ma.ValidationError("must be a preset name or an object of knob overrides")
        return value


def rules_field() -> RulesSpec:
    return RulesSpec(load_default=None)


def cup_pin(description: str = "pin the cup (sep-animal) as an animal or as double junk") -> Named:
    return one_of("CupPlacement", load_default=None, allow_none=True, metadata={"description": description})


class SitOutSchema(Strict):
    """The fourth person at a table of three (RULES.md 4.5), who did not play: in /v1/settle and in a replay's
    deal. The engine checks the seat and the hand against the rules (``sit-out-not-allowed``)."""

    player = fields.String(required=True, validate=validate.Length(1, MAX_ID_LENGTH))
    seat = Count(
        required=True,
        metadata={
            "description": "the seat counted from the dealer (1): 2 or 3 for a player who chose to sit out, 4 for "
            "the fourth, who had to and sells their brights"
        },
    )
    hand = card_list(
        "the sitter's hand: all of it when the deal is known (it goes under the stock in this order), else the "
        "cards shown for the sale",
        load_default=list,
    )


def sit_out_field(**kwargs: Any) -> fields.Nested:
    return fields.Nested(
        SitOutSchema,
        load_default=None,
        allow_none=True,
        metadata={"description": "with gwang_palgi, the fourth person at the table, who sat out (RULES.md 4.5)"},
        **kwargs,
    )


class Either(fields.Field[Any]):
    """An object of one of several shapes, told apart by the one key each has of its own (an evening's hand is
    ``{"settle": ...}`` or ``{"replay": ...}``): each shape a schema, documented as its own component, and the
    field as one of them. An object with none of the keys is refused as missing the first."""

    def __init__(self, shapes: Mapping[str, tuple[str, ma.Schema]], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.shapes = dict(shapes)  # key -> (component name, schema)
        self._loaders = {key: Loader(schema) for key, (_, schema) in self.shapes.items()}

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if not isinstance(value, dict):
            raise ma.ValidationError("Not a valid mapping type.")
        key = next((key for key in self.shapes if key in value), next(iter(self.shapes)))
        return self._loaders[key].load(value)


class MoveList(fields.Field[Any]):
    """The moves of a log: a list of objects, read one by one by the engine so that an error names its move."""

    MAX = 200  # a hand has at most about 70 moves (turns, calls, declarations); see docs/production.md "Limits"

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> list[dict[str, Any]]:
        if not isinstance(value, list):
            raise ma.ValidationError("Not a valid list.")
        if len(value) > self.MAX:
            raise ma.ValidationError(f"Longer than maximum length {self.MAX}.")
        check_items(value, dict, "Not a valid move object.")
        return value


# --- documenting gostop's own fields ---------------------------------------------------------------------

_REF = "#/components/schemas/"


def document(field: fields.Field[Any]) -> dict[str, Any] | None:
    """The OpenAPI property of one of gostop's own fields, or None for marshmallow's (apispec documents those).

    A named string is a reference to its set (or that or null); a card list an array of CardIds; ``rules`` a
    preset name or an overrides object; a move log an array of Moves.
    """
    description = field.metadata.get("description")
    if isinstance(field, Named):
        prop: dict[str, Any] = {"$ref": _REF + field.component}
        if field.open:
            prop = {"anyOf": [prop, {"type": "string"}], "description": _open(field.component, description)}
        if field.allow_none:
            prop = {"anyOf": [*prop.get("anyOf", [prop]), {"type": "null"}], **_said(prop)}
    elif isinstance(field, CardIds):
        prop = {"type": "array", "items": {"$ref": _REF + "CardId"}, "uniqueItems": True, "maxItems": len(CARDS)}
        if field.allow_none:
            prop["type"] = ["array", "null"]
    elif isinstance(field, RulesSpec):
        prop = {
            "oneOf": [{"$ref": _REF + "PresetName"}, {"$ref": _REF + "RulesOverride"}, {"type": "null"}],
            "description": "a preset name, or a preset with knob overrides; omitted or null: korean-2p for two "
            "players, korean-3p for three",
        }
    elif isinstance(field, MoveList):
        prop = {"type": "array", "items": {"$ref": _REF + "Move"}, "maxItems": MoveList.MAX}
    elif isinstance(field, Either):
        # each shape requires its own key and allows no other's, so no object is two: anyOf says oneOf here,
        # in a form a schema-driven fuzzer can negate
        prop = {"anyOf": [{"$ref": _REF + component} for component, _ in field.shapes.values()]}
    else:
        return None
    if description and "description" not in prop:
        prop["description"] = description
    return prop
