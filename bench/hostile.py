"""Hostile and faulty clients against a live gostop server, for tests/test_resilience.py and bench/chaos.py.

The server is ``gostop.server.Server``: started exactly as `make run` starts it, on a free loopback port.
Clients speak raw HTTP/1.1 over asyncio streams, so that each can misbehave in its own way and every failure
is tied to the connection (its local port) and the moment it happened. /proc gives the server's side: the
connections each worker holds, their open files and resident memory.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import random
import signal
import socket
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from gostop.server import HOST, Server

ROOT = Path(__file__).resolve().parent.parent


# --- what /proc says about the server ----------------------------------------------------------------


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise LookupError(f"no VmRSS for {pid}")


def cpu_seconds(pids: list[int]) -> float:
    """User and system CPU time the processes have used so far."""
    ticks = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        ticks += int(fields[11]) + int(fields[12])  # utime and stime, counted from the field after the name
    return ticks / os.sysconf("SC_CLK_TCK")


def open_files(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def _tcp_rows() -> Iterator[tuple[int, int, str, int]]:
    """(local port, remote port, state, inode) of every IPv4 TCP socket; state 0A is LISTEN, 01 ESTABLISHED."""
    with open("/proc/net/tcp") as table:
        next(table)
        for line in table:
            fields = line.split()
            yield int(fields[1].split(":")[1], 16), int(fields[2].split(":")[1], 16), fields[3], int(fields[9])


def listening(port: int) -> bool:
    return any(local == port and state == "0A" for local, _, state, _ in _tcp_rows())


def client_ports_of(pid: int, port: int) -> set[int]:
    """The client-side ports of the connections to ``port`` that process ``pid`` holds open."""
    inodes = set()
    with contextlib.suppress(OSError):
        for fd in os.listdir(f"/proc/{pid}/fd"):
            with contextlib.suppress(OSError):
                target = os.readlink(f"/proc/{pid}/fd/{fd}")
                if target.startswith("socket:["):
                    inodes.add(int(target[8:-1]))
    return {
        remote for local, remote, state, inode in _tcp_rows() if local == port and state == "01" and inode in inodes
    }


@contextlib.contextmanager
def serving(app: str, workers: int, env: dict[str, str] | None = None, folder: Path | None = None) -> Iterator[str]:
    """For the benchmarks: ``app`` (bench/ is on its path) with ``workers`` workers, all up; yields the base URL.
    ``folder``: another checkout, whose code is served (its bench/ on the path)."""
    root = folder or ROOT
    env = {"WORKERS": str(workers), "PYTHONPATH": f"{root}:{root / 'bench'}", **(env or {})}
    with Server(env, app=app, folder=folder) as server:
        yield f"http://{HOST}:{server.port}"


# --- raw HTTP --------------------------------------------------------------------------------------------


@dataclass
class Response:
    status: int
    headers: dict[str, str]  # lower-case names
    body: bytes

    def json(self) -> object:
        return json.loads(self.body)


def http_request(
    method: str,
    path: str,
    body: bytes | dict[str, object] | None = None,
    headers: dict[str, str] | None = None,
    *,
    keep_alive: bool = True,
    version: str = "HTTP/1.1",
) -> bytes:
    """The bytes of one request; a dict body is sent as JSON with its length."""
    data = json.dumps(body).encode() if isinstance(body, dict) else (body or b"")
    head = {"Host": "gostop"}
    if isinstance(body, dict):
        head["Content-Type"] = "application/json"
    if body is not None:
        head["Content-Length"] = str(len(data))
    if not keep_alive:
        head["Connection"] = "close"
    head.update(headers or {})
    lines = [f"{method} {path} {version}", *(f"{k}: {v}" for k, v in head.items()), "", ""]
    return "\r\n".join(lines).encode("latin-1") + data


def _head(head: bytes) -> Response:
    status_line, *lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return Response(int(status_line.split()[1]), headers, b"")


def parse_responses(data: bytes) -> tuple[list[Response], bytes]:
    """Every whole response in ``data`` (each with a Content-Length), and what is left over."""
    responses = []
    while b"\r\n\r\n" in data:
        head, rest = data.split(b"\r\n\r\n", 1)
        response = _head(head)
        length = int(response.headers.get("content-length", "0"))
        if len(rest) < length:
            break
        response.body = rest[:length]
        responses.append(response)
        data = rest[length:]
    return responses, data


@dataclass
class Exchange:
    responses: list[Response]
    closed: bool  # the server closed the connection (rather than the wait running out)
    leftover: bytes


def exchange(
    port: int, data: bytes, *, expect: int | None = None, half_close: bool = False, timeout: float = 5.0
) -> Exchange:
    """Send ``data`` on a new connection; read until the server closes it, ``expect`` answers have come, or
    ``timeout`` passes."""
    received = b""
    closed = False
    with socket.create_connection((HOST, port), timeout=timeout) as sock:
        sock.sendall(data)
        if half_close:
            sock.shutdown(socket.SHUT_WR)
        deadline = time.monotonic() + timeout
        try:
            while time.monotonic() < deadline:
                sock.settimeout(max(0.01, deadline - time.monotonic()))
                chunk = sock.recv(65536)
                if not chunk:
                    closed = True
                    break
                received += chunk
                if expect is not None and len(parse_responses(received)[0]) >= expect:
                    break
        except ConnectionResetError:
            closed = True
        except TimeoutError:
            pass
    responses, leftover = parse_responses(received)
    return Exchange(responses, closed, leftover)


async def read_response(reader: asyncio.StreamReader) -> Response | None:
    """One response from the stream, or None if the server closed it before sending one."""
    try:
        head = await reader.readuntil(b"\r\n\r\n")
    except asyncio.IncompleteReadError as partial:
        if partial.partial:
            raise ConnectionResetError("the connection closed mid-answer") from None
        return None
    response = _head(head[:-4])
    length = int(response.headers.get("content-length", "0"))
    response.body = await reader.readexactly(length)
    return response


# --- hostile connections ---------------------------------------------------------------------------------


@dataclass
class Hostility:
    """What the server did to one kind of hostile connection."""

    opened: int = 0
    dropped: int = 0  # closed by the server
    answers: Counter[int] = field(default_factory=Counter)  # the statuses it sent before closing
    longest: float = 0.0  # seconds from connecting to the server's close, the most any connection lasted
    refused: int = 0  # connection attempts that failed


async def _until_closed(reader: asyncio.StreamReader) -> tuple[bytes, float]:
    """Everything the server sends on a connection, and when it closed it."""
    received = b""
    with contextlib.suppress(OSError):
        while chunk := await reader.read(65536):
            received += chunk
    return received, time.monotonic()


async def hostile(
    port: int, opening: bytes, trickle: bytes, every: float, stop: asyncio.Event, seen: Hostility, delay: float = 0
) -> None:
    """After ``delay`` seconds, connect, send ``opening``, then one byte of ``trickle`` every ``every`` seconds
    until the server closes the connection; then do it again, until ``stop``. An empty ``trickle`` just waits
    (an idle connection)."""
    await asyncio.sleep(delay)
    stopping = asyncio.ensure_future(stop.wait())
    while not stop.is_set():
        try:
            reader, writer = await asyncio.open_connection(HOST, port)
        except OSError:
            seen.refused += 1
            await asyncio.sleep(every)
            continue
        seen.opened += 1
        started = time.monotonic()
        trickled = itertools.cycle(trickle)
        closed = asyncio.ensure_future(_until_closed(reader))
        writer.write(opening)
        while not closed.done() and not stop.is_set():
            await asyncio.wait([closed, stopping], timeout=every, return_when=asyncio.FIRST_COMPLETED)
            if trickle and not closed.done() and not stop.is_set():
                writer.write(bytes([next(trickled)]))
        if closed.done():
            received, at = closed.result()
            seen.dropped += 1
            seen.longest = max(seen.longest, at - started)
            seen.answers.update(r.status for r in parse_responses(received)[0])
        else:
            closed.cancel()
        writer.close()
        with contextlib.suppress(OSError):
            await writer.wait_closed()
    stopping.cancel()


SLOWLORIS = (b"POST /v1/score HTTP/1.1\r\nHost: gostop\r\nContent-Type: application/json\r\n", b"X-Slow: 1\r\n")
SLOW_POST = (
    b"POST /v1/score HTTP/1.1\r\nHost: gostop\r\nContent-Type: application/json\r\nContent-Length: 4096\r\n\r\n",
    b'{"cards": ["jan-bright", "mar-bright"]}' + b" " * 4096,
)
IDLE = (b"GET /healthz HTTP/1.1\r\nHost: gostop\r\n\r\n", b"")


# --- a load generator that knows which connection failed ------------------------------------------------


@dataclass
class Failure:
    client_port: int | None  # None: the connection could not be opened
    sent_at: float | None  # when the request was written (monotonic), None if it never was
    seen_at: float
    error: str


@dataclass
class Load:
    answers: Counter[int] = field(default_factory=Counter)
    answered_at: list[tuple[float, float, int]] = field(default_factory=list)  # (sent, answered, status)
    failures: list[Failure] = field(default_factory=list)


async def load(
    port: int,
    requests: list[bytes],
    connections: int,
    until: Callable[[], bool],
    result: Load,
    *,
    reconnect: Callable[[], bool] = lambda: True,
    timeout: float = 10.0,
) -> None:
    """Keep-alive connections sending ``requests`` in turn, one at a time each, until ``until()``. A failed
    connection is recorded with its port and opened again while ``reconnect()`` allows."""

    async def one(start: int) -> None:
        turns = itertools.cycle(requests[start % len(requests) :] + requests[: start % len(requests)])
        writer = None
        while not until():
            if writer is None:
                if not reconnect():
                    return
                try:
                    reader, writer = await asyncio.open_connection(HOST, port)
                    client_port = writer.get_extra_info("sockname")[1]
                except OSError as exc:
                    result.failures.append(Failure(None, None, time.monotonic(), type(exc).__name__))
                    await asyncio.sleep(0.01)
                    continue
            sent = time.monotonic()
            try:
                writer.write(next(turns))
                response = await asyncio.wait_for(read_response(reader), timeout)
                if response is None:
                    raise ConnectionResetError("closed before answering")
            except (OSError, TimeoutError, asyncio.IncompleteReadError) as exc:
                result.failures.append(Failure(client_port, sent, time.monotonic(), type(exc).__name__))
                writer.close()
                writer = None
                continue
            result.answers[response.status] += 1
            result.answered_at.append((sent, time.monotonic(), response.status))
            if response.headers.get("connection") == "close":
                writer.close()
                writer = None
        if writer is not None:
            writer.close()

    async def staggered(i: int) -> None:
        await asyncio.sleep(i * 0.01)  # one by one, so that every worker gets a share
        await one(i)

    await asyncio.gather(*(staggered(i) for i in range(connections)))


def mix(bodies: list[tuple[str, dict[str, object]]]) -> list[bytes]:
    return [http_request("POST", path, body) for path, body in bodies]


# --- scenarios -------------------------------------------------------------------------------------------


def server_errors(srv: Server) -> int:
    """Requests answered 5xx, as /metrics counted them over every worker the server has had."""
    return int(sum(v for labels, v in srv.samples("gostop_requests_total") if labels["status"].startswith("5")))


def answered_by_metrics(server: Server, status: str = "200") -> int:
    """POST requests with ``status`` that /metrics has counted, over every worker the server has had."""
    samples = server.samples("gostop_requests_total")
    return int(sum(v for labels, v in samples if labels["method"] == "POST" and labels["status"] == status))


@dataclass
class SlowClients:
    kinds: dict[str, Hostility]
    load: Load


async def slow_clients(
    server: Server,
    requests: list[bytes],
    *,
    slowloris: int,
    slow_posts: int,
    idle: int,
    seconds: float,
    connections: int = 4,
    every: float = 0.5,
    spread: float = 0.5,
    extra_load: Callable[[], Awaitable[object]] | None = None,
) -> SlowClients:
    """Slowloris, slow-POST and idle keep-alive connections (each opened again when the server drops it,
    first opened over ``spread`` seconds) while ``connections`` normal clients send ``requests`` for
    ``seconds``; ``extra_load`` runs alongside them."""
    kinds = {"slowloris": Hostility(), "slow POST": Hostility(), "idle keep-alive": Hostility()}
    stop = asyncio.Event()
    shapes = [
        (kind, shape)
        for kind, shape, count in (
            ("slowloris", SLOWLORIS, slowloris),
            ("slow POST", SLOW_POST, slow_posts),
            ("idle keep-alive", IDLE, idle),
        )
        for _ in range(count)
    ]
    attackers = [
        asyncio.create_task(hostile(server.port, *shape, every, stop, kinds[kind], spread * i / len(shapes)))
        for i, (kind, shape) in enumerate(random.sample(shapes, len(shapes)))
    ]
    while sum(k.opened for k in kinds.values()) < slowloris + slow_posts + idle:  # every attacker is in
        await asyncio.sleep(0.05)
    result = Load()
    end = time.monotonic() + seconds
    normal = load(server.port, requests, connections, lambda: time.monotonic() > end, result)
    await asyncio.gather(normal, *([extra_load()] if extra_load else []))
    stop.set()
    await asyncio.gather(*attackers)
    return SlowClients(kinds, result)


@dataclass
class WorkerKill:
    victim: int
    held: set[int]  # client ports of the connections the killed worker held
    killed_at: float
    load: Load
    replacement: int | None
    replaced_after: float | None  # seconds from the kill until the master had forked the new worker
    metrics_before_kill: int
    metrics_after: int

    @property
    def failed_elsewhere(self) -> list[Failure]:
        return [f for f in self.load.failures if f.client_port not in self.held]

    @property
    def in_flight(self) -> list[Failure]:
        return [f for f in self.load.failures if f.sent_at is not None and f.sent_at < self.killed_at]


async def kill_a_worker(
    server: Server, requests: list[bytes], *, connections: int, seconds: float, kill_at: float
) -> WorkerKill:
    """Load for ``seconds``; ``kill_at`` seconds in, SIGKILL the worker that holds the most connections."""
    result = Load()
    end = time.monotonic() + seconds
    running = asyncio.create_task(load(server.port, requests, connections, lambda: time.monotonic() > end, result))
    await asyncio.sleep(kill_at)
    before = await asyncio.to_thread(answered_by_metrics, server)
    workers_before = server.workers()
    held_by = {pid: client_ports_of(pid, server.port) for pid in workers_before}
    victim = max(workers_before, key=lambda pid: len(held_by[pid]))  # the worker holding the most connections
    held = held_by[victim]
    await asyncio.sleep(0.05)  # the clients were held up by the looking: let them have requests under way again
    os.kill(victim, signal.SIGKILL)
    killed_at = time.monotonic()
    replacement, replaced_after = None, None
    deadline = killed_at + 20
    while replacement is None and time.monotonic() < deadline:
        workers = await asyncio.to_thread(server.workers)
        if victim not in workers and len(workers) == server.expected_workers:
            (replacement,) = set(workers) - set(workers_before)
            replaced_after = time.monotonic() - killed_at
        await asyncio.sleep(0.01)
    await running
    after = await asyncio.to_thread(answered_by_metrics, server)
    return WorkerKill(victim, held, killed_at, result, replacement, replaced_after, before, after)


@dataclass
class Drain:
    signalled_at: float
    exited_at: float
    exit_code: int
    last_listening: float  # the last moment the port was seen listening
    load: Load

    @property
    def sent_before(self) -> list[tuple[float, float, int]]:
        return [a for a in self.load.answered_at if a[0] < self.signalled_at]

    @property
    def failed_before(self) -> list[Failure]:
        """Requests sent before the signal that got no answer."""
        return [f for f in self.load.failures if f.sent_at is not None and f.sent_at < self.signalled_at]

    @property
    def failed_while_listening(self) -> list[Failure]:
        return [f for f in self.load.failures if f.seen_at < self.last_listening]


async def sigterm_during_load(
    server: Server, requests: list[bytes], *, connections: int, signal_at: float, idle: int = 0
) -> Drain:
    """Load until the server has exited, with ``idle`` kept-alive connections besides; ``signal_at`` seconds
    in, SIGTERM its master. Clients whose connection is closed open a new one, so they keep trying until the
    listener is gone."""
    assert server.proc is not None
    result = Load()
    exited = False
    last_listening = time.monotonic()

    async def watch_listener() -> None:
        nonlocal last_listening
        while not exited:
            looked = time.monotonic()
            if listening(server.port):
                last_listening = looked
            await asyncio.sleep(0.005)

    stop_idle = asyncio.Event()
    running = asyncio.gather(
        load(server.port, requests, connections, lambda: exited, result, reconnect=lambda: not exited),
        watch_listener(),
        # opened over the seconds before the signal, so that some have just begun to wait when it comes
        *(hostile(server.port, *IDLE, 1.0, stop_idle, Hostility(), signal_at * i / idle) for i in range(idle)),
    )
    await asyncio.sleep(signal_at)
    server.proc.send_signal(signal.SIGTERM)
    signalled_at = time.monotonic()
    exit_code = await asyncio.to_thread(server.proc.wait)
    exited_at = time.monotonic()
    exited = True
    stop_idle.set()
    await running
    return Drain(signalled_at, exited_at, exit_code, last_listening, result)


@dataclass
class Flood:
    outcomes: Counter[str]  # per connection: "held" open, answered 503 ("refused"), "closed" without answer
    open_files: dict[int, int]  # worker pid -> open files while the flood held its connections
    rss_kib: dict[int, int]


async def flood(server: Server, count: int, *, hold: float) -> Flood:
    """Open ``count`` connections that send nothing; after ``hold`` seconds, see what each got, then close
    them all. The server's workers are looked at while the connections are held."""
    outcomes: Counter[str] = Counter()
    opened = []
    for _ in range(count):
        try:
            opened.append(await asyncio.open_connection(HOST, server.port))
        except OSError:
            outcomes["not connected"] += 1
    await asyncio.sleep(hold)
    files = {pid: open_files(pid) for pid in server.workers()}
    rss = {pid: rss_kib(pid) for pid in server.workers()}

    async def outcome(reader: asyncio.StreamReader) -> str:
        try:
            data = await asyncio.wait_for(reader.read(65536), 0.01)
        except TimeoutError:
            return "held"
        except OSError:
            return "closed"
        responses, _ = parse_responses(data)
        if responses and responses[0].status == 503:
            return "refused"
        return "closed" if not data else f"answered {responses[0].status if responses else '?'}"

    outcomes.update(await asyncio.gather(*(outcome(reader) for reader, _ in opened)))
    for _, writer in opened:
        writer.close()
    return Flood(outcomes, files, rss)


