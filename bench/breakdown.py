"""Where a request's time goes, in process (no server, no network), part by part: parsing the body, validating
it, the engine, the words, the rest of the answer's JSON, encoding it, Flask, and gostop's WSGI middleware
(request id, metrics, access log, headers); then the whole request, and a bare Flask app's for scale.

Each part is timed on its own with the same body, in microseconds of this process's CPU time per request
(the machine is shared: CPU time leaves out the waits for the other processes), the garbage collector held
off, the lowest of interleaved rounds (noise only ever adds time). "words" is what the renderer spends on
sentences (the renderer timed with Words that say nothing, subtracted from it); "Flask" is the app without
the middleware and its after-request hooks (gzip), less the parts its view runs; "hooks" what those hooks add;
"middleware" the middleware without its access log (request id, metrics, headers), less the app without it;
"access log" the rest of the whole request.

    python bench/breakdown.py [--requests 1000] [--rounds 7] [--against <checkout>]

With ``--against``, another checkout (its own .venv) is timed in the same run, round by round in turn, and
the table shows both: that is how the figures of docs/speed.md compare with the commit before issue 16.
"""

from __future__ import annotations

import argparse
import gc
import io
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

PARTS = (
    "parse",
    "validate",
    "engine",
    "words",
    "json",
    "encode",
    "flask",
    "hooks",
    "middleware",
    "access log",
    "whole",
    "bare",
)
ENDPOINTS = ("score", "settle", "replay")
HERE = Path(__file__).resolve().parent


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

    def requests() -> None:
        body = app(make(), start_response)
        b"".join(body)
        getattr(body, "close", lambda: None)()  # a WSGI answer may be a plain list (the express lane's)

    return per_call(requests, n)


def per_call(func: Callable[[], Any], n: int) -> float:
    """CPU microseconds per call, the garbage collector held off: a collection falls where the allocations of
    the whole process cross a threshold, the same part in every round, not where they are made."""
    gc.collect()
    gc.disable()
    try:
        started = time.process_time()
        for _ in range(n):
            func()
        return (time.process_time() - started) / n * 1e6
    finally:
        gc.enable()


class _Layout:
    """The answer functions' parts where this checkout keeps them (the layout of issue 16, or the one before)."""

    def __init__(self) -> None:
        try:
            from service import replay, score, settlement

            self.requests = {"score": score.ScoreRequest, "settle": settlement.SettleRequest}
            self.requests["replay"] = replay.ReplayRequest
            self.score_json, self.settlement_json = score.score_json, settlement.settlement_json
            self.replay_json = replay.replay_json
            from service.catalogs import echo
            from service.loading import Loader

            self.loader = lambda schema: Loader(schema).load
        except ImportError:  # before issue 16: render.py, schemas.py
            from service import render, schemas

            self.requests = {"score": schemas.ScoreRequest, "settle": schemas.SettleRequest}
            self.requests["replay"] = schemas.ReplayRequest
            self.score_json, self.settlement_json = render.score_json, render.settlement_json
            self.replay_json = render.replay_json
            echo = render.echo
            self.loader = lambda schema: schema.load
        self.echo = echo


def _silent_words(words: Any) -> Any:
    """Words of the same language that say nothing: the renderer's time without its sentences."""
    from service.i18n import Words

    class Silent(Words):
        def say(self, message: str, /, **facts: Any) -> str:
            return ""

        def plural(self, singular: str, plural: str, n: int, /, **facts: Any) -> str:
            return ""

    silent = Silent(words.lang, words._translations)
    if hasattr(Words, "template"):  # the words of issue 16 say through templates: one that says nothing
        from service.i18n import Template

        nothing = Template("")
        silent.template = lambda message, /: nothing  # type: ignore[method-assign]
        silent.plural_template = lambda singular, plural, n, /: nothing  # type: ignore[method-assign]
    return silent


