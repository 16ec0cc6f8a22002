"""gunicorn settings, every one overridable from the environment (HOST, PORT, WORKERS, ...)."""

import multiprocessing
import os

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
