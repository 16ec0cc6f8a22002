"""GET /v1/rules and /v1/rules/{preset}: the named presets of RULES.md 10."""

from __future__ import annotations

from flask import jsonify
from flask.typing import ResponseReturnValue
from flask_smorest import Blueprint

from engine import PRESETS

from ..i18n import DEFAULT_LANGUAGE, LANGUAGES, request_words
from ..problems import Refusal
from ..render import echo, presets_json
from ..responses import PresetsResponse
from ..schemas import RulesSchema

# The presets never change: their answer in each language is made once.
PRESETS_BODY = {lang: presets_json(w) for lang, w in LANGUAGES.items()}

blp = Blueprint("rules", __name__, url_prefix="/v1", description="Rule presets and their knobs")


@blp.route("/rules", methods=["GET"])
@blp.doc(operationId="listPresets")
@blp.alt_response(
    200, schema=PresetsResponse, success=True, description="the presets", example=PRESETS_BODY[DEFAULT_LANGUAGE]
)
def list_presets() -> ResponseReturnValue:
    """The named presets, the rules each plays, and how many players it is for."""
    return jsonify(PRESETS_BODY[request_words().lang])


@blp.route("/rules/<string:preset>", methods=["GET"])
@blp.doc(operationId="getPreset")
@blp.alt_response(
    200, schema=RulesSchema, success=True, description="every knob of the preset", example=PRESETS["korean-2p"].asdict()
)
@blp.alt_response(404, response="NOT_FOUND")
def get_preset(preset: str) -> ResponseReturnValue:
    """One preset as a `rules` object: its name and every knob's value."""
    rules = PRESETS.get(preset)
    if rules is None:
        raise Refusal(404, "no-preset", preset=preset)
    return jsonify(echo(rules)["rules"])
