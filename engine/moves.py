"""Moves of a logged hand (``Move``, read and written as JSON-ready dicts and as a line of the text notation),
what the table expects next,
and how a hand can end.

A move is a *turn*, a *call* or a *cup declaration*:

- a normal turn plays a hand card (``play``), naming which of two layout cards it takes when there is a
  choice (``capture``), then flips the stock top (``draw``, and ``draw_capture`` likewise);
- a shake (heundeum 흔들기) shows three cards of a month (``shake``) and plays one of them (``play``);
- a bomb (poktan 폭탄) plays three cards of a month at once (``bomb``) onto the fourth on the layout;
- a flip-only turn (``flip: true``), held after a bomb, only flips the stock;
- a bonus card from hand (``bonus``) goes to the captures; then, per ``bonus_from_hand``, the player plays a
  hand card, which may be a shake or a bomb (``replace``: after taking the stock top into the hand), or the
  stock top is played as if from hand (``extra-flip``: ``play`` is that flipped card);
- ``bonus_flipped`` lists bonus cards turned up from the stock during the turn (they go to the captures at
  once); a log without a known stock must state them;
- ``chongtong``, in a bonus turn: the four cards of a month the card taken into the hand for the bonus card
  completed, where the rules make that a chongtong (RULES.md 4.3); the turn, and the hand, end there;
- a call is ``{"player": ..., "call": "go" | "stop"}``;
- a cup declaration ``{"player": ..., "sep_animal_as": "animal" | "junk"}`` pins the holder's cup;
- the chongtong choice ``{"player": ..., "chongtong_choice": "win" | "play-on"}``, made by the holder of a
  chongtong dealt before the first play where the rules let them choose (``chongtong_at_deal: choice``, RULES.md
  4.3);
- a shodang (쇼당, RULES.md 8.7) ``{"player": ..., "shodang": "call"}``, on the caller's turn before playing, and
  each other player's answer ``{"player": ..., "shodang": "accept" | "decline"}``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from enum import StrEnum
from typing import Any, Final

from .cards import CARD_BY_ID, Card, by_id, card_codes, read_card
from .errors import IllegalMoveError, NotationError, culprit
from .lexicon import (
    CALLS,
    CHONGTONG_CHOICES,
    SHODANG_ANSWERS,
    SHODANG_MOVES,
    SIDES,
    WORDS,
    Item,
    card_id,
    error,
    first_token,
    move_items,
    move_word,
    quoted,
    single,
    slot,
)

__all__ = ["INSTANT_WINS", "Expect", "Move", "Outcome"]


class Expect(StrEnum):
    """What the log must say next: a turn (``play``; a held flip turn may be used instead), a flip-only
    turn (``flip``), a go/stop decision (``call``), the chongtong choice at the deal (``chongtong``) or an
    answer to a shodang (``shodang``)."""

    PLAY = "play"
    FLIP = "flip"
    CALL = "call"
    CHONGTONG = "chongtong"
    SHODANG = "shodang"


class Outcome(StrEnum):
    """How a hand ended (RULES.md 4, 7, 8, 9)."""

    STOP = "stop"
    NAGARI = "nagari"
    REDEAL = "redeal"
    CHONGTONG = "chongtong"
    THREE_PPUK = "three-ppuk"
    HEODANG = "heodang"


INSTANT_WINS: Final = frozenset({Outcome.CHONGTONG, Outcome.THREE_PPUK, Outcome.HEODANG})


class Move:
    """One entry of a move log: a value (two moves with the same fields are equal).

    Build one with a typed constructor (``Move.turn``, ``Move.shake_turn``, ``Move.bomb_turn``,
    ``Move.flip_turn``, ``Move.bonus_turn``, ``Move.go``, ``Move.stop``, ``Move.declare``), read one with
    ``Move.from_dict``, or give the fields directly; ``GameState.apply`` refuses fields that make no one move
    (``bad-move``). Card fields take Card values (the constructors also take card ids).
    """

    __slots__ = (
        "bomb",
        "bonus",
        "bonus_flipped",
        "call",
        "capture",
        "chongtong",
        "chongtong_choice",
        "draw",
        "draw_capture",
        "flip",
        "play",
        "player",
        "sep_animal_as",
        "shake",
        "shodang",
    )

    def __init__(
        self,
        player: str,
        play: Card | None = None,
        capture: Card | None = None,
        draw: Card | None = None,
        draw_capture: Card | None = None,
        shake: tuple[Card, ...] = (),
        bomb: tuple[Card, ...] = (),
        flip: bool = False,
        bonus: Card | None = None,
        bonus_flipped: tuple[Card, ...] | None = None,
        call: str | None = None,
        sep_animal_as: str | None = None,
        chongtong: tuple[Card, ...] = (),
        chongtong_choice: str | None = None,
        shodang: str | None = None,
    ) -> None:
        self.player: Final = player
        self.play: Final = play
        self.capture: Final = capture
        self.draw: Final = draw
        self.draw_capture: Final = draw_capture
        self.shake: Final = shake
        self.bomb: Final = bomb
        self.flip: Final = flip
        self.bonus: Final = bonus
        self.bonus_flipped: Final = bonus_flipped
        self.call: Final = call
        self.sep_animal_as: Final = sep_animal_as
        self.chongtong: Final = chongtong
        self.chongtong_choice: Final = chongtong_choice
        self.shodang: Final = shodang

    # --- one constructor per kind of move ------------------------------------------------------------------

    @staticmethod
    def turn(
        player: str,
        play: Card | str,
        *,
        capture: Card | str | None = None,
        draw: Card | str | None = None,
        draw_capture: Card | str | None = None,
        bonus_flipped: Sequence[Card | str] | None = None,
    ) -> Move:
        """A normal turn (RULES.md 5): play a hand card, then flip the stock top."""
        return Move(
            player, _one(play), _opt(capture), _opt(draw), _opt(draw_capture), bonus_flipped=_opt_list(bonus_flipped)
        )

    @staticmethod
    def shake_turn(
        player: str,
        cards: Sequence[Card | str],
        play: Card | str,
        *,
        capture: Card | str | None = None,
        draw: Card | str | None = None,
        draw_capture: Card | str | None = None,
        bonus_flipped: Sequence[Card | str] | None = None,
    ) -> Move:
        """A shake (흔들기, RULES.md 5): show three hand cards of a month, and play one of them."""
        return Move(
            player,
            _one(play),
            _opt(capture),
            _opt(draw),
            _opt(draw_capture),
            shake=_list(cards),
            bonus_flipped=_opt_list(bonus_flipped),
        )

    @staticmethod
    def bomb_turn(
        player: str,
        cards: Sequence[Card | str],
        *,
        draw: Card | str | None = None,
        draw_capture: Card | str | None = None,
        bonus_flipped: Sequence[Card | str] | None = None,
    ) -> Move:
        """A bomb (폭탄, RULES.md 5): play three hand cards of a month onto the fourth, then flip."""
        return Move(
            player,
            None,
            None,
            _opt(draw),
            _opt(draw_capture),
            bomb=_list(cards),
            bonus_flipped=_opt_list(bonus_flipped),
        )

    @staticmethod
    def flip_turn(
        player: str,
        *,
        draw: Card | str | None = None,
        draw_capture: Card | str | None = None,
        bonus_flipped: Sequence[Card | str] | None = None,
    ) -> Move:
        """A flip-only turn held after a bomb (RULES.md 5)."""
        return Move(
            player, None, None, _opt(draw), _opt(draw_capture), flip=True, bonus_flipped=_opt_list(bonus_flipped)
        )

    @staticmethod
    def bonus_turn(
        player: str,
        bonus: Card | str,
        *,
        play: Card | str | None = None,
        capture: Card | str | None = None,
        shake: Sequence[Card | str] = (),
        bomb: Sequence[Card | str] = (),
        draw: Card | str | None = None,
        draw_capture: Card | str | None = None,
        bonus_flipped: Sequence[Card | str] | None = None,
        chongtong: Sequence[Card | str] = (),
    ) -> Move:
        """A bonus card from hand (RULES.md 5), then the card played after it (``bonus_from_hand`` says which);
        or, where the card taken in for it completes a chongtong, the four (``chongtong``, RULES.md 4.3)."""
        return Move(
            player,
            _opt(play),
            _opt(capture),
            _opt(draw),
            _opt(draw_capture),
            shake=_list(shake),
            bomb=_list(bomb),
            bonus=_one(bonus),
            bonus_flipped=_opt_list(bonus_flipped),
            chongtong=_list(chongtong),
        )

    @staticmethod
    def go(player: str) -> Move:
        """A go call (RULES.md 7)."""
        return Move(player, call="go")

    @staticmethod
    def stop(player: str) -> Move:
        """A stop call (RULES.md 7)."""
        return Move(player, call="stop")

    @staticmethod
    def choose_chongtong(player: str, choice: str) -> Move:
        """The chongtong choice at the deal (RULES.md 4.3): ``win`` the hand as a chongtong, or ``play-on``."""
        return Move(player, chongtong_choice=choice)

    @staticmethod
    def call_shodang(player: str) -> Move:
        """A shodang call (RULES.md 8.7), on the caller's turn before playing."""
        return Move(player, shodang="call")

    @staticmethod
    def answer_shodang(player: str, answer: str) -> Move:
        """An answer to a shodang (RULES.md 8.7): ``accept`` or ``decline``."""
        return Move(player, shodang=answer)

    @staticmethod
    def declare(player: str, sep_animal_as: str) -> Move:
        """A cup declaration (RULES.md 3): the holder counts the cup as an ``animal`` or as ``junk``."""
        return Move(player, sep_animal_as=sep_animal_as)

    # --- a value -------------------------------------------------------------------------------------------

    def _fields(self) -> tuple[object, ...]:
        return (
            self.player,
            self.play,
            self.capture,
            self.draw,
            self.draw_capture,
            self.shake,
            self.bomb,
            self.flip,
            self.bonus,
            self.bonus_flipped,
            self.call,
            self.sep_animal_as,
            self.chongtong,
            self.chongtong_choice,
            self.shodang,
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Move) and other._fields() == self._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        try:
            return f"Move.parse({self.text()!r})"
        except ValueError:  # a player id on two lines has no text
            return f"Move.from_dict({self.to_dict()!r})"

    def __str__(self) -> str:
        return self.text() if "\n" not in self.player and "\r" not in self.player else repr(self)

    @staticmethod
    def parse(text: str, *, index: int = 0) -> Move:
        """One move in the text notation (docs/NOTATION.md 3): ``A 1J 12D``, ``B 3Bx3R 3J``, ``A go``...

        Raises NotationError (``bad-notation``, line 1 and the column) for words that make no move, with the
        refusal of ``Move.from_dict`` (``why`` ``move``) for fields that make no move of a known form.
        """
        if first_token(text) is None:
            raise NotationError("unexpected", line=1, column=1, token="", expected="player")
        line = move_items(text, 1)
        fields = move_fields(line)
        try:
            return Move.from_dict(fields, index=index)
        except IllegalMoveError as err:  # words that make no move: a turn without a card, a capture alone ...
            at = line[1].first if len(line) > 1 else line[0].first
            raise error("move", at, error=err.code, error_why=err.why, **err.params) from None

    def text(self, spelling: str = "ascii") -> str:
        """This move in the text notation, in ``ascii`` (``1B``, ``go``) or ``korean`` (``1광``, ``고``);
        ``Move.parse`` reads it back. Raises ValueError for an unknown spelling or a player id on two lines."""
        return _move_text(self, card_codes(spelling), spelling == "korean")

    def __copy__(self) -> Move:
        return self  # a value nothing changes

    def __deepcopy__(self, memo: object) -> Move:
        return self

    def replace(self, **changes: Any) -> Move:
        """A copy with some fields changed."""
        fields: dict[str, Any] = dict(zip(_FIELDS, self._fields(), strict=True))
        fields.update(changes)
        return Move(**fields)

    @property
    def kind(self) -> str:
        """``call``, ``declare``, ``chongtong`` (the choice at the deal), ``shodang`` (a call or an answer) or
        ``turn``."""
        if self.call is not None:
            return "call"
        if self.chongtong_choice is not None:
            return "chongtong"
        if self.shodang is not None:
            return "shodang"
        if self.sep_animal_as is not None and self.play is None and not self.bomb and not self.flip and not self.bonus:
            return "declare"
        return "turn"

    @staticmethod
    def from_dict(data: Mapping[str, Any], *, index: int = 0) -> Move:
        """Read a logged move; raises IllegalMoveError (``bad-move``, ``unknown-card``) naming the move."""
        d = data if type(data) is dict else _as_dict(data, index)  # JSON gives dicts: skip the slow ABC check
        player = d.get("player")
        if not isinstance(player, str) or not player:
            raise _bad(index, None, "no-player")
        # the common move: a card played, perhaps a choice, the flip; every field a card id (an id that is no
        # card, or a value that cannot even be looked up, is named by the field-by-field reading below). A field
        # left out is not looked up in the cards.
        fields = len(d)
        play_id = d.get("play")
        if type(play_id) is str:
            play = CARD_BY_ID.get(play_id)
            if play is not None:
                capture = draw = draw_capture = None
                capture_id = d.get("capture")
                if type(capture_id) is str:
                    capture = CARD_BY_ID.get(capture_id)
                draw_id = d.get("draw")
                if type(draw_id) is str:
                    draw = CARD_BY_ID.get(draw_id)
                draw_capture_id = d.get("draw_capture")
                if type(draw_capture_id) is str:
                    draw_capture = CARD_BY_ID.get(draw_capture_id)
                if (
                    (capture is not None or capture_id is None)
                    and (draw is not None or draw_id is None)
                    and (draw_capture is not None or draw_capture_id is None)
                    and fields == 2 + (capture is not None) + (draw is not None) + (draw_capture is not None)
                ):
                    return Move(player, play, capture, draw, draw_capture)
        elif fields == 2 and play_id is None:  # a call, in the words it takes
            call = d.get("call")
            if call == "go" or call == "stop":
                return Move.go(player) if call == "go" else Move.stop(player)
        return _read_fields(d, index, player)

    def form_error(self) -> str | None:
        """Why the fields do not make one move of a known form (None when they do), as a message key."""
        play, capture, shake, bomb, flip, bonus = self.play, self.capture, self.shake, self.bomb, self.flip, self.bonus
        call, cup = self.call, self.sep_animal_as
        decided = self.chongtong_choice is not None
        if decided or self.shodang is not None:  # a choice or a shodang move says nothing else
            others = (play, capture, self.draw, self.draw_capture, bonus, self.bonus_flipped, call, cup)
            if shake or bomb or flip or self.chongtong or any(x is not None for x in others):
                return "choice-with-more"
            return "choice-with-more" if decided and self.shodang is not None else None
        if call is None and cup is None and bonus is None and not bomb and not flip:
            if play is None:  # the common turn: a hand card played, perhaps shaken
                return "capture-without-play" if capture is not None else "turn-form"
            return None
        turn_fields = (play, capture, self.draw, self.draw_capture, bonus, self.bonus_flipped)
        if call is not None:
            return "call-with-more" if cup is not None or shake or bomb or flip or any(turn_fields) else None
        if self.kind == "declare":
            return "declare-with-more" if shake or any(turn_fields) else None
        if cup is not None:
            return "declare-in-turn"
        if flip:
            return "turn-form" if play or bomb or bonus or shake or capture else None
        if play is not None and bomb:
            return "turn-form"
        if shake and play is None:
            return "shake-without-play"
        if capture is not None and play is None:
            return "capture-without-play"
        return None

    def to_dict(self) -> dict[str, Any]:
        """The JSON-ready form of this move (only the fields it uses)."""
        out: dict[str, Any] = {"player": self.player}
        for name, card in (
            ("bonus", self.bonus),
            ("play", self.play),
            ("capture", self.capture),
            ("draw", self.draw),
            ("draw_capture", self.draw_capture),
        ):
            if card is not None:
                out[name] = card.id
        if self.shake:
            out["shake"] = [c.id for c in self.shake]
        if self.bomb:
            out["bomb"] = [c.id for c in self.bomb]
        if self.flip:
            out["flip"] = True
        if self.bonus_flipped:
            out["bonus_flipped"] = [c.id for c in self.bonus_flipped]
        if self.chongtong:
            out["chongtong"] = [c.id for c in self.chongtong]
        if self.call is not None:
            out["call"] = self.call
        if self.sep_animal_as is not None:
            out["sep_animal_as"] = self.sep_animal_as
        if self.chongtong_choice is not None:
            out["chongtong_choice"] = self.chongtong_choice
        if self.shodang is not None:
            out["shodang"] = self.shodang
        return out


