"""Request ids, one JSON access-log line per request, and Prometheus metrics (``GET /metrics``).

The access log is not a ``logging`` logger: building a LogRecord per request cost more than the engine's
whole work on a score request, so each line is one unbuffered write of its bytes (to stderr by default).
A line is far under PIPE_BUF (4 KiB), so lines from several gunicorn workers never interleave.

``gostop_engine_info{version, build} 1`` says which engine answers: its version and its build (``compiled`` by
mypyc, or ``pure`` Python: ``engine.COMPILED``), as ``GET /healthz`` does.

Metrics work under several gunicorn workers through prometheus-client's multiprocess mode: gunicorn's
config sets ``PROMETHEUS_MULTIPROC_DIR`` before the workers import this module, and /metrics aggregates
every worker's samples. Without that variable (tests, ``flask run``) the process's own registry is used.
With ``METRICS_PORT`` set, /metrics is off the public port: gunicorn's master serves it on that port.
"""

from __future__ import annotations

import os
import random
import re
import time
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import IO, TYPE_CHECKING, Any

import orjson
from flask import Flask, Response
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)

from engine import COMPILED, ENGINE_VERSION

from .i18n import words_for

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

REQUEST_ID = "X-Request-ID"
RULE_KEY = "gostop.url_rule"  # set in the WSGI environ by the app once routing has matched
_VALID_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}")  # anything else is replaced, never echoed

REQUESTS = Counter("gostop_requests_total", "HTTP requests answered", ["method", "endpoint", "status"])
LATENCY = Histogram(
    "gostop_request_duration_seconds",
    "Time to answer an HTTP request",
    ["method", "endpoint"],
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0),
)


# An "info" metric as a gauge of 1 (prometheus-client's Info has no multiprocess mode); every worker sets the
# same labels, and "max" keeps one sample of them rather than one per worker.
ENGINE_INFO = Gauge(
    "gostop_engine_info",
    "The engine that answers: its version and build",
    ["version", "build"],
    multiprocess_mode="max",
)


def engine_build() -> dict[str, str]:
    """The engine that runs: its version, and whether mypyc compiled it (``compiled``) or not (``pure``)."""
    return {"version": ENGINE_VERSION, "build": "compiled" if COMPILED else "pure"}


_WORDY = ("application/json", "application/problem+json")  # answers whose sentences follow Accept-Language
_QUIET_LEVELS = {"WARNING", "WARN", "ERROR", "CRITICAL", "FATAL"}
_MAX_LOGGED_PATH = 1024  # keeps every line far under PIPE_BUF, however long the request line was


def access_log_stream() -> IO[bytes] | None:
    """Where access-log lines go: unbuffered stderr, or None when ``ACCESS_LOG_LEVEL`` is above INFO."""
    if os.environ.get("ACCESS_LOG_LEVEL", "INFO").upper() in _QUIET_LEVELS:
        return None
    return open(2, "wb", buffering=0, closefd=False)  # stderr itself: never closed


def metrics() -> Response:
    """Prometheus text format: request counts and latency histograms per endpoint, across workers."""
    return Response(generate_latest(registry()), content_type=CONTENT_TYPE_LATEST)


