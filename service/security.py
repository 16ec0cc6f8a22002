"""Headers for browser clients and caches: CORS (off unless origins are configured), nosniff, the CSPs of the
pages (the docs, the rule book and the problem types' pages, the table page), and no-store for rulings.

``CORS_ORIGINS`` is a comma-separated list of allowed origins (``*`` for any); unset or empty, no CORS
headers are sent, so browsers on other origins cannot read the answers. With CORS on, a preflight allows
only the methods the service serves, and every answer carries ``Vary: Origin``, since whether it may be read
depends on the asking origin (a cache must not hand one origin's answer to another).

An answer that sets its own ``Cache-Control`` (the catalogs, the rule book, the OpenAPI document: each with
an ETag) keeps it; every other API answer is ``no-store``: a ruling is never cached.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from flask import Flask
from flask_cors import CORS

from .codes import API_VERSION

# Swagger UI sets inline styles and shows data: images; everything else comes from this service.
DOCS_CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
API_CSP = "default-src 'none'; frame-ancestors 'none'"
# The rule book and the problem types' pages: their style sheet and nothing else (no script, no inline style).
RULES_CSP = (
    "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
# The table page (/ and /table/*): its own modules, styles, icon and API calls; nothing inline, no eval. The
# engine's WebAssembly (Pyodide, docs/page-engine.md) is compiled in a worker of the page's own: WebAssembly
# needs 'wasm-unsafe-eval', which allows compiling WebAssembly and nothing of JavaScript's eval.
PAGE_CSP = (
    "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; style-src 'self'; "
    "img-src 'self'; connect-src 'self'; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
NO_STORE = ("Cache-Control", "no-store")
# What a browser client on another origin may read of an answer (API.md v1.3): revalidation, when to come back,
# the contract's version, the request's id.
EXPOSED = ["ETag", "Retry-After", "API-Version", "X-Request-ID"]

Headers = list[tuple[str, str]]


def _headers(csp: str, *more: tuple[str, str]) -> Headers:
    return [
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
        ("Content-Security-Policy", csp),
        ("API-Version", API_VERSION),
        *more,
    ]


def cors_origins(app: Flask) -> list[str]:
    """The origins allowed to read the answers: the app's ``CORS_ORIGINS`` setting, else the environment's."""
    if app.config.get("CORS_ORIGINS") is not None:
        return list(app.config["CORS_ORIGINS"])
    return [o.strip() for o in os.environ.get("CORS_ORIGINS", "").split(",") if o.strip()]


def init_app(app: Flask) -> Callable[[str], Headers]:
    """Switch CORS on when origins are configured; returns ``headers_for(path)``, the fixed headers of an answer
    to ``path`` that the WSGI middleware adds (``service.observability``). Call it once every route is in."""
    origins = cors_origins(app)
    vary = [("Vary", "Origin")] if origins else []
    if origins:
        served = sorted({m for rule in app.url_map.iter_rules() for m in rule.methods or ()})
        CORS(app, origins=origins, methods=served, expose_headers=EXPOSED, max_age=600, vary_header=False)
    docs, rules, page = _headers(DOCS_CSP, *vary), _headers(RULES_CSP, *vary), _headers(PAGE_CSP, *vary)
    api = _headers(API_CSP, *vary, NO_STORE)

    def headers_for(path: str) -> Headers:
        if path == "/rules" or path.startswith(("/rules/", "/problems")):
            return rules
        if path in ("/", "/sw.js") or path.startswith("/table/"):
            return page
        return docs if path == "/docs" or path.startswith("/docs/") else api

    return headers_for
