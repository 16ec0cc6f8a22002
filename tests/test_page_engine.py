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
from pathlib import Path

import pytest
import requests

from engine import GoStopError, format_log
from service.bundle import pyodide_dir
from tests.conftest import ROOT
from tests.test_logs import LOGS
from tests.test_page import (  # noqa: F401 (the fixtures browser and server)
    CHROMIUM,
    CHROMIUM_ARGS,
    CSP_WATCH,
    LIVE_LOG,
    TALL_PHONE,
    Table,
    _enter,
    _named,
    _start_live,
    _wait_moves,
    browser,
    server,
)

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
# The service worker keeps the engine's files: the zip and Pyodide's five
KEPT = "async () => (await (await caches.open('gostop-engine')).keys()).length === 6"
# and the engine's memory after its first start's imports (its snapshot), one, whole
SNAPSHOT_KEPT = """async () => {
    const cache = await caches.open('gostop-engine-snapshot');
    const keys = await cache.keys();
    return keys.length === 1 && (await (await cache.match(keys[0])).arrayBuffer()).byteLength > 0;
}"""


def _until(page, check: str, timeout_ms: int = ENGINE_TIMEOUT_MS) -> None:
    """Wait until the async function ``check`` resolves true in the page (``wait_for_function`` takes the promise
    an async function returns for true at once)."""
    waited = f"""async () => {{
        const check = {check};
        const until = performance.now() + {timeout_ms};
        while (!(await check())) {{
            if (performance.now() > until) return false;
            await new Promise((resolve) => setTimeout(resolve, 100));
        }}
        return true;
    }}"""
    assert page.evaluate(waited), f"not so after {timeout_ms} ms: {check}"


def _bodies() -> list[tuple[str, object]]:
    asked: list[tuple[str, object]] = []
    for path in LOGS:
        request = json.loads(path.read_text(encoding="utf-8"))["request"]
        asked.append(("/v1/replay", request))
        # the same log as text, but for one the notation cannot write (a card that is not one)
        with contextlib.suppress(GoStopError):
            asked.append(("/v1/replay", format_log(request)))
    return asked + README_BODIES + REFUSED


def _skip_without_pyodide() -> None:
    if pyodide_dir() is None:
        why = "Pyodide is not installed (make pyodide needs npm)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(why)
        pytest.skip(f"PAGE ENGINE TESTS SKIPPED: {why}")


@pytest.fixture(scope="module")
def engine_page(browser, server):  # noqa: F811 (the fixtures imported above)
    _skip_without_pyodide()
    context = browser.new_context(viewport=TALL_PHONE)
    context.add_init_script(CSP_WATCH)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready]")
    page.wait_for_function("() => window.gostop.ready.then(() => true)", timeout=ENGINE_TIMEOUT_MS)
    # the answers are asked of an engine started from the memory its first start kept (engine-worker.js)
    _until(page, SNAPSHOT_KEPT)
    page.reload()
    page.wait_for_selector("body[data-ready]")
    info = page.evaluate("window.gostop.ready")
    assert info["phases"]["from_snapshot"] is True
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


# --- every flow with the network cut after the first visit -------------------------------------------------------


@pytest.fixture
def cut(request, browser, server):  # noqa: F811
    """A phone that opened the page once (the service worker holds the page and the engine), then lost the
    network: every ruling is the engine's in the page."""
    _skip_without_pyodide()
    lang = getattr(request, "param", "ko")
    context = browser.new_context(viewport=TALL_PHONE, locale=lang)
    context.add_init_script(CSP_WATCH)
    context.set_default_timeout(20_000)
    t = Table(context, server, lang)
    t.offline_expected = True  # Chromium logs the fetches that cannot go out
    t.open("settle")
    t.page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=ENGINE_TIMEOUT_MS)
    t.page.wait_for_function("() => window.gostop.ready.then(() => true)", timeout=ENGINE_TIMEOUT_MS)
    _until(t.page, KEPT)
    context.set_offline(True)
    yield t
    try:
        assert t.errors == [], f"console errors: {t.errors}"
        assert t.csp_violations() == [], "CSP violations"
    finally:
        context.close()


