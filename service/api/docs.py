"""GET /healthz, /openapi.yaml, /openapi.json and /docs (Swagger UI served from the installed bundle: no CDN).

The OpenAPI document is made once, when the app is built (``publish``), in both forms with their ETags.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import swagger_ui_bundle
from flask import Blueprint as FlaskBlueprint
from flask import Flask, Response, current_app, redirect, request, send_from_directory
from flask.typing import ResponseReturnValue
from flask_smorest import Blueprint
from marshmallow import fields, validate

from ..draining import draining
from ..jsonio import answered
from ..observability import engine_build
from ..openapi import PUBLISHED
from ..problems import Refusal
from ..schemas import Strict

SWAGGER_DIR = Path(swagger_ui_bundle.swagger_ui_path)
STATIC_DIR = Path(__file__).resolve().parent.parent / "static"
MAX_AGE = 3600  # the document changes only with a release


class EngineOut(Strict):
    version = fields.String(required=True, metadata={"description": "the engine's version (engine_version)"})
    build = fields.String(
        required=True,
        validate=validate.OneOf(["compiled", "pure"]),
        metadata={"description": "compiled: the engine mypyc compiled; pure: its Python sources (GOSTOP_PURE=1)"},
    )


class HealthResponse(Strict):
    status = fields.String(required=True)
    engine = fields.Nested(EngineOut, required=True, metadata={"description": "the engine that answers"})


def _document_response(mimetype: str) -> ResponseReturnValue:
    body, etag = current_app.extensions[PUBLISHED][mimetype]
    response = Response(body, mimetype=mimetype)
    response.set_etag(etag)
    response.cache_control.public = True
    response.cache_control.max_age = MAX_AGE
    return response.make_conditional(request)


def publish(app: Flask, yaml_text: str, json_bytes: bytes) -> None:
    """Keep the finished document, in both forms, for the views below."""
    app.extensions[PUBLISHED] = {
        "application/yaml": (yaml_text, hashlib.sha256(yaml_text.encode()).hexdigest()[:32]),
        "application/json": (json_bytes, hashlib.sha256(json_bytes).hexdigest()[:32]),
    }


def blueprints() -> tuple[Blueprint, FlaskBlueprint]:
    """The documented meta endpoints, and the docs page's assets (not part of the API)."""
    docs_html = (STATIC_DIR / "docs.html").read_bytes()
    init_js = (STATIC_DIR / "init.js").read_bytes()
    blp = Blueprint("meta", __name__, description="Health, the OpenAPI document and its interactive page")
    cached = {
        "ETag": {"description": "the document changes only with a release", "schema": {"type": "string"}},
        "Cache-Control": {"description": f"public, max-age={MAX_AGE}", "schema": {"type": "string"}},
    }

    health = {"status": "ok", "engine": engine_build()}

    @blp.route("/healthz", methods=["GET"])
    @blp.doc(operationId="getHealth")
    @blp.alt_response(
        200,
        schema=HealthResponse,
        success=True,
        description="the service is up",
        example={"status": "ok", "engine": {**engine_build(), "build": "compiled"}},
    )
    @blp.alt_response(503, response="SERVICE_UNAVAILABLE")
    def healthz() -> ResponseReturnValue:
        """Liveness and readiness: 200 while the process serves requests, 503 once it is draining before a stop.
        The body says which engine answers: its version, and its build (`compiled` by mypyc, or `pure` Python)."""
        if draining():
            raise Refusal(503, "draining")
        return answered(health)

    @blp.route("/openapi.yaml", methods=["GET"])
    @blp.doc(operationId="getOpenapiDocument")
    @blp.doc(
        responses={
            "200": {
                "description": "this document",
                "content": {"application/yaml": {"schema": {"type": "string"}}},
                "headers": cached,
            },
            "304": {"description": "the client's copy (If-None-Match) is current"},
        }
    )
    def openapi_yaml() -> ResponseReturnValue:
        """The OpenAPI 3.1 description of this service (the same as the committed `openapi.yaml`)."""
        return _document_response("application/yaml")

    @blp.route("/openapi.json", methods=["GET"])
    @blp.doc(operationId="getOpenapiJson")
    @blp.doc(
        responses={
            "200": {
                "description": "this document as JSON",
                "content": {"application/json": {"schema": {"type": "object"}}},
                "headers": cached,
            },
            "304": {"description": "the client's copy (If-None-Match) is current"},
        }
    )
    def openapi_json() -> ResponseReturnValue:
        """The same document as `/openapi.yaml`, as JSON."""
        return _document_response("application/json")

    @blp.route("/docs", methods=["GET"])
    @blp.doc(operationId="getDocsPage")
    @blp.doc(
        responses={
            "200": {"description": "an interactive page", "content": {"text/html": {"schema": {"type": "string"}}}}
        }
    )
    def docs_page() -> ResponseReturnValue:
        """Swagger UI for trying the API from a browser."""
        return Response(docs_html, mimetype="text/html")

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
            return Response(init_js, mimetype="text/javascript")
        return send_from_directory(SWAGGER_DIR, name, max_age=3600)

    return blp, assets
