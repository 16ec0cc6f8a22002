"""openapi.yaml is fit for client generators: openapi-python-client (from PyPI) generates a client from the
committed document with no warning and one class per named type, and that client calls the live app for every
operation and reads the answers back into its typed models (a replay's cards go into a settle request as they
are)."""

from __future__ import annotations

import importlib
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from werkzeug.serving import make_server

from service import create_app, evening, replay, score, settlement
from tests.conftest import ROOT

pytestmark = pytest.mark.xdist_group("client")


@pytest.fixture(scope="module")
def client_package(tmp_path_factory) -> Iterator[object]:
    out = tmp_path_factory.mktemp("generated") / "gostop_client"
    generator = shutil.which("openapi-python-client", path=str(Path(sys.executable).parent))
    assert generator, "openapi-python-client is a dev dependency (pyproject.toml)"
    config = out.parent / "config.yaml"
    # the generator reads the YAML document as text, sends a text log (text/plain, which it does not know) as
    # bytes, and runs no formatter on what it writes
    config.write_text(
        "content_type_overrides:\n  application/yaml: text/plain\n  text/plain: application/octet-stream\n"
        "post_hooks: []\n"
    )
    done = subprocess.run(
        [
            generator,
            "generate",
            "--path",
            str(ROOT / "openapi.yaml"),
            "--meta",
            "none",
            "--config",
            str(config),
            "--fail-on-warning",
            "--output-path",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    sys.path.insert(0, str(out.parent))
    try:
        yield importlib.import_module("gostop_client")
    finally:
        sys.path.remove(str(out.parent))
        for name in [m for m in sys.modules if m == "gostop_client" or m.startswith("gostop_client.")]:
            del sys.modules[name]


@pytest.fixture(scope="module")
def live(client_package) -> Iterator[object]:
    server = make_server("127.0.0.1", 0, create_app({"ACCESS_LOG_STREAM": None}), threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    client = client_package.Client(base_url=f"http://127.0.0.1:{server.server_port}", raise_on_unexpected_status=True)
    try:
        yield client
    finally:
        server.shutdown()


def _op(package, group: str, name: str):
    return importlib.import_module(f"gostop_client.api.{group}.{name}")


def _model(package, name: str):
    return getattr(importlib.import_module("gostop_client.models"), name)


def test_every_operation_has_a_named_function(client_package):
    api = Path(client_package.__file__).parent / "api"
    names = {p.stem for p in api.glob("*/*.py") if p.stem != "__init__"}
    assert names == {
        "list_cards",
        "list_words",
        "list_presets",
        "get_preset",
        "score_cards",
        "settle_hand",
        "replay_log",
        "keep_evening",
        "get_health",
        "get_openapi_document",
        "get_openapi_json",
        "get_docs_page",
    }


def test_each_named_type_is_one_class(client_package):
    """One enum class per named set (card ids, presets, knob choices, event types...): no two classes hold the
    same values, as the 12 inline card-id enums of the OpenAPI 3.0 document once made 12 classes."""
    import enum

    models = importlib.import_module("gostop_client.models")
    enums = {name: cls for name, cls in vars(models).items() if isinstance(cls, type) and issubclass(cls, enum.Enum)}
    values: dict[tuple[str, ...], str] = {}
    for name, cls in enums.items():
        key = tuple(sorted(str(member.value) for member in cls))
        assert key not in values, f"{name} and {values.get(key)} hold the same values"
        values[key] = name
    assert {"CardId", "PresetName", "EventType", "Outcome", "ProblemCode", "GobakChoice"} <= set(enums)


def test_the_generated_client_calls_every_operation(client_package, live):
    p = client_package
    cards = _op(p, "catalogs", "list_cards").sync(client=live)
    assert len(cards.cards) == 51 and cards.cards[0].names.ko and cards.cards[0].id == _model(p, "CardId")("jan-bright")
    presets = _op(p, "catalogs", "list_presets").sync(client=live)
    assert {x.name for x in presets.presets} >= {_model(p, "PresetName")("korean-2p")}
    preset = _op(p, "catalogs", "get_preset").sync("korean-2p", client=live)
    assert preset.gobak == _model(p, "GobakChoice")("double") and preset.bomb_flip_timing == "any"

    scored = _op(p, "score", "score_cards").sync(client=live, body=_model(p, "ScoreRequest").from_dict(score.EXAMPLE))
    assert scored.total == 8 and scored.explanation
    settled = _op(p, "settlement", "settle_hand").sync(
        client=live, body=_model(p, "SettleRequest").from_dict(settlement.EXAMPLES["stop"])
    )
    assert settled.winner == "A" and {c.rule for c in settled.payments[0].checks} >= {"pibak", "gwangbak"}

    live_game = _op(p, "replay", "replay_log").sync(
        client=live, body=_model(p, "ReplayRequest").from_dict(replay.LIVE_EXAMPLE)
    )
    assert live_game.status == "in_progress" and live_game.next_.player == "A" and live_game.settlement is None
    finished = _op(p, "replay", "replay_log").sync(
        client=live, body=_model(p, "ReplayRequest").from_dict(replay.examples()["full-deal"])
    )
    assert finished.next_ is None and finished.settlement.outcome == _model(p, "Outcome")("stop")
    # the cards of an answer are the card ids of a request: a replay's captures settle without a cast
    players = [
        _model(p, "SettlePlayer")(id=seat.id, captured=seat.captured, go_count=seat.go_count)
        for seat in finished.players
    ]
    again = _op(p, "settlement", "settle_hand").sync(
        client=live,
        body=_model(p, "SettleRequest")(
            players=players, winner=finished.settlement.winner, rules=_model(p, "PresetName")("korean-2p")
        ),
    )
    assert again.base_points == finished.settlement.base_points

    example = evening.EXAMPLES["two-players-push-nagari-all-in"]
    kept = _op(p, "evening", "keep_evening").sync(client=live, body=_model(p, "EveningRequest").from_dict(example))
    assert kept.totals.to_dict() == {"A": -3000, "B": 3000} and kept.transfers[0].amount == 3000

    assert _op(p, "meta", "get_health").sync(client=live).status == "ok"
    assert _op(p, "meta", "get_openapi_document").sync(client=live).startswith("components:")
    for name in ("get_docs_page", "get_openapi_json"):
        answer = _op(p, "meta", name).sync_detailed(client=live)
        assert answer.status_code == 200 and answer.content


def test_the_generated_client_reads_a_problem(client_package, live):
    p = client_package
    body = _model(p, "SettleRequest").from_dict({"players": [{"id": "A"}, {"id": "A"}], "winner": "A"})
    problem = _op(p, "settlement", "settle_hand").sync(client=live, body=body)
    assert problem.code == _model(p, "ProblemCode")("duplicate-player") and problem.status == 422
    assert problem.type_ == "/problems/duplicate-player"
    missing = _op(p, "catalogs", "get_preset").sync("korean-9p", client=live)
    assert missing.code == "not-found" and missing.status == 404


def test_the_generated_client_reads_values_it_does_not_know_yet(client_package):
    """API.md v1.3: answer-side value sets are open; a later /v1 may add an event type, a code, a check rule or a
    knob choice, and a client generated today reads it (the README's promise: clients ignore unknown values)."""
    from service import create_app

    p = client_package
    app = create_app({"TESTING": True}).test_client()
    answer = app.post("/v1/replay", json=replay.examples()["full-deal"]).get_json()
    answer["events"][0]["type"] = "a-new-event"
    answer["settlement"]["payments"][0]["checks"][0]["rule"] = "a-new-rule"
    answer["settlement"]["outcome"] = "a-new-outcome"
    answer["rules"]["gobak"] = "a-new-choice"
    read = _model(p, "ReplayResponse").from_dict(answer)
    assert read.events[0].type_ == "a-new-event" and read.settlement.payments[0].checks[0].rule == "a-new-rule"
    assert read.settlement.outcome == "a-new-outcome" and read.rules.gobak == "a-new-choice"
    assert read.events[1].type_ in set(_model(p, "EventType"))  # a known value is still its enum member
    problem = app.post("/v1/settle", json={"players": [{"id": "A"}, {"id": "A"}], "winner": "A"}).get_json()
    assert _model(p, "Problem").from_dict({**problem, "code": "a-new-code"}).code == "a-new-code"
