"""The engine in the page (issue 26, docs/page-engine.md): Pyodide running the service's own Python sources in
Debian's Chromium, answering ``window.gostop.answer`` exactly as the service answers HTTP.

Every game log of tests/data (as JSON and in the text notation) and every README example, in English and in
Korean, is answered by the page and by the live service, and the two answers are the same, refusals
included. Without Pyodide (``make pyodide`` needs npm) the module skips and says why, or fails with CI=true.
"""

from __future__ import annotations

import contextlib
import json
import os
import re

import pytest
import requests

from engine import GoStopError, format_log
from service.bundle import pyodide_dir
from tests.conftest import ROOT
from tests.test_logs import LOGS
from tests.test_page import CSP_WATCH, TALL_PHONE, browser, server  # noqa: F401 (the fixtures)

pytestmark = pytest.mark.xdist_group("browser")

README = (ROOT / "README.md").read_text(encoding="utf-8")
README_BODIES = [
    (path, json.loads(body))
    for _, path, body in re.findall(r"```sh\n(curl -s localhost:8000(\S+) .*?-d '(.*?)')\n```", README, re.S)
]
# Bodies the service refuses, one of each way: the answers' problems must be the same too.
REFUSED = [
    ("/v1/score", {"cards": ["jan-bright", "nope", 3]}),
    ("/v1/settle", {"players": [{"id": "A"}]}),
    ("/v1/settle", {"rules": "korean-9p", "players": [{"id": "A"}, {"id": "B"}], "winner": "A"}),
    ("/v1/replay", "@@ not a log"),
    ("/v1/evening", {"people": ["A"], "hands": []}),
]
ENGINE_TIMEOUT_MS = 180_000  # a first load on a shared test machine: fetched, compiled and started


def _bodies() -> list[tuple[str, object]]:
    asked: list[tuple[str, object]] = []
    for path in LOGS:
        request = json.loads(path.read_text(encoding="utf-8"))["request"]
        asked.append(("/v1/replay", request))
        # the same log as text, but for one the notation cannot write (a card that is not one)
        with contextlib.suppress(GoStopError):
            asked.append(("/v1/replay", format_log(request)))
    return asked + README_BODIES + REFUSED


@pytest.fixture(scope="module")
def engine_page(browser, server):  # noqa: F811 (the fixtures imported above)
    if pyodide_dir() is None:
        why = "Pyodide is not installed (make pyodide needs npm)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(why)
        pytest.skip(f"PAGE ENGINE TESTS SKIPPED: {why}")
    context = browser.new_context(viewport=TALL_PHONE)
    context.add_init_script(CSP_WATCH)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready]")
    page.wait_for_function("() => window.gostop.ready.then(() => true)", timeout=ENGINE_TIMEOUT_MS)
    yield page
    assert errors == [], f"console errors: {errors}"
    assert page.evaluate("window.__csp") == [], "CSP violations"
    context.close()


def _service(base: str, path: str, body: object, lang: str) -> tuple[int, object]:
    headers = {"Accept-Language": lang}
    if isinstance(body, str) and path == "/v1/replay":
        headers["Content-Type"] = "text/plain; charset=utf-8"
        answer = requests.post(base + path, data=body.encode(), headers=headers, timeout=30)
    else:
        answer = requests.post(base + path, json=body, headers=headers, timeout=30)
    return answer.status_code, answer.json()


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_page_answers_every_log_and_readme_example_as_the_service(engine_page, server, lang):  # noqa: F811
    asked = _bodies()
    assert len(asked) > 2 * len(LOGS) and {p for p, _ in README_BODIES} >= {"/v1/score", "/v1/settle", "/v1/evening"}
    said = engine_page.evaluate(
        """async ([asked, lang]) => {
            const out = [];
            for (const [path, body] of asked) out.push(await window.gostop.answer(path, body, lang));
            return out;
        }""",
        [asked, lang],
    )
    statuses = set()
    for (path, body), page in zip(asked, said, strict=True):
        status, service = _service(server, path, body, lang)
        statuses.add(status)
        assert (page["status"], page["body"]) == (status, service), f"{path} {json.dumps(body)[:200]}"
    assert {200, 422} <= statuses  # rulings and refusals both


def test_the_page_gives_the_catalogs_as_the_service(engine_page, server):  # noqa: F811
    for lang in ("en", "ko"):
        for path in ("/v1/cards", "/v1/rules", "/v1/rules/korean-3p", "/v1/rules/korean-9p"):
            page = engine_page.evaluate(
                "async ([path, lang]) => (await import('/table/js/engine.js')).catalog(path, lang)", [path, lang]
            )
            answer = requests.get(server + path, headers={"Accept-Language": lang}, timeout=30)
            assert (page["status"], page["body"]) == (answer.status_code, answer.json()), path
