"""Perft-style counts, as chess engines pin down their move generation: along a seeded hand of a preset, the
number of legal moves at every ply, and from a few of its positions the number of lines of play a few moves
deep. tests/data/perft-<preset>.json holds them, and tests/test_perft.py checks the engine against them.

python -m engine.perft korean-2p > tests/data/perft-korean-2p.json     # regenerate one preset's file
make perft                                                             # regenerate all five
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterable
from typing import Any, Final

from .game import GameState
from .moves import Move
from .rules import PRESETS, RuleSet, resolve
from .simulate import simulate

__all__ = ["SEEDS", "legal_counts", "perft", "positions"]

SEEDS: Final = range(1, 301)
"""The seeds searched for the hands of a file: those whose play shows the most kinds of move are kept."""
HANDS: Final = 2  # seeded hands per preset
DEPTHS: Final = (3, 3, 4)  # the depth counted at the deal, a third of the way into the hand, and two thirds


def perft(state: GameState, depth: int) -> int:
    """The number of lines of ``depth`` legal moves from ``state``; a line that ends the hand sooner counts
    nothing. ``state`` is not changed (each line is tried on a copy). Needs a known deal, as ``legal_moves``."""
    if depth == 0:
        return 1
    moves = state.legal_moves()
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        child = state.copy()
        child.apply(move)
        total += perft(child, depth - 1)
    return total


def legal_counts(state: GameState, line: Iterable[Move]) -> list[int]:
    """The number of legal moves before each move of ``line``, and at its end; ``state`` plays the line."""
    counts = [len(state.legal_moves())]
    for move in line:
        state.apply(move)
        counts.append(len(state.legal_moves()))
    return counts


def _kinds(moves: list[dict[str, Any]]) -> set[str]:
    """The kinds of move a logged hand shows (a choice of capture, a shake, a flip turn, a go ...)."""
    kinds: set[str] = set()
    for move in moves:
        kinds |= {key for key in move if key != "player"} - {"play", "draw", "call"}
        if "call" in move:
            kinds.add(move["call"])
    return kinds


def _pick(kinds: list[set[str]]) -> list[int]:
    """``HANDS`` hands that show the most kinds of move between them: each adds the most kinds not shown yet
    (then the most kinds; then the earliest seed)."""
    picked: list[int] = []
    shown: set[str] = set()
    for _ in range(HANDS):
        best = max(
            (i for i in range(len(kinds)) if i not in picked),
            key=lambda i: (len(kinds[i] - shown), len(kinds[i]), -i),
        )
        picked.append(best)
        shown |= kinds[best]
    return sorted(picked)


def positions(rules: RuleSet | str) -> dict[str, Any]:
    """A preset's perft file: ``HANDS`` seeded hands of ``SEEDS`` that show the most kinds of move between
    them, each with its legal-move counts and its perft counts."""
    rules = resolve(rules)
    logs = [simulate(rules, seed) for seed in SEEDS]
    bodies = [log.to_dict() for log in logs]
    hands = []
    for i in _pick([_kinds(body["moves"]) for body in bodies]):
        body, log = bodies[i], logs[i]
        line = list(log.moves)
        state = GameState(log.players, rules, log.deal)
        counts = legal_counts(state.copy(), line)
        nodes = []
        for part, depth in enumerate(DEPTHS):
            ply = len(line) * part // len(DEPTHS)
            at = state.copy()
            for move in line[:ply]:
                at.apply(move)
            nodes.append({"ply": ply, "depth": depth, "nodes": perft(at, depth)})
        hands.append(
            {
                "seed": SEEDS[i],
                "kinds": sorted(_kinds(body["moves"])),
                "players": body["players"],
                "deal": body["deal"],
                "moves": body["moves"],
                "legal": counts,
                "perft": nodes,
            }
        )
    return {
        "description": f"Perft counts of {rules.preset}: legal moves at every ply of seeded hands, and lines of "
        "play from three of their positions (engine/perft.py; regenerate: python -m engine.perft "
        f"{rules.preset} > tests/data/perft-{rules.preset}.json)",
        "rules": rules.preset,
        "hands": hands,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Print a preset's perft counts as JSON (tests/data/perft-*.json).")
    parser.add_argument("preset", choices=list(PRESETS))
    args = parser.parse_args(argv)
    print(json.dumps(positions(args.preset), indent=1, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
