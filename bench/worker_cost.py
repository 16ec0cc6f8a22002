"""What the worker model costs on the HTTP ratios of bench/http_bench.py (issue 11): each endpoint, gostop and
the bare app, under service/gunicorn.conf.py as shipped (the gevent worker) and under the same config with
gunicorn's sync worker (``-k sync``: what the service ran before), side by side in one run. The sync worker
closes every connection after one answer; to tell the worker's own cost from what keep-alive changes, the
gevent worker is also measured with a new connection for every request.

The cases are interleaved over rounds, so that a slow spell of the machine hits them alike, and the median
round is reported. Besides requests a second, each run reads the CPU time its workers spent (from /proc):
per request it is a steadier measure than throughput on a machine shared with the load generator.

Usage: python bench/worker_cost.py [--seconds 5] [--rounds 5]
"""

from __future__ import annotations

import argparse
import os
import statistics

from common import REPLAY_BODY, SCORE_BODY, SETTLE_BODY, wrk
from hostile import cpu_seconds, serving

from gostop.server import children

# name: (environment, a new connection for every request)
MODELS = {
    "sync (before)": ({"GUNICORN_CMD_ARGS": "-k sync"}, False),  # closes every connection anyway
    "gevent, closing": ({}, True),
    "gevent (now)": ({}, False),
}
APPS = ("bare_app:app", "service.wsgi:app")


def measure(
    app: str, cases: list[tuple[str, dict]], model: tuple[dict[str, str], bool], args: argparse.Namespace
) -> list[tuple[float, float]]:
    """For each (path, body) in turn on one server: requests a second, and worker CPU microseconds a request."""
    env, close = model
    out = []
    with serving(app, args.workers, env) as base:
        (master,) = children(os.getpid())
        workers = children(master)
        for path, body in cases:
            before = cpu_seconds(workers)
            stats = wrk(base, [(path, body)], seconds=args.seconds, connections=args.connections, close=close)
            used = cpu_seconds(workers) - before
            assert stats["errors"] == 0 and stats["non_2xx"] == 0, stats
            out.append((stats["rps"], used / stats["requests"] * 1e6))
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    cases = [("score", SCORE_BODY), ("settle", SETTLE_BODY), ("replay", REPLAY_BODY)]
    seen: dict[tuple[str, str, str], list[tuple[float, float]]] = {}
    for _ in range(args.rounds):
        for model, settings in MODELS.items():
            for app in APPS:
                # the replay baseline is the bare app on the score body, as http_bench.py has it
                sent = [(f"/v1/{n}", SCORE_BODY if n == "replay" and app == APPS[0] else b) for n, b in cases]
                for (name, _), result in zip(cases, measure(app, sent, settings, args), strict=True):
                    seen.setdefault((name, model, app), []).append(result)
    print(f"{args.rounds} rounds of {args.seconds} s, {args.workers} workers, wrk with {args.connections} connections")
    print(
        f"{'endpoint':10} {'worker':16} {'gostop req/s':>13} {'bare req/s':>11} {'ratio':>6} {'rounds':>24} "
        f"{'gostop us':>10} {'bare us':>8} {'CPU ratio':>9}"
    )
    for name, _ in cases:
        for model in MODELS:
            bare, ours = seen[(name, model, APPS[0])], seen[(name, model, APPS[1])]
            ratios = [o[0] / b[0] for o, b in zip(ours, bare, strict=True)]
            cpu = [b[1] / o[1] for o, b in zip(ours, bare, strict=True)]
            rounds = " ".join(f"{r:.2f}" for r in ratios)
            print(
                f"/v1/{name:6} {model:16} {statistics.median(o[0] for o in ours):13.0f} "
                f"{statistics.median(b[0] for b in bare):11.0f} {statistics.median(ratios):6.2f} {rounds:>24} "
                f"{statistics.median(o[1] for o in ours):10.0f} {statistics.median(b[1] for b in bare):8.0f} "
                f"{statistics.median(cpu):9.2f}"
            )


if __name__ == "__main__":
    main()
