"""Draining: the deployment says this process is about to stop, so that readiness fails before SIGTERM.

Kubernetes runs a container's preStop hook before it sends SIGTERM. Ours creates the file named by
``DRAIN_FILE`` and waits; from then on ``GET /healthz`` answers 503, the readiness probe fails and traffic
moves to other pods, while this one still answers whatever reaches it. Without ``DRAIN_FILE`` (``make run``,
``docker run``) the service never drains this way. gunicorn's config removes a stale file at start.
"""

from __future__ import annotations

import os


def draining() -> bool:
    path = os.environ.get("DRAIN_FILE")
    return os.path.exists(path) if path else False
