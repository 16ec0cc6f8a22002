"""The answers' shapes, as marshmallow schemas: they document the responses in ``openapi.yaml``.

The answers themselves are made by ``service.render``; a test validates every documented example and the
answers to simulated hands against these schemas (unknown fields refused), so the two cannot drift apart.
"""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from engine import EventType, Expect, Outcome

from .schemas import MoveSchema, RulesSchema, Strict

_CARD_LIST = {"description": "card ids, in catalog order"}


class ItemOut(Strict):
    combination = fields.String(required=True)
    points = fields.Integer(required=True)
    cards = fields.List(fields.String(), required=True, metadata=_CARD_LIST)


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
    explanation = fields.List(
        fields.String(),
        required=True,
        metadata={"description": "each scoring combination in words, then what falls just short"},
    )


class Echo(Strict):
    rules = fields.Nested(RulesSchema, required=True)
    engine_version = fields.String(required=True)


class ScoreResponse(ScoreOut, Echo):
    pass


class FactorOut(Strict):
    rule = fields.String(required=True)
    factor = fields.Integer(required=True)
    reason = fields.String(required=True)


class CheckOut(Strict):
    rule = fields.String(required=True, metadata={"description": "the rule of RULES.md 8 checked"})
    applied = fields.Boolean(required=True)
    factor = fields.Integer(
        required=True, metadata={"description": "what it multiplies the payment by: 1 changes nothing, 0 pays nothing"}
    )
    reason = fields.String(required=True)
    facts = fields.Dict(
        keys=fields.String(),
        required=True,
        metadata={"description": "the numbers the reason cites, for an app that writes its own sentence"},
    )


class CoverOut(Strict):
    player = fields.String(required=True)
    points = fields.Integer(required=True)


class PaymentOut(Strict):
    from_ = fields.String(required=True, data_key="from")
    to = fields.String(required=True)
    points = fields.Integer(required=True)
    amount = fields.Integer(required=True)
    factors = fields.List(fields.Nested(FactorOut), required=True, metadata={"description": "the checks that applied"})
    checks = fields.List(
        fields.Nested(CheckOut),
        required=True,
        metadata={"description": "every multiplier and exemption the rules switch on, applied or not, and why"},
    )
    covers = fields.List(
        fields.Nested(CoverOut),
        required=True,
        metadata={"description": "shares this loser pays for other losers (gobak pays-all)"},
    )


class SettlementOut(Strict):
    outcome = fields.String(required=True, validate=validate.OneOf([o.value for o in Outcome]))
    winner = fields.String(required=True, allow_none=True)
    score = fields.Nested(ScoreOut, required=True, allow_none=True)
    base_points = fields.Integer(required=True)
    payments = fields.List(fields.Nested(PaymentOut), required=True)
    explanation = fields.List(fields.String(), required=True)


class SettleResponse(SettlementOut, Echo):
    pass


class ReplayPlayerOut(Strict):
    id = fields.String(required=True)
    captured = fields.List(fields.String(), required=True, metadata=_CARD_LIST)
    score = fields.Nested(ScoreOut, required=True)
    go_count = fields.Integer(required=True)
    shakes = fields.Integer(required=True)
    bombs = fields.Integer(required=True)
    ppuk_count = fields.Integer(required=True)
    hand_size = fields.Integer(required=True)
    hand = fields.List(
        fields.String(),
        required=True,
        metadata={
            "description": "the cards known to be in the hand: all of it when the deal is known; for a hidden hand, "
            "the cards it showed (a shake, a chongtong)"
        },
    )
    flip_turns = fields.Integer(required=True, metadata={"description": "flip turns held after a bomb"})


