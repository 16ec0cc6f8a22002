"""The Hwatu deck of RULES.md 1: 48 month cards and three bonus cards, built once at import.

Vocabulary: a *bright* (gwang 광), an *animal* (yeol 열끗), a *ribbon* (tti 띠) and *junk* (pi 피).
Junk is counted in *units*: most junk is 1, the double junk (ssangpi 쌍피) of November and December is 2,
bonus cards (jokers) are 2 or 3. The September animal is the *cup* (gukjin 국진, RULES.md 3), which a
player may count as an animal or as a double junk.

Cards are plain frozen records compared by identity; ``Card.index`` is the catalog position, the order
used for every tie-break (RULES.md 1) and a cheap key for sets and sorting.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from operator import attrgetter

from .errors import CardError

__all__ = [
    "BONUS_IDS",
    "CARDS",
    "CUP",
    "MONTHS",
    "Card",
    "by_id",
    "cards_of",
    "mask_of",
    "parse_cards",
    "unused_bonus_mask",
]

BRIGHT, ANIMAL, RIBBON, JUNK, BONUS = "bright", "animal", "ribbon", "junk", "bonus"


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """One card of the deck. ``month`` is 1-12, or 0 for a bonus card."""

    index: int
    id: str
    month: int
    kind: str
    junk_units: int
    tags: tuple[str, ...]
    name_en: str
    name_ko: str
    bit: int = field(init=False, repr=False)  # 1 << index: the card's bit in a card mask

    def __post_init__(self) -> None:
        object.__setattr__(self, "bit", 1 << self.index)

    def __repr__(self) -> str:
        return f"Card({self.id!r})"


# month number -> (short id prefix, English flower, Korean flower)
MONTHS: dict[int, tuple[str, str, str]] = {
    1: ("jan", "pine", "송학"),
    2: ("feb", "plum blossom", "매조"),
    3: ("mar", "cherry blossom", "벚꽃"),
    4: ("apr", "black bush clover", "흑싸리"),
    5: ("may", "iris", "난초"),
    6: ("jun", "peony", "모란"),
    7: ("jul", "red bush clover", "홍싸리"),
    8: ("aug", "pampas", "공산"),
    9: ("sep", "chrysanthemum", "국화"),
    10: ("oct", "maple", "단풍"),
    11: ("nov", "paulownia", "오동"),
    12: ("dec", "rain", "비"),
}

# What each special card shows, for names a person recognises at the table.
_SUBJECT = {
    "jan-bright": "crane and sun",
    "mar-bright": "curtain",
    "aug-bright": "full moon",
    "nov-bright": "phoenix",
    "dec-bright": "rain man",
    "feb-animal": "bush warbler",
    "apr-animal": "cuckoo",
    "may-animal": "bridge",
    "jun-animal": "butterflies",
    "jul-animal": "boar",
    "aug-animal": "geese",
    "sep-animal": "sake cup",
    "oct-animal": "deer",
    "dec-animal": "swallow",
}

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

_KIND_KO = {BRIGHT: "광", ANIMAL: "열끗", RIBBON: "띠", JUNK: "피"}
_RIBBON_KO = {"hongdan": "홍단", "cheongdan": "청단", "chodan": "초단"}

# The table of RULES.md 1, row by row: which kinds each month has, junk ids last.
_LAYOUT: dict[int, tuple[str, ...]] = {
    1: ("bright", "ribbon", "junk-1", "junk-2"),
    2: ("animal", "ribbon", "junk-1", "junk-2"),
    3: ("bright", "ribbon", "junk-1", "junk-2"),
    4: ("animal", "ribbon", "junk-1", "junk-2"),
    5: ("animal", "ribbon", "junk-1", "junk-2"),
    6: ("animal", "ribbon", "junk-1", "junk-2"),
    7: ("animal", "ribbon", "junk-1", "junk-2"),
    8: ("bright", "animal", "junk-1", "junk-2"),
    9: ("animal", "ribbon", "junk-1", "junk-2"),
    10: ("animal", "ribbon", "junk-1", "junk-2"),
    11: ("bright", "double", "junk-1", "junk-2"),
    12: ("bright", "animal", "ribbon", "double"),
}


def _build() -> tuple[Card, ...]:
    cards: list[Card] = []
    for month, suffixes in _LAYOUT.items():
        prefix, flower_en, flower_ko = MONTHS[month]
        for suffix in suffixes:
            card_id = f"{prefix}-{suffix}"
            kind = suffix.split("-")[0]
            units = 0
            if kind in ("junk", "double"):
                units = 2 if kind == "double" else 1
                kind = JUNK
            tags = _TAGS.get(card_id, ())
            subject = _SUBJECT.get(card_id)
            label = {"double": "double junk"}.get(suffix.split("-")[0], kind)
            name_en = f"{flower_en.capitalize()} {label}" + (f" ({subject})" if subject else "")
            kind_ko = _RIBBON_KO.get(tags[0], "띠") if kind == RIBBON and tags else _KIND_KO[kind]
            if suffix == "double":
                kind_ko = "쌍피"
            name_ko = "국진" if card_id == "sep-animal" else f"{flower_ko} {kind_ko}"
            cards.append(Card(len(cards), card_id, month, kind, units, tags, name_en, name_ko))
    for card_id, units in (("bonus-2a", 2), ("bonus-2b", 2), ("bonus-3", 3)):
        name_en = f"Bonus card ({units} junk)"
        name_ko = f"보너스 {'쓰리' if units == 3 else '투'}피"
        cards.append(Card(len(cards), card_id, 0, BONUS, units, ("bonus",), name_en, name_ko))
    return tuple(cards)


CARDS: tuple[Card, ...] = _build()
"""Every card in catalog order (RULES.md 1)."""

CARD_BY_ID: dict[str, Card] = {card.id: card for card in CARDS}
CUP: Card = CARD_BY_ID["sep-animal"]
BONUS_IDS: tuple[str, ...] = tuple(card.id for card in CARDS if card.kind == BONUS)


_BIT = attrgetter("bit")


def mask_of(cards: Iterable[Card]) -> int:
    """The bitmask of distinct cards (bit i = catalog index i).

    A sum, not an OR, because it runs in C: for distinct cards the two are equal, and a repeated card
    carries into another bit, so ``mask_of(cards).bit_count() < len(cards)`` is how callers spot repeats.
    """
    return sum(map(_BIT, cards))


@lru_cache(maxsize=8)
def unused_bonus_mask(bonus_cards: tuple[str, ...]) -> int:
    """The bonus cards a rule set leaves out of the deck (its ``bonus_cards`` are in), as a card mask."""
    return mask_of(c for c in CARDS if c.kind == BONUS and c.id not in bonus_cards)


# cards_of reads a mask a byte at a time: _BYTE_CARDS[k][b] are the cards of byte value b at byte k.
_BYTE_CARDS = tuple(
    tuple(tuple(CARDS[8 * k + j] for j in range(8) if b >> j & 1 and 8 * k + j < len(CARDS)) for b in range(256))
    for k in range((len(CARDS) + 7) // 8)
)


def cards_of(mask: int) -> tuple[Card, ...]:
    """The cards of a mask, in catalog order."""
    out: list[Card] = []
    for table in _BYTE_CARDS:
        if not mask:
            break
        out += table[mask & 0xFF]
        mask >>= 8
    return tuple(out)


def by_id(card_id: str) -> Card:
    """The card with this id; raises CardError(code="unknown-card") for anything else."""
    try:
        return CARD_BY_ID[card_id]
    except (KeyError, TypeError):
        raise CardError(f"{card_id!r} is not a card id", code="unknown-card", card=card_id) from None


def parse_cards(ids: Iterable[str], *, owner: str | None = None) -> list[Card]:
    """Resolve card ids, refusing unknown ids and a card listed twice in the same place."""
    cards: list[Card] = []
    seen: set[int] = set()
    where = f" in {owner}" if owner else ""
    for card_id in ids:
        try:
            card = CARD_BY_ID[card_id]
        except (KeyError, TypeError):
            raise CardError(
                f"{card_id!r}{where} is not a card id", code="unknown-card", card=card_id, player=owner
            ) from None
        if card.index in seen:
            raise CardError(f"{card_id} is listed twice{where}", code="duplicate-card", card=card_id, player=owner)
        seen.add(card.index)
        cards.append(card)
    return cards
