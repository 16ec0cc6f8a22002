"""The reliability pass of issue 30, on loopback and bounded in time (about 40 s): one server as `make run`
starts it (two workers), wrk's steady load of score/settle/replay throughout, and beside it a client sending
bad bodies and crafted headers in turn; a kill -9 of a worker, a SIGHUP and at the end a SIGTERM. The last
lines are the figures (docs/hardening.md); exits non-zero on any 5xx or a traceback in the log.

Usage: python bench/harden.py [--seconds 30]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

from common import REPLAY_BODY, SCORE_BODY, SETTLE_BODY, wrk
from hostile import http_request, read_response, server_errors

from gostop.server import HOST, Server

BODIES = [("/v1/score", SCORE_BODY), ("/v1/settle", SETTLE_BODY), ("/v1/replay", REPLAY_BODY)]
PAIR = [{"id": "A"}, {"id": "B"}]
RICH = {"id": "A", "go_count": 14, "declared": {"points": 21, "brights": 5, "animals": 3, "junk_units": 10}}
POOR = {"id": "B", "declared": {"ribbons": 1, "junk_units": 6}}


def _json(path: str, body: object, **headers: str) -> bytes:
    return http_request("POST", path, body, {"Content-Type": "application/json", **headers})


def _raw(method: str, path: str, body: bytes = b"", **headers: str) -> bytes:
    head = [f"{method} {path} HTTP/1.1", f"Host: {headers.pop('Host', 'gostop')}"]
    if body or method == "POST":
        head.append(f"Content-Length: {len(body)}")
    head += [f"{k.replace('_', '-')}: {v}" for k, v in headers.items()]
    return ("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + body


# name: request (each sent again and again, one at a time, on its own connection)
CRAFTED: dict[str, bytes] = {
    "money past 2^53": _json(
        "/v1/settle", {"players": [RICH, POOR], "winner": "A", "stake": 10**9, "nagari_streak": 20}
    ),
    "64 nagari hands": _json(
        "/v1/evening", {"people": ["A", "B"], "hands": [{"settle": {"players": PAIR, "winner": None}}] * 64}
    ),
    "no winner": _json("/v1/settle", {"players": PAIR}),
    "push 'yes'": _json(
        "/v1/evening", {"people": ["A", "B"], "hands": [{"settle": {"players": PAIR, "winner": None}, "push": "yes"}]}
    ),
    "rain 0.0": _json("/v1/settle", {"players": [{"id": "A", "declared": {"rain": 0.0}}, {"id": "B"}], "winner": None}),
    "body with a BOM": _raw("POST", "/v1/score", b'\xef\xbb\xbf{"cards": []}', Content_Type="application/json"),
    "Accept-Encoding garbage": _raw("GET", "/v1/cards", Accept_Encoding="gzip;q=x, *;q=" + "9" * 500),
    "made-up method": _raw("BREW", "/v1/score"),
    "Host: evil.example, //": _raw("GET", "/v1//cards", Host="evil.example"),
    "Prefer garbage, ?view=x": _json("/v1/replay?view=x", REPLAY_BODY, Prefer="return=" + "m" * 300),
    "lean replay": _json("/v1/replay?view=lean", REPLAY_BODY, Accept_Encoding="gzip"),
    "nested 5000 deep": _raw("POST", "/v1/score", b"[" * 5000 + b"]" * 5000, Content_Type="application/json"),
    "not UTF-8": _raw("POST", "/v1/score", b'{"cards": ["\xff"]}', Content_Type="application/json"),
    "text log of quotes": _raw("POST", "/v1/replay", b'"' * 60_000, Content_Type="text/plain; charset=utf-8"),
    "header over 4 KB": _raw("GET", "/healthz", X_Pad="a" * 5000),
}


def _many_accept_language() -> bytes:
    """39 Accept-Language lines of 4 KB (inside the limits: 40 lines of 4096 bytes), which the server joins."""
    lines = [f"Accept-Language: {'x' * 4000}" for _ in range(38)]
    return ("\r\n".join(["GET /v1/cards HTTP/1.1", "Host: gostop", *lines]) + "\r\n\r\n").encode()


CRAFTED["38 Accept-Language lines of 4 KB"] = _many_accept_language()


async def _send(port: int, request: bytes) -> int:
    reader, writer = await asyncio.open_connection(HOST, port)
    try:
        writer.write(request)
        await writer.drain()
        response = await asyncio.wait_for(read_response(reader), 10)
        return response.status if response is not None else 0
    except (OSError, TimeoutError, asyncio.IncompleteReadError):
        return -1
    finally:
        writer.close()


async def crafted(port: int, until: float, seen: dict[str, Counter[int]]) -> None:
    while time.monotonic() < until:
        for name, request in CRAFTED.items():
            seen.setdefault(name, Counter())[await _send(port, request)] += 1


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=int, default=30)
    args = parser.parse_args()
    seconds = args.seconds
    log = Path(tempfile.mkdtemp(prefix="gostop-harden-")) / "server.log"
    seen: dict[str, Counter[int]] = {}
    events: list[str] = []
    with Server({"WORKERS": "2"}, log) as srv:
        load: dict[str, object] = {}

        def steady() -> None:
            load.update(wrk(srv.url, BODIES, seconds=seconds, connections=16, threads=2, pause_ms=20))

        runner = threading.Thread(target=steady)
        runner.start()
        faults = threading.Thread(target=asyncio.run, args=(crafted(srv.port, time.monotonic() + seconds, seen),))
        faults.start()
        time.sleep(seconds / 3)
        victim = max(srv.workers())
        os.kill(victim, signal.SIGKILL)
        events.append(f"kill -9 of worker {victim} at {seconds / 3:.0f} s")
        time.sleep(seconds / 3)
        assert srv.proc is not None
        srv.proc.send_signal(signal.SIGHUP)
        events.append(f"SIGHUP at {2 * seconds / 3:.0f} s")
        runner.join()
        faults.join()
        errors = server_errors(srv)
        srv.proc.send_signal(signal.SIGTERM)
        code = srv.proc.wait(timeout=60)
        events.append(f"SIGTERM after the load: exit {code}")
    text = log.read_text(encoding="utf-8", errors="replace")
    five = {name: n for name, counts in seen.items() for status, n in counts.items() if status >= 500}
    lost = {name: n for name, counts in seen.items() for status, n in counts.items() if status <= 0}
    print(json.dumps({name: dict(counts) for name, counts in seen.items()}, indent=1))
    print(f"steady load (wrk, 16 connections, 20 ms pause, {seconds} s): {json.dumps(load)}")
    print("; ".join(events))
    print(
        f"crafted requests: {sum(sum(c.values()) for c in seen.values())} sent, 5xx {five or 0}, "
        f"unanswered {lost or 0}; /metrics counted {errors} 5xx; traceback in the log: {'Traceback' in text}"
    )
    return 1 if five or errors or "Traceback" in text or code != 0 else 0


if __name__ == "__main__":
    sys.exit(main())
