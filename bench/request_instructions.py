"""Instructions a request, counted by callgrind: POST /v1/score, /v1/settle, /v1/replay (full and lean) through
gostop's WSGI app in process, a live game's replay (hands hidden: ``live``), and the bare app's request, a
measure that does not drift with the machine's load.

The requests are made by ``collections.deque(map(...), maxlen=0)`` under ``--toggle-collect`` on deque's
constructor, so callgrind counts only them: not the import, the app's start-up or the warm-up requests before.
Each endpoint runs in its own valgrind, ``--requests`` counted after as many uncounted.

    python bench/request_instructions.py [--requests 50] [--only score,lean] [--out /tmp/request-cg]
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent

RUN = """
import collections, os, sys
sys.path.insert(0, {bench!r})
from breakdown import environ_factory
from common import LIVE_BODY, REPLAY_BODY, SCORE_BODY, SETTLE_BODY
os.dup2(os.open(os.devnull, os.O_WRONLY), 2)  # the access log is written, to nowhere
name, n = sys.argv[1], int(sys.argv[2])
if name == "bare":
    from bare_app import app
else:
    from service.wsgi import app
path, body, query = {{
    "score": ("/v1/score", SCORE_BODY, ""), "settle": ("/v1/settle", SETTLE_BODY, ""),
    "replay": ("/v1/replay", REPLAY_BODY, ""), "lean": ("/v1/replay", REPLAY_BODY, "view=lean"),
    "bare": ("/v1/score", SCORE_BODY, ""), "live": ("/v1/replay", LIVE_BODY, ""),
}}[name]
make = environ_factory(path, body)
def start_response(status, headers, exc_info=None):
    assert status.startswith("200"), status
def one(_):
    environ = make()
    environ["QUERY_STRING"] = query
    answer = app(environ, start_response)
    b"".join(answer)
    getattr(answer, "close", lambda: None)()
for _ in range(n):
    one(None)
collections.deque(map(one, range(n)), maxlen=0)
"""

CASES = ("score", "settle", "replay", "lean", "bare", "live")


def count(name: str, requests: int, out: Path) -> int:
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as script:
        script.write(RUN.format(bench=str(HERE)))
    run = subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            "--collect-atstart=no",
            "--toggle-collect=deque_init",
            f"--callgrind-out-file={out / f'{name}.cg'}",
            sys.executable,
            script.name,
            name,
            str(requests),
        ],
        capture_output=True,
        env={**os.environ, "PYTHONHASHSEED": "0"},  # str hashes, and so dict probes, the same in every run
        text=True,
        check=True,
    )
    return int(re.search(r"Collected : (\d+)", run.stderr).group(1))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=50)
    parser.add_argument("--only", default=",".join(CASES))
    parser.add_argument("--out", type=Path, default=Path(tempfile.mkdtemp(prefix="request-cg-")))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    counts = {name: count(name, args.requests, args.out) / args.requests for name in args.only.split(",")}
    for name, per in counts.items():
        print(f"{name:8} {per / 1000:8.1f}k instructions a request")
    print(f"(callgrind files in {args.out})")


if __name__ == "__main__":
    main()
