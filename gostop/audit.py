"""Auditing archives of logged hands: every line replayed, and one finding for each that is wrong.

An archive is JSON Lines (gzip or not): each line a POST /v1/replay body with an ``id`` and, optionally,
``recorded``: the payments the source recorded, ``{"payments": [{"from", "to", "points"}]}``. Each line is
read and replayed by the engine itself (``engine.Log.from_dict(line).replay()``: the one reader of a replay body,
the service's too; then the settlement's payments; no answer is rendered and no sentence made), and gives at most
one finding, a JSON object with ``archive``, ``line`` (from 1), ``id``, ``kind`` and ``code``:

    illegal    the engine refuses the log: its ``code``, ``move_index`` (from 0) and the reason's ``facts``,
               exactly what /v1/replay would refuse it with
    payments   the recorded payments differ from the ruling (``payments-differ``: both are shown), or the
               log is not finished but payments were recorded (``unfinished``); payments of 0 points are
               no payments, and the order of the rows does not matter
    invalid    not a valid line at all: ``body-too-large`` (over the service's 64 KiB), ``not-json``,
               ``not-an-object``, ``missing-id`` / ``bad-id``, ``bad-recorded``, or ``validation-error``
               (the body does not have /v1/replay's shape; ``errors`` names each field, as the API would)
    archive    the archive itself: ``empty``, ``truncated`` (a gzip that ends early), ``corrupt`` (a gzip
               that cannot be decompressed) or ``unreadable``; every complete line before is audited

The parent process reads the archives as raw bytes and hands them to the workers in batches of lines
(``--batch``, 200 by default), a bounded number at a time, so memory stays flat however long the archive is;
the workers parse with orjson and replay; the findings are written in the archive's order, whether the
workers are local processes (``--jobs``, every core by default) or a Dask distributed cluster
(``--scheduler``), which reruns the batches of a worker that dies.
"""

from __future__ import annotations

import contextlib
import gzip
import io
import os
import socket
import sys
import time
import zlib
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any, BinaryIO, NamedTuple, Protocol
from urllib.parse import urlsplit

import orjson

from engine import Card, CardSet, GoStopError, Log, LogError

__all__ = [
    "LINE_LIMIT",
    "BatchResult",
    "RecordedError",
    "Summary",
    "audit_batch",
    "audit_line",
    "payments_agree",
    "read_recorded",
    "run",
]

LINE_LIMIT = 64 * 1024  # the service's body limit (docs/errors.md: 413 over 64 KiB)
READ_SIZE = 1 << 20
GZIP_MAGIC = b"\x1f\x8b"
SMALL = 1 << 20  # bytes of archive (about 500 hands) under which one process audits them sooner than several

Payments = list[tuple[str, str, int]]


# --- one line ----------------------------------------------------------------------------------------------


class RecordedError(ValueError):
    """``recorded`` that is not ``{"payments": [{"from", "to", "points"}, ...]}``."""


def read_recorded(value: Any) -> Payments | None:
    """The recorded payments as (from, to, points) rows, None when nothing was recorded."""
    if value is None:
        return None
    if not isinstance(value, dict) or not isinstance(value.get("payments"), list):
        raise RecordedError('recorded must be {"payments": [{"from": ..., "to": ..., "points": ...}, ...]}')
    rows = []
    for i, row in enumerate(value["payments"]):
        if not (
            isinstance(row, dict)
            and isinstance(row.get("from"), str)
            and isinstance(row.get("to"), str)
            and type(row.get("points")) is int
        ):
            raise RecordedError(f"recorded.payments.{i} must be an object with from, to (player ids) and points")
        rows.append((row["from"], row["to"], row["points"]))
    return rows


def payments_agree(recorded: Iterable[tuple[str, str, int]], ruled: Iterable[tuple[str, str, int]]) -> bool:
    """Whether two lists of payments say the same: in any order, a payment of 0 points being none."""
    return sorted(r for r in recorded if r[2]) == sorted(r for r in ruled if r[2])


def _plain(value: Any) -> Any:
    """A fact as JSON: cards as ids, enums as their values, records as objects."""
    if value is None or isinstance(value, (str, int, float)):
        return value.value if isinstance(value, Enum) else value
    if isinstance(value, Card):
        return value.id
    if isinstance(value, CardSet):
        return value.ids()
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if hasattr(value, "_asdict"):  # a NamedTuple record, such as where a card was seen
        return _plain(value._asdict())
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_plain(v) for v in value]
    return str(value)


