"""Auditing archives of logged hands: every line replayed, and one finding for each that is wrong.

An archive is JSON Lines (gzip or not): each line a POST /v1/replay body with an ``id`` and, optionally,
``recorded``: the payments the source recorded, ``{"payments": [{"from", "to", "points"}]}``. Each line is
read and replayed by the engine itself (``engine.Log.from_dict(line).replay()``: the one reader of a replay body,
the service's too; then the settlement's payments; no answer is rendered), and gives at most one finding of its
own, a JSON object with ``archive``, ``line`` (from 1), ``id``, ``kind``, ``code`` and ``sentence`` (what is
wrong in words, in the language asked for: an illegal line as the API says its refusal; from the service's
catalogs, ``service.sentences.audit``):

    illegal    the engine refuses the log: its ``code``, ``move_index`` (from 0) and the reason's ``facts``,
               exactly what /v1/replay would refuse it with
    payments   the recorded payments differ from the ruling (``payments-differ``: both are shown), or the
               log is not finished but payments were recorded (``unfinished``); payments of 0 points are
               no payments, and the order of the rows does not matter
    invalid    not a valid line at all: ``body-too-large`` (over the service's 64 KiB), ``not-json``,
               ``not-an-object``, ``missing-id`` / ``bad-id``, ``bad-recorded``, or ``validation-error``
               (the body does not have /v1/replay's shape; ``errors`` names each field, as the API would);
               a line that is not JSON keeps the id its text shows (``recover_id``)
    duplicate  ``duplicate-id``: an earlier line of the audit has the same id (a finding besides the line's own)
    archive    the archive itself: ``empty``, ``truncated`` (a gzip that ends early), ``corrupt`` (a gzip
               that cannot be decompressed) or ``unreadable``; every complete line before is audited
    stopped    the last finding of an audit that could not go on (``scheduler-gone``, ``no-worker`` after
               ``worker_timeout`` seconds, ``worker-died``, ``signal``): ``hands`` audited, and the line and id
               where it stopped; the findings before it are written (docs/audit.md)

The parent process reads the archives and cuts them into batches of lines (``--batch``: 1,000 by default,
4,000 on Dask), a bounded number in flight at a time, so memory stays flat however long the archive is. A
batch of a gzip archive (or of stdin) is shipped as its bytes; a batch of a plain archive file is handed on by
its place in the file (``Span``), and the worker reads it there itself, whenever the workers can read that
file (local workers always; Dask workers when each of them reads the same file at that path, else the
bytes are shipped). The workers parse with orjson and replay; the findings are written in the archive's
order, whether the workers are local processes (``--jobs``: every core by default, one process for archive
files under 1 MiB) or a Dask distributed cluster (``--scheduler``), which reruns the batches of a worker that
dies.
"""

from __future__ import annotations

import contextlib
import gzip
import io
import logging
import os
import re
import signal
import socket
import sys
import threading
import time
import zlib
from array import array
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
from service.i18n import LANGUAGES, Words
from service.sentences.audit import finding_sentence

__all__ = [
    "LINE_LIMIT",
    "BatchResult",
    "RecordedError",
    "Span",
    "Summary",
    "audit_batch",
    "audit_line",
    "payments_agree",
    "read_recorded",
    "read_span",
    "run",
]

LINE_LIMIT = 64 * 1024  # the service's body limit (docs/errors.md: 413 over 64 KiB)
READ_SIZE = 1 << 20
GZIP_MAGIC = b"\x1f\x8b"
# lines a task: a local batch costs the pool's threads about 0.3 ms, a Dask task the scheduler, the worker and the
# client a few ms; larger tasks would leave a core idle at the end of a short archive (docs/audit.md)
BATCH, DASK_BATCH = 1000, 4000
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
        if isinstance(row, dict):
            payer, payee, points = row.get("from"), row.get("to"), row.get("points")
            if isinstance(payer, str) and isinstance(payee, str) and type(points) is int:
                rows.append((payer, payee, points))
                continue
        raise RecordedError(f"recorded.payments.{i} must be an object with from, to (player ids) and points")
    return rows


def payments_agree(recorded: Iterable[tuple[str, str, int]], ruled: Iterable[tuple[str, str, int]]) -> bool:
    """Whether two lists of payments say the same: in any order, a payment of 0 points being none."""
    if isinstance(recorded, list) and isinstance(ruled, list) and recorded == ruled:
        return True  # the same rows in the same order, as most archives record them: no sorting
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
    """What one line came to: its id (None if it has none), whether the hand is finished, the finding, and for
    an illegal line the engine's refusal (which the finding's sentence says)."""

    id: Any
    finished: bool
    finding: dict[str, Any] | None
    error: GoStopError | None = None


