"""The bodies of problem details (RFC 9457), with no web framework: what an HTTP error, an engine refusal and a
body that fails its schema say, in the asked language. ``service.problems`` answers them over HTTP; the page's
engine (``service.answers.answer``, under Pyodide) makes the same bodies without Flask.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine import GoStopError, NotationError, Place

from .codes import type_of
from .i18n import Words
from .sentences import problems as words

__all__ = ["http_problem", "rule_problem", "validation_problem"]


def http_problem(w: Words, code: str, why: str | None = None, **params: Any) -> dict[str, Any]:
    """The problem details of an HTTP error (its ``status`` is the caller's)."""
    return {
        "type": type_of(code),
        "title": words.title(w, code),
        "detail": words.http_detail(w, code, why, **params),
        "code": code,
    }


def rule_problem(w: Words, err: GoStopError) -> dict[str, Any]:
    """The problem details of an engine refusal: always 422, with the stable ``code``, the culprit, and ``why``
    where the code is broken in more than one way (``shodang-not-allowed``: ``no-standoff``, ``already-called``...)."""
    body: dict[str, Any] = {
        "type": type_of(err.code),
        "title": words.title(w, type(err), err.code),
        "status": 422,
        "detail": words.detail(w, err),
        "code": err.code,
        **err.context,
    }
    extra: Mapping[str, Any] = err.params
    seen = extra.get("seen")
    if isinstance(seen, Place):
        body["seen"] = {"place": seen.kind, "player": seen.player, "move_index": seen.move_index}
    for key in ("choices", "presets"):
        if key in extra:
            body[key] = list(extra[key])
    if err.code == "amount-too-large":
        body["limit"] = extra["limit"]
        if "factors" in extra:
            body["factors"] = dict(extra["factors"])
    if err.why != err.code:  # which way the rule was broken (docs/errors.md), or what a text log held there
        body["why"] = err.why
    if isinstance(err, NotationError):
        body.update({key: extra[key] for key in _NOTATION_FACTS if key in extra})
    return body


# The facts of a notation error a client may point at (docs/NOTATION.md 6), beside its line and column.
_NOTATION_FACTS = ("token", "expected", "tag", "first_line", "error", "error_why")


def validation_problem(w: Words, messages: Any, cards: Mapping[str, list[str]]) -> dict[str, Any]:
    """The problem details (without ``status``, 422) of a body its schema refuses: marshmallow's ``messages``
    as field path -> messages, with ``cards``, the card ids that are not cards (``loading.unknown_card_ids``)."""
    errors = {**_flatten(messages), **cards}
    said = {path: [words.field_message(w, m) for m in found] for path, found in errors.items()}
    return {**http_problem(w, "validation-error"), "errors": said}


def _flatten(messages: Any, prefix: str = "") -> dict[str, list[str]]:
    """{"players": {0: {"id": ["..."]}}} -> {"players.0.id": ["..."]}."""
    if isinstance(messages, dict):
        out: dict[str, list[str]] = {}
        for key, value in messages.items():
            path = f"{prefix}.{key}" if prefix else str(key)
            out.update(_flatten(value, path))
        return out
    if isinstance(messages, list) and all(isinstance(m, str) for m in messages):
        return {prefix or "body": list(messages)}
    return {prefix or "body": [str(messages)]}
