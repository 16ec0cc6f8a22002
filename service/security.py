"""Headers for browser clients: CORS (off unless origins are configured), nosniff, no-store, and the CSPs
of the pages: the docs, the rule book and the table page.

``CORS_ORIGINS`` is a comma-separated list of allowed origins (``*`` for any); unset or empty, no CORS
headers are sent, so browsers on other origins cannot read the answers.
"""

from __future__ import annotations

import os

from flask import Flask
from flask_cors import CORS

# Swagger UI sets inline styles and shows data: images; everything else comes from this service.
DOCS_CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
API_CSP = "default-src 'none'; frame-ancestors 'none'"
# The rule book page: its own style sheet and nothing else (no script, no inline style).
RULES_CSP = (
    "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
# The table page (/ and /table/*): its own modules, styles, icon and API calls; nothing inline, no eval.
PAGE_CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)


_COMMON = [("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer")]
_DOCS = [*_COMMON, ("Content-Security-Policy", DOCS_CSP)]
_RULES = [*_COMMON, ("Content-Security-Policy", RULES_CSP)]
_PAGE = [*_COMMON, ("Content-Security-Policy", PAGE_CSP)]
# API answers are computed per request: never cache a ruling
_API = [*_COMMON, ("Content-Security-Policy", API_CSP), ("Cache-Control", "no-store")]


def headers_for(path: str) -> list[tuple[str, str]]:
    """The fixed security headers of an answer to ``path`` (added by the WSGI middleware)."""
    if path == "/rules" or path.startswith("/rules/"):
        return _RULES
    if path in ("/", "/sw.js") or path.startswith("/table/"):
        return _PAGE
    return _DOCS if path == "/docs" or path.startswith("/docs/") else _API


def init_app(app: Flask) -> None:
    origins = [o.strip() for o in os.environ.get("CORS_ORIGINS", "").split(",") if o.strip()]
    if app.config.get("CORS_ORIGINS") is not None:
        origins = list(app.config["CORS_ORIGINS"])
    if origins:
        CORS(app, origins=origins, expose_headers=["X-Request-ID"], max_age=600)
