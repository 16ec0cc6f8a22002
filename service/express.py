"""The express lane: a sound POST to an answer endpoint (score, settle, replay, evening) answered without Flask's
request machinery.

Over HTTP most of a small request's cost was the framework around the view: the request and response objects,
routing, flask-smorest's wrappers, the after-request hook (docs/speed.md). The lane, a WSGI layer in front of
Flask, takes only the plain case: POST to an endpoint's exact path, a JSON body with its length, no query but
the replay's ``view``, no Origin (CORS is Flask's), and a body that the endpoint's own check passes and its
answer function answers. It answers that with the very functions the Flask view calls (the endpoint's
``Express``, made by ``service.endpoints``), encoded, gzipped and headed as Flask's path does it.

Anything else goes to Flask, with the bytes the lane read put back: a refusal, a text body, a chunked body, an
odd header, an engine exception. Flask then answers it as it always has (the answer function runs again, which
only a refused or failing request pays). So the lane changes no answer: tests/test_express.py compares the two
paths' status, headers and bytes on every logged hand and documented example, in every language, gzipped and
not, and on refused bodies.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import orjson

from .compression import gzip_for
from .observability import RULE_KEY

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

__all__ = ["Express", "ExpressLane", "Headers", "Reply"]

Headers = list[tuple[str, str]]
Reply = tuple[Any, Headers]  # the answer's JSON value, and its headers beyond Content-Type and Content-Length
# a body as parsed from JSON and the request's environ -> the reply, or None: "not the plain case, ask Flask"
Handle = Callable[[Any, Mapping[str, Any]], "Reply | None"]

_JSON_TYPES = frozenset(("application/json", "application/json; charset=utf-8", "application/json;charset=utf-8"))
_BOM = b"\xef\xbb\xbf"


@dataclass(frozen=True)
class Express:
    """One endpoint's lane: its path (as routed, e.g. ``/v1/score``) and its ``handle``."""

    path: str
    handle: Handle


class ExpressLane:
    """WSGI middleware in front of the Flask app (``app.wsgi_app``), inside the request id, metrics and access log
    (``service.observability``), which time and count both paths alike."""

    def __init__(self, flask_app: WSGIApplication, lanes: Iterable[Express], max_body: int) -> None:
        self.flask_app = flask_app
        self.lanes = {lane.path: lane.handle for lane in lanes}
        self.max_body = max_body

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        handle = self.lanes.get(environ.get("PATH_INFO", ""))
        if handle is None or environ.get("REQUEST_METHOD") != "POST":
            return self.flask_app(environ, start_response)
        length = environ.get("CONTENT_LENGTH", "")
        if (
            not length.isdigit()
            or not 0 < int(length) <= self.max_body
            or environ.get("CONTENT_TYPE", "").lower() not in _JSON_TYPES
            or "HTTP_ORIGIN" in environ
            or "HTTP_TRANSFER_ENCODING" in environ
        ):
            return self.flask_app(environ, start_response)
        try:
            raw = environ["wsgi.input"].read(int(length))
        except OSError:  # the client went away mid-body: Flask reads on, and answers it as it always has
            return self.flask_app(environ, start_response)
        answer = self._answer(handle, raw, environ) if len(raw) == int(length) else None
        if answer is None:
            environ["wsgi.input"] = io.BytesIO(raw)  # Flask reads the body the lane took
            return self.flask_app(environ, start_response)
        environ[RULE_KEY] = environ["PATH_INFO"]  # the metrics' series, as Flask's routing names it
        start_response("200 OK", answer[1])
        return [answer[0]]

    @staticmethod
    def _answer(handle: Handle, raw: bytes, environ: Mapping[str, Any]) -> tuple[bytes, Headers] | None:
        try:
            reply = handle(orjson.loads(raw[3:] if raw.startswith(_BOM) else raw), environ)
        except Exception:  # whatever it is, Flask answers it: a refusal, or a 500 logged there
            return None
        if reply is None:
            return None
        value, more = reply
        body = orjson.dumps(value)
        headers: Headers = [("Content-Type", "application/json"), ("Content-Length", str(len(body))), *more]
        # as compression's after-request hook: Vary names Accept-Encoding on every JSON answer, and the answer is
        # gzipped by the same rule (``gzip_for``)
        for i, (name, said) in enumerate(headers):
            if name == "Vary":
                headers[i] = ("Vary", f"{said}, Accept-Encoding")
                break
        else:
            headers.append(("Vary", "Accept-Encoding"))
        packed = gzip_for(body, environ.get("HTTP_ACCEPT_ENCODING"))
        if packed is None:
            return body, headers
        headers[1] = ("Content-Length", str(len(packed)))
        headers.append(("Content-Encoding", "gzip"))
        return packed, headers
