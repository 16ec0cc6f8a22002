"""The Hwatu deck of RULES.md 1: 48 month cards and three bonus cards, built once at import.

Vocabulary: a *bright* (gwang 광), an *animal* (yeol 열끗), a *ribbon* (tti 띠) and *junk* (pi 피).
Junk is counted in *units*: most junk is 1, the double junk (ssangpi 쌍피) of November and December is 2,
bonus cards (jokers, 보너스패) are 2 or 3. The September animal is the *cup* (gukjin 국진, RULES.md 3),
which a player may count as an animal or as a double junk.

Cards are frozen records compared by identity; ``Card.index`` is the catalog position, the order of every
tie-break (RULES.md 1). A ``CardSet`` is a set of cards held as a bitmask (bit i = catalog index i), so
that scoring is a few ANDs and popcounts; the named sets below are the ones the rules speak of.
Names for people (송학 광, "Pine bright") are not here: they belong to the words of each language.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from enum import StrEnum
from typing import Final, NamedTuple, final

from mypy_extensions import i64

from .errors import CardError, culprit

__all__ = [
    "ANIMALS",
    "BONUS_CARDS",
    "BRIGHTS",
    "CARDS",
    "CARD_BY_ID",
    "CARD_NAMES",
    "CHEONGDAN",
    "CHODAN",
    "CUP",
    "DOUBLE_JUNK",
    "GODORI",
    "HONGDAN",
    "JUNK",
    "MONTH_CARDS",
    "MONTH_PREFIX",
    "RAIN_BRIGHT",
    "RIBBONS",
    "SPELLINGS",
    "Card",
    "CardSet",
    "Kind",
    "Place",
    "by_id",
    "card_code",
    "card_codes",
    "disjoint",
    "parse_cards",
    "popcount",
    "read_card",
]


class Kind(StrEnum):
    BRIGHT = "bright"
    ANIMAL = "animal"
    RIBBON = "ribbon"
    JUNK = "junk"
    BONUS = "bonus"


@final
class Card:
    """One card of the deck. ``month`` is 1-12, or 0 for a bonus card; ``junk_units`` is the printed value.

    A card is a value: two cards are equal when they are the same card of the deck, and copying or unpickling
    one gives back the catalog's own card (``by_id``), so a copied game state holds the same cards.
    """

    __slots__ = ("bit", "id", "index", "junk_units", "kind", "month", "tags")

    index: Final[int]
    id: Final[str]
    month: Final[int]
    kind: Final[Kind]
    junk_units: Final[int]
    tags: Final[tuple[str, ...]]
    bit: Final[int]  # 1 << index: the card's bit in a CardSet

    def __init__(self, index: int, id: str, month: int, kind: Kind, junk_units: int, tags: tuple[str, ...]) -> None:
        self.index = index
        self.id = id
        self.month = month
        self.kind = kind
        self.junk_units = junk_units
        self.tags = tags
        self.bit = 1 << index

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Card) and other.index == self.index

    def __hash__(self) -> int:
        return self.index

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

    def __reduce__(self) -> tuple[Callable[[str], Card], tuple[str]]:
        return by_id, (self.id,)

    def __repr__(self) -> str:
        return f"Card({self.id!r})"


MONTH_PREFIX: Final = ("", "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")

# The table of RULES.md 1, row by row: each month's cards (the id after the month prefix), junk last.
_MONTH_ROWS: tuple[tuple[str, ...], ...] = (
    ("bright", "ribbon", "junk-1", "junk-2"),
    ("animal", "ribbon", "junk-1", "junk-2"),
    ("bright", "ribbon", "junk-1", "junk-2"),
    ("animal", "ribbon", "junk-1", "junk-2"),
    ("animal", "ribbon", "junk-1", "junk-2"),
    ("animal", "ribbon", "junk-1", "junk-2"),
    ("animal", "ribbon", "junk-1", "junk-2"),
    ("bright", "animal", "junk-1", "junk-2"),
    ("animal", "ribbon", "junk-1", "junk-2"),
    ("animal", "ribbon", "junk-1", "junk-2"),
    ("bright", "double", "junk-1", "junk-2"),
    ("bright", "animal", "ribbon", "double"),
)

_TAGS = {
    "feb-animal": ("godori",),
    "apr-animal": ("godori",),
    "aug-animal": ("godori",),
    "sep-animal": ("cup",),
    "jan-ribbon": ("hongdan",),
    "feb-ribbon": ("hongdan",),
    "mar-ribbon": ("hongdan",),
    "jun-ribbon": ("cheongdan",),
    "sep-ribbon": ("cheongdan",),
    "oct-ribbon": ("cheongdan",),
    "apr-ribbon": ("chodan",),
    "may-ribbon": ("chodan",),
    "jul-ribbon": ("chodan",),
    "dec-bright": ("rain",),
    "nov-double": ("double-junk",),
    "dec-double": ("double-junk",),
}


def _build() -> tuple[Card, ...]:
    cards: list[Card] = []
    for month, row in enumerate(_MONTH_ROWS, start=1):
        for suffix in row:
            card_id = f"{MONTH_PREFIX[month]}-{suffix}"
            kind = suffix.split("-")[0]
            units = {"junk": 1, "double": 2}.get(kind, 0)
            cards.append(
                Card(len(cards), card_id, month, Kind.JUNK if units else Kind(kind), units, _TAGS.get(card_id, ()))
            )
    for card_id, units in (("bonus-2a", 2), ("bonus-2b", 2), ("bonus-3", 3)):
        cards.append(Card(len(cards), card_id, 0, Kind.BONUS, units, ("bonus",)))
    return tuple(cards)


CARDS: Final[tuple[Card, ...]] = _build()
"""Every card in catalog order (RULES.md 1)."""

CARD_BY_ID: Final[dict[str, Card]] = {card.id: card for card in CARDS}
"""Card id -> card (a table to read, not to change)."""


class Place(NamedTuple):
    """Where a card was found: ``kind`` is layout, stock, hand, shown, captured or played (by ``player``),
    and ``move_index`` is the move that put it there (None: at the deal)."""

    kind: str
    player: str | None = None
    move_index: int | None = None


def popcount(mask: i64) -> i64:
    """How many cards a mask holds (masks stay below bit 62). Compiled, a few machine-word operations: mypyc
    has no ``int.bit_count`` of its own, and calling the method boxes the int (about 180 instructions a call,
    some 150 calls a hand). The pure build uses ``int.bit_count`` itself (swapped in below): faster there.
    Every constant fits mypyc's short ints (below 2**62): a larger one is a boxed int converted on each call."""
    mask = mask - ((mask >> 1) & 0x1555555555555555)
    mask = (mask & 0x3333333333333333) + ((mask >> 2) & 0x3333333333333333)
    mask = (mask + (mask >> 4)) & 0x0F0F0F0F0F0F0F0F
    mask += mask >> 8
    mask += mask >> 16
    mask += mask >> 32
    return mask & 0x7F


