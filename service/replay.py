"""POST /v1/replay: replay a move log, judge every move, and settle the hand when it is over (RULES.md 4-9): the
request, the answer's shape, how the answer is made from the engine's ``Replay``, and the endpoint.

``replay_answer(body, words)`` is the endpoint's whole work, from a validated body (``ReplayRequest().load``)
to the JSON answer.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from typing import TYPE_CHECKING, Any

from marshmallow import fields, validate

from engine import (
    ENGINE_VERSION,
    Card,
    CardSet,
    Event,
    EventType,
    Expect,
    GameState,
    InstantPayment,
    Log,
    ParsedLog,
    Replay,
    RuleSet,
    format_log,
    read_log,
)
from engine.log import shape_errors
from engine.rules import Shodang, TwoCardBomb
from engine.settlement import MAX_NAGARI_STREAK, nagari_carry
from engine.simulate import simulate
from engine.turn import bonus_stock_taken, bonus_then

from .catalogs import Echo, echo
from .i18n import Words, words_for
from .schemas import (
    MAX_ID_LENGTH,
    MAX_PLAYERS,
    Count,
    Flag,
    MoveList,
    Named,
    Strict,
    card_list,
    rules_field,
    sit_out_field,
)
from .score import ScoreOut, score_json
from .sentences import replay as words
from .settlement import SaleOut, SettlementOut, sale_json, settlement_json

if TYPE_CHECKING:  # the endpoint needs Flask; the answer (the page's engine, under Pyodide) does not
    from flask.typing import ResponseReturnValue

    from .parsing import GoStopBlueprint

__all__ = [
    "CHONGTONG_EXAMPLE",
    "LIVE_EXAMPLE",
    "TEXT_EXAMPLES",
    "MoveSchema",
    "ReplayRequest",
    "ReplayResponse",
    "blueprint",
    "examples",
    "replay_answer",
    "replay_json",
]


# --- the request ------------------------------------------------------------------------------------------


class MoveSchema(Strict):
    """One move of a log (documentation: ``MoveList`` checks shape, ``engine.Move.from_dict`` the rest)."""

    player = fields.String(required=True, validate=validate.Length(1, MAX_ID_LENGTH))
    play = Named("CardId", metadata={"description": "the hand card played"})
    capture = Named("CardId", metadata={"description": "which of two layout cards it takes"})
    draw = Named("CardId", metadata={"description": "the card flipped from the stock"})
    draw_capture = Named("CardId", metadata={"description": "which of two layout cards it takes"})
    shake = fields.List(
        Named("CardId"),
        validate=validate.Length(3, 4),
        metadata={
            "description": "three cards of one month shown before playing one of them; four for a chongtong played "
            "on (chongtong_at_deal: play-on)"
        },
    )
    bomb = fields.List(
        Named("CardId"),
        validate=validate.Length(2, 3),
        metadata={
            "description": "three cards of one month played at once onto the fourth; two onto the two on the "
            "layout, where two_card_bomb allows it"
        },
    )
    flip = Flag(metadata={"description": "a flip-only turn, owed after a bomb"})
    chongtong = fields.List(
        Named("CardId"),
        validate=validate.Length(4, 4),
        metadata={
            "description": "in a bonus turn: the four cards of a month the card taken in for the bonus card "
            "completed, where chongtong_by_bonus makes that a chongtong (the hand ends there)"
        },
    )
    bonus = Named("BonusCardId", metadata={"description": "a bonus card played from hand"})
    bonus_flipped = fields.List(
        Named("BonusCardId"), metadata={"description": "bonus cards the stock turned up during the turn"}
    )
    call = fields.String(validate=validate.OneOf(["go", "stop"]))
    sep_animal_as = Named("CupPlacement", metadata={"description": "a cup declaration, in a move of its own"})
    chongtong_choice = fields.String(
        validate=validate.OneOf(["win", "play-on"]),
        metadata={
            "description": "the chongtong choice at the deal, in a move of its own (chongtong_at_deal: choice, "
            "RULES.md 4.3): win the hand as a chongtong, or play on"
        },
    )
    shodang = fields.String(
        validate=validate.OneOf(["call", "accept", "decline"]),
        metadata={
            "description": "a shodang, in a move of its own (the shodang knob, RULES.md 8.7): called on the caller's "
            "turn before playing, then accepted or declined by each other player in turn"
        },
    )


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
    sit_out = sit_out_field()


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
    nagari_streak = Count(load_default=0, validate=validate.Range(0, MAX_NAGARI_STREAK))
    stake = Count(load_default=1, validate=validate.Range(0, 10**9), metadata={"description": "money per point"})


# --- the answer -------------------------------------------------------------------------------------------


class ReplayPlayerOut(Strict):
    id = fields.String(required=True)
    captured = fields.List(Named("CardId"), required=True, metadata={"description": "card ids, in catalog order"})
    score = fields.Nested(ScoreOut, required=True)
    go_count = fields.Integer(required=True)
    shakes = fields.Integer(required=True)
    bombs = fields.Integer(required=True)
    ppuk_count = fields.Integer(required=True)
    hand_size = fields.Integer(required=True)
    hand = fields.List(
        Named("CardId"),
        required=True,
        metadata={
            "description": "the cards known to be in the hand: all of it when the deal is known; for a hidden hand, "
            "the cards it showed (a shake, a chongtong)"
        },
    )
    flip_turns = fields.Integer(required=True, metadata={"description": "flip turns held after a bomb"})
    two_card_bombs = fields.Integer(
        metadata={"description": "two-card bombs made (RULES.md 5.5); only where the rules allow them"}
    )


class EventOut(Strict):
    move_index = fields.Integer(
        required=True, allow_none=True, metadata={"description": "the move that caused it; null at the deal"}
    )
    player = fields.String(required=True, allow_none=True)
    type = Named("EventType", open=True, required=True)
    detail = fields.String(required=True)
    from_ = fields.String(data_key="from", metadata={"description": "steal: the player who gives"})
    cards = fields.List(Named("CardId"), metadata={"description": "the cards taken, shown or stolen"})
    card = Named("CardId", metadata={"description": "bonus: the bonus card"})
    source = fields.String(
        metadata={
            "description": "bonus: where it came from (layout, stock, hand); chongtong: bonus when completed by "
            "the card taken in for a bonus card"
        }
    )
    cause = Named("EventType", open=True, metadata={"description": "steal: the event that stole"})
    played = fields.Raw(metadata={"description": "the card played (a list for a bomb)"})
    paired = Named("CardId", metadata={"description": "ppuk: the layout card the played card paired with"})
    bonus = fields.List(
        Named("CardId"),
        metadata={"description": "ppuk: bonus cards flipped onto it, which stay with its stack (bonus_on_ppuk)"},
    )
    drawn = Named("CardId", metadata={"description": "ppuk, chok: the flipped card"})
    count = fields.Integer(metadata={"description": "ppuk: the player's ppuks so far; go: the go count"})
    month = fields.Integer()
    maker = fields.String(
        allow_none=True, metadata={"description": "stack capture, and its steal: whose ppuk (null: dealt)"}
    )
    points = fields.Integer(metadata={"description": "go, stop: the caller's score"})
    automatic = fields.Boolean(metadata={"description": "stop: on a last turn, by itself"})
    turns = fields.Integer(metadata={"description": "heodang: the empty turns"})
    reason = fields.String(
        metadata={
            "description": "nagari, redeal, or the dealer's chongtong at the deal: floor-four or multiple-chongtong"
        }
    )
    players = fields.List(fields.String())
    sep_animal_as = Named("CupPlacement")
    chosen = fields.Boolean(metadata={"description": "chongtong: won by the holder's choice at the deal"})
    against = fields.Dict(
        keys=fields.String(),
        values=fields.String(),
        metadata={
            "description": "shodang: per other player, the combination they lack one card of (brights, godori, "
            "hongdan, cheongdan, chodan)"
        },
    )
    answer = fields.String(metadata={"description": "shodang-answer: accept or decline"})
    caller = fields.String(metadata={"description": "shodang-answer: who called the shodang"})
    result = fields.String(
        metadata={"description": "shodang-answer, the second: nagari (both accept), play-on (both decline) or split"}
    )
    accepter = fields.String(metadata={"description": "shodang-answer, split: who accepted"})
    decliner = fields.String(metadata={"description": "shodang-answer, split: who declined"})
    pays_alone = fields.String(
        metadata={"description": "shodang-answer, split: who pays every loser's share if the accepter wins"}
    )
    spared = fields.Dict(
        keys=fields.String(),
        values=fields.String(validate=validate.OneOf(["cup-only", "no-junk", "last-turn"])),
        metadata={
            "description": "an event that steals (RULES.md 6) and took nothing from someone: per player (or all) "
            "why: cup-only (the cup is never taken), no-junk, last-turn (no_steal_on_last_turn)",
            "example": {"B": "cup-only"},
        },
    )


class InstantPaymentOut(Strict):
    from_ = fields.String(required=True, data_key="from")
    to = fields.String(required=True)
    points = fields.Integer(required=True)
    amount = fields.Integer(required=True)
    code = Named("InstantPaymentCode", open=True, required=True)
    turns = fields.Integer(required=True, metadata={"description": "first-ppuk: ppuks on this many first turns"})
    reason = fields.String(required=True)
    move_index = fields.Integer(required=True, allow_none=True, metadata={"description": "null: at the deal"})


class IfGoOut(Strict):
    go_count = fields.Integer(required=True, metadata={"description": "the go count after this go"})
    gobak = Named(
        "GobakChoice",
        open=True,
        required=True,
        metadata={"description": "what gobak makes this player pay if another player then wins"},
    )
    reason = fields.String(required=True)


class ChongtongChoiceOut(Strict):
    month = fields.Integer(required=True)
    points = fields.Integer(required=True, metadata={"description": "win: what each other player pays"})
    multiplier = fields.Integer(
        required=True, metadata={"description": "play-on: the factor of a win after playing on"}
    )


class ShodangOut(Strict):
    caller = fields.String(required=True)
    against = fields.Dict(
        keys=fields.String(),
        values=fields.String(),
        required=True,
        metadata={"description": "per other player, the combination they lack one card of"},
    )
    pays_alone = Named(
        "ShodangChoice",
        open=True,
        required=True,
        metadata={"description": "who pays alone when the answers split and the one who accepted wins"},
    )


class BonusFromHandOut(Strict):
    way = Named("BonusFromHandChoice", open=True, required=True, metadata={"description": "the rules' bonus_from_hand"})
    stock_taken = fields.Integer(
        required=True,
        metadata={
            "description": "the stock cards it takes before the turn's play: 1 when replaced, 0 with an extra flip"
        },
    )
    then = fields.List(
        fields.String(),
        required=True,
        metadata={
            "description": "what may follow it in the turn, in the move format's words: play, shake, bomb, nothing "
            "(only bonus cards were left) when replaced; extra-flip (the stock top played) with an extra flip"
        },
    )


class NextOut(Strict):
    player = fields.String(required=True)
    expects = Named("Expect", open=True, required=True)
    if_stop = fields.Nested(
        SettlementOut, metadata={"description": "with expects call: exactly what a stop now would settle"}
    )
    if_go = fields.Nested(IfGoOut, metadata={"description": "with expects call: what a go risks"})
    legal = fields.List(
        fields.Nested(MoveSchema),
        metadata={"description": "when the whole deal is known: every legal next move, in the move format"},
    )
    # where the hands are hidden (no list of legal moves), what an app must prompt for (RULES.md 5)
    capture_months = fields.List(
        fields.Integer(),
        metadata={
            "description": "hidden hands, a turn due: the months with two cards on the layout, where a card played "
            "or flipped must say which of the two it takes (capture, draw_capture)"
        },
    )
    draw_capture_months = fields.Dict(
        keys=fields.String(),
        values=fields.List(fields.Integer()),
        metadata={
            "description": "hidden hands, a turn due: by the month of a card played this turn that changes them, "
            "the months where the card turned over must then say which of two it takes (draw_capture; RULES.md "
            "5.2: not in the month played, whose card the flip meets); after any other play, a bomb or none, "
            "capture_months"
        },
    )
    shake_months = fields.List(
        fields.Integer(),
        metadata={"description": "hidden hands, a turn due: the months a shake is possible in (none on the layout)"},
    )
    bomb_months = fields.List(
        fields.Integer(),
        metadata={
            "description": "hidden hands, a turn due: the months a bomb of three is possible in (the fourth alone "
            "on the layout)"
        },
    )
    two_card_bomb_months = fields.List(
        fields.Integer(),
        metadata={
            "description": "hidden hands, a turn due: the months a two-card bomb is possible in (two on the layout; "
            "empty unless the rules' two_card_bomb is on, RULES.md 5.5)"
        },
    )
    flip_turns = fields.Integer(
        metadata={"description": "hidden hands, a turn due: the flip turns the player holds after a bomb"}
    )
    flip_due = fields.Boolean(
        metadata={"description": "hidden hands, a turn due: a flip turn must be taken now (expects flip)"}
    )
    choices = fields.List(
        fields.String(),
        metadata={
            "description": "expects chongtong: the chongtong_choice values (win, play-on); expects shodang: the "
            "shodang answers (accept, decline)"
        },
    )
    chongtong = fields.Nested(
        ChongtongChoiceOut, metadata={"description": "expects chongtong: what each choice means (RULES.md 4.3)"}
    )
    shodang = fields.Nested(
        ShodangOut,
        metadata={
            "description": "expects shodang: the call being answered; expects play: the shodang the player may "
            "call before playing (RULES.md 8.7)"
        },
    )
    alike_captures = fields.List(
        fields.String(),
        metadata={
            "description": "a turn due: in each month whose two layout cards are the same to every rule (kind, junk "
            "units, tags), the first of the two, which a capture there may name without asking the player"
        },
    )
    cup_holder = fields.String(
        metadata={
            "description": "a play due: the player who may declare the cup an animal or junk now (sep_animal best, "
            "RULES.md 3), its captor"
        }
    )
    bonus_from_hand = fields.Nested(
        BonusFromHandOut,
        metadata={
            "description": "a play due and bonus cards in the deck: what one played from hand does (RULES.md 5.6)"
        },
    )


class NagariCarryOut(Strict):
    streak = fields.Integer(required=True, metadata={"description": "the request's nagari_streak"})
    factor = fields.Integer(
        required=True, metadata={"description": "nagari_multiplier to the streak's power, capped by nagari_cap"}
    )
    capped = fields.Boolean(required=True, metadata={"description": "whether nagari_cap lowered it"})


class SitOutOut(Strict):
    player = fields.String(required=True)
    seat = fields.Integer(required=True, metadata={"description": "counted from the dealer (1): 2, 3, or 4 (sells)"})
    hand = fields.List(Named("CardId"), required=True, metadata={"description": "the cards of the hand known"})
    detail = fields.String(required=True)


class ReplayResponse(Echo):
    status = Named("ReplayStatus", required=True)
    players = fields.List(fields.Nested(ReplayPlayerOut), required=True)
    sit_out = fields.Nested(
        SitOutOut, metadata={"description": "with gwang_palgi: the fourth person, who sat out (RULES.md 4.5)"}
    )
    sale = fields.Nested(
        SaleOut,
        metadata={
            "description": "the brights the fourth sold at the deal, also among instant_payments; absent when "
            "nobody sold"
        },
    )
    layout = fields.List(Named("CardId"), required=True, metadata={"description": "card ids, in catalog order"})
    stock_left = fields.Integer(required=True)
    events = fields.List(fields.Nested(EventOut), required=True)
    instant_payments = fields.List(fields.Nested(InstantPaymentOut), required=True)
    next = fields.Nested(NextOut, required=True, allow_none=True)
    settlement = fields.Nested(SettlementOut, required=True, allow_none=True)
    nagari_carry = fields.Nested(
        NagariCarryOut,
        metadata={"description": "with a nagari_streak: the factor it multiplies the hand by (RULES.md 8)"},
    )


_PLAIN = frozenset({str, int, bool, type(None)})


def _json(value: Any) -> Any:
    """A fact of an event as JSON: cards as ids."""
    kind = type(value)
    if kind in _PLAIN:
        return value
    if kind is Card:
        return value.id
    if isinstance(value, (list, tuple, CardSet)):
        return [_json(v) for v in value]
    if isinstance(value, Enum):
        return value.value
    return value


def event_json(w: Words, e: Event, *, after_chok: bool = False) -> dict[str, Any]:
    return {
        "move_index": e.move_index,
        "player": e.player,
        "type": e.type,  # a StrEnum: orjson writes its value
        "detail": words.event_detail(w, e, after_chok=after_chok),
        **{key: _json(value) for key, value in e.data.items()},
    }


def events_json(w: Words, events: list[Event]) -> list[dict[str, Any]]:
    """Every event; a sseul in the turn of a chok is a chok on an empty layout counted as a sseul (RULES.md 5.3:
    a chok takes only the card played, so it leaves the layout empty only when it began empty)."""
    out = []
    chok_at: int | None = None
    for e in events:
        if e.type is EventType.CHOK:
            chok_at = e.move_index
        after_chok = e.type is EventType.SSEUL and e.move_index is not None and e.move_index == chok_at
        out.append(event_json(w, e, after_chok=after_chok))
    return out


def instant_payment_json(w: Words, p: InstantPayment, stake: int) -> dict[str, Any]:
    return {
        "from": p.payer,
        "to": p.payee,
        "points": p.points,
        "amount": p.points * stake,
        "code": p.reason,
        "turns": p.turns,
        "reason": words.instant_reason(w, p),
        "move_index": p.move_index,
    }


def entry_json(state: GameState) -> dict[str, Any]:
    """What an app entering the turn due needs besides the legal moves (RULES.md 5.1, 5.6), so that it carries no
    rule of its own: the card a capture names without asking where the two layout cards of its month are alike,
    where the deck has bonus cards, what one played from hand does (the rules' way, the stock cards it takes
    before the play, and what may follow it in the turn), and who may declare the cup (RULES.md 3)."""
    out: dict[str, Any] = {}
    if state.expects is not Expect.PLAY and state.expects is not Expect.FLIP:
        return out  # a go/stop call, the chongtong choice or a shodang answer: no card is entered
    if alike := state.alike_captures():
        out["alike_captures"] = [card.id for card in alike]
    rules = state.rules
    if rules.bonus_cards and state.expects is Expect.PLAY:
        out["bonus_from_hand"] = {
            "way": rules.bonus_from_hand,
            "stock_taken": bonus_stock_taken(rules),
            "then": list(bonus_then(rules)),
        }
    if state.expects is Expect.PLAY and (holder := state.cup_holder()) is not None:
        out["cup_holder"] = holder
    return out


def next_json(w: Words, state: GameState, *, nagari_streak: int, stake: int) -> dict[str, Any] | None:
    """Who moves next and what the log must say; at a go/stop decision, what each call would mean."""
    player = state.to_move
    if player is None or state.expects is None:
        return None
    out: dict[str, Any] = {"player": player, "expects": state.expects}
    if state.expects is Expect.CALL:
        out["if_stop"] = settlement_json(w, state.settle_if_stop(nagari_streak, stake), state.rules)
        go_count = next(seat.go_count for seat in state.seats if seat.id == player) + 1
        gobak = state.rules.gobak_played
        out["if_go"] = {
            "go_count": go_count,
            "gobak": gobak,
            "reason": words.if_go_reason(w, player, go_count, gobak, len(state.seats)),
        }
    _choice_prompt(state, out)
    out.update(entry_json(state))
    _turn_prompt(state, out)
    return out


def _turn_prompt(state: GameState, out: dict[str, Any]) -> None:
    """The legal moves where the deal is known; where the hands are hidden, what the turn may ask, month by
    month (RULES.md 5)."""
    if state.deal_is_known:
        out["legal"] = [move.to_dict() for move in state.legal_moves()]
    elif (asked := state.turn_options()) is not None:
        out["capture_months"] = list(asked.capture_months)
        out["draw_capture_months"] = {str(m): list(months) for m, months in asked.draw_capture_months}
        out["shake_months"] = list(asked.shake_months)
        out["bomb_months"] = list(asked.bomb_months)
        out["two_card_bomb_months"] = list(asked.two_card_bomb_months)
        out["flip_turns"] = asked.flip_turns
        out["flip_due"] = asked.flip_due


def _choice_prompt(state: GameState, out: dict[str, Any]) -> None:
    """The chongtong choice at the deal and the shodang (RULES.md 4.3, 8.7): the choices and what they mean."""
    rules, expects = state.rules, state.expects
    if expects is Expect.CHONGTONG:
        out["choices"] = ["win", "play-on"]
        out["chongtong"] = {
            "month": state.chongtong_month,
            "points": rules.chongtong_points,
            "multiplier": rules.chongtong_play_on_multiplier,
        }
        return
    if rules.shodang is Shodang.OFF:
        return
    if expects is Expect.SHODANG:
        out["choices"] = ["accept", "decline"]
        caller = state.shodang_caller
    elif expects is Expect.PLAY and state.can_call_shodang():
        caller = state.to_move
    else:
        return
    assert caller is not None
    out["shodang"] = {
        "caller": caller,
        "against": next(e.data["against"] for e in reversed(state.events) if e.type is EventType.SHODANG)
        if expects is Expect.SHODANG
        else state.shodang_threats(caller) or {},
        "pays_alone": rules.shodang,
    }


def replay_json(w: Words, r: Replay, *, nagari_streak: int, stake: int) -> dict[str, Any]:
    """A replayed log as JSON: the table now, every event, and the settlement once the hand is over."""
    state = r.state
    two_card = state.rules.two_card_bomb is not TwoCardBomb.OFF
    out = {
        "status": "finished" if state.is_over else "in_progress",
        "players": [
            {
                "id": seat.id,
                "captured": seat.captured.ids(),
                "score": score_json(w, seat.score(state.rules)),
                "go_count": seat.go_count,
                "shakes": seat.shakes,
                "bombs": seat.bombs,
                "ppuk_count": seat.ppuk_count,
                "hand_size": seat.hand_size,
                "hand": seat.hand.ids(),
                "flip_turns": seat.flip_turns,
                **({"two_card_bombs": seat.two_card_bombs} if two_card else {}),
            }
            for seat in state.seats
        ],
        "layout": state.layout_cards().ids(),
        "stock_left": state.stock_left,
        "events": events_json(w, state.events),
        "instant_payments": [instant_payment_json(w, p, stake) for p in state.instant_payments],
        "next": next_json(w, state, nagari_streak=nagari_streak, stake=stake),
        "settlement": settlement_json(w, r.settlement, state.rules, stake=stake) if r.settlement is not None else None,
    }
    if nagari_streak:  # RULES.md 8: what the nagari hands just before multiply this one by, as the engine counts it
        factor = nagari_carry(nagari_streak, state.rules)
        out["nagari_carry"] = {
            "streak": nagari_streak,
            "factor": factor,
            "capped": capped(factor, nagari_streak, state.rules),
        }
    sitter = state.sit_out
    if sitter is not None:
        out["sit_out"] = {
            "player": sitter.player,
            "seat": sitter.seat,
            "hand": [c.id for c in sitter.hand],
            "detail": words.sit_out_detail(w, sitter.player, sitter.seat),
        }
    if state.sale is not None:
        out["sale"] = sale_json(w, state.sale, stake)
    return out


# --- the lean answer (API.md v1.3) ---------------------------------------------------------------------------


class LeanPaymentOut(Strict):
    from_ = fields.String(required=True, data_key="from")
    to = fields.String(required=True)
    points = fields.Integer(required=True)
    amount = fields.Integer(required=True)


class LeanInstantPaymentOut(LeanPaymentOut):
    code = Named("InstantPaymentCode", open=True, required=True)


class LeanPlayerOut(Strict):
    id = fields.String(required=True)
    points = fields.Integer(required=True, metadata={"description": "the combination score now"})
    counts = fields.Dict(
        keys=fields.String(),
        values=fields.Integer(),
        required=True,
        metadata={"description": "captured: brights, animals, ribbons, junk_units"},
    )
    go_count = fields.Integer(required=True)
    hand_size = fields.Integer(required=True)


class LeanIfStopOut(Strict):
    payments = fields.List(fields.Nested(LeanPaymentOut), required=True)


class LeanIfGoOut(Strict):
    go_count = fields.Integer(required=True)
    gobak = Named("GobakChoice", open=True, required=True)


class LeanNextOut(NextOut):
    """``next`` without its sentences: a stop's payments, a go's count and gobak."""

    if_stop = fields.Nested(LeanIfStopOut)
    if_go = fields.Nested(LeanIfGoOut)


class LeanSettlementOut(Strict):
    outcome = Named("Outcome", open=True, required=True)
    winner = fields.String(required=True, allow_none=True)
    base_points = fields.Integer(required=True)
    payments = fields.List(fields.Nested(LeanPaymentOut), required=True)


class LeanReplayResponse(Strict):
    """The lean answer of /v1/replay (``?view=lean`` or ``Prefer: return=minimal``): what a client that shows
    the state and the prompt needs, no sentences and no events."""

    view = fields.String(required=True, metadata={"description": "lean", "enum": ["lean"]})
    status = Named("ReplayStatus", required=True)
    players = fields.List(fields.Nested(LeanPlayerOut), required=True)
    stock_left = fields.Integer(required=True)
    instant_payments = fields.List(fields.Nested(LeanInstantPaymentOut), required=True)
    next = fields.Nested(LeanNextOut, required=True, allow_none=True)
    settlement = fields.Nested(LeanSettlementOut, required=True, allow_none=True)
    engine_version = fields.String(required=True)


def _payment(p: Any) -> dict[str, Any]:
    return {"from": p.payer, "to": p.payee, "points": p.points, "amount": p.amount}


def lean_replay_json(r: Replay, *, nagari_streak: int, stake: int) -> dict[str, Any]:
    """A replayed log, lean: status, each player's points and captured counts, ``next`` and the payments."""
    state = r.state
    players = []
    for seat in state.seats:
        sc = seat.score(state.rules)
        counts = {"brights": sc.brights, "animals": sc.animals, "ribbons": sc.ribbons, "junk_units": sc.junk_units}
        players.append(
            {
                "id": seat.id,
                "points": sc.total,
                "counts": counts,
                "go_count": seat.go_count,
                "hand_size": seat.hand_size,
            }
        )
    nxt: dict[str, Any] | None = None
    if state.to_move is not None and state.expects is not None:
        nxt = {"player": state.to_move, "expects": state.expects}
        if state.expects is Expect.CALL:
            stop = state.settle_if_stop(nagari_streak, stake)
            nxt["if_stop"] = {"payments": [_payment(p) for p in stop.payments]}
            go_count = next(seat.go_count for seat in state.seats if seat.id == state.to_move) + 1
            nxt["if_go"] = {"go_count": go_count, "gobak": state.rules.gobak}
        _choice_prompt(state, nxt)
        nxt.update(entry_json(state))
        _turn_prompt(state, nxt)
    s = r.settlement
    return {
        "view": LEAN,
        "status": "finished" if state.is_over else "in_progress",
        "players": players,
        "stock_left": state.stock_left,
        "instant_payments": [
            {"from": p.payer, "to": p.payee, "points": p.points, "amount": p.points * stake, "code": p.reason}
            for p in state.instant_payments
        ],
        "next": nxt,
        "settlement": None
        if s is None
        else {
            "outcome": s.outcome,
            "winner": s.winner,
            "base_points": s.base_points,
            "payments": [_payment(p) for p in s.payments],
        },
        "engine_version": ENGINE_VERSION,
    }


