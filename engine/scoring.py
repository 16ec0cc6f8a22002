"""Combination score of one player's captured cards (RULES.md 2 and 3).

Combinations add up: brights (gwang 광), animals (yeol 열끗), godori (고도리, the three birds), ribbons
(tti 띠), the three ribbon sets hongdan (홍단, red poem), cheongdan (청단, blue) and chodan (초단, plain red),
and junk (pi 피) counted in units. The cup (``sep-animal``) is placed as an animal or as a double junk,
never both.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import NamedTuple

from .cards import ANIMAL, BONUS, BRIGHT, CARDS, CUP, JUNK, RIBBON, Card, cards_of, mask_of
from .rules import RuleSet

__all__ = ["COMBINATIONS", "Item", "Score", "junk_units", "score", "score_mask", "total"]

COMBINATIONS = ("brights", "animals", "godori", "ribbons", "hongdan", "cheongdan", "chodan", "junk")
_SET_POINTS = {"godori": 5, "hongdan": 3, "cheongdan": 3, "chodan": 3}
_CUP_AS_JUNK_UNITS = 2


class Item(NamedTuple):
    """One scoring combination: its name, points and (as a card mask) the cards that make it."""

    combination: str
    points: int
    mask: int

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards of the combination, in catalog order."""
        return cards_of(self.mask)


class Score(NamedTuple):
    """A player's combination score. ``sep_animal_as`` is "animal", "junk", or None without the cup."""

    total: int
    items: tuple[Item, ...]
    brights: int
    animals: int
    ribbons: int
    junk_units: int
    sep_animal_as: str | None

    def points(self, combination: str) -> int:
        """Points of one combination (0 when it does not score)."""
        for item in self.items:
            if item.combination == combination:
                return item.points
        return 0


def junk_units(card: Card, rules: RuleSet) -> int:
    """Units a junk or bonus card is worth under these rules (RULES.md 1)."""
    if card.kind == BONUS:
        return card.junk_units
    if card.kind != JUNK:
        return 0
    return card.junk_units if rules.double_junk else 1


def _mask(pred: Callable[[Card], bool]) -> int:
    return mask_of(c for c in CARDS if pred(c))


# One bit per card (bit i = catalog index i): counting a combination is a mask and a popcount.
_BRIGHTS = _mask(lambda c: c.kind == BRIGHT)
_RAIN = _mask(lambda c: "rain" in c.tags)
_ANIMALS = _mask(lambda c: c.kind == ANIMAL and c is not CUP)
_RIBBONS = _mask(lambda c: c.kind == RIBBON)
_JUNK = _mask(lambda c: c.kind in (JUNK, BONUS))
_SINGLE = _mask(lambda c: c.kind == JUNK and c.junk_units == 1)
_DOUBLE = _mask(lambda c: c.kind == JUNK and c.junk_units == 2)
_BONUS2 = _mask(lambda c: c.kind == BONUS and c.junk_units == 2)
_BONUS3 = _mask(lambda c: c.kind == BONUS and c.junk_units == 3)
_CUP = 1 << CUP.index
_SETS = tuple((name, mask_of(c for c in CARDS if name in c.tags), pts) for name, pts in _SET_POINTS.items())
_GODORI, _RIBBON_SETS = _SETS[0], _SETS[1:]  # godori is listed before ribbons, the ribbon sets after
_SET_MASKS = tuple((members, points) for _, members, points in _SETS)


def _evaluate(mask: int, animals: int, junk: int, units: int) -> tuple[int, tuple[Item, ...]]:
    items: list[Item] = []
    brights = mask & _BRIGHTS
    n = brights.bit_count()
    if n >= 3:
        # three brights with the rain bright score 2 (RULES.md 2)
        points = 15 if n >= 5 else 4 if n == 4 else 2 if brights & _RAIN else 3
        items.append(Item("brights", points, brights))
    n = animals.bit_count()
    if n >= 5:
        items.append(Item("animals", n - 4, animals))
    name, members, points = _GODORI
    if mask & members == members:
        items.append(Item(name, points, members))
    ribbons = mask & _RIBBONS
    n = ribbons.bit_count()
    if n >= 5:
        items.append(Item("ribbons", n - 4, ribbons))
    for name, members, points in _RIBBON_SETS:
        if mask & members == members:
            items.append(Item(name, points, members))
    if units >= 10:
        items.append(Item("junk", units - 9, junk))
    return sum(item.points for item in items), tuple(items)  # in COMBINATIONS order


