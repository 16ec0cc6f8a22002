"""Hands audited a second by `gostop audit`, on this machine's cores and on a two-worker Dask cluster, beside the
engine alone; and the audit's memory on a million lines.

The archive is --hands simulated hands (korean-2p and korean-3p, from `python -m engine.simulate --jsonl`)
repeated under new ids to --lines lines, gzip. Measured side by side, in interleaved rounds (best of each kept,
since noise on a shared machine only ever adds time):

- the engine alone: this process parses each line with orjson and replays it (engine.replay, settled), one
  core: the most any audit can do per core;
- `gostop audit --jobs 1`: one process reads and audits (the audit's own cost is the gap to the engine);
- the engine alone on every core at once (a forked process a core): what a core can do while the others work;
- `gostop audit`: every core (--jobs 2 here: the parent reads while two processes replay), on the gzip archive
  and on the same lines plain (whose batches the workers read themselves, by place);
- `gostop audit --scheduler`: a Dask scheduler and two one-thread workers on loopback (gostop.cluster), on both.

Each audit is the console script as a user runs it, start-up included; its figure is the hands a second of
its own summary, with the wall time of the command beside it. On a machine shared with other work those
rates swing, so the CPU time every process of the run spent (the command's, its workers', and for Dask the
scheduler's and workers' while it ran; sampled every 50 ms from /proc) is given per hand too: that is what
the audit costs beyond the engine, whatever else the machine is doing (for Dask, less the cluster's idle
CPU, measured before the rounds, times the run's wall time). The last column is the engine's CPU a hand over
the audit's, each round's audit against the same round's engine: the audit's speed per core against the
engine alone's, whatever the load. Before the table,
where the CPU goes, each part timed alone in this process (``breakdown``; ``--parts-only`` for just that).
Then the memory: the peak resident size of the audit's processes, summed, on --memory-lines lines and on a
tenth of them.

Usage: python bench/audit_bench.py [--hands 4000] [--lines 40000] [--rounds 3] [--memory-lines 1000000]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import zlib
from collections.abc import Callable
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


def engine_alone(hands: list[bytes], times: int = 1) -> tuple[float, float, float]:
    """(hands a second, wall seconds, CPU microseconds a hand): parse and replay each line in this process,
    ``times`` over (as many hands as the audit's archive holds: a run as long as the audit's, which a noisy
    machine swings less)."""
    started, cpu = time.perf_counter(), time.process_time()
    for _ in range(times):
        for line in hands:
            body = orjson.loads(line)
            players = body["players"]
            replay(players, resolve(body.get("rules"), players=len(players)), body["deal"], body["moves"])
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu
    return times * len(hands) / wall, wall, cpu / (times * len(hands)) * 1e6


def engine_every_core(hands: list[bytes], cores: int, times: int = 1) -> tuple[float, float, float]:
    """The engine alone on every core at once (``cores`` forked processes, each parsing and replaying every
    line): (hands a second over all of them, wall seconds, CPU microseconds a hand). On cores that share
    caches, as these do, a process replays a little slower beside another than alone: this is the most any
    audit can do per core when every core works."""
    started = time.perf_counter()
    pids = []
    for _ in range(cores):
        pid = os.fork()
        if pid == 0:
            try:
                engine_alone(hands, times)
            finally:
                os._exit(0)
        pids.append(pid)
    cpu = 0.0
    for pid in pids:
        _, _, usage = os.wait4(pid, 0)
        cpu += usage.ru_utime + usage.ru_stime
    wall = time.perf_counter() - started
    return cores * times * len(hands) / wall, wall, cpu / (cores * times * len(hands)) * 1e6


def breakdown(hands: list[bytes], archive: Path, batch: int = 200) -> dict[str, float]:
    """Where an audit's CPU goes, in microseconds a hand, each part timed alone in this process (CPU time):
    the parent reading the gzip archive and cutting it into batches, shipping a batch to a worker and its
    result back (pickled, as a process pool or Dask sends them), and in the worker decoding the line,
    checking its shape and recorded payments, the engine's replay, and the whole of audit_batch."""
    import pickle

    from gostop import audit as auditing

    def cpu_per_hand(work: Callable[[], object], count: int) -> float:
        best = float("inf")
        for _ in range(3):  # the least of three: what a part costs with warm caches
            started = time.process_time()
            work()
            best = min(best, time.process_time() - started)
        return best / count * 1e6

    lines = sum(1 for _ in auditing._work([str(archive)], batch, auditing._Reading(0), "en"))  # warm the cache
    del lines
    reading = auditing._Reading(total=archive.stat().st_size)
    batches = [b for b in auditing._work([str(archive)], batch, reading, "en") if isinstance(b, auditing.Batch)]
    count = sum(b.data.count(b"\n") + 1 for b in batches)
    parts: dict[str, float] = {}
    parts["reading: gunzip, lines, batches (parent)"] = cpu_per_hand(
        lambda: [None for _ in auditing._work([str(archive)], batch, auditing._Reading(0), "en")], count
    )
    parts["shipping: a batch out, pickled and unpickled"] = cpu_per_hand(
        lambda: [pickle.loads(pickle.dumps((auditing.audit_batch, *b, "en"))) for b in batches], count
    )
    sample = hands * max(1, 4000 // len(hands))

    def decoding() -> None:
        for line in sample:  # each body dropped at once, as the worker does (a list of them all costs more)
            orjson.loads(line)

    parts["decoding: orjson.loads"] = cpu_per_hand(decoding, len(sample))

    def checks() -> None:
        for line in sample:
            body = orjson.loads(line)
            body.pop("id")
            auditing.read_recorded(body.pop("recorded", None))

    parts["checks: id, recorded (with decoding)"] = cpu_per_hand(checks, len(sample))

    def read() -> None:
        for line in sample:
            body = orjson.loads(line)
            body.pop("id")
            body.pop("recorded", None)
            engine.Log.from_dict(body)

    parts["reading: Log.from_dict, the shape checked (with decoding)"] = cpu_per_hand(read, len(sample))
    parts["audit_line: decoding, checks, engine, payments"] = cpu_per_hand(
        lambda: [auditing.audit_line(line) for line in sample], len(sample)
    )
    parts["engine: decode, resolve, replay (the engine alone)"] = cpu_per_hand(
        lambda: engine_alone(sample), len(sample)
    )
    results = [auditing.audit_batch("a", 1, b"\n".join(sample[i : i + batch])) for i in range(0, len(sample), batch)]
    parts["audit_batch: the worker's whole work"] = cpu_per_hand(
        lambda: [auditing.audit_batch("a", 1, b"\n".join(sample[i : i + batch])) for i in range(0, len(sample), batch)],
        len(sample),
    )
    parts["shipping: results back, pickled and unpickled"] = cpu_per_hand(
        lambda: [pickle.loads(pickle.dumps(r)) for r in results], len(sample)
    )
    seen = auditing._Seen()
    ids = [orjson.loads(line)["id"] for line in sample]
    parts["duplicates: the parent's id table"] = cpu_per_hand(lambda: seen.seen_before(list(enumerate(ids))), len(ids))
    return parts


def _proc(pid: int, field: str) -> int:
    """VmRSS (KiB) or the CPU ticks (user + system) of a process, 0 once it is gone."""
    try:
        if field == "rss":
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
            return 0
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])
    except OSError:
        return 0


