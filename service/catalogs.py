"""GET /v1/cards, /v1/rules and /v1/rules/{preset}: the deck (RULES.md 1) and the presets (RULES.md 10), and
the ``rules`` and ``engine_version`` every ruling echoes.

The catalogs never change while the service runs: each answer is made once per language when the app is
built (``blueprint``), with its ETag, and served as it is, cacheable (``Cache-Control``), and answered
304 to a client that already holds it (``If-None-Match``).
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from marshmallow import fields

from engine import CARDS, ENGINE_VERSION, KNOBS, PRESET_SOURCES, PRESETS, RuleSet

from .i18n import DEFAULT_LANGUAGE, LANGUAGES, PARTICLES, native_name, request_words
from .schemas import Named, RulesSchema, Strict
from .sentences import catalogs as words
from .sentences.page import page_words

if TYPE_CHECKING:  # the endpoints need Flask; ``echo`` (every answer, the page's engine too) does not
    from flask.typing import ResponseReturnValue
    from flask_smorest import Blueprint

__all__ = [
    "CardsResponse",
    "Echo",
    "PresetsResponse",
    "WordsResponse",
    "blueprint",
    "cards_json",
    "echo",
    "presets_json",
    "words_json",
]

MAX_AGE = 3600  # seconds a client may keep a catalog without asking again (it changes only with a release)


# a card's name in each language of the service: one field per folder of service/locale
CardNamesOut = Strict.from_dict({lang: fields.String(required=True) for lang in LANGUAGES}, name="CardNamesOut")


class CardOut(Strict):
    id = Named("CardId", required=True)
    month = fields.Integer(required=True, allow_none=True, metadata={"description": "1-12; null: a bonus card"})
    kind = Named("CardKind", open=True, required=True)
    junk_units = fields.Integer(required=True)
    tags = fields.List(fields.String(), required=True)
    names = fields.Nested(CardNamesOut, required=True)


class CardsResponse(Strict):
    cards = fields.List(fields.Nested(CardOut), required=True)


class PresetSourceOut(Strict):
    service = fields.String(required=True, metadata={"description": "the online service and its game"})
    pages = fields.List(
        fields.String(), required=True, metadata={"description": "the service's help pages the rules come from"}
    )
    grade = fields.String(
        required=True,
        metadata={
            "description": "how reliable those pages are: A the operator's current help, B an archived or moved "
            "one (RULES.md 10.4)"
        },
    )
    uncertain = fields.List(
        fields.String(),
        required=True,
        metadata={"description": "the knobs whose value rests on a weaker source, or on none (RULES.md 10.4)"},
    )


class PresetOut(Strict):
    name = Named("PresetName", open=True, required=True)
    description = fields.String(required=True)
    players = fields.Integer(required=True)
    source = fields.Nested(
        PresetSourceOut, metadata={"description": "a platform preset's source (RULES.md 10.4); absent for the others"}
    )


class KnobChoiceOut(Strict):
    value = fields.String(required=True)
    label = fields.String(required=True, metadata={"description": "the choice, in the asked language"})


class KnobOut(Strict):
    name = fields.String(required=True, metadata={"description": "the knob, as a rules object names it"})
    kind = fields.String(
        required=True, metadata={"description": "bool, int, choice (one of choices), set (any of choices), list"}
    )
    label = fields.String(required=True, metadata={"description": "what the knob decides, in the asked language"})
    choices = fields.List(fields.Nested(KnobChoiceOut), metadata={"description": "choice and set knobs"})
    minimum = fields.Integer(metadata={"description": "int knobs"})
    maximum = fields.Integer(metadata={"description": "int knobs"})
    max_items = fields.Integer(metadata={"description": "list knobs: the most values"})


class PresetsResponse(Strict):
    presets = fields.List(fields.Nested(PresetOut), required=True)
    knobs = fields.List(
        fields.Nested(KnobOut),
        required=True,
        metadata={"description": "every house rule a rules object may set, in the order of RULES.md 10"},
    )


class WordsResponse(Strict):
    languages = fields.Dict(
        keys=fields.String(),
        values=fields.String(),
        required=True,
        metadata={"description": "each language's tag -> its own name (the chooser of languages), the default first"},
    )
    lang = fields.String(required=True, metadata={"description": "the language of the words"})
    particles = fields.Dict(
        keys=fields.String(),
        values=fields.List(fields.String()),
        required=True,
        metadata={
            "description": "a word's `{name:spec}` placeholder whose spec is a particle (Korean 은/는...): the spec's "
            "two forms, after a final consonant and after a vowel, for the page to fit after the name it fills in"
        },
    )
    words = fields.Dict(
        keys=fields.String(),
        values=fields.Dict(),
        required=True,
        metadata={"description": "that language's tag -> the page's words in it, keyed as the page asks for them"},
    )


class Echo(Strict):
    """What every answer that depends on the rules carries, so that a ruling can be reproduced."""

    rules = fields.Nested(RulesSchema, required=True)
    engine_version = fields.String(required=True)


@lru_cache(maxsize=256)
def _rules_body(rules: RuleSet) -> dict[str, Any]:
    return rules.asdict()


def echo(rules: RuleSet) -> dict[str, Any]:
    """The ``rules`` and ``engine_version`` every rules-dependent answer carries."""
    return {"rules": _rules_body(rules), "engine_version": ENGINE_VERSION}


def cards_json() -> dict[str, Any]:
    """The deck, each card with its names in every language of the service."""
    return {
        "cards": [
            {
                "id": c.id,
                "month": c.month or None,
                "kind": c.kind.value,
                "junk_units": c.junk_units,
                "tags": list(c.tags),
                "names": words.card_names(LANGUAGES, c.id),
            }
            for c in CARDS
        ]
    }


def _preset_json(w: Any, name: str, rules: RuleSet) -> dict[str, Any]:
    out: dict[str, Any] = {"name": name, "description": words.preset_description(w, name), "players": rules.players}
    source = PRESET_SOURCES.get(name)
    if source is not None:
        out["source"] = {
            "service": source.service,
            "pages": list(source.pages),
            "grade": source.grade,
            "uncertain": list(source.uncertain),
        }
    return out


def presets_json(lang: str) -> dict[str, Any]:
    """The presets, and every knob a rules object may set on top of one, with its words in the asked language."""
    w = LANGUAGES[lang]
    knobs = []
    for name, knob in KNOBS.items():
        out: dict[str, Any] = {
            "name": name,
            "kind": knob.kind,
            "label": words.knob_label(w, name),
        }
        if knob.choices:
            out["choices"] = [{"value": value, "label": words.choice_label(w, name, value)} for value in knob.choices]
        for bound in ("minimum", "maximum", "max_items"):
            if getattr(knob, bound) is not None:
                out[bound] = getattr(knob, bound)
        knobs.append(out)
    return {
        "presets": [_preset_json(w, name, rules) for name, rules in PRESETS.items()],
        "knobs": knobs,
    }


NATIVE_NAMES = {lang: native_name(lang) for lang in LANGUAGES}


def words_json(lang: str) -> dict[str, Any]:
    """The page's words in one language, and every language's own name (for the chooser)."""
    return {
        "languages": dict(NATIVE_NAMES),
        "lang": lang,
        "particles": {form: list(pair) for form, pair in PARTICLES.items()},
        "words": {lang: page_words(LANGUAGES[lang])},
    }


class _Made:
    """An answer made once: its bytes and their ETag."""

    __slots__ = ("body", "etag")

    def __init__(self, body: Any) -> None:
        import orjson

        self.body = orjson.dumps(body)
        self.etag = hashlib.sha256(self.body).hexdigest()[:32]


def _cacheable(made: _Made) -> ResponseReturnValue:
    from flask import Response, request

    response = Response(made.body, mimetype="application/json")
    response.set_etag(made.etag)
    response.cache_control.public = True
    response.cache_control.max_age = MAX_AGE
    return response.make_conditional(request)


def blueprint() -> Blueprint:
    """The catalogs' endpoints, with every answer made now."""
    from flask import request
    from flask_smorest import Blueprint

    from .problems import Refusal

    cards = cards_json()
    presets = {lang: presets_json(lang) for lang in LANGUAGES}
    cards_made = _Made(cards)
    presets_made = {lang: _Made(body) for lang, body in presets.items()}
    preset_made = {name: _Made(rules.asdict()) for name, rules in PRESETS.items()}
    page = {lang: words_json(lang) for lang in LANGUAGES}
    words_made = {lang: _Made(body) for lang, body in page.items()}
    blp = Blueprint("catalogs", __name__, url_prefix="/v1", description="The deck and the rule presets")
    cached = {"description": "the catalog changes only with a release", "schema": {"type": "string"}}
    validators = {
        "ETag": cached,
        "Cache-Control": {"description": f"public, max-age={MAX_AGE}", "schema": {"type": "string"}},
    }

    @blp.route("/cards", methods=["GET"])
    @blp.doc(operationId="listCards")
    @blp.alt_response(
        200,
        schema=CardsResponse,
        success=True,
        description="every card in catalog order",
        example={"cards": cards["cards"][:2]},
        headers=validators,
    )
    @blp.alt_response(304, description="the client's copy (If-None-Match) is current", success=True)
    def list_cards() -> ResponseReturnValue:
        """The 48 month cards and 3 bonus cards, in catalog order (RULES.md 1), with their names in every language.

        `junk_units` is the card's printed value: 2 for the double junk even where a rule set turns
        `double_junk` off. The cup (`sep-animal`) is an animal with the tag `cup`.
        """
        return _cacheable(cards_made)

    @blp.route("/words", methods=["GET"])
    @blp.doc(operationId="listWords")
    @blp.alt_response(
        200,
        schema=WordsResponse,
        success=True,
        description="the page's words in the asked language, and the name of every language",
        example={
            **page[DEFAULT_LANGUAGE],
            "words": {
                DEFAULT_LANGUAGE: {k: page[DEFAULT_LANGUAGE]["words"][DEFAULT_LANGUAGE][k] for k in ("title", "nav")}
            },
        },
        headers=validators,
    )
    @blp.alt_response(304, description="the client's copy (If-None-Match) is current", success=True)
    def list_words() -> ResponseReturnValue:
        """The table page's words (its labels, buttons and hints) in one language, from the same catalogs as the
        answers' sentences, and every language's own name for a chooser of languages: `?lang=` if it names a
        language of the service, else the one Accept-Language asks for. A word's `{name}` placeholders are left
        for the page to fill."""
        lang = request.args.get("lang", "")
        return _cacheable(words_made.get(lang) or words_made[request_words().lang])

    @blp.route("/rules", methods=["GET"])
    @blp.doc(operationId="listPresets")
    @blp.alt_response(
        200,
        schema=PresetsResponse,
        success=True,
        description="the presets",
        example={
            **presets[DEFAULT_LANGUAGE],
            "knobs": [
                k
                for k in presets[DEFAULT_LANGUAGE]["knobs"]
                if k["name"] in ("four_brights_points", "gwang_palgi", "two_card_bomb")
            ],
        },
        headers=validators,
    )
    @blp.alt_response(304, description="the client's copy (If-None-Match) is current", success=True)
    def list_presets() -> ResponseReturnValue:
        """The named presets, the rules each plays, and how many players it is for; and every knob (house rule) a
        `rules` object may set on top of a preset, with its bounds or choices and their words in the asked
        language, for a rules panel to offer (RULES.md 10)."""
        return _cacheable(presets_made[request_words().lang])

    @blp.route("/rules/<string:preset>", methods=["GET"])
    @blp.doc(operationId="getPreset")
    @blp.alt_response(
        200,
        schema=RulesSchema,
        success=True,
        description="every knob of the preset",
        example=PRESETS["korean-2p"].asdict(),
        headers=validators,
    )
    @blp.alt_response(304, description="the client's copy (If-None-Match) is current", success=True)
    @blp.alt_response(404, response="NOT_FOUND")
    def get_preset(preset: str) -> ResponseReturnValue:
        """One preset as a `rules` object: its name and every knob's value."""
        made = preset_made.get(preset)
        if made is None:
            raise Refusal(404, "no-preset", preset=preset)
        return _cacheable(made)

    return blp