LEAN = "lean"
VIEWS = ("full", LEAN)
_MAX_PREFER = 256  # of a Prefer header read


def prefers_minimal(prefer: str | None) -> bool:
    """Whether a Prefer header (RFC 7240) asks ``return=minimal``."""
    if not prefer:
        return False
    for preference in prefer[:_MAX_PREFER].split(","):
        token, _, value = preference.split(";")[0].partition("=")
        if token.strip().lower() == "return" and value.strip().strip('"').lower() == "minimal":
            return True
    return False


def lean_asked() -> tuple[bool, bool]:
    """Whether this request asks for the lean answer, and whether by ``Prefer: return=minimal`` (which the
    answer then says it applied); ``?view=`` other than full or lean is refused (422)."""
    from flask import request
    from webargs.flaskparser import abort

    # the query string read only when there is one, and the header from the environ: what werkzeug's
    # ``request.args`` and ``request.headers`` give, without building either for a request that has neither
    view = request.args.get("view") if request.environ.get("QUERY_STRING") else None
    if view is not None and view not in VIEWS:
        abort(422, messages={"query": {"view": [f"Must be one of: {', '.join(VIEWS)}."]}})
    return lean_wanted(view, request.environ.get("HTTP_PREFER"))


def lean_wanted(view: str | None, prefer: str | None) -> tuple[bool, bool]:
    """Whether ``?view=`` (None when not given) and a Prefer header ask for the lean answer, and whether by
    ``Prefer: return=minimal`` (which the answer then says it applied): ``view`` wins over the header."""
    preferred = prefers_minimal(prefer)
    return view == LEAN or (view is None and preferred), preferred and view != "full"


