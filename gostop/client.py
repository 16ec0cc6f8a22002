"""A Python client of the gostop HTTP service, on requests.

    with gostop.Client("http://127.0.0.1:8000", language="ko") as client:
        ruling = client.settle(rules="korean-2p", winner="A", players=[...])

Each method sends one request and returns the answer's JSON. An answer that is not a success is raised as one
exception type, ``ProblemError``, carrying its ``status``, ``code``, ``detail`` and the problem's facts (the
culprit ``move_index``, ``player``, ``card``, ``knob``, a validation error's ``errors``...). A request that
could not reach the service (connection refused or reset) and an answer 503 (the service is starting, draining
or full) are tried again after a backoff, waiting at least what ``Retry-After`` asks; a 4xx never is. When every
try failed to connect, ``ConnectionFailed`` is raised (``TimedOut``, one kind of it, when the service did not
answer in time): every exception the client raises is a ``GostopError``, never one of requests'. One
``requests.Session`` carries every request, so connections are kept alive.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol
from urllib.parse import quote

import orjson

if TYPE_CHECKING:
    import requests
# requests itself (and urllib3 under it) is imported by the first Client made, not by ``import gostop``: the
# audit's processes (its reader and the forkserver of its workers) import the package and never ask the network,
# and requests was half of their start-up (docs/audit.md)

__all__ = ["Answer", "Client", "ConnectionFailed", "GostopError", "ProblemError", "TimedOut", "Transport"]

JSON = "application/json"
TEXT = "text/plain; charset=utf-8"  # a move log in the text notation (docs/NOTATION.md)
PROBLEM = "application/problem+json"
_PROBLEM_FIELDS = ("type", "title", "status", "detail", "code")


class Answer(NamedTuple):
    """One answer as the service sent it: its status, media type and body bytes."""

    status: int
    content_type: str
    body: bytes

    @property
    def ok(self) -> bool:
        return self.status < 400

    def json(self) -> Any:
        return orjson.loads(self.body)


class Transport(Protocol):
    """Whatever answers gostop's requests: the HTTP service (``Client``) or the service in process."""

    def request(self, method: str, path: str, body: bytes | None = None, content_type: str = JSON) -> Answer: ...


class GostopError(Exception):
    """Every exception the client raises: a refusal (``ProblemError``) or a service it could not ask."""


class ConnectionFailed(GostopError):
    """The service could not be asked: the connection was refused or reset, the host is unknown, the URL is
    not one requests can follow, or (``TimedOut``) no answer came in time. ``url`` is the request's URL,
    ``reason`` what went wrong, in the words of the network library underneath."""

    def __init__(self, url: str, reason: str) -> None:
        self.url = url
        self.reason = reason
        super().__init__(f"cannot reach {url}: {reason}")


class TimedOut(ConnectionFailed):
    """The service did not answer within the client's ``timeout``."""

    def __init__(self, url: str, timeout: float) -> None:
        self.timeout = timeout
        super().__init__(url, f"no answer within {timeout:g} s")


class ProblemError(GostopError):
    """An answer that is not a success: a problem (RFC 9457), or whatever else a proxy put in its place.

    ``status`` is the HTTP status; ``code`` the stable code of the problem (None if the body is no problem);
    ``detail`` the sentence, in the language asked for; ``facts`` every other field of the problem (such as
    ``move_index``, ``player``, ``card``, ``knob``, ``errors``); ``body`` the whole problem as sent.
    """

    def __init__(self, status: int, body: Mapping[str, Any] | None = None, *, text: str = "") -> None:
        self.body: dict[str, Any] = dict(body or {})
        self.status = status
        self.code: str | None = self.body.get("code")
        self.title: str = self.body.get("title", "")
        self.detail: str = self.body.get("detail") or text or f"HTTP {status}"
        self.facts: dict[str, Any] = {k: v for k, v in self.body.items() if k not in _PROBLEM_FIELDS}
        super().__init__(f"{status} {self.code}: {self.detail}" if self.code else f"{status}: {self.detail}")

    @property
    def move_index(self) -> int | None:
        """The move a refused log breaks at (0-based), when the problem names one."""
        index = self.facts.get("move_index")
        return index if isinstance(index, int) else None

    @classmethod
    def from_answer(cls, answer: Answer) -> ProblemError:
        try:
            body = answer.json()
        except orjson.JSONDecodeError:
            body = None
        if isinstance(body, dict):
            return cls(answer.status, body)
        return cls(answer.status, text=answer.body[:200].decode("utf-8", "replace").strip())


