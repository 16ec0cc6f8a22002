"""Instructions a hand for replaying the same 300 two-player hands (``simulate("korean-2p", seed)``, seeds 0-299),
counted by callgrind: a measure that does not drift with the machine's load, for trying a change to the engine.

valgrind runs the replay twice, once with one more pass over the 300 hands than the other, and the difference is
divided by 300: the import, the hands' JSON and the warm-up pass drop out. Runs the engine as this interpreter
loads it (compiled when built so; ``GOSTOP_PURE=1`` for the Python sources; ``PYTHONPATH`` for another copy).
The callgrind files are kept (``--out``), for ``callgrind_annotate --inclusive=yes``.

    python bench/replay_instructions.py [--out /tmp/replay-cg]
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HANDS = 300

RUN = """
import json, sys
import engine
hands = json.load(open(sys.argv[1]))
rules = engine.resolve("korean-2p")
for _ in range(1 + int(sys.argv[2])):  # a warm-up pass, and the counted ones
    for body in hands:
        engine.replay(body["players"], rules, body["deal"], body["moves"])
"""


def collected(out: Path, hands: Path, passes: int) -> int:
    """Instructions of the whole run (callgrind's "Collected")."""
    run = subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            f"--callgrind-out-file={out}",
            sys.executable,
            "-c",
            RUN,
            str(hands),
            str(passes),
        ],
        capture_output=True,
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
    args = parser.parse_args()
    from engine import COMPILED
    from engine.simulate import simulate

    args.out.mkdir(parents=True, exist_ok=True)
    hands = args.out / "hands.json"
    hands.write_text(json.dumps([simulate("korean-2p", seed).to_dict() for seed in range(HANDS)]))  # a Log: its body
    without, once = (collected(args.out / f"callgrind.{n}.out", hands, n) for n in (0, 1))
    build = "compiled" if COMPILED else "pure"
    print(f"{build}: {(once - without) / HANDS / 1000:.1f}k instructions a hand (callgrind files in {args.out})")


if __name__ == "__main__":
    main()
