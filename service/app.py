"""The Flask application factory: configuration, the API object, the blueprints, the error handlers, and the
OpenAPI document.

Everything an answer is made from that never changes while the service runs (the catalogs, the documented
examples, the rule book, the problem types' pages, the OpenAPI document) is made here, once per app.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cached_property
from http import HTTPStatus
from typing import Any
from urllib.parse import urlsplit

import orjson
from flask import Flask, redirect
from flask.globals import request_ctx
from flask.sessions import NullSession, SecureCookieSessionInterface
from flask.typing import ResponseReturnValue
from flask_smorest import Api
from flask_smorest.utils import prepare_response
from werkzeug.exceptions import HTTPException
from werkzeug.routing import RequestRedirect

from engine import ENGINE_VERSION

from . import catalogs, compression, evening, observability, problems, replay, schemas, score, security, settlement
from .api import docs, page, rulebook
from .express import ExpressLane
from .i18n import LANGUAGES
from .jsonio import OrjsonProvider
from .openapi import document

MAX_BODY_BYTES = 64 * 1024  # a full replay log is about 5 KiB; anything near this is not a hand of Go-Stop

DESCRIPTION = """\
Scoring and arbitration for Go-Stop and Matgo (Korean Hwatu). Every rule is a knob of a rule set; pick a
preset by name (`"rules": "korean-2p"`) or override knobs (`"rules": {"preset": "korean-3p", "gobak":
"double"}`). Errors are `application/problem+json` (RFC 9457) with a stable `code`; each problem's `type`
is a page of this service saying what the code means.

Sentences (explanations, reasons, problem titles and details) are in the language `Accept-Language` asks
for (English or Korean), said by `Content-Language`; every other field is the same in every language.

