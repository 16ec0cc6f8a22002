"""Moves of a logged hand (``Move``, read and written as JSON-ready dicts), what the table expects next,
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
- a call is ``{"player": ..., "call": "go" | "stop"}``;
- a cup declaration ``{"player": ..., "sep_animal_as": "animal" | "junk"}`` pins the holder's cup.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from enum import StrEnum
from typing import Any, NamedTuple

from .cards import CARD_BY_ID, Card
from .errors import IllegalMoveError, culprit

__all__ = ["INSTANT_WINS", "Expect", "Move", "Outcome"]


class Expect(StrEnum):
    """What the log must say next: a turn (``play``; a held flip turn may be used instead), a flip-only
    turn (``flip``), or a go/stop decision (``call``)."""

    PLAY = "play"
    FLIP = "flip"
    CALL = "call"


class Outcome(StrEnum):
    """How a hand ended (RULES.md 4, 7, 8, 9)."""

    STOP = "stop"
    NAGARI = "nagari"
    REDEAL = "redeal"
    CHONGTONG = "chongtong"
    THREE_PPUK = "three-ppuk"
    HEODANG = "heodang"


INSTANT_WINS = frozenset({Outcome.CHONGTONG, Outcome.THREE_PPUK, Outcome.HEODANG})


class Move(NamedTuple):
    """One entry of a move log. Build with ``Move.from_dict`` or directly with Card values."""

    player: str
    play: Card | None = None
    capture: Card | None = None
    draw: Card | None = None
    draw_capture: Card | None = None
    shake: tuple[Card, ...] = ()
    bomb: tuple[Card, ...] = ()
    flip: bool = False
    bonus: Card | None = None
    bonus_flipped: tuple[Card, ...] | None = None
    call: str | None = None
    sep_animal_as: str | None = None

    @property
    def kind(self) -> str:
        """``call``, ``declare`` or ``turn``."""
        if self.call is not None:
            return "call"
        if self.sep_animal_as is not None and self.play is None and not self.bomb and not self.flip and not self.bonus:
            return "declare"
        return "turn"

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, index: int = 0) -> Move:
        """Read a logged move; raises IllegalMoveError (``bad-move``, ``unknown-card``) naming the move."""
        if type(data) is not dict and not isinstance(data, Mapping):  # JSON gives dicts: skip the slow ABC check
            raise _bad(index, None, "not-an-object")
        player = data.get("player")
        if not isinstance(player, str) or not player:
            raise _bad(index, None, "no-player")
        values: list[Any] = [player, *_DEFAULTS]
        plain = True  # only play, capture, draw, draw_capture so far
        for key, value in data.items():
            if key == "player" or value is None:
                continue
            position = _PLAIN_FIELDS.get(key)
            if position is not None and (card := CARD_BY_ID.get(value) if type(value) is str else None):
                values[position] = card  # the common case, read inline: a card id where a card goes
                continue
            plain = False
            slot = _SLOTS.get(key)
            if slot is None:
                raise _bad(index, player, "unknown-field", field=str(key))
            read, position = slot
            values[position] = read(value, key, index, player)
        move = cls._make(values)
        if plain and move.play is not None:  # a plain turn that plays a card is always well formed
            return move
        why = move.form_error()
        if why:
            raise _bad(index, player, why)
        return move

    def form_error(self) -> str | None:
        """Why the fields do not make one move of a known form (None when they do), as a message key."""
        play, capture, shake, bomb, flip, bonus = self.play, self.capture, self.shake, self.bomb, self.flip, self.bonus
        call, cup = self.call, self.sep_animal_as
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
        for name in ("bonus", "play", "capture", "draw", "draw_capture"):
            value = getattr(self, name)
            if value is not None:
                out[name] = value.id
        for name in ("shake", "bomb"):
            value = getattr(self, name)
            if value:
                out[name] = [c.id for c in value]
        if self.flip:
            out["flip"] = True
        if self.bonus_flipped:
            out["bonus_flipped"] = [c.id for c in self.bonus_flipped]
        if self.call is not None:
            out["call"] = self.call
        if self.sep_animal_as is not None:
            out["sep_animal_as"] = self.sep_animal_as
        return out


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
_READERS: dict[str, Callable[[Any, str, int, str], Any]] = {
    **dict.fromkeys(("play", "capture", "draw", "draw_capture", "bonus"), _card),
    **dict.fromkeys(("shake", "bomb", "bonus_flipped"), _cards),
    "flip": _choice(True, False),
    "call": _choice("go", "stop"),
    "sep_animal_as": _choice("animal", "junk"),
}
_SLOTS = {name: (_READERS[name], Move._fields.index(name)) for name in _READERS}
_PLAIN_FIELDS = {name: _SLOTS[name][1] for name in ("play", "capture", "draw", "draw_capture")}
_DEFAULTS = tuple(Move._field_defaults[name] for name in Move._fields[1:])
