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

__all__ = ["LEVEL", "MIN_SIZE", "accepts_gzip", "add_vary", "gzip_for", "gzipped", "init_app"]

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


def gzipped(body: bytes) -> bytes:
    """``body`` in gzip, at ``LEVEL``."""
    packer = zlib.compressobj(LEVEL, zlib.DEFLATED, 31)  # 31: the gzip wrapper
    return packer.compress(body) + packer.flush()


def gzip_for(body: bytes, accept_encoding: str | None) -> bytes | None:
    """The answer's body gzipped for a client whose Accept-Encoding takes gzip, when it is over ``MIN_SIZE``;
    None when it goes as it is. The one rule, for Flask's answers (``_compress``) and the express lane's."""
    if len(body) <= MIN_SIZE or not accepts_gzip(accept_encoding):
        return None
    return gzipped(body)


def add_vary(response: Response, name: str) -> None:
    """``response.vary.add(name)``, without werkzeug's parse of the header into a set and back (and its
    KeyError, an exception object built and caught, when the header is absent): the same header results."""
    headers = response.headers
    said = headers.getlist("Vary")  # a plain walk of the list: no exception when there is none
    if not said:
        headers["Vary"] = name
    elif len(said) == 1 and '"' not in said[0]:
        if name.lower() not in (v.strip().lower() for v in said[0].split(",")):
            headers["Vary"] = f"{said[0]}, {name}"  # as werkzeug writes it back: ", " between the names
    else:
        response.vary.add(name)  # rare (two Vary headers, quoting): werkzeug's own merge


def _compress(response: Response) -> Response:
    # Read off the answer's own headers (a plain list) and the request's environ: the properties
    # (``mimetype``, ``"X" in headers``, ``request.headers``) parse or raise a KeyError per request.
    if response.direct_passthrough or response.status_code < 200 or response.status_code in (204, 304):
        return response
    content_type = encoded = None
    for name, value in response.headers.items():
        lowered = name.lower()
        if lowered == "content-type":
            content_type = value if content_type is None else content_type
        elif lowered == "content-encoding":
            encoded = value
    mimetype = (content_type or "").partition(";")[0].strip()  # as ``response.mimetype`` reads it
    if encoded is not None or not mimetype.startswith(_TEXT) or response.is_streamed:
        return response
    add_vary(response, "Accept-Encoding")  # whether it is compressed depends on the request
    packed = gzip_for(response.get_data(), request.environ.get("HTTP_ACCEPT_ENCODING"))
    if packed is None:
        return response
    response.set_data(packed)
    response.headers["Content-Encoding"] = "gzip"
    etag, weak = response.get_etag()
    if etag and not weak:
        response.set_etag(etag, weak=True)
    return response


def init_app(app: Flask) -> None:
    app.after_request(_compress)