# Per double_junk: the masks of the cards worth 1, 2 and 3 junk units.
_UNIT_MASKS = {True: (_SINGLE, _DOUBLE | _BONUS2, _BONUS3), False: (_SINGLE | _DOUBLE, _BONUS2, _BONUS3)}


def _units(mask: int, rules: RuleSet) -> int:
    one, two, three = _UNIT_MASKS[rules.double_junk]
    return (mask & one).bit_count() + (mask & two).bit_count() * 2 + (mask & three).bit_count() * 3


def total(mask: int, rules: RuleSet, sep_animal_as: str | None = None) -> int:
    """``score(...).total`` of a card mask, the cup placed the same way, without building line items.

    The go/stop check runs after every turn of a replay, so this is written for speed: only the animal
    count and the junk units depend on where the cup goes.
    """
    units = _units(mask, rules)
    points = 0
    brights = mask & _BRIGHTS
    n = brights.bit_count()
    if n >= 3:
        points += 15 if n >= 5 else 4 if n == 4 else 2 if brights & _RAIN else 3
    n = (mask & _RIBBONS).bit_count()
    if n >= 5:
        points += n - 4
    for members, set_points in _SET_MASKS:
        if mask & members == members:
            points += set_points
    animals = (mask & _ANIMALS).bit_count()
    if mask & _CUP:
        if rules.sep_animal == "animal" or sep_animal_as == "animal":
            animals += 1
        elif sep_animal_as == "junk":
            units += _CUP_AS_JUNK_UNITS
        else:  # the better placement, an animal on a tie
            return points + max(
                _animal_and_junk_points(animals + 1, units),
                _animal_and_junk_points(animals, units + _CUP_AS_JUNK_UNITS),
            )
    return points + _animal_and_junk_points(animals, units)


def _animal_and_junk_points(animals: int, units: int) -> int:
    return (animals - 4 if animals >= 5 else 0) + (units - 9 if units >= 10 else 0)


def score(cards: Iterable[Card], rules: RuleSet, *, sep_animal_as: str | None = None) -> Score:
    """Score captured cards. ``sep_animal_as`` pins the cup ("animal" or "junk") as a table declaration.

    Under ``sep_animal: best`` an unpinned cup goes where it scores more, an animal on a tie; under
    ``sep_animal: animal`` it is always an animal. The caller validates the cards (see ``parse_cards``).
    """
    return score_mask(mask_of(cards), rules, sep_animal_as=sep_animal_as)


def score_mask(mask: int, rules: RuleSet, *, sep_animal_as: str | None = None) -> Score:
    """``score`` of cards given as a mask (``engine.cards.mask_of``), for callers that already hold one."""
    animals = mask & _ANIMALS
    junk = mask & _JUNK
    units = _units(mask, rules)
    brights, ribbons = (mask & _BRIGHTS).bit_count(), (mask & _RIBBONS).bit_count()
    if not mask & _CUP:
        points, items = _evaluate(mask, animals, junk, units)
        return Score(points, items, brights, animals.bit_count(), ribbons, units, None)

    placement = "animal" if rules.sep_animal == "animal" else sep_animal_as
    if placement is None:  # only the animal and junk points depend on where the cup goes
        n = animals.bit_count()
        as_junk = _animal_and_junk_points(n, units + _CUP_AS_JUNK_UNITS)
        placement = "junk" if as_junk > _animal_and_junk_points(n + 1, units) else "animal"
    if placement == "junk":
        points, items = _evaluate(mask, animals, junk | _CUP, units + _CUP_AS_JUNK_UNITS)
        return Score(points, items, brights, animals.bit_count(), ribbons, units + _CUP_AS_JUNK_UNITS, "junk")
    points, items = _evaluate(mask, animals | _CUP, junk, units)
    return Score(points, items, brights, animals.bit_count() + 1, ribbons, units, "animal")
