"""The gunicorn worker the service runs in: gevent's, bounded against slow, idle and flooding clients.

Why gevent: a sync worker serves one connection at a time, so four clients that send their headers a byte at
a time stop a four-worker server; gthread parks idle keep-alive connections but still gives a thread to each
connection whose headers are arriving. Under gevent an open connection is a greenlet of a few kilobytes and
waiting on it costs nothing, so what bounds a slow client is time and count, not threads.

gunicorn's gevent worker already bounds the wait for a request's line and headers, and an idle keep-alive
connection, by ``keepalive``. This class adds:

- a deadline on the rest of a request: its body must arrive, and its answer be taken, within
  ``body_timeout`` seconds of its headers; a late body is answered 408, a client that does not read its
  answer is cut off;
- connections shared out evenly: the workers write how many they hold into an ``Occupancy`` the master
  shares with them, and one that holds more than the least busy pauses before it accepts again. Otherwise
  the worker that wakes first takes a whole burst of new connections, and with keep-alive it keeps them:
  eight benchmark connections all on one of two workers leave the other idle;
- a clean refusal past the cap on open connections: a worker holding ``worker_connections`` stops
  accepting, and when every worker is full a connection left waiting in the listen queue is answered 503
  and closed, instead of waiting unseen for a free slot (or being dropped by the kernel once the queue is
  full);
- problem+json, like every other error of the service, for what gunicorn refuses before the application
  sees it (a garbage request line, headers over the limits).

Connections dropped for these reasons are counted in ``gostop_connections_dropped_total{reason}``.
"""

from __future__ import annotations

import contextlib
import json
import mmap
import struct
import time
from functools import partial
from http import HTTPStatus
from typing import Any

import gevent
import gevent.select
from gevent.pool import Pool
from gevent.server import StreamServer
from gunicorn import util
from gunicorn.http.body import LengthReader
from gunicorn.http.errors import (
    ConfigurationProblem,
    ExpectationFailed,
    ForbiddenProxyRequest,
    LimitRequestHeaders,
    LimitRequestLine,
    ParseException,
    UnsupportedTransferCoding,
)
from gunicorn.sock import ssl_context
from gunicorn.workers.ggevent import GeventWorker

from .codes import API_VERSION, SERVER_CODES, type_of

BODY_READ_LIMIT = 64 * 1024  # service.app.MAX_BODY_BYTES (a test checks): a larger body is refused unread (413)
REFUSAL_SLOTS = 128  # connections a full worker may be refusing at once, beyond worker_connections
LOOK_EVERY = 0.05  # seconds between a worker's looks at the others (and at the listen queue when all are full)
BALANCE_SLACK = 2  # connections a worker may hold beyond the least busy one and still accept at once
SHARE_PAUSE = 0.005  # seconds a worker holding more leaves new connections to the others
_LINGER = 0.5  # seconds a refused connection is read from after its 503, so that closing it does not reset it
_DETAIL_CHARS = 200  # how much of gunicorn's account of a malformed request a problem repeats

# The status gunicorn gives what it refuses (any other malformed request is a 400).
_REFUSALS: tuple[tuple[type[Exception], HTTPStatus], ...] = (
    (LimitRequestLine, HTTPStatus.REQUEST_URI_TOO_LONG),
    (LimitRequestHeaders, HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE),
    (ExpectationFailed, HTTPStatus.EXPECTATION_FAILED),
    (UnsupportedTransferCoding, HTTPStatus.NOT_IMPLEMENTED),
    (ForbiddenProxyRequest, HTTPStatus.FORBIDDEN),
    (ConfigurationProblem, HTTPStatus.INTERNAL_SERVER_ERROR),
)


def problem_response(status: HTTPStatus, detail: str, *headers: str) -> bytes:
    """A whole HTTP/1.1 answer with a problem+json body (RFC 9457), closing the connection. These come before
    the application, so before the request's language is known: they are in English."""
    code = SERVER_CODES.get(status.value, "bad-request")
    problem = {
        "type": type_of(code),
        "title": status.phrase,
        "status": status.value,
        "detail": detail,
        "code": code,
    }
    body = json.dumps(problem).encode()
    head = [
        f"HTTP/1.1 {status.value} {status.phrase}",
        "Content-Type: application/problem+json",
        f"Content-Length: {len(body)}",
        "Connection: close",
        "Cache-Control: no-store",
        "X-Content-Type-Options: nosniff",
        f"API-Version: {API_VERSION}",
        *headers,
    ]
    return "\r\n".join([*head, "", ""]).encode("latin-1") + body


FULL_503 = problem_response(
    HTTPStatus.SERVICE_UNAVAILABLE, "too many open connections: try again shortly", "Retry-After: 1"
)
LATE_BODY_408 = problem_response(HTTPStatus.REQUEST_TIMEOUT, "the request body did not arrive in time")