# The id of a line that cannot be read as JSON (cut short, or too long to read), where its text still shows it:
# the "id" key of the outer object (strings and brackets read as tokens, to tell the depth) with a string or
# a whole integer (one followed by , or }, not cut short) as its value.
_TOKENS = re.compile(rb'"(?:[^"\\\n]|\\.)*"|[{}\[\]]')
_ID_VALUE = re.compile(rb'\s*:\s*("(?:[^"\\\n]|\\.){0,256}"|-?\d{1,19}(?=\s*[,}]))')


def recover_id(raw: bytes) -> str | int | None:
    """The id a line that is not JSON (a truncated line, one too long) still shows, if any."""
    depth = 0
    for token in _TOKENS.finditer(raw, 0, LINE_LIMIT):
        said = token.group()
        if said in (b"{", b"["):
            depth += 1
        elif said in (b"}", b"]"):
            depth -= 1
        elif depth == 1 and said == b'"id"' and (value := _ID_VALUE.match(raw, token.end())):
            try:
                hand_id = orjson.loads(value.group(1))
            except orjson.JSONDecodeError:
                return None
            return hand_id if isinstance(hand_id, (str, int)) else None
    return None


def audit_line(raw: bytes) -> Verdict:
    """Audit one archive line (bytes, without its newline)."""
    if len(raw) > LINE_LIMIT:
        limit = f"longer than {LINE_LIMIT} bytes, the most a request body may be"
        return Verdict(recover_id(raw), False, _invalid("body-too-large", limit, excerpt=_excerpt(raw)))
    try:
        body = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        return Verdict(recover_id(raw), False, _invalid("not-json", str(exc), excerpt=_excerpt(raw)))
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
        finding = {"kind": "illegal", "code": exc.code, "move_index": index, "why": exc.why, "facts": facts}
        return Verdict(hand_id, False, finding, exc)
    settlement = result.settlement
    if recorded is None:
        return Verdict(hand_id, settlement is not None, None)
    if settlement is not None:
        ruled = [(p.payer, p.payee, p.points) for p in settlement.payments]
        if payments_agree(recorded, ruled):
            return Verdict(hand_id, True, None)
    shown = [{"from": f, "to": t, "points": n} for f, t, n in recorded]
    if settlement is None:
        return Verdict(hand_id, False, {"kind": "payments", "code": "unfinished", "recorded": shown, "ruled": None})
    ruled_shown = [{"from": f, "to": t, "points": n} for f, t, n in ruled]
    return Verdict(
        hand_id, True, {"kind": "payments", "code": "payments-differ", "recorded": shown, "ruled": ruled_shown}
    )


# --- a batch of lines, in a worker ---------------------------------------------------------------------


class Span(NamedTuple):
    """Lines of a plain archive by their place in it, for a worker that reads the file itself: its absolute
    path, where the lines start and how many bytes they take (no newline after the last), and the file's size
    and modification time when the audit opened it, so that a worker that sees another file does not audit it."""

    path: str
    offset: int
    length: int
    size: int
    mtime_ns: int


def read_span(span: Span, *, checked: bool = True) -> bytes | None:
    """The bytes at ``span``; None when this process cannot read them from the file the audit opened (no such
    file here, or one of another size or time: another host's, or the archive changed since)."""
    try:
        with open(span.path, "rb") as raw:
            stat = os.fstat(raw.fileno())
            if checked and (stat.st_size, stat.st_mtime_ns) != (span.size, span.mtime_ns):
                return None
            raw.seek(span.offset)
            data = raw.read(span.length)
    except OSError:
        return None
    return data if len(data) == span.length else None


class BatchResult(NamedTuple):
    """What a batch came to: hands audited, how many of them finished, the findings as JSON Lines bytes, the
    count of findings by (kind, code), the (line, id) of every hand whose id is known (for the duplicates),
    and the number of the batch's last line."""

    hands: int
    finished: int
    findings: bytes
    counts: dict[tuple[str, str], int]
    ids: tuple[tuple[int, Any], ...] = ()
    last_line: int = 0


def _words(lang: str) -> Words:
    return LANGUAGES.get(lang) or LANGUAGES["en"]


def _lines(data: bytes) -> Iterator[bytes]:
    """The lines of ``data`` as ``data.split(b"\\n")`` gives them, found with ``find`` (memchr): split looks at
    every byte of a line, which on lines of a hand (about 2 KB) costs a replay some 2%."""
    start = 0
    while (newline := data.find(b"\n", start)) >= 0:
        yield data[start:newline]
        start = newline + 1
    yield data[start:]


