"""Hostile and faulty clients against the service as `make run` starts it (issue 11): slow and idle clients, a
connection flood, bad bytes, a worker killed, a restart; and the Kubernetes manifests against the gunicorn
settings. Small scale and short bounds here; `make chaos` runs the same scenarios at full scale."""

from __future__ import annotations

import asyncio
import json
import re
import resource
import runpy
import signal
import socket

import pytest
import yaml

from bench.common import REPLAY_BODY, SCORE_BODY, SETTLE_BODY
from bench.hostile import (
    exchange,
    flood,
    http_request,
    kill_a_worker,
    mix,
    open_files,
    sighup_during_load,
    sigterm_during_load,
    slow_clients,
)
from gostop.server import Server
from tests.conftest import ROOT

pytestmark = pytest.mark.xdist_group("resilience")  # one live server at a time, on one xdist worker

MIX = mix([("/v1/score", SCORE_BODY), ("/v1/settle", SETTLE_BODY), ("/v1/replay", REPLAY_BODY)])
KEEPALIVE, BODY_TIMEOUT = 2, 2
QUICK = {"KEEPALIVE": str(KEEPALIVE), "BODY_TIMEOUT": str(BODY_TIMEOUT)}  # bounds a test can watch work
PROBLEM = "application/problem+json"


def assert_clean_log(server: Server) -> None:
    log = server.log()
    assert "Traceback" not in log and "Worker graceful timeout" not in log, log[-3000:]


# --- slow, idle and too many clients ---------------------------------------------------------------------


def test_slow_and_idle_clients_hold_up_no_one_and_are_dropped_in_bounded_time(tmp_path):
    with Server({"WORKERS": "2", **QUICK}, tmp_path / "server.log") as server:
        report = asyncio.run(slow_clients(server, MIX, slowloris=100, slow_posts=100, idle=200, seconds=3))
        assert_clean_log(server)
    assert report.load.failures == []
    assert set(report.load.answers) == {200} and report.load.answers[200] >= 100
    slowloris, slow_post, idle = report.kinds.values()
    # headers that never end: closed, unanswered, once KEEPALIVE has passed
    assert slowloris.dropped >= 100 and not slowloris.answers and slowloris.longest < KEEPALIVE + 1.5
    # a body that never ends: 408 once BODY_TIMEOUT has passed after the headers
    assert slow_post.dropped >= 100 and set(slow_post.answers) == {408} and slow_post.longest < BODY_TIMEOUT + 1.5
    # an idle kept-alive connection: answered, then closed after KEEPALIVE
    assert idle.dropped >= 200 and set(idle.answers) == {200} and idle.longest < KEEPALIVE + 1.5


def test_connections_past_the_limit_are_answered_503_and_closed(tmp_path):
    with Server({"WORKERS": "1", "WORKER_CONNECTIONS": "40"}, tmp_path / "server.log") as server:
        (worker,) = server.workers()
        files_before = open_files(worker)
        report = asyncio.run(flood(server, 70, hold=1.5))
        assert report.outcomes == {"held": 40, "refused": 30}
        assert report.open_files[worker] <= files_before + 40  # the refused ones are closed, not kept
        assert server.healthy() and server.workers() == [worker]
        refused = [v for labels, v in server.samples("gostop_connections_dropped_total") if labels["reason"] == "full"]
        assert refused == [30]
        assert_clean_log(server)


def test_the_occupancy_shows_each_running_worker_its_peers_counts(monkeypatch):
    import time

    from service.worker import Occupancy

    occupancy = Occupancy(slots=3)
    first, second, third = occupancy.claim(), occupancy.claim(), occupancy.claim()
    with pytest.raises(RuntimeError):
        occupancy.claim()
    assert occupancy.others(first) == []  # the others have not run yet (still booting)
    occupancy.report(second, 7)
    occupancy.report(third, 2)
    assert sorted(occupancy.others(first)) == [2, 7] and occupancy.others(third) == [7]
    occupancy.release(second)  # it died
    assert occupancy.others(first) == [2]
    assert occupancy.claim() == second and occupancy.others(first) == [2]  # its replacement is booting
    later = time.monotonic() + Occupancy.FRESH
    monkeypatch.setattr(time, "monotonic", lambda: later)
    assert occupancy.others(first) == []  # a worker that stopped writing (stuck) is left out


