"""Helpers shared by the benchmarks: request bodies and a wrk runner (the server: hostile.serving)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SCORE_BODY = {
    "rules": "korean-2p",
    "cards": [
        "jan-bright",
        "mar-bright",
        "aug-bright",
        "feb-animal",
        "apr-animal",
        "aug-animal",
        "jan-ribbon",
        "feb-ribbon",
        "mar-ribbon",
        "jan-junk-1",
        "feb-junk-1",
        "mar-junk-1",
        "apr-junk-1",
        "may-junk-1",
        "jun-junk-1",
        "jul-junk-1",
        "nov-double",
        "dec-double",
        "sep-animal",
    ],
}
SETTLE_BODY = {
    "rules": "korean-2p",
    "players": [
        {"id": "A", "captured": SCORE_BODY["cards"], "go_count": 2, "shakes": 1},
        {"id": "B", "captured": ["may-animal", "jun-animal", "oct-junk-1", "oct-junk-2", "nov-junk-1"], "go_count": 1},
    ],
    "winner": "A",
    "nagari_streak": 1,
    "stake": 100,
}


def _replay_body() -> dict:
    """A simulated korean-2p hand in which both players play all ten cards (a full 20-turn hand)."""
    from engine.simulate import simulate

    for seed in range(1000):
        body = simulate("korean-2p", seed).to_dict()
        if sum("call" not in m for m in body["moves"]) == 20:
            return body
    raise RuntimeError("no full hand among the seeds")


REPLAY_BODY = _replay_body()


def _live_body() -> dict:
    """The page's live game (hands hidden, tests/fixtures/live-2p.json) twelve entries in: a turn due, so the
    answer's ``next`` says what the turn may ask, as every replay answer of a live game does."""
    body = json.loads((Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "live-2p.json").read_text())
    return {**body, "moves": body["moves"][:12]}


LIVE_BODY = _live_body()


def lua_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def post_script(paths_and_bodies: list[tuple[str, dict]], *, close: bool = False) -> str:
    """A wrk script that POSTs the given bodies in turn (a mix when there are several); with ``close``, each
    request asks for its connection to be closed after the answer."""
    entries = ",\n".join(f"  {{{lua_string(path)}, {lua_string(json.dumps(body))}}}" for path, body in paths_and_bodies)
    headers = '{["Content-Type"] = "application/json"' + (', ["Connection"] = "close"' if close else "") + "}"
    return (
        f"local requests = {{\n{entries}\n}}\nlocal i = 0\n"
        "request = function()\n  i = i % #requests + 1\n"
        f'  return wrk.format("POST", requests[i][1], {headers}, requests[i][2])\nend\n'
    )


def wrk(
    base: str,
    requests: list[tuple[str, dict]],
    *,
    seconds: int,
    connections: int,
    threads: int = 1,
    pause_ms: int = 0,
    close: bool = False,
) -> dict:
    """Drive the server at ``base`` with wrk, POSTing the (path, body) pairs in turn; with ``pause_ms`` each
    connection waits that long after every answer (a steady load rather than as fast as the server goes),
    with ``close`` every request comes on a new connection. Returns requests/s, latencies (ms) and error
    counts: socket errors plus answers other than 2xx, and non-2xx alone."""
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is not installed: apt-get install wrk")
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "post.lua"
        pause = f"delay = function() return {pause_ms} end\n" if pause_ms else ""
        script.write_text(post_script(requests, close=close) + pause + _DONE_LUA)
        command = [
            "wrk",
            "-t",
            str(threads),
            "-c",
            str(connections),
            "-d",
            f"{seconds}s",
            "--latency",
            "-s",
            str(script),
            base,
        ]
        out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    stats = json.loads(out.strip().splitlines()[-1])
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    stats["non_2xx"] = int(non2xx.group(1)) if non2xx else 0
    return stats


# Prints one JSON line at the end of a wrk run, so results are read without parsing wrk's report.
_DONE_LUA = """
done = function(summary, latency, requests)
  local errors = summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.status
    + summary.errors.timeout
  io.write(string.format('{"rps": %.1f, "requests": %d, "errors": %d, "p50_ms": %.3f, "p99_ms": %.3f}\\n',
    summary.requests / (summary.duration / 1e6), summary.requests, errors,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000))
end
"""