def audit_batch(archive: str, first_line: int, data: bytes | Span, lang: str = "en") -> BatchResult | None:
    """Audit a batch: ``data`` is archive lines joined by newlines, the first being line ``first_line``, or their
    Span in the archive file (None is returned when this process cannot read it there: the caller then reads
    it); each finding says what is wrong in ``lang``. Blank lines are skipped. Runs in a worker process (local
    or Dask): it takes and returns plain values."""
    if isinstance(data, Span):
        read = read_span(data)
        if read is None:
            return None
        data = read
    hands = finished = 0
    out = bytearray()
    counts: Counter[tuple[str, str]] = Counter()
    ids: list[tuple[int, Any]] = []
    number = first_line - 1
    for number, raw in enumerate(_lines(data), first_line):
        if not raw or raw.isspace():  # a blank line (isspace makes no copy, as strip would)
            continue
        hands += 1
        try:
            verdict = audit_line(raw)
        except Exception as exc:  # a bug of the engine's: reported as a finding, the audit goes on
            verdict = Verdict(None, False, {"kind": "error", "code": "internal-error", "detail": repr(exc)[:300]})
        finished += verdict.finished
        if verdict.id is not None:
            ids.append((number, verdict.id))
        if verdict.finding is not None:
            finding = {"archive": archive, "line": number, "id": verdict.id, **verdict.finding}
            facts = {**finding, "limit": LINE_LIMIT}
            finding["sentence"] = finding_sentence(_words(lang), finding["kind"], finding["code"], facts, verdict.error)
            out += orjson.dumps(finding, option=orjson.OPT_APPEND_NEWLINE)
            counts[finding["kind"], finding["code"]] += 1
    return BatchResult(hands, finished, bytes(out), dict(counts), tuple(ids), number)


# --- reading archives, in the parent -------------------------------------------------------------------


class Batch(NamedTuple):
    archive: str
    first_line: int
    data: bytes | Span


def _archive_finding(archive: str, line: int | None, code: str, detail: str, lang: str) -> BatchResult:
    finding = {"archive": archive, "line": line, "id": None, "kind": "archive", "code": code, "detail": detail}
    finding["sentence"] = finding_sentence(_words(lang), "archive", code, finding)
    return BatchResult(0, 0, orjson.dumps(finding, option=orjson.OPT_APPEND_NEWLINE), {("archive", code): 1})


class _Cut(NamedTuple):
    """A batch of lines cut from a stream: where it starts in the stream, its lines joined by newlines (no
    newline after the last), how many lines, and whether ``data`` is the stream's bytes as they are (False when
    a line over LINE_LIMIT was cut short in it)."""

    offset: int
    data: bytes
    lines: int
    whole: bool


def _cut(chunks: Iterable[bytes], batch: int) -> Iterator[_Cut]:
    """The stream's lines, ``batch`` at a time (the last line may lack its newline). The lines are found with
    ``find`` and a batch is one slice of a chunk where it can be: no line becomes an object of its own in the
    parent. A line still unfinished past LINE_LIMIT bytes at a chunk's end is cut to LINE_LIMIT + 1 bytes (enough
    to refuse it) and the rest of it skipped, so that no line, however long, is held whole; a longer line within
    one chunk is handed on as it is (the worker refuses it by its length)."""
    held: list[bytes] = []  # the batch's bytes from earlier chunks
    lines = 0  # complete lines in the batch so far
    tail = 0  # bytes of the batch's unfinished last line
    offset = at = 0  # where the batch starts in the stream; where the chunk does
    whole, skipping = True, False
    stream = iter(chunks)
    while True:
        try:
            chunk = next(stream)
        except StopIteration:
            break
        except Exception:  # the stream broke (a gzip cut short): its complete lines are audited first
            if lines:
                kept = b"".join(held)
                yield _Cut(offset, kept[: len(kept) - tail - 1], lines, whole)
            raise
        begin = 0
        if skipping:  # the rest of a line that was cut: dropped up to its newline, which ends it
            begin = chunk.find(b"\n")
            if begin < 0:
                at += len(chunk)
                continue
            skipping = False
        start = find = begin
        while (newline := chunk.find(b"\n", find)) >= 0:
            lines += 1
            find = newline + 1
            if lines == batch:
                data = chunk[start:newline]
                yield _Cut(offset, b"".join((*held, data)) if held else data, lines, whole)
                held, lines, tail, whole, start = [], 0, 0, True, find
                offset = at + find
        rest = chunk[start:]
        tail = len(chunk) - find if find > begin else tail + len(chunk) - begin
        if rest:
            held.append(rest)
        if tail > LINE_LIMIT:
            kept = b"".join(held)
            held = [kept[: len(kept) - tail + LINE_LIMIT + 1]]
            tail, whole, skipping = LINE_LIMIT + 1, False, True
        at += len(chunk)
    if held:
        data = b"".join(held)
        if tail == 0:
            data = data[:-1]  # the stream ends with a newline
        yield _Cut(offset, data, lines + (tail > 0), whole)


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

    def place(self) -> Span | None:
        """The archive as a place that a worker can read batches from (each batch gives its offset and length),
        for a plain file; None for gzip or stdin, which are read in order only."""
        if self.gzip or self.name == "-" or not self.size:
            return None
        stat = os.fstat(self.raw.fileno())
        return Span(os.path.abspath(self.name), 0, 0, stat.st_size, stat.st_mtime_ns)

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


