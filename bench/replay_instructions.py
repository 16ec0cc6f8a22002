"""Instructions a hand for replaying the same 300 two-player hands (``simulate("korean-2p", seed)``, seeds 0-299),
counted by callgrind: a measure that does not drift with the machine's load, for trying a change to the engine.

valgrind runs the replay twice, once with one more pass over the 300 hands than the other, and the difference is
divided by 300: the import, the hands' JSON and the warm-up pass drop out. Runs the engine as this interpreter
loads it (compiled when built so; ``GOSTOP_PURE=1`` for the Python sources; ``PYTHONPATH`` for another copy).
The callgrind files are kept (``--out``), for ``callgrind_annotate --inclusive=yes``.

``--part read`` counts reading each hand's body into a Log instead (``Log.from_dict``), ``--part log`` both, as
POST /v1/replay does.

    python bench/replay_instructions.py [--part replay|read|log] [--out /tmp/replay-cg]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HANDS = 300

# What a pass does to each hand: replay its pieces (the deal and the moves read on the way), read its body into a
# Log (Log.from_dict: the shape checked, the rules, the deal and the moves read), or both, as /v1/replay does.
PARTS = {
    "replay": 'engine.replay(body["players"], rules, body["deal"], body["moves"])',
    "read": "engine.Log.from_dict(body)",
    "log": "engine.Log.from_dict(body).replay()",
}

RUN = """
import json, sys
import engine
hands = json.load(open(sys.argv[1]))
rules = engine.resolve("korean-2p")
for _ in range(1 + int(sys.argv[2])):  # a warm-up pass, and the counted ones
    for body in hands:
        {part}
"""


def collected(out: Path, hands: Path, passes: int, part: str = "replay") -> int:
    """Instructions of the whole run (callgrind's "Collected")."""
    run = subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            f"--callgrind-out-file={out}",
            sys.executable,
            "-P",  # not the working folder first: PYTHONPATH picks the copy, even run from a checkout's root
            "-c",
            RUN.format(part=PARTS[part]),
            str(hands),
            str(passes),
        ],
        capture_output=True,
        env={**os.environ, "PYTHONHASHSEED": "0"},  # str hashes, and so dict probes, the same in every run
        text=True,
        check=True,
    )
    found = re.search(r"Collected : (\d+)", run.stderr)
    if found is None:
        raise SystemExit(run.stderr)
    return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "replay-cg")
    parser.add_argument("--part", choices=sorted(PARTS), default="replay", help="what is counted (PARTS)")
    args = parser.parse_args()
    from engine import COMPILED
    from engine.simulate import simulate

    args.out.mkdir(parents=True, exist_ok=True)
    hands = args.out / "hands.json"
    hands.write_text(json.dumps([simulate("korean-2p", seed).to_dict() for seed in range(HANDS)]))
    without, once = (collected(args.out / f"callgrind.{args.part}.{n}.out", hands, n, args.part) for n in (0, 1))
    build = "compiled" if COMPILED else "pure"
    per = (once - without) / HANDS / 1000
    print(f"{build}, {args.part}: {per:.1f}k instructions a hand (callgrind files in {args.out})")


if __name__ == "__main__":
    main()
