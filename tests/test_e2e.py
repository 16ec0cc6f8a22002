"""End to end: the real gunicorn, with the project's config, on a free loopback port, spoken to with requests."""

import re
import time

import pytest
import requests

from gostop.server import Server
from tests.conftest import ROOT

pytestmark = pytest.mark.xdist_group("gunicorn")


@pytest.fixture(scope="module")
def server_stderr(tmp_path_factory):
    return tmp_path_factory.mktemp("gunicorn") / "stderr.log"


@pytest.fixture(scope="module")
def server(server_stderr):
    with Server({"WORKERS": "2"}, server_stderr) as running:
        yield f"http://127.0.0.1:{running.port}"


def test_healthz_over_gunicorn(server):
    import engine

    resp = requests.get(server + "/healthz", timeout=5)
    assert resp.status_code == 200 and resp.json()["status"] == "ok"
    assert resp.json()["engine"]["version"] == engine.ENGINE_VERSION


def test_the_engine_info_is_one_sample_across_gunicorn_workers(server):
    """Issue 14.1: ``gostop_engine_info`` in the multiprocess metrics is one sample (not one per worker), with
    the build and version /healthz says."""
    engine = requests.get(server + "/healthz", timeout=5).json()["engine"]
    text = requests.get(server + "/metrics", timeout=5).text
    samples = re.findall(r"^gostop_engine_info\{.*$", text, re.M)
    assert samples == [f'gostop_engine_info{{build="{engine["build"]}",version="{engine["version"]}"}} 1.0']


def test_settle_over_gunicorn(server):
    req = {
        "rules": "korean-2p",
        "winner": "A",
        "stake": 10,
        "players": [
            {
                "id": "A",
                "captured": ["jan-bright", "mar-bright", "aug-bright", "feb-animal", "apr-animal", "aug-animal"],
            },
            {"id": "B", "captured": ["nov-bright", "may-junk-1"]},
        ],
    }
    resp = requests.post(server + "/v1/settle", json=req, timeout=5)
    assert resp.status_code == 200
    assert resp.json()["payments"][0]["amount"] == 80


def test_errors_over_gunicorn_are_problems(server):
    resp = requests.post(server + "/v1/score", data="{", headers={"Content-Type": "application/json"}, timeout=5)
    assert resp.status_code == 400 and resp.headers["Content-Type"] == "application/problem+json"
    resp = requests.post(
        server + "/v1/score", data=b"x" * 100_000, headers={"Content-Type": "application/json"}, timeout=5
    )
    assert resp.status_code == 413 and resp.headers["Content-Type"] == "application/problem+json"
    resp = requests.get(server + "/nowhere", timeout=5)
    assert resp.status_code == 404 and resp.headers["Content-Type"] == "application/problem+json"


def test_docs_over_gunicorn(server):
    assert requests.get(server + "/docs", timeout=5).status_code == 200
    assert requests.get(server + "/openapi.yaml", timeout=5).text == (ROOT / "openapi.yaml").read_text("utf-8")


def _healthz_count(text: str) -> float:
    import re

    return sum(
        float(v)
        for v in re.findall(
            r'gostop_requests_total\{endpoint="/healthz",method="GET",status="200"\} '
            r"(\S+)",
            text,
        )
    )


def test_metrics_add_up_across_gunicorn_workers(server):
    before = _healthz_count(requests.get(server + "/metrics", timeout=5).text)
    with requests.Session() as session:
        for _ in range(30):
            assert session.get(server + "/healthz", timeout=5).status_code == 200
    # two workers serve these; whichever answers /metrics reports both workers' counts
    for _ in range(4):
        assert _healthz_count(requests.get(server + "/metrics", timeout=5).text) - before == 30


def test_chunked_body_is_411_length_required(server):
    def chunks():
        yield b'{"cards": []}'

    resp = requests.post(server + "/v1/score", data=chunks(), headers={"Content-Type": "application/json"}, timeout=5)
    assert resp.status_code == 411 and resp.headers["Content-Type"] == "application/problem+json"
    assert "Content-Length" in resp.json()["detail"]


def test_access_log_lines_on_gunicorn_stderr(server, server_stderr):
    import json

    for i in range(4):
        requests.get(server + "/healthz", headers={"X-Request-ID": f"log-check-{i}"}, timeout=5)
    deadline = time.monotonic() + 5
    while True:
        lines = [json.loads(x) for x in server_stderr.read_text().splitlines() if x.startswith('{"method"')]
        mine = [x for x in lines if x["request_id"].startswith("log-check-")]
        if len(mine) == 4 or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert sorted(x["request_id"] for x in mine) == [f"log-check-{i}" for i in range(4)]
    assert all(x["path"] == "/healthz" and x["status"] == 200 and x["method"] == "GET" for x in mine)


def test_request_id_over_gunicorn(server):
    resp = requests.get(server + "/healthz", headers={"X-Request-ID": "lb-123"}, timeout=5)
    assert resp.headers["X-Request-ID"] == "lb-123"
