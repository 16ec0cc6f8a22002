"""The table during a hand: each player's seat, the events of the log and the instant payments.

A *seat* holds what one player has: the hand (the cards known to be in it, and how many more nobody has
seen), the captured cards, and the counts that settlement and the rules need (go calls, shakes, bombs,
ppuks, turns, flip-only turns owed after a bomb).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from .cards import Card

__all__ = ["Event", "InstantPayment", "Seat", "card_list"]


class Event(NamedTuple):
    """Something that happened, with the index of the move that caused it (None: at the deal)."""

    move_index: int | None
    player: str | None
    type: str
    detail: str
    data: Mapping[str, Any]


class InstantPayment(NamedTuple):
    """A first-turn ppuk or ttadak payment: paid at once, outside the hand's result (RULES.md 8)."""

    payer: str
    payee: str
    points: int
    reason: str
    move_index: int


@dataclass(slots=True)
class Seat:
    """One player's side of the table."""

    id: str
    hand: set[Card]  # cards known to be in the hand
    hidden: int  # further cards in the hand that nobody has seen
    captured: list[Card] = field(default_factory=list)
    go_count: int = 0
    go_bar: int | None = None  # the score at the last go: the next decision needs more
    shakes: int = 0
    bombs: int = 0
    ppuk_count: int = 0
    ppuk_streak: int = 0  # ppuks on each of the first turns in a row
    turns: int = 0
    empty_turns: int = 0  # turns in a row that captured nothing (heodang)
    flip_turns: int = 0
    sep_animal_as: str | None = None
    mask: int = 0  # the captured cards as a bitmask, kept in step with ``captured`` for fast scoring
    checked_mask: int = 0  # the captures at the last go/stop check
    checked_pin: str | None = None

    @property
    def hand_size(self) -> int:
        return len(self.hand) + self.hidden

    def gain(self, cards: Sequence[Card]) -> None:
        self.captured.extend(cards)
        mask = self.mask
        for card in cards:
            mask |= card.bit
        self.mask = mask

    def lose(self, card: Card) -> None:
        self.captured.remove(card)
        self.mask &= ~card.bit


def card_list(cards: Iterable[Card]) -> str:
    """Card ids for a sentence: "jan-bright, jan-junk-1"."""
    return ", ".join(c.id for c in cards)