def _work(
    archives: Sequence[str], batch: int, reading: _Reading, lang: str, sees: Callable[[Span], bool] = lambda _: False
) -> Iterator[Batch | BatchResult]:
    """Batches of lines, in archive order, and each archive's own finding (empty, truncated...) in its place. A
    batch of a plain archive file is handed on by its place (a Span) when ``sees`` says the workers read that
    file themselves: then its bytes are read once more, by the worker, instead of shipped."""
    for name in archives:
        line = 1
        content = False
        try:
            source = _Source(name)
        except OSError as exc:
            yield _archive_finding(name, None, "unreadable", exc.strerror or str(exc), lang)
            continue
        reading.source = source
        place = source.place()
        if place is not None and not sees(place):
            place = None
        try:
            for cut in _cut(source.chunks(), batch):
                content = content or bool(cut.data.strip())
                data: bytes | Span = cut.data
                if place is not None and cut.whole:
                    data = place._replace(offset=cut.offset, length=len(cut.data))
                yield Batch(name, line, data)
                line += cut.lines
        except (EOFError, gzip.BadGzipFile, zlib.error, OSError) as exc:
            code = "truncated" if isinstance(exc, EOFError) else "corrupt" if not _io_error(exc) else "unreadable"
            yield _archive_finding(name, line, code, f"{_said(exc)}: the lines before line {line} were audited", lang)
        else:
            if not content:
                yield _archive_finding(name, None, "empty", "the archive holds no line", lang)
        finally:
            reading.done_before += source.size
            reading.source = None
            source.close()


def _here(batch: Batch, lang: str) -> BatchResult:
    """A batch audited in this process, from its place in the archive when a worker could not read it there. It
    is read without the size and time check: an archive that has grown since still has those bytes there."""
    data = batch.data
    if isinstance(data, Span):
        read = read_span(data, checked=False)
        if read is None:
            detail = f"the archive cannot be read from line {batch.first_line} on (changed while it was audited?)"
            finding = _archive_finding(batch.archive, batch.first_line, "unreadable", detail, lang)
            return finding._replace(last_line=batch.first_line - 1)
        data = read
    result = audit_batch(batch.archive, batch.first_line, data, lang)
    assert result is not None  # bytes in hand are always audited
    return result


def _io_error(exc: BaseException) -> bool:
    return isinstance(exc, OSError) and not isinstance(exc, gzip.BadGzipFile) and exc.errno is not None


def _said(exc: BaseException) -> str:
    return str(exc) or type(exc).__name__


# --- running batches: inline, on local processes, or on Dask ---------------------------------------------


class Stopped(Exception):
    """The audit cannot go on: ``code`` says why (scheduler-gone, no-worker, worker-died, signal), ``facts``
    what the finding that says so names."""

    def __init__(self, code: str, detail: str, **facts: Any) -> None:
        super().__init__(detail)
        self.code, self.detail, self.facts = code, detail, facts


class _Signals:
    """SIGINT and SIGTERM, caught while the audit runs: noted, then acted on between batches and while waiting
    for one (never in the middle of writing a finding), so that the audit ends as it does for any stop."""

    def __init__(self) -> None:
        self.caught: int | None = None
        self._before: dict[int, Any] = {}

    def __enter__(self) -> _Signals:
        if threading.current_thread() is threading.main_thread():
            for number in (signal.SIGINT, signal.SIGTERM):
                self._before[number] = signal.signal(number, self._note)
        return self

    def __exit__(self, *exc: object) -> None:
        for number, handler in self._before.items():
            signal.signal(number, handler)

    def _note(self, number: int, frame: object) -> None:
        self.caught = self.caught or number

    def check(self) -> None:
        if self.caught is not None:
            name = signal.Signals(self.caught).name
            raise Stopped("signal", f"stopped by {name}", signal=name)


class _Pending(Protocol):
    def result(self, timeout: float | None = None) -> BatchResult | None: ...


class _Done:
    def __init__(self, value: BatchResult | None) -> None:
        self.value = value

    def result(self, timeout: float | None = None) -> BatchResult | None:
        return self.value


class _Runner(Protocol):
    """Where the batches run: ``submit`` one, ``wait`` for one's result (raising Stopped when the audit cannot
    go on; None for a Span the worker could not read), ``window`` batches in flight at most, ``where`` to say in
    the summary, and whether its workers read a plain archive themselves (``sees`` the file at ``place``)."""

    where: str
    window: int

    def submit(self, batch: Batch) -> _Pending: ...

    def wait(self, pending: _Pending, signals: _Signals) -> BatchResult | None: ...

    def sees(self, place: Span) -> bool: ...


