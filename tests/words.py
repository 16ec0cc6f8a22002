"""What a person reads, for tests of engine values: the English sentences the service makes of them, and
card ids."""

from __future__ import annotations

from collections.abc import Iterable

from engine import Card, Check, Event, GoStopError, Payment, Settlement
from service.i18n import LANGUAGES
from service.sentences import names, problems, replay, settlement

ENGLISH = LANGUAGES["en"]


def ids(cards: Iterable[Card]) -> list[str]:
    return [c.id for c in cards]


def detail(err: GoStopError) -> str:
    return problems.detail(ENGLISH, err)


def event(e: Event) -> str:
    return replay.event_detail(ENGLISH, e)


def explanation(s: Settlement) -> list[str]:
    return settlement.explanation(ENGLISH, s)


def reason(c: Check, p: Payment, s: Settlement) -> str:
    return settlement.check_reason(ENGLISH, c, p, s)


def name(card_id: str) -> str:
    return names.card(ENGLISH, card_id)
