"""Full-scale fault runs against gostop as `make run` starts it (issue 11): loopback only, bounded in time
(about four minutes). Every scenario starts its own server with the default settings; the last lines
printed are the figures, one scenario a line. Exits non-zero if any figure misses what issue 11 asks.

1. slow clients: slowloris, slow POST and idle keep-alive connections (opened again as the server drops
   them) while wrk sends score/settle/replay requests;
2. a connection flood past WORKERS x WORKER_CONNECTIONS;
3. kill -9 of the busiest worker during 30 s of load;
4. SIGTERM during load, with idle keep-alive connections open;
5. 100,000 mixed requests (bodies at the 64 KiB limit, deeply nested JSON): each worker's resident memory.

Usage: python bench/chaos.py [--seconds 30] [--requests 100000]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

from common import REPLAY_BODY, SCORE_BODY, SETTLE_BODY, lua_string, wrk
from hostile import (
    cpu_seconds,
    flood,
    kill_a_worker,
    mix,
    rss_kib,
    server_errors,
    sigterm_during_load,
    slow_clients,
)

from gostop.server import Server
from service.worker import REFUSAL_SLOTS

BODIES = [("/v1/score", SCORE_BODY), ("/v1/settle", SETTLE_BODY), ("/v1/replay", REPLAY_BODY)]
MIX = mix(BODIES)
# The normal load beside the attackers: 16 wrk connections, each waiting 20 ms after an answer, so at most 800
# requests a second (about a third of what the server answers flat out): latency, not saturation, is measured.
NORMAL = {"connections": 16, "threads": 2, "pause_ms": 20}
LOGS = Path(tempfile.mkdtemp(prefix="gostop-chaos-"))
figures: list[str] = []
misses: list[str] = []


def check(ok: bool, what: str) -> None:
    if not ok:
        misses.append(what)


def server(name: str, env: dict[str, str] | None = None) -> Server:
    return Server(env, LOGS / f"{name}.log")


def dropped(srv: Server) -> dict[str, int]:
    return {labels["reason"]: int(v) for labels, v in srv.samples("gostop_connections_dropped_total")}


def clean(srv: Server) -> bool:
    return "Traceback" not in srv.log()


def _own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def scenario_slow_clients(seconds: int) -> None:
    loris, posts, idle = 250, 250, 1000
    with server("slow-clients") as srv:
        base = f"http://127.0.0.1:{srv.port}"
        workers = srv.workers()
        before = cpu_seconds(workers)
        calm = wrk(base, BODIES, **NORMAL, seconds=seconds)  # the same load, without attackers
        calm_cpu = cpu_seconds(workers) - before
        stats: dict[str, float] = {}
        cpu: dict[str, float] = {}

        async def normal_load() -> None:
            # measured once every attacker is in, like the load
            before, own = cpu_seconds(workers), _own_cpu()
            stats.update(await asyncio.to_thread(wrk, base, BODIES, **NORMAL, seconds=seconds))
            cpu.update(server=cpu_seconds(workers) - before, attackers=_own_cpu() - own)

        report = asyncio.run(
            slow_clients(
                srv,
                MIX,
                slowloris=loris,
                slow_posts=posts,
                idle=idle,
                seconds=0,
                connections=0,
                every=1.0,
                spread=5.0,
                extra_load=normal_load,
            )
        )
        fivexx, drops, ok = server_errors(srv), dropped(srv), clean(srv)
        same = srv.workers() == workers
    print(
        f"  CPU seconds over {seconds} s: server workers {calm_cpu:.1f} without attackers, {cpu['server']:.1f} with "
        f"them; the attackers' own process {cpu['attackers']:.1f}"
    )
    k = report.kinds
    print(f"slow clients ({seconds} s): wrk {stats} (without attackers: {calm}); 5xx {fivexx}; server dropped {drops}")
    for kind, seen in k.items():
        print(
            f"  {kind}: opened {seen.opened}, dropped {seen.dropped}, answers {dict(seen.answers)}, "
            f"longest {seen.longest:.1f} s, refused {seen.refused}"
        )
    failed = stats["errors"] + stats["non_2xx"] + fivexx
    figures.append(
        f"slow clients: {loris} slowloris + {posts} slow POST + {idle} idle keep-alive (reconnecting) during "
        f"{seconds} s of wrk load ({stats['rps']:.0f} req/s): {stats['requests']:.0f} normal requests, "
        f"{failed:.0f} failed, "
        f"p50 {stats['p50_ms']:.1f} ms, p99 {stats['p99_ms']:.1f} ms (the same load without them, just before: "
        f"p50 {calm['p50_ms']:.1f} ms, p99 {calm['p99_ms']:.1f} ms); dropped after at most "
        f"{k['slowloris'].longest:.1f} s (slowloris), {k['slow POST'].longest:.1f} s (slow POST, "
        f"{k['slow POST'].answers[408]} x 408), {k['idle keep-alive'].longest:.1f} s (idle)"
    )
    check(failed == 0 and same and ok, "slow clients: every normal request answered")
    check(stats["p99_ms"] < 50, "slow clients: p99 < 50 ms")
    check(
        k["slowloris"].longest < 5 + 2 and k["idle keep-alive"].longest < 5 + 2, "slowloris/idle dropped by KEEPALIVE"
    )
    check(k["slow POST"].longest < 10 + 2 and set(k["slow POST"].answers) == {408}, "slow POST 408 by BODY_TIMEOUT")


def scenario_flood() -> None:
    with server("flood") as srv:
        workers = srv.workers()
        capacity = len(workers) * 1000
        count = capacity + 2000
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, count + 256)), hard))
        # long enough for every worker to refuse the excess (each refuses REFUSAL_SLOTS at a time, lingering
        # on each for up to half a second), short of KEEPALIVE, which closes the silent connections it holds
        hold = min(4.5, 1 + (count - capacity) * 0.5 / (len(workers) * REFUSAL_SLOTS))
        report = asyncio.run(flood(srv, count, hold=hold))
        time.sleep(1)
        after = srv.healthy() and srv.workers() == workers
        drops, ok = dropped(srv), clean(srv)
    print(
        f"flood: {count} connections, {dict(report.outcomes)}; open files {report.open_files}; "
        f"RSS KiB {report.rss_kib}; server dropped {drops}; healthy and same workers after: {after}"
    )
    held, refused = report.outcomes["held"], report.outcomes["refused"]
    most_files, most_mib = max(report.open_files.values()), max(report.rss_kib.values()) // 1024
    figures.append(
        f"flood: {count} silent connections against {len(workers)} workers x 1000: {held} held, {refused} answered "
        f"503 and closed, {count - held - refused} other; at most {most_files} open files and {most_mib} MiB in a "
        f"worker; healthy with the same workers afterwards: {after}"
    )
    check(held + refused == count and after and ok, "flood refused cleanly")


def scenario_worker_kill(seconds: int) -> None:
    with server("worker-kill") as srv:
        report = asyncio.run(kill_a_worker(srv, MIX, connections=16, seconds=seconds, kill_at=seconds / 3))
        ok = clean(srv)
    failures = report.load.failures
    answered = report.load.answers[200]
    print(
        f"worker kill: victim {report.victim} held {len(report.held)} connections; "
        f"answered {dict(report.load.answers)}; failures {[(f.client_port, f.error) for f in failures]}; "
        f"replacement {report.replacement}"
    )
    replaced = f"{report.replaced_after:.2f} s" if report.replaced_after is not None else "never"
    figures.append(
        f"worker kill -9 during {seconds} s of load (16 connections): {answered} answered, {len(failures)} failed "
        f"({len(report.in_flight)} in flight on the killed worker, {len(failures) - len(report.in_flight)} sent to "
        f"it after the kill, {len(report.failed_elsewhere)} on other workers) of the {len(report.held)} connections "
        f"it held; its replacement forked after {replaced}; /metrics counted {report.metrics_before_kill} before "
        f"the kill and {report.metrics_after} after (answered {answered})"
    )
    check(
        report.replacement is not None
        and not report.failed_elsewhere
        and len(failures) <= len(report.held)
        and answered <= report.metrics_after <= answered + len(failures)
        and ok,
        "worker kill: only the killed worker's requests fail, metrics kept",
    )


def scenario_sigterm() -> None:
    with server("sigterm") as srv:
        graceful = 20
        report = asyncio.run(sigterm_during_load(srv, MIX, connections=16, signal_at=5, idle=200))
        log = srv.log()
    before = len(report.sent_before)
    after = sum(1 for sent, _, _ in report.load.answered_at if sent >= report.signalled_at)
    refusals = len(report.load.failures)
    took = report.exited_at - report.signalled_at
    closed = report.last_listening - report.signalled_at
    print(
        f"sigterm: exit code {report.exit_code}; {before} sent before, {len(report.failed_before)} of them failed; "
        f"{after} answered after the signal; {refusals} refused after the listener closed"
    )
    figures.append(
        f"SIGTERM during load (16 connections + 200 idle keep-alive): {before} requests sent before the signal, "
        f"{len(report.failed_before)} unanswered; {after} more answered after it; listener closed within "
        f"{closed:.2f} s, {len(report.failed_while_listening)} refused before that; exited {report.exit_code} after "
        f"{took:.1f} s (graceful timeout {graceful} s)"
    )
    check(
        report.exit_code == 0
        and not report.failed_before
        and not report.failed_while_listening
        and took < graceful
        and "Worker graceful timeout" not in log
        and "Traceback" not in log,
        "SIGTERM drains",
    )


# One wrk thread checks each answer's status against its kind, named in the request id, and says "reached"
# after the given number of answers (wrk itself runs for its whole -d unless interrupted); done() prints
# one JSON line.
_COUNTING_LUA = """
i, n, wrong, statuses = 0, 0, 0, {}  -- globals, so that done() can read them with thread:get
request = function()
  i = i %% #kinds + 1
  return wrk.format("POST", kinds[i][1], {["Content-Type"] = "application/json", ["X-Request-ID"] = "kind-" .. i},
    kinds[i][2])