def _invalid(code: str, detail: str, **more: Any) -> dict[str, Any]:
    return {"kind": "invalid", "code": code, "detail": detail, **more}


def _excerpt(raw: bytes) -> str:
    return raw[:80].decode("utf-8", "replace")


class Verdict(NamedTuple):
    """What one line came to: its id (None if it has none), whether the hand is finished, and the finding."""

    id: Any
    finished: bool
    finding: dict[str, Any] | None


def audit_line(raw: bytes) -> Verdict:
    """Audit one archive line (bytes, without its newline)."""
    if len(raw) > LINE_LIMIT:
        limit = f"longer than {LINE_LIMIT} bytes, the most a request body may be"
        return Verdict(None, False, _invalid("body-too-large", limit, excerpt=_excerpt(raw)))
    try:
        body = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        return Verdict(None, False, _invalid("not-json", str(exc), excerpt=_excerpt(raw)))
    if not isinstance(body, dict):
        return Verdict(None, False, _invalid("not-an-object", f"a JSON {type(body).__name__}, not an object"))
    hand_id = body.pop("id", None)
    if hand_id is None:
        return Verdict(None, False, _invalid("missing-id", "the line has no id"))
    if not (isinstance(hand_id, str) or type(hand_id) is int):
        return Verdict(None, False, _invalid("bad-id", "an id is a string or an integer", excerpt=_excerpt(raw)))
    try:
        recorded = read_recorded(body.pop("recorded", None))
    except RecordedError as exc:
        return Verdict(hand_id, False, _invalid("bad-recorded", str(exc)))
    try:
        result = Log.from_dict(body).replay()  # the one reader of a replay body, as the API's (engine.Log)
    except LogError as exc:
        return Verdict(
            hand_id, False, _invalid("validation-error", "not the shape of a /v1/replay body", errors=exc.errors)
        )
    except GoStopError as exc:
        facts = {k: _plain(v) for k, v in exc.params.items() if k != "move_index"}
        index = exc.params.get("move_index")
        return Verdict(
            hand_id, False, {"kind": "illegal", "code": exc.code, "move_index": index, "why": exc.why, "facts": facts}
        )
    settlement = result.settlement
    if recorded is None:
        return Verdict(hand_id, settlement is not None, None)
    shown = [{"from": f, "to": t, "points": n} for f, t, n in recorded]
    if settlement is None:
        return Verdict(hand_id, False, {"kind": "payments", "code": "unfinished", "recorded": shown, "ruled": None})
    ruled = [(p.payer, p.payee, p.points) for p in settlement.payments]
    if payments_agree(recorded, ruled):
        return Verdict(hand_id, True, None)
    ruled_shown = [{"from": f, "to": t, "points": n} for f, t, n in ruled]
    return Verdict(
        hand_id, True, {"kind": "payments", "code": "payments-differ", "recorded": shown, "ruled": ruled_shown}
    )


# --- a batch of lines, in a worker ---------------------------------------------------------------------


class BatchResult(NamedTuple):
    """What a batch came to: hands audited, how many of them finished, the findings as JSON Lines bytes, and
    the count of findings by (kind, code)."""

    hands: int
    finished: int
    findings: bytes
    counts: dict[tuple[str, str], int]


def audit_batch(archive: str, first_line: int, data: bytes) -> BatchResult:
    """Audit a batch: ``data`` is archive lines joined by newlines, the first being line ``first_line``.
    Blank lines are skipped. Runs in a worker process (local or Dask): it takes and returns plain values."""
    hands = finished = 0
    out = bytearray()
    counts: Counter[tuple[str, str]] = Counter()
    for number, raw in enumerate(data.split(b"\n"), first_line):
        if not raw.strip():
            continue
        hands += 1
        try:
            verdict = audit_line(raw)
        except Exception as exc:  # a bug of the engine's: reported as a finding, the audit goes on
            verdict = Verdict(None, False, {"kind": "error", "code": "internal-error", "detail": repr(exc)[:300]})
        finished += verdict.finished
        if verdict.finding is not None:
            finding = {"archive": archive, "line": number, "id": verdict.id, **verdict.finding}
            out += orjson.dumps(finding, option=orjson.OPT_APPEND_NEWLINE)
            counts[finding["kind"], finding["code"]] += 1
    return BatchResult(hands, finished, bytes(out), dict(counts))