def test_a_refusal_is_a_problem_that_says_when_to_try_again(tmp_path):
    with (
        Server({"WORKERS": "1", "WORKER_CONNECTIONS": "1"}, tmp_path / "server.log") as server,
        socket.create_connection(("127.0.0.1", server.port)) as first,
    ):
        first.sendall(b"GET /he")  # takes the one connection the worker allows
        (refused,) = exchange(server.port, http_request("GET", "/healthz"), expect=1).responses
        first.sendall(b"althz HTTP/1.1\r\nHost: gostop\r\n\r\n")
        assert first.recv(4096).startswith(b"HTTP/1.1 200 ")
    assert (refused.status, refused.headers["content-type"], refused.headers["retry-after"]) == (503, PROBLEM, "1")
    assert refused.headers["connection"] == "close" and refused.json()["status"] == 503


# --- bad bytes ---------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with Server({"WORKERS": "2"}, tmp_path_factory.mktemp("bad-bytes") / "server.log") as running:
        running.workers_at_start = running.workers()
        yield running


def _post(path: str, body: bytes, **headers: str) -> bytes:
    return http_request("POST", path, body, {"Content-Type": "application/json", **headers})


def _filling(size: int) -> bytes:
    """A score body of exactly ``size`` bytes whose one card id is a long string."""
    frame = b'{"cards": [""]}'
    return frame[:12] + b"x" * (size - len(frame)) + frame[12:]


BAD_BYTES = {
    # name: (request, the statuses that are a clean answer to it)
    "garbage request line": (b"\x00\xff GARBAGE \x7f\r\n\r\n", {400}),
    "request line over the limit": (b"GET /" + b"a" * 5000 + b" HTTP/1.1\r\nHost: gostop\r\n\r\n", {414}),
    "body not UTF-8": (_post("/v1/score", b'{"cards": ["jan-bright\xff\xfe"]}'), {400}),
    "60,000-digit number": (_post("/v1/settle", b'{"stake": ' + b"7" * 60_000 + b', "players": []}'), {400, 422}),
    "a string filling the 64 KiB limit": (_post("/v1/score", _filling(64 * 1024)), {422}),
    "one byte over the 64 KiB limit": (_post("/v1/score", _filling(64 * 1024 + 1)), {413}),
    # gunicorn's limit_request_field_size counts the line with its CRLF: "X-Pad: " + 4087 + CRLF is 4096
    "header line at the size limit": (http_request("GET", "/healthz", headers={"X-Pad": "a" * 4087}), {200}),
    "header line one byte over": (http_request("GET", "/healthz", headers={"X-Pad": "a" * 4088}), {431}),
    "41 header lines": (http_request("GET", "/healthz", headers={f"X-{i}": "1" for i in range(40)}), {431}),
    "a length that is not a number": (b"POST /v1/score HTTP/1.1\r\nHost: gostop\r\nContent-Length: 1e3\r\n\r\n", {400}),
    "chunked body": (
        b"POST /v1/score HTTP/1.1\r\nHost: gostop\r\nContent-Type: application/json\r\n"
        b'Transfer-Encoding: chunked\r\n\r\nd\r\n{"cards": []}\r\n0\r\n\r\n',
        {411},
    ),
    # RFC 9112 6.3: an HTTP/1.1 request with neither a length nor chunks has an empty body, not a missing length
    "HTTP/1.1 POST without a body": (b"POST /v1/settle HTTP/1.1\r\nHost: gostop\r\n\r\n", {400, 415}),
}


@pytest.mark.parametrize("name", BAD_BYTES)
def test_bad_bytes_get_a_clean_answer(server, name):
    request, statuses = BAD_BYTES[name]
    answer = exchange(server.port, request, expect=1)
    (response,) = answer.responses
    assert response.status in statuses
    if response.status >= 400:
        assert response.headers["content-type"] == PROBLEM
        assert response.json()["status"] == response.status and "Traceback" not in response.body.decode()
        assert response.json()["code"], "every problem carries a code"


def test_http_1_0_without_a_length_gets_a_problem_and_the_connection_closes(server):
    request = b'POST /v1/score HTTP/1.0\r\nContent-Type: application/json\r\n\r\n{"cards": ["jan-bright"]}'
    answer = exchange(server.port, request, half_close=True)
    (response,) = answer.responses
    # no length, so no body: gunicorn reads a length-less request as bodiless, and the app asks for a length
    assert (response.status, response.headers["content-type"]) == (411, PROBLEM) and answer.closed
    assert response.json()["code"] == "length-required"


