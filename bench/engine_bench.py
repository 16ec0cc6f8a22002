"""Engine-only microbenchmarks, microseconds per call: score, settle, and the replay of whole hands, for this
engine as built (compiled by mypyc where a C compiler was there), for its pure-Python sources, and for another
engine, side by side in one run.

Usage:
    python bench/engine_bench.py                            # this engine: as built, and its Python sources
    python bench/engine_bench.py --against /tmp/old/engine  # ... and another engine, in the same run

For a side-by-side run, check out the other version's engine anywhere (for instance
``git worktree add /tmp/old <commit>``) and point ``--against`` at its ``engine`` folder. Every engine is loaded
in this one process (the sources under names of their own, engine.build.load_sources) and timed in interleaved
rounds on the same inputs, the lowest of each kept, so the machine's drift favours none. Ratios are the other
engine's time over this one's: above 1, this one is faster.
"""

from __future__ import annotations

import argparse
import sys
import timeit
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

from common import REPLAY_BODY, SCORE_BODY, SETTLE_BODY

import engine
from engine.build import load_sources
from engine.simulate import simulate

Bench = dict[str, tuple[Callable[[], object], int]]
HANDS = [simulate("korean-2p", seed).to_dict() for seed in range(300)]  # the same 300 two-player hands for every engine


def benches(e: ModuleType) -> Bench:
    """The calls to time, written against the API every engine version shares."""
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
    won = e.HandResult(hand.players, "A")  # a hand of an evening, its carry left to the ledger
    players, deal, moves = REPLAY_BODY["players"], REPLAY_BODY["deal"], REPLAY_BODY["moves"]
    parsed = [e.Move.from_dict(m, index=i) for i, m in enumerate(moves)]
    turns = sum("call" not in m for m in moves)

    def replay_all() -> None:
        for body in HANDS:
            e.replay(body["players"], rules, body["deal"], body["moves"])

    return {
        f"score ({len(cards)} cards)": (lambda: e.score(cards, rules), 20000),
        "settle (2 players)": (lambda: e.settle(hand, rules), 20000),
        "evening of 20 settled hands (ledger, next hand, settle-up)": (
            lambda: e.evening(rules, ["A", "B"], [won] * 20, first_dealer="B", stake=100),
            500,
        ),
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
        f"replay {len(HANDS)} simulated 2-player hands, per hand": (replay_all, 1),
    }


def per_call(fn: Callable[[], object], number: int, rows: int) -> float:
    return min(timeit.repeat(fn, number=number, repeat=3)) / number / rows * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--against", type=Path, help="another engine package folder, timed side by side")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    built = "compiled" if engine.COMPILED else "pure"
    engines: dict[str, ModuleType] = {f"this ({built})": engine}
    if engine.COMPILED:
        engines["this (pure)"] = load_sources("engine_pure")
    if args.against:
        engines["against"] = load_sources("engine_against", args.against.resolve())
    tables = {name: benches(e) for name, e in engines.items()}
    rows = list(next(iter(tables.values())))
    best = {name: dict.fromkeys(rows, float("inf")) for name in engines}
    for _ in range(args.rounds):  # interleaved: each round times every call on every engine
        for row in rows:
            for name, table in tables.items():
                fn, number = table[row]
                per = len(HANDS) if row.endswith("per hand") else 1
                best[name][row] = min(best[name][row], per_call(fn, number, per))
    names = list(engines)
    print(f"{'microseconds per call':58}" + "".join(f"{n:>18}" for n in names), end="")
    if args.against:
        print("".join(f"  {n.split()[1]} x faster" for n in names if n != "against"), end="")
    print()
    for row in rows:
        line = f"{row:58}" + "".join(f"{best[n][row]:18.1f}" for n in names)
        if args.against:
            line += "".join(f"{best['against'][row] / best[n][row]:>13.2f}x" for n in names if n != "against")
        print(line)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