_FIELDS: Final = (  # in the order of Move's parameters
    "player",
    "play",
    "capture",
    "draw",
    "draw_capture",
    "shake",
    "bomb",
    "flip",
    "bonus",
    "bonus_flipped",
    "call",
    "sep_animal_as",
    "chongtong",
    "chongtong_choice",
    "shodang",
)


def _one(card: Card | str) -> Card:
    return card if isinstance(card, Card) else by_id(card)


def _opt(card: Card | str | None) -> Card | None:
    return None if card is None else _one(card)


def _list(cards: Sequence[Card | str]) -> tuple[Card, ...]:
    return tuple(_one(c) for c in cards)


def _opt_list(cards: Sequence[Card | str] | None) -> tuple[Card, ...] | None:
    return None if cards is None else _list(cards)


def _as_dict(data: Mapping[str, Any], index: int) -> dict[str, Any]:
    if not isinstance(data, Mapping):
        raise _bad(index, None, "not-an-object")
    return dict(data)


def _read_fields(data: dict[str, Any], index: int, player: str) -> Move:
    """Any other move, read field by field, naming the first field at fault."""
    values: dict[str, Any] = {}
    for key, value in data.items():
        if key == "player" or value is None:
            continue
        read = _READERS.get(key)
        if read is None:
            raise _bad(index, player, "unknown-field", field=str(key))
        values[key] = read(value, key, index, player)
    get = values.get
    move = Move(
        player,
        get("play"),
        get("capture"),
        get("draw"),
        get("draw_capture"),
        get("shake", ()),
        get("bomb", ()),
        get("flip", False),
        get("bonus"),
        get("bonus_flipped"),
        get("call"),
        get("sep_animal_as"),
        get("chongtong", ()),
        get("chongtong_choice"),
        get("shodang"),
    )
    why = move.form_error()
    if why:
        raise _bad(index, player, why)
    return move


