"""The fast loading of request bodies (service.loading) changes nothing: for every body, valid or not, a Loader
gives what ``schema.load`` gives, the same dict or the same errors."""

from __future__ import annotations

import copy
import json
from typing import Any

import marshmallow as ma
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import PRESETS
from engine.simulate import simulate
from service import replay, score, settlement
from service.loading import Loader
from tests.conftest import GAME_LOGS

SCHEMAS = {"score": score.ScoreRequest(), "settle": settlement.SettleRequest(), "replay": replay.ReplayRequest()}


def _outcome(load: Any, data: Any) -> tuple[str, Any]:
    try:
        return "loaded", load(data)
    except ma.ValidationError as err:
        return "refused", err.messages


def _same(name: str, data: Any) -> None:
    schema = SCHEMAS[name]
    assert _outcome(Loader(schema).load, data) == _outcome(schema.load, data), json.dumps(data)[:300]


def _bodies() -> dict[str, list[Any]]:
    logs = [json.loads(p.read_text(encoding="utf-8"))["request"] for p in GAME_LOGS]
    hands = [simulate(preset, seed).to_dict() for preset in PRESETS for seed in range(3)]
    settles = [
        *settlement.EXAMPLES.values(),
        {"players": [{"id": "A", "captured": ["jan-bright"], "sep_animal_as": None}, {"id": "B"}], "winner": None},
        {"rules": {"preset": "korean-3p", "gobak": "double"}, "players": [{"id": "A"}] * 3, "last_go": "A"},
    ]
    return {
        "score": [score.EXAMPLE, {"cards": [], "sep_animal_as": "junk"}, {"rules": None, "cards": ["x"]}],
        "settle": settles,
        "replay": [*logs, *replay.examples().values(), *hands],
    }


BODIES = _bodies()


@pytest.mark.parametrize("name", list(SCHEMAS))
def test_a_loader_reads_every_known_body_as_marshmallow_does(name):
    for body in BODIES[name]:
        _same(name, body)
    assert Loader(SCHEMAS[name])._check is not None, "the plan covers the gostop request schemas"


# Anything JSON can hold, put where a field was, or added beside the fields.
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 100) | st.floats(allow_nan=False) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=6,
)


def _paths(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path]
    if isinstance(node, dict):
        for key, value in node.items():
            found += _paths(value, (*path, key))
    elif isinstance(node, list):
        for i, value in enumerate(node[:4]):
            found += _paths(value, (*path, i))
    return found


ODD = [True, False, None, 0, 1, -1, 3.0, "", "x", "korean-2p", [], ["jan-bright"], {}, {"x": 1}]


@pytest.mark.parametrize("name", list(SCHEMAS))
def test_a_loader_reads_an_odd_value_anywhere_as_marshmallow_does(name):
    """Every place of a few valid bodies, holding each value of another type in turn (a bool where an int goes,
    a float, null, a list...), and every key removed."""
    for body in BODIES[name][:3]:
        for path in _paths(body)[1:]:
            for value in [*ODD, "missing"]:
                changed = copy.deepcopy(body)
                parent = changed
                for step in path[:-1]:
                    parent = parent[step]
                if value == "missing":
                    if not isinstance(parent, dict):
                        continue
                    del parent[path[-1]]
                else:
                    parent[path[-1]] = value
                _same(name, changed)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from([(n, b) for n, bodies in BODIES.items() for b in bodies[:12]]), st.data())
def test_a_loader_reads_a_broken_body_as_marshmallow_does(case, data):
    name, body = case
    body = copy.deepcopy(body)
    path = data.draw(st.sampled_from(_paths(body)[1:] or [()]))
    how = data.draw(st.sampled_from(["replace", "delete", "add"]))
    if not path:
        body = data.draw(_JSON)
    else:
        *above, last = path
        parent = body
        for step in above:
            parent = parent[step]
        if how == "replace":
            parent[last] = data.draw(_JSON)
        elif how == "delete" and isinstance(parent, dict):
            del parent[last]
        elif isinstance(parent, dict):
            parent[data.draw(st.text(max_size=5))] = data.draw(_JSON)
    _same(name, body)
