"""`gostop audit --scheduler` on a real Dask cluster: `dask scheduler` and two `dask worker` processes on
loopback. The findings are those of the local audit, in the same order, also when a worker is killed in the
middle of the audit."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gostop.cluster import DaskCluster
from tests.archives import simulated, spoil

# with the fault tests' servers, never beside them: a cluster's audit takes both cores, and they count answers
pytestmark = pytest.mark.xdist_group("resilience")

GOSTOP = Path(sys.executable).with_name("gostop")


@pytest.fixture(scope="module")
def archive(tmp_path_factory) -> tuple[Path, int]:
    """A spoiled archive of 1,200 hands (60 simulated hands, spoiled as in test_audit, twenty times over), and
    how many of its lines are spoiled."""
    data, expected = spoil(simulated("korean-2p", 40) + simulated("korean-3p", 20))
    path = tmp_path_factory.mktemp("dask") / "archive.jsonl"
    lines = data.rstrip(b"\n").split(b"\n")
    with open(path, "wb") as f:
        for copy in range(20):
            for line in lines:
                if line.startswith(b'{"id":"'):
                    line = line.replace(b'{"id":"', b'{"id":"%d-' % copy, 1)
                elif line.startswith(b'{"id": '):  # an integer id: a digit before it (no duplicate-id findings)
                    line = line.replace(b'{"id": ', b'{"id": %d' % (copy + 1), 1)
                f.write(line + b"\n")
    return path, 20 * len(expected)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """One cluster for the module; the test that kills a worker comes last."""
    with DaskCluster(workers=2, log_dir=tmp_path_factory.mktemp("cluster")) as running:
        yield running


@pytest.fixture(scope="module")
def local_findings(archive, tmp_path_factory) -> bytes:
    path, spoiled = archive
    out = tmp_path_factory.mktemp("local") / "findings.jsonl"
    done = subprocess.run([str(GOSTOP), "audit", str(path), "--out", str(out)], capture_output=True, timeout=300)
    assert done.returncode == 1 and out.read_bytes().count(b"\n") == spoiled, done.stderr
    return out.read_bytes()


def audited_on(cluster: DaskCluster, path: Path, out: Path) -> subprocess.CompletedProcess[bytes]:
    """`gostop audit` of ``path`` on the cluster, in tasks of 50 lines, which finds the spoiled lines (status 1)."""
    done = subprocess.run(
        [str(GOSTOP), "audit", str(path), "--scheduler", cluster.address, "--out", str(out), "--batch", "50"],
        capture_output=True,
        timeout=300,
    )
    assert done.returncode == 1 and b"Traceback" not in done.stderr, cluster.logs()
    return done


def test_a_dask_cluster_finds_what_the_local_audit_finds_in_the_same_order(archive, local_findings, cluster, tmp_path):
    path, _ = archive
    out = tmp_path / "findings.jsonl"
    done = audited_on(cluster, path, out)
    assert out.read_bytes() == local_findings
    assert f"on Dask at {cluster.address}" in done.stdout.decode()


def test_a_gzip_archive_is_shipped_to_the_workers_with_the_same_findings(archive, local_findings, cluster, tmp_path):
    """The plain archive above goes to the workers by place (they read it where the audit does); a gzip one
    cannot be read by place, so each task carries its lines. The findings are the same, in the same order."""
    path, _ = archive
    zipped = tmp_path / "archive.jsonl.gz"
    zipped.write_bytes(gzip.compress(path.read_bytes()))
    out = tmp_path / "findings.jsonl"
    audited_on(cluster, zipped, out)
    named = json.dumps(str(path)).encode(), json.dumps(str(zipped)).encode()
    assert out.read_bytes() == local_findings.replace(*named)


def test_a_scheduler_that_is_not_there_is_a_message(archive):
    done = subprocess.run(
        [str(GOSTOP), "audit", str(archive[0]), "--scheduler", "tcp://127.0.0.1:9"], capture_output=True, timeout=60
    )
    assert done.returncode == 2 and done.stdout == b"" and b"Traceback" not in done.stderr
    assert done.stderr.decode().startswith("gostop: cannot reach the Dask scheduler at tcp://127.0.0.1:9")


def test_a_worker_killed_in_the_middle_of_the_audit_loses_nothing(archive, local_findings, cluster, tmp_path):
    """Worker 0 is killed (SIGKILL) once the first findings are written, while the audit is still running; the
    scheduler runs its batches again on the other worker, and the findings are the same. (Last: the module's
    cluster is left with one worker.)"""
    path, spoiled = archive
    out = tmp_path / "findings.jsonl"
    audit = subprocess.Popen(
        [str(GOSTOP), "audit", str(path), "--scheduler", cluster.address, "--out", str(out), "--batch", "20"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 120
    while not (out.exists() and out.read_bytes().count(b"\n") >= 3):
        assert audit.poll() is None and time.monotonic() < deadline, audit.communicate()
        time.sleep(0.01)
    written_before = out.read_bytes().count(b"\n")
    cluster.kill_worker(0)
    still_running = audit.poll() is None
    stdout, stderr = audit.communicate(timeout=300)
    assert audit.returncode == 1 and b"Traceback" not in stderr, (stderr.decode()[-3000:], cluster.logs())
    assert still_running and written_before < local_findings.count(b"\n")  # the kill came in the middle
    assert "name: worker-0" in (cluster.log_dir / "scheduler.log").read_text().split("Remove worker", 1)[1]
    assert out.read_bytes() == local_findings
    summary = stdout.decode()
    assert summary.startswith("audited 1,200 hands (") and f"findings: {spoiled}" in summary


# --- an audit whose cluster goes away (issue 30): exit 2, a last finding that says where, never a traceback ---


@pytest.fixture(scope="module")
def long_archive(archive, tmp_path_factory) -> Path:
    """The archive ten times over under new ids (12,000 lines): long enough to be stopped in the middle."""
    path, _ = archive
    lines = path.read_bytes().rstrip(b"\n").split(b"\n")
    long = tmp_path_factory.mktemp("long") / "long.jsonl"
    with open(long, "wb") as f:
        for copy in range(10):
            for line in lines:
                line = line.replace(b'{"id":"', b'{"id":"L%d-' % copy, 1).replace(b'{"id": ', b'{"id": %d' % copy, 1)
                f.write(line + b"\n")
    return long


def audit_until_findings(path: Path, out: Path, *argv: str, at_least: int = 3) -> subprocess.Popen[bytes]:
    """`gostop audit` started, once it has written ``at_least`` findings."""
    audit = subprocess.Popen(
        [str(GOSTOP), "audit", str(path), "--out", str(out), *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    deadline = time.monotonic() + 120
    while not (out.exists() and out.read_bytes().count(b"\n") >= at_least):
        assert audit.poll() is None and time.monotonic() < deadline, audit.communicate()
        time.sleep(0.01)
    return audit


def assert_stopped(audit: subprocess.Popen[bytes], out: Path, local: bytes, code: str) -> dict:
    """The audit ended with exit 2, no traceback, the findings before the stop exactly the local audit's (each
    whole: flushed as written), and a last finding that says why and where; that finding, returned."""
    stdout, stderr = audit.communicate(timeout=120)
    assert audit.returncode == 2 and b"Traceback" not in stderr, stderr.decode()[-3000:]
    *before, last = out.read_bytes().splitlines(keepends=True)
    assert local.startswith(b"".join(before))
    stopped = json.loads(last)
    assert (stopped["kind"], stopped["code"]) == ("stopped", code)
    assert stopped["hands"] > 0 and stopped["line"] >= stopped["hands"] and stopped["id"]
    assert f"after {stopped['hands']:,} hands" in stopped["sentence"]
    assert "stopped early: The audit stopped after" in stdout.decode()
    return stopped


def test_an_audit_whose_last_worker_dies_stops_after_the_worker_timeout(long_archive, tmp_path):
    """Today it waits for ever. With no worker for --worker-timeout seconds, the audit gives up, says where."""
    local = subprocess.run([str(GOSTOP), "audit", str(long_archive), "--jobs", "1"], capture_output=True).stdout
    with DaskCluster(workers=1, log_dir=tmp_path / "cluster") as lonely:
        out = tmp_path / "findings.jsonl"
        audit = audit_until_findings(
            long_archive, out, "--scheduler", lonely.address, "--batch", "10", "--worker-timeout", "3"
        )
        lonely.kill_worker(0)
        killed = time.monotonic()
        stopped = assert_stopped(audit, out, local, "no-worker")
        assert 3 <= time.monotonic() - killed < 60 and stopped["seconds"] == 3


def test_an_audit_whose_scheduler_dies_stops_and_says_where(long_archive, tmp_path):
    """Today: a traceback and exit 1, the findings cut short with no word that the audit stopped."""
    local = subprocess.run([str(GOSTOP), "audit", str(long_archive), "--jobs", "1"], capture_output=True).stdout
    with DaskCluster(workers=2, log_dir=tmp_path / "cluster") as doomed:
        out = tmp_path / "findings.jsonl"
        audit = audit_until_findings(long_archive, out, "--scheduler", doomed.address, "--batch", "10")
        assert doomed.scheduler is not None
        doomed.scheduler.kill()
        doomed.scheduler.wait()
        assert_stopped(audit, out, local, "scheduler-gone")
