"""Every problem code the service answers, with its HTTP status, and the one scheme of problem types.

A problem's ``type`` is ``/problems/<code>`` (RFC 9457 3.1.1: a reference relative to the address asked), a
page of this service that says what the code means, in the asked language (``service.problems``). The codes
are stable: a client may branch on ``code``, and an unknown one is to be read as its status says.

This module imports nothing, so that gunicorn's worker (``service.worker``) answers its own refusals with
the same codes and types before the application, or Flask, is loaded.
"""

from __future__ import annotations

__all__ = ["API_VERSION", "CODES", "HTTP_CODES", "RULE_CODES", "SERVER_CODES", "TYPE_BASE", "type_of"]

TYPE_BASE = "/problems/"
# The contract's version, sent as the API-Version header of every answer (API.md v1.3): the major and minor of
# the package's version (engine.__version__; tests/test_v13.py checks the two agree).
API_VERSION = "1.3"

# What the server itself refuses, before the application reads the request (service/worker.py), by status.
SERVER_CODES = {
    400: "bad-request",
    403: "forbidden",
    408: "request-timeout",
    414: "request-line-too-long",
    417: "expectation-failed",
    431: "headers-too-large",
    500: "internal-error",
    501: "not-implemented",
    503: "busy",
}

# What the application answers for an HTTP error of each status (service/problems.py).
HTTP_CODES = {
    400: "bad-request",
    404: "not-found",
    405: "method-not-allowed",
    411: "length-required",
    413: "body-too-large",
    415: "unsupported-media-type",
    422: "validation-error",
    500: "internal-error",
    503: "unavailable",
}

# What the engine refuses (engine.GoStopError.code), always with 422.
RULE_CODES = (
    # the rules
    "unknown-preset",
    "unknown-knob",
    "invalid-knob",
    # the cards
    "unknown-card",
    "duplicate-card",
    "bonus-not-in-play",
    # a finished hand
    "player-count",
    "duplicate-player",
    "negative-count",
    "sep-animal-pin",
    "invalid-outcome",
    "unknown-winner",
    "unknown-player",
    "winner-below-target",
    "last-go-required",
    "impossible-counts",
    "impossible-points",
    "sit-out-not-allowed",
    "amount-too-large",
    # a move log
    "bad-deal",
    "bad-move",
    "not-your-turn",
    "card-not-in-hand",
    "card-already-seen",
    "capture-required",
    "capture-not-allowed",
    "draw-required",
    "draw-mismatch",
    "call-required",
    "call-not-allowed",
    "shake-not-allowed",
    "bomb-not-allowed",
    "chongtong-not-allowed",
    "shodang-not-allowed",
    "flip-not-allowed",
    "flip-required",
    "game-over",
    # an evening (RULES.md 11)
    "people-count",
    "duplicate-person",
    "unknown-person",
    "balance-missing",
    "negative-balance",
    "first-dealer",
    "dealer-not-at-table",
    "bad-draw",
    "player-not-at-table",
    "dealer-not-playing",
    "hand-out-of-order",
    "out-of-money",
    "carry-stated",
    "stake-stated",
    "hand-not-finished",
    "push-not-allowed",
    "unbalanced-totals",
    # a move log in the text notation
    "bad-notation",
)

# Every code, with the status it comes with; in order of status.
CODES: dict[str, int] = dict(
    sorted(
        {
            **{code: status for status, code in SERVER_CODES.items()},
            **{code: status for status, code in HTTP_CODES.items()},
            "malformed-json": 400,
            **dict.fromkeys(RULE_CODES, 422),
        }.items(),
        key=lambda item: item[1],
    )
)


def type_of(code: str) -> str:
    """The ``type`` of a problem with this code."""
    return TYPE_BASE + code