def _tree(pid: int) -> list[int]:
    found = [pid]
    for child in children(pid):
        found += _tree(child)
    return found


class Watch:
    """The processes of a command (and ``others``, e.g. a cluster's), sampled every 50 ms from /proc: their
    peak resident size summed, and the CPU each used while watched (its last sample before it exited)."""

    def __init__(self, command: list[str], others: list[int], env: dict[str, str] | None = None) -> None:
        self.command, self.others, self.env = command, others, env
        self.before = {pid: _proc(pid, "cpu") for pid in others}
        self.cpu: dict[int, int] = {}
        self.peak = 0

    def run(self) -> tuple[bytes, float]:
        """Run the command; its stdout and wall seconds."""
        started = time.perf_counter()
        proc = subprocess.Popen(self.command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=self.env)
        watcher = threading.Thread(target=self._watch, args=(proc,))
        watcher.start()
        out, err = proc.communicate()
        watcher.join()
        if proc.returncode not in (0, 1):
            raise SystemExit(f"{' '.join(self.command)} failed ({proc.returncode}):\n{err.decode()[-2000:]}")
        for pid in self.others:
            self.cpu[pid] = _proc(pid, "cpu")
        return out, time.perf_counter() - started

    def _watch(self, proc: subprocess.Popen[bytes]) -> None:
        while proc.poll() is None:
            pids = _tree(proc.pid)
            self.peak = max(self.peak, sum(_proc(p, "rss") for p in pids))
            for pid in pids:
                self.cpu[pid] = max(self.cpu.get(pid, 0), _proc(pid, "cpu"))
            time.sleep(0.05)

    def cpu_seconds(self) -> float:
        ticks = sum(used - self.before.get(pid, 0) for pid, used in self.cpu.items())
        return ticks / os.sysconf("SC_CLK_TCK")


