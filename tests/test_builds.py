"""The engine's two builds (setup.py, engine/build.py): compiled wherever a C compiler is there, and the pure
Python one; the same answers from both; a stale compiled build refused."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from engine.build import stale_modules
from engine.simulate import simulate
from tests.engines import ENGINE_DIR, answers, load_sources

ROOT = Path(__file__).resolve().parent.parent
TESTING_PURE = os.environ.get("GOSTOP_PURE", "") not in ("", "0")


def can_compile() -> bool:
    """What setup.py needs to compile the engine: a C compiler and the Python headers."""
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    return shutil.which(compiler) is not None and (Path(sysconfig.get_paths()["include"]) / "Python.h").exists()


def test_the_engine_runs_compiled_wherever_it_can_be_compiled():
    if TESTING_PURE:
        assert not engine.COMPILED, "GOSTOP_PURE=1 runs the Python sources"
        assert engine.game.__file__.endswith("game.py")
    elif can_compile():
        assert engine.COMPILED, "a C compiler is here, but the install fell back to the pure engine (pip install -v)"
        assert not engine.game.__file__.endswith(".py")
    else:
        assert not engine.COMPILED


def test_a_module_edited_after_compiling_is_stale(tmp_path):
    source, compiled = tmp_path / "turn.py", tmp_path / ("turn" + sysconfig.get_config_var("EXT_SUFFIX"))
    source.write_text("")
    compiled.write_bytes(b"")
    os.utime(compiled, (1_000_000, 1_000_000))
    os.utime(source, (2_000_000, 2_000_000))
    assert stale_modules(tmp_path) == [source]
    os.utime(compiled, (3_000_000, 3_000_000))  # compiled again
    assert stale_modules(tmp_path) == []


def test_a_checkout_refuses_a_stale_compiled_engine(tmp_path):
    """The engine of a source checkout with a compiled module older than its source does not import: Python
    would run the old code."""
    shutil.copytree(ENGINE_DIR, tmp_path / "engine", ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    (tmp_path / "setup.py").write_text("")
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    fake = tmp_path / "engine" / f"scoring{suffix}"
    fake.write_bytes(b"not a library")  # never loaded: the check comes first
    os.utime(fake, (1_000_000, 1_000_000))
    env = {k: v for k, v in os.environ.items() if k != "GOSTOP_PURE"}
    run = subprocess.run([sys.executable, "-c", "import engine"], cwd=tmp_path, capture_output=True, text=True, env=env)
    assert run.returncode == 1
    assert "ImportError: scoring.py changed after the engine was compiled" in run.stderr
    assert "make" in run.stderr
    env["GOSTOP_PURE"] = "1"  # the Python sources run, whatever is compiled beside them
    check = "import engine; assert not engine.COMPILED"
    assert subprocess.run([sys.executable, "-c", check], cwd=tmp_path, capture_output=True, env=env).returncode == 0


SPOILS = ("none", "drop", "swap", "card", "choice", "hidden", "hidden-no-draw")
# The house rules no preset plays (RULES.md 2-6), as rule sets a table might send
HOUSE_RULES = {
    "korean-3p+house": {
        "preset": "korean-3p",
        "gwang_palgi": True,
        "two_card_bomb": "bomb-multiplier",
        "bonus_on_ppuk": True,
        "chok_sseul": True,
        "steal_dealt_stack": 2,
        "sep_animal_stealable": True,
        "four_brights_points": 5,
        "chongtong_by_bonus": "always",
    },
    "korean-2p+house": {
        "preset": "korean-2p",
        "two_card_bomb": "no-multiplier",
        "chongtong_at_deal": "play-on",
        "floor_four": "dealer-wins",
        "bonus_on_ppuk": True,
        "ten_ribbons_points": 15,
    },
}


def spoiled(body: dict, spoil: str, pick: int, card: str) -> dict:
    """The log with one thing done wrong to it, the way a phone app or a person might."""
    body = {**body, "deal": dict(body["deal"]), "moves": [dict(m) for m in body["moves"]]}
    moves = body["moves"]
    if not moves:  # a hand decided at the deal
        return body
    i = pick % len(moves)
    if spoil == "drop":
        del moves[i]
    elif spoil == "swap" and i + 1 < len(moves):
        moves[i], moves[i + 1] = moves[i + 1], moves[i]
    elif spoil == "card" and "play" in moves[i]:
        moves[i]["play"] = card
    elif spoil == "choice":
        moves[i]["capture" if "play" in moves[i] else "draw_capture"] = card
    elif spoil.startswith("hidden"):
        sit_out = body["deal"].get("sit_out")
        body["deal"] = {"layout": body["deal"]["layout"]}
        if sit_out is not None:  # a table of four still says who sat out; the seller shows the hand sold
            body["deal"]["sit_out"] = {**sit_out, "hand": sit_out["hand"] if sit_out["seat"] == 4 else []}
        if spoil == "hidden-no-draw":
            moves[i].pop("draw", None)
    return body


@pytest.mark.skipif(TESTING_PURE or not engine.COMPILED, reason="only one build here: nothing to compare")
@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    preset=st.sampled_from([*sorted(engine.PRESETS), *HOUSE_RULES]),
    seed=st.integers(0, 10**6),
    spoil=st.sampled_from(SPOILS),
    pick=st.integers(0, 100),
    card=st.sampled_from([c.id for c in engine.CARDS]),
)
def test_both_builds_answer_every_simulated_hand_alike(preset, seed, spoil, pick, card):
    """A simulated hand, whole or spoiled, replayed by the compiled engine and by its Python sources: the same
    state after every move, the same legal moves, events, payments and settlement, or the same refusal."""
    pure = load_sources("engine_pure")
    body = spoiled(simulate(HOUSE_RULES.get(preset, preset), seed).to_dict(), spoil, pick, card)
    assert answers(engine, body) == answers(pure, body)
