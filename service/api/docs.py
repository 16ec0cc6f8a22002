"""GET /healthz, /openapi.yaml and /docs (Swagger UI served from the installed bundle: no CDN)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import swagger_ui_bundle
from flask import Blueprint as FlaskBlueprint
from flask import Response, current_app, jsonify, redirect, send_from_directory
from flask.typing import ResponseReturnValue
from flask_smorest import Blueprint

from ..draining import draining
from ..problems import Refusal
from ..responses import HealthResponse

blp = Blueprint("meta", __name__, description="Health, the OpenAPI document and its interactive page")

SWAGGER_DIR = Path(swagger_ui_bundle.swagger_ui_path)
STATIC_DIR = Path(__file__).resolve().parent.parent / "static"
_DOCS_HTML = (STATIC_DIR / "docs.html").read_bytes()
_INIT_JS = (STATIC_DIR / "init.js").read_bytes()


@blp.route("/healthz", methods=["GET"])
@blp.doc(operationId="getHealth")
@blp.alt_response(200, schema=HealthResponse, success=True, description="the service is up", example={"status": "ok"})
def healthz() -> ResponseReturnValue:
    """Liveness and readiness: 200 while the process serves requests, 503 once it is draining before a stop."""
    if draining():
        raise Refusal(503, "draining")
    return jsonify(status="ok")


@lru_cache(maxsize=1)
def _openapi_yaml() -> str:
    from ..openapi import openapi_yaml  # imported late: `python -m service.openapi` imports this package

    return openapi_yaml(current_app)


@blp.route("/openapi.yaml", methods=["GET"])
@blp.doc(operationId="getOpenapiDocument")
@blp.doc(
    responses={"200": {"description": "this document", "content": {"application/yaml": {"schema": {"type": "string"}}}}}
)
def openapi_document() -> ResponseReturnValue:
    """The OpenAPI 3 description of this service (the same as the committed `openapi.yaml`)."""
    return Response(_openapi_yaml(), mimetype="application/yaml")


@blp.route("/docs", methods=["GET"])
@blp.doc(operationId="getDocsPage")
@blp.doc(
    responses={"200": {"description": "an interactive page", "content": {"text/html": {"schema": {"type": "string"}}}}}
)
def docs_page() -> ResponseReturnValue:
    """Swagger UI for trying the API from a browser."""
    return Response(_DOCS_HTML, mimetype="text/html")


# The page's assets are not part of the API, so they live on a plain Flask blueprint (not in the spec).
assets = FlaskBlueprint("docs_assets", __name__)


@assets.route("/docs/", methods=["GET"])
def docs_slash() -> ResponseReturnValue:
    """``/docs/`` is the docs page too."""
    return redirect("/docs", code=308)


@assets.route("/docs/<path:name>", methods=["GET"])
def docs_asset(name: str) -> ResponseReturnValue:
    """The Swagger UI bundle and our start-up script."""
    if name == "init.js":
        return Response(_INIT_JS, mimetype="text/javascript")
    return send_from_directory(SWAGGER_DIR, name, max_age=3600)