def replay_reply(
    body: Mapping[str, Any], lean: bool, preferred: bool, accept_language: str | None, written: ParsedLog | None = None
) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """The answer to a checked body, full or lean, and the headers it adds to the JSON answer's own: whether
    the preference was applied, and ``Vary: Prefer`` (the view asked by the header changes the answer)."""
    if not lean:
        return replay_answer(body, words_for(accept_language), written), [("Vary", "Prefer")]
    applied = [("Preference-Applied", "return=minimal")] if preferred else []
    return lean_replay_answer(body, written), [*applied, ("Vary", "Prefer")]


# The query strings the express lane answers (``service.express``); any other goes to Flask, which reads it.
_VIEW_QUERIES: dict[str, str | None] = {"": None, "view=full": "full", "view=lean": LEAN}


def express_reply(body: Mapping[str, Any], environ: Mapping[str, Any]) -> tuple[Any, list[tuple[str, str]]] | None:
    """``replay_reply`` for the express lane, from the request's environ (None: a query it leaves to Flask)."""
    query = environ.get("QUERY_STRING", "")
    if query not in _VIEW_QUERIES:
        return None
    lean, preferred = lean_wanted(_VIEW_QUERIES[query], environ.get("HTTP_PREFER"))
    return replay_reply(body, lean, preferred, environ.get("HTTP_ACCEPT_LANGUAGE"))