def test_a_client_that_waits_for_100_continue_gets_it_then_its_answer(server):
    body = json.dumps(SCORE_BODY).encode()
    head = http_request("POST", "/v1/score", body, {"Content-Type": "application/json", "Expect": "100-continue"})
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as sock:
        sock.sendall(head[: -len(body)])
        assert sock.recv(4096) == b"HTTP/1.1 100 Continue\r\n\r\n"  # the body is not read before this
        sock.sendall(body)
        assert sock.recv(65536).startswith(b"HTTP/1.1 200 ")


def test_pipelined_requests_are_answered_in_order(server, client):
    requests = (
        http_request("GET", "/healthz", headers={"X-Request-ID": "first"})
        + http_request("POST", "/v1/score", SCORE_BODY, {"X-Request-ID": "second"})
        + http_request("POST", "/v1/score", b"{", {"Content-Type": "application/json", "X-Request-ID": "third"})
        + http_request("GET", "/v1/rules", headers={"X-Request-ID": "fourth"})
    )
    answer = exchange(server.port, requests, expect=4)
    assert [(r.headers["x-request-id"], r.status) for r in answer.responses] == [
        ("first", 200),
        ("second", 200),
        ("third", 400),
        ("fourth", 200),
    ]
    assert answer.responses[1].json()["total"] == client.post("/v1/score", json=SCORE_BODY).get_json()["total"]


def test_after_the_bad_bytes_every_worker_is_the_one_it_was(server):
    assert server.healthy()
    assert server.workers() == server.workers_at_start
    assert_clean_log(server)


# --- a worker killed, a restart ----------------------------------------------------------------------------


def test_a_killed_worker_is_replaced_and_only_its_own_requests_fail(tmp_path):
    with Server({"WORKERS": "2"}, tmp_path / "server.log") as server:
        report = asyncio.run(kill_a_worker(server, MIX, connections=8, seconds=3, kill_at=1))
        assert "Traceback" not in server.log()
    assert report.replacement is not None and report.held
    assert report.failed_elsewhere == []  # the other worker's clients never noticed
    assert len(report.load.failures) <= len(report.held)  # at most one failure per connection it held
    answered = report.load.answers[200]
    assert set(report.load.answers) == {200} and answered > 0
    # /metrics kept the dead worker's counts: all answered requests, plus at most those lost after counting
    assert report.metrics_before_kill <= report.metrics_after
    assert answered <= report.metrics_after <= answered + len(report.load.failures)


def test_sigterm_answers_what_was_sent_before_it_and_exits_within_the_graceful_timeout(tmp_path):
    graceful = 10
    with Server({"WORKERS": "2", "GRACEFUL_TIMEOUT": str(graceful), **QUICK}, tmp_path / "server.log") as server:
        report = asyncio.run(sigterm_during_load(server, MIX, connections=6, signal_at=1))
        assert_clean_log(server)
    assert report.exit_code == 0
    assert report.sent_before and report.failed_before == []
    assert report.failed_while_listening == []  # new connections are refused only once the listener is closed
    assert report.exited_at - report.signalled_at < graceful


def test_sighup_keeps_the_old_workers_serving_until_the_new_ones_run(tmp_path):
    """Issue 30: after a SIGHUP the old workers stopped at once, and requests waited while the new ones built the
    application (p99 2.3 s). Now no request waits as long as the new workers took to be there."""
    with Server({"WORKERS": "2"}, tmp_path / "server.log") as server:
        report = asyncio.run(sighup_during_load(server, MIX, connections=4, seconds=40, signal_at=1))
        assert_clean_log(server)
    assert report.replaced_after is not None and report.load.failures == []
    assert set(report.load.answers) == {200}
    waited = max(done - sent for sent, done, _ in report.load.answered_at if sent >= report.signalled_at)
    assert waited < report.replaced_after, (waited, report.replaced_after)


def test_a_server_leaves_no_metrics_directory_behind(tmp_path):
    """Issue 30: every start left a gostop-metrics-* directory in the temporary folder (here one of its own)."""
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    with Server({"WORKERS": "1", "TMPDIR": str(temporary)}, tmp_path / "server.log") as server:
        server.proc.send_signal(signal.SIGHUP)  # read again, the config keeps the directory it made
        made = list(temporary.glob("gostop-metrics-*"))
        assert len(made) == 1 and server.healthy()
    assert list(temporary.glob("gostop-metrics-*")) == []