def _bad(index: int, player: str | None, why: str, **facts: Any) -> IllegalMoveError:
    return IllegalMoveError("bad-move", why=why, move_index=index, player=player, **facts)


def _card(value: Any, name: str, index: int, player: str) -> Card:
    card = CARD_BY_ID.get(value) if isinstance(value, str) else None
    if card is None:
        raise IllegalMoveError("unknown-card", move_index=index, player=player, card=culprit(value), field=name)
    return card


def _cards(value: Any, name: str, index: int, player: str) -> tuple[Card, ...]:
    if not isinstance(value, list):
        raise _bad(index, player, "not-a-list", field=name)
    return tuple(_card(v, name, index, player) for v in value)


def _choice(*allowed: Any) -> Callable[[Any, str, int, str], Any]:
    def read(value: Any, name: str, index: int, player: str) -> Any:
        if value not in allowed or type(value) is not type(allowed[0]):  # 1 is not True
            raise _bad(index, player, "not-a-choice", field=name, choices=list(allowed))
        return value

    return read


# How each field of a logged move is read (the player is read first, separately), and where it goes.
_READERS: Final[dict[str, Callable[[Any, str, int, str], Any]]] = {
    **dict.fromkeys(("play", "capture", "draw", "draw_capture", "bonus"), _card),
    **dict.fromkeys(("shake", "bomb", "bonus_flipped", "chongtong"), _cards),
    "flip": _choice(True, False),
    "call": _choice("go", "stop"),
    "sep_animal_as": _choice("animal", "junk"),
    "chongtong_choice": _choice(*CHONGTONG_CHOICES),
    "shodang": _choice(*SHODANG_MOVES),
}