def capped(factor: int, streak: int, rules: RuleSet) -> bool:
    """Whether ``nagari_cap`` cut the nagari carry of ``streak`` hands to ``factor`` (RULES.md 8.2): said in the
    answers so that a page words the carry as the engine counted it, with no factor of its own."""
    full: int = rules.nagari_multiplier**streak
    return factor < full


def replay_answer(body: Mapping[str, Any], w: Words, written: ParsedLog | None = None) -> dict[str, Any]:
    """The answer to a validated POST /v1/replay body (by ``ReplayRequest`` or by ``sound_body``, which refuse
    the same bodies), in the language of ``w``: the body read by the engine's one reader of a log
    (``engine.Log.from_dict``, its shape not checked again) and replayed. ``written``: the body came as a text
    log (``engine.read_log``), and a move it refuses is named at its line and column too."""
    log = Log.from_dict(body, written=written.moves if written is not None else (), checked=True)
    result = log.replay()
    return {**replay_json(w, result, nagari_streak=log.nagari_streak, stake=log.stake), **echo(log.rules)}


def lean_replay_answer(body: Mapping[str, Any], written: ParsedLog | None = None) -> dict[str, Any]:
    """The lean answer to a validated POST /v1/replay body (no sentences: no language)."""
    log = Log.from_dict(body, written=written.moves if written is not None else (), checked=True)
    return lean_replay_json(log.replay(), nagari_streak=log.nagari_streak, stake=log.stake)


