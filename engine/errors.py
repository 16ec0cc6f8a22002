"""Everything the engine refuses, as one small exception tree.

    GoStopError(ValueError)           every refusal; ``code`` is stable and names the broken rule
    ├── RulesError                    a rule set that cannot be built (unknown preset or knob, bad value)
    ├── CardError                     a card id, or cards placed where they cannot be
    ├── HandError                     a finished hand no legal play could produce (players, winner, counts)
    ├── IllegalMoveError              a move of a replayed log that the rules forbid; has ``move_index``
    ├── EveningError                  an evening's ledger that cannot be (people, balances, dealer, carry, push)
    ├── LogError                      a log whose JSON is not of a replay body's shape; has ``errors``
    └── NotationError                 a log in the text notation that cannot be read; has ``line``, ``column``

The engine states facts, not sentences: ``code`` is the stable code an API answers, ``why`` says which of
the ways to break that rule happened (a message key: ``code`` itself unless a code has several), and
``params`` holds what a sentence about it would cite. ``context`` is the part of ``params`` that points at
the culprit (``hand_index`` in an evening, ``move_index``, ``player``, ``card``, ``knob``; ``line`` and
``column`` in a text). Words for people are made from these by the caller (the service has a catalog per
language); ``str(error)`` is a compact form for developers.
"""

from __future__ import annotations

import reprlib
from typing import Any

__all__ = [
    "CONTEXT_KEYS",
    "CardError",
    "EveningError",
    "GoStopError",
    "HandError",
    "IllegalMoveError",
    "LogError",
    "NotationError",
    "RulesError",
    "culprit",
]

CONTEXT_KEYS = ("hand_index", "move_index", "player", "card", "knob", "line", "column")
_LONGEST = 80  # characters of a culprit named from the input: no id is longer, and a 64 KiB "id" is not echoed


class GoStopError(ValueError):
    """Base of every error the engine raises on bad input."""

    code: str = "invalid"

    def __init__(self, code: str | None = None, *, why: str | None = None, **params: Any) -> None:
        if code is not None:
            self.code = code
        self.why = why or self.code
        self.params = {k: _short(v) for k, v in params.items() if v is not None}
        self.context = {k: self.params[k] for k in CONTEXT_KEYS if k in self.params}
        super().__init__(self.code)

    def in_hand(self, index: int) -> GoStopError:
        """This refusal, naming the hand of an evening it was found in (``hand_index``, 0-based)."""
        self.params["hand_index"] = index
        self.context = {k: self.params[k] for k in CONTEXT_KEYS if k in self.params}
        return self

    def written_at(self, line: int, column: int) -> GoStopError:
        """This refusal, naming where in a text log (``engine.notation``) its culprit was written (from 1)."""
        self.params["line"] = line
        self.params["column"] = column
        self.context = {k: self.params[k] for k in CONTEXT_KEYS if k in self.params}
        return self

    def __str__(self) -> str:
        facts = ", ".join(f"{k}={v!r}" for k, v in self.params.items())
        what = self.code if self.why == self.code else f"{self.code} ({self.why})"
        return f"{what}: {facts}" if facts else what


_NAMING = reprlib.Repr()
_NAMING.maxlevel, _NAMING.maxlist, _NAMING.maxdict = 3, 4, 4
_NAMING.maxstring = _NAMING.maxother = _LONGEST


def culprit(value: Any) -> str:
    """How an error names a value given where a card id goes: a string as it is (cut to length later), anything
    else by a short repr that stops a few levels down, however deep a hostile body nests it."""
    return value if isinstance(value, str) else _NAMING.repr(value)


def _short(value: Any) -> Any:
    if isinstance(value, str) and len(value) > _LONGEST:
        return value[: _LONGEST - 3] + "..."
    return value


class RulesError(GoStopError):
    """A rule set that cannot be built: ``unknown-preset``, ``unknown-knob`` or ``invalid-knob``."""

    code = "invalid-knob"


class CardError(GoStopError):
    """``unknown-card``, ``duplicate-card`` or ``bonus-not-in-play``."""

    code = "unknown-card"


class HandError(GoStopError):
    """A hand that no legal play could produce (wrong players, winner, counts, a cup pin the rules forbid)."""

    code = "invalid-hand"


class IllegalMoveError(GoStopError):
    """A move the rules forbid at this point of the log; ``move_index`` is its 0-based position
    (None for a deal that cannot be, code ``bad-deal``)."""

    code = "illegal-move"

    def __init__(self, code: str, *, move_index: int | None, why: str | None = None, **params: Any) -> None:
        super().__init__(code, why=why, move_index=move_index, **params)
        self.move_index = move_index


class EveningError(GoStopError):
    """An evening's ledger that cannot be (RULES.md 11): the people, their balances, the first dealer, a hand
    that is not at its place (``hand_index``), a carry stated by hand, a push the rules do not allow."""

    code = "invalid-evening"


class LogError(GoStopError):
    """The JSON of a log (``Log.from_dict``) not of the shape of a POST /v1/replay body: ``errors`` maps each
    field path at fault (``players.0``, ``deal.layout``, ``stake``...) to what is wrong there, as the API's
    ``validation-error`` names them."""

    code = "validation-error"

    def __init__(self, *, errors: dict[str, list[str]]) -> None:
        super().__init__("validation-error", errors=errors)
        self.errors = errors


class NotationError(GoStopError):
    """A log in the text notation (``engine.notation``) that cannot be read: ``line`` and ``column`` (from 1,
    a column counting characters) say where, ``why`` what was found there.

    ``why`` is ``unexpected`` (``token`` found where ``expected`` belongs), ``unknown-card``, ``unknown-tag``,
    ``duplicate-tag``, ``missing-tag``, ``tag-after-moves``, ``unclosed-tag``, ``unclosed-quote``,
    ``not-a-number``, ``duplicate-knob``, or an engine refusal of what the text says, with that error's
    ``error`` (code), ``error_why`` and facts: ``rules`` (a RulesError of the rules tag) and ``move`` (words
    that make no move, as ``Move.from_dict`` refuses them).
    """

    code = "bad-notation"

    def __init__(self, why: str, *, line: int, column: int, **params: Any) -> None:
        super().__init__("bad-notation", why=why, line=line, column=column, **params)
        self.line = line
        self.column = column
