"""Every error as ``application/problem+json`` (RFC 9457), from one place, in the asked language.

Engine refusals (``GoStopError``) become 422 with their stable ``code`` and the culprit (``player``,
``card``, ``knob``, ``move_index``); schema errors become 422 with ``errors`` (field path -> messages);
HTTP errors keep their status and get a ``code`` too. Nothing else escapes: an unexpected exception is
logged and answered with a bare 500.
"""

from __future__ import annotations

import logging
from typing import Any

from flask import Flask, Response, current_app
from werkzeug.exceptions import HTTPException

from engine import GoStopError

from . import sentences
from .i18n import Words, request_words
from .render import TYPE_BASE, problem_body

PROBLEM_TYPE = "application/problem+json"
log = logging.getLogger("gostop")

# The stable code of each HTTP error the service answers.
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


class Refusal(HTTPException):
    """An HTTP error the service raises itself, with its code, the reason (a message key) and its facts."""

    def __init__(self, status: int, why: str | None = None, **params: Any) -> None:
        super().__init__()
        self.code = status
        self.why = why
        self.params = params


def problem(status: int, body: dict[str, Any]) -> Response:
    return Response(current_app.json.dumps({"status": status, **body}), status=status, mimetype=PROBLEM_TYPE)


def _http_problem(w: Words, status: int, code: str, why: str | None = None, **params: Any) -> dict[str, Any]:
    return {
        "type": TYPE_BASE + code if status in (400, 422) else "about:blank",
        "title": sentences.problem_title(w, code),
        "detail": sentences.http_detail(w, code, why, **params),
        "code": code,
    }


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
    w = request_words()
    status = error.code or 500
    data = getattr(error, "data", None) or {}
    messages = data.get("messages")
    if status == 422 and messages:
        # webargs nests errors under the location ("json"); the body is the only location we read
        errors = {**_flatten(messages.get("json", messages)), **messages.get("cards", {})}
        errors = {path: [sentences.field_message(w, m) for m in said] for path, said in errors.items()}
        return problem(422, {**_http_problem(w, 422, "validation-error"), "errors": errors})
    if status == 400 and messages:
        return problem(400, _http_problem(w, 400, "malformed-json"))
    code = HTTP_CODES.get(status, "bad-request" if status < 500 else "internal-error")
    params: dict[str, Any] = dict(getattr(error, "params", {}))
    if status == 413:
        params["limit"] = current_app.config["MAX_CONTENT_LENGTH"]
    response = problem(status, _http_problem(w, status, code, getattr(error, "why", None), **params))
    if status == 405 and getattr(error, "valid_methods", None):
        response.headers["Allow"] = ", ".join(error.valid_methods)  # type: ignore[attr-defined]
    return response


def handle_rules(error: GoStopError) -> Response:
    body = problem_body(request_words(), error)
    return problem(body.pop("status"), body)


def handle_unexpected(error: Exception) -> Response:
    if isinstance(error, HTTPException):
        return handle_http(error)
    log.exception("unhandled error", exc_info=error)
    return problem(500, _http_problem(request_words(), 500, "internal-error"))


def init_app(app: Flask) -> None:
    app.register_error_handler(HTTPException, handle_http)
    app.register_error_handler(GoStopError, handle_rules)
    app.register_error_handler(Exception, handle_unexpected)
