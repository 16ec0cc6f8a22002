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
    "CHONGTONG_CHOICES",
    "MOVE_ITEMS",
    "READ_WORDS",
    "SHODANG_ANSWERS",
    "SHODANG_MOVES",
    "SIDES",
    "WORDS",
    "Item",
    "Word",
    "card_id",
    "error",
    "first_token",
    "items",
    "move_items",
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
    "chongtong": ("chongtong", "총통"),
    "win": ("win", "승"),
    "play-on": ("play-on", "계속"),
    "shodang": ("shodang", "쇼당"),
    "accept": ("accept", "수락"),
    "decline": ("decline", "거절"),
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
CHONGTONG_CHOICES: Final = ("win", "play-on")  # the chongtong choice at the deal (RULES.md 4.3)
SHODANG_ANSWERS: Final = ("accept", "decline")  # the answers to a shodang (RULES.md 8.7)
SHODANG_MOVES: Final = ("call", *SHODANG_ANSWERS)

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


MOVE_ITEMS: Final = 10  # more items than any move line has (a player, a bonus and its card, a shake and its cards ...)


def first_token(text: str) -> str | None:
    """The first word or mark of a line (None for a blank line or a comment): ``[`` starts a tag."""
    match = TOKEN.search(text)
    return None if match is None or match.group()[0] == "#" else match.group()


def move_items(text: str, line: int, most: int = MOVE_ITEMS) -> list[Item]:
    """``items(scan(text, line))`` for a move line, cut after ``most`` items (no move reads that far: the first
    item past its end is refused), with the same refusals in the same order: an unclosed quote (the line's last
    word, whatever comes before it), then the first mark out of place.

    In one pass, and past the ``most`` items it builds no word: a line of 64 KiB of marks or quotes costs the
    regular expression's walk over it, where building every word first made the reading slower per character
    the longer the line (issue 30).
    """
    out: list[Item] = []
    group: list[Word] = []
    fault: NotationError | None = None
    comma: re.Match[str] | None = None
    grouping = False  # after a word: a comma may join the next word to it
    for match in TOKEN.finditer(text):
        token = match.group()
        first = token[0]
        if first == "#":
            break
        if first == '"' and not match.group(1):
            raise NotationError("unclosed-quote", line=line, column=match.start() + 1)
        if fault is not None:
            continue  # only an unclosed quote at the end comes before it
        punct = first != '"' and token in PUNCT
        if comma is not None:  # a word must follow the comma
            if punct:
                fault = NotationError("unexpected", line=line, column=match.start() + 1, token=",", expected="card")
                continue
            comma = None
            if len(out) < most:
                group.append(_word(match, line))
            grouping = True
        elif grouping and token == "," and punct:
            comma = match
        elif punct:
            fault = NotationError("unexpected", line=line, column=match.start() + 1, token=token, expected="word")
        else:
            if group:
                out.append(Item(group, len(group) > 1))
            group = [_word(match, line)] if len(out) < most else []
            grouping = True
    if fault is not None:
        raise fault
    if comma is not None:
        raise NotationError("unexpected", line=line, column=comma.start() + 1, token=",", expected="card")
    if group:
        out.append(Item(group, len(group) > 1))
    return out


def _word(match: re.Match[str], line: int) -> Word:
    token = match.group()
    column = match.start() + 1
    if token[0] == '"':
        inner = token[1:-1]
        return Word(ESCAPED.sub(r"\1", inner) if "\\" in inner else inner, line, column, quoted=True)
    return Word(token, line, column, punct=token in PUNCT)


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
