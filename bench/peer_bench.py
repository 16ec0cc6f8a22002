"""Our compiled engine against the peer, bipark/gostop-ts (a TypeScript Go-Stop engine run by Node), side by side
on the same 300 two-player hands (``simulate("korean-2p", seed)``, seeds 0-299): each hand replayed from its log
on both engines, microseconds a hand, and the ratio ours / peer (issue 25 asks for 2.0 or less).

Usage:
    python bench/peer_bench.py --peer /tmp/peer/dist [--rounds 7] [--passes 5]
    python bench/peer_bench.py --export hands.json     # the hands and what our replay ends with, as JSON

The peer drives through ``bench/peer/runner.mjs`` (our code), which deals each hand exactly as logged and turns
every logged move into the peer's calls, then checks that the peer ends the hand with the same winner and the same
captured cards as ours. Only the hands both engines replay identically are timed. Two processes, one each (this
one for ours, a Node process for the peer), timed in interleaved rounds (peer, ours, peer, ours, ...); in each
round each side makes ``--passes`` passes over the hands and keeps its lowest; the table gives the lowest round
and the range over rounds, by wall time and by CPU time.

The peer is not part of this repository (its licence, PolyForm Noncommercial, allows no copy here): build it in a
temporary folder, and point ``--peer`` at the folder holding its compiled ``cards.js``, ``score.js`` and
``play.js``::

    git clone https://github.com/bipark/gostop-ts /tmp/peer
    cd /tmp/peer && npm install --no-save typescript
    npx tsc --target ES2020 --module ESNext --moduleResolution Bundler --skipLibCheck --outDir dist \\
        src/cards.ts src/score.ts src/play.ts

(The folder's package.json says ``"type": "module"``, which Node needs to load the output as ES modules. On a
machine that cannot reach GitHub, the same files can be written out by hand into /tmp/peer/src from a read-only
copy of the sources; never into this repository.)
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import engine
from engine.simulate import simulate

SEEDS = range(300)
RUNNER = Path(__file__).resolve().parent / "peer" / "runner.mjs"


def hands() -> list[dict[str, Any]]:
    """The 300 hands as logged, each with what our replay ends with (``expect``) for the peer to be checked on."""
    rules = engine.resolve("korean-2p")
    out = []
    for seed in SEEDS:
        body = simulate("korean-2p", seed).to_dict()
        done = engine.replay(body["players"], rules, body["deal"], body["moves"])
        result = done.state.hand_result()
        settlement = done.settlement
        out.append(
            {
                "seed": seed,
                **body,
                "expect": {
                    "winner": result.winner,
                    "captured": {p.id: [c.id for c in p.captured] for p in result.players},
                    "score": settlement.score.total if settlement and settlement.score else None,
                    "points": sum(p.points for p in settlement.payments) if settlement else None,
                },
            }
        )
    return out


def ours_round(bodies: list[dict[str, Any]], passes: int) -> tuple[float, float]:
    """Our lowest pass over the hands, microseconds a hand (wall, CPU)."""
    rules = engine.resolve("korean-2p")
    wall = cpu = float("inf")
    for _ in range(passes):
        w, c = time.perf_counter(), time.process_time()
        for body in bodies:
            engine.replay(body["players"], rules, body["deal"], body["moves"])
        wall = min(wall, time.perf_counter() - w)
        cpu = min(cpu, time.process_time() - c)
    return wall / len(bodies) * 1e6, cpu / len(bodies) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--peer", type=Path, help="the folder of the peer's compiled cards.js, score.js, play.js")
    parser.add_argument("--export", type=Path, help="write the hands as JSON and stop")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--passes", type=int, default=5)
    args = parser.parse_args()
    all_hands = hands()
    if args.export:
        args.export.write_text(json.dumps(all_hands))
        return
    if args.peer is None:
        sys.exit("peer_bench: give --peer, the folder of the peer's compiled JavaScript (see this script's docstring)")
    if not (args.peer / "play.js").is_file():
        sys.exit(
            f"peer_bench: no built peer at {args.peer} (want its play.js, cards.js, score.js): build it in a "
            "temporary folder first, see this script's docstring"
        )
    with tempfile.NamedTemporaryFile("w", suffix=".json") as f:
        json.dump(all_hands, f)
        f.flush()
        peer = subprocess.Popen(
            ["node", str(RUNNER), str(args.peer), f.name, "--serve"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert peer.stdin and peer.stdout
        check = json.loads(peer.stdout.readline())

        def peer_round(passes: int) -> tuple[float, float]:
            peer.stdin.write(f"round {passes}\n")
            peer.stdin.flush()
            answer = json.loads(peer.stdout.readline())
            return answer["wall_us"], answer["cpu_us"]

        same = set(check["identical"])
        bodies = [h for h in all_hands if h["seed"] in same]
        peer_round(args.passes * 4)  # warm-up: the JIT's tiers, and ours once
        ours_round(bodies, 1)
        rows: dict[str, list[tuple[float, float]]] = {"peer": [], "ours": []}
        for _ in range(args.rounds):
            rows["peer"].append(peer_round(args.passes))
            rows["ours"].append(ours_round(bodies, args.passes))
        peer.stdin.write("quit\n")
        peer.stdin.close()
        peer.wait(timeout=30)

    print(f"hands replayed identically by the peer: {len(same)} of {check['hands']}", end="")
    print(f" (same winner's score {check['same_score']}, same points paid {check['same_points']})")
    reasons: dict[str, int] = {}
    for why in check["diverged"].values():
        reason = why.split(": ", 1)[-1]
        reasons[reason] = reasons.get(reason, 0) + 1
    for reason, n in sorted(reasons.items(), key=lambda x: -x[1]):
        print(f"  diverged, {n}: {reason}")
    built = "compiled" if engine.COMPILED else "pure"
    print(f"\n{len(bodies)} hands, {args.rounds} interleaved rounds of {args.passes} passes, us a hand")
    print(f"{'':18}{'wall lowest':>12}{'wall range':>18}{'CPU lowest':>12}{'CPU range':>18}")
    for name, label in (("peer", "peer (Node)"), ("ours", f"ours ({built})")):
        walls = [w for w, _ in rows[name]]
        cpus = [c for _, c in rows[name]]
        print(
            f"{label:18}{min(walls):12.1f}{f'{min(walls):.1f}-{max(walls):.1f}':>18}"
            f"{min(cpus):12.1f}{f'{min(cpus):.1f}-{max(cpus):.1f}':>18}"
        )
    ratio = min(w for w, _ in rows["ours"]) / min(w for w, _ in rows["peer"])
    ratio_cpu = min(c for _, c in rows["ours"]) / min(c for _, c in rows["peer"])
    per_round = [o[0] / p[0] for o, p in zip(rows["ours"], rows["peer"], strict=True)]
    print(
        f"ours / peer: {ratio:.2f}x by wall, {ratio_cpu:.2f}x by CPU (lowest against lowest); "
        f"round by round {min(per_round):.2f}-{max(per_round):.2f}x; target 2.0x"
    )


if __name__ == "__main__":
    main()
