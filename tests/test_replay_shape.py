"""One check of a replay body's shape: POST /v1/replay checks a body with the engine's ``shape_errors`` alone, and
has its schema (``ReplayRequest``) load only a body that check refuses, to word the refusal. That is the answer
of before (the schema first, then the engine's reader) only if the two refuse the same JSON bodies, and if a body
both pass reads to the same log whether the schema loaded it or not. Both are checked here, on sound bodies with
one field rewritten, dropped or added (docs/speed.md, issue 25).
"""

from __future__ import annotations

import copy
import json
from typing import Any

import marshmallow as ma
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import CARDS, GoStopError, Log
from engine.log import shape_errors
from engine.simulate import simulate
from service.replay import LIVE_EXAMPLE, ReplayRequest

SCHEMA = ReplayRequest()
SITTER = {"player": "D", "seat": 4, "hand": ["nov-bright", "nov-double"]}
BODIES = [
    LIVE_EXAMPLE,
    {**LIVE_EXAMPLE, "deal": {**LIVE_EXAMPLE["deal"], "sit_out": SITTER}, "nagari_streak": 2, "stake": 50},
    simulate("korean-2p", 3).to_dict(),
    simulate("korean-3p", 8).to_dict(),
]

# Where a body is rewritten: a path of keys and list indexes (the moves' first and last, the deal's lists).
PATHS = [
    (),
    ("rules",),
    ("players",),
    ("players", 0),
    ("deal",),
    ("deal", "layout"),
    ("deal", "layout", 0),
    ("deal", "hands"),
    ("deal", "hands", "A"),
    ("deal", "hands", "A", 0),
    ("deal", "stock"),
    ("deal", "stock", 0),
    ("deal", "shown"),
    ("deal", "shown", "B"),
    ("deal", "sit_out"),
    ("deal", "sit_out", "player"),
    ("deal", "sit_out", "seat"),
    ("deal", "sit_out", "hand"),
    ("moves",),
    ("moves", 0),
    ("moves", 0, "play"),
    ("moves", -1),
    ("nagari_streak",),
    ("stake",),
]

SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 25),
    st.sampled_from([0.0, 2.0, 2.5, 1e9, 1e10, -1.0, 10**9, 10**9 + 1]),
    st.sampled_from(["", "A", "B" * 65, "korean-2p", "nope", *(c.id for c in CARDS[:6])]),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.sampled_from(["player", "play", "x", "A", "seat"]), inner)
    ),
    max_leaves=6,
)


def rewritten(body: dict[str, Any], path: tuple[Any, ...], how: str, value: Any) -> Any:
    """The body with the value at ``path`` replaced (``set``), removed (``drop``), or beside a new key (``add``)."""
    body = copy.deepcopy(body)
    if not path:
        return value if how == "set" else {**body, "colour": value}
    parent: Any = body
    for key in path[:-1]:
        try:
            parent = parent[key]
        except (KeyError, IndexError, TypeError):
            return body
    last = path[-1]
    if isinstance(parent, list):
        if not parent:
            return body
        last = last % len(parent)
        if how == "drop":
            del parent[last]
        else:
            parent[last] = value
    elif isinstance(parent, dict):
        if how == "drop":
            parent.pop(last, None)
        elif how == "add" and isinstance(parent.get(last), dict):
            parent[last]["colour"] = value
        else:
            parent[last] = value
    return body


def schema_refuses(body: Any) -> bool:
    try:
        SCHEMA.load(body)
    except ma.ValidationError:
        return True
    return False


def reading(body: Any, *, checked: bool) -> object:
    """The Log a body reads to, or the engine's refusal (its class, code and facts)."""
    try:
        return Log.from_dict(body, checked=checked)
    except GoStopError as err:
        return (type(err).__name__, err.code, err.why, sorted(map(str, err.params.items())))


@pytest.mark.parametrize("body", BODIES, ids=["live", "sitter", "korean-2p", "korean-3p"])
def test_a_sound_body_passes_both_checks_and_reads_alike_loaded_or_not(body):
    body = json.loads(json.dumps(body))
    assert shape_errors(body) == {} and not schema_refuses(body)
    assert reading(body, checked=False) == reading(SCHEMA.load(body), checked=True)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(BODIES),
    st.sampled_from(PATHS),
    st.sampled_from(["set", "set", "drop", "add"]),
    VALUES,
)
def test_the_engine_and_the_schema_refuse_the_same_bodies(body, path, how, value):
    """Any body the schema refuses, the engine's check refuses (so no refusal of the schema is lost), and the
    other way (so the schema words every refusal); a body both pass reads to the same log, or the same refusal,
    whether the schema loaded it (its defaults added, 2.0 read as 2) or not."""
    body = json.loads(json.dumps(rewritten(body, path, how, value)))
    assert (shape_errors(body) != {}) == schema_refuses(body), (shape_errors(body), body)
    if not schema_refuses(body):
        assert reading(body, checked=False) == reading(SCHEMA.load(body), checked=True)


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (("deal", "sit_out", "seat"), 4.0),
        (("deal", "sit_out", "seat"), 4.5),
        (("deal", "sit_out", "seat"), True),
        (("stake",), 50.0),
        (("nagari_streak",), 2.0),
        (("nagari_streak",), 21.0),
        (("deal", "sit_out", "hand"), None),
        (("deal", "hands"), {"A": None}),
        (("moves",), None),
        (("rules",), None),
    ],
)
def test_the_two_checks_agree_on_whole_numbers_written_as_floats_and_on_nulls(path, value):
    """The rewrites a random draw seldom makes: a seat, a stake or a streak written 4.0 reads as 4 either way."""
    body = json.loads(json.dumps(rewritten(BODIES[1], path, "set", value)))
    assert (shape_errors(body) != {}) == schema_refuses(body)
    if not schema_refuses(body):
        assert reading(body, checked=False) == reading(SCHEMA.load(body), checked=True)
