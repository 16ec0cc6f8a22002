"""Engine-only microbenchmarks, microseconds per call: score, settle, and the replay of a full hand.

Usage:
    python bench/engine_bench.py                          # this checkout's engine
    python bench/engine_bench.py --against /tmp/old/engine  # side by side with another engine, same run

For a side-by-side run, check out the other version's engine anywhere (for instance
``git worktree add /tmp/old <commit>``) and point ``--against`` at its ``engine`` folder: both engines are
loaded in this one process and timed in interleaved rounds on the same inputs (the lowest of each is kept),
so the machine's drift does not favour either.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import timeit
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

from common import REPLAY_BODY, SCORE_BODY, SETTLE_BODY

import engine

Bench = dict[str, tuple[Callable[[], object], int]]


def load_engine(folder: Path, name: str) -> ModuleType:
    """Import the engine package in ``folder`` under another name (its relative imports follow it)."""
    spec = importlib.util.spec_from_file_location(
        name, folder / "__init__.py", submodule_search_locations=[str(folder)]
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def benches(e: ModuleType) -> Bench:
    """The calls to time, written against the API both engine versions share."""
    rules = e.resolve("korean-2p")
    cards = tuple(e.parse_cards(SCORE_BODY["cards"]))
    hand = e.HandResult(
        tuple(
            e.PlayerHand(p["id"], tuple(e.parse_cards(p["captured"])), p.get("go_count", 0), p.get("shakes", 0))
            for p in SETTLE_BODY["players"]
        ),
        "A",
        nagari_streak=1,
        stake=100,
    )
    players, deal, moves = REPLAY_BODY["players"], REPLAY_BODY["deal"], REPLAY_BODY["moves"]
    parsed = [e.Move.from_dict(m, index=i) for i, m in enumerate(moves)]
    turns = sum("call" not in m for m in moves)
    return {
        f"score ({len(cards)} cards)": (lambda: e.score(cards, rules), 20000),
        "settle (2 players)": (lambda: e.settle(hand, rules), 20000),
        "parse ids + resolve rules + score": (
            lambda: e.score(e.parse_cards(SCORE_BODY["cards"]), e.resolve("korean-2p")),
            20000,
        ),
        f"replay, {turns} turns + {len(moves) - turns} calls, from JSON moves, settled": (
            lambda: e.replay(players, rules, deal, moves),
            1000,
        ),
        "replay of the same hand from parsed Move values": (lambda: e.replay(players, rules, deal, parsed), 1000),
        "read the moves (Move.from_dict)": (lambda: [e.Move.from_dict(m, index=i) for i, m in enumerate(moves)], 1000),
    }


def per_call(fn: Callable[[], object], number: int) -> float:
    return min(timeit.repeat(fn, number=number, repeat=3)) / number * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--against", type=Path, help="another engine package folder, timed side by side")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    engines = {"this": engine}
    if args.against:
        engines["against"] = load_engine(args.against.resolve(), "engine_against")
    tables = {name: benches(e) for name, e in engines.items()}
    best = {name: dict.fromkeys(tables["this"], float("inf")) for name in engines}
    for _ in range(args.rounds):  # interleaved: each round times every call on every engine
        for row in tables["this"]:
            for name, table in tables.items():
                fn, number = table[row]
                best[name][row] = min(best[name][row], per_call(fn, number))
    for row in tables["this"]:
        line = f"{row:62} {best['this'][row]:8.1f} us"
        if args.against:
            against = best["against"][row]
            line += f"   against {against:8.1f} us   this/against {best['this'][row] / against:5.2f}"
        print(line)


if __name__ == "__main__":
    main()
