"""The table during a hand: the layout by month, each player's seat, the stock, the cards nobody has seen,
and the record of what happened (events and instant payments).

A *seat* holds what one player has: the hand (the cards known to be in it, and how many more nobody has
seen), the captured cards, and the counts that settlement and the rules need (go calls, shakes, bombs and
two-card bombs, ppuks, turns, flip turns held after a bomb). The table's operations keep these in step: laying a card on
the layout and lifting it, a capture, a steal (RULES.md 6), revealing cards, recording an event, an instant
payment.

Cards are held as masks (bit i = the card of catalog index i, as in ``CardSet``) wherever a turn changes
them: a seat's hand and captures, the layout, the cards nobody has seen. The layout also keeps, month by
month, the order in which its cards arrived, which the events report.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from .cards import CARDS, CUP, Card, CardSet, Place, popcount
from .events import Event, EventType, InstantPayment
from .rules import RuleSet
from .scoring import Score, cup_as_junk, evaluate

__all__ = ["Seat", "Table"]

STEAL: Final = EventType.STEAL
STACK_CAPTURE: Final = EventType.STACK_CAPTURE
_CUP: Final = CUP.bit


class Seat:
    """One player's side of the table. The cards are held as masks (``CardSet.mask``), which every turn
    updates; ``hand`` and ``captured`` give them as CardSets."""

    __slots__ = (
        "bombs",
        "captured_mask",
        "checked_mask",
        "checked_pin",
        "empty_turns",
        "first_ppuks",
        "flip_turns",
        "go_bar",
        "go_count",
        "hand_mask",
        "hidden",
        "id",
        "ppuk_count",
        "sep_animal_as",
        "shakes",
        "turns",
        "two_card_bombs",
    )

    def __init__(self, id: str, hand_mask: int, hidden: int) -> None:
        self.id = id
        self.hand_mask = hand_mask  # cards known to be in the hand
        self.hidden = hidden  # further cards in the hand that nobody has seen
        self.captured_mask = 0
        self.go_count = 0
        self.go_bar: int | None = None  # the score at the last go: the next decision needs more (RULES.md 7)
        self.shakes = 0
        self.bombs = 0
        self.two_card_bombs = 0  # RULES.md 5.5
        self.ppuk_count = 0
        self.first_ppuks = 0  # ppuks on each of the first turns in a row (RULES.md 8, first-turn payments)
        self.turns = 0
        self.empty_turns = 0  # turns in a row that captured nothing (heodang)
        self.flip_turns = 0  # flip-only turns held after a bomb (RULES.md 5)
        self.sep_animal_as: str | None = None
        self.checked_mask = 0  # the captures and the cup's pin at the last go/stop check of the game
        self.checked_pin: str | None = None

    def copy(self) -> Seat:
        out = Seat(self.id, self.hand_mask, self.hidden)
        out.captured_mask, out.go_count, out.go_bar = self.captured_mask, self.go_count, self.go_bar
        out.shakes, out.bombs, out.ppuk_count, out.first_ppuks = (
            self.shakes,
            self.bombs,
            self.ppuk_count,
            self.first_ppuks,
        )
        out.turns, out.empty_turns, out.flip_turns = self.turns, self.empty_turns, self.flip_turns
        out.two_card_bombs = self.two_card_bombs
        out.sep_animal_as = self.sep_animal_as
        out.checked_mask, out.checked_pin = self.checked_mask, self.checked_pin
        return out

    def __copy__(self) -> Seat:
        return self.copy()

    def __deepcopy__(self, memo: object) -> Seat:
        return self.copy()

    @property
    def hand(self) -> CardSet:
        """The cards known to be in the hand."""
        return CardSet.from_mask(self.hand_mask)

    @property
    def captured(self) -> CardSet:
        return CardSet.from_mask(self.captured_mask)

    @property
    def hand_size(self) -> int:
        return popcount(self.hand_mask) + self.hidden

    def score(self, rules: RuleSet) -> Score:
        """The seat's combination score now (RULES.md 2-3)."""
        return evaluate(self.captured, rules, self.sep_animal_as)

    def __repr__(self) -> str:
        return f"Seat({self.id!r}, hand={self.hand.ids()}, hidden={self.hidden}, captured={self.captured.ids()})"