def registry() -> CollectorRegistry:
    """Every worker's samples under gunicorn (multiprocess mode), else this process's own."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        collected = CollectorRegistry()
        multiprocess.MultiProcessCollector(collected)  # type: ignore[no-untyped-call]
        return collected
    return REGISTRY


def _new_id() -> str:
    # unique, not secret: random is reseeded in each forked worker, and is cheaper than os.urandom
    return f"{random.getrandbits(128):032x}"


_METHODS = frozenset(("GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH"))


@lru_cache(maxsize=1024)
def _series(method: str, endpoint: str, status: int) -> tuple[Any, Any]:
    """The metric children of one (method, endpoint, status): looked up once, not per request."""
    return REQUESTS.labels(method, endpoint, str(status)), LATENCY.labels(method, endpoint)


class Observed:
    """WSGI middleware around the Flask app: request id, response headers, metrics and the access log.

    It wraps ``app.wsgi_app`` rather than using Flask's request hooks, so it times the whole request
    (routing and errors included) and costs no hook dispatch. ``extra_headers(path)`` gives the fixed
    headers for a path (see ``service.security``).
    """

    def __init__(
        self,
        wsgi_app: WSGIApplication,
        extra_headers: Callable[[str], list[tuple[str, str]]],
        access_log: IO[bytes] | None,
    ) -> None:
        self.wsgi_app = wsgi_app
        self.extra_headers = extra_headers
        self.access_log = access_log

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        started = time.perf_counter()
        given = environ.get("HTTP_X_REQUEST_ID", "")
        request_id = given if _VALID_ID.fullmatch(given) else _new_id()
        path = environ.get("PATH_INFO", "")
        status = ["500"]

        def start(code: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            status[0] = code
            wordy = cached = False
            vary = -1
            for i, (name, value) in enumerate(headers):
                if name == "Content-Type":
                    wordy = value.startswith(_WORDY)
                elif name == "Cache-Control":
                    cached = True  # the answer's own (a catalog, a page): it keeps it
                elif name == "Vary":
                    vary = i
            headers.append((REQUEST_ID, request_id))
            for name, value in self.extra_headers(path):
                if name == "Cache-Control" and cached:
                    continue
                if name == "Vary":
                    if vary >= 0:
                        headers[vary] = ("Vary", f"{headers[vary][1]}, {value}")
                        continue
                    vary = len(headers)
                headers.append((name, value))
            if wordy:
                # the sentences of a JSON answer are in the language the client asked for (API.md v1.1)
                headers.append(("Content-Language", words_for(environ.get("HTTP_ACCEPT_LANGUAGE")).lang))
                if vary >= 0:
                    headers[vary] = ("Vary", f"{headers[vary][1]}, Accept-Language")
                else:
                    headers.append(("Vary", "Accept-Language"))
            return start_response(code, headers, exc_info)

        body = self.wsgi_app(environ, start)
        elapsed = time.perf_counter() - started
        method = environ.get("REQUEST_METHOD", "")
        # the URL rule, not the path, so /v1/rules/<preset> is one series whatever the preset; and the methods
        # of HTTP by name, any other as one ``other``, so that made-up methods make no new series
        code = int(status[0][:3])
        count, latency = _series(method if method in _METHODS else "other", environ.get(RULE_KEY, "unmatched"), code)
        count.inc()
        latency.observe(elapsed)
        if self.access_log is not None:
            line = {
                "method": method,
                "path": path[:_MAX_LOGGED_PATH],
                "status": code,
                "duration_ms": round(elapsed * 1000, 3),
                "request_id": request_id,
            }
            try:  # noqa: SIM105 (a try costs nothing when nothing is raised; contextlib.suppress is an object a request)
                self.access_log.write(orjson.dumps(line, option=orjson.OPT_APPEND_NEWLINE))
            except OSError:  # a log line that cannot be written must not fail the answer
                pass
        return body


def init_app(app: Flask, extra_headers: Callable[[str], list[tuple[str, str]]]) -> None:
    """Wrap the app. ``app.config["ACCESS_LOG_STREAM"]``, if set, is the binary stream for access-log lines.

    ``GET /metrics`` is served on the app's own port only when ``METRICS_PORT`` is not set: with it, gunicorn's
    master serves the metrics on that port (service/gunicorn.conf.py), and the public port has none.
    """
    ENGINE_INFO.labels(**engine_build()).set(1)
    if not app.config.get("METRICS_PORT", os.environ.get("METRICS_PORT")):
        app.add_url_rule("/metrics", "metrics", metrics, methods=["GET"])
    stream = app.config["ACCESS_LOG_STREAM"] if "ACCESS_LOG_STREAM" in app.config else access_log_stream()
    app.wsgi_app = Observed(app.wsgi_app, extra_headers, stream)  # type: ignore[method-assign]