def _ruled_on_the_phone(t: Table) -> None:
    assert t.page.locator("body").get_attribute("data-ruled-by") == "page"
    assert t.page.locator('[data-key="ruled-by"]').count() == 1  # the badge
    # and what it means, in a plain visible sentence (trial r5 D8: a title a phone never shows)
    said = t.page.locator('[data-key="ruled-by-said"]')
    assert said.is_visible() and said.inner_text() == (
        "인터넷이 끊겨 이 폰에서 계산했어요." if t.lang == "ko" else "No internet: worked out on this phone."
    )
    assert t.page.locator(".offline").count() == 0  # nothing waits for the service


def test_offline_a_live_hand_with_a_go_and_a_stop(cut):
    t = cut
    t.reload()  # the page, and then its engine, from the service worker's copy
    t.page.wait_for_function("() => window.gostop.ready.then(() => true)", timeout=ENGINE_TIMEOUT_MS)
    names = t.names[:2]
    _start_live(t)
    for i, move in enumerate(_named(m, names) for m in LIVE_LOG["moves"]):
        if move.get("call") == "go":
            # the decision, ruled on the phone: what a stop pays now, and what a go risks
            assert t.page.locator(".if-go").get_attribute("data-go-count") == "1"
            assert t.page.locator(".if-stop").get_attribute("data-source") == "if_stop"
        if move.get("call") == "stop":
            stop_now = t.page.locator(".if-stop-payment")
            assert stop_now.get_attribute("data-points") == "32" and stop_now.get_attribute("data-amount") == "3200"
        _enter(t, move, answered=False)
        _wait_moves(t, i + 1)
        t.idle()
        assert t.page.locator(".moves > li.pending").count() == 0, "every turn is checked at once"
    t.page.wait_for_selector(".finished .ruling")
    paid = t.page.locator('.ruling .payment[data-from="' + names[1] + '"]')
    assert paid.get_attribute("data-points") == "32"
    # scores and steals as the service says them
    answer = requests.post(
        t.base + "/v1/replay",
        json={**LIVE_LOG, "players": names, "moves": [_named(m, names) for m in LIVE_LOG["moves"]]},
        headers={"Accept-Language": t.lang},
        timeout=30,
    ).json()
    for player in answer["players"]:
        shown = t.page.locator(f'.player[data-player="{player["id"]}"]')
        assert shown.get_attribute("data-score") == str(player["score"]["total"])
    shown_events = [e.get_attribute("data-type") for e in t.page.locator(".events > li").all()]
    assert shown_events == [e["type"] for e in reversed(answer["events"])] and "steal" in shown_events
    _ruled_on_the_phone(t)


def test_offline_a_settle_by_counts(cut):
    """The README's dispute told by counts (A stopped at 9 with 3 brights, 3 animals, 10 junk and a go; B has
    the cup as an animal, no bright and 6 junk): 20 points, 2,000, as the service rules it."""
    t = cut
    b = t.names[1]
    t.click('[data-key="winner-0"]')
    t.click('[data-key="mode-counts"]')
    for key, value in (("q-points-0", "9"), ("q-brights-0", "3"), ("q-animals-0", "3"), ("q-junk_units-0", "10")):
        t.page.fill(f'[data-key="{key}"]', value)
    t.click('[data-key="go-0-plus"]')
    t.page.fill('[data-key="q-brights-1"]', "0")  # said: gwangbak rests on it (a blank would be asked)
    t.page.fill('[data-key="q-junk_units-1"]', "6")
    t.click('[data-key="q-cup-1-animal"]')
    t.click('[data-key="submit"]')
    t.page.wait_for_selector(".ruling")
    payment = t.page.locator(f'.payment[data-from="{b}"]')
    assert payment.get_attribute("data-points") == "20" and payment.get_attribute("data-amount") == "2000"
    _ruled_on_the_phone(t)


