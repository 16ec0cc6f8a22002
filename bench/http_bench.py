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

from common import REPLAY_BODY, SCORE_BODY, SETTLE_BODY, wrk
from hostile import serving


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=1, help="repeat the comparison; print each round's ratios")
    parser.add_argument("--no-access-log", action="store_true", help="run gostop with ACCESS_LOG_LEVEL=WARNING")
    args = parser.parse_args()
    env = {"ACCESS_LOG_LEVEL": "WARNING"} if args.no_access_log else {}
    cases = [("score", SCORE_BODY), ("settle", SETTLE_BODY), ("replay", REPLAY_BODY)]
    rounds: list[dict[str, tuple[dict, dict]]] = []
    for _ in range(args.rounds):
        results = {}
        for name, body in cases:
            # the baseline for replay too is the bare app on the score body, as the issue sets it
            bare_body = SCORE_BODY if name == "replay" else body
            with serving("bare_app:app", args.workers) as base:
                bare = wrk(base, [(f"/v1/{name}", bare_body)], seconds=args.seconds, connections=args.connections)
            with serving("service.wsgi:app", args.workers, env) as base:
                ours = wrk(base, [(f"/v1/{name}", body)], seconds=args.seconds, connections=args.connections)
            assert ours["non_2xx"] == 0 and ours["errors"] == 0, ours
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


if __name__ == "__main__":
    main()
