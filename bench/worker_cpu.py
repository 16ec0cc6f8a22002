"""CPU time a gunicorn worker spends per request, gostop against the bare app (a steadier measure than
throughput, since wrk shares the machine). Reads utime + stime of this run's own worker from /proc.

One worker, so that no two workers race to accept each connection (that race made the per-request CPU of
two workers swing by a third from run to run); each case runs ``--runs`` times, interleaved, and the
lowest is kept, since noise on a shared machine only ever adds time.

Usage: python bench/worker_cpu.py [--seconds 5] [--runs 3]
"""

from __future__ import annotations

import argparse
import os

from common import REPLAY_BODY, SCORE_BODY, SETTLE_BODY, wrk
from hostile import cpu_seconds, serving

from gostop.server import children


def measure(app: str, path: str, body: dict, seconds: int, env: dict[str, str]) -> float:
    with serving(app, 1, env) as base:
        # this run's own server: its master is our child, its worker the master's. (A search of the command lines,
        # as before, found whichever gostop server on the machine came first, another session's as often as not.)
        (master,) = children(os.getpid())
        pids = children(master)
        before = cpu_seconds(pids)
        stats = wrk(base, [(path, body)], seconds=seconds, connections=8)
        return (cpu_seconds(pids) - before) / stats["requests"] * 1e6


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print(f"{'endpoint':12} {'bare us':>8} {'gostop us':>10} {'ratio':>6} {'no access log':>14}")
    for name, body in (("score", SCORE_BODY), ("settle", SETTLE_BODY), ("replay", REPLAY_BODY)):
        path = f"/v1/{name}"
        cases = {
            "bare": ("bare_app:app", SCORE_BODY if name == "replay" else body, {}),
            "ours": ("service.wsgi:app", body, {}),
            "quiet": ("service.wsgi:app", body, {"ACCESS_LOG_LEVEL": "WARNING"}),
        }
        seen: dict[str, list[float]] = {key: [] for key in cases}
        for _ in range(args.runs):  # interleaved, so a slow spell of the machine hits every case alike
            for key, (app, sent, env) in cases.items():
                seen[key].append(measure(app, path, sent, args.seconds, env))
        bare, ours, quiet = (min(seen[key]) for key in ("bare", "ours", "quiet"))
        print(f"{path:12} {bare:8.0f} {ours:10.0f} {bare / ours:6.2f} {quiet:14.0f}")


if __name__ == "__main__":
    main()