@dataclass
class Reload:
    signalled_at: float
    replaced_after: float | None  # seconds from SIGHUP until every worker was a new one (None: not within time)
    load: Load

    def p99(self, start: float, end: float) -> float:
        """The 99th percentile of answer times (seconds) of the requests sent from ``start`` to ``end`` seconds
        past the signal (negative: before it)."""
        window = (self.signalled_at + start, self.signalled_at + end)
        times = sorted(done - sent for sent, done, _ in self.load.answered_at if window[0] <= sent < window[1])
        return times[min(len(times) - 1, int(len(times) * 0.99))] if times else 0.0


async def sighup_during_load(
    server: Server, requests: list[bytes], *, connections: int, seconds: float, signal_at: float, after: float = 1.0
) -> Reload:
    """Load; ``signal_at`` seconds in, SIGHUP the master (gunicorn's reload: new workers, the old ones stopped),
    and watch until every worker is a new one; the load goes on ``after`` seconds more (at most ``seconds`` in
    all)."""
    assert server.proc is not None
    result = Load()
    end = [time.monotonic() + seconds]
    running = asyncio.create_task(load(server.port, requests, connections, lambda: time.monotonic() > end[0], result))
    await asyncio.sleep(signal_at)
    before = set(server.workers())
    server.proc.send_signal(signal.SIGHUP)
    signalled_at = time.monotonic()
    replaced_after = None
    while replaced_after is None and time.monotonic() < end[0]:
        workers = await asyncio.to_thread(server.workers)
        if len(workers) == server.expected_workers and not before & set(workers):
            replaced_after = time.monotonic() - signalled_at
            end[0] = min(end[0], time.monotonic() + after)
        await asyncio.sleep(0.02)
    await running
    return Reload(signalled_at, replaced_after, result)
