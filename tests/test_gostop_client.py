"""gostop.Client: against a real gunicorn, and against a small scripted server for what gunicorn will not do on
demand (503 then 200, Retry-After, a dropped connection, a proxy's page)."""

from __future__ import annotations

import email.utils
import http.server
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

import orjson
import pytest
import requests

import gostop
from engine.simulate import simulate
from gostop import Client, ConnectionFailed, GostopError, ProblemError, TimedOut
from gostop.client import retry_after
from gostop.server import Server, free_port

pytestmark = pytest.mark.xdist_group("programs")

LOG = simulate("korean-2p", 5).to_dict()
ILLEGAL = {**LOG, "moves": [*LOG["moves"][:3], {**LOG["moves"][3], "play": "jan-bright"}]}
CARDS = ["jan-bright", "mar-bright", "aug-bright", "feb-animal", "apr-animal", "aug-animal"]


@pytest.fixture(scope="module")
def service() -> Iterator[str]:
    with Server({"WORKERS": "1", "ACCESS_LOG_LEVEL": "WARNING"}) as running:
        yield running.url


# --- against the service ----------------------------------------------------------------------------------


def test_each_endpoint_answers_what_the_service_answers(service):
    with Client(service, language="ko") as client:
        korean = {"Accept-Language": "ko"}
        assert (
            client.score(cards=CARDS)
            == requests.post(f"{service}/v1/score", json={"cards": CARDS}, headers=korean).json()
        )
        assert client.score({"cards": CARDS}, rules="chips-2p")["rules"]["preset"] == "chips-2p"
        ruling = client.replay(LOG)
        assert ruling == requests.post(f"{service}/v1/replay", json=LOG, headers=korean).json()
        assert ruling["settlement"]["explanation"][0].startswith("B가 10점으로 스톱했습니다")
        players = [{"id": p["id"], "captured": p["captured"], "go_count": p["go_count"]} for p in ruling["players"]]
        settled = client.settle(rules="korean-2p", winner="B", players=players)
        assert settled["payments"] == ruling["settlement"]["payments"]
        assert [p["name"] for p in client.rules()["presets"]][:2] == ["korean-2p", "korean-3p"]
        assert client.rules("chips-3p")["players"] == 3
        cards = client.cards()
        assert len(cards) == 51 and cards[0]["names"]["ko"] == "송학 광"
        evening = {"people": ["A", "B"], "stake": 100, "hands": [{"settle": {"winner": "B", "players": players}}]}
        ledger = client.evening(evening)
        assert ledger == requests.post(f"{service}/v1/evening", json=evening, headers=korean).json()
        assert ledger["totals"] == {"A": -2000, "B": 2000} and client.evening(evening, stake=200)["stake"] == 200


def test_an_evening_the_service_refuses_is_a_problem_naming_the_hand(service):
    with Client(service) as client, pytest.raises(ProblemError) as refused:
        client.evening(people=["A", "B"], hands=[{"settle": {"winner": "C", "players": [{"id": "A"}, {"id": "B"}]}}])
    assert refused.value.status == 422 and refused.value.facts["hand_index"] == 0


def test_a_refusal_is_one_exception_with_the_problems_facts(service):
    with Client(service, language="en") as client:
        with pytest.raises(ProblemError) as refused:
            client.replay(ILLEGAL)
        error = refused.value
        assert (error.status, error.code, error.move_index) == (422, "card-not-in-hand", 3)
        assert error.detail == "Pine bright (crane and sun) is not in B's hand"
        assert error.facts == {"move_index": 3, "player": "B", "card": "jan-bright"}
        assert str(error) == "422 card-not-in-hand: Pine bright (crane and sun) is not in B's hand"
        with pytest.raises(ProblemError) as refused:
            client.settle(players=[{"id": "A"}], stake="a lot")
        assert refused.value.code == "validation-error" and set(refused.value.facts["errors"]) == {"players", "stake"}
        with pytest.raises(ProblemError) as refused:
            client.rules("korean-9p")
        assert (refused.value.status, refused.value.code, refused.value.move_index) == (404, "not-found", None)
    with Client(service, language="ko") as client, pytest.raises(ProblemError) as refused:
        client.replay(ILLEGAL)
    korean = requests.post(f"{service}/v1/replay", json=ILLEGAL, headers={"Accept-Language": "ko"}, timeout=10).json()
    assert refused.value.detail == korean["detail"] and refused.value.body == korean


