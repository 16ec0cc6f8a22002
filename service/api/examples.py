"""Request and response examples for the OpenAPI document.

Responses are computed from the requests at import, by the same functions the views call, so an example
can never show a result the service would not give (and tests post every request example and compare).
"""

from __future__ import annotations

from typing import Any

from engine.simulate import simulate

from ..answers import replay_answer, score_answer, settle_answer
from ..i18n import LANGUAGES
from ..schemas import ReplayRequest, ScoreRequest, SettleRequest

ENGLISH = LANGUAGES["en"]

SCORE_REQUEST: dict[str, Any] = {
    "rules": "korean-2p",
    "cards": ["jan-bright", "mar-bright", "aug-bright", "feb-animal", "apr-animal", "aug-animal"],
}

SETTLE_REQUEST: dict[str, Any] = {
    "rules": "korean-2p",
    "players": [
        {
            "id": "A",
            "captured": [
                "jan-bright",
                "mar-bright",
                "aug-bright",
                "feb-animal",
                "apr-animal",
                "aug-animal",
                "jan-junk-1",
                "feb-junk-1",
            ],
            "go_count": 1,
        },
        {"id": "B", "captured": ["may-junk-1", "may-junk-2", "jun-junk-1", "oct-ribbon"], "go_count": 0},
    ],
    "winner": "A",
    "nagari_streak": 0,
    "stake": 100,
}

SETTLE_3P_REQUEST: dict[str, Any] = {
    "rules": {"preset": "korean-3p", "pibak_max_loser_junk": 6},
    "players": [
        {"id": "A", "captured": ["jan-ribbon", "feb-ribbon", "mar-ribbon", "jul-animal"], "shakes": 1},
        {"id": "B", "captured": ["nov-junk-1", "dec-animal"], "go_count": 1},
        {"id": "C", "captured": []},
    ],
    "winner": "A",
}

SETTLE_REQUESTS = {"stop": SETTLE_REQUEST, "three-players-overrides": SETTLE_3P_REQUEST}


SCORE_RESPONSE = score_answer(ScoreRequest().load(SCORE_REQUEST), ENGLISH)
SETTLE_RESPONSES = {name: settle_answer(SettleRequest().load(req), ENGLISH) for name, req in SETTLE_REQUESTS.items()}


# A physical game logged card by card: hands and stock hidden, every turn says its draw.
REPLAY_LIVE_REQUEST: dict[str, Any] = {
    "rules": "korean-2p",
    "players": ["A", "B"],
    "deal": {
        "layout": [
            "jan-bright",
            "feb-junk-1",
            "mar-ribbon",
            "apr-junk-1",
            "may-animal",
            "jun-junk-1",
            "aug-junk-2",
            "oct-ribbon",
        ]
    },
    "moves": [
        {"player": "A", "play": "jan-junk-1", "draw": "dec-double"},
        {"player": "B", "play": "mar-bright", "draw": "mar-junk-1"},
        {"player": "A", "play": "feb-animal", "draw": "oct-junk-1"},
        {"player": "B", "play": "dec-bright", "draw": "mar-junk-2"},
    ],
}

# A physical game in which B was dealt all four November cards and shows them: chongtong, at the deal.
REPLAY_CHONGTONG_REQUEST: dict[str, Any] = {
    **REPLAY_LIVE_REQUEST,
    "deal": {**REPLAY_LIVE_REQUEST["deal"], "shown": {"B": ["nov-bright", "nov-double", "nov-junk-1", "nov-junk-2"]}},
    "moves": [],
}

REPLAY_REQUESTS = {
    "live-hidden-hands": REPLAY_LIVE_REQUEST,
    "full-deal": simulate("korean-2p", 1),
    "chongtong-shown-at-a-hidden-deal": REPLAY_CHONGTONG_REQUEST,
}


REPLAY_RESPONSES = {name: replay_answer(ReplayRequest().load(req), ENGLISH) for name, req in REPLAY_REQUESTS.items()}
