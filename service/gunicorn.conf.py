"""gunicorn settings, every one overridable from the environment (HOST, PORT, WORKERS, ...)."""

import multiprocessing
import os
import shutil
import tempfile

bind = f"{os.environ.get('HOST', '127.0.0.1')}:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WORKERS", str(min(4, multiprocessing.cpu_count() * 2))))
threads = int(os.environ.get("THREADS", "1"))
timeout = int(os.environ.get("TIMEOUT", "30"))  # a replay takes milliseconds; 30 s only catches a hung worker
graceful_timeout = int(os.environ.get("GRACEFUL_TIMEOUT", "20"))
keepalive = int(os.environ.get("KEEPALIVE", "5"))
max_requests = int(os.environ.get("MAX_REQUESTS", "0"))
max_requests_jitter = int(os.environ.get("MAX_REQUESTS_JITTER", "0"))
limit_request_line = 4094
limit_request_fields = 100
limit_request_field_size = 8190
accesslog = os.environ.get("ACCESS_LOG") or None
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "info")

# Metrics from every worker are aggregated by /metrics through prometheus-client's multiprocess mode: the
# directory must exist, empty, before the workers start (a fresh one per server unless you set it).
if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
    _metrics_dir = os.environ["PROMETHEUS_MULTIPROC_DIR"]
    shutil.rmtree(_metrics_dir, ignore_errors=True)
    os.makedirs(_metrics_dir, exist_ok=True)
else:
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="gostop-metrics-")


def child_exit(server, worker):
    """Forget a dead worker's live gauges (counters and histograms keep their totals)."""
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)
