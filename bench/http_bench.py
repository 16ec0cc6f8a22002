"""Throughput of POST /v1/score, /v1/settle (and /v1/replay) under gunicorn, as a ratio of a bare Flask app.

Both apps run under service/gunicorn.conf.py with the same worker count and are driven by wrk with the
same body, one after the other in the same run. With ``--rounds``, the whole comparison is repeated and every
round's ratio printed, then the median: on a shared machine one ratio says little, and the load is printed too.

Usage: python bench/http_bench.py [--seconds 10] [--rounds 1]
"""

from __future__ import annotations

import argparse
import os
import statistics
from pathlib import Path

from common import REPLAY_BODY, SCORE_BODY, SETTLE_BODY, wrk
from hostile import serving


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=1, help="repeat the comparison; print each round's ratios")
    parser.add_argument("--no-access-log", action="store_true", help="run gostop with ACCESS_LOG_LEVEL=WARNING")
    parser.add_argument("--only", help="some of score,settle,replay,lean (comma-separated)")
    parser.add_argument("--against", type=Path, help="another checkout of gostop, served in turn (its ratio printed)")
    args = parser.parse_args()
    env = {"ACCESS_LOG_LEVEL": "WARNING"} if args.no_access_log else {}
    # lean: the replay's lean answer (?view=lean, API.md v1.3), for clients that show only the state and the prompt
    cases = [("score", SCORE_BODY), ("settle", SETTLE_BODY), ("replay", REPLAY_BODY), ("lean", REPLAY_BODY)]
    if args.only:
        cases = [case for case in cases if case[0] in args.only.split(",")]
    paths = {"lean": "/v1/replay?view=lean"}
    rounds: list[dict[str, tuple[dict, dict]]] = []
    against: dict[str, list[float]] = {name: [] for name, _ in cases}
    for _ in range(args.rounds):
        results = {}
        for name, body in cases:
            # the baseline for replay too is the bare app on the score body, as the issue sets it
            bare_body = SCORE_BODY if name in ("replay", "lean") else body
            path = paths.get(name, f"/v1/{name}")
            with serving("bare_app:app", args.workers) as base:
                bare_path = "/v1/score" if name == "lean" else path
                bare = wrk(base, [(bare_path, bare_body)], seconds=args.seconds, connections=args.connections)
            with serving("service.wsgi:app", args.workers, env) as base:
                ours = wrk(base, [(path, body)], seconds=args.seconds, connections=args.connections)
            assert ours["non_2xx"] == 0 and ours["errors"] == 0, ours
            if args.against is not None:  # the other checkout's service, on its own path
                # served from its own folder: gunicorn puts its working directory first on the path
                with serving("service.wsgi:app", args.workers, env, folder=args.against.resolve()) as base:
                    theirs = wrk(base, [(path, body)], seconds=args.seconds, connections=args.connections)
                against[name].append(theirs["rps"] / bare["rps"])
            results[name] = (ours, bare)
        rounds.append(results)
        print(f"load average {os.getloadavg()[0]:.1f}")
        print(f"{'endpoint':10} {'gostop req/s':>13} {'bare req/s':>11} {'ratio':>6} {'p99 ms':>7}")
        for name, (ours, bare) in results.items():
            print(
                f"/v1/{name:6} {ours['rps']:13.0f} {bare['rps']:11.0f} {ours['rps'] / bare['rps']:6.2f} "
                f"{ours['p99_ms']:7.2f}"
            )
    if args.rounds > 1:
        for name, _ in cases:
            ratios = [r[name][0]["rps"] / r[name][1]["rps"] for r in rounds]
            said = ", ".join(f"{x:.2f}" for x in ratios)
            print(f"/v1/{name:6} ratios {said}; median {statistics.median(ratios):.2f}")
    if args.against is not None:
        for name, _ in cases:
            said = ", ".join(f"{x:.2f}" for x in against[name])
            print(f"/v1/{name:6} {args.against}: ratios {said}; median {statistics.median(against[name]):.2f}")


if __name__ == "__main__":
    main()
