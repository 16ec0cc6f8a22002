"""The text notation of a whole log, as PGN is for chess: ``format_log(body)`` and ``parse_log(text)``.

``body`` is the JSON form of a POST /v1/replay request (rules, players, deal, moves, nagari_streak, stake).
The text is a header of tags, then one move per line; docs/NOTATION.md is the grammar, with examples:

    [Rules korean-2p]
    [Players A B]
    [Layout 1B 2J 3R 4J 5A 6J 8J2 10R]

    A 1J 12D          # A plays January junk, flips the December double junk
    B 3Bx3R 3J        # B takes the ribbon of the two March cards on the layout
    A 2A P3,10J       # the stock turned up the 3-unit bonus card, then October junk
    A go

A card has a short code a person types on a phone, in ASCII (month + kind letter: ``1B``, ``8A``, ``9R``,
``3J``, ``3J2`` for the second junk, ``11D`` for a double junk, ``P2a``/``P2b``/``P3`` for the bonus cards) or
as Korean players say it (``1광``, ``8열``, ``9띠``, ``3피``, ``3피2``, ``11쌍피``, ``투피``, ``쓰리피``, and
``국진``, ``똥광``, ``비광``...); the card ids of the API are read too. These spellings and the move words
(``go``/``고``, ``shake``/``흔들기``...) are tokens of the grammar, like SAN's piece letters, not sentences.

``parse_log`` checks what the text itself can say is wrong (syntax, card names, the rules tag, a line that
is no move) and raises NotationError (``bad-notation``) naming the line and column; whether the deal and the
moves are legal is for ``replay`` to rule, as for a JSON body. ``read_log`` also gives where each move was
written, so that a refusal's ``move_index`` can be shown on its line.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Final

from .cards import CARD_BY_ID, CARDS, CUP, Card, Kind
from .deal import check_deal, read_deal
from .errors import IllegalMoveError, NotationError, RulesError
from .moves import Move
from .rules import RuleSet, find_rules, resolve

__all__ = ["SPELLINGS", "ParsedLog", "card_code", "decode_log", "format_log", "parse_log", "read_card", "read_log"]

# --- the cards ---------------------------------------------------------------------------------------------

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
"""The spellings ``format_log`` writes cards and move words in; ``parse_log`` reads both, mixed freely."""

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


_CARD_NAMES: Final = _names()


def card_code(card: Card | str, spelling: str = "ascii") -> str:
    """The code ``format_log`` writes for a card (a Card or its id): ``1B``, ``11D``... or ``1광``, ``11쌍피``..."""
    found = card if isinstance(card, Card) else CARD_BY_ID[card]
    return _CODES[_spelling(spelling)][found.index]


def read_card(text: str) -> Card | None:
    """The card a code names, in any spelling the notation reads (None for anything else)."""
    return _CARD_NAMES.get(text.lower())


def _spelling(spelling: str) -> str:
    if spelling not in _CODES:
        raise ValueError(f"spelling must be one of {', '.join(SPELLINGS)}, not {spelling!r}")
    return spelling


# --- the move words ----------------------------------------------------------------------------------------

# meaning -> (ASCII, Korean): what format_log writes
_WORDS: Final[dict[str, tuple[str, str]]] = {
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
_READ_WORDS: Final[dict[str, str]] = {
    **{spelled.lower(): meaning for meaning, pair in _WORDS.items() for spelled in pair},
    "스탑": "stop",
    "국준": "cup",
    "열": "animal",
    "피": "junk",
    "흔들": "shake",
}
_CALLS: Final = ("go", "stop")
_SIDES: Final = ("animal", "junk")

# --- the header --------------------------------------------------------------------------------------------

# tag -> how it is written (tag names are read in any case)
_TAGS: Final = {
    name.lower(): name for name in ("Rules", "Players", "Layout", "Hand", "Stock", "Shown", "SitOut", "Nagari", "Stake")
}
_PER_PLAYER: Final = ("hand", "shown")
_NUMBER: Final = re.compile(r"-?[0-9]{1,15}")
_BARE: Final = re.compile(r'[^\s"#\[\],\\]+')  # a word written without quotes
_LINES: Final = re.compile(r"\r\n|\r|\n")
# a comment, a mark, a quoted string (group 1: its closing quote, if any), a word; spaces match nothing
_TOKEN: Final = re.compile(r"""#.*|[\[\],]|"(?:[^"\\]|\\.)*("?)|[^\s\[\],#"]+""")
_ESCAPED: Final = re.compile(r"\\(.)")
_PUNCT: Final = ("[", "]", ",")
_ON: Final = {"on": True, "true": True, "off": False, "false": False}