# --- reading archives, in the parent -------------------------------------------------------------------


class Batch(NamedTuple):
    archive: str
    first_line: int
    data: bytes


def _archive_finding(archive: str, line: int | None, code: str, detail: str) -> BatchResult:
    finding = {"archive": archive, "line": line, "id": None, "kind": "archive", "code": code, "detail": detail}
    return BatchResult(0, 0, orjson.dumps(finding, option=orjson.OPT_APPEND_NEWLINE), {("archive", code): 1})


def _chunks_of_lines(chunks: Iterable[bytes]) -> Iterator[list[bytes]]:
    """The complete lines of a stream of bytes, a chunk's worth at a time (a last line may lack its newline).
    A line longer than LINE_LIMIT is cut to LINE_LIMIT + 1 bytes as it is read (enough to refuse it), so that
    no line, however long, is held whole."""
    carry = b""
    overlong = False
    for chunk in chunks:
        lines: list[bytes] = []
        if overlong:
            cut = chunk.find(b"\n")
            if cut < 0:
                continue
            lines.append(carry)
            carry, overlong, chunk = b"", False, chunk[cut + 1 :]
        pieces = (carry + chunk).split(b"\n")
        carry = pieces.pop()
        if len(carry) > LINE_LIMIT:
            carry, overlong = carry[: LINE_LIMIT + 1], True
        if lines or pieces:
            yield lines + pieces
    if carry:
        yield [carry]


class _Writable(Protocol):
    def write(self, data: bytes, /) -> int: ...

    def flush(self) -> None: ...

    def close(self) -> None: ...


class _Source:
    """An archive opened for reading: its bytes (decompressed when it is gzip) and how far into it we are."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.raw: BinaryIO = sys.stdin.buffer if name == "-" else open(name, "rb")  # noqa: SIM115
        self.size = 0 if name == "-" else os.fstat(self.raw.fileno()).st_size
        magic = self.raw.peek(2)[:2] if isinstance(self.raw, io.BufferedReader) else b""
        self.gzip = magic == GZIP_MAGIC

    def chunks(self) -> Iterator[bytes]:
        return _gunzip(self.raw) if self.gzip else iter(lambda: self.raw.read(READ_SIZE), b"")

    def position(self) -> int:
        try:
            return self.raw.tell() if self.size else 0
        except OSError:
            return 0

    def close(self) -> None:
        if self.name != "-":
            self.raw.close()


def _gunzip(raw: BinaryIO) -> Iterator[bytes]:
    """The decompressed bytes of a gzip stream (one member or several), as they come: unlike GzipFile.read,
    a stream that ends early has given every byte before the break when EOFError is raised."""
    inflate = zlib.decompressobj(wbits=31)
    fed = False
    while data := raw.read(READ_SIZE // 4):  # compressed: each read inflates to several times its size
        while data:
            fed = True
            out = inflate.decompress(data, READ_SIZE)  # bounded: a small archive may inflate enormously
            if out:
                yield out
            if inflate.eof:  # a member ended: what follows is another member (zlib.error if it is not)
                data = inflate.unused_data
                data = data if data.strip(b"\0") else b""  # or the zero padding some writers leave
                inflate, fed = zlib.decompressobj(wbits=31), False
            else:
                data = inflate.unconsumed_tail
    if fed:
        yield inflate.flush()
        raise EOFError("the gzip stream ends before its end marker")


@dataclass
class _Reading:
    """Bytes read so far over every archive (for the progress bar)."""

    total: int
    done_before: int = 0
    source: _Source | None = None

    def done(self) -> int:
        return self.done_before + (self.source.position() if self.source else 0)


def _work(archives: Sequence[str], batch: int, reading: _Reading) -> Iterator[Batch | BatchResult]:
    """Batches of lines, in archive order, and each archive's own finding (empty, truncated...) in its place."""
    for name in archives:
        line = 1
        pending: list[bytes] = []
        content = False
        try:
            source = _Source(name)
        except OSError as exc:
            yield _archive_finding(name, None, "unreadable", exc.strerror or str(exc))
            continue
        reading.source = source
        try:
            for lines in _chunks_of_lines(source.chunks()):
                content = content or any(raw.strip() for raw in lines)
                pending += lines
                while len(pending) >= batch:
                    yield Batch(name, line, b"\n".join(pending[:batch]))
                    line += batch
                    del pending[:batch]
        except (EOFError, gzip.BadGzipFile, zlib.error, OSError) as exc:
            if pending:
                yield Batch(name, line, b"\n".join(pending))
                line += len(pending)
            code = "truncated" if isinstance(exc, EOFError) else "corrupt" if not _io_error(exc) else "unreadable"
            yield _archive_finding(name, line, code, f"{_said(exc)}: the lines before line {line} were audited")
        else:
            if pending:
                yield Batch(name, line, b"\n".join(pending))
            if not content:
                yield _archive_finding(name, None, "empty", "the archive holds no line")
        finally:
            reading.done_before += source.size
            reading.source = None
            source.close()


