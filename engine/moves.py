"""Moves of a logged hand, and how they read and write as JSON-ready dicts (``Move.from_dict`` / ``to_dict``).

A move is either a *turn* or a *call*:

- a normal turn plays a hand card (``play``), naming which of two layout cards it takes when there is a
  choice (``capture``), then flips the stock top (``draw``, and ``draw_capture`` likewise);
- a shake (heundeum 흔들기) shows three cards of a month (``shake``) and plays one of them (``play``);
- a bomb (poktan 폭탄) plays three cards of a month at once (``bomb``) onto the fourth on the layout;
- a flip-only turn (``flip: true``), owed after a bomb, only flips the stock;
- a bonus card from hand (``bonus``) goes to the captures; then, per ``bonus_from_hand``, the player plays a
  hand card (``replace``: ``play`` is from hand after taking the stock top into it) or the stock top is
  played as if from hand (``extra-flip``: ``play`` is that flipped card);
- ``bonus_flipped`` lists bonus cards turned up from the stock during the turn (they go to the captures
  at once); a log without a known stock must state them;
- a call is ``{"player": ..., "call": "go" | "stop"}``;
- a cup declaration ``{"player": ..., "sep_animal_as": "animal" | "junk"}`` pins the holder's cup.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from .cards import CARD_BY_ID, Card
from .errors import IllegalMoveError

__all__ = ["Move"]


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
        if (
            self.sep_animal_as is not None
            and self.play is None
            and not self.bomb
            and not self.flip
            and self.bonus is None
        ):
            return "declare"
        return "turn"

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, index: int = 0) -> Move:
        """Read a logged move; raises IllegalMoveError (``bad-move``, ``unknown-card``) naming the move."""
        if type(data) is not dict and not isinstance(data, Mapping):  # the exact check first: it is cheap
            raise _bad(index, None, "a move is an object")
        player = data.get("player")
        if not isinstance(player, str) or not player:
            raise _bad(index, None, "every move names its player")
        values: list[Any] = [player, None, None, None, None, (), (), False, None, None, None, None]
        plain = True  # only play, capture, draw and draw_capture so far: a plain turn if play is given
        for key, value in data.items():
            if value is None or key == "player":
                continue
            slot = _PLAIN_SLOT.get(key)
            if slot is not None and type(value) is str and value in CARD_BY_ID:  # the common case, inline
                values[slot] = CARD_BY_ID[value]
                continue
            read = _READERS.get(key)
            if read is None:
                raise _bad(index, player, f"unknown field {key!r}")
            values[_SLOT[key]] = read(value, key, index, player)
            plain = False
        move = tuple.__new__(cls, values)
        if not plain or values[1] is None:  # a plain turn with its play is always well-formed
            why = move._form_error()
            if why:
                raise _bad(index, player, why)
        return move

    def _form_error(self) -> str | None:
        """Why the fields do not make one move of a known form (None when they do)."""
        _, play, capture, draw, draw_capture, shake, bomb, flip, bonus, bonus_flipped, call, sep_animal_as = self
        if call is not None:
            if (
                (play or capture or draw or draw_capture or shake or bomb or flip or bonus)
                or bonus_flipped is not None
                or sep_animal_as is not None
            ):
                return "a call carries nothing but the player and the call"
            return None
        if sep_animal_as is not None and play is None and not bomb and not flip and bonus is None:  # a declaration
            if capture or draw or draw_capture or shake or bonus_flipped:
                return "a cup declaration carries nothing but the player and sep_animal_as"
            return None
        if (bomb != ()) + flip + (bonus is not None) + (play is not None and bonus is None) != 1:
            return "a turn is exactly one of: play, shake + play, bomb, flip, bonus (+ play)"
        if shake and (play is None or bonus is not None):
            return "a shake shows three cards and plays one of them"
        if (bomb or flip) and capture is not None:
            return "capture names the layout card a played card takes; a bomb or flip plays none"
        if sep_animal_as is not None:
            return "declare the cup in a move of its own"
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


_SLOT = {name: i for i, name in enumerate(Move._fields)}
_PLAIN_SLOT = {name: _SLOT[name] for name in ("play", "capture", "draw", "draw_capture")}


def _bad(index: int, player: str | None, why: str) -> IllegalMoveError:
    return IllegalMoveError(f"move {index}: {why}", code="bad-move", move_index=index, player=player)


def _card(value: Any, name: str, index: int, player: str) -> Card:
    try:
        return CARD_BY_ID[value]
    except (KeyError, TypeError):  # not an id, or not even a string
        raise IllegalMoveError(
            f"{player}'s {name} {value!r} is not a card id",
            code="unknown-card",
            move_index=index,
            player=player,
            card=str(value),
        ) from None


def _cards(value: Any, name: str, index: int, player: str) -> tuple[Card, ...]:
    if not isinstance(value, list):
        raise _bad(index, player, f"{name} is a list of card ids")
    return tuple(_card(v, name, index, player) for v in value)


def _choice(*allowed: Any, message: str) -> Callable[[Any, str, int, str], Any]:
    def read(value: Any, name: str, index: int, player: str) -> Any:
        if value not in allowed or type(value) is not type(allowed[0]):  # 1 is not True
            raise _bad(index, player, message)
        return value

    return read


# How each field of a logged move is read (the player is read first, separately).
_READERS: dict[str, Callable[[Any, str, int, str], Any]] = {
    **dict.fromkeys((*_PLAIN_SLOT, "bonus"), _card),
    **dict.fromkeys(("shake", "bomb", "bonus_flipped"), _cards),
    "flip": _choice(True, False, message="flip is true or false"),
    "call": _choice("go", "stop", message="call is 'go' or 'stop'"),
    "sep_animal_as": _choice("animal", "junk", message="sep_animal_as is 'animal' or 'junk'"),
}