class Table:
    """The cards on the table and the record of the hand. ``stock`` is None when it is not known."""

    def __init__(
        self,
        rules: RuleSet,
        seats: Sequence[Seat],
        stock: Sequence[Card] | None,
        unseen: int,
        stock_left: int,
    ) -> None:
        self.rules = rules
        self.seats = list(seats)
        self.layout: list[list[Card]] = [[] for _ in range(13)]  # by month, in order of arrival; 0 stays empty
        self.layout_mask = 0  # the same cards as a mask
        self.stack_maker: dict[int, str | None] = {}  # month -> who made the ppuk (None: a dealt stack)
        self.under: dict[int, list[Card]] = {}  # month -> bonus cards lying under its ppuk (RULES.md 5.2)
        self.in_stock = 0  # cards known to be in a hidden stock: a sitter's, shown for the sale (RULES.md 4.5)
        self.stock = tuple(stock) if stock is not None else None
        self.stock_pos = 0  # the top of a known stock
        self.stock_left = stock_left
        self.unseen = unseen  # mask of the cards nobody has seen (hidden hands, hidden stock)
        self.revealed: list[tuple[int, int]] = []  # (move index, mask of the cards it brought into view)
        self.events: list[Event] = []
        self.instant_payments: list[InstantPayment] = []

    def copy(self) -> Table:
        """An independent copy: the same cards (cards are values) in new piles and records."""
        out = Table(self.rules, [seat.copy() for seat in self.seats], self.stock, self.unseen, self.stock_left)
        out.layout = [list(month) for month in self.layout]
        out.layout_mask = self.layout_mask
        out.stack_maker = dict(self.stack_maker)
        out.under = {month: list(cards) for month, cards in self.under.items()}
        out.in_stock = self.in_stock
        out.stock_pos = self.stock_pos
        out.revealed = list(self.revealed)
        out.events = list(self.events)
        out.instant_payments = list(self.instant_payments)
        return out

    def __copy__(self) -> Table:
        return self.copy()

    def __deepcopy__(self, memo: object) -> Table:
        return self.copy()

    # --- looking -----------------------------------------------------------------------------------------

    def seat(self, player: str) -> Seat:
        for seat in self.seats:
            if seat.id == player:
                return seat
        raise KeyError(player)

    def layout_cards(self) -> CardSet:
        return CardSet.from_mask(self.layout_mask)

    def stock_top(self, offset: int = 0) -> Card | None:
        """The card ``offset`` below the top of a known stock (None past its end)."""
        stock = self.stock
        assert stock is not None
        pos = self.stock_pos + offset
        return stock[pos] if pos < len(stock) else None

    def locate(self, card: Card) -> Place:
        """Where a card nobody may play any more was seen: on the layout, in whose captures or hand, in the
        stock, or played; with the move that revealed it."""
        when = next((i for i, mask in self.revealed if mask & card.bit), None)
        if self.layout_mask & card.bit:
            return Place("layout", None, when)
        for seat in self.seats:
            if seat.captured_mask & card.bit:
                return Place("captured", seat.id, when)
            if seat.hand_mask & card.bit:
                return Place("shown" if seat.hidden else "hand", seat.id, when)
        if (self.stock is not None and card in self.stock[self.stock_pos :]) or self.in_stock & card.bit:
            return Place("stock", None, when)
        return Place("played", None, when)

    # --- changing ----------------------------------------------------------------------------------------

    def lay(self, card: Card) -> None:
        """Put a card face up on the layout, beside the others of its month."""
        self.layout[card.month].append(card)
        self.layout_mask |= card.bit

    def lift(self, month: int) -> list[Card]:
        """Take every card of a month off the layout, with any bonus card under its stack; returns them in the
        order they arrived, the bonus cards last."""
        here = self.layout[month]
        self.layout[month] = []
        if self.under and month in self.under:
            here = here + self.under.pop(month)
        for card in here:
            self.layout_mask &= ~card.bit
        return here

    def put_under(self, month: int, card: Card) -> None:
        """Put a bonus card on the layout under the stack of a month, to go with it (RULES.md 5.2)."""
        self.under.setdefault(month, []).append(card)
        self.layout_mask |= card.bit

    def lift_one(self, card: Card) -> None:
        """Take one card off the layout."""
        self.layout[card.month].remove(card)
        self.layout_mask &= ~card.bit

    def record(self, move_index: int | None, player: str | None, type_: EventType, **data: Any) -> None:
        self.events.append(Event(move_index, player, type_, data))

    def reveal(self, mask: int, move_index: int) -> None:
        """Cards come into view (played from a hidden hand, flipped from a hidden stock, shown)."""
        self.in_stock &= ~mask
        newly = self.unseen & mask
        if newly:
            self.unseen &= ~newly
            self.revealed.append((move_index, newly))

    def steal(self, taker: Seat, units: int, cause: EventType, move_index: int, maker: str | None = None) -> None:
        """Take ``units`` junk units from each opponent for ``cause`` (RULES.md 6): the cheapest card first,
        ties in catalog order; a double junk pays 2 at once; the cup, an animal, is not taken (unless the rules
        let a steal take it while its owner counts it as double junk). A steal for a stack capture says whose
        ppuk the stack was (``maker``; None: dealt on the layout)."""
        if units <= 0:
            return
        rules = self.rules
        for victim in self.seats:
            if victim is taker:
                continue
            have_all = victim.captured_mask
            taken = 0
            owed = units
            ones, twos, threes = rules.junk_masks
            if have_all & _CUP and rules.sep_animal_stealable and cup_as_junk(have_all, rules, victim.sep_animal_as):
                twos |= _CUP  # RULES.md 6: the cup counted as double junk may go as one
            value = 1
            for group in (ones, twos, threes):  # cheapest first: 1, 2, then 3 units
                have = have_all & group
                while have and owed > 0:
                    low = have & -have
                    taken |= low
                    have ^= low
                    owed -= value
                value += 1
            if not taken:  # RULES.md 6: nothing to give; the event says why (the cup alone is never taken)
                why = "cup-only" if have_all & _CUP else "no-junk"
                self.spare(cause, move_index, victim.id, why)
                continue
            victim.captured_mask = have_all & ~taken
            taker.captured_mask |= taken
            cards = [CARDS[i] for i in _bits(taken)]
            if cause is STACK_CAPTURE:
                self.record(
                    move_index, taker.id, STEAL, **{"from": victim.id, "cards": cards, "cause": cause, "maker": maker}
                )
            else:
                self.record(move_index, taker.id, STEAL, **{"from": victim.id, "cards": cards, "cause": cause})

    def spare(self, cause: EventType, move_index: int, victim: str | None, why: str) -> None:
        """Note on the event that would have stolen that it took nothing from ``victim`` (None: from nobody, as on
        a last turn), and why: ``spared`` maps each victim (or "all") to ``cup-only``, ``no-junk`` or
        ``last-turn``, so that a steal that did not happen is explained, not silent."""
        for event in reversed(self.events):
            if event.move_index != move_index:
                break
            if event.type is cause and isinstance(event.data, dict):  # the data recorded here, a dict
                event.data.setdefault("spared", {})[victim or "all"] = why
                return

    def pay_each(self, payee: Seat, points: int, reason: str, turns: int, move_index: int) -> None:
        """Every opponent pays ``payee`` at once, outside the hand's result (RULES.md 8)."""
        for other in self.seats:
            if other is not payee:
                self.instant_payments.append(InstantPayment(other.id, payee.id, points, reason, turns, move_index))


def _bits(mask: int) -> list[int]:
    """The indices of the set bits, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
