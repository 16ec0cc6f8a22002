"""Loading a request body through its marshmallow schema, fast when the body is valid: ``Loader(schema).load``.

marshmallow spends most of a settle request's validation in its own machinery (error stores, hooks, a
getter and a chain of calls per field), not in the checks themselves. A Loader reads the schema once into a
plan: for each field, its key, whether it is required, its default, and a check that accepts exactly the
plain JSON values marshmallow would pass through unchanged (a ``str`` for a String, an ``int`` for an
Integer, a ``bool`` for a Boolean, with the field's own validators called as they are), recursing into
Nested, List and Dict fields, then the schema's whole-body validators (``validates_schema``); gostop's own
fields are deserialized by marshmallow's own code. Whenever the
plan is not sure (a value of another type, an unknown or missing key, a failed validator), the body is
loaded by ``schema.load`` itself, so an invalid body gets marshmallow's own errors, word for word. A valid
body gets the same dict (tests/test_loading.py compares the two on every game log and on generated bodies).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import marshmallow as ma
from marshmallow import fields, missing
from marshmallow.decorators import VALIDATES_SCHEMA

from engine import CARDS

__all__ = ["Loader", "unknown_card_ids"]

Check = Callable[[Any], Any]


class _Unsure(Exception):
    """The plan cannot vouch for this value: marshmallow decides."""


class Loader:
    """``schema.load``, with a plan for the bodies it would accept (see the module docstring)."""

    def __init__(self, schema: ma.Schema) -> None:
        self.schema = schema
        self._check = _plan(schema)

    def load(self, data: Any) -> Any:
        if self._check is not None:
            try:
                return self._check(data)
            except (_Unsure, ma.ValidationError):
                pass
        return self.schema.load(data)


# The leaf fields whose deserialization is the identity on one exact JSON type (marshmallow's own code:
# String returns a str as it is, Integer int(value) of an int, Boolean True or False for a bool). A field
# class of the service says so itself, by its ``plain_type``.
_LEAVES: dict[Any, type] = {
    fields.String._deserialize: str,
    fields.Integer._deserialize: int,
    fields.Boolean._deserialize: bool,
}


def _plan(schema: ma.Schema) -> Check | None:
    """The check of a whole schema, or None when the schema does more than fields and whole-body validators
    (other hooks, partial loading)."""
    hooks = schema._hooks
    whole = hooks.get(VALIDATES_SCHEMA, [])
    validators = [getattr(schema, attr) for attr, many, kw in whole if not many and not kw["pass_original"]]
    if len(validators) != len(whole) or any(attrs for tag, attrs in hooks.items() if tag != VALIDATES_SCHEMA):
        return None
    if schema.unknown != ma.RAISE or schema.partial or schema.many:
        return None
    plan: list[tuple[str, str, Check, bool, Any]] = []
    for name, field in schema.load_fields.items():
        attribute = field.attribute or name
        if "." in attribute:
            return None
        key = field.data_key if field.data_key is not None else name
        plan.append((attribute, key, _field(field), field.required, field.load_default))
    known = frozenset(key for _, key, _, _, _ in plan)

    def check(data: Any) -> dict[str, Any]:
        if type(data) is not dict or not data.keys() <= known:
            raise _Unsure
        out: dict[str, Any] = {}
        for attribute, key, field_check, required, default in plan:
            value = data.get(key, missing)
            if value is missing:
                if required:
                    raise _Unsure
                if default is not missing:
                    out[attribute] = default() if callable(default) else default
            else:
                out[attribute] = field_check(value)
        for validate in validators:  # a fault here is said by schema.load, under the field it names
            validate(out, partial=None, many=False, unknown=ma.RAISE)
        return out

    return check


def _field(field: fields.Field[Any]) -> Check:
    if field.pre_load:  # a field that transforms its input first: marshmallow's own code, whole
        return field.deserialize
    allow_none = field.allow_none
    validators = tuple(field.validators)
    kind = getattr(type(field), "plain_type", None) or _LEAVES.get(type(field)._deserialize)
    if kind is not None:

        def leaf(value: Any) -> Any:
            if type(value) is kind:
                for validate in validators:
                    validate(value)
                return value
            if value is None and allow_none:
                return None
            raise _Unsure

        return leaf
    if type(field) is fields.Nested and isinstance(field.schema, ma.Schema) and not field.many:
        nested = _plan(field.schema)
        if nested is None:
            return _marshmallow(field)
        return _container(nested, allow_none, validators)
    if type(field) is fields.List:
        inner = _field(field.inner)

        def each(value: Any) -> Any:
            if type(value) is not list:
                raise _Unsure
            return [inner(item) for item in value]

        return _container(each, allow_none, validators)
    if type(field) is fields.Dict and field.key_field is None and field.value_field is not None:
        values = _field(field.value_field)

        def mapping(value: Any) -> Any:
            if type(value) is not dict:
                raise _Unsure
            return {key: values(item) for key, item in value.items()}

        return _container(mapping, allow_none, validators)
    return _marshmallow(field)


def _container(check: Check, allow_none: bool, validators: tuple[Any, ...]) -> Check:
    def container(value: Any) -> Any:
        if value is None and allow_none:
            return None
        out = check(value)
        for validate in validators:
            validate(out)
        return out

    return container


def _marshmallow(field: fields.Field[Any]) -> Check:
    """The field's own ``_deserialize`` and validators, as ``Field.deserialize`` calls them for a value that is
    there (gostop's CardIds, RulesSpec and MoveList check their whole value in one call)."""
    if field.pre_load:
        return field.deserialize
    deserialize, allow_none, validators = field._deserialize, field.allow_none, tuple(field.validators)

    def own(value: Any) -> Any:
        if value is None and allow_none:
            return None
        out = deserialize(value, None, None)
        for validate in validators:
            validate(out)
        return out

    return own


CARD_IDS = frozenset(card.id for card in CARDS)  # for membership; schemas.CARD_IDS is the documented enum

# The fields of a request body that hold card ids (a list of them, an id, or, for hands, a map of lists).
_CARD_FIELDS = {"cards", "captured", "layout", "stock", "hands", "shown", "play", "capture", "draw"}
_CARD_FIELDS |= {"draw_capture", "shake", "bomb", "bonus", "bonus_flipped"}


# Card ids sit at most this deep in any request body (replay: moves.3.shake.0, deal.hands.A.0; an evening's
# logged hand: hands.0.replay.deal.hands.A.0); below it nothing is a card, and a walk as deep as a hostile
# body nests would exhaust the stack.
_CARD_DEPTH = 7


def unknown_card_ids(data: Any, path: str = "", holds_cards: bool = False, depth: int = 0) -> dict[str, list[str]]:
    """{field path: ["Not a card id."]} for each string where a card id goes that is not one."""
    out: dict[str, list[str]] = {}
    if depth > _CARD_DEPTH:
        return out
    if isinstance(data, dict):
        for key, value in data.items():
            inside = f"{path}.{key}" if path else str(key)
            # a deal's hands are a map of card lists; an evening's hands are a list of hands, holding none
            holds = holds_cards or (key in _CARD_FIELDS and not (key == "hands" and isinstance(value, list)))
            out.update(unknown_card_ids(value, inside, holds, depth + 1))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            out.update(unknown_card_ids(value, f"{path}.{i}", holds_cards, depth + 1))
    elif holds_cards and isinstance(data, str) and data not in CARD_IDS:
        out[path] = ["Not a card id."]
    return out
