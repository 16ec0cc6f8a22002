"""gzip for answers over 1 KB when the request accepts it (API.md v1.3).

A live turn's replay answer is about 8 KB of JSON and 2 KB gzipped; level 1 of zlib gets most of that saving
for a fraction of the CPU of the default level (docs/hardening.md has the figures). What is compressed: an
answer of a text type (JSON, problem+json, HTML, YAML, JavaScript, CSS) held in memory, over ``MIN_SIZE``
bytes, not already encoded. A strong ETag becomes weak (RFC 9110 8.8.1: the gzipped bytes are another
representation), which ``If-None-Match`` still matches (its comparison is weak), so revalidation keeps working.
"""

from __future__ import annotations

import zlib

from flask import Flask, Response, request

__all__ = ["LEVEL", "MIN_SIZE", "accepts_gzip", "init_app"]

MIN_SIZE = 1024
LEVEL = 1
_TEXT = ("application/json", "application/problem+json", "text/", "application/yaml", "application/javascript")
_MAX_HEADER = 256  # of Accept-Encoding read; a browser sends "gzip, deflate, br, zstd"


def accepts_gzip(accept_encoding: str | None) -> bool:
    """Whether an Accept-Encoding header accepts gzip (RFC 9110 12.5.3): named, or ``*``, with a q above 0."""
    if not accept_encoding:
        return False
    found: dict[str, float] = {}
    for item in accept_encoding[:_MAX_HEADER].split(","):
        name, _, params = item.partition(";")
        q = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key.lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        found.setdefault(name.strip().lower(), q)
    q = found.get("gzip", found.get("x-gzip", found.get("*", 0.0)))
    return q > 0


def _compress(response: Response) -> Response:
    if (
        response.direct_passthrough
        or response.is_streamed
        or response.status_code < 200
        or response.status_code in (204, 304)
        or "Content-Encoding" in response.headers
        or not (response.mimetype or "").startswith(_TEXT)
    ):
        return response
    response.vary.add("Accept-Encoding")  # whether it is compressed depends on the request
    if not accepts_gzip(request.headers.get("Accept-Encoding")):
        return response
    body = response.get_data()
    if len(body) <= MIN_SIZE:
        return response
    packer = zlib.compressobj(LEVEL, zlib.DEFLATED, 31)  # 31: the gzip wrapper
    response.set_data(packer.compress(body) + packer.flush())
    response.headers["Content-Encoding"] = "gzip"
    etag, weak = response.get_etag()
    if etag and not weak:
        response.set_etag(etag, weak=True)
    return response


def init_app(app: Flask) -> None:
    app.after_request(_compress)