Compatibility: within /v1 changes are additive only: new endpoints, new optional request fields, new
fields in answers, new values of an enum (an event type, a code, a knob choice). No field is renamed or
removed and no value changes meaning. Clients ignore fields and enum values they do not know. The
version below is the package's and the engine's; every ruling carries it as `engine_version`, and
CHANGELOG.md lists what each version added.
"""


class _NoSessions(SecureCookieSessionInterface):
    """The service keeps no session (it has no secret key): every request gets the same empty NullSession,
    which refuses to be written, rather than a new one made per request after a look for the key."""

    _none = NullSession()

    def open_session(self, app: Flask, request: Any) -> NullSession:
        return self._none


class GoStopFlask(Flask):
    """Flask with orjson, no sessions, and with the async check of each view and hook done once, not per call."""

    json_provider_class = OrjsonProvider
    session_interface = _NoSessions()

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

    def handle_http_exception(self, e: HTTPException) -> HTTPException | ResponseReturnValue:
        # Werkzeug's redirects (a doubled slash merged, a slash added) name the host the request's Host header
        # gave: answer a relative Location, which no header can point elsewhere (RFC 9110 10.2.2)
        if isinstance(e, RequestRedirect):
            target = urlsplit(e.new_url)
            location = target.path + (f"?{target.query}" if target.query else "")
            response = redirect(location, e.code)
            response.autocorrect_location_header = False
            return response
        return super().handle_http_exception(e)

    @cached_property
    def _sync_funcs(self) -> dict[Callable[..., Any], Callable[..., Any]]:
        return {}


class GoStopApi(Api):
    """flask-smorest's Api, documenting every error response as problem+json, with an example problem of each
    status the service answers (made by the handlers' own functions)."""

    ERROR_SCHEMA = problems.ProblemSchema

    def __init__(self, app: Flask, examples: Mapping[int, dict[str, Any]]) -> None:
        self.problem_examples = examples
        super().__init__(app)

    def _register_responses(self) -> None:
        # the first schemas are documented here: gostop's own fields from now on (``schemas.document``)
        self.ma_plugin.converter.field2property = _documented(self.ma_plugin.converter.field2property)
        for status in HTTPStatus:
            response: dict[str, Any] = {"description": status.phrase}
            if status >= 400:
                response["schema"] = self.ERROR_SCHEMA
                if status in self.problem_examples:
                    response["example"] = self.problem_examples[status]
            prepare_response(response, self.spec, problems.PROBLEM_TYPE)
            self.spec.components.response(status.name, response, lazy=True)
        response = {
            "description": "an error, as problem details",
            "schema": self.ERROR_SCHEMA,
            "examples": {str(s): {"value": example} for s, example in self.problem_examples.items()},
        }
        prepare_response(response, self.spec, problems.PROBLEM_TYPE)
        self.spec.components.response("DEFAULT_ERROR", response, lazy=True)


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Build the service. ``config`` overrides Flask settings (tests pass ``{"TESTING": True}``)."""
    app = GoStopFlask(__name__)
    app.config.update(
        API_TITLE="gostop",
        API_VERSION=ENGINE_VERSION,
        OPENAPI_VERSION="3.1.0",
        OPENAPI_URL_PREFIX=None,  # the document is served as /openapi.yaml and /openapi.json by docs.py
        API_SPEC_OPTIONS={
            "info": {"description": DESCRIPTION, "license": {"name": "MIT", "identifier": "MIT"}},
            "servers": [{"url": "/", "description": "this service: the document is served by the API it describes"}],
            "security": [],  # no operation asks for credentials
        },
        MAX_CONTENT_LENGTH=MAX_BODY_BYTES,
        EXPRESS_LANE=True,  # service.express; off, Flask answers every request (tests compare the two)
    )
    if config:
        app.config.update(config)
    api = GoStopApi(app, problems.examples(LANGUAGES["en"], app.config["MAX_CONTENT_LENGTH"]))
    for name, schema in {**schemas.NAMED, **problems.named_schemas()}.items():
        api.spec.components.schema(name, schema)
    api.spec.components.schema("RulesOverride", schema=schemas.RulesOverrideSchema)
    api.spec.components.schema("Move", schema=replay.MoveSchema)
    # the two answers of /v1/replay, full and lean (its 200 is one of them: service.replay)
    api.spec.components.schema("ReplayResponse", schema=replay.ReplayResponse)
    api.spec.components.schema("LeanReplayResponse", schema=replay.LeanReplayResponse)
    for component, shape in evening.HAND_SHAPES.values():
        api.spec.components.schema(component, schema=shape)
    meta, assets = docs.blueprints()
    blueprints = (
        catalogs.blueprint(),
        score.blueprint(),
        settlement.blueprint(),
        replay.blueprint(),
        evening.blueprint(),
    )
    for blp in (*blueprints, meta):
        api.register_blueprint(blp)
    for plain in (assets, rulebook.blueprint(), page.blueprint(), problems.pages()):
        app.register_blueprint(plain)
    problems.init_app(app)
    compression.init_app(app)
    if app.config["EXPRESS_LANE"]:
        lanes = [lane for blp in blueprints if (lane := getattr(blp, "express", None)) is not None]
        app.wsgi_app = ExpressLane(app.wsgi_app, lanes, app.config["MAX_CONTENT_LENGTH"])  # type: ignore[method-assign]
    observability.init_app(app, security.init_app(app))
    docs.publish(app, *document(app))
    return app


def _documented(field2property: Callable[[Any], dict[str, Any]]) -> Callable[[Any], dict[str, Any]]:
    """apispec's field documenter, with gostop's own fields documented by ``schemas.document``, and a request
    field's default said in its description rather than as ``default`` (which TypeScript generators read as
    "always present", making every defaulted field of a request required)."""

    def property_of(field: Any) -> dict[str, Any]:
        prop = schemas.document(field) or field2property(field)
        if "default" in prop:
            default = orjson.dumps(prop.pop("default")).decode()
            said = prop.get("description")
            prop["description"] = f"{said}; default {default}" if said else f"default {default}"
        return prop

    return property_of