def measure(requests: int, rounds: int) -> dict[str, dict[str, float]]:
    """Every part of every endpoint, in this process: the lowest of ``rounds`` rounds."""
    # the metrics as under gunicorn: prometheus-client's multiprocess files (it reads this when it is imported)
    os.environ.setdefault("PROMETHEUS_MULTIPROC_DIR", tempfile.mkdtemp(prefix="breakdown-metrics-"))
    import bare_app
    import orjson
    from common import REPLAY_BODY, SCORE_BODY, SETTLE_BODY

    from engine import HandResult, Outcome, PlayerHand, replay, resolve, score, settle
    from service.i18n import words_for

    os.dup2(os.open(os.devnull, os.O_WRONLY), 2)  # the access log is written, to nowhere
    from service.wsgi import app  # the app as gunicorn loads it

    observed = app.wsgi_app
    inner = observed.wsgi_app  # the Flask app without gostop's middleware
    hooks = app.after_request_funcs.get(None, [])  # the after-request hooks (gzip)
    unlogged = type(observed)(inner, observed.extra_headers, None)  # the middleware without its access log

    def without_hooks(make: Callable[[], dict[str, Any]]) -> float:
        saved = list(hooks)
        hooks.clear()
        try:
            return per_request(inner, make, requests)
        finally:
            hooks.extend(saved)

    layout = _Layout()
    words = words_for(None)
    silent = _silent_words(words)
    bodies = {"score": SCORE_BODY, "settle": SETTLE_BODY, "replay": REPLAY_BODY}

    def engine_call(name: str, body: dict[str, Any]) -> Callable[[], Any]:
        if name == "score":
            return lambda: score(body["cards"], resolve(body["rules"]), sep_animal_as=body["sep_animal_as"])
        if name == "settle":

            def settled() -> Any:
                players = body["players"]
                hand = HandResult(
                    players=tuple(
                        PlayerHand(p["id"], p["captured"], p["go_count"], p["shakes"], p["bombs"], p["sep_animal_as"])
                        for p in players
                    ),
                    winner=body["winner"],
                    outcome=body["outcome"] or (Outcome.STOP if body["winner"] is not None else Outcome.NAGARI),
                    nagari_streak=body["nagari_streak"],
                    stake=body["stake"],
                    last_go=body["last_go"],
                )
                return settle(hand, resolve(body["rules"], players=len(players)))

            return settled
        players, deal, moves = body["players"], body["deal"], body["moves"]
        return lambda: replay(players, resolve(body["rules"], players=len(players)), deal, moves)

    def render(name: str, result: Any, w: Any, rules: Any) -> Callable[[], Any]:
        if name == "score":
            return lambda: {**layout.score_json(w, result), **layout.echo(rules)}
        if name == "settle":
            return lambda: {**layout.settlement_json(w, result), **layout.echo(rules)}
        return lambda: {**layout.replay_json(w, result, nagari_streak=0, stake=1), **layout.echo(rules)}

    best: dict[str, dict[str, float]] = {name: {} for name in ENDPOINTS}
    for _ in range(rounds):
        for name in ENDPOINTS:
            body = bodies[name]
            raw = orjson.dumps(body)
            schema = layout.requests[name]()
            load = layout.loader(schema)  # what the endpoint validates a body with
            loaded = load(body)
            result = engine_call(name, loaded)()
            rules = resolve(loaded["rules"], players=len(loaded["players"]) if "players" in loaded else None)
            answer = render(name, result, words, rules)()
            times = {
                "parse": per_call(lambda raw=raw: orjson.loads(raw), requests),
                "validate": per_call(lambda load=load, body=body: load(body), requests),
                "engine": per_call(engine_call(name, loaded), requests),
                "render": per_call(render(name, result, words, rules), requests),
                "silent": per_call(render(name, result, silent, rules), requests),
                "encode": per_call(lambda answer=answer: orjson.dumps(answer), requests),
                "inner": per_request(inner, environ_factory(f"/v1/{name}", body), requests),
                "bare_flask": without_hooks(environ_factory(f"/v1/{name}", body)),
                "unlogged": per_request(unlogged, environ_factory(f"/v1/{name}", body), requests),
                "whole": per_request(app, environ_factory(f"/v1/{name}", body), requests),
                "bare": per_request(bare_app.app, environ_factory(f"/v1/{name}", SCORE_BODY), requests),
            }
            for part, value in times.items():
                best[name][part] = min(best[name].get(part, value), value)
    out: dict[str, dict[str, float]] = {}
    for name, t in best.items():
        view = t["parse"] + t["validate"] + t["engine"] + t["render"] + t["encode"]
        out[name] = {
            "parse": t["parse"],
            "validate": t["validate"],
            "engine": t["engine"],
            "words": t["render"] - t["silent"],
            "json": t["silent"],
            "encode": t["encode"],
            "flask": t["bare_flask"] - view,
            "hooks": t["inner"] - t["bare_flask"],
            "middleware": t["unlogged"] - t["inner"],
            "access log": t["whole"] - t["unlogged"],
            "whole": t["whole"],
            "bare": t["bare"],
        }
    return out


def _table(columns: dict[str, dict[str, dict[str, float]]]) -> str:
    lines = []
    for name in ENDPOINTS:
        heads = "".join(f"{label:>12}" for label in columns)
        lines.append(f"POST /v1/{name} (us){heads}")
        for part in PARTS:
            lines.append(f"  {part:20}" + "".join(f"{c[name][part]:12.1f}" for c in columns.values()))
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--against", type=Path, help="another checkout with its own .venv, timed in turn")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)  # one round, as JSON (--against)
    args = parser.parse_args()
    if args.json:
        print(json.dumps(measure(args.requests, args.rounds)))
        return
    if args.against is None:
        print(_table({"this": measure(args.requests, args.rounds)}))
        return
    checkouts = {"before": args.against.resolve(), "after": HERE.parent}
    best: dict[str, dict[str, dict[str, float]]] = {}
    for _ in range(args.rounds):  # one round of each checkout in turn, each in a fresh process
        for label, root in checkouts.items():
            python = root / ".venv" / "bin" / "python"
            # this file, run so that everything it imports is the checkout's own: not as a script, whose folder
            # (and its common.py, which puts its own checkout first) would come first on the path
            run = f"import runpy; runpy.run_path({str(Path(__file__))!r}, run_name='__main__')"
            command = [str(python), "-c", run, "--json", "--requests", str(args.requests), "--rounds", "1"]
            env = {**os.environ, "PYTHONPATH": f"{root}:{root / 'bench'}"}
            done = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True, check=True)
            got = json.loads(done.stdout)
            mine = best.setdefault(label, got)
            for name in ENDPOINTS:
                for part in PARTS:
                    mine[name][part] = min(mine[name][part], got[name][part])
    print(_table(best))


if __name__ == "__main__":
    main()
