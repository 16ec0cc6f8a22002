"""The Flask application factory: configuration, the API object, blueprints and error handlers."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cached_property
from http import HTTPStatus
from typing import Any

from flask import Flask
from flask.globals import request_ctx
from flask.typing import ResponseReturnValue
from flask_smorest import Api
from flask_smorest.utils import prepare_response

from engine import ENGINE_VERSION

from . import observability, problems, security
from .api import BLUEPRINTS, docs, page, rulebook
from .jsonio import OrjsonProvider
from .responses import ProblemSchema
from .schemas import (
    MoveSchema,
    RulesOverrideSchema,
    card_ids_property,
    move_list_property,
    rules_spec_property,
)

MAX_BODY_BYTES = 64 * 1024  # a full replay log is about 5 KiB; anything near this is not a hand of Go-Stop

DESCRIPTION = """\
Scoring and arbitration for Go-Stop and Matgo (Korean Hwatu). Every rule is a knob of a rule set; pick a
preset by name (`"rules": "korean-2p"`) or override knobs (`"rules": {"preset": "korean-3p", "gobak":
"double"}`). Errors are `application/problem+json` (RFC 9457); rule violations carry a stable `code`.
"""


class GoStopFlask(Flask):
    """Flask with orjson, and with the async check of each view and hook done once, not per call."""

    json_provider_class = OrjsonProvider

    def ensure_sync(self, func: Callable[..., Any]) -> Callable[..., Any]:
        sync = self._sync_funcs.get(func)
        if sync is None:
            sync = super().ensure_sync(func)
            if len(self._sync_funcs) < 4096:  # views and hooks are a fixed, small set
                self._sync_funcs[func] = sync
        return sync

    def dispatch_request(self) -> ResponseReturnValue:
        # Leave the matched URL rule where the metrics middleware can read it after the request.
        req = request_ctx.request
        if req.url_rule is not None:
            req.environ[observability.RULE_KEY] = req.url_rule.rule
        return super().dispatch_request()

    @cached_property
    def _sync_funcs(self) -> dict[Callable[..., Any], Callable[..., Any]]:
        return {}


class GoStopApi(Api):
    """flask-smorest's Api, documenting every error response as problem+json."""

    ERROR_SCHEMA = ProblemSchema

    def _register_responses(self) -> None:
        for status in HTTPStatus:
            response: dict[str, Any] = {"description": status.phrase}
            if status >= 400:
                response["schema"] = self.ERROR_SCHEMA
            prepare_response(response, self.spec, problems.PROBLEM_TYPE)
            self.spec.components.response(status.name, response, lazy=True)
        response = {"description": "an error, as problem details", "schema": self.ERROR_SCHEMA}
        prepare_response(response, self.spec, problems.PROBLEM_TYPE)
        self.spec.components.response("DEFAULT_ERROR", response, lazy=True)


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Build the service. ``config`` overrides Flask settings (tests pass ``{"TESTING": True}``)."""
    app = GoStopFlask(__name__)
    app.config.update(
        API_TITLE="gostop",
        API_VERSION=ENGINE_VERSION,
        OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX=None,  # the document is served as /openapi.yaml by the meta blueprint
        API_SPEC_OPTIONS={
            "info": {"description": DESCRIPTION, "license": {"name": "MIT"}},
            "servers": [{"url": "/", "description": "this service: the document is served by the API it describes"}],
        },
        MAX_CONTENT_LENGTH=MAX_BODY_BYTES,
    )
    if config:
        app.config.update(config)
    api = GoStopApi(app)
    for documenter in (rules_spec_property, card_ids_property, move_list_property):
        api.ma_plugin.converter.add_attribute_function(documenter)
    api.spec.components.schema("RulesOverride", schema=RulesOverrideSchema)
    api.spec.components.schema("Move", schema=MoveSchema)
    for blp in (*BLUEPRINTS, observability.blp):
        api.register_blueprint(blp)
    app.register_blueprint(docs.assets)
    app.register_blueprint(rulebook.blp)
    app.register_blueprint(page.blp)
    problems.init_app(app)
    security.init_app(app)
    observability.init_app(app, security.headers_for)
    return app