class EventOut(Strict):
    move_index = fields.Integer(
        required=True, allow_none=True, metadata={"description": "the move that caused it; null at the deal"}
    )
    player = fields.String(required=True, allow_none=True)
    type = fields.String(required=True, validate=validate.OneOf([t.value for t in EventType]))
    detail = fields.String(required=True)
    from_ = fields.String(data_key="from", metadata={"description": "steal: the player who gives"})
    cards = fields.List(fields.String(), metadata={"description": "the cards taken, shown or stolen"})
    card = fields.String(metadata={"description": "bonus: the bonus card"})
    source = fields.String(metadata={"description": "bonus: where it came from (layout, stock, hand)"})
    cause = fields.String(metadata={"description": "steal: the event that stole"})
    played = fields.Raw(metadata={"description": "the card played (a list for a bomb)"})
    paired = fields.String(metadata={"description": "ppuk: the layout card the played card paired with"})
    drawn = fields.String(metadata={"description": "ppuk, chok: the flipped card"})
    count = fields.Integer(metadata={"description": "ppuk: the player's ppuks so far; go: the go count"})
    month = fields.Integer()
    maker = fields.String(allow_none=True, metadata={"description": "stack capture: whose ppuk (null: dealt)"})
    points = fields.Integer(metadata={"description": "go, stop: the caller's score"})
    automatic = fields.Boolean(metadata={"description": "stop: on a last turn, by itself"})
    turns = fields.Integer(metadata={"description": "heodang: the empty turns"})
    reason = fields.String(metadata={"description": "nagari or redeal at the deal: floor-four or multiple-chongtong"})
    players = fields.List(fields.String())
    sep_animal_as = fields.String()


class InstantPaymentOut(Strict):
    from_ = fields.String(required=True, data_key="from")
    to = fields.String(required=True)
    points = fields.Integer(required=True)
    amount = fields.Integer(required=True)
    code = fields.String(required=True, validate=validate.OneOf(["first-ppuk", "first-ttadak"]))
    turns = fields.Integer(required=True, metadata={"description": "first-ppuk: ppuks on this many first turns"})
    reason = fields.String(required=True)
    move_index = fields.Integer(required=True)


class IfGoOut(Strict):
    go_count = fields.Integer(required=True, metadata={"description": "the go count after this go"})
    gobak = fields.String(
        required=True, metadata={"description": "what gobak makes this player pay if another player then wins"}
    )
    reason = fields.String(required=True)


class NextOut(Strict):
    player = fields.String(required=True)
    expects = fields.String(required=True, validate=validate.OneOf([e.value for e in Expect]))
    if_stop = fields.Nested(
        SettlementOut, metadata={"description": "with expects call: exactly what a stop now would settle"}
    )
    if_go = fields.Nested(IfGoOut, metadata={"description": "with expects call: what a go risks"})
    legal = fields.List(
        fields.Nested(MoveSchema),
        metadata={"description": "when the whole deal is known: every legal next move, in the move format"},
    )


class ReplayResponse(Echo):
    status = fields.String(required=True, validate=validate.OneOf(["in_progress", "finished"]))
    players = fields.List(fields.Nested(ReplayPlayerOut), required=True)
    layout = fields.List(fields.String(), required=True, metadata=_CARD_LIST)
    stock_left = fields.Integer(required=True)
    events = fields.List(fields.Nested(EventOut), required=True)
    instant_payments = fields.List(fields.Nested(InstantPaymentOut), required=True)
    next = fields.Nested(NextOut, required=True, allow_none=True)
    settlement = fields.Nested(SettlementOut, required=True, allow_none=True)


class CardNamesOut(Strict):
    en = fields.String(required=True)
    ko = fields.String(required=True)


class CardOut(Strict):
    id = fields.String(required=True)
    month = fields.Integer(required=True, allow_none=True)
    kind = fields.String(required=True)
    junk_units = fields.Integer(required=True)
    tags = fields.List(fields.String(), required=True)
    names = fields.Nested(CardNamesOut, required=True)


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


class SeenOut(Strict):
    place = fields.String(required=True, metadata={"description": "layout, stock, hand, shown, captured or played"})
    player = fields.String(allow_none=True)
    move_index = fields.Integer(allow_none=True, metadata={"description": "the move that revealed it; null: the deal"})


class ProblemSchema(ma.Schema):
    type = fields.String(required=True)
    title = fields.String(required=True)
    status = fields.Integer(required=True)
    detail = fields.String(required=True)
    code = fields.String(required=True, metadata={"description": "stable code of the problem"})
    errors = fields.Dict(
        keys=fields.String(),
        values=fields.List(fields.String()),
        metadata={"description": "field path -> messages, for schema errors"},
    )
    move_index = fields.Integer(allow_none=True, metadata={"description": "0-based index of the first illegal move"})
    player = fields.String()
    card = fields.String()
    knob = fields.String()
    seen = fields.Nested(SeenOut, metadata={"description": "card-already-seen: where the card was seen"})
    choices = fields.List(fields.Raw(), metadata={"description": "invalid-knob: the values the knob takes"})
    presets = fields.List(fields.String(), metadata={"description": "unknown-preset: the presets there are"})
