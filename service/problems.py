"""Every error as ``application/problem+json`` (RFC 9457), from one place, in the asked language: the problem's
shape, its body, the error handlers, and the page each problem ``type`` links to.

Engine refusals (``GoStopError``) become 422 with their stable ``code`` and the culprit (``player``,
``card``, ``knob``, ``move_index``); schema errors become 422 with ``errors`` (field path -> messages);
HTTP errors keep their status and get a ``code`` too. Nothing else escapes: an unexpected exception is
logged and answered with a bare 500. Every ``type`` is ``/problems/<code>`` (``service.codes``), and
``GET /problems/<code>`` answers it: what the code means, in English or Korean, from the same catalog as
the answers' sentences.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Mapping
from html import escape
from http import HTTPStatus
from typing import Any

from flask import Blueprint, Flask, Response, current_app, request
from flask.typing import ResponseReturnValue
from marshmallow import fields
from werkzeug.exceptions import HTTPException

from engine import GoStopError

from .codes import CODES, HTTP_CODES, type_of
from .details import http_problem, rule_problem, validation_problem
from .i18n import LANGUAGES, Words, language_links, request_words, words_for
from .schemas import Named, Strict
from .sentences import problems as words

__all__ = [
    "PROBLEM_TYPE",
    "ProblemSchema",
    "Refusal",
    "examples",
    "http_problem",
    "init_app",
    "pages",
    "problem",
    "rule_problem",
]

PROBLEM_TYPE = "application/problem+json"
log = logging.getLogger("gostop")


class SeenOut(Strict):
    place = fields.String(required=True, metadata={"description": "layout, stock, hand, shown, captured or played"})
    player = fields.String(allow_none=True)
    move_index = fields.Integer(allow_none=True, metadata={"description": "the move that revealed it; null: the deal"})


class ProblemSchema(Strict):
    type = fields.String(
        required=True,
        metadata={
            "format": "uri-reference",
            "description": "/problems/{code}: a page of this service that says what the code means",
        },
    )
    title = fields.String(required=True, metadata={"description": "the kind of problem, in the asked language"})
    status = fields.Integer(required=True)
    detail = fields.String(required=True, metadata={"description": "this problem, in the asked language"})
    code = Named("ProblemCode", open=True, required=True)
    errors = fields.Dict(
        keys=fields.String(),
        values=fields.List(fields.String()),
        metadata={"description": "validation-error: field path -> messages"},
    )
    move_index = fields.Integer(metadata={"description": "0-based index of the first illegal move"})
    hand_index = fields.Integer(metadata={"description": "an evening: 0-based index of the hand at fault"})
    player = fields.String()
    card = fields.String(metadata={"description": "the card at fault, as it was given (not always a card id)"})
    knob = fields.String()
    seen = fields.Nested(SeenOut, metadata={"description": "card-already-seen: where the card was seen"})
    line = fields.Integer(
        metadata={"description": "a log sent as text: the line (from 1) of the fault, or of the move refused"}
    )
    column = fields.Integer(metadata={"description": "with line: the column (from 1, counting characters)"})
    why = fields.String(
        metadata={
            "description": "which way the rule was broken, where a code has several (shodang-not-allowed: "
            "no-standoff, already-called...; docs/errors.md); bad-notation: what was found there (docs/NOTATION.md "
            "6: unexpected, unknown-card...)"
        }
    )
    token = fields.String(metadata={"description": "bad-notation: the word found (unexpected, not-a-number)"})
    expected = fields.String(metadata={"description": "bad-notation, unexpected: what belongs there"})
    tag = fields.String(metadata={"description": "bad-notation: the tag at fault"})
    first_line = fields.Integer(metadata={"description": "bad-notation, duplicate-tag: where the tag was first"})
    error = fields.String(
        metadata={"description": "bad-notation, rules or move: the code of the refusal of what the text says"}
    )
    error_why = fields.String(metadata={"description": "with error: which way that rule was broken"})
    choices = fields.List(fields.Raw(), metadata={"description": "invalid-knob: the values the knob takes"})
    presets = fields.List(Named("PresetName"), metadata={"description": "unknown-preset: the presets there are"})
    factors = fields.Dict(
        keys=fields.String(),
        values=fields.Integer(),
        metadata={"description": "amount-too-large: what the rules multiply (base, the rules applied, stake), by name"},
    )
    limit = fields.Integer(
        metadata={"description": "amount-too-large: the bound passed (2^53 - 1, or the longest nagari streak)"}
    )


def named_schemas() -> dict[str, dict[str, Any]]:
    """The component schema of every problem code (``Problem.code``)."""
    return {"ProblemCode": {"type": "string", "enum": list(CODES), "description": "the stable code of a problem"}}


class Refusal(HTTPException):
    """An HTTP error the service raises itself, with its code, the reason (a message key) and its facts."""

    def __init__(self, status: int, why: str | None = None, **params: Any) -> None:
        super().__init__()
        self.code = status
        self.why = why
        self.params = params


# --- bodies ----------------------------------------------------------------------------------------------


def problem(status: int, body: Mapping[str, Any]) -> Response:
    return Response(current_app.json.dumps({"status": status, **body}), status=status, mimetype=PROBLEM_TYPE)


# --- handlers --------------------------------------------------------------------------------------------


def handle_http(error: HTTPException) -> Response:
    w = request_words()
    status = error.code or 500
    data = getattr(error, "data", None) or {}
    messages = data.get("messages")
    if status == 422 and messages:
        # webargs nests errors under the location ("json"); the body is the only location we read
        return problem(422, validation_problem(w, messages.get("json", messages), messages.get("cards", {})))
    if status == 400 and messages:
        return problem(400, http_problem(w, "malformed-json"))
    code = HTTP_CODES.get(status, "bad-request" if status < 500 else "internal-error")
    params: dict[str, Any] = dict(getattr(error, "params", {}))
    if status == 413:
        params["limit"] = current_app.config["MAX_CONTENT_LENGTH"]
    response = problem(status, http_problem(w, code, getattr(error, "why", None), **params))
    if status == 405 and getattr(error, "valid_methods", None):
        response.headers["Allow"] = ", ".join(error.valid_methods)  # type: ignore[attr-defined]
    return response


def handle_rules(error: GoStopError) -> Response:
    body = rule_problem(request_words(), error)
    return problem(body.pop("status"), body)


def handle_unexpected(error: Exception) -> Response:
    if isinstance(error, HTTPException):
        return handle_http(error)
    log.exception("unhandled error", exc_info=error)
    return problem(500, http_problem(request_words(), "internal-error"))


def init_app(app: Flask) -> None:
    app.register_error_handler(HTTPException, handle_http)
    app.register_error_handler(GoStopError, handle_rules)
    app.register_error_handler(Exception, handle_unexpected)


def examples(w: Words, limit: int) -> dict[int, dict[str, Any]]:
    """A problem of each status the application answers, for the OpenAPI document (as the handlers make them)."""
    from engine import resolve

    try:
        resolve({"preset": "korean-2p", "gobak": "triple"})
    except GoStopError as err:
        rule = rule_problem(w, err)
    said: dict[int, dict[str, Any]] = {
        400: {"status": 400, **http_problem(w, "malformed-json")},
        404: {"status": 404, **http_problem(w, "not-found", "no-preset", preset="korean-9p")},
        405: {"status": 405, **http_problem(w, "method-not-allowed")},
        411: {"status": 411, **http_problem(w, "length-required")},
        413: {"status": 413, **http_problem(w, "body-too-large", limit=limit)},
        415: {"status": 415, **http_problem(w, "unsupported-media-type")},
        422: {"status": 422, **{k: v for k, v in rule.items() if k != "status"}},
        500: {"status": 500, **http_problem(w, "internal-error")},
        503: {"status": 503, **http_problem(w, "unavailable", "draining")},
    }
    return said


# --- the pages of the problem types -----------------------------------------------------------------------

_PAGE = """<!doctype html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<link rel="stylesheet" href="/rules/rules.css">
</head>
<body>
<nav class="language">{languages}</nav>
<main>
{body}
</main>
</body>
</html>
"""
MAX_AGE = 3600


class _Page:
    __slots__ = ("etag", "html")

    def __init__(self, html: str) -> None:
        self.html = html.encode()
        self.etag = hashlib.sha256(self.html).hexdigest()[:32]


def _page(lang: str, path: str, title: str, body: str) -> _Page:
    return _Page(
        _PAGE.format(
            lang=lang,
            title=escape(title),
            languages=language_links(lang, path),
            body=body,
        )
    )


def _code_page(w: Words, code: str) -> _Page:
    status = CODES[code]
    title = w.say(words.PAGE_TITLE, code=code)
    body = (
        f"<h1><code>{escape(code)}</code></h1>\n"
        f"<p>{escape(words.meaning(w, code))}</p>\n"
        f"<p>{escape(w.say(words.PAGE_STATUS, status=f'{status} {HTTPStatus(status).phrase}'))}</p>\n"
        f'<p><a href="{TYPE_INDEX}">{escape(w.say(words.INDEX_TITLE))}</a></p>'
    )
    return _page(w.lang, type_of(code), title, body)


def _index_page(w: Words) -> _Page:
    rows = "\n".join(
        f'<li><a href="{type_of(code)}"><code>{escape(code)}</code></a> ({status}): '
        f"{escape(words.meaning(w, code))}</li>"
        for code, status in CODES.items()
    )
    title = w.say(words.INDEX_TITLE)
    body = f"<h1>{escape(title)}</h1>\n<p>{escape(w.say(words.INDEX_LEAD))}</p>\n<ul>\n{rows}\n</ul>"
    return _page(w.lang, TYPE_INDEX, title, body)


TYPE_INDEX = "/problems"


def pages() -> Blueprint:
    """``GET /problems`` and ``GET /problems/<code>``: every page made once, in every language, here."""
    made = {
        lang: {"": _index_page(w), **{code: _code_page(w, code) for code in CODES}} for lang, w in LANGUAGES.items()
    }
    blp = Blueprint("problem_types", __name__)

    def answer(code: str) -> ResponseReturnValue:
        lang = request.args.get("lang", "")
        if lang not in made:
            lang = words_for(request.headers.get("Accept-Language")).lang
        page = made[lang].get(code)
        if page is None:
            raise Refusal(404)
        response = Response(page.html, mimetype="text/html")
        response.headers["Content-Language"] = lang
        response.vary.add("Accept-Language")
        response.set_etag(page.etag)
        response.cache_control.public = True
        response.cache_control.max_age = MAX_AGE
        return response.make_conditional(request)

    @blp.route(TYPE_INDEX, methods=["GET"])
    def problem_types() -> ResponseReturnValue:
        """Every problem type, with what it means."""
        return answer("")

    @blp.route(TYPE_INDEX + "/<string:code>", methods=["GET"])
    def problem_type(code: str) -> ResponseReturnValue:
        """What one problem code means: the page a problem's ``type`` links to."""
        return answer(code)

    return blp
