"""Flask's JSON provider backed by orjson: request bodies and answers are encoded in C.

orjson also bounds nesting depth (1024 levels), so a pathologically nested body fails to parse (400)
instead of exhausting the stack.
"""

from __future__ import annotations

from typing import Any

import orjson
from flask import Response
from flask.json.provider import JSONProvider


class OrjsonProvider(JSONProvider):
    mimetype = "application/json"

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        return orjson.dumps(obj).decode()

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        # RFC 8259 8.1: a parser may ignore a byte order mark; some Windows tools write one before UTF-8 JSON
        if s[:1] == "\ufeff" if isinstance(s, str) else s[:3] == b"\xef\xbb\xbf":
            s = s[1:] if isinstance(s, str) else s[3:]
        return orjson.loads(s)

    def response(self, *args: Any, **kwargs: Any) -> Response:
        obj = self._prepare_response_obj(args, kwargs)
        return Response(orjson.dumps(obj), mimetype=self.mimetype)


def answered(answer: Any, status: int = 200) -> Response:
    """A JSON answer, encoded once in C (what ``jsonify`` gives, without Flask's provider layers)."""
    return Response(orjson.dumps(answer), status=status, mimetype=OrjsonProvider.mimetype)
