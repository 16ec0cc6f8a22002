"""GET /v1/rules and /v1/rules/{preset}: the named presets of RULES.md 10."""

from __future__ import annotations

from flask import abort, jsonify
from flask.typing import ResponseReturnValue
from flask_smorest import Blueprint

from engine import PRESETS

from ..schemas import PresetsResponse, RulesSchema, echo

blp = Blueprint("rules", __name__, url_prefix="/v1", description="Rule presets and their knobs")

_LIST = {"presets": [{"name": r.preset, "description": r.description, "players": r.players} for r in PRESETS.values()]}


@blp.route("/rules", methods=["GET"])
@blp.alt_response(200, schema=PresetsResponse, success=True, description="the presets", example=_LIST)
def list_presets() -> ResponseReturnValue:
    """The named presets, what each follows, and how many players it is for."""
    return jsonify(_LIST)


@blp.route("/rules/<string:preset>", methods=["GET"])
@blp.alt_response(
    200, schema=RulesSchema, success=True, description="every knob of the preset", example=PRESETS["korean-2p"].asdict()
)
@blp.alt_response(404, description="no preset of that name")
def get_preset(preset: str) -> ResponseReturnValue:
    """One preset as a `rules` object: its name and every knob's value."""
    rules = PRESETS.get(preset)
    if rules is None:
        abort(404, f"no preset named {preset!r}; presets are {', '.join(PRESETS)}")
    return jsonify(echo(rules)["rules"])
