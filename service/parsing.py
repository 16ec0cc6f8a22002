"""Request-body parsing for flask-smorest's ``@blp.arguments``: the JSON body through one marshmallow schema.

flask-smorest lets a Blueprint swap its webargs parser (``Blueprint.ARGUMENTS_PARSER``). Every gostop
endpoint reads exactly one location, the JSON body, so this parser goes straight from ``request.get_json``
to the schema's ``Loader`` (``service.loading``: ``schema.load``, fast for a valid body): the same
validation and the same error shapes, without webargs' per-request location machinery on the hot path.
Documentation still comes from flask-smorest.

An endpoint that also reads a body written as text (``@blp.arguments(schema, text=read)``: POST /v1/replay
and the text notation) gets a ``text/plain`` body decoded from UTF-8 and handed to ``read``, which gives back
what it wrote (``.body``, the JSON form, loaded through the same schema); the view receives that as its
keyword argument ``written`` (None for a JSON body), so that it can point into the text.

An endpoint whose body has a check of its own, as strict as its schema (``check=``: POST /v1/replay and the
engine's ``shape_errors``, tests/test_replay_shape.py), has the body checked by that alone: a body it passes
reaches the view as it came, unloaded; one it fails is loaded by the schema, which words the refusal as ever.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import marshmallow as ma
from flask import request
from flask_smorest import Blueprint
from webargs.flaskparser import FlaskParser, abort
from werkzeug.exceptions import BadRequest, LengthRequired, UnsupportedMediaType

from engine.notation import decode_log

from .express import Express
from .loading import Loader, unknown_card_ids
from .problems import Refusal

View = Callable[..., Any]
TextReader = Callable[[str], Any]  # the text of a body -> what it writes: ``.body`` (its JSON form), and more
TEXT = "text/plain"
_UTF8 = ("utf-8", "utf8", "us-ascii", "ascii")  # the charsets a text body is read in (ASCII is UTF-8)


class JsonBodyParser(FlaskParser):
    def use_args(
        self,
        argmap: Any,
        req: Any = None,
        *,
        location: str | None = None,
        text: TextReader | None = None,
        check: Callable[[Any], bool] | None = None,
        **kwargs: Any,
    ) -> Callable[[View], View]:
        if location != "json" or not isinstance(argmap, ma.Schema):
            return super().use_args(argmap, req, location=location, **kwargs)
        schema = argmap
        loader = Loader(schema)

        def decorator(func: View) -> View:
            @functools.wraps(func)
            def wrapper(*args: Any, **kw: Any) -> Any:
                if request.content_length is None and _sent_without_length():
                    # a body is read only with its length: say so, instead of answering "malformed JSON"
                    raise LengthRequired()
                written = None
                if text is not None and request.mimetype == TEXT:
                    written = text(_text_body())  # NotationError: a 422 naming the line and column
                    data = written.body
                else:
                    try:
                        data = request.get_json()
                    except UnsupportedMediaType:
                        if text is not None:  # say that text is read too
                            raise Refusal(415, "json-or-text") from None
                        raise
                    except BadRequest:
                        abort(400, messages={"json": ["Invalid JSON body."]})
                try:
                    # a body its own check passes needs no schema (one check, not two); any other is loaded by
                    # the schema, which refuses it in its own words
                    body = data if check is not None and check(data) else loader.load(data)
                except ma.ValidationError as err:
                    # report every fault at once: the shape's, and any card id that is not a card
                    abort(422, messages={"json": err.messages, "cards": unknown_card_ids(data)})
                if text is not None:
                    kw["written"] = written
                return func(*args, body, **kw)

            return wrapper

        return decorator


def _text_body() -> str:
    """A text/plain body, decoded: UTF-8 (a byte-order mark is skipped); any other charset is refused (415), and
    bytes that are not UTF-8 are a log that cannot be read, at the line and column where they start."""
    charset = request.mimetype_params.get("charset", "utf-8").strip().lower()
    if charset not in _UTF8:
        raise Refusal(415, "charset", charset=charset[:40])
    return decode_log(request.get_data(cache=False))  # a body over MAX_CONTENT_LENGTH is refused here (413)


def _sent_without_length() -> bool:
    """Whether a body may have come without a length: in chunks, or (HTTP/1.0) until the connection closes.

    An HTTP/1.1 request with neither a length nor chunks has no body (RFC 9112 section 6.3), and is
    answered as an empty body is.
    """
    chunked = "chunked" in request.headers.get("Transfer-Encoding", "").lower()
    return chunked or request.environ.get("SERVER_PROTOCOL") == "HTTP/1.0"


class GoStopBlueprint(Blueprint):
    """flask-smorest's Blueprint with the lean JSON-body parser; an answer endpoint's has its express lane."""

    ARGUMENTS_PARSER = JsonBodyParser()
    express: Express | None = None