# --- reading -----------------------------------------------------------------------------------------------


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


class ParsedLog:
    """A text log read: the replay ``body``, and where each move was written (``moves[i]`` is the (line,
    column) of move ``i``), so that a refusal at ``move_index`` i can be shown on its line."""

    __slots__ = ("body", "moves")

    def __init__(self, body: dict[str, Any], moves: list[tuple[int, int]]) -> None:
        self.body = body
        self.moves = moves

    def __repr__(self) -> str:
        return f"ParsedLog({self.body!r}, moves={self.moves!r})"


def _error(why: str, at: Word, **facts: Any) -> NotationError:
    return NotationError(why, line=at.line, column=at.column, **facts)


def _scan(text: str, line: int) -> list[Word]:
    """The words of one line: runs of characters between spaces, quoted strings ("..." with \\" and \\\\),
    and the marks ``[``, ``]`` and ``,``; a ``#`` outside quotes starts a comment."""
    out: list[Word] = []
    for match in _TOKEN.finditer(text):
        token = match.group()
        first = token[0]
        if first == "#":
            break
        column = match.start() + 1
        if first == '"':
            if not match.group(1):
                raise NotationError("unclosed-quote", line=line, column=column)
            out.append(Word(_ESCAPED.sub(r"\1", token[1:-1]), line, column, quoted=True))
        else:
            out.append(Word(token, line, column, punct=token in _PUNCT))
    return out


def _items(words: list[Word]) -> list[Item]:
    """Words joined by commas become one group (spaces around a comma are allowed)."""
    items: list[Item] = []
    i, n = 0, len(words)
    while i < n:
        word = words[i]
        if word.punct:
            raise _error("unexpected", word, token=word.text, expected="word")
        group = [word]
        i += 1
        grouped = False
        while i < n and words[i].is_punct(","):
            comma = words[i]
            grouped = True
            i += 1
            if i >= n or words[i].punct:
                raise _error("unexpected", words[i] if i < n else comma, token=",", expected="card")
            group.append(words[i])
            i += 1
        items.append(Item(group, grouped))
    return items


def _single(item: Item, expected: str) -> Word:
    if item.grouped:
        raise _error("unexpected", item.words[1], token=",", expected=expected)
    return item.first


def _card(word: Word) -> str:
    card = None if word.quoted else _CARD_NAMES.get(word.text.lower())
    if card is None:
        raise _error("unknown-card", word, card=word.text)
    return card.id


def _word(item: Item) -> str | None:
    """The move word an item is (``go``, ``shake``, ...), if it is one."""
    word = item.first
    if item.grouped or word.quoted:
        return None
    return _READ_WORDS.get(word.text.lower())


def _slot(word: Word) -> tuple[str | None, str | None]:
    """A card and the layout card it takes when two lay there: ``1J``, ``1Jx1B``; ``-`` for no card."""
    text = word.text
    cut = next((i for i in range(1, len(text)) if text[i] in "xX"), -1) if not word.quoted else -1
    head = text if cut < 0 else text[:cut]
    card = None if head == "-" and not word.quoted else _card(Word(head, word.line, word.column, quoted=word.quoted))
    if cut < 0:
        return card, None
    return card, _card(Word(text[cut + 1 :], word.line, word.column + cut + 1))


