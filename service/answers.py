"""Each endpoint's work, from a validated body to the JSON answer: the one place that calls the engine.

The views call these, and so do the OpenAPI examples (``api/examples.py``), so a documented answer is always
the answer the service gives.
"""

from __future__ import annotations

from typing import Any

from engine import HandResult, Outcome, PlayerHand, replay, resolve, score, settle

from .i18n import Words
from .render import echo, replay_json, score_json, settlement_json


def score_answer(body: dict[str, Any], w: Words) -> dict[str, Any]:
    rules = resolve(body["rules"])
    return {**score_json(w, score(body["cards"], rules, sep_animal_as=body["sep_animal_as"])), **echo(rules)}


def settle_answer(body: dict[str, Any], w: Words) -> dict[str, Any]:
    players = body["players"]
    rules = resolve(body["rules"], players=len(players))
    hand = HandResult(
        players=tuple(
            PlayerHand(p["id"], p["captured"], p["go_count"], p["shakes"], p["bombs"], p["sep_animal_as"])
            for p in players
        ),
        winner=body["winner"],
        outcome=body["outcome"] or (Outcome.STOP if body["winner"] is not None else Outcome.NAGARI),
        nagari_streak=body["nagari_streak"],
        stake=body["stake"],
        last_go=body["last_go"],
    )
    return {**settlement_json(w, settle(hand, rules)), **echo(rules)}


def replay_answer(body: dict[str, Any], w: Words) -> dict[str, Any]:
    players = body["players"]
    rules = resolve(body["rules"], players=len(players))
    streak, stake = body["nagari_streak"], body["stake"]
    result = replay(players, rules, body["deal"], body["moves"], nagari_streak=streak, stake=stake)
    return {**replay_json(w, result, nagari_streak=streak, stake=stake), **echo(rules)}