end
response = function(status, headers, body)
  n = n + 1
  local kind = tonumber(string.match(headers["X-Request-ID"] or "", "kind%%-(%%d+)"))
  if kind == nil or status ~= kinds[kind][3] then wrong = wrong + 1 end
  statuses[status] = (statuses[status] or 0) + 1
  if n == %d then
    io.write("reached\\n")
    io.flush()
    wrk.thread:stop()
  end
end
local threads = {}
setup = function(thread) table.insert(threads, thread) end
done = function(summary, latency, requests)
  local t = threads[1]
  local parts = {}
  for status, count in pairs(t:get("statuses")) do table.insert(parts, string.format('"%%d": %%d', status, count)) end
  local errors = summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout
  io.write(string.format('{"answers": %%d, "wrong": %%d, "errors": %%d, "statuses": {%%s}}\\n',
    t:get("n"), t:get("wrong"), errors, table.concat(parts, ", ")))
end
"""


def _padded(body: dict[str, object], size: int) -> str:
    text = json.dumps(body)
    return text[:-1] + " " * (size - len(text)) + "}"


def counted_wrk(base: str, kinds: list[tuple[str, str, int]], answers: int) -> dict[str, int]:
    entries = ",\n".join(f"  {{{lua_string(p)}, {lua_string(b)}, {s}}}" for p, b, s in kinds)
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "count.lua"
        script.write_text(f"kinds = {{\n{entries}\n}}\n" + _COUNTING_LUA % answers)
        command = ["wrk", "-t", "1", "-c", "16", "-d", "600s", "-s", str(script), base]
        with subprocess.Popen(command, stdout=subprocess.PIPE, text=True) as run:
            assert run.stdout is not None
            for line in run.stdout:
                if line.strip() == "reached":
                    run.send_signal(signal.SIGINT)  # wrk then stops and reports
                    break
            out = run.stdout.read()
    return json.loads(out.strip().splitlines()[-1])


def scenario_memory(total: int) -> None:
    deep = 1000  # orjson parses up to 1,024 levels: this one reaches validation (422), the next is refused (400)
    kinds = [
        ("/v1/score", json.dumps(SCORE_BODY), 200),
        ("/v1/settle", json.dumps(SETTLE_BODY), 200),
        ("/v1/replay", json.dumps(REPLAY_BODY), 200),
        ("/v1/score", _padded(SCORE_BODY, 64 * 1024), 200),
        ("/v1/score", '{"cards": ' + "[" * deep + "]" * deep + "}", 422),
        ("/v1/settle", "[" * 20_000 + "]" * 20_000, 400),
    ]
    assert len(kinds[3][1]) == 64 * 1024
    with server("memory", {"ACCESS_LOG_LEVEL": "INFO"}) as srv:
        base = f"http://127.0.0.1:{srv.port}"
        workers = srv.workers()
        first = counted_wrk(base, kinds, total // 10)
        at_first = {pid: rss_kib(pid) for pid in workers}
        rest = counted_wrk(base, kinds, total - total // 10)
        at_end = {pid: rss_kib(pid) for pid in workers}
        same = srv.workers() == workers
        fivexx, ok = server_errors(srv), clean(srv)
    print(f"memory: first {first}; rest {rest}; RSS KiB after the first: {at_first}, at the end: {at_end}")
    growth = {pid: (at_end[pid] - at_first[pid]) / at_first[pid] for pid in workers}
    failed = sum(run["wrong"] + run["errors"] for run in (first, rest)) + fivexx
    answered = first["answers"] + rest["answers"]
    per_worker = ", ".join(f"{at_first[p] // 1024}->{at_end[p] // 1024} MiB ({growth[p]:+.1%})" for p in workers)
    figures.append(
        f"memory: {answered} mixed requests (score, settle, replay, a 64 KiB body, {deep}-deep and 20,000-deep "
        f"JSON), {failed} failed or answered other than expected; RSS per worker after the first "
        f"{first['answers']} -> after all: {per_worker}"
    )
    check(failed == 0 and same and ok and all(abs(g) <= 0.10 for g in growth.values()), "memory flat within 10%")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=int, default=30, help="the slow-client and worker-kill runs")
    parser.add_argument("--requests", type=int, default=100_000, help="the memory run")
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is not installed: apt-get install wrk (make chaos does it when run as root)")
    started = time.monotonic()
    scenario_slow_clients(args.seconds)
    scenario_flood()
    scenario_worker_kill(args.seconds)
    scenario_sigterm()
    scenario_memory(args.requests)
    print(f"\nchaos: {time.monotonic() - started:.0f} s; server logs in {LOGS}")
    for figure in figures:
        print(figure)
    for miss in misses:
        print(f"MISSED: {miss}")
    return 1 if misses else 0


if __name__ == "__main__":
    raise SystemExit(main())
