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
from typing import Final

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
    popcount,
)
from .record import Record
from .rules import CupPlacement, RuleSet

__all__ = ["Combination", "Declared", "Item", "Score", "Shortfall", "cup_as_junk", "evaluate", "score", "total"]

CUP_JUNK_UNITS: Final = 2  # the cup counted as junk is a double junk (RULES.md 3)


class Combination(StrEnum):
    BRIGHTS = "brights"
    ANIMALS = "animals"
    GODORI = "godori"
    RIBBONS = "ribbons"
    HONGDAN = "hongdan"
    CHEONGDAN = "cheongdan"
    CHODAN = "chodan"
    JUNK = "junk"


class Item(Record):
    """One scoring combination: its name, points and (as a card mask) the cards that make it."""

    __slots__ = ("combination", "mask", "points")
    fields = ("combination", "points", "mask")

    def __init__(self, combination: Combination, points: int, mask: int) -> None:
        self.combination: Final = combination
        self.points: Final = points
        self.mask: Final = mask

    @property
    def cards(self) -> CardSet:
        return CardSet.from_mask(self.mask)


class Shortfall(Record):
    """A combination one step from scoring: ``have`` of what it needs, and the points one more would bring."""

    __slots__ = ("combination", "have", "need", "points")
    fields = ("combination", "have", "need", "points")

    def __init__(self, combination: Combination, have: int, need: int, points: int) -> None:
        self.combination: Final = combination
        self.have: Final = have
        self.need: Final = need
        self.points: Final = points


class Score(Record):
    """A player's combination score and the counts behind it (the cup counted where it was placed).

    ``sep_animal_as`` is "animal", "junk", or None without the cup; ``rain`` says whether the brights
    include the rain bright (three brights with it score 2); ``shortfalls`` are the combinations one card
    away from scoring.
    """

    __slots__ = ("animals", "brights", "items", "junk_units", "rain", "ribbons", "sep_animal_as", "shortfalls", "total")
    fields = ("total", "items", "brights", "animals", "ribbons", "junk_units", "sep_animal_as", "rain", "shortfalls")

    def __init__(
        self,
        total: int,
        items: tuple[Item, ...],
        brights: int,
        animals: int,
        ribbons: int,
        junk_units: int,
        sep_animal_as: str | None,
        rain: bool = False,
        shortfalls: tuple[Shortfall, ...] = (),
    ) -> None:
        self.total: Final = total
        self.items: Final = items
        self.brights: Final = brights
        self.animals: Final = animals
        self.ribbons: Final = ribbons
        self.junk_units: Final = junk_units
        self.sep_animal_as: Final = sep_animal_as
        self.rain: Final = rain
        self.shortfalls: Final = shortfalls

    def points(self, combination: Combination) -> int:
        """Points of one combination (0 when it does not score)."""
        for item in self.items:
            if item.combination is combination:
                return item.points
        return 0


_PLAIN_ANIMALS: Final = (ANIMALS - CardSet([CUP])).mask
_BRIGHTS: Final = BRIGHTS.mask
_RIBBONS: Final = RIBBONS.mask
_RAIN: Final = RAIN_BRIGHT.bit
_CUP: Final = CUP.bit
_GODORI: Final = GODORI.mask
_HONGDAN: Final = HONGDAN.mask
_CHEONGDAN: Final = CHEONGDAN.mask
_CHODAN: Final = CHODAN.mask
_SETS: Final = (
    (Combination.HONGDAN, _HONGDAN),
    (Combination.CHEONGDAN, _CHEONGDAN),
    (Combination.CHODAN, _CHODAN),
)
# The points of RULES.md 2 (read on every go/stop check, so bound once: in CPython 3.11 reading a member off
# its Enum class costs 5x a global)
GODORI_POINTS: Final = 5
SET_POINTS: Final = 3  # hongdan, cheongdan, chodan
BRIGHTS_ITEM: Final = Combination.BRIGHTS
ANIMALS_ITEM: Final = Combination.ANIMALS
GODORI_ITEM: Final = Combination.GODORI
RIBBONS_ITEM: Final = Combination.RIBBONS
JUNK_ITEM: Final = Combination.JUNK


def bright_points(brights: int, rain: bool, rules: RuleSet) -> int:
    """RULES.md 2: only the best count of brights scores; three with the rain bright score 2, four score
    ``four_brights_points``."""
    return rules.bright_table[1 if rain else 0][brights]


