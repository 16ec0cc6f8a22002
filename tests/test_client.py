"""openapi.yaml is fit for client generators: openapi-python-client (from PyPI) generates a client from the
committed document, and that client calls the live app for every operation and reads the answers back into
its typed models."""

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

from service import create_app
from service.api import examples
from tests.conftest import ROOT

pytestmark = pytest.mark.xdist_group("client")


@pytest.fixture(scope="module")
def client_package(tmp_path_factory) -> Iterator[object]:
    out = tmp_path_factory.mktemp("generated") / "gostop_client"
    generator = shutil.which("openapi-python-client", path=str(Path(sys.executable).parent))
    assert generator, "openapi-python-client is a dev dependency (pyproject.toml)"
    config = out.parent / "config.yaml"
    # the generator reads the YAML document as text, and runs no formatter on what it writes
    config.write_text("content_type_overrides:\n  application/yaml: text/plain\npost_hooks: []\n")
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
        "list_presets",
        "get_preset",
        "score_cards",
        "settle_hand",
        "replay_log",
        "get_health",
        "get_openapi_document",
        "get_docs_page",
        "get_metrics",
    }


def test_the_generated_client_calls_every_operation(client_package, live):
    p = client_package
    cards = _op(p, "cards", "list_cards").sync(client=live)
    assert len(cards.cards) == 51 and cards.cards[0].names.ko
    presets = _op(p, "rules", "list_presets").sync(client=live)
    assert {x.name for x in presets.presets} >= {"korean-2p", "korean-3p"}
    preset = _op(p, "rules", "get_preset").sync("korean-2p", client=live)
    assert preset.gobak == "double" and preset.bomb_flip_timing == "any"

    score = _op(p, "hands", "score_cards").sync(
        client=live, body=_model(p, "ScoreRequest").from_dict(examples.SCORE_REQUEST)
    )
    assert score.total == 8 and score.explanation
    settled = _op(p, "hands", "settle_hand").sync(
        client=live, body=_model(p, "SettleRequest").from_dict(examples.SETTLE_REQUEST)
    )
    assert settled.winner == "A" and {c.rule for c in settled.payments[0].checks} >= {"pibak", "gwangbak"}

    live_game = _op(p, "replay", "replay_log").sync(
        client=live, body=_model(p, "ReplayRequest").from_dict(examples.REPLAY_LIVE_REQUEST)
    )
    assert live_game.status == "in_progress" and live_game.next_.player == "A" and live_game.settlement is None
    finished = _op(p, "replay", "replay_log").sync(
        client=live, body=_model(p, "ReplayRequest").from_dict(examples.REPLAY_REQUESTS["full-deal"])
    )
    assert finished.next_ is None and finished.settlement.outcome == "stop"

    assert _op(p, "meta", "get_health").sync(client=live).status == "ok"
    assert _op(p, "meta", "get_openapi_document").sync(client=live).startswith("components:")
    for group, name in (("meta", "get_docs_page"), ("metrics", "get_metrics")):
        answer = _op(p, group, name).sync_detailed(client=live)
        assert answer.status_code == 200 and answer.content


def test_the_generated_client_reads_a_problem(client_package, live):
    p = client_package
    body = _model(p, "SettleRequest").from_dict({"players": [{"id": "A"}, {"id": "A"}], "winner": "A"})
    problem = _op(p, "hands", "settle_hand").sync(client=live, body=body)
    assert problem.code == "duplicate-player" and problem.status == 422
    missing = _op(p, "rules", "get_preset").sync("korean-9p", client=live)
    assert missing.code == "not-found" and missing.status == 404