class _Header:
    """The tags read so far, each with the word that names it."""

    def __init__(self) -> None:
        self.seen: dict[str, Word] = {}
        self.rules: list[Item] | None = None
        self.players: list[str] | None = None
        self.layout: list[str] | None = None
        self.hands: dict[str, list[str]] | None = None
        self.stock: list[str] | None = None
        self.shown: dict[str, list[str]] = {}
        self.sit_out: dict[str, Any] | None = None
        self.nagari: int | None = None
        self.stake: int | None = None

    def read(self, words: list[Word]) -> None:
        """One tag line: ``[Name value value ...]``."""
        opening = words[0]
        if len(words) < 2 or not words[-1].is_punct("]"):
            raise _error("unclosed-tag", opening)
        items = _items(words[1:-1])
        if not items:
            raise _error("unexpected", words[-1], token="]", expected="tag")
        name_word = _single(items[0], "tag")
        name = name_word.text.lower()
        if name not in _TAGS or name_word.quoted:
            raise _error("unknown-tag", name_word, tag=name_word.text)
        values = items[1:]
        key = name
        owner = ""
        if name in _PER_PLAYER:
            if not values:
                raise _error("unexpected", words[-1], token="]", expected="player")
            owner = _single(values[0], "player").text
            key = f"{name} {owner}"
            values = values[1:]
        if key in self.seen:
            first = self.seen[key]
            raise _error("duplicate-tag", name_word, tag=_TAGS[name], first_line=first.line)
        self.seen[key] = name_word
        if name == "rules":
            if not values:
                raise _error("unexpected", words[-1], token="]", expected="preset")
            self.rules = values
        elif name == "players":
            self.players = [_single(v, "player").text for v in values]
        elif name == "sitout":  # [SitOut D 4 1B 3B ...]: who sat out, their seat, the cards known (RULES.md 4.5)
            if len(values) < 2:
                raise _error("unexpected", words[-1], token="]", expected="player" if not values else "number")
            number = _single(values[1], "number")
            if number.quoted or not _NUMBER.fullmatch(number.text):
                raise _error("not-a-number", number, token=number.text, tag=_TAGS[name])
            self.sit_out = {
                "player": _single(values[0], "player").text,
                "seat": int(number.text),
                "hand": [_card(word) for item in values[2:] for word in _words_of(item)],
            }
        elif name in ("nagari", "stake"):
            if len(values) != 1:
                at = values[1].first if values else words[-1]
                raise _error("unexpected", at, token=at.text, expected="number")
            number = _single(values[0], "number")
            if number.quoted or not _NUMBER.fullmatch(number.text):
                raise _error("not-a-number", number, token=number.text, tag=_TAGS[name])
            if name == "nagari":
                self.nagari = int(number.text)
            else:
                self.stake = int(number.text)
        else:
            cards = [_card(word) for item in values for word in _words_of(item)]
            if name == "layout":
                self.layout = cards
            elif name == "stock":
                self.stock = cards
            elif name == "hand":
                if self.hands is None:
                    self.hands = {}
                self.hands[owner] = cards
            else:
                self.shown[owner] = cards


def _words_of(item: Item) -> list[Word]:
    """A list of cards may be written with spaces or commas between them."""
    return item.words


def _move(items: list[Item]) -> dict[str, Any]:
    """One move line: the player, then a call, a cup declaration or a turn (docs/NOTATION.md 3)."""
    player = _single(items[0], "player").text
    out: dict[str, Any] = {"player": player}
    rest = items[1:]
    n = len(rest)
    first = _word(rest[0]) if rest else None
    if first in _CALLS:
        if n > 1:
            raise _extra(rest[1])
        out["call"] = first
        return out
    side = _word(rest[1]) if first == "cup" and n > 1 else None
    if first == "cup" and (side in _SIDES or read_card(rest[0].first.text) is None):  # 국진 is a card too
        if side not in _SIDES:
            at = rest[1].first if n > 1 else rest[0].first
            raise _error("unexpected", at, token=at.text if n > 1 else "", expected="cup-side")
        if n > 2:
            raise _extra(rest[2])
        out["sep_animal_as"] = side
        return out
    i = 0
    if i < n and _word(rest[i]) == "bonus":
        if i + 1 >= n:
            raise _error("unexpected", rest[i].first, token="", expected="card")
        out["bonus"] = _card(_single(rest[i + 1], "card"))
        i += 2
    kind = _word(rest[i]) if i < n else None
    if kind == "flip":
        out["flip"] = True
        i += 1
    elif kind in ("bomb", "shake"):
        if i + 1 >= n:
            raise _error("unexpected", rest[i].first, token="", expected="cards")
        out[kind] = [_card(word) for word in _words_of(rest[i + 1])]
        i += 2
    if kind != "flip" and kind != "bomb" and i < n:
        play, capture = _slot(_single(rest[i], "card"))
        if play is not None:
            out["play"] = play
        if capture is not None:
            out["capture"] = capture
        i += 1
    if i < n:
        _stock(rest[i], out)
        i += 1
    if i < n:
        raise _extra(rest[i])
    return out