def ribbon_points(ribbons: int, rules: RuleSet) -> int:
    """RULES.md 2: 1 point at 5 ribbons, one more for each beyond; all ten score ``ten_ribbons_points`` instead
    where a table plays that."""
    if ribbons == 10 and rules.ten_ribbons_points:
        return rules.ten_ribbons_points
    return count_points(ribbons, 5)


def count_points(count: int, least: int) -> int:
    """RULES.md 2: 1 point at ``least`` (5 animals, 5 ribbons, 10 junk units), one more for each beyond."""
    return count - least + 1 if count >= least else 0


def _place_cup(mask: int, rules: RuleSet, sep_animal_as: str | None) -> tuple[int, int, str | None]:
    """The animals (a mask) and junk units of a card mask, with the cup placed (RULES.md 3); and where."""
    ones, twos, threes = rules.junk_masks
    units = popcount(mask & ones) + 2 * popcount(mask & twos) + 3 * popcount(mask & threes)
    animals = mask & _PLAIN_ANIMALS
    if not mask & _CUP:
        return animals, units, None
    placement = "animal" if rules.sep_animal is CupPlacement.ANIMAL else sep_animal_as
    if placement is None:  # only the animal and junk points depend on where the cup goes
        n = popcount(animals)
        as_animal = count_points(n + 1, 5) + count_points(units, 10)
        as_junk = count_points(n, 5) + count_points(units + CUP_JUNK_UNITS, 10)
        placement = "junk" if as_junk > as_animal else "animal"
    if placement == "junk":
        return animals, units + CUP_JUNK_UNITS, placement
    return animals | _CUP, units, placement


def cup_as_junk(mask: int, rules: RuleSet, sep_animal_as: str | None) -> bool:
    """Whether the holder of these cards counts the cup among them as a double junk (RULES.md 3): pinned so,
    or placed there because it scores more."""
    return bool(mask & _CUP) and _place_cup(mask, rules, sep_animal_as)[2] == "junk"


def _tally(
    mask: int, rules: RuleSet, sep_animal_as: str | None
) -> tuple[list[tuple[Combination, int, int]], int, int, str | None]:
    """The one evaluator of RULES.md 2-3. Returns the scoring combinations of a card mask as
    (combination, points, cards mask), the animals (a mask) and junk units counted where the cup was
    placed, and that placement."""
    animals, units, placement = _place_cup(mask, rules, sep_animal_as)
    found = []
    brights = mask & _BRIGHTS
    points = bright_points(popcount(brights), bool(brights & _RAIN), rules)
    if points:
        found.append((BRIGHTS_ITEM, points, brights))
    points = count_points(popcount(animals), 5)
    if points:
        found.append((ANIMALS_ITEM, points, animals))
    if mask & _GODORI == _GODORI:
        found.append((GODORI_ITEM, GODORI_POINTS, _GODORI))
    ribbons = mask & _RIBBONS
    points = ribbon_points(popcount(ribbons), rules)
    if points:
        found.append((RIBBONS_ITEM, points, ribbons))
    for name, members in _SETS:
        if mask & members == members:
            found.append((name, SET_POINTS, members))
    points = count_points(units, 10)
    if points:
        ones, twos, threes = rules.junk_masks
        junk = mask & (ones | twos | threes) | (_CUP if placement == "junk" else 0)
        found.append((JUNK_ITEM, points, junk))
    return found, animals, units, placement


def evaluate(cards: CardSet, rules: RuleSet, sep_animal_as: str | None = None, *, shortfalls: bool = True) -> Score:
    """Score cards already checked. ``sep_animal_as`` pins the cup; unpinned under ``sep_animal: best`` it
    goes where it scores more, an animal on a tie (RULES.md 3). ``shortfalls=False`` leaves out what falls
    just short (a loser's, which nobody reads)."""
    mask = cards.mask
    found, animals, units, placement = _tally(mask, rules, sep_animal_as)
    brights = mask & _BRIGHTS
    n_brights, n_animals, n_ribbons = popcount(brights), popcount(animals), popcount(mask & _RIBBONS)
    points = 0
    items = []
    for name, p, m in found:
        points += p
        items.append(Item(name, p, m))
    return Score(
        points,
        tuple(items),
        n_brights,
        n_animals,
        n_ribbons,
        units,
        placement,
        bool(brights & _RAIN),
        _shortfalls(mask, n_brights, n_animals, n_ribbons, units) if shortfalls else (),
    )