def sound_body(data: Any) -> bool:
    """Whether a POST /v1/replay body is of the replay's shape, by the engine's check (``engine.log.shape_errors``):
    it refuses exactly what ``ReplayRequest`` refuses (tests/test_replay_shape.py), so the endpoint checks a body
    with it alone, and has the schema load only a body it refuses, to word the refusal as the schema does."""
    return not shape_errors(data)


# --- the examples and the endpoint --------------------------------------------------------------------------

# A physical game logged card by card: hands and stock hidden, every turn says its draw.
LIVE_EXAMPLE: dict[str, Any] = {
    "rules": "korean-2p",
    "players": ["A", "B"],
    "deal": {
        "layout": [
            "jan-bright",
            "feb-junk-1",
            "mar-ribbon",
            "apr-junk-1",
            "may-animal",
            "jun-junk-1",
            "aug-junk-2",
            "oct-ribbon",
        ]
    },
    "moves": [
        {"player": "A", "play": "jan-junk-1", "draw": "dec-double"},
        {"player": "B", "play": "mar-bright", "draw": "mar-junk-1"},
        {"player": "A", "play": "feb-animal", "draw": "oct-junk-1"},
        {"player": "B", "play": "dec-bright", "draw": "mar-junk-2"},
    ],
}

# A physical game in which B was dealt all four November cards and shows them: chongtong, at the deal.
CHONGTONG_EXAMPLE: dict[str, Any] = {
    **LIVE_EXAMPLE,
    "deal": {**LIVE_EXAMPLE["deal"], "shown": {"B": ["nov-bright", "nov-double", "nov-junk-1", "nov-junk-2"]}},
    "moves": [],
}


