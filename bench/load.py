"""Load test: the real service under gunicorn on loopback, driven by wrk with a mix of score, settle and
replay requests for a bounded time. Reports throughput, p50/p99 latency, errors and 5xx answers (the 5xx
count is read from the server's own /metrics, so nothing is missed). Exits non-zero on any error.

Usage: python bench/load.py [--seconds 60] [--connections 16] [--workers 2]
"""

from __future__ import annotations

import argparse

from common import REPLAY_BODY, SCORE_BODY, SETTLE_BODY, wrk
from hostile import server_errors

from gostop.server import HOST, Server

MIX = [("/v1/score", SCORE_BODY), ("/v1/settle", SETTLE_BODY), ("/v1/replay", REPLAY_BODY)]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    with Server({"WORKERS": str(args.workers), "ACCESS_LOG_LEVEL": "WARNING"}) as srv:
        base = f"http://{HOST}:{srv.port}"
        stats = wrk(base, MIX, seconds=args.seconds, connections=args.connections, threads=args.threads)
        fivexx = server_errors(srv)
    print(f"{args.seconds} s, {args.connections} connections, {args.workers} workers, mix of score/settle/replay")
    print(
        f"requests {stats['requests']:.0f}  throughput {stats['rps']:.0f} req/s  "
        f"p50 {stats['p50_ms']:.2f} ms  p99 {stats['p99_ms']:.2f} ms"
    )
    print(f"errors {stats['errors']:.0f}  non-2xx {stats['non_2xx']:.0f}  5xx {fivexx}")
    return 0 if stats["errors"] == 0 and stats["non_2xx"] == 0 and fivexx == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
