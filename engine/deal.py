"""The deal of a hand (RULES.md 4): reading it, checking that it can be, and what it decides at once.

A deal always has its layout (every card turned face up, bonus cards and their replacements included).
The hands and the stock may be unknown, for a physical game logged card by card; a player of such a game
who was dealt a chongtong (총통, four cards of one month) shows them at the deal (``shown``). At a table of
four (RULES.md 4.5), ``sit_out`` says who sat out, and their hand goes under the stock.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, Final, NamedTuple

from .cards import BONUS_CARDS, CARD_BY_ID, MONTH_CARDS, Card, Kind, Place, disjoint
from .errors import CardError, GoStopError, IllegalMoveError, culprit
from .rules import RuleSet
from .sitout import SitOut, check_sit_out, read_sit_out

__all__ = ["Deal", "Placed", "check_deal", "chongtong_holders", "four_of_a_month", "read_deal"]


class Deal(NamedTuple):
    """Card values of a deal; ``hands`` and ``stock`` (top first, before the sitter's hand goes under it) are None
    when unknown; ``sit_out`` the fourth person at a table of three (RULES.md 4.5)."""

    layout: tuple[Card, ...]
    hands: Mapping[str, tuple[Card, ...]] | None = None
    stock: tuple[Card, ...] | None = None
    shown: Mapping[str, tuple[Card, ...]] = MappingProxyType({})
    sit_out: SitOut | None = None


def _bad_deal(why: str, **facts: Any) -> IllegalMoveError:
    return IllegalMoveError("bad-deal", why=why, move_index=None, **facts)


def _as_bad_deal(err: GoStopError) -> IllegalMoveError:
    """A refusal found while checking a deal is reported as a bad deal, saying which rule it broke."""
    return IllegalMoveError("bad-deal", why=err.why, move_index=None, **err.params)


def read_deal(data: Mapping[str, Any]) -> Deal:
    """Card ids of a deal (``layout``, optional ``hands``, ``stock``, ``shown``, ``sit_out``) -> a Deal.

    Raises IllegalMoveError(``bad-deal``) naming an unknown card id and where it was.
    """

    given: dict[str, Any] = data if type(data) is dict else dict(data)  # an exact dict: read in C, compiled
    hands = given.get("hands")
    stock = given.get("stock")
    shown = given.get("shown") or {}
    try:
        sit_out = read_sit_out(given.get("sit_out"))
    except GoStopError as err:
        raise _as_bad_deal(err) from None
    return Deal(
        _cards(given["layout"], "layout"),
        {pid: _cards(ids, "hand", pid) for pid, ids in hands.items()} if hands is not None else None,
        _cards(stock, "stock") if stock is not None else None,
        {pid: _cards(ids, "shown", pid) for pid, ids in shown.items()} if shown else {},
        sit_out,
    )


def _cards(ids: Any, kind: str, player: str | None = None) -> tuple[Card, ...]:
    """The cards of a list of ids, at the place ``kind`` (of ``player``): the Place is made only to name a fault
    (a NamedTuple's constructor is interpreted Python, even compiled)."""
    try:
        return tuple([CARD_BY_ID[x] for x in ids])
    except (KeyError, TypeError):  # not an id, or not even a string: name it
        unknown = next(x for x in ids if not isinstance(x, str) or x not in CARD_BY_ID)
        raise _bad_deal("unknown-card", card=culprit(unknown), place=Place(kind, player)) from None


class Placed(NamedTuple):
    """The cards of a checked deal as masks: the layout, each player's known hand (all of it, or the cards
    shown at the deal from a hidden one; 0 when nothing is known), a known stock (the sitter's hand under it
    included) and the cards known to be in the stock because the sitter showed them (RULES.md 4.5)."""

    layout: int
    hands: dict[str, int]
    stock: int
    sitter: int = 0


def _mask(cards: Sequence[Card]) -> tuple[int, bool]:
    """The cards' mask, and whether every card was a new one (none listed twice)."""
    mask = 0
    for card in cards:
        mask |= card.bit
    return mask, mask.bit_count() == len(cards)


def check_deal(deal: Deal, players: Sequence[str], rules: RuleSet) -> Placed:
    """Refuse a deal that cannot be: IllegalMoveError(``bad-deal``, ``move_index`` None) saying why.

    Returns the cards of each place of the deal it checked: the layout, each known hand (or the cards shown at
    the deal from a hidden one) and a known stock.
    """
    try:
        rules.check_players(list(players))
        check_sit_out(deal.sit_out, players, rules, whole_hand=deal.hands is not None or deal.stock is not None)
    except GoStopError as err:
        raise _as_bad_deal(err) from None
    layout, sound = _mask(deal.layout)
    month_cards = len(deal.layout) - (layout & BONUS_MASK).bit_count()
    if month_cards != rules.layout_size:
        raise _bad_deal("layout-size", count=month_cards, expected=rules.layout_size)
    hands: dict[str, int] = {}
    held = layout
    if deal.hands is not None:
        if len(deal.hands) != len(players) or any(pid not in deal.hands for pid in players):
            raise _bad_deal("hands-for-players", players=list(players), given=list(deal.hands))
        for pid in players:
            cards = deal.hands[pid]
            if len(cards) != rules.hand_size:
                raise _bad_deal("hand-size", player=pid, count=len(cards), expected=rules.hand_size)
            mask, alone = _mask(cards)
            sound = sound and alone and not held & mask
            held |= mask
            hands[pid] = mask
    for pid, cards in deal.shown.items():
        if pid not in players:
            raise _bad_deal("shown-not-player", player=pid)
        if len(cards) != 4 or len({c.month for c in cards}) != 1 or cards[0].kind is Kind.BONUS:
            raise _bad_deal("shown-not-chongtong", player=pid, cards=list(cards))
        mask, alone = _mask(cards)
        if deal.hands is None:
            sound = sound and alone and not held & mask
            held |= mask
            hands[pid] = mask
        elif mask & ~hands[pid]:
            raise _bad_deal("shown-not-dealt", player=pid, cards=list(cards))
    sitter = 0
    if deal.sit_out is not None:  # the sitter's hand, or the cards they showed: under the stock (RULES.md 4.5)
        sitter, alone = _mask(deal.sit_out.hand)
        sound = sound and alone and not held & sitter
        held |= sitter
    stock = 0
    if deal.stock is not None:
        stock, alone = _mask(deal.stock)
        sound = sound and alone and not held & stock
        held |= stock
    if not sound or held & rules.unused_bonus.mask:  # a card twice, or out of play: name it
        _name_the_fault(deal, players, rules)
    if deal.stock is not None:
        expected = len(rules.deck) - len(deal.layout) - (rules.players + (deal.sit_out is not None)) * rules.hand_size
        if len(deal.stock) != expected:
            raise _bad_deal("stock-size", count=len(deal.stock), expected=expected)
        if deal.hands is not None and held.bit_count() != len(rules.deck):
            raise _bad_deal("deck-size", count=held.bit_count(), expected=len(rules.deck))
    return Placed(layout, hands, stock | (sitter if deal.stock is not None else 0), sitter)


def _name_the_fault(deal: Deal, players: Sequence[str], rules: RuleSet) -> None:
    """Raise the bad-deal that names the first card dealt twice, or the first bonus card out of play."""
    groups: list[tuple[Place, Sequence[Card]]] = [(Place("layout"), deal.layout)]
    if deal.hands is not None:
        groups += [(Place("hand", pid), deal.hands[pid]) for pid in players]
    else:
        groups += [(Place("shown", pid), cards) for pid, cards in deal.shown.items()]
    if deal.sit_out is not None:
        groups.append((Place("hand" if deal.hands is not None else "shown", deal.sit_out.player), deal.sit_out.hand))
    if deal.stock is not None:
        groups.append((Place("stock"), deal.stock))
    try:
        placed = disjoint(groups)
        for (place, _), group in zip(groups, placed, strict=True):
            rules.check_in_play(group, owner=place)
    except CardError as err:
        raise _as_bad_deal(err) from None


def four_of_a_month(mask: int) -> int | None:
    """The month of which all four cards are among the cards of ``mask`` (on the layout: ``floor_four``; in a
    dealt hand: chongtong, RULES.md 4), if any."""
    for month, members in _MONTH_MASKS:
        if mask & members == members:
            return month
    return None


BONUS_MASK: Final = BONUS_CARDS.mask
_MONTH_MASKS: Final = tuple((month, MONTH_CARDS[month].mask) for month in range(1, 13))


def chongtong_holders(hands: Mapping[str, int]) -> list[tuple[str, int]]:
    """The players dealt four cards of one month (chongtong 총통, RULES.md 4), with that month."""
    out = []
    for pid, hand in hands.items():
        month = four_of_a_month(hand)
        if month is not None:
            out.append((pid, month))
    return out