class Declared(Record):
    """What a player says they captured instead of showing the cards (API.md v1.2, "declared"): the counts a
    table says out loud, "A stopped at 9 with 3 brights, B has 6 junk and no bright".

    ``points`` is the winner's combination score (None for anyone else); the counts are of brights (``rain``:
    the rain bright among them), animals, ribbons and junk units (RULES.md 1: a double junk is 2, the cup as
    ``cup`` says); ``cup`` is where the player's cup was counted: ``none`` (not held), ``animal`` or ``junk``.
    """

    __slots__ = ("animals", "brights", "cup", "junk_units", "points", "rain", "ribbons")
    fields = ("points", "brights", "rain", "animals", "ribbons", "junk_units", "cup")

    def __init__(
        self,
        points: int | None = None,
        brights: int = 0,
        rain: bool = False,
        animals: int = 0,
        ribbons: int = 0,
        junk_units: int = 0,
        cup: str = "none",
    ) -> None:
        self.points: Final = points
        self.brights: Final = brights
        self.rain: Final = rain
        self.animals: Final = animals
        self.ribbons: Final = ribbons
        self.junk_units: Final = junk_units
        self.cup: Final = cup

    @property
    def anything(self) -> bool:
        """Whether the counts say the player captured any card at all."""
        return bool(self.brights or self.animals or self.ribbons or self.junk_units or self.cup != "none")

    def counted_points(self, rules: RuleSet) -> int:
        """The points the counts decide by themselves (RULES.md 2): brights, animals, ribbons and junk."""
        return (
            bright_points(self.brights, self.rain, rules)
            + count_points(self.animals, 5)
            + ribbon_points(self.ribbons, rules)
            + count_points(self.junk_units, 10)
        )

    def reachable_points(self, rules: RuleSet) -> list[int]:
        """Every combination score cards with these counts can make: the counted points, plus godori (5) when
        three of the animals can be the birds, plus 3 for each ribbon set three ribbons could make."""
        birds = (self.animals - (self.cup == "animal")) >= 3
        sets = min(3, self.ribbons // 3)
        base = self.counted_points(rules)
        return sorted({base + GODORI_POINTS * g + SET_POINTS * k for g in range(1 + birds) for k in range(sets + 1)})

    def score(self, rules: RuleSet) -> Score:
        """The score these counts stand for: ``points`` as the total (the counted points for a loser), the
        combinations the counts show (cards unknown: no masks), the counts as they are."""
        counted = [
            (BRIGHTS_ITEM, bright_points(self.brights, self.rain, rules)),
            (ANIMALS_ITEM, count_points(self.animals, 5)),
            (RIBBONS_ITEM, ribbon_points(self.ribbons, rules)),
            (JUNK_ITEM, count_points(self.junk_units, 10)),
        ]
        items = tuple(Item(name, points, 0) for name, points in counted if points)
        total = self.points if self.points is not None else sum(item.points for item in items)
        placement = self.cup if self.cup != "none" else None
        return Score(total, items, self.brights, self.animals, self.ribbons, self.junk_units, placement, self.rain)


def total(mask: int, rules: RuleSet, sep_animal_as: str | None = None) -> int:
    """``evaluate(...).total`` of cards given as a mask, for the go/stop check after every turn of a hand: the
    same points as ``_tally``'s (RULES.md 2), added up without listing the combinations."""
    animals, units, _ = _place_cup(mask, rules, sep_animal_as)
    points = rules.bright_table[1 if mask & _RAIN else 0][popcount(mask & _BRIGHTS)]
    n = popcount(animals)
    if n >= 5:
        points += count_points(n, 5)
    n = popcount(mask & _RIBBONS)
    if n >= 5:
        points += ribbon_points(n, rules)
    if units >= 10:
        points += count_points(units, 10)
    if mask & _GODORI == _GODORI:
        points += GODORI_POINTS
    if mask & _HONGDAN == _HONGDAN:
        points += SET_POINTS
    if mask & _CHEONGDAN == _CHEONGDAN:
        points += SET_POINTS
    if mask & _CHODAN == _CHODAN:
        points += SET_POINTS
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
    if popcount(mask & _GODORI) == 2:
        out.append(Shortfall(Combination.GODORI, 2, 3, GODORI_POINTS))
    if ribbons == 4:
        out.append(Shortfall(Combination.RIBBONS, 4, 5, 1))
    for name, members in _SETS:
        if popcount(mask & members) == 2:
            out.append(Shortfall(name, 2, 3, SET_POINTS))
    if units == 9:
        out.append(Shortfall(Combination.JUNK, 9, 10, 1))
    return tuple(out)