def retry_after(value: str | None) -> float | None:
    """Seconds a ``Retry-After`` header asks to wait (a number of seconds or an HTTP date), or None."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    import email.utils  # here: its import (the email package, 12 ms) would be paid by every command's start

    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


class Client:
    """The gostop service at ``base_url`` (e.g. ``http://127.0.0.1:8000``).

    ``language`` (``ko`` or ``en``; None: the service's default) is sent as ``Accept-Language``; ``timeout``
    bounds each attempt in seconds; ``retries`` is how many times a request that could not connect or was
    answered 503 is tried again, waiting ``backoff`` seconds, then twice as long each time (at least what the
    service's ``Retry-After`` asks). An answer asking to wait longer than ``max_wait`` is not waited for: its
    503 is raised. Use it as a context manager, or call ``close``, to close its connections.
    """

    def __init__(
        self,
        base_url: str,
        language: str | None = None,
        *,
        timeout: float = 10.0,
        retries: int = 3,
        backoff: float = 0.2,
        max_wait: float = 30.0,
        session: requests.Session | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.language = language
        self.timeout = timeout
        self.retries = retries
        self.backoff = backoff
        self.max_wait = max_wait
        if session is None:
            import requests

            session = requests.Session()
        self.session = session
        self._sleep = sleep
        self.session.headers["Accept"] = f"{JSON}, {PROBLEM}"
        if language:
            self.session.headers["Accept-Language"] = language

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.session.close()

    def __repr__(self) -> str:
        return f"Client({self.base_url!r}, language={self.language!r})"

    # --- the endpoints ----------------------------------------------------------------------------------

    def score(self, body: Mapping[str, Any] | None = None, /, **fields: Any) -> dict[str, Any]:
        """POST /v1/score: one player's combination score, e.g. ``score(cards=[...], rules="korean-2p")``.
        The request body is ``body`` updated with ``fields`` (the API's field names)."""
        return self._post("/v1/score", body, fields)

    def settle(self, body: Mapping[str, Any] | None = None, /, **fields: Any) -> dict[str, Any]:
        """POST /v1/settle: who pays whom, with every rule checked (``players``, ``winner``, ``stake``...)."""
        return self._post("/v1/settle", body, fields)

    def replay(self, body: Mapping[str, Any] | str | None = None, /, **fields: Any) -> dict[str, Any]:
        """POST /v1/replay: a move log judged move by move (``players``, ``deal``, ``moves``...); an illegal
        move is raised as a ProblemError whose ``move_index`` names it.

        ``body`` may be the log in the text notation (a ``str``, docs/NOTATION.md), sent as text/plain: a
        text that is no log is raised with code ``bad-notation``, and every refusal of it names the ``line``
        and ``column`` in its facts."""
        if isinstance(body, str):
            if fields:
                raise TypeError("a log in the text notation is sent as it is: give no fields beside it")
            answer: dict[str, Any] = self._json(self.request("POST", "/v1/replay", body.encode(), TEXT))
            return answer
        return self._post("/v1/replay", body, fields)

    def rules(self, preset: str | None = None) -> dict[str, Any]:
        """GET /v1/rules (the presets), or GET /v1/rules/{preset} (that preset's every knob)."""
        path = "/v1/rules" if preset is None else f"/v1/rules/{quote(preset, safe='')}"
        answer: dict[str, Any] = self._json(self.request("GET", path))
        return answer

    def evening(self, body: Mapping[str, Any] | None = None, /, **fields: Any) -> dict[str, Any]:
        """POST /v1/evening: the evening's ledger from its hands so far (``people``, ``stake``, ``hands``...):
        each hand paid, the totals, the balances, the next hand's dealer and carry, and the settle-up."""
        return self._post("/v1/evening", body, fields)

    def cards(self) -> list[dict[str, Any]]:
        """GET /v1/cards: the deck, each card with its month, kind, junk units and names."""
        cards: list[dict[str, Any]] = self._json(self.request("GET", "/v1/cards"))["cards"]
        return cards

    # --- the transport ----------------------------------------------------------------------------------

    def request(self, method: str, path: str, body: bytes | None = None, content_type: str = JSON) -> Answer:
        """One request, tried again on a connection error or a 503 as the class says; the answer as it came
        (whatever its status). Raises ConnectionFailed when every try failed to connect, TimedOut when the
        service did not answer in time."""
        import requests  # imported by __init__ already: a lookup

        headers = {"Content-Type": content_type} if body is not None else None
        url = self.base_url + path
        attempt = 0
        while True:
            try:
                response = self.session.request(method, url, data=body, headers=headers, timeout=self.timeout)
            except requests.ConnectionError as exc:  # refused, reset, unknown host (a connect timeout among them)
                if attempt >= self.retries:
                    if isinstance(exc, requests.ConnectTimeout):
                        raise TimedOut(url, self.timeout) from exc
                    raise ConnectionFailed(url, _reason(exc)) from exc
                wait = self._backoff(attempt)
            except requests.Timeout as exc:  # connected, but no answer in time: not tried again (it may have run)
                raise TimedOut(url, self.timeout) from exc
            except requests.RequestException as exc:  # a URL requests cannot follow, too many redirects...
                raise ConnectionFailed(url, _reason(exc)) from exc
            else:
                answer = Answer(response.status_code, response.headers.get("Content-Type", ""), response.content)
                if response.status_code != 503 or attempt >= self.retries:
                    return answer
                asked = retry_after(response.headers.get("Retry-After"))
                if asked is not None and asked > self.max_wait:
                    return answer
                wait = max(self._backoff(attempt), asked or 0.0)
            self._sleep(wait)
            attempt += 1

    def _backoff(self, attempt: int) -> float:
        return min(self.backoff * float(2**attempt), self.max_wait)

    def _post(self, path: str, body: Mapping[str, Any] | None, fields: Mapping[str, Any]) -> dict[str, Any]:
        sent = {**(body or {}), **fields}
        answer: dict[str, Any] = self._json(self.request("POST", path, orjson.dumps(sent)))
        return answer

    @staticmethod
    def _json(answer: Answer) -> Any:
        if not answer.ok:
            raise ProblemError.from_answer(answer)
        return answer.json()


def _reason(exc: BaseException) -> str:
    """The innermost cause of a connection error, which says what happened (refused, unknown host...)."""
    while isinstance(exc.__context__, Exception):
        exc = exc.__context__
    text = str(exc)
    return text.split(": ", 1)[-1] if ": " in text else text or type(exc).__name__
