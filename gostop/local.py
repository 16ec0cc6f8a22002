"""The service in this process, for the command's offline mode: the one place gostop calls the service's app.

Offline, `gostop score` and the others call the service's own WSGI application with the request a client
would send, as gunicorn would: the answer is byte for byte the HTTP answer (the same status, problem and
sentences), and gostop knows nothing of how the service makes it. Whatever the service changes inside, only
this module says how its app is made and called.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
from collections.abc import Iterator
from functools import cache
from typing import TYPE_CHECKING, Any

from .client import JSON, PROBLEM, Answer

if TYPE_CHECKING:
    from _typeshed.wsgi import WSGIApplication

__all__ = ["LocalService"]


@contextlib.contextmanager
def _quiet_access_log() -> Iterator[None]:
    """The service writes an access-log line per request to stderr unless told not to (docs/production.md)."""
    before = os.environ.get("ACCESS_LOG_LEVEL")
    os.environ["ACCESS_LOG_LEVEL"] = "WARNING"
    try:
        yield
    finally:
        if before is None:
            del os.environ["ACCESS_LOG_LEVEL"]
        else:
            os.environ["ACCESS_LOG_LEVEL"] = before


@cache
def _app() -> WSGIApplication:
    """The service's app, made once per process (about half a second)."""
    from service import create_app

    with _quiet_access_log():
        app: WSGIApplication = create_app()
    return app


class LocalService:
    """The service answering in process, as the HTTP service at ``--url`` would; ``language`` is sent as
    ``Accept-Language``."""

    def __init__(self, language: str | None = None) -> None:
        self.language = language

    def request(self, method: str, path: str, body: bytes | None = None, content_type: str = JSON) -> Answer:
        path, _, query = path.partition("?")
        environ: dict[str, Any] = {
            "REQUEST_METHOD": method,
            "SCRIPT_NAME": "",
            "PATH_INFO": path,
            "QUERY_STRING": query,
            "SERVER_NAME": "localhost",
            "SERVER_PORT": "80",
            "SERVER_PROTOCOL": "HTTP/1.1",
            "REMOTE_ADDR": "127.0.0.1",
            "HTTP_HOST": "localhost",
            "HTTP_ACCEPT": f"{JSON}, {PROBLEM}",
            "wsgi.version": (1, 0),
            "wsgi.url_scheme": "http",
            "wsgi.input": io.BytesIO(body or b""),
            "wsgi.errors": sys.stderr,
            "wsgi.multithread": False,
            "wsgi.multiprocess": False,
            "wsgi.run_once": False,
        }
        if body is not None:
            environ["CONTENT_TYPE"] = content_type
            environ["CONTENT_LENGTH"] = str(len(body))
        if self.language:
            environ["HTTP_ACCEPT_LANGUAGE"] = self.language
        started: list[tuple[str, list[tuple[str, str]]]] = []

        def start_response(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            started[:] = [(status, headers)]
            return lambda data: None  # nothing in the service writes through this

        result = _app()(environ, start_response)
        try:
            data = b"".join(result)
        finally:
            close = getattr(result, "close", None)
            if close is not None:
                close()
        status, headers = started[0]
        content_type = next((v for k, v in headers if k.lower() == "content-type"), "")
        return Answer(int(status[:3]), content_type, data)
