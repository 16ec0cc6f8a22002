"""The service under gunicorn, started the way `make run` starts it: for `gostop serve`, the tests and the benchmarks.

``gunicorn_command`` is the one command line (``gunicorn -c service/gunicorn.conf.py service.wsgi:app``, settings
from the environment: HOST, PORT, WORKERS...). ``Server`` runs it on a free loopback port and waits until every
worker answers; it knows the master's workers (from /proc), reads /metrics, keeps gunicorn's log, and stops the
server with SIGTERM (what Kubernetes and Ctrl-C send), killing it only if it does not exit in time.
"""

from __future__ import annotations

import contextlib
import http.client
import importlib.util
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

__all__ = ["HOST", "Server", "children", "free_port", "gunicorn_command", "service_folder"]

HOST = "127.0.0.1"
APP = "service.wsgi:app"


def service_folder() -> Path:
    """The folder of the installed ``service`` package (found without importing it: gunicorn's master must
    import it first, after gevent has patched the standard library)."""
    spec = importlib.util.find_spec("service")
    if spec is None or spec.origin is None:
        raise RuntimeError("the gostop service package is not installed")
    return Path(spec.origin).parent


def gunicorn_command(app: str = APP, folder: Path | None = None) -> list[str]:
    """gunicorn with the service's own settings file (that of ``folder``'s service, a checkout), serving ``app``."""
    gunicorn = Path(sys.executable).with_name("gunicorn")
    service = folder / "service" if folder is not None else service_folder()
    return [str(gunicorn), "-c", str(service / "gunicorn.conf.py"), app]


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (gunicorn's workers, for its master)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError):
                stat = Path(f"/proc/{entry}/stat").read_text()
                if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                    found.append(int(entry))
    return sorted(found)


class Answer(NamedTuple):
    status: int
    body: bytes


class Server:
    """gostop (or ``app``) under gunicorn as `make run` starts it, with ``env`` added to the environment (PORT
    is free, HOST loopback). Entered, it returns once every worker has loaded the app; gunicorn's stderr goes
    to ``log_path``. The working directory is the one holding the service package (the checkout, in a
    development install), where the rule book is found; ``folder``, another checkout, serves that one's code
    (gunicorn puts its working directory first on the path: PYTHONPATH alone would not)."""

    def __init__(
        self,
        env: dict[str, str] | None = None,
        log_path: Path | None = None,
        app: str = APP,
        *,
        start_timeout: float = 30.0,
        folder: Path | None = None,
    ) -> None:
        self.app = app
        self.folder = folder
        self.port = free_port()
        self.env = {**os.environ, "HOST": HOST, "PORT": str(self.port), **(env or {})}
        self.env.pop("PROMETHEUS_MULTIPROC_DIR", None)  # a fresh metrics directory per server
        # the config's default (service/gunicorn.conf.py), to know when every worker is up
        self.expected_workers = int(self.env.get("WORKERS", min(4, (os.cpu_count() or 1) * 2)))
        self.log_path = log_path or Path(tempfile.gettempdir()) / f"gostop-server-{self.port}.log"
        self.start_timeout = start_timeout
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}"

    def __enter__(self) -> Server:
        with open(self.log_path, "wb") as log:
            self.proc = subprocess.Popen(
                gunicorn_command(self.app, self.folder),
                cwd=self.folder or service_folder().parent,
                env=self.env,
                stdout=subprocess.DEVNULL,
                stderr=log,
            )
        deadline = time.monotonic() + self.start_timeout
        while not (self.answering() and len(self.workers()) == self.expected_workers):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.kill()
                raise RuntimeError(f"gunicorn did not start:\n{self.log()}")
            time.sleep(0.05)
        for _ in range(self.expected_workers * 4):  # every worker has loaded the app (each answers in turn)
            self.answering()
        return self

    def __exit__(self, *exc: object) -> None:
        self.kill()

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def workers(self) -> list[int]:
        return children(self.pid)

    def get(self, path: str, timeout: float = 5.0) -> Answer:
        """One GET on a connection of its own."""
        conn = http.client.HTTPConnection(HOST, self.port, timeout=timeout)
        try:
            conn.request("GET", path, headers={"Connection": "close"})
            response = conn.getresponse()
            return Answer(response.status, response.read())
        finally:
            conn.close()

    def _health(self) -> int | None:
        """The status GET /healthz answers (the bare app of the benchmarks answers 404), or None."""
        try:
            return self.get("/healthz", timeout=2).status
        except (OSError, http.client.HTTPException):
            return None

    def healthy(self) -> bool:
        return self._health() == 200

    def answering(self) -> bool:
        return self._health() is not None

    def samples(self, name: str) -> list[tuple[dict[str, str], float]]:
        """The samples of one metric in /metrics (e.g. ``gostop_requests_total``): (labels, value) each."""
        from prometheus_client.parser import text_string_to_metric_families

        text = self.get("/metrics").body.decode()
        return [(s.labels, s.value) for f in text_string_to_metric_families(text) for s in f.samples if s.name == name]

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
