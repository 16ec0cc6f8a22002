"""gunicorn settings, every one overridable from the environment (HOST, PORT, WORKERS, ...).

The worker is gevent's, bounded against slow and hostile clients (service/worker.py says why and how):
a connection costs a greenlet, not a worker, and these bound how long and how many.
"""

import contextlib
import multiprocessing
import os
import resource
import shutil
import sys
import tempfile
import time

from service.worker import REFUSAL_SLOTS, Worker, shared_occupancy

bind = f"{os.environ.get('HOST', '127.0.0.1')}:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WORKERS", str(min(4, multiprocessing.cpu_count() * 2))))
worker_class = Worker
# Open connections per worker: a full worker stops accepting and the others take new connections; when
# every worker is full, a new connection is answered 503 at once.
worker_connections = int(os.environ.get("WORKER_CONNECTIONS", "1000"))
# An idle keep-alive connection is closed after this long, and a request's line and headers must arrive
# within it. At least 1: gunicorn's gevent worker waits without a limit when keep-alive is off.
keepalive = max(1, int(os.environ.get("KEEPALIVE", "5")))
# A request's body must arrive, and its answer be taken, within this long after its headers (else 408).
body_timeout = float(os.environ.get("BODY_TIMEOUT", "10"))
timeout = int(os.environ.get("TIMEOUT", "30"))  # a worker that stops answering its master this long is replaced
# On SIGTERM a worker stops accepting, finishes what it holds and exits; one still busy after this is killed.
# A connection needs at most keepalive + body_timeout to finish, so the default leaves room for both.
graceful_timeout = int(os.environ.get("GRACEFUL_TIMEOUT", "20"))
max_requests = int(os.environ.get("MAX_REQUESTS", "0"))
max_requests_jitter = int(os.environ.get("MAX_REQUESTS_JITTER", "0"))
limit_request_line = 4094
# A client of this API sends a dozen headers of a few dozen bytes; a proxy adds a few. Tighter than gunicorn's
# defaults (100 of 8190 bytes), so that the headers of one request stay small to parse (docs/hardening.md).
limit_request_fields = 40
limit_request_field_size = 4096
accesslog = os.environ.get("ACCESS_LOG") or None
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "info")
# gunicorn's control socket (gunicornc) is not used, and its default path would be shared by every server
# of a host.
control_socket_disable = True

# Each worker holds up to worker_connections + REFUSAL_SLOTS sockets: raise the soft limit on open files to
# fit (up to the hard limit), or lower worker_connections to what fits.
_FILES_BESIDES_CONNECTIONS = 64
_soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
_needed = worker_connections + REFUSAL_SLOTS + _FILES_BESIDES_CONNECTIONS
if _soft != resource.RLIM_INFINITY and _soft < _needed:
    _soft = _needed if _hard == resource.RLIM_INFINITY else min(_needed, _hard)
    resource.setrlimit(resource.RLIMIT_NOFILE, (_soft, _hard))
    if _soft < _needed:
        worker_connections = _soft - REFUSAL_SLOTS - _FILES_BESIDES_CONNECTIONS
        print(
            f"gunicorn.conf.py: open files limited to {_soft}: WORKER_CONNECTIONS lowered to {worker_connections}",
            file=sys.stderr,
        )

# Readiness: Kubernetes' preStop hook creates DRAIN_FILE, and GET /healthz answers 503 from then on
# (service/draining.py). A file left by an earlier container of the same pod must not keep this one unready.
if os.environ.get("DRAIN_FILE"):
    with contextlib.suppress(FileNotFoundError):
        os.remove(os.environ["DRAIN_FILE"])

# Metrics from every worker are aggregated by /metrics through prometheus-client's multiprocess mode: the
# directory must exist, empty, before the workers start (a fresh one per server unless you set it).
# One made here is this server's own: kept across a SIGHUP (which reads this file again) and removed on exit.
_MADE = "GOSTOP_METRICS_DIR_MADE"
if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
    _metrics_dir = os.environ["PROMETHEUS_MULTIPROC_DIR"]
    if os.environ.get(_MADE) != _metrics_dir:
        shutil.rmtree(_metrics_dir, ignore_errors=True)
        os.makedirs(_metrics_dir, exist_ok=True)
else:
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = os.environ[_MADE] = tempfile.mkdtemp(prefix="gostop-metrics-")


def on_exit(server):
    """Remove the metrics directory this server made (a directory given by PROMETHEUS_MULTIPROC_DIR stays)."""
    made = os.environ.get(_MADE)
    if made and made == os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        shutil.rmtree(made, ignore_errors=True)


# Metrics off the public port: with METRICS_PORT set, the master serves every worker's samples there (on
# METRICS_HOST, by default HOST), and the application serves no /metrics (service/observability.py).
metrics_port = int(os.environ.get("METRICS_PORT") or 0)
metrics_host = os.environ.get("METRICS_HOST") or os.environ.get("HOST", "127.0.0.1")


def when_ready(server):
    """Start the metrics server in the master, once it listens and before it forks the workers."""
    if metrics_port:  # prometheus-client only: the master must not import Flask before the workers patch
        from prometheus_client import CollectorRegistry, multiprocess, start_http_server

        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        start_http_server(metrics_port, addr=metrics_host, registry=registry)


# How many connections each worker holds: they share new connections out, and refuse one only when every
# worker is full (service/worker.py). A slot per worker, twice over for a reload's overlap.
occupancy = shared_occupancy(slots=2 * workers + 2)


# SIGHUP: gunicorn forks the new workers and stops the old ones at once, while the new ones still build the
# application (a second or two): requests wait that long. Here the master waits first until every new worker
# runs (it has written its slot of the occupancy) or READY_WAIT has passed, the old ones serving meanwhile
# (docs/hardening.md). This file is read again on SIGHUP: what must outlive that (the occupancy, the waiting)
# lives in the master's service.worker module and on the arbiter.
READY_WAIT = float(os.environ.get("READY_WAIT", "10"))


def on_starting(server):
    """Make the master's worker management wait for the new workers of a reload (see READY_WAIT)."""
    manage = server.manage_workers
    server.gostop_reloading = False

    def manage_workers():
        if server.gostop_reloading:
            server.gostop_reloading = False
            wait_for_new_workers(server, time.monotonic() + READY_WAIT)
        manage()

    server.manage_workers = manage_workers


def wait_for_new_workers(server, deadline):
    """Until ``deadline``, wait for the newest workers (beyond the old ones a reload keeps) to run."""
    while time.monotonic() < deadline:
        server.reap_workers()  # a new worker that died is replaced by gunicorn's next round, not waited for
        excess = len(server.WORKERS) - server.num_workers
        newest = sorted(server.WORKERS.values(), key=lambda w: w.age)[max(excess, 0) :]
        if excess <= 0 or all(w.occupancy.running(w.slot) for w in newest if getattr(w, "occupancy", None)):
            return
        time.sleep(0.05)


def on_reload(server):
    server.gostop_reloading = True


def pre_fork(server, worker):
    """Give the worker about to be forked its slot in the shared occupancy."""
    worker.occupancy, worker.slot = occupancy, occupancy.claim()


def post_worker_init(worker):
    """Hand the worker the setting gunicorn has no name for."""
    worker.body_timeout = body_timeout


def child_exit(server, worker):
    """Free a dead worker's slot, and forget its live gauges (counters and histograms keep their totals)."""
    from prometheus_client import multiprocess

    occupancy.release(worker.slot)
    multiprocess.mark_process_dead(worker.pid)