class _Inline:
    where, window = "1 process", 0

    def __init__(self, lang: str) -> None:
        self.lang = lang

    def submit(self, batch: Batch) -> _Pending:
        return _Done(audit_batch(*batch, self.lang))

    def wait(self, pending: _Pending, signals: _Signals) -> BatchResult | None:
        return pending.result()

    def sees(self, place: Span) -> bool:
        return False  # the lines are in hand already


def _worker_start() -> None:
    """A local worker leaves SIGINT to the parent (a ^C at the terminal reaches the whole process group): the
    parent stops the audit and its workers in order, and no worker prints a traceback. SIGTERM ends it, as it
    ends any process (a worker forked from the audit would otherwise keep the audit's own handler)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


class _Pool:
    def __init__(self, jobs: int, lang: str) -> None:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor
        from multiprocessing.context import BaseContext

        # fork while the caller has no other thread (the command: the pool forks every worker before its own
        # management thread starts): each worker then costs a fork of a process that has imported the engine.
        # Else forkserver (a fork of a threaded caller could inherit its threads' locks): workers forked from a
        # clean process of their own, whose start-up (an interpreter and the imports) the audit pays once more.
        methods = multiprocessing.get_all_start_methods()
        context: BaseContext = multiprocessing.get_context("spawn")  # where there is no fork (Windows)
        if "fork" in methods and threading.active_count() == 1:
            context = multiprocessing.get_context("fork")
        elif "forkserver" in methods:
            forkserver = multiprocessing.get_context("forkserver")
            forkserver.set_forkserver_preload(["gostop.audit"])
            context = forkserver
        self.pool = ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=_worker_start)
        self.lang, self.where, self.window = lang, f"{jobs} local processes", jobs * 3

    def submit(self, batch: Batch) -> _Pending:
        try:
            return self.pool.submit(audit_batch, *batch, self.lang)
        except BrokenProcessPool:
            raise Stopped("worker-died", "a worker process died") from None

    def sees(self, place: Span) -> bool:
        return True  # processes of this host: a batch of a plain archive is read by the worker, not shipped

    def wait(self, pending: _Pending, signals: _Signals) -> BatchResult | None:
        while True:
            signals.check()
            try:
                return pending.result(timeout=0.25)
            except TimeoutError:
                continue
            except BrokenProcessPool:
                raise Stopped("worker-died", "a worker process died") from None

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)


@contextlib.contextmanager
def _local(jobs: int, lang: str) -> Iterator[_Runner]:
    if jobs == 1:
        yield _Inline(lang)
        return
    pool = _Pool(jobs, lang)
    try:
        yield pool
    finally:
        pool.close()


class _Dask:
    """Batches on a Dask cluster. The scheduler is gone when the client loses it (after Dask's own attempts to
    reconnect, 10 s); the cluster is given up when it has had no worker for ``worker_timeout`` seconds."""

    def __init__(self, client: Any, address: str, lang: str, worker_timeout: float) -> None:
        self.client, self.lang, self.worker_timeout = client, lang, worker_timeout
        self.where = f"Dask at {address}"
        self.window = sum(client.nthreads().values()) * 3  # as many tasks queued as the local pool's
        self.no_worker_since: float | None = None

    def submit(self, batch: Batch) -> _Pending:
        # the batch's bytes go in the task itself (not scattered): a task lost with its worker is run again
        try:
            future: _Pending = self.client.submit(audit_batch, *batch, self.lang, pure=False)
        except Exception as exc:  # a client that has lost its scheduler refuses new work
            raise self._gone(exc) from None
        return future

    def _gone(self, exc: BaseException) -> Stopped:
        return Stopped("scheduler-gone", f"the Dask scheduler is gone ({_said(exc)})")

    def sees(self, place: Span) -> bool:
        """Whether every worker reads the plain archive at ``place`` as this process does (a cluster on this host,
        or a file system the hosts share): then a task names its lines' place instead of carrying them. A worker
        that joins later and cannot read it returns None for the batch, which the audit then reads itself."""
        head = read_span(place._replace(length=min(place.size, 1 << 16)))
        try:
            seen = self.client.run(_sees, place._replace(length=len(head or b"")), head)
        except Exception:  # a worker gone or failing: the lines are shipped, as to any cluster
            return False
        return bool(seen) and all(seen.values())

    def wait(self, pending: _Pending, signals: _Signals) -> BatchResult | None:
        from distributed import KilledWorker

        while True:
            signals.check()
            try:
                # a result kept by a worker that has died is computed again (Dask says "rescheduling"): the wait
                # goes on, with the workers checked every half second
                result = pending.result(timeout=0.5)
                break
            except TimeoutError:
                self._check_workers()
            except KilledWorker as exc:  # a batch that took every worker it ran on down with it
                raise Stopped("worker-died", f"a Dask worker died running a batch ({_said(exc)})") from None
            except Exception as exc:  # cancelled with the connection to the scheduler, or the comm closed
                raise self._gone(exc) from None
        self.no_worker_since = None
        return result

    def _check_workers(self) -> None:
        try:
            workers = len(self.client.nthreads())
        except Exception as exc:
            raise self._gone(exc) from None
        if workers:
            self.no_worker_since = None
            return
        now = time.monotonic()
        self.no_worker_since = self.no_worker_since or now
        if now - self.no_worker_since >= self.worker_timeout:
            waited = round(self.worker_timeout)
            raise Stopped("no-worker", f"the Dask cluster had no worker for {waited} s", seconds=waited)


def _sees(place: Span, head: bytes | None) -> bool:
    """On a Dask worker: whether it reads the archive at ``place`` (its first bytes) as the audit does."""
    return head is not None and read_span(place) == head


class _NoOrphanGathers(logging.Filter):
    """Drops what asyncio says of a Dask gather left behind by a ``result(timeout=...)`` that timed out (an
    ``AllExit`` "never retrieved", with its traceback, once the client closes): nothing was lost."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        return type(error).__name__ != "AllExit"


