"""Request and response examples for the OpenAPI document.

Responses are computed by the engine from the requests at import, so an example can never show a result
the service would not give (and tests post every request example and compare).
"""

from __future__ import annotations

from typing import Any

from engine import HandResult, PlayerHand, parse_cards, replay, resolve, score, settle
from engine.simulate import simulate

from ..schemas import echo, replay_json, score_json, settlement_json

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


def _score(req: dict[str, Any]) -> dict[str, Any]:
    rules = resolve(req["rules"])
    return {**score_json(score(parse_cards(req["cards"]), rules)), **echo(rules)}


def _settle(req: dict[str, Any]) -> dict[str, Any]:
    rules = resolve(req["rules"], players=len(req["players"]))
    players = tuple(
        PlayerHand(
            p["id"], tuple(parse_cards(p["captured"])), p.get("go_count", 0), p.get("shakes", 0), p.get("bombs", 0)
        )
        for p in req["players"]
    )
    result = settle(HandResult(players, req["winner"], stake=req.get("stake", 1)), rules)
    return {**settlement_json(result), **echo(rules)}


SCORE_RESPONSE = _score(SCORE_REQUEST)
SETTLE_RESPONSES = {name: _settle(req) for name, req in SETTLE_REQUESTS.items()}


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

REPLAY_REQUESTS = {"live-hidden-hands": REPLAY_LIVE_REQUEST, "full-deal": simulate("korean-2p", 1)}


def _replay(req: dict[str, Any]) -> dict[str, Any]:
    rules = resolve(req["rules"], players=len(req["players"]))
    return {**replay_json(replay(req["players"], rules, req["deal"], req["moves"]), 1), **echo(rules)}


REPLAY_RESPONSES = {name: _replay(req) for name, req in REPLAY_REQUESTS.items()}