class _Late(BaseException):
    """Raised in a request's greenlet when its deadline passes. A BaseException, like gevent's own Timeout,
    so that neither the application nor gunicorn takes it for an error of theirs."""


def _receive_body(req: Any) -> None:
    """Read a body of known length into gunicorn's buffer before the application sees the request, so the
    deadline applies to receiving it and never interrupts the application. A body over the limit is left
    unread for the application to refuse; a client that expects "100 Continue" waits for gunicorn to send
    it, so its body is read by the application as it asks (under the same deadline)."""
    reader = req.body.reader
    if not isinstance(reader, LengthReader) or not 0 < reader.length <= BODY_READ_LIMIT:
        return
    if any(name == "EXPECT" for name, _ in req.headers):
        return
    req.unreader.unread(req.unreader.read(reader.length))


def _refuse(client: Any) -> None:
    with contextlib.suppress(OSError):
        util.write_nonblock(client, FULL_503)
    util.close_graceful(client, timeout=_LINGER)


class Occupancy:
    """How many connections each worker of a server holds, in memory the master shares with the workers it
    forks. The master gives each worker a slot before forking it and frees the slot when the worker has
    exited (the config's pre_fork and child_exit hooks); a running worker writes its count and the time into
    its slot. A worker that has not written for a second (still booting, or stuck) is left out of the sums."""

    _RECORD = struct.Struct("qd")  # connections (-1: a free slot), when written (monotonic clock, shared)
    FRESH = 1.0

    def __init__(self, slots: int) -> None:
        self._shared = mmap.mmap(-1, slots * self._RECORD.size)  # anonymous, shared with forked processes
        for slot in range(slots):
            self._RECORD.pack_into(self._shared, slot * self._RECORD.size, -1, 0.0)

    def claim(self) -> int:
        for slot, (connections, _) in enumerate(self._RECORD.iter_unpack(self._shared)):
            if connections < 0:
                self._RECORD.pack_into(self._shared, slot * self._RECORD.size, 0, 0.0)  # not fresh until it runs
                return slot
        raise RuntimeError("no free worker slot")

    def release(self, slot: int) -> None:
        self._RECORD.pack_into(self._shared, slot * self._RECORD.size, -1, 0.0)

    def report(self, slot: int, connections: int) -> None:
        self._RECORD.pack_into(self._shared, slot * self._RECORD.size, connections, time.monotonic())

    def running(self, slot: int) -> bool:
        """Whether the worker of ``slot`` runs: it has written its count since it was forked."""
        if not 0 <= slot < len(self._shared) // self._RECORD.size:
            return False
        connections, written = self._RECORD.unpack_from(self._shared, slot * self._RECORD.size)
        return bool(connections >= 0 and written > 0)

    def others(self, slot: int) -> list[int]:
        """The connections of every other running worker."""
        now = time.monotonic()
        return [
            connections
            for other, (connections, written) in enumerate(self._RECORD.iter_unpack(self._shared))
            if other != slot and connections >= 0 and now - written < self.FRESH
        ]


_SHARED: list[Occupancy] = []


def shared_occupancy(slots: int) -> Occupancy:
    """The master's one Occupancy: made on the first reading of the config, the same after a SIGHUP reads it
    again (its workers, old and new, share one map)."""
    if not _SHARED or len(_SHARED[0]._shared) < slots * Occupancy._RECORD.size:
        _SHARED[:] = [Occupancy(slots)]
    return _SHARED[0]


