"""The answer functions, one per endpoint, for any caller (the views, the documented examples, a command line):
a validated body and the Words of a language in, the JSON answer out, exactly as the HTTP answer's body.

    from service.answers import LANGUAGES, ScoreRequest, score_answer

    body = ScoreRequest().load({"cards": ["jan-bright", "mar-bright", "aug-bright"]})  # marshmallow
    answer = score_answer(body, LANGUAGES["ko"])

A body that does not validate raises ``marshmallow.ValidationError``; one the rules refuse raises the engine's
``GoStopError`` (``service.problems.rule_problem`` makes its problem details). Each function lives in its
family's module, beside its schemas and its endpoint; this module only gathers them.

``answer(path, body, lang)`` is a whole POST of a ruling, checks and refusals included, without HTTP or
Flask: the status and the body the service answers. The page's engine calls it under Pyodide
(docs/page-engine.md); tests/test_page.py finds its answers identical to the service's.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import marshmallow as ma

from engine import PRESETS, GoStopError, read_log
from engine.notation import decode_log

from .catalogs import cards_json, presets_json
from .details import http_problem, rule_problem, validation_problem
from .evening import EveningRequest, evening_answer
from .i18n import DEFAULT_LANGUAGE, LANGUAGES, Words, words_for
from .loading import Loader, unknown_card_ids
from .replay import ReplayRequest, replay_answer
from .score import ScoreRequest, score_answer
from .settlement import SettleRequest, settle_answer

__all__ = [
    "LANGUAGES",
    "RULINGS",
    "EveningRequest",
    "ReplayRequest",
    "ScoreRequest",
    "SettleRequest",
    "Words",
    "answer",
    "answer_json",
    "catalog_json",
    "evening_answer",
    "replay_answer",
    "score_answer",
    "settle_answer",
    "words_for",
]

Answer = Callable[..., dict[str, Any]]

# The rulings a client may ask without HTTP: path -> (its request schema, its answer function).
RULINGS: dict[str, tuple[type[ma.Schema], Answer]] = {
    "/v1/score": (ScoreRequest, score_answer),
    "/v1/settle": (SettleRequest, settle_answer),
    "/v1/replay": (ReplayRequest, replay_answer),
    "/v1/evening": (EveningRequest, evening_answer),
}
_loaders: dict[str, Loader] = {}


def _words(lang: str | None) -> Words:
    """The Words of a language tag (``ko``, ``ko-KR``); English when there is none of it."""
    primary = (lang or "").split("-")[0].lower()
    return LANGUAGES.get(primary, LANGUAGES[DEFAULT_LANGUAGE])


def answer(path: str, body: Any, lang: str | None = None) -> tuple[int, dict[str, Any]]:
    """(status, body) of ``POST path`` with the JSON ``body``, as the service answers it in ``lang``. A ``str``
    body of /v1/replay is a log in the text notation, as the service reads a ``text/plain`` body."""
    w = _words(lang)
    ruling = RULINGS.get(path)
    if ruling is None:
        return 404, {**http_problem(w, "not-found"), "status": 404}
    schema, make = ruling
    loader = _loaders.get(path)
    if loader is None:
        loader = _loaders[path] = Loader(schema())
    try:
        written = None
        if path == "/v1/replay" and isinstance(body, str):
            written = read_log(decode_log(body.encode()))  # NotationError: the line and column
            body = written.body
        try:
            data = loader.load(body)
        except ma.ValidationError as err:
            problem = validation_problem(w, err.messages, unknown_card_ids(body))
            return 422, {"status": 422, **problem}
        said = make(data, w, written) if written is not None else make(data, w)
    except GoStopError as err:
        problem = rule_problem(w, err)
        return problem["status"], {"status": problem.pop("status"), **problem}
    except Exception:  # as the service: never more than a bare 500
        return 500, {"status": 500, **http_problem(w, "internal-error")}
    return 200, said


def answer_json(path: str, body: str, lang: str | None = None) -> str:
    """``answer`` from and to JSON text: what the page's engine passes between JavaScript and Python."""
    try:
        data = json.loads(body)
    except ValueError:
        w = _words(lang)
        return json.dumps([400, {"status": 400, **http_problem(w, "malformed-json")}], ensure_ascii=False)
    return json.dumps(answer(path, data, lang), ensure_ascii=False)


def catalog(path: str, lang: str | None = None) -> tuple[int, dict[str, Any]]:
    """(status, body) of ``GET path`` of a catalog (/v1/cards, /v1/rules, /v1/rules/{preset}), as the service
    answers it: what the page asks before its first ruling, made by the page's engine where there is no service
    (a page written by ``gostop page``)."""
    w = _words(lang)
    if path == "/v1/cards":
        return 200, cards_json()
    if path == "/v1/rules":
        return 200, presets_json(w.lang)
    name = path.removeprefix("/v1/rules/")
    if name != path and name in PRESETS:
        return 200, PRESETS[name].asdict()
    why = {"why": "no-preset", "preset": name} if name != path else {}
    return 404, {"status": 404, **http_problem(w, "not-found", **why)}


def catalog_json(path: str, lang: str | None = None) -> str:
    """``catalog`` as JSON text, for the page's engine."""
    return json.dumps(catalog(path, lang), ensure_ascii=False)
