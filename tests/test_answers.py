"""The answers stay what they are: every answer of a fixed set of requests, byte for byte (as a digest), in both
languages, so that rebuilding the engine, the renderers or the words cannot change a ruling or a sentence
unnoticed.

The requests: every game log of tests/data, whole and cut after every other move; the documented examples;
simulated hands of every preset, cut every few moves; settle and score requests made of those hands' piles
(stakes, streaks, overrides, every outcome); and a refusal of each kind. ``engine_version`` is left out of
the comparison (a release changes it). The digests are in tests/fixtures/answers.json, one per group of
requests (a log, a hand, the refusals...).

A change that is meant (a reworded sentence, a new log) is recorded with

    GOSTOP_UPDATE_ANSWERS=1 .venv/bin/pytest tests/test_answers.py

and the changed groups show in the diff of tests/fixtures/answers.json.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.conftest import GAME_LOGS, ROOT

FIXTURE = ROOT / "tests" / "fixtures" / "answers.json"
LOGS = GAME_LOGS
VERSION = re.compile(rb'"engine_version":"[^"]*"')

Request = tuple[str, str, Any]  # method, path, JSON body (None for a GET)


def _groups() -> Iterator[tuple[str, list[Request]]]:
    from engine import PRESETS
    from engine.simulate import simulate
    from service import evening, replay, score, settlement

    for path in LOGS:
        body = json.loads(path.read_text(encoding="utf-8"))["request"]
        moves = body.get("moves") if isinstance(body.get("moves"), list) else []
        cuts = [{**body, "moves": moves[:n]} for n in range(0, len(moves), 2)]
        yield f"log {path.stem}", [("POST", "/v1/replay", b) for b in (body, *cuts)]
    yield (
        "examples",
        [
            ("POST", "/v1/score", score.EXAMPLE),
            *(("POST", "/v1/settle", b) for b in settlement.EXAMPLES.values()),
            *(("POST", "/v1/replay", b) for b in replay.examples().values()),
        ],
    )
    for preset in PRESETS:
        for seed in range(6):
            yield f"hand {preset} {seed}", list(_hand(simulate(preset, seed).to_dict()))
    yield "evening", [("POST", "/v1/evening", b) for b in (*evening.EXAMPLES.values(), *EVENING_REFUSALS)]
    yield "catalogs", [("GET", p, None) for p in ("/v1/cards", "/v1/rules", *(f"/v1/rules/{n}" for n in PRESETS))]
    yield "refusals", [("POST", path, body) for path, body in REFUSALS] + [("GET", "/v1/rules/korean-9p", None)]


def _hand(body: dict[str, Any]) -> Iterator[Request]:
    from service import create_app

    yield ("POST", "/v1/replay", body)
    yield from (("POST", "/v1/replay", {**body, "moves": body["moves"][:n]}) for n in range(0, len(body["moves"]), 3))
    answer = create_app({"TESTING": True, "ACCESS_LOG_STREAM": None}).test_client().post("/v1/replay", json=body)
    finished = answer.get_json()
    keys = ("id", "captured", "go_count", "shakes", "bombs")
    players = [{k: p[k] for k in keys} for p in finished["players"]]
    rules, winner = body["rules"], finished["settlement"]["winner"]
    for p in players:
        yield ("POST", "/v1/score", {"rules": rules, "cards": p["captured"]})
        yield ("POST", "/v1/score", {"rules": rules, "cards": p["captured"], "sep_animal_as": "animal"})
    yield from (("POST", "/v1/settle", b) for b in settles(rules, players, winner))


def settles(rules: Any, players: list[dict[str, Any]], winner: str | None) -> Iterator[dict[str, Any]]:
    """The /v1/settle requests made of a finished hand's piles: stakes, streaks, overrides, every outcome (also
    settled from the counts the piles make, tests/test_settle_table.py)."""
    for streak, stake in ((0, 1), (1, 100), (3, 7)):
        yield {"rules": rules, "players": players, "winner": winner, "nagari_streak": streak, "stake": stake}
    yield {"rules": rules, "players": players, "winner": None}
    overrides = {"preset": rules, "nagari_cap": 4, "gobak": "pays-all-double", "pibak_max_loser_junk": 9}
    yield {"rules": overrides, "players": players, "winner": winner, "nagari_streak": 3}
    for p in players:
        for outcome in ("chongtong", "three-ppuk", "heodang", "stop"):
            yield {"rules": rules, "players": players, "winner": p["id"], "outcome": outcome}


REFUSALS: list[tuple[str, Any]] = [
    ("/v1/score", {"rules": "korean-9p", "cards": []}),
    ("/v1/score", {"rules": {"preset": "korean-2p", "nope": 1}, "cards": []}),
    ("/v1/score", {"rules": {"preset": "korean-2p", "gobak": "triple"}, "cards": []}),
    ("/v1/score", {"rules": {"preset": "korean-2p", "target_score": 99}, "cards": []}),
    ("/v1/score", {"rules": ["x"], "cards": []}),
    ("/v1/score", {"cards": ["jan-brite"]}),
    ("/v1/score", {"cards": ["jan-bright", "jan-bright"]}),
    ("/v1/score", {"rules": "chips-2p", "cards": ["bonus-3"]}),
    ("/v1/score", {"rules": "chips-2p", "cards": ["sep-animal"], "sep_animal_as": "junk"}),
    ("/v1/settle", {"players": [{"id": "A"}, {"id": "A"}], "winner": "A"}),
    ("/v1/settle", {"rules": "korean-3p", "players": [{"id": "A"}, {"id": "B"}], "winner": "A"}),
    ("/v1/settle", {"players": [{"id": "A"}, {"id": "B"}], "winner": "C"}),
    ("/v1/settle", {"players": [{"id": "A"}, {"id": "B"}], "winner": "A"}),
    ("/v1/settle", {"players": [{"id": "A"}, {"id": "B"}], "winner": "A", "outcome": "nagari"}),
    (
        "/v1/settle",
        {"players": [{"id": "A", "captured": ["jan-bright"]}, {"id": "B", "captured": ["jan-bright"]}], "winner": None},
    ),
    ("/v1/settle", {"players": [{"id": "A"}, {"id": "B"}]}),  # API.md v1.3: a missing winner is no nagari
    (  # API.md v1.3: past what a JavaScript number holds exactly
        "/v1/settle",
        {
            "players": [
                {"id": "A", "go_count": 14, "declared": {"points": 21, "brights": 5, "animals": 3, "junk_units": 10}},
                {"id": "B", "declared": {"ribbons": 1, "junk_units": 6}},
            ],
            "winner": "A",
            "nagari_streak": 20,
            "stake": 10**9,
        },
    ),
    ("/v1/settle", {"players": [{"id": "", "go_count": 99, "shakes": "2"}], "stake": -1, "rules": 7, "extra": 1}),
    ("/v1/replay", {"players": ["A", "B"], "deal": {"layout": []}}),
    ("/v1/replay", {"players": ["A"], "deal": {"layout": "x"}, "moves": [1, 2]}),
]


_EIGHT = ["jan-bright", "mar-bright", "aug-bright", "feb-animal", "apr-animal", "aug-animal"]
_PAIR = {"winner": "A", "players": [{"id": "A", "captured": _EIGHT}, {"id": "B", "captured": ["nov-bright"]}]}
EVENING_REFUSALS: list[Any] = [
    {"people": ["A", "B"], "balances": {"A": 1, "B": -1}},
    {"people": ["A", "B"], "dealer_draw": {"time": "night", "rounds": [{"A": "jan-junk-1", "B": "jan-junk-2"}]}},
    {"people": ["A", "B"], "hands": [{"settle": _PAIR}, {"settle": {**_PAIR, "nagari_streak": 1}}]},
    {"people": ["A", "B"], "hands": [{"settle": _PAIR, "push": True}]},
    {"people": ["A", "B"], "hands": [{"settle": {**_PAIR, "players": [{"id": "A"}, {"id": "Z"}]}}]},
    {"people": ["A", "B"], "hands": [{"settle": {"players": [{"id": "A"}, {"id": "B"}], "winner": None}}] * 22},
]


def _digest(client, requests: list[Request]) -> str:
    digest = hashlib.sha256()
    for lang in ("en", "ko"):
        for method, path, body in requests:
            headers = {"Accept-Language": lang}
            resp = (
                client.post(path, json=body, headers=headers) if method == "POST" else client.get(path, headers=headers)
            )
            digest.update(f"{method} {path} {resp.status_code} {resp.mimetype}\n".encode())
            digest.update(VERSION.sub(b"", resp.get_data()) + b"\n")
    return digest.hexdigest()


@pytest.fixture(scope="module")
def digests(app) -> dict[str, str]:
    client = app.test_client()
    return {name: _digest(client, requests) for name, requests in _groups()}


def test_every_answer_is_what_it_was(digests):
    if os.environ.get("GOSTOP_UPDATE_ANSWERS") == "1":
        FIXTURE.write_text(json.dumps(digests, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    recorded = json.loads(FIXTURE.read_text(encoding="utf-8"))
    changed = sorted(name for name in digests if recorded.get(name) != digests[name])
    gone = sorted(set(recorded) - set(digests))
    assert changed == [] and gone == [], f"answers changed: {changed}, groups gone: {gone} (see the docstring)"