if __file__.endswith(".py"):  # the pure build: its callers import int.bit_count under this name
    globals()["popcount"] = int.bit_count


def _mask_of(cards: Iterable[Card]) -> int:
    """The bits of the cards OR-ed together (a repeated card sets its own bit again, never the next one's). A plain
    loop: measured, it beats reduce(or_, map(attrgetter("bit"), ...)) in both builds (1.4x pure, more compiled)."""
    mask = 0
    for card in cards:
        mask |= card.bit
    return mask


class CardSet:
    """An immutable set of cards over a bitmask: ``in``, ``len``, iteration in catalog order, set operators.

    ``CardSet(cards)`` ORs the cards' bits, so listing a card twice is the same as listing it once; use
    ``parse_cards`` where a repeat is a mistake to refuse.
    """

    __slots__ = ("mask",)

    mask: int

    def __init__(self, cards: Iterable[Card] = ()) -> None:
        self.mask = _mask_of(cards) if cards != () else 0

    @staticmethod
    def from_mask(mask: int) -> CardSet:
        """The set of the cards whose bits ``mask`` holds (bit i = catalog index i)."""
        out = CardSet()
        out.mask = mask
        return out

    def __contains__(self, card: object) -> bool:
        try:
            return bool(self.mask & card.bit)  # type: ignore[attr-defined]
        except AttributeError:  # not a card
            return False

    def __iter__(self) -> Iterator[Card]:
        mask = self.mask
        while mask:
            low = mask & -mask
            yield CARDS[low.bit_length() - 1]
            mask ^= low

    def __len__(self) -> int:
        return popcount(self.mask)

    def __bool__(self) -> bool:
        return self.mask != 0

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardSet) and other.mask == self.mask

    def __hash__(self) -> int:
        return hash(self.mask)

    def __or__(self, other: CardSet) -> CardSet:
        return CardSet.from_mask(self.mask | other.mask)

    def __and__(self, other: CardSet) -> CardSet:
        return CardSet.from_mask(self.mask & other.mask)

    def __sub__(self, other: CardSet) -> CardSet:
        return CardSet.from_mask(self.mask & ~other.mask)

    def __le__(self, other: CardSet) -> bool:
        return self.mask & ~other.mask == 0

    def __copy__(self) -> CardSet:
        return self  # immutable: a copy is the set itself

    def __deepcopy__(self, memo: object) -> CardSet:
        return self

    def isdisjoint(self, other: CardSet) -> bool:
        return not self.mask & other.mask

    def ids(self) -> list[str]:
        """The card ids, in catalog order."""
        return [card.id for card in self]

    def __repr__(self) -> str:
        return f"CardSet({self.ids()!r})"


