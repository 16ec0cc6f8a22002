"""The table during a hand: the layout by month, each player's seat, the stock, the cards nobody has seen,
and the record of what happened (events and instant payments).

A *seat* holds what one player has: the hand (the cards known to be in it, and how many more nobody has
seen), the captured cards, and the counts that settlement and the rules need (go calls, shakes, bombs,
ppuks, turns, flip turns held after a bomb). The table's operations keep these in step: a capture, a steal
(RULES.md 6), revealing a card, recording an event, an instant payment.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import Card, CardSet, Place
from .events import Event, EventType, InstantPayment
from .rules import RuleSet
from .scoring import Score, evaluate

__all__ = ["Seat", "Table"]


@dataclass(slots=True, eq=False)
class Seat:
    """One player's side of the table. The cards are held as masks (``CardSet.mask``), which every turn
    updates; ``hand`` and ``captured`` give them as CardSets."""

    id: str
    hand_mask: int  # cards known to be in the hand
    hidden: int  # further cards in the hand that nobody has seen
    captured_mask: int = 0
    go_count: int = 0
    go_bar: int | None = None  # the score at the last go: the next decision needs more (RULES.md 7)
    shakes: int = 0
    bombs: int = 0
    ppuk_count: int = 0
    first_ppuks: int = 0  # ppuks on each of the first turns in a row (RULES.md 8, first-turn payments)
    turns: int = 0
    empty_turns: int = 0  # turns in a row that captured nothing (heodang)
    flip_turns: int = 0  # flip-only turns held after a bomb (RULES.md 5)
    sep_animal_as: str | None = None

    @property
    def hand(self) -> CardSet:
        """The cards known to be in the hand."""
        return CardSet.from_mask(self.hand_mask)

    @property
    def captured(self) -> CardSet:
        return CardSet.from_mask(self.captured_mask)

    @property
    def hand_size(self) -> int:
        return self.hand_mask.bit_count() + self.hidden

    def score(self, rules: RuleSet) -> Score:
        """The seat's combination score now (RULES.md 2-3)."""
        return evaluate(self.captured, rules, self.sep_animal_as)


class Table:
    """The cards on the table and the record of the hand. ``stock`` is None when it is not known."""

    def __init__(
        self,
        rules: RuleSet,
        seats: Sequence[Seat],
        stock: Sequence[Card] | None,
        unseen: CardSet,
        stock_left: int,
    ) -> None:
        self.rules = rules
        self.seats = list(seats)
        self.layout: list[list[Card]] = [[] for _ in range(13)]  # by month; index 0 (bonus cards) stays empty
        self.stack_maker: dict[int, str | None] = {}  # month -> who made the ppuk (None: a dealt stack)
        self.stock = list(stock) if stock is not None else None
        self.stock_pos = 0  # the top of a known stock
        self.stock_left = stock_left
        self.unseen = unseen
        self.seen_at: dict[int, int | None] = {}  # card index -> the move that revealed it (absent: the deal)
        self.events: list[Event] = []
        self.instant_payments: list[InstantPayment] = []

    # --- looking -----------------------------------------------------------------------------------------

    def seat(self, player: str) -> Seat:
        for seat in self.seats:
            if seat.id == player:
                return seat
        raise KeyError(player)

    def layout_cards(self) -> CardSet:
        return CardSet(card for month in self.layout for card in month)

    def stock_top(self, offset: int = 0) -> Card | None:
        """The card ``offset`` below the top of a known stock (None past its end)."""
        assert self.stock is not None
        pos = self.stock_pos + offset
        return self.stock[pos] if pos < len(self.stock) else None

    def locate(self, card: Card) -> Place:
        """Where a card nobody may play any more was seen: on the layout, in whose captures or hand, in the
        stock, or played; with the move that revealed it."""
        when = self.seen_at.get(card.index)
        if card in self.layout[card.month]:
            return Place("layout", None, when)
        for seat in self.seats:
            if seat.captured_mask & card.bit:
                return Place("captured", seat.id, when)
            if seat.hand_mask & card.bit:
                return Place("shown" if seat.hidden else "hand", seat.id, when)
        if self.stock is not None and card in self.stock[self.stock_pos :]:
            return Place("stock", None, when)
        return Place("played", None, when)

    # --- changing ----------------------------------------------------------------------------------------

    def record(self, move_index: int | None, player: str | None, type_: EventType, **data: Any) -> None:
        self.events.append(Event(move_index, player, type_, data))

    def reveal(self, cards: Iterable[Card], move_index: int | None) -> None:
        """Cards come into view (played from a hidden hand, flipped from a hidden stock, shown)."""
        unseen = self.unseen.mask
        for card in cards:
            if unseen & card.bit:
                unseen &= ~card.bit
                self.seen_at[card.index] = move_index
        self.unseen = CardSet.from_mask(unseen)

    def capture(self, seat: Seat, cards: Iterable[Card]) -> None:
        for card in cards:
            seat.captured_mask |= card.bit

    def steal(self, taker: Seat, units: int, cause: EventType, move_index: int) -> None:
        """Take ``units`` junk units from each opponent for ``cause`` (RULES.md 6): the cheapest card first,
        ties in catalog order; a double junk pays 2 at once; the cup, an animal, is never taken."""
        if units <= 0:
            return
        for victim in self.seats:
            if victim is taker:
                continue
            have_all = victim.captured_mask
            taken = 0
            owed = units
            for value, group in enumerate(self.rules.junk_masks, start=1):  # cheapest first
                have = have_all & group
                while have and owed > 0:
                    low = have & -have
                    taken |= low
                    have ^= low
                    owed -= value
            if not taken:
                continue
            victim.captured_mask = have_all & ~taken
            taker.captured_mask |= taken
            cards = list(CardSet.from_mask(taken))
            self.record(move_index, taker.id, EventType.STEAL, **{"from": victim.id, "cards": cards, "cause": cause})

    def pay_each(self, payee: Seat, points: int, reason: str, turns: int, move_index: int) -> None:
        """Every opponent pays ``payee`` at once, outside the hand's result (RULES.md 8)."""
        for other in self.seats:
            if other is not payee:
                self.instant_payments.append(InstantPayment(other.id, payee.id, points, reason, turns, move_index))
