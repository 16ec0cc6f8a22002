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

from engine import CARDS, ENGINE_VERSION, KNOBS, PRESETS, Replay, RuleSet, Score, Settlement
from engine.cards import cards_of, mask_of
from engine.scoring import score_mask
from engine.settlement import OUTCOMES

CARD_IDS = [c.id for c in CARDS]
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
    bonus = fields.String(
        metadata={"enum": [c.id for c in CARDS if c.kind == "bonus"], "description": "a bonus card played from hand"}
    )
    bonus_flipped = fields.List(
        fields.String(metadata={"enum": [c.id for c in CARDS if c.kind == "bonus"]}),
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


class ReplayPlayerOut(Strict):
    id = fields.String(required=True)
    captured = fields.List(fields.String(), required=True)
    score = fields.Nested(ScoreOut, required=True)
    go_count = fields.Integer(required=True)
    shakes = fields.Integer(required=True)
    bombs = fields.Integer(required=True)
    ppuk_count = fields.Integer(required=True)
    hand_size = fields.Integer(required=True)
    hand = fields.List(
        fields.String(),
        required=True,
        allow_none=True,
        metadata={"description": "the hand when every card of it is known, else null"},
    )
    flip_turns = fields.Integer(required=True)


class EventOut(ma.Schema):
    move_index = fields.Integer(
        required=True, allow_none=True, metadata={"description": "the move that caused it; null at the deal"}
    )
    player = fields.String(required=True, allow_none=True)
    type = fields.String(required=True)
    detail = fields.String(required=True)
    from_ = fields.String(data_key="from", metadata={"description": "steal: the player who gives"})
    cards = fields.List(fields.String())
    card = fields.String()
    cause = fields.String(metadata={"description": "steal: the event that stole"})


class InstantPaymentOut(Strict):
    from_ = fields.String(required=True, data_key="from")
    to = fields.String(required=True)
    points = fields.Integer(required=True)
    amount = fields.Integer(required=True)
    reason = fields.String(required=True)
    move_index = fields.Integer(required=True)


class NextOut(Strict):
    player = fields.String(required=True)
    expects = fields.String(required=True, validate=validate.OneOf(["play", "flip", "call"]))


class ReplayResponse(Echo):
    status = fields.String(required=True, validate=validate.OneOf(["in_progress", "finished"]))
    players = fields.List(fields.Nested(ReplayPlayerOut), required=True)
    layout = fields.List(fields.String(), required=True)
    stock_left = fields.Integer(required=True)
    events = fields.List(fields.Nested(EventOut), required=True)
    instant_payments = fields.List(fields.Nested(InstantPaymentOut), required=True)
    next = fields.Nested(NextOut, required=True, allow_none=True)
    settlement = fields.Nested(SettlementOut, required=True, allow_none=True)


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


def replay_json(r: Replay, stake: int) -> dict[str, Any]:
    state = r.state
    # a settled hand already scored every player; an unfinished one is scored here
    scores = r.settlement.scores if r.settlement is not None else {}
    return {
        "status": "finished" if state.is_over else "in_progress",
        "players": [
            {
                "id": seat.id,
                "captured": [c.id for c in cards_of(seat.mask)],
                "score": score_json(
                    scores.get(seat.id) or score_mask(seat.mask, state.rules, sep_animal_as=seat.sep_animal_as)
                ),
                "go_count": seat.go_count,
                "shakes": seat.shakes,
                "bombs": seat.bombs,
                "ppuk_count": seat.ppuk_count,
                "hand_size": seat.hand_size,
                "hand": None if seat.hidden else [c.id for c in cards_of(mask_of(seat.hand))],
                "flip_turns": seat.flip_turns,
            }
            for seat in state.seats
        ],
        "layout": [c.id for c in state.layout_cards()],
        "stock_left": state.stock_left,
        "events": [
            {"move_index": e.move_index, "player": e.player, "type": e.type, "detail": e.detail, **e.data}
            for e in state.events
        ],
        "instant_payments": [
            {
                "from": p.payer,
                "to": p.payee,
                "points": p.points,
                "amount": p.points * stake,
                "reason": p.reason,
                "move_index": p.move_index,
            }
            for p in state.instant_payments
        ],
        "next": None if state.is_over else {"player": state.to_move, "expects": state.expects},
        "settlement": settlement_json(r.settlement) if r.settlement is not None else None,
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
