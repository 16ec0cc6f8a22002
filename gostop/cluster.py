"""A Dask distributed cluster on loopback: one ``dask scheduler`` and worker processes, for the tests and the
benchmarks of ``gostop audit --scheduler`` (a real deployment starts its own the same way, on its hosts).

Each worker is a process of its own (``--no-nanny``): killed, it stays dead, and the scheduler gives its work
to the others. Every process writes its log to a file in ``log_dir``.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .server import HOST, free_port

__all__ = ["DaskCluster"]


class DaskCluster:
    """``dask scheduler`` and ``workers`` ``dask worker`` processes (one thread each) on loopback. Entered, it
    returns once every worker has joined the scheduler; ``address`` is what ``--scheduler`` takes."""

    def __init__(self, workers: int = 2, log_dir: Path | None = None, *, start_timeout: float = 60.0) -> None:
        self.port = free_port()
        self.count = workers
        self.log_dir = log_dir or Path(tempfile.mkdtemp(prefix="gostop-dask-"))
        self.log_dir.mkdir(parents=True, exist_ok=True)
        self.start_timeout = start_timeout
        self.scheduler: subprocess.Popen[bytes] | None = None
        self.workers: list[subprocess.Popen[bytes]] = []

    @property
    def address(self) -> str:
        return f"tcp://{HOST}:{self.port}"

    def _start(self, name: str, *args: str) -> subprocess.Popen[bytes]:
        dask = Path(sys.executable).with_name("dask")
        # A worker's statistical profiler samples the running task's stack every 10 ms (for the dashboard's
        # profile, which this cluster has none of): a few percent of an audit's CPU, so it is off.
        env = {**os.environ, "DASK_DISTRIBUTED__WORKER__PROFILE__ENABLED": "False"}
        with open(self.log_dir / f"{name}.log", "wb") as log:
            return subprocess.Popen([str(dask), *args], stdout=log, stderr=subprocess.STDOUT, cwd=self.log_dir, env=env)

    def __enter__(self) -> DaskCluster:
        from distributed import Client

        self.scheduler = self._start(
            "scheduler", "scheduler", "--host", HOST, "--port", str(self.port), "--no-dashboard"
        )
        for i in range(self.count):
            self.workers.append(
                self._start(
                    f"worker-{i}",
                    "worker",
                    self.address,
                    "--host",
                    HOST,
                    "--nthreads",
                    "1",
                    "--no-nanny",
                    "--no-dashboard",
                    "--name",
                    f"worker-{i}",
                    "--local-directory",
                    str(self.log_dir / f"worker-{i}"),
                )
            )
        deadline = time.monotonic() + self.start_timeout
        try:
            while True:
                try:
                    with Client(self.address, timeout="5s", set_as_default=False) as client:
                        client.wait_for_workers(self.count, timeout=max(1.0, deadline - time.monotonic()))
                    return self
                except OSError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.2)
        except BaseException:
            self.stop()
            raise RuntimeError(f"the Dask cluster did not start:\n{self.logs()}") from None

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def kill_worker(self, index: int) -> None:
        """SIGKILL worker ``index``: a worker that dies in the middle of its work."""
        self.workers[index].kill()
        self.workers[index].wait()

    def logs(self) -> str:
        return "\n".join(f"--- {p.name}\n{p.read_text(errors='replace')[-3000:]}" for p in self.log_dir.glob("*.log"))

    def stop(self) -> None:
        for proc in [*self.workers, self.scheduler]:
            if proc is not None and proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for proc in [*self.workers, self.scheduler]:
            if proc is not None:
                try:
                    proc.wait(timeout=5)  # a Dask process that has not gone in 5 s is killed
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
