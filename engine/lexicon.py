"""The words of the text notation (docs/NOTATION.md): a line scanned into words and groups, the move words,
and a card or a player's id as one word. ``engine.moves`` reads and writes one move with them, ``engine.notation``
a whole log.

The card codes (``1B``, ``11D``, ``1광``...) live with the cards (``engine.cards``); these spellings and the move
words (``go``/``고``, ``shake``/``흔들기``...) are tokens of the grammar, like SAN's piece letters, not sentences.
"""

from __future__ import annotations

import re
from typing import Any, Final

from .cards import CARD_NAMES
from .errors import NotationError

__all__ = [
    "BARE",
    "CALLS",
    "READ_WORDS",
    "SIDES",
    "WORDS",
    "Item",
    "Word",
    "card_id",
    "error",
    "items",
    "move_word",
    "quoted",
    "scan",
    "single",
    "slot",
]

# --- the move words ----------------------------------------------------------------------------------------

# meaning -> (ASCII, Korean): what format_log writes
WORDS: Final[dict[str, tuple[str, str]]] = {
    "go": ("go", "고"),
    "stop": ("stop", "스톱"),
    "cup": ("cup", "국진"),
    "animal": ("animal", "열끗"),
    "junk": ("junk", "쌍피"),
    "bonus": ("bonus", "보너스"),
    "shake": ("shake", "흔들기"),
    "bomb": ("bomb", "폭탄"),
    "flip": ("flip", "뒤집기"),
}
# what parse_log reads (lower-cased) -> meaning
READ_WORDS: Final[dict[str, str]] = {
    **{spelled.lower(): meaning for meaning, pair in WORDS.items() for spelled in pair},
    "스탑": "stop",
    "국준": "cup",
    "열": "animal",
    "피": "junk",
    "흔들": "shake",
}
CALLS: Final = ("go", "stop")
SIDES: Final = ("animal", "junk")

# --- words -------------------------------------------------------------------------------------------------

BARE: Final = re.compile(r'[^\s"#\[\],\\]+')  # a word written without quotes
# a comment, a mark, a quoted string (group 1: its closing quote, if any), a word; spaces match nothing
TOKEN: Final = re.compile(r"""#.*|[\[\],]|"(?:[^"\\]|\\.)*("?)|[^\s\[\],#"]+""")
ESCAPED: Final = re.compile(r"\\(.)")
PUNCT: Final = ("[", "]", ",")


class Word:
    """A word of the text and where it starts (line and column count from 1; a column counts characters)."""

    __slots__ = ("column", "line", "punct", "quoted", "text")

    def __init__(self, text: str, line: int, column: int, *, quoted: bool = False, punct: bool = False) -> None:
        self.text = text
        self.line = line
        self.column = column
        self.quoted = quoted
        self.punct = punct

    def is_punct(self, mark: str) -> bool:
        return self.punct and self.text == mark


class Item:
    """A word, or words joined by commas (a group: ``1B,1R,1J``, ``P3,10J``, ``7,14,21``)."""

    __slots__ = ("grouped", "words")

    def __init__(self, words: list[Word], grouped: bool) -> None:
        self.words = words
        self.grouped = grouped

    @property
    def first(self) -> Word:
        return self.words[0]


def error(why: str, at: Word, **facts: Any) -> NotationError:
    return NotationError(why, line=at.line, column=at.column, **facts)


def scan(text: str, line: int) -> list[Word]:
    """The words of one line: runs of characters between spaces, quoted strings ("..." with \\" and \\\\),
    and the marks ``[``, ``]`` and ``,``; a ``#`` outside quotes starts a comment."""
    out: list[Word] = []
    for match in TOKEN.finditer(text):
        token = match.group()
        first = token[0]
        if first == "#":
            break
        column = match.start() + 1
        if first == '"':
            if not match.group(1):
                raise NotationError("unclosed-quote", line=line, column=column)
            inner = token[1:-1]
            out.append(Word(ESCAPED.sub(r"\1", inner) if "\\" in inner else inner, line, column, quoted=True))
        else:
            out.append(Word(token, line, column, punct=token in PUNCT))
    return out


def items(words: list[Word]) -> list[Item]:
    """Words joined by commas become one group (spaces around a comma are allowed)."""
    out: list[Item] = []
    i, n = 0, len(words)
    while i < n:
        word = words[i]
        if word.punct:
            raise error("unexpected", word, token=word.text, expected="word")
        group = [word]
        i += 1
        grouped = False
        while i < n and words[i].is_punct(","):
            comma = words[i]
            grouped = True
            i += 1
            if i >= n or words[i].punct:
                raise error("unexpected", words[i] if i < n else comma, token=",", expected="card")
            group.append(words[i])
            i += 1
        out.append(Item(group, grouped))
    return out


def single(item: Item, expected: str) -> Word:
    if item.grouped:
        raise error("unexpected", item.words[1], token=",", expected=expected)
    return item.first


def card_id(word: Word) -> str:
    card = None if word.quoted else CARD_NAMES.get(word.text.lower())
    if card is None:
        raise error("unknown-card", word, card=word.text)
    return card.id


def move_word(item: Item) -> str | None:
    """The move word an item is (``go``, ``shake``, ...), if it is one."""
    word = item.first
    if item.grouped or word.quoted:
        return None
    return READ_WORDS.get(word.text.lower())


def slot(word: Word) -> tuple[str | None, str | None]:
    """A card and the layout card it takes when two lay there: ``1J``, ``1Jx1B``; ``-`` for no card."""
    text = word.text
    cut = next((i for i in range(1, len(text)) if text[i] in "xX"), -1) if not word.quoted else -1
    head = text if cut < 0 else text[:cut]
    card = None if head == "-" and not word.quoted else card_id(Word(head, word.line, word.column, quoted=word.quoted))
    if cut < 0:
        return card, None
    return card, card_id(Word(text[cut + 1 :], word.line, word.column + cut + 1))


def quoted(word: str) -> str:
    """A player's id as one word: bare when it can be, else in quotes."""
    if "\n" in word or "\r" in word:
        raise ValueError(f"a player id on two lines cannot be written: {word!r}")
    if BARE.fullmatch(word):
        return word
    return '"' + word.replace("\\", "\\\\").replace('"', '\\"') + '"'