class Worker(GeventWorker):
    body_timeout = 10.0  # seconds; service/gunicorn.conf.py sets it from BODY_TIMEOUT
    occupancy: Occupancy | None = None  # and this, with the worker's ``slot`` (without them: a lone worker)
    slot = 0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.open_connections = 0
        self.dropped: Any = None
        self.servers: dict[Any, Any] = {}  # listening socket -> the gevent server accepting on it

    def load_wsgi(self) -> None:
        super().load_wsgi()
        # imported here, after gevent has patched the standard library (see service/__init__.py)
        from prometheus_client import Counter

        self.dropped = Counter(
            "gostop_connections_dropped_total",
            "Connections the server closed early: full (answered 503), late-body (408), late-reader",
            ["reason"],
        )

    def _count_drop(self, reason: str) -> None:
        if self.dropped is not None:
            self.dropped.labels(reason).inc()

    def _others(self) -> list[int]:
        return self.occupancy.others(self.slot) if self.occupancy is not None else []

    def holds_more_than_its_share(self) -> bool:
        others = self._others()
        return bool(others) and self.open_connections > min(others) + BALANCE_SLACK

    def _every_worker_full(self) -> bool:
        full = self.worker_connections
        return self.open_connections >= full and all(connections >= full for connections in self._others())

    def run(self) -> None:
        """gunicorn's gevent worker, with the connections shared out and refused as the module says."""
        ssl = {"ssl_context": ssl_context(self.cfg)} if self.cfg.is_ssl else {}
        for listener in self.sockets:
            listener.setblocking(1)
            pool = Pool(self.worker_connections)  # gevent stops accepting while it is full
            server = StreamServer(listener, handle=partial(self.handle, listener), spawn=pool, **ssl)
            server.max_accept = 1  # one at a time, so that a burst of connections is shared out
            server.start()
            self.servers[listener] = server
        servers = list(self.servers.values())
        gevent.spawn(self._look_around)
        while self.alive:
            self.notify()
            gevent.sleep(1.0)
        # SIGTERM: stop accepting, let every connection finish (gunicorn's keep-alive loop closes them
        # once their answer is sent), and give up on those still open after the graceful timeout
        for server in servers:
            server.close()
        deadline = time.monotonic() + self.cfg.graceful_timeout
        while any(server.pool.free_count() != server.pool.size for server in servers):
            if time.monotonic() > deadline:
                self.log.warning("Worker graceful timeout (pid:%s)", self.pid)
                for server in servers:
                    server.stop(timeout=1)
                return
            self.notify()
            gevent.sleep(0.1)

    def _look_around(self) -> None:
        """Every LOOK_EVERY: tell the other workers how many connections this one holds (so they know it is
        running), and while every worker is full, refuse what waits in the listen queue."""
        refusing = Pool(REFUSAL_SLOTS)
        while self.alive:
            if self.occupancy is not None:
                self.occupancy.report(self.slot, self.open_connections)
            while self.alive and self._every_worker_full() and refusing.free_count():
                client = self._waiting_connection()
                if client is None:
                    break
                self._count_drop("full")
                refusing.spawn(_refuse, client)
            gevent.sleep(LOOK_EVERY)

    @staticmethod
    def _resume(server: Any) -> None:
        if not server.closed:
            server.start_accepting()  # (gevent stops again by itself while the pool is full)

    def _waiting_connection(self) -> Any:
        with contextlib.suppress(OSError, ValueError):  # the listener closed: the worker is stopping
            ready, _, _ = gevent.select.select(self.sockets, [], [], 0)
            for listener in ready:
                with gevent.Timeout(0.01, False):  # another worker may have taken it meanwhile
                    return listener.accept()[0]
        return None

    def handle(self, listener: Any, client: Any, addr: Any) -> None:
        self._count_connection(+1)
        if self.holds_more_than_its_share():
            server = self.servers[listener]
            server.stop_accepting()
            gevent.spawn_later(SHARE_PAUSE, self._resume, server)
        try:
            super().handle(listener, client, addr)
        finally:
            self._count_connection(-1)

    def _count_connection(self, change: int) -> None:
        self.open_connections += change
        if self.occupancy is not None:
            self.occupancy.report(self.slot, self.open_connections)

    def handle_request(self, listener_name: Any, req: Any, sock: Any, addr: Any) -> None:
        deadline = gevent.Timeout.start_new(self.body_timeout, _Late)
        try:
            try:
                _receive_body(req)
            except _Late:
                self._count_drop("late-body")
                with contextlib.suppress(OSError):
                    util.write_nonblock(sock, LATE_BODY_408)
                raise StopIteration from None  # gunicorn's keep-alive loop ends and closes the connection
            super().handle_request(listener_name, req, sock, addr)  # raises StopIteration to close
        except _Late:
            self._count_drop("late-reader")  # or a 100-continue body that did not come: nothing more to say
            raise StopIteration from None
        finally:
            deadline.close()
        # The connection stays open. A client that sends its next request at once would be read again before
        # this worker's other connections get their turn, and some would wait hundreds of milliseconds under
        # load: waiting for the event loop to go idle serves the connections in turn (wrk at saturation: p99
        # from about 200 ms to about 5 ms, throughput within noise).
        gevent.idle()

    def handle_error(self, req: Any, client: Any, addr: Any, exc: BaseException) -> None:
        """Answer what gunicorn could not parse (or an error that escaped the application) as problem+json."""
        if isinstance(exc, ParseException):
            status = next((s for kind, s in _REFUSALS if isinstance(exc, kind)), HTTPStatus.BAD_REQUEST)
            self.log.warning("Invalid request from ip=%s: %s", (addr or ("",))[0], exc)
            detail = str(exc)[:_DETAIL_CHARS]
        else:
            self.log.exception("Error handling request")
            status, detail = HTTPStatus.INTERNAL_SERVER_ERROR, "the server failed to answer this request"
        with contextlib.suppress(OSError):
            util.write_nonblock(client, problem_response(status, detail))