BRIGHTS: Final = CardSet(c for c in CARDS if c.kind is Kind.BRIGHT)
RAIN_BRIGHT: Final = CARD_BY_ID["dec-bright"]  # three brights with it score 2, not 3 (RULES.md 2)
ANIMALS: Final = CardSet(c for c in CARDS if c.kind is Kind.ANIMAL)  # the cup included: see CUP
CUP: Final = CARD_BY_ID["sep-animal"]
GODORI: Final = CardSet(c for c in CARDS if "godori" in c.tags)  # the three birds
RIBBONS: Final = CardSet(c for c in CARDS if c.kind is Kind.RIBBON)
HONGDAN: Final = CardSet(c for c in CARDS if "hongdan" in c.tags)  # red poem ribbons
CHEONGDAN: Final = CardSet(c for c in CARDS if "cheongdan" in c.tags)  # blue ribbons
CHODAN: Final = CardSet(c for c in CARDS if "chodan" in c.tags)  # plain red ribbons (dec-ribbon is in no set)
JUNK: Final = CardSet(c for c in CARDS if c.kind is Kind.JUNK)  # the 24 month junk cards
DOUBLE_JUNK: Final = CardSet(c for c in JUNK if c.junk_units == 2)
BONUS_CARDS: Final = CardSet(c for c in CARDS if c.kind is Kind.BONUS)
MONTH_CARDS: Final[tuple[CardSet, ...]] = tuple(CardSet(c for c in CARDS if c.month == m) for m in range(13))
"""The four cards of each month, indexed by month (index 0 holds the bonus cards, which have none)."""


def by_id(card_id: str) -> Card:
    """The card with this id; raises CardError(``unknown-card``) for anything else."""
    try:
        return CARD_BY_ID[card_id]
    except (KeyError, TypeError):
        raise CardError("unknown-card", card=str(card_id)) from None


def parse_cards(ids: Iterable[str | Card], *, owner: Place | None = None) -> CardSet:
    """Resolve card ids (or take cards), refusing an unknown id and a card listed twice (CardError)."""
    items = ids if isinstance(ids, (list, tuple)) else list(ids)
    try:
        cards = [item if type(item) is Card else CARD_BY_ID[item] for item in items]
    except (KeyError, TypeError):  # an id that is no card (or not even a string): name it below
        cards = []
    mask = _mask_of(cards)
    if len(cards) == len(items) and popcount(mask) == len(items):  # every card found, and none twice
        return CardSet.from_mask(mask)
    return _parse_naming_the_fault(items, owner)


def _parse_naming_the_fault(ids: Iterable[str | Card], owner: Place | None) -> CardSet:
    mask = 0
    player = owner.player if owner else None
    for item in ids:
        card = item if isinstance(item, Card) else CARD_BY_ID.get(item) if isinstance(item, str) else None
        if card is None:
            raise CardError("unknown-card", card=culprit(item), player=player, place=owner)
        if mask & card.bit:
            raise CardError("duplicate-card", why="listed-twice", card=card.id, player=player, place=owner)
        mask |= card.bit
    return CardSet.from_mask(mask)


def disjoint(groups: Sequence[tuple[Place, Collection[Card]]]) -> list[CardSet]:
    """Each group as a CardSet, refusing a card found twice (CardError ``duplicate-card`` with both places)."""
    out: list[CardSet] = []
    held = 0
    for _, cards in groups:
        mask = cards.mask if isinstance(cards, CardSet) else _mask_of(cards)
        if held & mask or popcount(mask) != len(cards):  # a card held already, or listed twice in the group
            _name_the_repeat(groups)
        held |= mask
        out.append(CardSet.from_mask(mask))
    return out


def _name_the_repeat(groups: Sequence[tuple[Place, Collection[Card]]]) -> None:
    held: dict[int, Place] = {}  # card index -> the place it was first found
    for place, cards in groups:
        for card in cards:
            first = held.get(card.index)
            if first is not None:
                raise CardError(
                    "duplicate-card",
                    why="listed-twice" if first == place else "in-two-places",
                    card=card.id,
                    player=place.player,
                    place=place,
                    first=first,
                )
            held[card.index] = place