def test_a_log_in_the_text_notation_is_sent_as_text(service):
    """Issue 17: ``replay`` takes the log as text (docs/NOTATION.md), sent as text/plain: the ruling is the one
    its JSON body gets; a text that is no log, or an illegal move of it, is a ProblemError naming the line and
    column."""
    from engine import format_log

    text = format_log(LOG, spelling="korean")
    with Client(service, language="ko") as client:
        assert client.replay(text) == client.replay(LOG)
        with pytest.raises(ProblemError) as refused:
            client.replay(text.replace("[Players", "[Player"))
        assert (refused.value.status, refused.value.code) == (422, "bad-notation")
        assert refused.value.facts["why"] == "unknown-tag" and refused.value.facts["line"] == 2
        assert refused.value.detail.startswith("2줄 2칸: ")
        with pytest.raises(ProblemError) as refused:
            client.replay(format_log(ILLEGAL))
        first_move = format_log(ILLEGAL).split("\n").index("") + 2  # after the blank line that ends the header
        assert (refused.value.code, refused.value.move_index) == ("card-not-in-hand", 3)
        assert (refused.value.facts["line"], refused.value.facts["column"]) == (first_move + 3, 1)
        with pytest.raises(TypeError):
            client.replay(text, stake=100)


# --- a scripted server ----------------------------------------------------------------------------------


@dataclass
class Reply:
    status: int = 200
    body: bytes = b'{"total": 8}'
    headers: dict[str, str] = field(default_factory=lambda: {"Content-Type": "application/json"})
    drop: bool = False  # close the connection without answering
    delay: float = 0.0  # seconds before answering


@dataclass
class Seen:
    at: float
    method: str
    path: str
    language: str | None
    client_port: int


class Scripted(http.server.ThreadingHTTPServer):
    """Answers the replies in order (the last one again and again), recording every request."""

    daemon_threads = True

    def __init__(self, replies: list[Reply]) -> None:
        self.replies = replies
        self.seen: list[Seen] = []
        super().__init__(("127.0.0.1", free_port()), _Handler)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"


