"""/metrics off the public port (issue 16): with METRICS_PORT set, gunicorn's master serves every worker's metrics
on that port and the service's own port has none; the Dockerfile and the Kubernetes manifests set it, and the
Service publishes only the service's port."""

from __future__ import annotations

import urllib.request

import pytest
import yaml
from dockerfile_parse import DockerfileParser

from gostop.server import Server, free_port
from tests.conftest import ROOT

pytestmark = pytest.mark.xdist_group("resilience")  # one live server at a time, on one xdist worker


def test_gunicorn_serves_the_metrics_on_their_own_port_only():
    port = free_port()
    with Server({"WORKERS": "2", "METRICS_PORT": str(port), "ACCESS_LOG_LEVEL": "WARNING"}) as server:
        assert server.get("/metrics").status == 404
        for _ in range(3):
            assert server.get("/healthz").status == 200
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as answer:
            text = answer.read().decode()
    counted = [line for line in text.splitlines() if line.startswith("gostop_requests_total{") and "/healthz" in line]
    assert counted and sum(float(line.rsplit(" ", 1)[1]) for line in counted if 'status="200"' in line) >= 3


def test_the_image_and_the_manifests_keep_the_metrics_port_private():
    docs = {}
    for path in (ROOT / "deploy" / "k8s").glob("*.yaml"):
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        docs[doc["kind"]] = doc
    pod = docs["Deployment"]["spec"]["template"]
    (container,) = pod["spec"]["containers"]
    env = {e["name"]: e["value"] for e in container["env"]}
    ports = {p["name"]: p["containerPort"] for p in container["ports"]}
    assert env["METRICS_PORT"] == str(ports["metrics"]) == pod["metadata"]["annotations"]["prometheus.io/port"]
    assert [p["targetPort"] for p in docs["Service"]["spec"]["ports"]] == ["http"]
    image = DockerfileParser(path=str(ROOT / "Dockerfile"))
    assert image.envs["METRICS_PORT"] == env["METRICS_PORT"]