def test_offline_an_evening_of_six_hands_with_a_nagari(cut):
    t = cut
    t.open("ledger")
    t.click('[data-key="people-2"]')  # the ledger's own people first (issue 27), set on the phone
    for i, name in enumerate(("A", "B")):
        t.page.fill(f'[data-key="person-{i}"]', name)
    t.click('[data-key="ledger-start"]')
    t.page.locator(".ledger-quick").wait_for()
    for hand in range(6):
        if hand == 2:
            t.click('[data-key="lq-winner-null"]')  # a nagari, one tap: the next hand counts double
        else:
            winner = hand % 2
            t.click(f'[data-key="lq-winner-{winner}"]')
            t.page.fill(f'[data-key="q-points-{winner}"]', "7")  # 3 brights and 13 junk: 7 points (RULES.md 3)
            t.page.fill(f'[data-key="q-brights-{winner}"]', "3")
            t.page.fill(f'[data-key="q-junk_units-{winner}"]', "13")
            t.page.fill(f'[data-key="q-junk_units-{1 - winner}"]', "10")
            t.page.fill(f'[data-key="q-brights-{1 - winner}"]', "0")  # gwangbak rests on it: said
            t.click('[data-key="ledger-quick-add"]')
        t.page.locator(f'.ledger-table tr[data-hand="{hand + 1}"]').wait_for()
        t.idle()
    rows = t.page.locator(".ledger-table tbody tr[data-hand]")
    assert [r.get_attribute("data-outcome") for r in rows.all()] == ["stop", "stop", "nagari", "stop", "stop", "stop"]
    assert t.page.locator(".ledger-table tr[data-pending]").count() == 0, "ruled on the phone, in order"
    _ruled_on_the_phone(t)
    # the ledger the phone ruled is the service's answer for the same evening
    kept = json.loads(t.page.evaluate("localStorage.getItem('gostop.ledger')"))
    body = {
        "rules": {"preset": kept["preset"], **kept["knobs"]},
        "people": kept["people"],
        "first_dealer": kept["first_dealer"],
        "stake": kept["stake"],
    }
    asked = requests.post(
        t.base + "/v1/evening",
        json={**body, "hands": [{k: v for k, v in h.items() if k in ("settle", "replay")} for h in kept["hands"]]},
        timeout=30,
        headers={"Accept-Language": t.lang},
    )
    assert asked.status_code == 200 and kept["answer"] == asked.json()
    assert [h["settlement"]["outcome"] for h in kept["answer"]["hands"]][2] == "nagari"
    assert kept["answer"]["hands"][3]["carry"]["nagari_streak"] == 1  # the hand after the nagari counts double


def test_offline_a_check_of_an_illegal_log(cut):
    t = cut
    t.refusals_expected = True
    bad = json.loads(json.dumps(LIVE_LOG))
    bad["moves"][4]["play"] = "nov-double"  # dealt face up at the start: already seen
    expected = requests.post(t.base + "/v1/replay", json=bad, headers={"Accept-Language": t.lang}, timeout=30)
    t.open("check")
    t.page.fill("#log-text", json.dumps(bad))
    t.click('[data-key="check-run"]')
    t.page.locator('.verdict[data-verdict="illegal"]').wait_for()
    marked = t.page.locator(".moves > li.bad")
    assert marked.count() == 1 and marked.get_attribute("data-move-index") == "4"
    assert expected.json()["detail"] in marked.inner_text()
    _ruled_on_the_phone(t)


# --- the budgets, measured (the figures go to docs/page-engine.md; -s prints them) --------------------------------

FIGURES = ROOT / "bench" / "results" / "page-engine.json"


def _renderer_rss_kb(token: str) -> int:
    """The renderers' private memory, in all (KB)."""
    return sum(_renderers_rss_kb(token).values())