def _io_error(exc: BaseException) -> bool:
    return isinstance(exc, OSError) and not isinstance(exc, gzip.BadGzipFile) and exc.errno is not None


def _said(exc: BaseException) -> str:
    return str(exc) or type(exc).__name__


# --- running batches: inline, on local processes, or on Dask ---------------------------------------------


class _Pending(Protocol):
    def result(self) -> BatchResult: ...


class _Done:
    def __init__(self, value: BatchResult) -> None:
        self.value = value

    def result(self) -> BatchResult:
        return self.value


Submit = Callable[[Batch], _Pending]


@contextlib.contextmanager
def _local(jobs: int) -> Iterator[tuple[Submit, int, str]]:
    if jobs == 1:
        yield (lambda b: _Done(audit_batch(*b))), 1, "1 process"
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from multiprocessing.context import BaseContext

    # forkserver: workers forked from a clean process that has imported the engine once (a fork of the caller
    # could inherit its threads' locks); each worker then costs a fork, not an interpreter's start-up
    context: BaseContext = multiprocessing.get_context("spawn")  # where there is no forkserver (Windows)
    if "forkserver" in multiprocessing.get_all_start_methods():
        forkserver = multiprocessing.get_context("forkserver")
        forkserver.set_forkserver_preload(["gostop.audit"])
        context = forkserver
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=context)
    try:
        yield (lambda b: pool.submit(audit_batch, *b)), jobs * 3, f"{jobs} local processes"
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


@contextlib.contextmanager
def _dask(address: str) -> Iterator[tuple[Submit, int, str]]:
    try:
        import dask.config
        from distributed import Client as DaskClient
    except ImportError:
        raise AuditError("--scheduler needs Dask distributed: pip install 'gostop[dask]'") from None
    where = urlsplit(address if "://" in address else f"tcp://{address}")
    # A result kept by a worker that dies is fetched from it until this connect timeout (30 s by default)
    # runs out, and only then computed again elsewhere: a few seconds is ample for a worker that is alive.
    with dask.config.set({"distributed.comm.timeouts.connect": "5s"}):
        try:  # a scheduler that is not there is said at once (Dask's client would try for its whole timeout)
            socket.create_connection((where.hostname or "", where.port or 8786), timeout=10).close()
            client = DaskClient(address, timeout="10s", set_as_default=False)
        except (OSError, TimeoutError, ValueError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc) or type(exc).__name__
            raise AuditError(f"cannot reach the Dask scheduler at {address}: {reason}") from None
        try:
            try:
                client.wait_for_workers(1, timeout=30)
            except TimeoutError:
                raise AuditError(f"the Dask scheduler at {address} has no worker") from None
            threads = sum(client.nthreads().values())
            # the batch's bytes go in the task itself (not scattered): a task lost with its worker is run again
            yield (lambda b: client.submit(audit_batch, *b, pure=False)), threads * 8, f"Dask at {address}"
        finally:
            client.close()


class AuditError(Exception):
    """An audit that cannot start (a cluster that cannot be reached, an output that cannot be written)."""


# --- the audit -----------------------------------------------------------------------------------------


