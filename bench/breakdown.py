"""Where a request's time goes, in process (no server, no network): the bare app, then gostop whole, then
gostop with the engine's answer precomputed, then also without schema validation. The differences are the
cost of the engine plus rendering, of marshmallow validation, and of everything else gostop adds (routing
through flask-smorest, request id, metrics, access log, headers).

Usage: python bench/breakdown.py [--requests 1000] [--rounds 7]
"""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import bare_app
from common import REPLAY_BODY, SCORE_BODY, SETTLE_BODY

from service import create_app, replay, score, settlement
from service.i18n import words_for

# endpoint -> (body, request schema, the family module and the name its view calls the answer function by)
CASES: dict[str, tuple[dict[str, Any], type, Any, str]] = {
    "score": (SCORE_BODY, score.ScoreRequest, score, "score_answer"),
    "settle": (SETTLE_BODY, settlement.SettleRequest, settlement, "settle_answer"),
    "replay": (REPLAY_BODY, replay.ReplayRequest, replay, "replay_answer"),
}


def environ_factory(path: str, body: dict[str, Any]) -> Callable[[], dict[str, Any]]:
    data = json.dumps(body).encode()

    def make() -> dict[str, Any]:
        return {
            "REQUEST_METHOD": "POST",
            "PATH_INFO": path,
            "SERVER_NAME": "bench",
            "SERVER_PORT": "80",
            "SERVER_PROTOCOL": "HTTP/1.1",
            "CONTENT_TYPE": "application/json",
            "CONTENT_LENGTH": str(len(data)),
            "wsgi.url_scheme": "http",
            "wsgi.input": io.BytesIO(data),
            "wsgi.errors": sys.stderr,
        }

    return make


def per_request(app: Any, make: Callable[[], dict[str, Any]], n: int) -> float:
    def start_response(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> None:
        assert status.startswith("200"), status

    started = time.perf_counter()
    for _ in range(n):
        body = app(make(), start_response)
        b"".join(body)
        body.close()
    return (time.perf_counter() - started) / n * 1e6


@contextmanager
def patched(obj: Any, name: str, value: Any) -> Iterator[None]:
    saved = getattr(obj, name)
    setattr(obj, name, value)
    try:
        yield
    finally:
        setattr(obj, name, saved)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    os.dup2(os.open(os.devnull, os.O_WRONLY), 2)  # the access log is written, to nowhere
    app = create_app()
    print(f"{'endpoint':8} {'bare':>6} {'gostop':>7} {'engine+render':>14} {'validation':>11} {'the rest':>9}  (us)")
    for name, (body, schema_class, view_module, answer_name) in CASES.items():
        path = f"/v1/{name}"
        ours = environ_factory(path, body)
        bare = environ_factory(path, SCORE_BODY if name == "replay" else body)
        answer = getattr(view_module, answer_name)(schema_class().load(body), words_for(None))
        times: dict[str, list[float]] = {"bare": [], "whole": [], "no engine": [], "no engine, no schema": []}
        for _ in range(args.rounds):  # interleaved, and the lowest kept: noise only ever adds time
            times["bare"].append(per_request(bare_app.app, bare, args.requests))
            times["whole"].append(per_request(app, ours, args.requests))
            with patched(view_module, answer_name, lambda _body, _words, answer=answer: answer):
                times["no engine"].append(per_request(app, ours, args.requests))
                with patched(schema_class, "load", lambda _self, data, **_kw: data):
                    times["no engine, no schema"].append(per_request(app, ours, args.requests))
        b, whole, no_engine, neither = (min(times[k]) for k in times)
        print(
            f"{path:8} {b:6.0f} {whole:7.0f} {whole - no_engine:14.0f} {no_engine - neither:11.0f} {neither - b:9.0f}"
        )


if __name__ == "__main__":
    main()