# --- the text of one move (docs/NOTATION.md 3) ----------------------------------------------------------


def move_fields(items: list[Item]) -> dict[str, Any]:
    """One move line: the player, then a call, a cup declaration or a turn (docs/NOTATION.md 3)."""
    player = single(items[0], "player").text
    out: dict[str, Any] = {"player": player}
    rest = items[1:]
    n = len(rest)
    first = move_word(rest[0]) if rest else None
    if first in CALLS:
        if n > 1:
            raise _extra(rest[1])
        out["call"] = first
        return out
    if first == "chongtong" or first == "shodang":  # the chongtong choice; a shodang call or answer
        allowed = CHONGTONG_CHOICES if first == "chongtong" else SHODANG_ANSWERS
        side = move_word(rest[1]) if n > 1 else None
        if first == "shodang" and n == 1:
            out["shodang"] = "call"
            return out
        if side not in allowed:
            at = rest[1].first if n > 1 else rest[0].first
            raise error("unexpected", at, token=at.text if n > 1 else "", expected=f"{first}-choice")
        if n > 2:
            raise _extra(rest[2])
        out["chongtong_choice" if first == "chongtong" else "shodang"] = side
        return out
    side = move_word(rest[1]) if first == "cup" and n > 1 else None
    if first == "cup" and (side in SIDES or read_card(rest[0].first.text) is None):  # 국진 is a card too
        if side not in SIDES:
            at = rest[1].first if n > 1 else rest[0].first
            raise error("unexpected", at, token=at.text if n > 1 else "", expected="cup-side")
        if n > 2:
            raise _extra(rest[2])
        out["sep_animal_as"] = side
        return out
    i = 0
    if i < n and move_word(rest[i]) == "bonus":
        if i + 1 >= n:
            raise error("unexpected", rest[i].first, token="", expected="card")
        out["bonus"] = card_id(single(rest[i + 1], "card"))
        i += 2
    kind = move_word(rest[i]) if i < n else None
    if kind == "flip":
        out["flip"] = True
        i += 1
    elif kind in ("bomb", "shake"):
        if i + 1 >= n:
            raise error("unexpected", rest[i].first, token="", expected="cards")
        out[kind] = [card_id(word) for word in rest[i + 1].words]
        i += 2
    if kind != "flip" and kind != "bomb" and i < n:
        play, capture = slot(single(rest[i], "card"))
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
                raise error("unexpected", words[1], token=words[1].text, expected="draw")
            out["bonus_flipped"] = []
        else:
            out["bonus_flipped"] = [card_id(word) for word in words[:-1]]
    draw, capture = slot(words[-1])
    if draw is not None:
        out["draw"] = draw
    if capture is not None:
        out["draw_capture"] = capture


def _extra(item: Item) -> NotationError:
    return error("unexpected", item.first, token=item.first.text, expected="end-of-move")


def _move_text(move: Move, codes: tuple[str, ...], korean: bool) -> str:
    def word(meaning: str) -> str:
        return WORDS[meaning][1 if korean else 0]

    def slot(card: Card | None, capture: Card | None) -> str:
        text = "-" if card is None else codes[card.index]
        return text if capture is None else f"{text}x{codes[capture.index]}"

    parts = [quoted(move.player)]
    if move.call is not None:
        parts.append(word(move.call))
    elif move.kind == "declare":
        assert move.sep_animal_as is not None
        parts += [word("cup"), word(move.sep_animal_as)]
    elif move.chongtong_choice is not None:
        parts += [word("chongtong"), word(move.chongtong_choice)]
    elif move.shodang is not None:
        parts.append(word("shodang"))
        if move.shodang != "call":
            parts.append(word(move.shodang))
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
