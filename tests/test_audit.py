"""`gostop audit` on local processes: an archive with spoiled lines gives exactly those findings, each with the
code /v1/replay answers for the line; the faults (a truncated or corrupt gzip, 70 KB of garbage, an empty
archive) are each reported with nothing lost; memory stays flat however long the archive is."""

from __future__ import annotations

import contextlib
import gzip
import json
import os
import re
import signal
import subprocess
import sys
import time
import zlib
from pathlib import Path

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gostop import audit
from tests.archives import simulated, spoil
from tests.conftest import GAME_LOGS

pytestmark = pytest.mark.xdist_group("programs")
# several audit processes at once: never beside the fault tests, which count on the cores (as the Dask tests)
BUSY = pytest.mark.xdist_group("resilience")

GOSTOP = Path(sys.executable).with_name("gostop")
DATA = GAME_LOGS


@pytest.fixture(scope="module")
def hands() -> list[bytes]:
    return simulated("korean-2p", 40) + simulated("korean-3p", 20)


@pytest.fixture(scope="module")
def spoiled(hands, tmp_path_factory):
    data, expected = spoil(hands)
    path = tmp_path_factory.mktemp("archives") / "spoiled.jsonl"
    path.write_bytes(data)
    return path, expected


def gostop(*argv: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    """The command; an audit on one process unless the test says otherwise, so that the suite's other
    worker (and its timing-bound fault tests) keeps a core."""
    if argv[0] == "audit" and "--jobs" not in argv:
        argv = (*argv, "--jobs", "1")
    return subprocess.run([str(GOSTOP), *argv], input=stdin, capture_output=True, timeout=300)


def findings(path: Path) -> list[dict]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rb") as f:
        return [json.loads(line) for line in f]


def kinds(found: list[dict]) -> list[tuple[int, str, str]]:
    return [(f["line"], f["kind"], f["code"]) for f in found]


# --- what is found ---------------------------------------------------------------------------------------


def test_an_archive_with_spoiled_lines_gives_exactly_those_findings(spoiled, tmp_path):
    archive, expected = spoiled
    done = gostop("audit", str(archive), "--out", str(tmp_path / "f.jsonl"), "--json")
    assert done.returncode == 1 and b"Traceback" not in done.stderr
    found = findings(tmp_path / "f.jsonl")
    assert kinds(found) == expected
    assert {f["archive"] for f in found} == {str(archive)}
    summary = json.loads(done.stdout)
    assert summary["hands"] == 60 and summary["findings"] == len(expected)  # the blank line is no hand
    assert (
        summary["by_kind"]["invalid"]["validation-error"] == 2
        and summary["by_kind"]["illegal"]["card-not-in-hand"] == 1
    )


def test_each_finding_says_what_the_line_did_wrong(spoiled, tmp_path):
    archive, _ = spoiled
    gostop("audit", str(archive), "--out", str(tmp_path / "f.jsonl"))
    by_code = {f["code"]: f for f in findings(tmp_path / "f.jsonl")}
    illegal = by_code["card-not-in-hand"]
    assert illegal["id"] == "korean-2p-4" and illegal["move_index"] == 3
    assert illegal["facts"] == {"player": illegal["facts"]["player"], "card": "jan-bright", "action": "play"}
    differ = by_code["payments-differ"]
    assert differ["recorded"][0]["points"] == differ["ruled"][0]["points"] + 1
    assert differ["recorded"][1:] == differ["ruled"][1:]
    assert by_code["unfinished"]["ruled"] is None and by_code["unfinished"]["recorded"]
    assert by_code["body-too-large"]["id"] is None and len(by_code["body-too-large"]["excerpt"]) == 80
    assert by_code["bad-deal"]["facts"]["card"] == "jan-brite"
    assert by_code["not-json"]["detail"]  # orjson's message: what and where


def test_the_audit_refuses_exactly_what_the_api_refuses(spoiled, client, tmp_path):
    """Every line the audit calls illegal or not of the API's shape is answered 422 by POST /v1/replay with the
    same code (the audit calls the engine itself, so this holds the two together)."""
    archive, _ = spoiled
    gostop("audit", str(archive), "--out", str(tmp_path / "f.jsonl"))
    lines = archive.read_bytes().split(b"\n")
    checked = 0
    for finding in findings(tmp_path / "f.jsonl"):
        if finding["kind"] == "illegal" or finding["code"] == "validation-error":
            body = orjson.loads(lines[finding["line"] - 1])
            body.pop("id", None), body.pop("recorded", None)
            answer = client.post("/v1/replay", json=body)
            assert (answer.status_code, answer.get_json()["code"]) == (422, finding["code"])
            assert answer.get_json().get("move_index") == finding.get("move_index")
            checked += 1
    assert checked == 6


def test_every_game_log_of_the_tests_gets_the_verdict_the_api_gives(client, tmp_path):
    archive = tmp_path / "logs.jsonl"
    bodies = [json.loads(p.read_text(encoding="utf-8"))["request"] for p in DATA]
    archive.write_bytes(b"".join(orjson.dumps({"id": p.stem, **b}) + b"\n" for p, b in zip(DATA, bodies, strict=True)))
    gostop("audit", str(archive), "--out", str(tmp_path / "f.jsonl"))
    found = {f["id"]: f for f in findings(tmp_path / "f.jsonl")}
    refused = 0
    for path, body in zip(DATA, bodies, strict=True):
        answer = client.post("/v1/replay", json=body)
        if answer.status_code == 200:
            assert path.stem not in found
        else:
            assert found[path.stem]["code"] == answer.get_json()["code"]
            assert found[path.stem]["move_index"] == answer.get_json().get("move_index")
            refused += 1
    assert refused >= 5 and len(found) == refused


@BUSY
def test_the_same_findings_whatever_the_jobs_batches_compression_and_source(spoiled, tmp_path):
    archive, _ = spoiled
    reference = gostop("audit", str(archive), "--jobs", "1").stdout
    assert reference.count(b"\n") == len(spoiled[1])
    for argv in (["--jobs", "2", "--batch", "1"], ["--jobs", "3", "--batch", "7"]):
        assert gostop("audit", str(archive), *argv).stdout == reference, argv

    def audited(path: Path, **options) -> bytes:  # in this process: the same code, without a start-up each
        out = tmp_path / "findings.jsonl"
        audit.run([str(path)], out=str(out), jobs=1, **options)
        return out.read_bytes().replace(str(path).encode(), str(archive).encode())

    zipped = tmp_path / "spoiled.jsonl.gz"
    zipped.write_bytes(gzip.compress(archive.read_bytes()))
    lines = archive.read_bytes().splitlines(keepends=True)
    members = tmp_path / "members.jsonl.gz"  # several gzip members, and the zero padding some writers leave
    members.write_bytes(gzip.compress(b"".join(lines[:25])) + gzip.compress(b"".join(lines[25:])) + bytes(16))
    assert audited(zipped) == audited(members) == audited(archive, batch=13) == reference
    assert gostop("audit", "-", stdin=zipped.read_bytes()).stdout == reference.replace(str(archive).encode(), b"-")
    audit.run([str(archive)], out=str(tmp_path / "f.jsonl.gz"), jobs=1)
    assert gzip.decompress((tmp_path / "f.jsonl.gz").read_bytes()) == reference


def test_several_archives_are_audited_in_order_and_the_summary_goes_to_stderr_with_findings_on_stdout(
    spoiled, hands, tmp_path
):
    clean, again = tmp_path / "clean.jsonl", tmp_path / "again.jsonl"
    clean.write_bytes(b"\n".join(h.replace(b'"id":"', b'"id":"clean-', 1) for h in hands[:10]))  # no last newline
    again.write_bytes(b"\n".join(h.replace(b'"id":"', b'"id":"again-', 1) for h in hands[:10]))
    done = gostop("audit", str(clean), str(spoiled[0]), str(again))
    found = [json.loads(line) for line in done.stdout.splitlines()]
    assert kinds(found) == spoiled[1] and done.returncode == 1
    assert done.stderr.decode().startswith("audited 80 hands (")
    done = gostop("audit", str(clean))
    assert (done.returncode, done.stdout) == (0, b"") and "findings: 0" in done.stderr.decode()


# --- faults -----------------------------------------------------------------------------------------------


def test_a_truncated_gzip_is_reported_after_every_complete_line_before_it_is_audited(spoiled, tmp_path):
    archive, expected = spoiled
    whole = gzip.compress(archive.read_bytes())
    cut = tmp_path / "cut.jsonl.gz"
    cut.write_bytes(whole[: len(whole) * 2 // 3])
    readable = zlib.decompressobj(wbits=31).decompress(cut.read_bytes())
    complete = readable.count(b"\n")  # the lines before the break
    done = gostop("audit", str(cut), "--out", str(tmp_path / "f.jsonl"), "--json")
    assert done.returncode == 1 and b"Traceback" not in done.stderr
    found = findings(tmp_path / "f.jsonl")
    assert kinds(found[:-1]) == [e for e in expected if e[0] <= complete]
    assert (found[-1]["kind"], found[-1]["code"], found[-1]["line"]) == ("archive", "truncated", complete + 1)
    hands_before = sum(1 for line in readable.split(b"\n")[:complete] if line.strip())
    assert json.loads(done.stdout)["hands"] == hands_before


def test_a_corrupt_gzip_is_reported(spoiled, tmp_path):
    whole = bytearray(gzip.compress(spoiled[0].read_bytes()))
    whole[len(whole) // 2 : len(whole) // 2 + 64] = bytes(64)
    bad = tmp_path / "bad.jsonl.gz"
    bad.write_bytes(bytes(whole))
    done = gostop("audit", str(bad))
    last = json.loads(done.stdout.splitlines()[-1])
    assert (
        done.returncode == 1
        and (last["kind"], last["code"]) == ("archive", "corrupt")
        and b"Traceback" not in done.stderr
    )


@pytest.mark.parametrize("content", [b"", b"\n\n  \n", gzip.compress(b"")], ids=["empty", "blank", "empty-gzip"])
def test_an_empty_archive_is_reported(tmp_path, content):
    path = tmp_path / "empty.jsonl"
    path.write_bytes(content)
    done = gostop("audit", str(path))
    assert done.returncode == 1 and b"Traceback" not in done.stderr
    (finding,) = [json.loads(line) for line in done.stdout.splitlines()]
    assert finding == {
        "archive": str(path),
        "line": None,
        "id": None,
        "kind": "archive",
        "code": "empty",
        "detail": "the archive holds no line",
        "sentence": "The archive holds no line",
    }


def test_garbage_lines_of_any_length_are_findings_and_the_lines_around_them_are_audited(hands, tmp_path):
    path = tmp_path / "garbage.jsonl"
    garbage = [b"\x00\xff" * 35_000, b"x" * 3_000_000, b"{" * 50_000, b"not json at all"]
    path.write_bytes(b"\n".join([hands[0], *garbage, hands[1], b"y" * 200_000]))  # ends in a long line, no newline
    done = gostop("audit", str(path), "--batch", "2")
    found = [json.loads(line) for line in done.stdout.splitlines()]
    assert kinds(found) == [
        (2, "invalid", "body-too-large"),
        (3, "invalid", "body-too-large"),
        (4, "invalid", "not-json"),
        (5, "invalid", "not-json"),
        (7, "invalid", "body-too-large"),
    ]
    assert "audited 7 hands (2 finished)" in done.stderr.decode()


def test_an_archive_that_is_not_there_is_bad_usage(tmp_path):
    done = gostop("audit", str(tmp_path / "nope.jsonl"))
    assert (done.returncode, done.stdout) == (
        2,
        b"",
    ) and done.stderr.decode() == f"gostop: {tmp_path / 'nope.jsonl'}: no such file\n"
    assert gostop("audit", str(tmp_path), "--jobs", "0").returncode == 2


def test_an_engine_failure_on_a_line_is_a_finding_and_the_audit_goes_on(hands, tmp_path, monkeypatch):
    path = tmp_path / "a.jsonl"
    path.write_bytes(b"\n".join(hands[:3]))
    real = audit.Log

    class Flaky:  # the engine's Log, but for a bug on the second line
        @staticmethod
        def from_dict(body):
            if body["players"] == ["A", "B"] and len(body["moves"]) == len(orjson.loads(hands[1])["moves"]):
                raise RuntimeError("a bug")
            return real.from_dict(body)

    monkeypatch.setattr(audit, "Log", Flaky)
    summary = audit.run([str(path)], jobs=1, out=str(tmp_path / "f.jsonl"))
    (finding,) = findings(tmp_path / "f.jsonl")
    assert (finding["line"], finding["kind"], finding["code"]) == (2, "error", "internal-error")
    assert "a bug" in finding["detail"] and summary.hands == 3


@BUSY
def test_memory_stays_flat_however_long_the_archive(tmp_path):
    """The audit's peak memory for 180,000 lines is that for 60,000 (by then every read is a whole 1 MiB) but
    for the table of the ids seen (for the duplicates: at most 36 bytes an id, as it doubles): lines are read,
    handed out and written a batch at a time, and nothing else is kept per line. Measured as the
    peak of what the audit's process allocated (tracemalloc), which, unlike the resident size, does not jump
    with the kernel's huge pages; bench/audit_bench.py reports the resident size on a million lines. Cheap
    lines keep the test quick: each is refused by its shape."""
    import tracemalloc

    peaks = []
    for count in (60_000, 180_000):
        path = tmp_path / f"{count}.jsonl.gz"
        with gzip.open(path, "wb", compresslevel=1) as f:
            f.write(b"".join(b'{"id": %d, "players": ["A"], "deal": {"layout": []}}\n' % i for i in range(count)))
        tracemalloc.start()
        try:
            summary = audit.run([str(path)], jobs=2, out=str(tmp_path / "findings.jsonl.gz"))
            peaks.append(tracemalloc.get_traced_memory()[1])
        finally:
            tracemalloc.stop()
        assert summary.findings == count
    assert peaks[1] < peaks[0] + 2**19 + 36 * 180_000, peaks  # the whole table of 180,000 ids, at its doubling


def test_the_progress_bar_shows_on_a_terminal_only(spoiled):
    primary, secondary = os.openpty()
    try:
        done = subprocess.run(
            [str(GOSTOP), "audit", str(spoiled[0]), "--out", os.devnull],
            stderr=secondary,
            stdout=subprocess.PIPE,
            timeout=300,
        )
        os.close(secondary)
        shown = b""
        while True:
            try:
                chunk = os.read(primary, 65536)
            except OSError:
                break
            if not chunk:
                break
            shown += chunk
    finally:
        os.close(primary)
    assert done.returncode == 1 and b"\r100% [" + b"#" * 30 + b"] 60 hands" in shown
    assert b"audited 60 hands" in done.stdout  # with --out, the summary goes to stdout
    assert "on 1 process" in done.stdout.decode()  # without --jobs, one process for a small archive
    quiet = gostop("audit", str(spoiled[0]), "--out", os.devnull)
    assert b"\r" not in quiet.stderr + quiet.stdout


@BUSY
def test_without_jobs_every_core_works_unless_the_archive_is_small(tmp_path):
    cores = len(os.sched_getaffinity(0))
    for count, where in ((10_000, "1 process"), (30_000, f"{cores} local processes" if cores > 1 else "1 process")):
        path = tmp_path / f"{count}.jsonl"
        path.write_bytes(b"".join(b'{"id": %d, "players": ["A"], "deal": {"layout": []}}\n' % i for i in range(count)))
        assert (path.stat().st_size < audit.SMALL) == (count == 10_000)
        done = subprocess.run([str(GOSTOP), "audit", str(path), "--out", os.devnull], capture_output=True, timeout=120)
        assert f"audited {count:,} hands (0 finished)" in done.stdout.decode() and f"on {where}" in done.stdout.decode()


def test_simulate_writes_an_archive_the_audit_finds_clean(hands):
    ids = [orjson.loads(line)["id"] for line in hands]
    assert len(set(ids)) == len(hands) and ids[:2] == ["korean-2p-1", "korean-2p-2"]
    assert all(orjson.loads(line)["recorded"]["payments"] is not None for line in hands)
    verdicts = [audit.audit_line(line) for line in hands]
    assert [v.finding for v in verdicts] == [None] * len(hands) and all(v.finished for v in verdicts)


# --- an audit a pipeline can trust (issue 30) --------------------------------------------------------------


@pytest.fixture(scope="module")
def long_archive(spoiled, tmp_path_factory) -> tuple[Path, bytes]:
    """The spoiled archive 100 times over under new ids (6,300 lines), and its findings audited whole."""
    archive, _ = spoiled
    lines = archive.read_bytes().rstrip(b"\n").split(b"\n")
    path = tmp_path_factory.mktemp("long") / "long.jsonl"
    with open(path, "wb") as f:
        for copy in range(100):
            for line in lines:
                line = line.replace(b'{"id":"', b'{"id":"%d-' % copy, 1).replace(
                    b'{"id": ', b'{"id": %d' % (copy + 1), 1
                )
                f.write(line + b"\n")
    return path, gostop("audit", str(path)).stdout


def started_audit(path: Path, out: Path, *argv: str, at_least: int = 3) -> subprocess.Popen[bytes]:
    """`gostop audit`, once it has written ``at_least`` findings."""
    audit = subprocess.Popen(
        [str(GOSTOP), "audit", str(path), "--out", str(out), *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    deadline = time.monotonic() + 120
    while not (out.exists() and out.read_bytes().count(b"\n") >= at_least):
        assert audit.poll() is None and time.monotonic() < deadline, audit.communicate()
        time.sleep(0.005)
    return audit


def stopped_finding(audit: subprocess.Popen[bytes], out: Path, whole: bytes) -> dict:
    """Exit 2 without a traceback, every finding before the last one of the whole audit's (whole lines: each
    flushed as written), and the last one, which says where the audit stopped: returned."""
    stdout, stderr = audit.communicate(timeout=120)
    assert audit.returncode == 2 and b"Traceback" not in stderr + stdout, stderr.decode()[-3000:]
    *before, last = out.read_bytes().splitlines(keepends=True)
    assert whole.startswith(b"".join(before)) and len(before) < whole.count(b"\n")
    stopped = json.loads(last)
    assert stopped["kind"] == "stopped" and 0 < stopped["hands"] <= stopped["line"] and stopped["id"]
    assert f"after {stopped['hands']:,} hands" in stopped["sentence"]
    assert "stopped early: " in stdout.decode()
    return stopped


@BUSY
@pytest.mark.parametrize(("sent", "jobs"), [(signal.SIGTERM, "2"), (signal.SIGINT, "2"), (signal.SIGTERM, "1")])
def test_a_signal_stops_the_audit_with_a_last_finding_that_says_where(long_archive, tmp_path, sent, jobs):
    """Today SIGINT ends it with status 130 and SIGTERM kills it, with no word of where it was."""
    path, whole = long_archive
    out = tmp_path / "findings.jsonl"
    audit = started_audit(path, out, "--jobs", jobs, "--batch", "10")
    audit.send_signal(sent)
    stopped = stopped_finding(audit, out, whole)
    assert (stopped["code"], stopped["signal"]) == ("signal", sent.name)
    assert stopped["archive"] == str(path) and stopped["id"].split("-")[0].isdigit()


@BUSY
def test_a_local_worker_killed_stops_the_audit_with_a_last_finding(long_archive, tmp_path):
    """Today: exit 2 with a message, but nothing in the findings says the audit stopped."""
    from gostop.server import children

    path, whole = long_archive
    out = tmp_path / "findings.jsonl"
    audit = started_audit(path, out, "--jobs", "2", "--batch", "10")
    forked = children(audit.pid)  # the workers, or the forkserver whose children they are
    workers = [pid for child in forked for pid in children(child)] or forked
    assert workers
    os.kill(workers[0], signal.SIGKILL)
    assert stopped_finding(audit, out, whole)["code"] == "worker-died"


def test_off_a_terminal_a_progress_line_comes_every_few_seconds(long_archive, tmp_path):
    """Today nothing is printed off a terminal until the end. The total is the archive's lines, counted."""
    path, _ = long_archive
    done = gostop("audit", str(path), "--out", os.devnull, "--progress-every", "0.05", "--batch", "20")
    said = [line for line in done.stderr.decode().splitlines() if line.startswith("audit: ")]
    assert said and b"\r" not in done.stderr, done.stderr
    total = path.read_bytes().count(b"\n")
    pattern = re.compile(
        r"audit: ([\d,]+) hands, ([\d,]+) a second, ([\d,]+) findings; line ([\d,]+) of ([\d,]+) \(\d+%\), "
        r"about ([\d,]+) s left"
    )
    counted = [pattern.fullmatch(line) for line in said]
    assert any(counted), said
    for found in filter(None, counted):
        hands, _, _, line, of, _ = (int(n.replace(",", "")) for n in found.groups())
        assert of == total and hands <= line <= total
    quiet = gostop("audit", str(path), "--out", os.devnull, "--progress-every", "0.2", "--quiet")
    assert b"audit: " not in quiet.stderr


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_every_finding_says_in_words_what_is_wrong_as_the_api_says_it(spoiled, client, tmp_path, lang):
    """Today findings carry no sentence. An illegal line is said in the words of the API's refusal of it, in
    the language asked for; every other finding has its own sentence from the same catalogs."""
    archive, expected = spoiled
    gostop("audit", str(archive), "--out", str(tmp_path / "f.jsonl"), "--lang", lang)
    found = findings(tmp_path / "f.jsonl")
    assert len(found) == len(expected) and all(f["sentence"] for f in found)
    lines = archive.read_bytes().split(b"\n")
    for finding in found:
        if finding["kind"] == "illegal" or finding["code"] == "validation-error":
            body = orjson.loads(lines[finding["line"] - 1])
            body.pop("id", None), body.pop("recorded", None)
            answer = client.post("/v1/replay", json=body, headers={"Accept-Language": lang})
            assert finding["sentence"] == answer.get_json()["detail"]
    hangul = [any("가" <= c <= "힣" for c in f["sentence"]) for f in found]
    assert all(hangul) if lang == "ko" else not any(hangul)


def test_an_unreadable_line_keeps_its_id_when_its_text_shows_it(spoiled, tmp_path):
    """Today a line cut short or too long has id null. Its id is read from its text where the text shows it."""
    archive, _ = spoiled
    by_code = {f["code"]: f for f in findings_of(gostop("audit", str(archive)))}
    assert by_code["not-json"]["id"] == "korean-2p-14"  # the line cut in half
    assert by_code["body-too-large"]["id"] is None  # 70 KB of hex: no id to read
    path = tmp_path / "a.jsonl"
    path.write_bytes(
        b'{"players": ["A", "B"], "id": 77, "deal": {"layout": [' + b'"x", ' * 20_000 + b'"y"]}}\n'
        b'{"id": "cut \\"short\\"", "players": ["A"\n'
        b'{"moves": [{"id": 1}\n'
    )
    assert [f["id"] for f in findings_of(gostop("audit", str(path)))] == [77, 'cut "short"', None]


def test_duplicate_ids_are_flagged_after_the_line_s_own_finding(hands, tmp_path):
    """Today a second line with an id already used passes unnoticed. Each is a duplicate-id finding, in line
    order (after what the line itself gives), across the archives of one audit; an id 7 and an id "7" differ."""
    first, second = tmp_path / "first.jsonl", tmp_path / "second.jsonl"
    illegal = orjson.loads(hands[3])
    illegal["moves"][0]["player"] = "nobody"
    illegal["id"] = orjson.loads(hands[1])["id"]
    first.write_bytes(b"\n".join([hands[0], hands[1], hands[0], orjson.dumps(illegal)]))
    second.write_bytes(b"\n".join([hands[1], orjson.dumps({**orjson.loads(hands[2]), "id": 7})]))
    third = tmp_path / "third.jsonl"
    third.write_bytes(orjson.dumps({**orjson.loads(hands[2]), "id": "7"}))
    done = gostop("audit", str(first), str(second), str(third), "--json", "--batch", "2", "--out", str(tmp_path / "f"))
    found = findings(tmp_path / "f")
    assert [(f["archive"][-11:], f["line"], f["code"]) for f in found] == [
        ("first.jsonl", 3, "duplicate-id"),
        ("first.jsonl", 4, "not-your-turn"),
        ("first.jsonl", 4, "duplicate-id"),
        ("econd.jsonl", 1, "duplicate-id"),
    ]
    assert found[0]["id"] == orjson.loads(hands[0])["id"] and found[0]["kind"] == "duplicate"
    assert found[0]["sentence"] == f"The id {found[0]['id']} is also the id of an earlier line"
    assert json.loads(done.stdout)["by_kind"]["duplicate"] == {"duplicate-id": 3}


def findings_of(done: subprocess.CompletedProcess[bytes]) -> list[dict]:
    return [json.loads(line) for line in done.stdout.splitlines()]


# --- reading: batches cut with find, and plain archives read by the workers themselves --------------------


def _expected_cuts(stream: bytes, sizes: list[int], batch: int, limit: int) -> list[tuple[int, bytes, int, bool]]:
    """What `_cut` should give, worked out line by line: a line still unfinished past ``limit`` bytes at the
    end of a chunk is cut to limit + 1 bytes; every other line is kept as it is."""
    ends = []  # where each chunk ends in the stream
    at = 0
    for size in sizes:
        at += size
        ends.append(at)
    lines: list[tuple[int, bytes, bool]] = []  # (offset, the line as kept, cut)
    start = 0
    while start < len(stream):
        newline = stream.find(b"\n", start)
        stop = len(stream) if newline < 0 else newline
        cut = any(start < end <= (newline if newline >= 0 else len(stream)) and end - start > limit for end in ends)
        line = stream[start:stop]
        lines.append((start, line[: limit + 1] if cut else line, cut))
        start = stop + 1
    return [
        (
            group[0][0],
            b"\n".join(line for _, line, _ in group),
            len(group),
            not any(cut for _, _, cut in group),
        )
        for group in (lines[i : i + batch] for i in range(0, len(lines), batch))
    ]


@given(
    pieces=st.lists(st.sampled_from([b"\n", b"ab", b"x" * 9, b'{"id": 1}', b"\n\n", b" "]), max_size=40),
    cuts=st.lists(st.integers(1, 12), max_size=30),
    batch=st.integers(1, 5),
)
@settings(max_examples=300, deadline=None)
def test_batches_are_cut_at_their_lines_whatever_the_chunks(pieces, cuts, batch):
    """The parent cuts batches by finding newlines, never splitting every line (docs/audit.md): whatever the
    chunks the stream comes in, the batches hold the stream's lines in order, ``batch`` at a time, numbered and
    placed (offset) as in the stream, each line as it is but for one unfinished past LINE_LIMIT at a chunk's end,
    which is cut to LINE_LIMIT + 1 bytes (here a limit of 10 bytes, so that long lines are common)."""
    stream = b"".join(pieces)
    chunks, at = [], 0
    for size in cuts:
        if at < len(stream):
            chunks.append(stream[at : at + size])
            at += size
    if at < len(stream):
        chunks.append(stream[at:])
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(audit, "LINE_LIMIT", 10)
        got = [tuple(cut) for cut in audit._cut(chunks, batch)]
    assert got == _expected_cuts(stream, [len(c) for c in chunks], batch, 10)
    for offset, data, _, whole in got:
        if whole:
            assert stream[offset : offset + len(data)] == data


def test_a_stream_that_breaks_gives_its_complete_lines_then_the_fault():
    def broken():
        yield b"1\n2\n3"
        raise EOFError("cut short")

    cuts = audit._cut(broken(), 10)
    assert next(cuts) == (0, b"1\n2", 2, True)  # the unfinished "3" is not audited: the fault says so
    with pytest.raises(EOFError):
        next(cuts)


def test_a_plain_archive_is_handed_on_by_place_and_a_gzip_by_its_bytes(spoiled, tmp_path):
    """A worker that reads the archive itself gets a batch's place, not its bytes (one copy fewer through the
    pipes, and none through a Dask scheduler); the place reads back to the very bytes the parent cut."""
    path, _ = spoiled
    zipped = tmp_path / "spoiled.jsonl.gz"
    zipped.write_bytes(gzip.compress(path.read_bytes()))

    def batches(name: Path, sees: bool) -> list[audit.Batch]:
        work = audit._work([str(name)], 7, audit._Reading(0), "en", lambda place: sees)
        return [b for b in work if isinstance(b, audit.Batch)]

    shipped, placed = batches(path, False), batches(path, True)
    assert all(isinstance(b.data, bytes) for b in shipped) and all(isinstance(b.data, audit.Span) for b in placed)
    assert [(b.first_line, audit.read_span(b.data)) for b in placed] == [(b.first_line, b.data) for b in shipped]
    assert all(isinstance(b.data, bytes) for b in batches(zipped, True))


def test_a_worker_that_cannot_read_the_place_leaves_the_batch_to_the_parent(spoiled, tmp_path, monkeypatch):
    """A Dask worker on another host (or an archive changed since it was opened) cannot read a batch's place:
    it says so (None) and the audit reads and audits those lines itself; the findings are the same. Here every
    worker is such a stranger."""
    path, _ = spoiled
    reference = audit.run([str(path)], jobs=1, out=str(tmp_path / "reference.jsonl"))

    class Stranger(audit._Inline):
        def sees(self, place: audit.Span) -> bool:
            return True

        def submit(self, batch: audit.Batch) -> audit._Done:
            assert isinstance(batch.data, audit.Span)
            elsewhere = batch.data._replace(mtime_ns=batch.data.mtime_ns + 1)  # another file of the same name
            return audit._Done(audit.audit_batch(batch.archive, batch.first_line, elsewhere))

    @contextlib.contextmanager
    def strangers(jobs: int, lang: str):
        yield Stranger(lang)

    monkeypatch.setattr(audit, "_local", strangers)
    summary = audit.run([str(path)], jobs=2, batch=5, out=str(tmp_path / "found.jsonl"))
    assert (tmp_path / "found.jsonl").read_bytes() == (tmp_path / "reference.jsonl").read_bytes()
    assert summary.counts == reference.counts and summary.hands == reference.hands


def test_a_place_in_an_archive_gone_since_is_said_unreadable(tmp_path):
    path = tmp_path / "gone.jsonl"
    path.write_bytes(b'{"id": 1}\n')
    place = audit.Span(str(path), 0, 9, 10, path.stat().st_mtime_ns)
    assert audit.read_span(place) == b'{"id": 1}'
    path.unlink()
    result = audit._here(audit.Batch(str(path), 1, place), "en")
    (finding,) = (json.loads(line) for line in result.findings.splitlines())
    assert (finding["kind"], finding["code"], finding["line"], result.last_line) == ("archive", "unreadable", 1, 0)


def test_a_dask_worker_reads_an_archive_by_place_only_where_it_sees_the_same_file(tmp_path):
    """Before a plain archive's batches go to Dask by place, each worker is asked whether it reads the same
    first bytes at that path (``_sees``, run on every worker): a worker on a host without the file, or with
    another file there, gets the lines themselves."""
    path = tmp_path / "archive.jsonl"
    path.write_bytes(b'{"id": 1}\n{"id": 2}\n')
    stat = path.stat()
    place = audit.Span(str(path), 0, 10, stat.st_size, stat.st_mtime_ns)
    head = audit.read_span(place)
    assert head == b'{"id": 1}\n' and audit._sees(place, head)
    assert not audit._sees(place, b'{"id": 9}\n')  # another file of the same size and time
    assert not audit._sees(place._replace(path=str(tmp_path / "elsewhere.jsonl")), head)
    assert not audit._sees(place._replace(size=stat.st_size + 1), head)  # grown since
