"""Four at a table of three (RULES.md 4.5): who sits out, and the sale of the brights (광팔기, gwang-palgi).

Go-Stop is played by three. With four people at the table (knob ``gwang_palgi``) all four are dealt; the dealer
(선) always plays, and the next players, in turn, may sit out (죽다) so that three play. When neither the second
nor the third sits out, the fourth must, and *sells their brights* (광을 판다): each of the two players other
than the dealer, who chose to play, pays the seller the value of that hand. The value is one point for each
bright and each bonus card in it, plus the points of the combinations it already holds (RULES.md 2, as if it
had been captured), all doubled when it holds three cards of one month. Whoever sits out puts their hand face
down under the stock, so the three play with the stock of a three-player deal.

A hand at such a table is told as the three who play (``players``, in turn order, the dealer first, as for any
hand) and one ``SitOut``: who sat out, their seat counted from the dealer (2, 3 or 4), and their hand: all of it
when the deal is known, or the cards the seller showed when it is not.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from .cards import BRIGHTS, CARD_BY_ID, Card, CardSet, Kind, Place, parse_cards
from .errors import HandError
from .events import InstantPayment
from .record import Record
from .rules import RuleSet
from .scoring import Score, evaluate

__all__ = ["SALE", "SELLING_SEAT", "Sale", "SitOut", "check_sit_out", "read_sit_out", "sale_of"]

SELLING_SEAT: Final = 4  # the seat that must sit out, and sells, when nobody before it did
SALE: Final = "gwang-sale"  # the reason of the sale's instant payments (RULES.md 8.6)
_SEATS: Final = (2, 3, SELLING_SEAT)  # the dealer, seat 1, always plays
_BRIGHTS: Final = BRIGHTS.mask


class SitOut(Record):
    """The fourth person at a table of three: who (``player``), their ``seat`` counted from the dealer (2, 3 or
    4) and the cards of their ``hand`` that are known, in the order given (all seven with a known deal, which go
    under the stock in that order; the cards shown for the sale otherwise). ``sells``: they sat out because
    nobody before them did, so they sell their brights."""

    __slots__ = ("hand", "player", "seat")
    fields = ("player", "seat", "hand")

    def __init__(self, player: str, seat: int, hand: tuple[Card, ...] = ()) -> None:
        self.player: Final = player
        self.seat: Final = seat
        self.hand: Final = hand

    @property
    def cards(self) -> CardSet:
        return CardSet(self.hand)

    @property
    def sells(self) -> bool:
        return self.seat == SELLING_SEAT


class Sale(Record):
    """What the seller's hand is worth and who pays it (RULES.md 4.5): ``brights`` and ``bonus_cards`` one point
    each, ``combinations`` the points the hand holds (RULES.md 2), ``month`` the month of which it holds three
    (None: the value is not doubled), ``value`` the points each of the ``payers`` pays the ``seller``;
    ``scored``: the hand's combinations as scored for ``combinations`` (None under a price per bright), which
    the words name one by one."""

    __slots__ = ("bonus_cards", "brights", "cards", "combinations", "month", "payers", "scored", "seller", "value")
    fields = ("seller", "payers", "cards", "brights", "bonus_cards", "combinations", "month", "value", "scored")

    def __init__(
        self,
        seller: str,
        payers: tuple[str, ...],
        cards: CardSet,
        brights: int,
        bonus_cards: int,
        combinations: int,
        month: int | None,
        value: int,
        scored: Score | None = None,
    ) -> None:
        self.seller: Final = seller
        self.payers: Final = payers
        self.cards: Final = cards
        self.brights: Final = brights
        self.bonus_cards: Final = bonus_cards
        self.combinations: Final = combinations
        self.month: Final = month
        self.value: Final = value
        self.scored: Final = scored

    def payments(self, move_index: int | None = None) -> list[InstantPayment]:
        """The sale as instant payments (RULES.md 8.6): each payer pays the value, at the deal."""
        if not self.value:
            return []
        return [InstantPayment(payer, self.seller, self.value, SALE, 0, move_index) for payer in self.payers]


def _refuse(why: str, **facts: Any) -> HandError:
    return HandError("sit-out-not-allowed", why=why, **facts)


def read_sit_out(data: Any) -> SitOut | None:
    """``{"player": id, "seat": 2 | 3 | 4, "hand": [card ids]}`` -> a SitOut (None for None). Raises HandError
    (``sit-out-not-allowed``) for a shape that is none, CardError for an unknown card or one listed twice."""
    if data is None:
        return None
    if isinstance(data, SitOut):
        return data
    if not isinstance(data, Mapping):
        raise _refuse("not-an-object")
    player, seat = data.get("player"), data.get("seat")
    if not isinstance(player, str) or not player:
        raise _refuse("no-player")
    if type(seat) is float and seat.is_integer():  # a seat written 3.0 is 3, as the API reads it
        seat = int(seat)
    if type(seat) is not int:
        raise _refuse("seat", player=player, seat=repr(seat))
    hand = data.get("hand") or ()
    if not isinstance(hand, (list, tuple)):
        raise _refuse("hand-not-a-list", player=player)
    parse_cards(hand, owner=Place("shown", player))  # an unknown card, or one listed twice, is refused here
    return SitOut(player, seat, tuple(c if isinstance(c, Card) else CARD_BY_ID[c] for c in hand))


def check_sit_out(sit_out: SitOut | None, players: Sequence[str], rules: RuleSet, *, whole_hand: bool) -> None:
    """Refuse a sitter the rules or the table cannot have: HandError ``sit-out-not-allowed`` (``why``: the rules
    seat no fourth, the sitter is playing, a seat that cannot sit out, a hand of the wrong size). ``whole_hand``:
    the deal is known, so is the hand. No sitter at all is a hand of the three alone, in which nobody sold."""
    if sit_out is None:
        return
    player = sit_out.player
    if not rules.gwang_palgi:
        raise _refuse("off", player=player, knob="gwang_palgi")
    if player in players:
        raise _refuse("is-playing", player=player)
    if sit_out.seat not in _SEATS:
        raise _refuse("seat", player=player, seat=sit_out.seat)
    size = len(sit_out.hand)
    if size > rules.hand_size or (whole_hand and size != rules.hand_size):
        raise _refuse("hand-size", player=player, count=size, expected=rules.hand_size)
    rules.check_in_play(sit_out.cards, owner=Place("shown", player))


def sale_of(sit_out: SitOut | None, players: Sequence[str], rules: RuleSet) -> Sale | None:
    """The sale of the brights (RULES.md 4.5): None unless the sitter is the fourth, who sells; the players
    other than the dealer pay the hand's value, or with ``bright_sale_price`` every player pays that price for
    each bright."""
    if sit_out is None or not sit_out.sells:
        return None
    hand = sit_out.cards
    brights = (hand.mask & _BRIGHTS).bit_count()
    if rules.bright_sale_price:  # a price per bright, paid by each of the three who play (RULES.md 4.5)
        value = brights * rules.bright_sale_price
        return Sale(sit_out.player, tuple(players), hand, brights, 0, 0, None, value)
    bonus = sum(1 for card in hand if card.kind is Kind.BONUS)
    scored = evaluate(hand, rules, shortfalls=False)
    month = _three_of_a_month(hand)
    value = (brights + bonus + scored.total) * (2 if month is not None else 1)
    return Sale(sit_out.player, tuple(players[1:]), hand, brights, bonus, scored.total, month, value, scored)


def _three_of_a_month(hand: CardSet) -> int | None:
    counts: dict[int, int] = {}
    for card in hand:
        if card.kind is not Kind.BONUS:
            counts[card.month] = counts.get(card.month, 0) + 1
    return next((m for m, n in sorted(counts.items()) if n >= 3), None)