# --- the settings, the manifests ------------------------------------------------------------------------------


def _conf(monkeypatch, tmp_path, env):
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path / "metrics"))
    for name in ("KEEPALIVE", "BODY_TIMEOUT", "GRACEFUL_TIMEOUT", "WORKER_CONNECTIONS", "DRAIN_FILE"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(str(ROOT / "service" / "gunicorn.conf.py"))


def test_the_worker_and_its_bounds_come_from_the_environment(monkeypatch, tmp_path):
    from service.worker import Worker

    conf = _conf(monkeypatch, tmp_path, {"KEEPALIVE": "0", "BODY_TIMEOUT": "3.5", "WORKER_CONNECTIONS": "77"})
    assert conf["worker_class"] is Worker
    assert (conf["keepalive"], conf["body_timeout"], conf["worker_connections"]) == (1, 3.5, 77)

    class Started:
        body_timeout = 0.0

    conf["post_worker_init"](Started)
    assert Started.body_timeout == 3.5


def test_worker_connections_fit_the_open_file_limit(monkeypatch, tmp_path):
    from service.worker import REFUSAL_SLOTS

    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY:
        pytest.skip("no hard limit on open files here")
    conf = _conf(monkeypatch, tmp_path, {"WORKER_CONNECTIONS": str(hard)})
    assert conf["worker_connections"] + REFUSAL_SLOTS < hard
    assert resource.getrlimit(resource.RLIMIT_NOFILE)[0] == hard  # the soft limit was raised to fit


def test_the_worker_reads_ahead_exactly_the_body_the_service_accepts():
    from service.app import MAX_BODY_BYTES
    from service.worker import BODY_READ_LIMIT

    assert BODY_READ_LIMIT == MAX_BODY_BYTES


def test_a_drain_file_fails_healthz_and_a_stale_one_is_removed_at_start(monkeypatch, tmp_path, client):
    drain_file = tmp_path / "draining"
    monkeypatch.setenv("DRAIN_FILE", str(drain_file))
    assert client.get("/healthz").status_code == 200
    drain_file.touch()
    resp = client.get("/healthz")
    assert (resp.status_code, resp.mimetype) == (503, PROBLEM)
    _conf(monkeypatch, tmp_path, {"DRAIN_FILE": str(drain_file)})
    assert not drain_file.exists() and client.get("/healthz").status_code == 200


def _deployment():
    return yaml.safe_load((ROOT / "deploy" / "k8s" / "deployment.yaml").read_text(encoding="utf-8"))


def test_kubernetes_stops_a_pod_in_the_order_the_gunicorn_settings_need(monkeypatch, tmp_path):
    pod = _deployment()["spec"]["template"]["spec"]
    (container,) = pod["containers"]
    env = {e["name"]: e["value"] for e in container["env"]}
    conf = _conf(monkeypatch, tmp_path, {**env, "DRAIN_FILE": str(tmp_path / "draining")})  # not this host's /tmp
    readiness, liveness = container["readinessProbe"], container["livenessProbe"]
    # 1. preStop marks the pod as draining, then waits: readiness fails (and endpoints are updated) first
    (shell, flag, script) = container["lifecycle"]["preStop"]["exec"]["command"]
    assert (shell, flag) == ("/bin/sh", "-c") and 'touch "$DRAIN_FILE"' in script
    prestop = int(re.search(r"sleep (\d+)", script).group(1))
    assert readiness["httpGet"]["path"] == "/healthz"
    assert readiness["periodSeconds"] * readiness["failureThreshold"] < prestop
    assert any(env["DRAIN_FILE"].startswith(m["mountPath"] + "/") for m in container["volumeMounts"])  # writable
    # 2. then SIGTERM: a worker needs at most keepalive + body_timeout to finish a connection, polled each second
    assert conf["keepalive"] + conf["body_timeout"] + 1 <= conf["graceful_timeout"]
    # 3. Kubernetes waits for the whole drain before it kills, and liveness does not cut the drain short
    assert pod["terminationGracePeriodSeconds"] >= prestop + conf["graceful_timeout"] + 2
    assert liveness["periodSeconds"] * liveness["failureThreshold"] > pod["terminationGracePeriodSeconds"]
