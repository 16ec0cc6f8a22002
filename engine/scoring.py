"""Combination score of one player's captured cards (RULES.md 2 and 3).

Combinations add up: brights (gwang 광), animals (yeol 열끗), godori (고도리, the three birds), ribbons
(tti 띠), the ribbon sets hongdan (홍단, red poem), cheongdan (청단, blue) and chodan (초단, plain red),
and junk (pi 피) counted in units. The cup (``sep-animal``) is placed as an animal or as a double junk,
never both.

``evaluate`` is the one evaluator: ``score`` checks its input and calls it, settlement and the go/stop
check of a hand call it on cards the engine already knows to be sound.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from typing import NamedTuple

from .cards import (
    ANIMALS,
    BRIGHTS,
    CHEONGDAN,
    CHODAN,
    CUP,
    GODORI,
    HONGDAN,
    RAIN_BRIGHT,
    RIBBONS,
    Card,
    CardSet,
    parse_cards,
)
from .rules import RuleSet

__all__ = ["Combination", "Item", "Score", "Shortfall", "evaluate", "score", "total"]

CUP_JUNK_UNITS = 2  # the cup counted as junk is a double junk (RULES.md 3)


class Combination(StrEnum):
    BRIGHTS = "brights"
    ANIMALS = "animals"
    GODORI = "godori"
    RIBBONS = "ribbons"
    HONGDAN = "hongdan"
    CHEONGDAN = "cheongdan"
    CHODAN = "chodan"
    JUNK = "junk"


class Item(NamedTuple):
    """One scoring combination: its name, points and (as a card mask) the cards that make it."""

    combination: Combination
    points: int
    mask: int

    @property
    def cards(self) -> CardSet:
        return CardSet.from_mask(self.mask)


class Shortfall(NamedTuple):
    """A combination one step from scoring: ``have`` of what it needs, and the points one more would bring."""

    combination: Combination
    have: int
    need: int
    points: int


# Read on every go/stop check, so bound once: in CPython 3.11 reading a member off its Enum class costs 5x a global.
_BRIGHTS_ITEM, _ANIMALS_ITEM, _GODORI_ITEM, _RIBBONS_ITEM, _JUNK_ITEM = (
    Combination.BRIGHTS,
    Combination.ANIMALS,
    Combination.GODORI,
    Combination.RIBBONS,
    Combination.JUNK,
)


class Score(NamedTuple):
    """A player's combination score and the counts behind it (the cup counted where it was placed).

    ``sep_animal_as`` is "animal", "junk", or None without the cup; ``rain`` says whether the brights
    include the rain bright (three brights with it score 2); ``shortfalls`` are the combinations one card
    away from scoring.
    """

    total: int
    items: tuple[Item, ...]
    brights: int
    animals: int
    ribbons: int
    junk_units: int
    sep_animal_as: str | None
    rain: bool = False
    shortfalls: tuple[Shortfall, ...] = ()

    def points(self, combination: Combination) -> int:
        """Points of one combination (0 when it does not score)."""
        for item in self.items:
            if item.combination is combination:
                return item.points
        return 0


_PLAIN_ANIMALS = (ANIMALS - CardSet([CUP])).mask
_BRIGHTS, _RIBBONS, _RAIN, _CUP = BRIGHTS.mask, RIBBONS.mask, RAIN_BRIGHT.bit, CUP.bit
_SETS = (
    (Combination.HONGDAN, HONGDAN.mask, 3),
    (Combination.CHEONGDAN, CHEONGDAN.mask, 3),
    (Combination.CHODAN, CHODAN.mask, 3),
)
_GODORI = GODORI.mask
_GODORI_POINTS = 5


def _animal_and_junk_points(animals: int, units: int) -> int:
    """RULES.md 2: 1 point for 5 animals and for 10 junk units, one more for each beyond."""
    return (animals - 4 if animals >= 5 else 0) + (units - 9 if units >= 10 else 0)


def _tally(
    mask: int, rules: RuleSet, sep_animal_as: str | None
) -> tuple[list[tuple[Combination, int, int]], int, int, str | None]:
    """The one evaluator of RULES.md 2-3. Returns the scoring combinations of a card mask as
    (combination, points, cards mask), the animals (a mask) and junk units counted where the cup was
    placed, and that placement."""
    ones, twos, threes = rules.junk_masks
    units = (mask & ones).bit_count() + 2 * (mask & twos).bit_count() + 3 * (mask & threes).bit_count()
    animals = mask & _PLAIN_ANIMALS
    placement = None
    if mask & _CUP:
        placement = "animal" if rules.sep_animal == "animal" else sep_animal_as
        if placement is None:  # only the animal and junk points depend on where the cup goes
            n = animals.bit_count()
            as_junk = _animal_and_junk_points(n, units + CUP_JUNK_UNITS) > _animal_and_junk_points(n + 1, units)
            placement = "junk" if as_junk else "animal"
        if placement == "junk":
            units += CUP_JUNK_UNITS
        else:
            animals |= _CUP
    found = []
    brights = mask & _BRIGHTS
    n = brights.bit_count()
    if n >= 3:  # only the best count scores; three with the rain bright score 2
        found.append((_BRIGHTS_ITEM, 15 if n == 5 else 4 if n == 4 else 2 if brights & _RAIN else 3, brights))
    n = animals.bit_count()
    if n >= 5:
        found.append((_ANIMALS_ITEM, n - 4, animals))
    if mask & _GODORI == _GODORI:
        found.append((_GODORI_ITEM, _GODORI_POINTS, _GODORI))
    ribbons = mask & _RIBBONS
    n = ribbons.bit_count()
    if n >= 5:
        found.append((_RIBBONS_ITEM, n - 4, ribbons))
    for name, members, points in _SETS:
        if mask & members == members:
            found.append((name, points, members))
    if units >= 10:
        junk = mask & (ones | twos | threes) | (_CUP if placement == "junk" else 0)
        found.append((_JUNK_ITEM, units - 9, junk))
    return found, animals, units, placement


def evaluate(cards: CardSet, rules: RuleSet, sep_animal_as: str | None = None) -> Score:
    """Score cards already checked. ``sep_animal_as`` pins the cup; unpinned under ``sep_animal: best`` it
    goes where it scores more, an animal on a tie (RULES.md 3)."""
    mask = cards.mask
    found, animals, units, placement = _tally(mask, rules, sep_animal_as)
    brights = mask & _BRIGHTS
    n_brights, n_animals, n_ribbons = brights.bit_count(), animals.bit_count(), (mask & _RIBBONS).bit_count()
    return Score(
        sum(points for _, points, _ in found),
        tuple(map(Item._make, found)),
        n_brights,
        n_animals,
        n_ribbons,
        units,
        placement,
        bool(brights & _RAIN),
        _shortfalls(mask, n_brights, n_animals, n_ribbons, units),
    )


def total(mask: int, rules: RuleSet, sep_animal_as: str | None = None) -> int:
    """``evaluate(...).total`` of cards given as a mask, for the go/stop check after every turn of a hand."""
    points = 0
    for _, p, _ in _tally(mask, rules, sep_animal_as)[0]:
        points += p
    return points


def score(cards: Iterable[Card | str], rules: RuleSet, *, sep_animal_as: str | None = None) -> Score:
    """Score a player's captured cards (card values or ids) as a table would.

    Raises CardError for an unknown id, a card listed twice or a bonus card the rules leave out, and
    RulesError(``sep-animal-pin``) for the cup pinned as junk where it is always an animal.
    """
    held = parse_cards(cards)
    rules.check_in_play(held)
    rules.check_cup_pin(sep_animal_as)
    return evaluate(held, rules, sep_animal_as)


def _shortfalls(mask: int, brights: int, animals: int, ribbons: int, units: int) -> tuple[Shortfall, ...]:
    """The combinations that one more card (or junk unit) would make score, or score more for brights.

    Only combinations that do not score yet are listed (a scoring one grows by a point per card anyway),
    except brights, whose next step is worth more than a point.
    """
    out: list[Shortfall] = []
    if brights == 2:
        out.append(Shortfall(Combination.BRIGHTS, 2, 3, 2 if mask & _RAIN else 3))
    if animals == 4:
        out.append(Shortfall(Combination.ANIMALS, 4, 5, 1))
    if (mask & _GODORI).bit_count() == 2:
        out.append(Shortfall(Combination.GODORI, 2, 3, _GODORI_POINTS))
    if ribbons == 4:
        out.append(Shortfall(Combination.RIBBONS, 4, 5, 1))
    for name, members, points in _SETS:
        if (mask & members).bit_count() == 2:
            out.append(Shortfall(name, 2, 3, points))
    if units == 9:
        out.append(Shortfall(Combination.JUNK, 9, 10, 1))
    return tuple(out)
