"""GET /: the table page, a phone-first web app for people at a real table, and its files under /table/.

Not part of the API (a plain Flask blueprint, left out of the OpenAPI document): the page is a client of the
public API like any other. Everything it loads comes from this service, under the CSP of ``service.security``
(only 'self': no inline script, no eval, no CDN). The files are plain ES modules: no build step.
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, send_from_directory
from flask.typing import ResponseReturnValue

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
PAGE_PREFIX = "/table/"


def blueprint() -> Blueprint:
    """The page and its files (the icon read now, once)."""
    icon = (WEB_DIR / "icon.svg").read_bytes()
    blp = Blueprint("page", __name__)

    @blp.route("/", methods=["GET"])
    def table_page() -> ResponseReturnValue:
        """The page itself; it loads its script and styles from /table/."""
        return send_from_directory(WEB_DIR, "index.html", max_age=0)

    @blp.route(PAGE_PREFIX + "<path:name>", methods=["GET"])
    def table_file(name: str) -> ResponseReturnValue:
        """The page's modules, styles and icon (revalidated with an ETag, so a new version shows at once)."""
        return send_from_directory(WEB_DIR, name, max_age=0)

    @blp.route("/sw.js", methods=["GET"])
    def service_worker() -> ResponseReturnValue:
        """The page's service worker, at the root so that it may answer for / when the service cannot be reached."""
        return send_from_directory(WEB_DIR, "sw.js", mimetype="text/javascript", max_age=0)

    @blp.route("/favicon.ico", methods=["GET"])
    def favicon() -> ResponseReturnValue:
        """The page's icon where browsers look for one first (an SVG: every current browser draws it)."""
        response = Response(icon, mimetype="image/svg+xml")
        response.cache_control.max_age = 86400
        return response

    return blp