# --- the codes of the text notation (docs/NOTATION.md) -------------------------------------------------------
#
# A card has a short code a person types on a phone, in ASCII (month + kind letter: ``1B``, ``8A``, ``9R``, ``3J``,
# ``3J2`` for the second junk, ``11D`` for a double junk, ``P2a``/``P2b``/``P3`` for the bonus cards) or as Korean
# players say it (``1광``, ``8열``, ``9띠``, ``3피``, ``3피2``, ``11쌍피``, ``투피``, ``쓰리피``, and ``국진``,
# ``똥광``...).

_ASCII_KIND: Final = {Kind.BRIGHT: "B", Kind.ANIMAL: "A", Kind.RIBBON: "R", Kind.JUNK: "J"}
_KOREAN_KIND: Final = {Kind.BRIGHT: "광", Kind.ANIMAL: "열", Kind.RIBBON: "띠", Kind.JUNK: "피"}
_ASCII_BONUS: Final = {"bonus-2a": "P2a", "bonus-2b": "P2b", "bonus-3": "P3"}  # P: the bonus cards' 피 (투피, 쓰리피)
_KOREAN_BONUS: Final = {"bonus-2a": "투피", "bonus-2b": "투피2", "bonus-3": "쓰리피"}
# Months as players name them (GLOSSARY.md): 송학 광, 똥 쌍피, 비광 ... are read as well as 1광, 11쌍피, 12광
_MONTH_NAMES: Final = (
    (),
    ("송학",),
    ("매조",),
    ("벚꽃", "사쿠라"),
    ("흑싸리",),
    ("난초",),
    ("모란",),
    ("홍싸리",),
    ("공산",),
    ("국화",),
    ("단풍",),
    ("오동", "똥"),
    ("비",),
)


def _is_double(card: Card) -> bool:
    return card.id.endswith("-double")


def _second(card: Card) -> str:
    return "2" if card.id.endswith("-2") else ""  # the second junk card of its month


def _ascii_code(card: Card) -> str:
    if card.kind is Kind.BONUS:
        return _ASCII_BONUS[card.id]
    return f"{card.month}{'D' if _is_double(card) else _ASCII_KIND[card.kind]}{_second(card)}"


def _korean_code(card: Card) -> str:
    if card.kind is Kind.BONUS:
        return _KOREAN_BONUS[card.id]
    return f"{card.month}{'쌍피' if _is_double(card) else _KOREAN_KIND[card.kind]}{_second(card)}"


SPELLINGS: Final = ("ascii", "korean")
"""The spellings the notation writes cards and move words in; it reads both, mixed freely."""

_CODES: Final[dict[str, tuple[str, ...]]] = {
    "ascii": tuple(_ascii_code(card) for card in CARDS),
    "korean": tuple(_korean_code(card) for card in CARDS),
}


def _names() -> dict[str, Card]:
    """Every spelling of every card, lower-cased, -> the card."""
    names: dict[str, Card] = {}
    for card in CARDS:
        spelled = [card.id, _ascii_code(card), _korean_code(card)]
        if card.kind is not Kind.BONUS:
            kinds = ["쌍피"] if _is_double(card) else [_KOREAN_KIND[card.kind]]
            if card.kind is Kind.ANIMAL:
                kinds.append("열끗")
            elif card.kind is Kind.JUNK and not _is_double(card) and not _second(card):
                kinds.append("피1")  # the first junk, said with its number
                spelled.append(f"{card.month}J1")
            for month in (str(card.month), *_MONTH_NAMES[card.month]):
                spelled += [f"{month}{kind}{_second(card)}" for kind in kinds]
        for name in spelled:
            names[name.lower()] = card
    names["국진"] = names["국준"] = CUP  # the September animal has a name of its own (RULES.md 3)
    return names


CARD_NAMES: Final = _names()


def card_code(card: Card | str, spelling: str = "ascii") -> str:
    """The code the notation writes for a card (a Card or its id): ``1B``, ``11D``... or ``1광``, ``11쌍피``..."""
    found = card if isinstance(card, Card) else CARD_BY_ID[card]
    return _CODES[_spelling(spelling)][found.index]


def read_card(text: str) -> Card | None:
    """The card a code names, in any spelling the notation reads (None for anything else)."""
    return CARD_NAMES.get(text.lower())


def _spelling(spelling: str) -> str:
    if spelling not in _CODES:
        raise ValueError(f"spelling must be one of {', '.join(SPELLINGS)}, not {spelling!r}")
    return spelling


def card_codes(spelling: str = "ascii") -> tuple[str, ...]:
    """The code of every card in a spelling, by catalog index (raises ValueError for an unknown spelling)."""
    return _CODES[_spelling(spelling)]
