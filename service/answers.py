"""The answer functions, one per endpoint, for any caller (the views, the documented examples, a command line):
a validated body and the Words of a language in, the JSON answer out, exactly as the HTTP answer's body.

    from service.answers import LANGUAGES, ScoreRequest, score_answer

    body = ScoreRequest().load({"cards": ["jan-bright", "mar-bright", "aug-bright"]})  # marshmallow
    answer = score_answer(body, LANGUAGES["ko"])

A body that does not validate raises ``marshmallow.ValidationError``; one the rules refuse raises the engine's
``GoStopError`` (``service.problems.rule_problem`` makes its problem details). Each function lives in its
family's module, beside its schemas and its endpoint; this module only gathers them.
"""

from __future__ import annotations

from .evening import EveningRequest, evening_answer
from .i18n import LANGUAGES, Words, words_for
from .replay import ReplayRequest, replay_answer
from .score import ScoreRequest, score_answer
from .settlement import SettleRequest, settle_answer

__all__ = [
    "LANGUAGES",
    "EveningRequest",
    "ReplayRequest",
    "ScoreRequest",
    "SettleRequest",
    "Words",
    "evening_answer",
    "replay_answer",
    "score_answer",
    "settle_answer",
    "words_for",
]
