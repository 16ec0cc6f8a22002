"""What happens at the table, as facts: events, and instant payments (RULES.md 5, 6 and 8).

The Korean words, once: ppuk (뻑) three cards of a month left on the layout as a stack; chok (쪽) the flip
takes the card just played; ttadak (따닥) all four of a month in one turn; sseul (쓸) the layout swept
clean; ja-ppuk (자뻑) taking back one's own ppuk; shake (흔들기) showing three of a month before playing;
bomb (폭탄) playing three of a month at once onto the fourth; chongtong (총통) four of a month dealt;
heodang (허당) five empty turns in a row; nagari (나가리) a hand with no winner.

An event carries its type and the facts a sentence about it would cite (``data``: card ids, counts,
players); the words are made by whoever shows it.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any, Final

from .record import Record

__all__ = ["Event", "EventType", "InstantPayment"]


class EventType(StrEnum):
    PPUK = "ppuk"
    CHOK = "chok"
    TTADAK = "ttadak"
    SSEUL = "sseul"
    JA_PPUK = "ja-ppuk"
    STACK_CAPTURE = "stack-capture"  # a stack that is not one's own ppuk: another's, or dealt
    BOMB = "bomb"
    SHAKE = "shake"
    BONUS = "bonus"
    STEAL = "steal"
    GO = "go"
    STOP = "stop"
    DECLARE = "declare"  # a cup declaration
    CHONGTONG = "chongtong"
    PLAY_ON = "play-on"  # the holder of a chongtong dealt chose to play on (RULES.md 4.3)
    SHODANG = "shodang"  # a shodang called (RULES.md 8.7)
    SHODANG_ANSWER = "shodang-answer"  # an answer to it; the second says what comes of it
    THREE_PPUK = "three-ppuk"
    HEODANG = "heodang"
    NAGARI = "nagari"
    REDEAL = "redeal"


class Event(Record):
    """Something that happened: the move that caused it (None: at the deal), who, what, and its facts."""

    __slots__ = ("data", "move_index", "player", "type")
    fields = ("move_index", "player", "type", "data")

    def __init__(self, move_index: int | None, player: str | None, type: EventType, data: Mapping[str, Any]) -> None:
        self.move_index: Final = move_index
        self.player: Final = player
        self.type: Final = type
        self.data: Final = data


class InstantPayment(Record):
    """A payment made at once, outside the hand's result (RULES.md 8): a ppuk on each of the player's first
    ``turns`` turns (``reason`` ``first-ppuk``), a ttadak, a chok or a bomb on the first turn (``first-ttadak``,
    ``first-chok``, ``first-bomb``), or the brights sold by the fourth person at a table of three (``gwang-sale``,
    RULES.md 4.5: ``turns`` 0, ``move_index`` None, at the deal)."""

    __slots__ = ("move_index", "payee", "payer", "points", "reason", "turns")
    fields = ("payer", "payee", "points", "reason", "turns", "move_index")

    def __init__(self, payer: str, payee: str, points: int, reason: str, turns: int, move_index: int | None) -> None:
        self.payer: Final = payer
        self.payee: Final = payee
        self.points: Final = points
        self.reason: Final = reason
        self.turns: Final = turns
        self.move_index: Final = move_index
