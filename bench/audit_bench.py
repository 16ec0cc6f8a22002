"""Hands audited a second by `gostop audit`, on this machine's cores and on a two-worker Dask cluster, beside the
engine alone; and the audit's memory on a million lines.

The archive is --hands simulated hands (korean-2p and korean-3p, from `python -m engine.simulate --jsonl`)
repeated under new ids to --lines lines, gzip. Measured side by side, in interleaved rounds (best of each kept,
since noise on a shared machine only ever adds time):

- the engine alone: this process parses each line with orjson and replays it (engine.replay, settled), one
  core: the most any audit can do per core;
- `gostop audit --jobs 1`: one process reads and audits (the audit's own cost is the gap to the engine);
- `gostop audit`: every core (--jobs 2 here: the parent reads while two processes replay);
- `gostop audit --scheduler`: a Dask scheduler and two one-thread workers on loopback (gostop.cluster).

Each audit is the console script as a user runs it, start-up included; its figure is the hands a second of
its own summary, and the wall time of the command is shown beside it. Then the memory: the peak resident size
of the audit's processes (the parent and its workers, summed, sampled every 20 ms from /proc) on
--memory-lines lines and on a tenth of them.

Usage: python bench/audit_bench.py [--hands 2000] [--lines 40000] [--rounds 3] [--memory-lines 1000000]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import zlib
from pathlib import Path

import orjson

import engine
from engine import replay, resolve
from gostop.cluster import DaskCluster
from gostop.server import children

GOSTOP = str(Path(sys.executable).with_name("gostop"))


def simulated(hands: int) -> list[bytes]:
    lines: list[bytes] = []
    for preset, count in (("korean-2p", hands - hands // 2), ("korean-3p", hands // 2)):
        # engine.simulate's command line, called rather than run with -m (a compiled module has no code to run)
        call = "from engine.simulate import main; main()"
        command = [sys.executable, "-c", call, "--preset", preset, "--count", str(count), "--jsonl"]
        lines += subprocess.run(command, capture_output=True, check=True).stdout.splitlines()
    return lines


def write_archive(path: Path, hands: list[bytes], lines: int) -> None:
    """``lines`` lines, the hands over and over, each copy's ids made new; gzip (fast level)."""
    deflate = zlib.compressobj(1, wbits=31)
    with open(path, "wb") as out:
        written, copy = 0, 0
        while written < lines:
            block = [line.replace(b'{"id":"', b'{"id":"%d-' % copy, 1) for line in hands[: lines - written]]
            out.write(deflate.compress(b"\n".join(block) + b"\n"))
            written += len(block)
            copy += 1
        out.write(deflate.flush())


def engine_alone(hands: list[bytes]) -> float:
    """Hands a second: parse and replay each line in this process."""
    started = time.perf_counter()
    for line in hands:
        body = orjson.loads(line)
        players = body["players"]
        replay(players, resolve(body.get("rules"), players=len(players)), body["deal"], body["moves"])
    return len(hands) / (time.perf_counter() - started)


def audit(archive: Path, *options: str) -> tuple[float, float]:
    """(hands a second by the audit's own summary, wall seconds of the command)."""
    started = time.perf_counter()
    done = subprocess.run([GOSTOP, "audit", str(archive), "--json", *options], capture_output=True, check=False)
    wall = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"gostop audit {options} failed ({done.returncode}):\n{done.stderr.decode()[-2000:]}")
    summary = json.loads(done.stdout.splitlines()[-1])
    return float(summary["hands_per_second"]), wall


def _rss_kib(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def _tree(pid: int) -> list[int]:
    found = [pid]
    for child in children(pid):
        found += _tree(child)
    return found


def peak_memory(archive: Path) -> tuple[int, float]:
    """(peak resident KiB of the audit's processes summed, seconds) for `gostop audit` of ``archive``."""
    started = time.perf_counter()
    proc = subprocess.Popen([GOSTOP, "audit", str(archive), "--out", os.devnull], stdout=subprocess.DEVNULL)
    peak = 0

    def watch() -> None:
        nonlocal peak
        while proc.poll() is None:
            peak = max(peak, sum(_rss_kib(p) for p in _tree(proc.pid)))
            time.sleep(0.02)

    watcher = threading.Thread(target=watch)
    watcher.start()
    proc.wait()
    watcher.join()
    return peak, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=2000, help="distinct simulated hands")
    parser.add_argument("--lines", type=int, default=40_000, help="lines of the archive timed")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--memory-lines", type=int, default=1_000_000, help="0: skip the memory runs")
    args = parser.parse_args()
    # engine.COMPILED says which build runs; without it, a compiled engine is told by its extension module
    build = "compiled" if getattr(engine, "COMPILED", not str(engine.__file__).endswith(".py")) else "pure"
    cores = len(os.sched_getaffinity(0))
    print(f"engine build: {build}; {cores} cores; {args.lines:,} lines from {args.hands:,} simulated hands, gzip")
    hands = simulated(args.hands)
    with tempfile.TemporaryDirectory() as tmp, DaskCluster(workers=2, log_dir=Path(tmp)) as cluster:
        archive = Path(tmp) / "archive.jsonl.gz"
        write_archive(archive, hands, args.lines)
        cases = {
            "engine alone, this process (1 core)": lambda: (engine_alone(hands), 0.0),
            "gostop audit --jobs 1": lambda: audit(archive, "--jobs", "1", "--quiet"),
            f"gostop audit (--jobs {cores}, every core)": lambda: audit(archive, "--quiet"),
            "gostop audit --scheduler (Dask, 2 workers)": lambda: audit(archive, "--scheduler", cluster.address),
        }
        best = {name: (0.0, 0.0) for name in cases}
        for _ in range(args.rounds):
            for name, run in cases.items():
                rate, wall = run()
                if rate > best[name][0]:
                    best[name] = (rate, wall)
        floor = best["engine alone, this process (1 core)"][0]
        print(f"{'':46} {'hands/s':>9} {'x engine/core':>14} {'command wall s':>15}")
        for name, (rate, wall) in best.items():
            print(f"{name:46} {rate:9,.0f} {rate / floor:14.2f} {wall:15.2f}")
        if args.memory_lines:
            for lines in (args.memory_lines // 10, args.memory_lines):
                path = Path(tmp) / f"memory-{lines}.jsonl.gz"
                write_archive(path, hands, lines)
                peak, seconds = peak_memory(path)
                path.unlink()
                print(
                    f"memory: {lines:>9,} lines  peak resident {peak / 1024:6.1f} MiB (all processes)  {seconds:6.1f} s"
                )


if __name__ == "__main__":
    main()
