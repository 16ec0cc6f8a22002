"""Every error as ``application/problem+json`` (RFC 9457), from one place.

Engine refusals (``GoStopError``) become 422 with their stable ``code`` and context (``player``, ``card``,
``knob``, ``move_index``); schema errors become 422 with ``errors`` (field path -> messages); HTTP errors
keep their status. Nothing else escapes: an unexpected exception is logged and answered with a bare 500.
"""

from __future__ import annotations

import logging
from typing import Any

from flask import Flask, Response, current_app
from werkzeug.exceptions import HTTPException, InternalServerError

from engine import GoStopError, IllegalMoveError

PROBLEM_TYPE = "application/problem+json"
TYPE_BASE = "https://gostop.dev/problems/"
log = logging.getLogger("gostop")

_TITLES = {400: "Malformed request", 413: "Request body too large"}


def problem(status: int, title: str, detail: str, *, type_: str = "about:blank", **extra: Any) -> Response:
    """A problem details response."""
    body = {"type": type_, "title": title, "status": status, "detail": detail, **extra}
    return Response(current_app.json.dumps(body), status=status, mimetype=PROBLEM_TYPE)


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


def handle_http(error: HTTPException) -> Response:
    status = error.code or 500
    data = getattr(error, "data", None) or {}
    messages = data.get("messages")
    if status == 422 and messages:
        # webargs nests errors under the location ("json"); the body is the only location we read.
        errors = _flatten(messages.get("json", messages))
        first = next(iter(errors.items()))
        return problem(
            422,
            "Invalid request body",
            f"{first[0]}: {first[1][0]}",
            type_=TYPE_BASE + "validation-error",
            code="validation-error",
            errors=errors,
        )
    if status == 400 and messages:
        return problem(
            400,
            "Malformed JSON",
            "the request body is not valid JSON",
            type_=TYPE_BASE + "malformed-json",
            code="malformed-json",
        )
    title = _TITLES.get(status, error.name)
    response = problem(status, title, error.description or title)
    if status == 405 and error.valid_methods:  # type: ignore[attr-defined]
        response.headers["Allow"] = ", ".join(error.valid_methods)  # type: ignore[attr-defined]
    return response


def handle_rules(error: GoStopError) -> Response:
    extra = {k: v for k, v in error.context.items() if isinstance(v, (str, int))}
    slug = "illegal-move" if isinstance(error, IllegalMoveError) else error.code
    return problem(422, error.title, error.detail, type_=TYPE_BASE + slug, code=error.code, **extra)


def handle_unexpected(error: Exception) -> Response:
    if isinstance(error, HTTPException):
        return handle_http(error)
    log.exception("unhandled error", exc_info=error)
    return problem(500, "Internal Server Error", InternalServerError.description)


def init_app(app: Flask) -> None:
    app.register_error_handler(HTTPException, handle_http)
    app.register_error_handler(GoStopError, handle_rules)
    app.register_error_handler(Exception, handle_unexpected)