def _renderers_rss_kb(token: str) -> dict[int, int]:
    """The private resident memory (RssAnon: no shared library counted) of the renderer processes (the tab, its
    workers, the service worker) of the Chromium launched with ``token``, in KB (the machine runs others)."""
    cmdlines: dict[int, bytes] = {}
    parents: dict[int, int] = {}
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            try:
                cmdlines[int(proc.name)] = (proc / "cmdline").read_bytes()
                parents[int(proc.name)] = int((proc / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
    ours = {pid for pid, line in cmdlines.items() if token.encode() in line and b"--type=" not in line}
    grew = True
    while grew:  # every descendant: the zygote, and the renderers it forks
        more = {pid for pid, parent in parents.items() if parent in ours} - ours
        ours |= more
        grew = bool(more)
    by_pid = {}
    for pid in ours:
        if b"--type=renderer" in cmdlines.get(pid, b""):
            with contextlib.suppress(OSError):
                status = (Path("/proc") / str(pid) / "status").read_text()
                found = re.search(r"RssAnon:\s+(\d+)", status)
                by_pid[pid] = int(found.group(1)) if found else 0
    return by_pid


def _settled_rss_kb(token: str) -> int:
    """The renderers' private memory once it stops falling (a closed page's processes and workers let go of
    theirs within a few seconds): read every half second until two readings are within 2 MB, at most 15 s."""
    import time

    last = _renderer_rss_kb(token)
    for _ in range(30):
        time.sleep(0.5)
        now = _renderer_rss_kb(token)
        if abs(now - last) < 2048:
            return now
        last = now
    return last


def test_the_budgets_measured(browser, server):  # noqa: F811
    """Issue 26's budgets, measured on this machine (a figure, not a timer that fails a slow run): the first
    load before the engine, the engine ready from the service worker's cache with the CPU slowed 4x, a
    ruling offline, and what the engine costs the tab."""
    _skip_without_pyodide()
    token = f"--gostop-measure={os.getpid()}"  # a browser of its own: its processes are the tab's
    measured = browser.browser_type.launch(executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, token])
    try:
        _measure(measured, server, token)
    finally:
        measured.close()


def _measure(browser, server: str, token: str) -> None:  # noqa: F811
    # the tab without the engine: the page drawn with no service worker (so nothing starts the engine)
    bare = browser.new_context(viewport=TALL_PHONE, locale="ko", service_workers="block")
    page = bare.new_page()
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready]")
    page.wait_for_load_state("networkidle")
    rss_without = _renderer_rss_kb(token)
    bare.close()

    context = browser.new_context(viewport=TALL_PHONE, locale="ko")
    page = context.new_page()
    loaded = []
    page.on("requestfinished", lambda r: loaded.append(r))
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready]")
    page.wait_for_load_state("networkidle")
    # the engine waits: once the page is drawn and the service worker has kept its files, the first visit starts
    # it (to keep its snapshot); its files are no part of the first load
    drawn_at = page.evaluate("performance.timeOrigin + performance.getEntriesByName('gostop-ready')[0].startTime")
    engine = [r for r in loaded if re.search(r"/table/(engine/|pyodide/|js/engine(-worker)?\.js)", r.url)]
    assert all(r.timing["startTime"] >= drawn_at for r in engine), "the engine waits for the page to be drawn"
    first = sum(r.sizes()["responseBodySize"] + r.sizes()["responseHeadersSize"] for r in loaded if r not in engine)
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=ENGINE_TIMEOUT_MS)
    _until(page, KEPT)
    # once its files are kept, the first visit starts the engine once, which keeps its memory (the snapshot)
    _until(page, SNAPSHOT_KEPT)
    page.close()
    _settled_rss_kb(token)  # that page's engine let go, so that the figure below is the second visit's alone
    before = _renderers_rss_kb(token)

    # the second visit: the page, then the engine, from the service worker's cache, the CPU slowed 4x
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready]")
    drawn_ms = page.evaluate("performance.getEntriesByName('gostop-ready')[0].startTime")
    info = page.evaluate("window.gostop.ready.then((info) => ({...info, at: performance.now()}))")
    assert info["phases"]["from_snapshot"] is True
    after = _renderers_rss_kb(token)
    rss_with = sum(after.values())
    # the process the engine's worker runs in (with the page's own): the one that grew most
    grown = max(after[pid] - before.get(pid, 0) for pid in after)

    # offline rulings, asked of window.gostop.answer (the CPU still slowed 4x, and then not)
    context.set_offline(True)
    log = json.loads(json.dumps(LIVE_LOG))
    settle = {
        "rules": "korean-2p",
        "players": [
            {
                "id": "A",
                "captured": ["jan-bright", "mar-bright", "aug-bright", "feb-animal", "apr-animal", "aug-animal"],
            },
            {"id": "B", "captured": ["nov-bright", "jan-junk-1"]},
        ],
        "winner": "A",
    }
    counts = {"brights": 0, "rain": False, "animals": 0, "ribbons": 0, "junk_units": 0, "cup": "none"}
    won = {"id": "A", "declared": {**counts, "points": 7, "brights": 3, "junk_units": 13}}
    hand = {"settle": {"players": [won, {"id": "B", "declared": {**counts, "junk_units": 10}}], "winner": "A"}}
    ledger = {"rules": "korean-2p", "people": ["A", "B"], "hands": [hand] * 10}
    asked = {
        "live turn": ("/v1/replay", log),
        "settle": ("/v1/settle", settle),
        "ledger of 10 hands": ("/v1/evening", ledger),
    }
    timing = """async ([path, body]) => {
        const t0 = performance.now();
        const said = await window.gostop.answer(path, body, "ko");
        return [said.status, performance.now() - t0];
    }"""
    ruled = {}
    for rate in (4, 1):
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
        for name, (path, body) in asked.items():
            times = []
            for _ in range(3):
                status, ms = page.evaluate(timing, [path, body])
                assert status == 200, (name, status)
                times.append(ms)
            ruled[f"{name}, CPU /{rate}"] = round(sorted(times)[1], 1)  # the median of three
    context.close()
    figures = {
        "first load before the engine (bytes)": first,
        "page drawn, second visit, CPU /4 (ms)": round(drawn_ms),
        "engine ready from the cache, CPU /4, from navigation (ms)": round(info["at"]),
        "engine ready from the cache, CPU /4, in its worker (ms)": info["ready_ms"],
        "of which Pyodide itself (ms)": info["pyodide_ms"],
        "engine WebAssembly memory (bytes)": info["wasm_memory_bytes"],
        "of which the engine's imports (ms)": info["imports_ms"],
        "renderers' private memory, the tab without the engine (KB)": rss_without,
        "renderers' private memory, the tab with the engine (KB)": rss_with,
        "the renderer that grew most, by (KB)": grown,
        "offline ruling, median of 3 (ms)": ruled,
    }
    FIGURES.parent.mkdir(parents=True, exist_ok=True)
    FIGURES.write_text(json.dumps(figures, indent=1, ensure_ascii=False), encoding="utf-8")
    print(json.dumps(figures, indent=1, ensure_ascii=False))
    assert first <= 200_000, f"{first} bytes before the engine"


