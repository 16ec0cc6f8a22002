"""Engine values -> the JSON of the answers, through the engine's public API only, in the asked language.

Each shape is made here once; ``service.responses`` documents it (and a test holds the two together).
Card values become ids, facts stay numbers, and every sentence comes from ``service.sentences``.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from functools import lru_cache
from typing import Any

from engine import (
    CARDS,
    ENGINE_VERSION,
    PRESETS,
    Card,
    CardSet,
    Check,
    Event,
    Expect,
    GameState,
    GoStopError,
    IllegalMoveError,
    InstantPayment,
    Payment,
    Place,
    Replay,
    RuleSet,
    Score,
    Settlement,
)

from . import sentences
from .i18n import LANGUAGES, Words

TYPE_BASE = "https://gostop.dev/problems/"


@lru_cache(maxsize=256)
def _rules_body(rules: RuleSet) -> dict[str, Any]:
    return rules.asdict()


def echo(rules: RuleSet) -> dict[str, Any]:
    """The ``rules`` and ``engine_version`` every rules-dependent answer carries."""
    return {"rules": _rules_body(rules), "engine_version": ENGINE_VERSION}


def _json(value: Any) -> Any:
    """A fact as JSON: cards as ids."""
    if isinstance(value, Card):
        return value.id
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, (list, tuple, CardSet)):
        return [_json(v) for v in value]
    return value


def score_json(w: Words, s: Score) -> dict[str, Any]:
    return {
        "total": s.total,
        "items": [{"combination": i.combination.value, "points": i.points, "cards": i.cards.ids()} for i in s.items],
        "counts": {"brights": s.brights, "animals": s.animals, "ribbons": s.ribbons, "junk_units": s.junk_units},
        "sep_animal_as": s.sep_animal_as,
        "explanation": sentences.score_explanation(w, s, s.shortfalls),
    }


def _check_json(w: Words, c: Check, p: Payment, s: Settlement) -> dict[str, Any]:
    return {
        "rule": c.rule,
        "applied": c.applied,
        "factor": c.factor,
        "reason": sentences.check_reason(w, c, p, s),
        "facts": dict(c.facts),
    }


def settlement_json(w: Words, s: Settlement) -> dict[str, Any]:
    payments = []
    for p in s.payments:
        checks = [_check_json(w, c, p, s) for c in p.checks]
        payments.append(
            {
                "from": p.payer,
                "to": p.payee,
                "points": p.points,
                "amount": p.amount,
                "factors": [
                    {"rule": c["rule"], "factor": c["factor"], "reason": c["reason"]} for c in checks if c["applied"]
                ],
                "checks": checks,
                "covers": [{"player": who, "points": pts} for who, pts in p.covers],
            }
        )
    return {
        "outcome": s.outcome.value,
        "winner": s.winner,
        "score": score_json(w, s.score) if s.score is not None else None,
        "base_points": s.base_points,
        "payments": payments,
        "explanation": sentences.explanation(w, s),
    }


def event_json(w: Words, e: Event) -> dict[str, Any]:
    return {
        "move_index": e.move_index,
        "player": e.player,
        "type": e.type.value,
        "detail": sentences.event_detail(w, e),
        **{key: _json(value) for key, value in e.data.items()},
    }


def instant_payment_json(w: Words, p: InstantPayment, stake: int) -> dict[str, Any]:
    return {
        "from": p.payer,
        "to": p.payee,
        "points": p.points,
        "amount": p.points * stake,
        "code": p.reason,
        "turns": p.turns,
        "reason": sentences.instant_reason(w, p),
        "move_index": p.move_index,
    }


def next_json(w: Words, state: GameState, *, nagari_streak: int, stake: int) -> dict[str, Any] | None:
    """Who moves next and what the log must say; at a go/stop decision, what each call would mean."""
    player = state.to_move
    if player is None or state.expects is None:
        return None
    out: dict[str, Any] = {"player": player, "expects": state.expects.value}
    if state.expects is Expect.CALL:
        out["if_stop"] = settlement_json(w, state.settle_if_stop(nagari_streak, stake))
        go_count = next(seat.go_count for seat in state.seats if seat.id == player) + 1
        gobak = state.rules.gobak
        out["if_go"] = {
            "go_count": go_count,
            "gobak": gobak,
            "reason": sentences.if_go_reason(w, player, go_count, gobak),
        }
    if state.deal_is_known:
        out["legal"] = [move.to_dict() for move in state.legal_moves()]
    return out


def replay_json(w: Words, r: Replay, *, nagari_streak: int, stake: int) -> dict[str, Any]:
    state = r.state
    return {
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
            }
            for seat in state.seats
        ],
        "layout": state.layout_cards().ids(),
        "stock_left": state.stock_left,
        "events": [event_json(w, e) for e in state.events],
        "instant_payments": [instant_payment_json(w, p, stake) for p in state.instant_payments],
        "next": next_json(w, state, nagari_streak=nagari_streak, stake=stake),
        "settlement": settlement_json(w, r.settlement) if r.settlement is not None else None,
    }


def card_names(card: Card) -> dict[str, str]:
    """A card's name in every language of the service (``/v1/cards``)."""
    return {lang: sentences.card(words, card) for lang, words in LANGUAGES.items()}


CARDS_BODY: dict[str, Any] = {
    "cards": [
        {
            "id": c.id,
            "month": c.month or None,
            "kind": c.kind.value,
            "junk_units": c.junk_units,
            "tags": list(c.tags),
            "names": card_names(c),
        }
        for c in CARDS
    ]
}


def presets_json(w: Words) -> dict[str, Any]:
    return {
        "presets": [
            {"name": name, "description": sentences.preset_description(w, name), "players": rules.players}
            for name, rules in PRESETS.items()
        ]
    }


def _place_json(p: Place) -> dict[str, Any]:
    return {"place": p.kind, "player": p.player, "move_index": p.move_index}


def problem_body(w: Words, err: GoStopError) -> dict[str, Any]:
    """The problem details (RFC 9457) of an engine refusal: always 422, with the stable ``code``."""
    slug = "illegal-move" if isinstance(err, IllegalMoveError) else err.code
    body: dict[str, Any] = {
        "type": TYPE_BASE + slug,
        "title": sentences.problem_title(w, type(err).__name__),
        "status": 422,
        "detail": sentences.problem_detail(w, err),
        "code": err.code,
        **err.context,
    }
    extra: Mapping[str, Any] = err.params
    if isinstance(extra.get("seen"), Place):
        body["seen"] = _place_json(extra["seen"])
    for key in ("choices", "presets"):
        if key in extra:
            body[key] = list(extra[key])
    return body