class _OneLine(logging.Filter):
    """Dask's log of the client, each record on one line: an error's traceback (the scheduler's connection
    lost, the attempts to reconnect) said as the exception's type and message. The audit says itself what
    stopped it, in its last finding; a traceback would read as the audit's own failure."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            record.msg = f"{record.getMessage()} ({type(error).__name__}: {error})".replace("\n", " ").strip()
            record.args, record.exc_info, record.exc_text, record.stack_info = (), None, None, None
        return True


def _quiet_dask_logs() -> None:
    asyncio_log = logging.getLogger("asyncio")
    if not any(isinstance(f, _NoOrphanGathers) for f in asyncio_log.filters):
        asyncio_log.addFilter(_NoOrphanGathers())
    for handler in logging.getLogger("distributed").handlers:
        if not any(isinstance(f, _OneLine) for f in handler.filters):
            handler.addFilter(_OneLine())


@contextlib.contextmanager
def _dask(address: str, lang: str, worker_timeout: float) -> Iterator[_Runner]:
    try:
        import dask.config
        from distributed import Client as DaskClient
    except ImportError:
        raise AuditError("--scheduler needs Dask distributed: pip install 'gostop[dask]'") from None
    where = urlsplit(address if "://" in address else f"tcp://{address}")
    _quiet_dask_logs()
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
                client.wait_for_workers(1, timeout=max(worker_timeout, 1.0))
            except TimeoutError:
                raise AuditError(f"the Dask scheduler at {address} has no worker") from None
            yield _Dask(client, address, lang, worker_timeout)
        finally:
            with contextlib.suppress(Exception):  # a client whose scheduler is gone closes as best it can
                client.close(timeout=5)


class AuditError(Exception):
    """An audit that cannot start (a cluster that cannot be reached, an output that cannot be written)."""


# --- duplicate ids ---------------------------------------------------------------------------------------


_INT_ID = 0x9E37_79B9_7F4A_7C15  # an integer id's hash is XORed with this (any odd 64-bit constant does)


class _Seen:
    """The ids seen so far, as 64-bit hashes in one open-addressed table (8 bytes a slot, at most two thirds
    full): 12 to 24 bytes an id (36 for the moment it doubles), where a set of the ids themselves would take a
    hundred or more. Two ids whose hashes are equal would be taken for one (about one chance in 300,000 for
    ten million ids)."""

    def __init__(self) -> None:
        self.table = array("Q", [0]) * 1024
        self.count = 0

    def seen_before(self, ids: Iterable[tuple[int, Any]]) -> list[tuple[int, Any]]:
        """Note a batch's (line, id) pairs; those whose id was seen before (earlier in the batch too), in order.
        One loop for the batch, its table and mask held in locals: the parent pays it for every hand."""
        found: list[tuple[int, Any]] = []
        table, count = self.table, self.count
        mask = len(table) - 1
        for item in ids:
            hand_id = item[1]
            # the parent alone hashes, so Python's hash (salted per process) is the same for the whole audit; an
            # integer's hash is moved off its value, so that 7 and "7" stay two ids; 0 marks an empty slot
            h = (hash(hand_id) if type(hand_id) is str else hash(hand_id) ^ _INT_ID) & 0xFFFF_FFFF_FFFF_FFFF or 1
            slot = h & mask
            while (held := table[slot]) != h:
                if not held:
                    table[slot] = h
                    count += 1
                    if count * 3 > len(table) * 2:
                        self._grow()
                        table = self.table
                        mask = len(table) - 1
                    break
                slot = (slot + 1) & mask
            else:
                found.append(item)
        self.count = count
        return found

    def _grow(self) -> None:
        old = self.table
        self.table = array("Q", [0]) * (2 * len(old))  # no bytes of that size made first
        mask = len(self.table) - 1
        for h in old:
            if h:
                slot = h & mask
                while self.table[slot]:
                    slot = (slot + 1) & mask
                self.table[slot] = h


# --- the audit -----------------------------------------------------------------------------------------


@dataclass
class Summary:
    """What an audit found: hands, finished hands, findings by (kind, code), time, where it ran, and, for an
    audit that stopped early, the finding that says where."""

    where: str = ""
    hands: int = 0
    finished: int = 0
    counts: Counter[tuple[str, str]] = field(default_factory=Counter)
    seconds: float = 0.0
    lines: int = 0  # lines (blank ones too) of every archive whose batches are done, for the progress
    stopped: dict[str, Any] | None = None
    last: tuple[str, int, Any] | None = None  # the archive and line of the last hand audited, the last id read

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
        said: dict[str, Any] = {
            "hands": self.hands,
            "finished": self.finished,
            "findings": self.findings,
            "by_kind": kinds,
            "seconds": round(self.seconds, 3),
            "hands_per_second": round(self.rate),
            "ran_on": self.where,
        }
        if self.stopped is not None:
            said["stopped"] = self.stopped
        return said

    def text(self) -> str:
        lines = [
            f"audited {self.hands:,} hands ({self.finished:,} finished) in {self.seconds:.2f} s: "
            f"{self.rate:,.0f} hands a second on {self.where}",
            f"findings: {self.findings:,}",
        ]
        for kind, codes in self.as_dict()["by_kind"].items():
            listed = ", ".join(f"{code} {n:,}" for code, n in codes.items())
            lines.append(f"  {kind} {sum(codes.values()):,}: {listed}")
        if self.stopped is not None:
            lines.append(f"stopped early: {self.stopped['sentence']}")
        return "\n".join(lines)


class _LineCount:
    """The lines of the archives (files only), counted in a thread beside the audit so that the progress can
    say how far along it is and when it should end; ``total`` is None until every archive is counted."""

    def __init__(self, files: Sequence[Path]) -> None:
        self.total: int | None = None
        self._thread = threading.Thread(target=self._count, args=(files,), daemon=True, name="audit-line-count")
        self._thread.start()

    def _count(self, files: Sequence[Path]) -> None:
        total = 0
        try:
            for path in files:
                with open(path, "rb") as raw:
                    chunks = _gunzip(raw) if raw.peek(2)[:2] == GZIP_MAGIC else iter(lambda: raw.read(READ_SIZE), b"")
                    last = b"\n"
                    for chunk in chunks:
                        total += chunk.count(b"\n")
                        last = chunk[-1:] or last
                    total += last != b"\n"
        except (OSError, EOFError, zlib.error):
            return  # the audit itself reports the archive; the progress goes without a total
        self.total = total


class _Progress:
    """How far the audit is, on stderr: on a terminal a bar redrawn at most ten times a second; elsewhere (a
    pipeline's log) a line every ``every`` seconds, with the hands, their rate, the findings and, once the
    lines are counted, how many are left and when the audit should end."""

    def __init__(
        self, reading: _Reading, summary: Summary, started: float, mode: str | None, every: float, files: list[Path]
    ) -> None:
        self.reading, self.summary, self.started, self.mode, self.every = reading, summary, started, mode, every
        self.last, self.files = started, files
        self.count: _LineCount | None = None

    def begin(self) -> None:
        """Start counting the lines, once the first batch is given out: a local pool has forked its workers by
        then, from a process with no other thread (``_Pool``)."""
        if self.mode == "lines" and self.files and self.count is None:
            self.count = _LineCount(self.files)

    def update(self, final: bool = False) -> None:
        if self.mode == "bar":
            self._bar(final)
        elif self.mode == "lines" and not final and time.monotonic() - self.last >= self.every:
            self._line()

    def _bar(self, final: bool) -> None:
        now = time.monotonic()
        if now - self.last < 0.1 and not final:
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

    def _line(self) -> None:
        now = self.last = time.monotonic()
        elapsed = max(now - self.started, 1e-9)
        summary = self.summary
        said = f"audit: {summary.hands:,} hands, {summary.hands / elapsed:,.0f} a second, {summary.findings:,} findings"
        total = self.count.total if self.count else None
        if total and summary.lines:
            lines = min(summary.lines, total)
            left = (total - lines) / (lines / elapsed)
            said += f"; line {lines:,} of {total:,} ({lines / total:.0%}), about {left:,.0f} s left"
        sys.stderr.write(said + "\n")
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


def _with_duplicates(result: BatchResult, seen: _Seen, w: Words, archive: str, counts: Counter[Any]) -> bytes:
    """The batch's findings with a ``duplicate-id`` finding after each line whose id an earlier line has (of
    any archive of the audit), in line order; ``counts`` counts them."""
    duplicates = seen.seen_before(result.ids)
    if not duplicates:
        return result.findings
    counts["duplicate", "duplicate-id"] += len(duplicates)
    found = [(orjson.loads(f)["line"], 0, f + b"\n") for f in result.findings.splitlines()]
    for line, hand_id in duplicates:
        finding = {"archive": archive, "line": line, "id": hand_id, "kind": "duplicate", "code": "duplicate-id"}
        finding["detail"] = "an earlier line has this id"
        finding["sentence"] = finding_sentence(w, "duplicate", "duplicate-id", finding)
        found.append((line, 1, orjson.dumps(finding, option=orjson.OPT_APPEND_NEWLINE)))
    return b"".join(f for _, _, f in sorted(found, key=lambda f: f[:2]))


def _stopped_finding(stop: Stopped, summary: Summary, w: Words, archives: Sequence[str]) -> dict[str, Any]:
    """The last finding of an audit that stopped early: why, how many hands were audited, the archive and line
    of the last of them (every line up to it is audited and its findings written), and the last id read."""
    archive, line, hand_id = summary.last or (archives[0] if archives else None, None, None)
    facts = {"hands": summary.hands, **stop.facts}
    finding: dict[str, Any] = {"archive": archive, "line": line, "id": hand_id, "kind": "stopped", "code": stop.code}
    finding.update(facts, detail=stop.detail)
    finding["sentence"] = finding_sentence(w, "stopped", stop.code, facts)
    return finding


def run(
    archives: Sequence[str],
    *,
    out: str | None = None,
    jobs: int | None = None,
    scheduler: str | None = None,
    batch: int | None = None,
    progress: bool | str = False,
    progress_every: float = 10.0,
    lang: str = "en",
    worker_timeout: float = 60.0,
) -> Summary:
    """Audit the archives, writing the findings to ``out`` (stdout if None) in archive order, on ``jobs``
    local processes or on the Dask cluster at ``scheduler``. By default every core works, but for archives
    smaller than SMALL (read from files, not stdin) one process does: starting workers would cost more.
    ``batch``: lines a task (by default BATCH, or DASK_BATCH on Dask, where each task costs the scheduler and
    the worker a few milliseconds). ``progress``: "bar" (or True) for a terminal's bar, "lines" for a line
    every ``progress_every`` seconds.
    An audit that cannot go on (its cluster gone, a signal) ends with a ``stopped`` finding and
    ``Summary.stopped``; the findings before it are written."""
    files = [Path(a) for a in archives if a != "-" and Path(a).is_file()]
    reading = _Reading(total=sum(f.stat().st_size for f in files))
    if jobs is None:
        small = len(files) == len(archives) and reading.total < SMALL
        jobs = 1 if small else len(os.sched_getaffinity(0))
    batch = batch or (DASK_BATCH if scheduler else BATCH)
    w = _words(lang)
    summary = Summary()
    started = time.monotonic()
    mode = "bar" if progress is True else progress or None
    bar = _Progress(reading, summary, started, mode, progress_every, files)
    seen = _Seen()
    with _output(out) as sink, _Signals() as signals:
        try:
            runner_context = _dask(scheduler, lang, worker_timeout) if scheduler else _local(jobs, lang)
            with runner_context as runner:
                summary.where = runner.where
                pending: deque[tuple[Batch | None, _Pending]] = deque()

                def take() -> None:
                    done, waiting = pending.popleft()
                    result = runner.wait(waiting, signals)
                    if result is None:  # the place of a batch's lines, which its worker could not read
                        assert done is not None
                        result = _here(done, lang)
                    summary.add(result)
                    findings = result.findings
                    if done is not None:
                        findings = _with_duplicates(result, seen, w, done.archive, summary.counts)
                        # the last id read: of the last line, or of the line nearest before it that has one
                        last_id = result.ids[-1][1] if result.ids else summary.last[2] if summary.last else None
                        summary.last = (done.archive, result.last_line, last_id)
                        summary.lines += result.last_line - done.first_line + 1
                    if findings:
                        sink.write(findings)
                        sink.flush()
                    bar.update()

                for item in _work(archives, batch, reading, lang, runner.sees):
                    signals.check()
                    if isinstance(item, Batch):
                        pending.append((item, runner.submit(item)))
                        bar.begin()
                    else:
                        pending.append((None, _Done(item)))
                    while len(pending) > runner.window:
                        take()
                while pending:
                    take()
                signals.check()
        except Stopped as stop:
            summary.stopped = _stopped_finding(stop, summary, w, archives)
            sink.write(orjson.dumps(summary.stopped, option=orjson.OPT_APPEND_NEWLINE))
            sink.flush()
            summary.counts["stopped", stop.code] += 1
    summary.seconds = time.monotonic() - started
    bar.update(final=True)
    return summary
