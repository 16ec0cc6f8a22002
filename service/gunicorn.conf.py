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

from service.worker import REFUSAL_SLOTS, Occupancy, Worker

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
if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
    _metrics_dir = os.environ["PROMETHEUS_MULTIPROC_DIR"]
    shutil.rmtree(_metrics_dir, ignore_errors=True)
    os.makedirs(_metrics_dir, exist_ok=True)
else:
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="gostop-metrics-")


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
occupancy = Occupancy(slots=2 * workers + 2)


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
