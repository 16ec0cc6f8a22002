"""CPU time a gunicorn worker spends per request, gostop against the bare app (a steadier measure than
throughput, since wrk shares the machine). Reads utime + stime of this run's own worker from /proc.

One worker, so that no two workers race to accept each connection (that race made the per-request CPU of
two workers swing by a third from run to run); each case runs ``--runs`` times, interleaved, and the
lowest is kept, since noise on a shared machine only ever adds time.

With ``--against <checkout>`` that checkout's service is measured in the same rounds (its column and ratio);
``lean`` is POST /v1/replay?view=lean, against the bare app on the score body as replay is.

Usage: python bench/worker_cpu.py [--seconds 5] [--runs 3] [--only score,lean] [--against <checkout>]
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from common import REPLAY_BODY, SCORE_BODY, SETTLE_BODY, wrk
from hostile import cpu_seconds, serving

from gostop.server import children


def measure(app: str, path: str, body: dict, seconds: int, env: dict[str, str], folder: Path | None = None) -> float:
    with serving(app, 1, env, folder) as base:
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
    parser.add_argument("--only", help="some of score,settle,replay,lean (comma-separated)")
    parser.add_argument("--against", type=Path, help="another checkout of gostop, measured in the same rounds")
    parser.add_argument("--no-quiet", action="store_true", help="leave out the run without the access log")
    args = parser.parse_args()
    heads = f"{'endpoint':12} {'bare us':>8} {'gostop us':>10} {'ratio':>6} {'no access log':>14}"
    print(heads + (f" {'against':>8} {'ratio':>6}" if args.against else ""))
    endpoints = [("score", SCORE_BODY), ("settle", SETTLE_BODY), ("replay", REPLAY_BODY), ("lean", REPLAY_BODY)]
    for name, body in endpoints:
        if args.only and name not in args.only.split(","):
            continue
        path = "/v1/replay?view=lean" if name == "lean" else f"/v1/{name}"
        cases = {
            "bare": ("bare_app:app", SCORE_BODY if name in ("replay", "lean") else body, {}),
            "ours": ("service.wsgi:app", body, {}),
        }
        if not args.no_quiet:
            cases["quiet"] = ("service.wsgi:app", body, {"ACCESS_LOG_LEVEL": "WARNING"})
        if args.against is not None:
            cases["against"] = ("service.wsgi:app", body, {})  # served from its own folder
        seen: dict[str, list[float]] = {key: [] for key in cases}
        for _ in range(args.runs):  # interleaved, so a slow spell of the machine hits every case alike
            for key, (app, sent, env) in cases.items():
                folder = args.against.resolve() if key == "against" else None
                seen[key].append(measure(app, "/v1/score" if key == "bare" else path, sent, args.seconds, env, folder))
        low = {key: min(values) for key, values in seen.items()}
        bare, ours = low["bare"], low["ours"]
        quiet = f"{low['quiet']:14.0f}" if "quiet" in low else f"{'':14}"
        other = f"{low['against']:8.0f} {bare / low['against']:6.2f}" if "against" in low else ""
        print(f"{path[:12]:12} {bare:8.0f} {ours:10.0f} {bare / ours:6.2f} {quiet} {other}")


if __name__ == "__main__":
    main()