def _stock(item: Item, out: dict[str, Any]) -> None:
    """What the stock turned up: the bonus cards in the order they came, then the draw (``P3,10J``); ``-``
    first says that no bonus card came up (``-,10J``)."""
    words = item.words
    if item.grouped:
        if words[0].text == "-" and not words[0].quoted:
            if len(words) != 2:
                raise _error("unexpected", words[1], token=words[1].text, expected="draw")
            out["bonus_flipped"] = []
        else:
            out["bonus_flipped"] = [_card(word) for word in words[:-1]]
    draw, capture = _slot(words[-1])
    if draw is not None:
        out["draw"] = draw
    if capture is not None:
        out["draw_capture"] = capture


def _extra(item: Item) -> NotationError:
    return _error("unexpected", item.first, token=item.first.text, expected="end-of-move")


def decode_log(data: bytes) -> str:
    """The text of a log sent as bytes: UTF-8, a byte-order mark skipped. Bytes that are not UTF-8 are a text that
    cannot be read: NotationError (``why`` ``not-utf-8``) at the line and column where they start."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        before = data[: err.start].decode("utf-8-sig")
        raise NotationError("not-utf-8", line=before.count("\n") + 1, column=len(before) - before.rfind("\n")) from None


def read_log(text: str) -> ParsedLog:
    """Read a log in the notation: the replay body, and where each move was written.

    Raises NotationError (``bad-notation``; ``line``, ``column`` and ``why``, with the facts of the fault)
    for text that is not a log: a word that is no card or no move, a tag unknown, repeated or missing, or a
    rules tag the engine refuses (``why`` ``rules``, with the RulesError's ``error``, ``error_why`` and facts).
    """
    header = _Header()
    moves: list[tuple[dict[str, Any], list[Item]]] = []
    for number, line in enumerate(_LINES.split(text), start=1):
        words = _scan(line, number)
        if not words:
            continue
        if words[0].is_punct("["):
            if moves:
                raise _error("tag-after-moves", words[0])
            header.read(words)
            continue
        items = _items(words)
        moves.append((_move(items), items))
    start = Word("", 1, 1)
    for tag, value in (("Players", header.players), ("Layout", header.layout)):
        if value is None:
            raise _error("missing-tag", start, tag=tag)
    assert header.players is not None and header.layout is not None
    body: dict[str, Any] = {}
    if header.rules is not None:
        body["rules"] = _rules(header.rules, len(header.players))
    body["players"] = header.players
    deal: dict[str, Any] = {"layout": header.layout}
    if header.hands is not None:
        deal["hands"] = header.hands
    if header.stock is not None:
        deal["stock"] = header.stock
    if header.shown:
        deal["shown"] = header.shown
    if header.sit_out is not None:
        deal["sit_out"] = header.sit_out
    body["deal"] = deal
    body["moves"] = [move for move, _ in moves]
    for i, (move, items) in enumerate(moves):
        try:
            Move.from_dict(move, index=i)
        except IllegalMoveError as err:  # words that make no move: a turn without a card, a capture alone ...
            at = items[1].first if len(items) > 1 else items[0].first
            raise _error("move", at, error=err.code, error_why=err.why, **err.params) from None
    if header.nagari is not None:
        body["nagari_streak"] = header.nagari
    if header.stake is not None:
        body["stake"] = header.stake
    return ParsedLog(body, [(items[0].first.line, items[0].first.column) for _, items in moves])


def parse_log(text: str) -> dict[str, Any]:
    """The POST /v1/replay body a log in the notation writes; raises NotationError (see ``read_log``)."""
    return read_log(text).body


def _rules(items: list[Item], players: int) -> str | dict[str, Any]:
    """``[Rules preset knob=value ...]``: the knobs' values are read by the type the rule set gives them."""
    preset: Word | None = None
    knobs: dict[str, Any] = {}
    where: dict[str, Word] = {}
    for item in items:
        word = item.first
        name, eq, value = word.text.partition("=")
        if not eq and not item.grouped and preset is None and not knobs:
            preset = word
            continue
        if not eq or word.quoted:
            raise _error("unexpected", word, token=word.text, expected="knob")
        if name == "preset" and preset is None and not item.grouped:
            preset = Word(value, word.line, word.column + len(name) + 1)
            continue
        if name in where:
            raise _error("duplicate-knob", word, knob=name, first_column=where[name].column)
        where[name] = word
        knobs[name] = [value, *(w.text for w in item.words[1:])] if item.grouped else value
    try:
        base = find_rules(preset.text) if preset is not None else resolve(None, players=players)
    except RulesError as err:
        assert preset is not None
        raise _error("rules", preset, error=err.code, error_why=err.why, **err.params) from None
    samples = base.asdict()
    spec: dict[str, Any] = {name: _knob_value(samples.get(name), value) for name, value in knobs.items()}
    if preset is not None:
        spec = {"preset": preset.text, **spec}
    try:
        resolve(spec, players=players)
    except RulesError as err:
        at = where.get(str(err.params.get("knob")), preset or items[0].first)
        raise _error("rules", at, error=err.code, error_why=err.why, **err.params) from None
    if not knobs:
        assert preset is not None
        return preset.text
    return spec


def _knob_value(sample: Any, value: str | list[str]) -> Any:
    """A knob's value as written, in the type of the rule set's own value (``sample``): ``on``/``off``, a
    number, a choice, or a list (``none`` for an empty one). A value of the wrong form is passed on as
    written, for ``resolve`` to refuse with the knob's own reason."""
    if isinstance(sample, (list, tuple)):
        values = [value] if isinstance(value, str) else value
        if values in (["none"], [""]):
            return []
        return [int(v) if _NUMBER.fullmatch(v) else v for v in values]
    if not isinstance(value, str):
        return value
    if isinstance(sample, bool):
        return _ON.get(value.lower(), value)
    if isinstance(sample, int) and _NUMBER.fullmatch(value):
        return int(value)
    return value


# --- writing -----------------------------------------------------------------------------------------------


def format_log(body: Mapping[str, Any], *, spelling: str = "ascii") -> str:
    """The log of a POST /v1/replay body in the notation; ``spelling`` is ``ascii`` (``1B``, ``go``) or
    ``korean`` (``1광``, ``고``).

    The body is written as it is, legal or not, so that ``parse_log`` gives back the same log; what the
    notation cannot write is refused with the engine's own error: an unknown card id or a move of no known
    form (IllegalMoveError, as ``replay`` would raise it), rules that cannot be built (RulesError).
    """
    codes = _CODES[_spelling(spelling)]
    korean = spelling == "korean"
    unknown = set(body) - {"rules", "players", "deal", "moves", "nagari_streak", "stake"}
    if unknown:
        raise ValueError(f"not a field of a replay body: {', '.join(sorted(unknown))}")
    players = [str(p) for p in body["players"]]
    rules = body.get("rules")
    rule_set = resolve(rules, players=len(players))  # RulesError for rules no replay could use
    deal_data = body["deal"]
    deal = read_deal(deal_data)  # bad-deal naming an unknown card id
    if deal_data.get("hands") is not None and not deal_data["hands"]:
        # no tag says "the hands are known, and there are none": refuse it as the replay would
        check_deal(deal, players, rule_set)
    moves = [m if isinstance(m, Move) else Move.from_dict(m, index=i) for i, m in enumerate(body.get("moves") or [])]

    def cards(group: Sequence[Card]) -> str:
        return " ".join(codes[c.index] for c in group)

    lines: list[str] = []
    if rules is not None and _rules_text(rules):
        lines.append(_tag("Rules", _rules_text(rules)))
    lines.append(_tag("Players", " ".join(_quoted(p) for p in players)))
    lines.append(_tag("Layout", cards(deal.layout)))
    if deal.hands is not None:
        lines += [_tag("Hand", _quoted(pid), cards(hand)) for pid, hand in deal.hands.items()]
    if deal.stock is not None:
        lines.append(_tag("Stock", cards(deal.stock)))
    lines += [_tag("Shown", _quoted(pid), cards(shown)) for pid, shown in deal.shown.items()]
    if deal.sit_out is not None:
        sitter = deal.sit_out
        lines.append(_tag("SitOut", _quoted(sitter.player), str(sitter.seat), cards(sitter.hand)))
    if body.get("nagari_streak") is not None:
        lines.append(_tag("Nagari", str(int(body["nagari_streak"]))))
    if body.get("stake") is not None:
        lines.append(_tag("Stake", str(int(body["stake"]))))
    lines.append("")
    lines += [_move_text(move, codes, korean) for move in moves]
    return "\n".join(lines) + "\n"


def _tag(name: str, *values: str) -> str:
    return "[" + " ".join([name, *(v for v in values if v)]) + "]"


def _quoted(word: str) -> str:
    """A player's id as one word: bare when it can be, else in quotes."""
    if "\n" in word or "\r" in word:
        raise ValueError(f"a player id on two lines cannot be written: {word!r}")
    if _BARE.fullmatch(word):
        return word
    return '"' + word.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _rules_text(rules: str | Mapping[str, Any] | RuleSet) -> str:
    if isinstance(rules, RuleSet):
        rules = rules.asdict()
    if isinstance(rules, str):
        return rules
    words = [str(rules["preset"])] if "preset" in rules else []
    for name, value in rules.items():
        if name == "preset":
            continue
        if isinstance(value, bool):
            text = "on" if value else "off"
        elif isinstance(value, (list, tuple)):
            text = ",".join(str(v) for v in value) or "none"
        else:
            text = str(value)
        words.append(f"{name}={text}")
    return " ".join(words)


def _move_text(move: Move, codes: tuple[str, ...], korean: bool) -> str:
    def word(meaning: str) -> str:
        return _WORDS[meaning][1 if korean else 0]

    def slot(card: Card | None, capture: Card | None) -> str:
        text = "-" if card is None else codes[card.index]
        return text if capture is None else f"{text}x{codes[capture.index]}"

    parts = [_quoted(move.player)]
    if move.call is not None:
        parts.append(word(move.call))
    elif move.kind == "declare":
        assert move.sep_animal_as is not None
        parts += [word("cup"), word(move.sep_animal_as)]
    else:
        if move.bonus is not None:
            parts += [word("bonus"), codes[move.bonus.index]]
        stock = move.draw is not None or move.draw_capture is not None or move.bonus_flipped is not None
        if move.flip:
            parts.append(word("flip"))
        elif move.bomb:
            parts += [word("bomb"), ",".join(codes[c.index] for c in move.bomb)]
        else:
            if move.shake:
                parts += [word("shake"), ",".join(codes[c.index] for c in move.shake)]
            if move.play is not None or move.capture is not None or stock:
                parts.append(slot(move.play, move.capture))
        if stock:
            flipped = move.bonus_flipped
            draw = slot(move.draw, move.draw_capture)
            if flipped is None:
                parts.append(draw)
            elif not flipped:
                parts.append("-," + draw)
            else:
                parts.append(",".join([*(codes[c.index] for c in flipped), draw]))
    return " ".join(parts)