class _Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as gunicorn's worker does
    server: Scripted

    def _answer(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        seen = self.server.seen
        seen.append(
            Seen(time.monotonic(), self.command, self.path, self.headers["Accept-Language"], self.client_address[1])
        )
        reply = self.server.replies[min(len(seen), len(self.server.replies)) - 1]
        time.sleep(reply.delay)
        if reply.drop:
            self.close_connection = True
            return
        self.send_response(reply.status)
        for name, value in {**reply.headers, "Content-Length": str(len(reply.body))}.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(reply.body)

    do_GET = do_POST = _answer

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture()
def scripted():
    servers: list[Scripted] = []

    def start(*replies: Reply) -> Scripted:
        server = Scripted(list(replies))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


PROBLEM = {"Content-Type": "application/problem+json"}
UNAVAILABLE = orjson.dumps(
    {"type": "about:blank", "title": "Unavailable", "status": 503, "detail": "Busy", "code": "unavailable"}
)


def test_a_503_is_tried_again_after_the_wait_retry_after_asks(scripted):
    server = scripted(Reply(503, UNAVAILABLE, {**PROBLEM, "Retry-After": "1"}), Reply())
    with Client(server.url, backoff=0.01) as client:
        assert client.score(cards=["jan-bright"]) == {"total": 8}
    first, second = server.seen
    assert second.at - first.at >= 1.0  # not the 0.01 s backoff: the service asked for a second


def test_503s_back_off_twice_as_long_each_time_and_the_last_is_raised(scripted):
    server = scripted(Reply(503, UNAVAILABLE, PROBLEM))
    waits: list[float] = []
    with (
        Client(server.url, retries=3, backoff=0.05, sleep=waits.append) as client,
        pytest.raises(ProblemError) as refused,
    ):
        client.score(cards=["jan-bright"])
    assert (refused.value.status, refused.value.code, refused.value.detail) == (503, "unavailable", "Busy")
    assert waits == [0.05, 0.1, 0.2] and len(server.seen) == 4


def test_a_retry_after_longer_than_max_wait_is_not_waited_for(scripted):
    server = scripted(Reply(503, UNAVAILABLE, {**PROBLEM, "Retry-After": "3600"}), Reply())
    waits: list[float] = []
    with Client(server.url, sleep=waits.append) as client, pytest.raises(ProblemError):
        client.score(cards=["jan-bright"])
    assert waits == [] and len(server.seen) == 1


@pytest.mark.parametrize("status", [400, 404, 413, 422, 429])
def test_a_4xx_is_never_tried_again(scripted, status):
    body = orjson.dumps(
        {"type": "about:blank", "title": "No", "status": status, "detail": "no", "code": "nope", "card": "x"}
    )
    server = scripted(Reply(status, body, {**PROBLEM, "Retry-After": "0"}), Reply())
    with Client(server.url, retries=5, sleep=lambda s: None) as client, pytest.raises(ProblemError) as refused:
        client.replay(LOG)
    assert len(server.seen) == 1 and refused.value.status == status and refused.value.facts == {"card": "x"}


def test_a_dropped_connection_is_tried_again(scripted):
    server = scripted(Reply(drop=True), Reply())
    waits: list[float] = []
    with Client(server.url, backoff=0.01, sleep=waits.append) as client:
        assert client.score(cards=["jan-bright"]) == {"total": 8}
    assert len(server.seen) == 2 and waits == [0.01]


def test_a_service_that_is_not_there_is_tried_retries_times_then_raised():
    waits: list[float] = []
    client = Client(f"http://127.0.0.1:{free_port()}", retries=2, backoff=0.01, sleep=waits.append)
    with client, pytest.raises(ConnectionFailed) as failed:
        client.cards()
    assert waits == [0.01, 0.02]
    assert "refused" in failed.value.reason.lower() and failed.value.url == client.base_url + "/v1/cards"
    assert isinstance(failed.value, GostopError) and not isinstance(failed.value, requests.RequestException)


def test_a_service_that_does_not_answer_in_time_is_timed_out_not_a_requests_error(scripted):
    server = scripted(Reply(delay=1.0))
    with Client(server.url, timeout=0.2, retries=0) as client, pytest.raises(TimedOut) as late:
        client.score(cards=["jan-bright"])
    assert isinstance(late.value, ConnectionFailed) and late.value.timeout == 0.2
    assert not isinstance(late.value, requests.RequestException)


@pytest.mark.parametrize("url", ["htp://127.0.0.1:1", "http://", "http://[::1"])
def test_a_url_requests_cannot_follow_is_a_gostop_error(url):
    with Client(url, retries=0) as client, pytest.raises(ConnectionFailed):
        client.cards()


def test_the_package_exports_its_errors():
    assert {"GostopError", "ProblemError", "ConnectionFailed", "TimedOut"} <= set(gostop.__all__)
    assert issubclass(ProblemError, GostopError) and issubclass(TimedOut, ConnectionFailed)


def test_one_session_keeps_its_connection_and_sends_the_language(scripted):
    server = scripted(Reply())
    with Client(server.url, language="ko") as client:
        for _ in range(5):
            client.score(cards=["jan-bright"])
    assert len({s.client_port for s in server.seen}) == 1
    assert {s.language for s in server.seen} == {"ko"}


def test_an_answer_that_is_no_problem_is_still_one_exception(scripted):
    server = scripted(Reply(502, b"<html><body>Bad gateway</body></html>", {"Content-Type": "text/html"}))
    with Client(server.url) as client, pytest.raises(ProblemError) as refused:
        client.rules()
    assert (refused.value.status, refused.value.code) == (502, None)
    assert refused.value.detail == "<html><body>Bad gateway</body></html>"


def test_retry_after_is_seconds_or_an_http_date():
    assert retry_after("7") == 7.0
    assert retry_after(None) is None and retry_after("soon") is None
    later = email.utils.formatdate(time.time() + 30, usegmt=True)
    assert 28 <= retry_after(later) <= 30
    assert retry_after(email.utils.formatdate(time.time() - 30, usegmt=True)) == 0.0
