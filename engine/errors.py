"""Everything the engine refuses, as one small exception tree.

    GoStopError(ValueError)           every refusal; ``code`` is stable, ``str()`` is a sentence
    ├── RulesError                    a rule set that cannot be built (unknown preset or knob, bad value)
    ├── CardError                     a card id or a placement of cards that cannot be
    ├── HandError                     a settle request that does not describe a possible hand
    └── IllegalMoveError              a move of a replayed log that the rules forbid; has ``move_index``

Context is keyword-only and kept on the exception (``player``, ``card``, ``knob``, ``move_index``) so a
caller can point at the culprit without parsing the message.
"""

from __future__ import annotations

from typing import Any

__all__ = ["CardError", "GoStopError", "HandError", "IllegalMoveError", "RulesError"]


class GoStopError(ValueError):
    """Base of every error the engine raises on bad input."""

    code: str = "invalid"
    title: str = "Invalid request"

    def __init__(self, detail: str, *, code: str | None = None, **context: Any) -> None:
        super().__init__(detail)
        self.detail = detail
        if code is not None:
            self.code = code
        self.context = {k: v for k, v in context.items() if v is not None}


class RulesError(GoStopError):
    """A rule set that cannot be built: ``unknown-preset``, ``unknown-knob`` or ``invalid-knob``."""

    code = "invalid-knob"
    title = "Invalid rules"


class CardError(GoStopError):
    """``unknown-card``, ``duplicate-card`` or ``bonus-not-in-play``."""

    code = "unknown-card"
    title = "Invalid cards"


class HandError(GoStopError):
    """A settle request that no legal hand could produce (wrong players, winner, counts)."""

    code = "invalid-hand"
    title = "Invalid hand"


class IllegalMoveError(GoStopError):
    """A move the rules forbid at this point of the log; ``move_index`` is its 0-based position
    (None for a deal that cannot be, code ``bad-deal``)."""

    code = "illegal-move"
    title = "Illegal move"

    def __init__(self, detail: str, *, code: str, move_index: int | None, **context: Any) -> None:
        super().__init__(detail, code=code, move_index=move_index, **context)
        self.move_index = move_index
