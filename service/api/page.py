"""GET /: the table page, a phone-first web app for people at a real table, and its files under /table/.

Not part of the API (a plain Flask blueprint, left out of the OpenAPI document): the page is a client of the
public API like any other. Everything it loads comes from this service, under the CSP of ``service.security``
(only 'self': no inline script, no eval, no CDN). The files are plain ES modules: no build step.
"""

from __future__ import annotations

import gzip
from pathlib import Path

from flask import Blueprint, Response, request, send_from_directory
from flask.typing import ResponseReturnValue

from ..bundle import PYODIDE_FILES, bundle
from ..problems import Refusal

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
PAGE_PREFIX = "/table/"
IMMUTABLE = 365 * 86400  # a file named by its content or version never changes


_PACKED = ("text/", "application/javascript", "image/svg+xml")


def _accepts_gzip() -> bool:
    """The request accepts gzip (RFC 9110 12.5.3): named without q=0 (every browser sends it)."""
    for item in request.headers.get("Accept-Encoding", "")[:256].split(","):
        name, _, params = item.partition(";")
        if name.strip().lower() == "gzip":
            return params.replace(" ", "").lower() not in ("q=0", "q=0.0", "q=0.00", "q=0.000")
    return False


def _packed(response: Response) -> Response:
    """The page's files gzipped for a browser that accepts it: the modules and styles are text, a phone on a
    weak signal loads them in a quarter of the bytes (the first load's budget, tests/test_page.py). The ETag
    becomes weak (another representation of the same file), which a conditional request still matches."""
    response.vary.add("Accept-Encoding")
    if response.status_code != 200 or not (response.mimetype or "").startswith(_PACKED) or not _accepts_gzip():
        return response
    response.direct_passthrough = False
    body = response.get_data()
    if len(body) <= 1024:
        return response
    response.set_data(gzip.compress(body, compresslevel=6, mtime=0))
    response.headers["Content-Encoding"] = "gzip"
    response.headers.pop("Accept-Ranges", None)  # byte ranges of the file, not of its gzip
    etag, weak = response.get_etag()
    if etag and not weak:
        response.set_etag(etag, weak=True)
    return response


def blueprint() -> Blueprint:
    """The page and its files (the icon read now, once)."""
    icon = (WEB_DIR / "icon.svg").read_bytes()
    blp = Blueprint("page", __name__)

    @blp.route("/", methods=["GET"])
    def table_page() -> ResponseReturnValue:
        """The page itself; it loads its script and styles from /table/."""
        return _packed(send_from_directory(WEB_DIR, "index.html", max_age=0))

    @blp.route(PAGE_PREFIX + "<path:name>", methods=["GET"])
    def table_file(name: str) -> ResponseReturnValue:
        """The page's modules, styles and icon (revalidated with an ETag, so a new version shows at once)."""
        return _packed(send_from_directory(WEB_DIR, name, max_age=0))

    @blp.route(PAGE_PREFIX + "engine.json", methods=["GET"])
    def engine_manifest() -> ResponseReturnValue:
        """Where the page's engine is (docs/page-engine.md): the engine's zip, and Pyodide's files (or why not)."""
        response = Response(bundle().manifest, mimetype="application/json")
        response.cache_control.no_cache = True
        return response

    @blp.route(PAGE_PREFIX + "engine/<string:name>", methods=["GET"])
    def engine_zip(name: str) -> ResponseReturnValue:
        """The engine's Python sources in one zip, named by its content: kept for good by whoever holds it."""
        made = bundle()
        if name != made.name:
            raise Refusal(404)
        response = Response(made.zip, mimetype="application/zip")
        response.cache_control.public = True
        response.cache_control.max_age = IMMUTABLE
        response.cache_control.immutable = True
        return response

    @blp.route(PAGE_PREFIX + "pyodide/<string:version>/<string:name>", methods=["GET"])
    def pyodide_file(version: str, name: str) -> ResponseReturnValue:
        """Pyodide's core and standard library (``make pyodide``), under its version: kept for good."""
        made = bundle()
        if made.pyodide is None or version != made.pyodide_version or name not in PYODIDE_FILES:
            raise Refusal(404)
        types = {".wasm": "application/wasm", ".mjs": "text/javascript", ".js": "text/javascript"}
        mimetype = next((t for end, t in types.items() if name.endswith(end)), None)
        response = send_from_directory(made.pyodide, name, mimetype=mimetype, max_age=IMMUTABLE, conditional=True)
        response.cache_control.immutable = True
        return response

    @blp.route("/sw.js", methods=["GET"])
    def service_worker() -> ResponseReturnValue:
        """The page's service worker, at the root so that it may answer for / when the service cannot be reached."""
        return _packed(send_from_directory(WEB_DIR, "sw.js", mimetype="text/javascript", max_age=0))

    @blp.route("/favicon.ico", methods=["GET"])
    def favicon() -> ResponseReturnValue:
        """The page's icon where browsers look for one first (an SVG: every current browser draws it)."""
        response = Response(icon, mimetype="image/svg+xml")
        response.cache_control.max_age = 86400
        return response

    return blp