# The live game in the text notation (docs/NOTATION.md), as players type it: ASCII codes, and Korean names.
TEXT_EXAMPLES: dict[str, str] = {
    "live-hidden-hands-ascii": format_log(LIVE_EXAMPLE),
    "live-hidden-hands-korean": format_log(LIVE_EXAMPLE, spelling="korean"),
}


def examples() -> dict[str, dict[str, Any]]:
    """The documented requests: a live game, a whole simulated deal (made now), a chongtong shown at the deal."""
    return {
        "live-hidden-hands": LIVE_EXAMPLE,
        "full-deal": simulate("korean-2p", 1).to_dict(),
        "chongtong-shown-at-a-hidden-deal": CHONGTONG_EXAMPLE,
    }


def blueprint() -> GoStopBlueprint:
    """The endpoint, documented with the answers it gives to its examples (made now, by ``replay_answer``)."""
    from .endpoints import post_endpoint
    from .jsonio import answered

    request_schema = ReplayRequest()
    text_body = {
        "schema": {"type": "string", "description": "the log in the text notation (docs/NOTATION.md), in UTF-8"},
        "examples": {k: {"value": v} for k, v in TEXT_EXAMPLES.items()},
    }

    def more_doc(answer_examples: dict[str, Any]) -> dict[str, Any]:
        """The text/plain body, the lean view's parameters, and the answer as either shape."""
        return {
            "requestBody": {"content": {"text/plain": text_body}},
            "parameters": [
                {
                    "name": "view",
                    "in": "query",
                    "required": False,
                    "schema": {"type": "string", "enum": list(VIEWS)},
                    "description": "lean: the lean answer (LeanReplayResponse, API.md v1.3): status, each player's "
                    "points and captured counts, next, the payments; no sentences, no events. full (the default): "
                    "the whole answer, even with Prefer: return=minimal",
                },
                {
                    "name": "Prefer",
                    "in": "header",
                    "required": False,
                    "schema": {"type": "string"},
                    "example": "return=minimal",
                    "description": "return=minimal (RFC 7240) asks for the lean answer, as view=lean does; the answer "
                    "then says Preference-Applied: return=minimal",
                },
            ],
            "responses": {
                200: {
                    "content": {
                        "application/json": {
                            "schema": {
                                "oneOf": [
                                    {"$ref": "#/components/schemas/ReplayResponse"},
                                    {"$ref": "#/components/schemas/LeanReplayResponse"},
                                ]
                            },
                            "examples": answer_examples,
                        }
                    }
                }
            },
        }

    def post_replay(body: dict[str, Any], written: ParsedLog | None = None) -> ResponseReturnValue:
        from flask import request

        lean, preferred = lean_asked()
        value, headers = replay_reply(body, lean, preferred, request.environ.get("HTTP_ACCEPT_LANGUAGE"), written)
        response = answered(value)
        response.headers.extend(headers)
        return response

    return post_endpoint(
        "replay",
        __name__,
        "Move-log replay and arbitration",
        path="/replay",
        operation_id="replayLog",
        doc="""Replay a hand from its deal and moves (RULES.md 4-9), move by move, strictly.

        `deal.layout` is required; leave out `deal.hands` and `deal.stock` for a physical game whose hands
        are hidden (every turn then says its `draw`). A log sent after every turn is a legal request: the answer
        is `in_progress` with who moves `next` and what is expected (with hidden hands, what to prompt for:
        the months where a capture choice, a shake or a bomb can be asked, the flip turns held). The first
        illegal move is answered with 422 and problem details naming it (`move_index`, `code`, `detail`).

        The log may also be sent in the text notation of docs/NOTATION.md (`Content-Type: text/plain;
        charset=utf-8`): it is read into this body and answered alike. Text that is not in the notation is
        answered with 422 `bad-notation` naming its `line` and `column` (and `why`); an illegal move of a
        text log names its line and column too.

        A client that shows only the state and the prompt may ask for the lean answer (`?view=lean`, or
        `Prefer: return=minimal`, API.md v1.3): a `LeanReplayResponse`, marked `"view": "lean"`, with the
        status, each player's points and captured counts, `next`, and the payments; no sentences, no events.
        """,
        request_schema=request_schema,
        response_schema=ReplayResponse,
        response_description="the log is legal so far: the state, the events, and the settlement when it is over",
        answer=replay_answer,
        examples=examples(),
        more_answers={
            "lean-live-hidden-hands": {
                "summary": "?view=lean, or Prefer: return=minimal",
                "value": lean_replay_answer(request_schema.load(LIVE_EXAMPLE)),
            },
        },
        more_doc=more_doc,
        text=read_log,
        check=sound_body,
        view=post_replay,
        reply=express_reply,
    )