def audit(
    archive: Path, *options: str, others: list[int] | None = None, idle: float = 0.0, root: Path | None = None
) -> tuple[float, float, float]:
    """(hands a second by the audit's own summary, wall seconds, CPU microseconds a hand over every process
    that worked: the command's own and ``others``, less what ``others`` spend idle (``idle`` CPU seconds a
    second, times the wall time): a Dask scheduler and its workers spend a few percent of a core on their
    heartbeats whatever they do, which on a loaded machine, where a run takes long, would be counted as the
    audit's). ``root``: another checkout's gostop (on the path before this one)."""
    # as an installed package runs: its bytecode cached (the first run writes it), whatever this shell says
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    if root is not None:
        env["PYTHONPATH"] = str(root)
    watch = Watch([GOSTOP, "audit", str(archive), "--json", *options], others or [], env)
    out, wall = watch.run()
    summary = json.loads(out.splitlines()[-1])
    return float(summary["hands_per_second"]), wall, (watch.cpu_seconds() - idle * wall) / summary["hands"] * 1e6


def idle_cpu(pids: list[int], seconds: float = 5.0) -> float:
    """CPU seconds a second the processes spend doing nothing (a Dask cluster's heartbeats)."""
    before = sum(_proc(pid, "cpu") for pid in pids)
    time.sleep(seconds)
    return (sum(_proc(pid, "cpu") for pid in pids) - before) / os.sysconf("SC_CLK_TCK") / seconds