# --- gostop page: the page on any static host -------------------------------------------------------------------


def test_gostop_page_rules_a_settle_from_a_static_host(browser, tmp_path):  # noqa: F811
    """`gostop page DIR` writes the page as static files; served by Python's http.server from a folder below
    the host's root (as a static host would), with no gostop service, it draws itself and rules a hand."""
    _skip_without_pyodide()
    import functools
    import http.server
    import threading

    from gostop.cli import main

    assert main(["page", str(tmp_path / "site")]) == 0

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

    host = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(tmp_path)))
    threading.Thread(target=host.serve_forever, daemon=True).start()
    context = browser.new_context(viewport=TALL_PHONE, locale="en")
    try:
        t = Table(context, f"http://127.0.0.1:{host.server_address[1]}/site/", "en")
        t.page.goto(t.base)
        t.page.wait_for_selector("body[data-ready]", timeout=ENGINE_TIMEOUT_MS)  # the catalogs: the engine's
        for card in ("jan-bright", "mar-bright", "aug-bright", "feb-animal", "apr-animal", "aug-animal"):
            t.click(f'#seat-panel [data-card="{card}"]')
        t.click("#seat-tab-1")
        t.click('#seat-panel [data-card="jan-junk-1"]')
        t.click('[data-key="winner-0"]')
        t.click('[data-key="submit"]')
        t.page.wait_for_selector(".ruling")
        # A: three brights (3) and godori (5); B holds no bright: x2 gwangbak (A scored no junk: no pibak)
        payment = t.page.locator('.payment[data-from="B"]')
        assert payment.get_attribute("data-points") == "16" and payment.get_attribute("data-amount") == "1600"
        assert t.page.locator("body").get_attribute("data-ruled-by") == "page"
        assert t.errors == [], f"console errors: {t.errors}"
    finally:
        context.close()
        host.shutdown()
        host.server_close()