@dataclass
class Summary:
    """What an audit found: hands, finished hands, findings by (kind, code), time, and where it ran."""

    where: str = ""
    hands: int = 0
    finished: int = 0
    counts: Counter[tuple[str, str]] = field(default_factory=Counter)
    seconds: float = 0.0

    @property
    def findings(self) -> int:
        return sum(self.counts.values())

    @property
    def rate(self) -> float:
        return self.hands / self.seconds if self.seconds else 0.0

    def add(self, result: BatchResult) -> None:
        self.hands += result.hands
        self.finished += result.finished
        self.counts.update(result.counts)

    def as_dict(self) -> dict[str, Any]:
        kinds: dict[str, dict[str, int]] = {}
        for (kind, code), n in sorted(self.counts.items()):
            kinds.setdefault(kind, {})[code] = n
        return {
            "hands": self.hands,
            "finished": self.finished,
            "findings": self.findings,
            "by_kind": kinds,
            "seconds": round(self.seconds, 3),
            "hands_per_second": round(self.rate),
            "ran_on": self.where,
        }

    def text(self) -> str:
        lines = [
            f"audited {self.hands:,} hands ({self.finished:,} finished) in {self.seconds:.2f} s: "
            f"{self.rate:,.0f} hands a second on {self.where}",
            f"findings: {self.findings:,}",
        ]
        for kind, codes in self.as_dict()["by_kind"].items():
            listed = ", ".join(f"{code} {n:,}" for code, n in codes.items())
            lines.append(f"  {kind} {sum(codes.values()):,}: {listed}")
        return "\n".join(lines)


class _Progress:
    """A bar on the terminal (stderr), redrawn at most ten times a second."""

    def __init__(self, reading: _Reading, summary: Summary, started: float, shown: bool) -> None:
        self.reading, self.summary, self.started, self.shown = reading, summary, started, shown
        self.last = 0.0

    def update(self, final: bool = False) -> None:
        now = time.monotonic()
        if not self.shown or (now - self.last < 0.1 and not final):
            return
        self.last = now
        rate = self.summary.hands / max(now - self.started, 1e-9)
        counted = f"{self.summary.hands:,} hands  {rate:,.0f}/s  {self.summary.findings:,} findings"
        if self.reading.total:
            part = 1.0 if final else min(1.0, self.reading.done() / self.reading.total)
            bar = "#" * int(part * 30)
            line = f"\r{part:4.0%} [{bar:30}] {counted}"
        else:
            line = f"\r{counted}"
        sys.stderr.write(line + ("\n" if final else ""))
        sys.stderr.flush()


@contextlib.contextmanager
def _output(out: str | None) -> Iterator[_Writable]:
    """Where the findings go: stdout (left open), or the file ``out`` (gzip when its name ends in .gz)."""
    if out is None:
        yield sys.stdout.buffer
        return
    try:
        sink: _Writable = gzip.open(out, "wb") if out.endswith(".gz") else open(out, "wb")  # noqa: SIM115
    except OSError as exc:
        raise AuditError(f"cannot write {out}: {exc.strerror or exc}") from None
    try:
        yield sink
    finally:
        sink.close()


def run(
    archives: Sequence[str],
    *,
    out: str | None = None,
    jobs: int | None = None,
    scheduler: str | None = None,
    batch: int = 200,
    progress: bool = False,
) -> Summary:
    """Audit the archives, writing the findings to ``out`` (stdout if None) in archive order, on ``jobs``
    local processes or on the Dask cluster at ``scheduler``. By default every core works, but for archives
    smaller than SMALL (read from files, not stdin) one process does: starting workers would cost more."""
    files = [Path(a) for a in archives if a != "-" and Path(a).is_file()]
    reading = _Reading(total=sum(f.stat().st_size for f in files))
    if jobs is None:
        small = len(files) == len(archives) and reading.total < SMALL
        jobs = 1 if small else len(os.sched_getaffinity(0))
    summary = Summary()
    started = time.monotonic()
    bar = _Progress(reading, summary, started, progress)
    runner = _dask(scheduler) if scheduler else _local(jobs)
    with _output(out) as sink, runner as (submit, window, where):
        summary.where = where
        pending: deque[_Pending] = deque()

        def take() -> None:
            result = pending.popleft().result()
            summary.add(result)
            if result.findings:
                sink.write(result.findings)
                sink.flush()
            bar.update()

        try:
            for item in _work(archives, batch, reading):
                pending.append(submit(item) if isinstance(item, Batch) else _Done(item))
                while len(pending) > window:
                    take()
            while pending:
                take()
        except BrokenProcessPool:
            raise AuditError("a worker process died: the audit stopped (its findings so far are written)") from None
    summary.seconds = time.monotonic() - started
    bar.update(final=True)
    return summary