def peak_memory(archive: Path) -> tuple[int, float]:
    """(peak resident KiB of the audit's processes summed, seconds) for `gostop audit` of ``archive``."""
    watch = Watch([GOSTOP, "audit", str(archive), "--out", os.devnull], [])
    _, wall = watch.run()
    return watch.peak, wall


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=4000, help="distinct simulated hands")
    parser.add_argument("--lines", type=int, default=40_000, help="lines of the archive timed")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--memory-lines", type=int, default=1_000_000, help="0: skip the memory runs")
    parser.add_argument("--parts-only", action="store_true", help="only where the CPU goes, no audit run")
    parser.add_argument("--against", type=Path, help="another checkout: its audit on every core, in turn")
    parser.add_argument("--no-dask", action="store_true", help="leave the Dask cluster out")
    args = parser.parse_args()
    # engine.COMPILED says which build runs; without it, a compiled engine is told by its extension module
    build = "compiled" if getattr(engine, "COMPILED", not str(engine.__file__).endswith(".py")) else "pure"
    cores = len(os.sched_getaffinity(0))
    print(f"engine build: {build}; {cores} cores; {args.lines:,} lines from {args.hands:,} simulated hands")
    hands = simulated(args.hands)
    if args.parts_only:
        with tempfile.TemporaryDirectory() as tmp:
            archive = Path(tmp) / "archive.jsonl.gz"
            write_archive(archive, hands, args.lines)
            for part, cost in breakdown(hands, archive).items():
                print(f"  {part:52} {cost:8.1f}")
        return
    with tempfile.TemporaryDirectory() as tmp, DaskCluster(workers=2, log_dir=Path(tmp)) as cluster:
        archive = Path(tmp) / "archive.jsonl.gz"
        write_archive(archive, hands, args.lines)
        plain = Path(tmp) / "archive.jsonl"  # the same lines, not compressed: workers read their batches themselves
        with open(archive, "rb") as zipped, open(plain, "wb") as out:
            out.write(zlib.decompress(zipped.read(), wbits=31))
        times = max(1, args.lines // len(hands))
        cluster_pids = [p.pid for p in (cluster.scheduler, *cluster.workers) if p is not None]
        idle = idle_cpu(cluster_pids)
        print(f"the Dask cluster idle: {idle:.3f} CPU seconds a second (left out of its CPU a hand)")
        cases = {
            "engine alone, this process (1 core)": lambda: engine_alone(hands, times),
            f"engine alone on every core at once ({cores})": lambda: engine_every_core(hands, cores, times),
            "gostop audit --jobs 1": lambda: audit(archive, "--jobs", "1", "--quiet"),
            f"gostop audit (--jobs {cores}, every core)": lambda: audit(archive, "--quiet"),
            f"gostop audit (--jobs {cores}, every core), plain": lambda: audit(plain, "--quiet"),
            "gostop audit --scheduler (Dask, 2 workers)": lambda: audit(
                archive, "--scheduler", cluster.address, others=cluster_pids, idle=idle
            ),
            "gostop audit --scheduler (Dask, 2 workers), plain": lambda: audit(
                plain, "--scheduler", cluster.address, others=cluster_pids, idle=idle
            ),
        }
        if args.no_dask:
            cases = {name: run for name, run in cases.items() if "Dask" not in name}
        if args.against is not None:
            cases[f"--against: audit --jobs {cores}, every core"] = lambda: audit(
                archive, "--quiet", root=args.against.resolve()
            )
            cases[f"--against: audit --jobs {cores}, every core, plain"] = lambda: audit(
                plain, "--quiet", root=args.against.resolve()
            )
        best = {name: (0.0, 0.0, 0.0) for name in cases}
        cpu: dict[str, list[float]] = {name: [] for name in cases}
        for _ in range(args.rounds):
            for name, run in cases.items():
                rate, wall, used = run()
                cpu[name].append(used)
                if rate > best[name][0]:
                    best[name] = (rate, wall, used)
        print("where an audit's CPU goes (us a hand, each part alone, this process):")
        for part, cost in breakdown(hands, archive).items():
            print(f"  {part:52} {cost:8.1f}")
        floor = best["engine alone, this process (1 core)"][0]
        engine_cpu = cpu["engine alone, this process (1 core)"]
        print(
            f"{'':50} {'hands/s':>9} {'x engine/core':>14} {'wall s':>7} {'CPU us/hand (min-max)':>22} "
            f"{'engine CPU / CPU, by round: median (range)':>42}"
        )
        for name, (rate, wall, _) in best.items():
            per_core = rate / floor / (cores if "core" in name and "1 core" not in name else 2 if "Dask" in name else 1)
            spread = f"{min(cpu[name]):,.0f}-{max(cpu[name]):,.0f}"
            # each round's audit against the engine of the same round, a few seconds apart: what the machine's
            # load does to both cancels out better than the least of each over the whole run
            paired = sorted(e / c for e, c in zip(engine_cpu, cpu[name], strict=True))
            ratios = f"{statistics.median(paired):.2f} ({paired[0]:.2f}-{paired[-1]:.2f})"
            print(f"{name:50} {rate:9,.0f} {per_core:14.2f} {wall:7.2f} {spread:>22} {ratios:>42}")
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
