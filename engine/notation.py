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
from dataclasses import dataclass
from typing import Any, Final

from .cards import SPELLINGS, Card, card_code, card_codes, read_card
from .deal import check_deal, read_deal
from .errors import IllegalMoveError, NotationError, RulesError
from .lexicon import Item, Word, card_id, error, first_token, items, move_items, quoted, scan, single
from .moves import Move, move_fields
from .rules import RuleSet, find_rules, resolve

__all__ = ["SPELLINGS", "ParsedLog", "card_code", "decode_log", "format_log", "parse_log", "read_card", "read_log"]

# --- the header --------------------------------------------------------------------------------------------

# tag -> how it is written (tag names are read in any case)
_TAGS: Final = {
    name.lower(): name for name in ("Rules", "Players", "Layout", "Hand", "Stock", "Shown", "SitOut", "Nagari", "Stake")
}
_PER_PLAYER: Final = ("hand", "shown")
_NUMBER: Final = re.compile(r"-?[0-9]{1,15}")
_LINES: Final = re.compile(r"\r\n|\r|\n")
_ON: Final = {"on": True, "true": True, "off": False, "false": False}

# --- reading -----------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ParsedLog:
    """A text log read: the replay ``body``, and where each move was written (``moves[i]`` is the (line,
    column) of move ``i``), so that a refusal at ``move_index`` i can be shown on its line."""

    body: dict[str, Any]
    moves: list[tuple[int, int]]


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
            raise error("unclosed-tag", opening)
        tag_items = items(words[1:-1])
        if not tag_items:
            raise error("unexpected", words[-1], token="]", expected="tag")
        name_word = single(tag_items[0], "tag")
        name = name_word.text.lower()
        if name not in _TAGS or name_word.quoted:
            raise error("unknown-tag", name_word, tag=name_word.text)
        values = tag_items[1:]
        key = name
        owner = ""
        if name in _PER_PLAYER:
            if not values:
                raise error("unexpected", words[-1], token="]", expected="player")
            owner = single(values[0], "player").text
            key = f"{name} {owner}"
            values = values[1:]
        if key in self.seen:
            first = self.seen[key]
            raise error("duplicate-tag", name_word, tag=_TAGS[name], first_line=first.line)
        self.seen[key] = name_word
        if name == "rules":
            if not values:
                raise error("unexpected", words[-1], token="]", expected="preset")
            self.rules = values
        elif name == "players":
            self.players = [single(v, "player").text for v in values]
        elif name == "sitout":  # [SitOut D 4 1B 3B ...]: who sat out, their seat, the cards known (RULES.md 4.5)
            if len(values) < 2:
                raise error("unexpected", words[-1], token="]", expected="player" if not values else "number")
            number = single(values[1], "number")
            if number.quoted or not _NUMBER.fullmatch(number.text):
                raise error("not-a-number", number, token=number.text, tag=_TAGS[name])
            self.sit_out = {
                "player": single(values[0], "player").text,
                "seat": int(number.text),
                "hand": [card_id(word) for item in values[2:] for word in _words_of(item)],
            }
        elif name in ("nagari", "stake"):
            if len(values) != 1:
                at = values[1].first if values else words[-1]
                raise error("unexpected", at, token=at.text, expected="number")
            number = single(values[0], "number")
            if number.quoted or not _NUMBER.fullmatch(number.text):
                raise error("not-a-number", number, token=number.text, tag=_TAGS[name])
            if name == "nagari":
                self.nagari = int(number.text)
            else:
                self.stake = int(number.text)
        else:
            cards = [card_id(word) for item in values for word in _words_of(item)]
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
        first = first_token(line)
        if first is None:
            continue
        if first == "[":
            words = scan(line, number)
            if moves:
                raise error("tag-after-moves", words[0])
            header.read(words)
            continue
        line_items = move_items(line, number)
        moves.append((move_fields(line_items), line_items))
    start = Word("", 1, 1)
    for tag, value in (("Players", header.players), ("Layout", header.layout)):
        if value is None:
            raise error("missing-tag", start, tag=tag)
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
    for i, (move, line_items) in enumerate(moves):
        try:
            Move.from_dict(move, index=i)
        except IllegalMoveError as err:  # words that make no move: a turn without a card, a capture alone ...
            at = line_items[1].first if len(line_items) > 1 else line_items[0].first
            raise error("move", at, error=err.code, error_why=err.why, **err.params) from None
    if header.nagari is not None:
        body["nagari_streak"] = header.nagari
    if header.stake is not None:
        body["stake"] = header.stake
    return ParsedLog(body, [(words[0].first.line, words[0].first.column) for _, words in moves])


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
            raise error("unexpected", word, token=word.text, expected="knob")
        if name == "preset" and preset is None and not item.grouped:
            preset = Word(value, word.line, word.column + len(name) + 1)
            continue
        if name in where:
            raise error("duplicate-knob", word, knob=name, first_column=where[name].column)
        where[name] = word
        knobs[name] = [value, *(w.text for w in item.words[1:])] if item.grouped else value
    try:
        base = find_rules(preset.text) if preset is not None else resolve(None, players=players)
    except RulesError as err:
        assert preset is not None
        raise error("rules", preset, error=err.code, error_why=err.why, **err.params) from None
    samples = base.asdict()
    spec: dict[str, Any] = {name: _knob_value(samples.get(name), value) for name, value in knobs.items()}
    if preset is not None:
        spec = {"preset": preset.text, **spec}
    try:
        resolve(spec, players=players)
    except RulesError as err:
        at = where.get(str(err.params.get("knob")), preset or items[0].first)
        raise error("rules", at, error=err.code, error_why=err.why, **err.params) from None
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
    codes = card_codes(spelling)
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
    lines.append(_tag("Players", " ".join(quoted(p) for p in players)))
    lines.append(_tag("Layout", cards(deal.layout)))
    if deal.hands is not None:
        lines += [_tag("Hand", quoted(pid), cards(hand)) for pid, hand in deal.hands.items()]
    if deal.stock is not None:
        lines.append(_tag("Stock", cards(deal.stock)))
    lines += [_tag("Shown", quoted(pid), cards(shown)) for pid, shown in deal.shown.items()]
    if deal.sit_out is not None:
        sitter = deal.sit_out
        lines.append(_tag("SitOut", quoted(sitter.player), str(sitter.seat), cards(sitter.hand)))
    if body.get("nagari_streak") is not None:
        lines.append(_tag("Nagari", str(int(body["nagari_streak"]))))
    if body.get("stake") is not None:
        lines.append(_tag("Stake", str(int(body["stake"]))))
    lines.append("")
    lines += [move.text(spelling) for move in moves]
    return "\n".join(lines) + "\n"


def _tag(name: str, *values: str) -> str:
    return "[" + " ".join([name, *(v for v in values if v)]) + "]"


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
