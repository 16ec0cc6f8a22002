"""What a person reads, for tests of engine values: the English sentences the service makes of them, and
card ids."""

from __future__ import annotations

from collections.abc import Iterable

from engine import Card, Check, Event, GoStopError, Payment, Settlement
from service import sentences
from service.i18n import LANGUAGES

ENGLISH = LANGUAGES["en"]


def ids(cards: Iterable[Card]) -> list[str]:
    return [c.id for c in cards]


def detail(err: GoStopError) -> str:
    return sentences.problem_detail(ENGLISH, err)


def event(e: Event) -> str:
    return sentences.event_detail(ENGLISH, e)


def explanation(s: Settlement) -> list[str]:
    return sentences.explanation(ENGLISH, s)


def reason(c: Check, p: Payment, s: Settlement) -> str:
    return sentences.check_reason(ENGLISH, c, p, s)


def name(card_id: str) -> str:
    return sentences.card(ENGLISH, card_id)
