"""The Flask application factory: configuration, the API object, blueprints and error handlers."""

from __future__ import annotations

from collections.abc import Mapping
from http import HTTPStatus
from typing import Any

from flask import Flask
from flask_smorest import Api
from flask_smorest.utils import prepare_response

from engine import ENGINE_VERSION

from . import observability, problems, security
from .api import BLUEPRINTS, docs
from .jsonio import OrjsonProvider
from .schemas import (
    MoveSchema,
    ProblemSchema,
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
    json_provider_class = OrjsonProvider


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
        API_SPEC_OPTIONS={"info": {"description": DESCRIPTION, "license": {"name": "MIT"}}},
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
    problems.init_app(app)
    observability.init_app(app)
    security.init_app(app)
    return app
