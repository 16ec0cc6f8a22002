"""The table page in a real browser: Debian's Chromium driven by Playwright, against a live gunicorn started
the way `make run` starts it, at a phone viewport, in Korean and in English.

Each of the four flows is walked end to end (settle a hand, follow a live game, keep an evening's ledger,
check a logged hand). Every test fails on a console error or a CSP violation, and the flows are scanned
with axe-core (vendored under tests/vendor, for the tests only) for serious or critical findings.

Without Chromium (or Playwright) the module skips and says why; with CI=true it fails instead.
`make screenshots` runs this module with GOSTOP_SCREENSHOTS set, and the PNGs for the README are saved.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections import Counter
from pathlib import Path

import pytest
import requests

from gostop.server import Server
from tests.conftest import ROOT, SPEC_DIR

pytestmark = pytest.mark.xdist_group("browser")

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"width": 360, "height": 640}
LANGS = ["ko", "en"]
NAMES = {"ko": ["갑", "을", "병"], "en": ["A", "B", "C"]}
AXE = ROOT / "tests" / "vendor" / "axe-core" / "axe.min.js"
LIVE_LOG = json.loads((ROOT / "tests" / "fixtures" / "live-2p.json").read_text(encoding="utf-8"))
SHOTS = os.environ.get("GOSTOP_SCREENSHOTS")


def _unavailable() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright for Python is not installed (make test installs the dev extras)"
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        return f"Chromium not found at {CHROMIUM}: apt-get install chromium (make test does it when run as root)"
    return None


def _skip_or_fail_without_a_browser() -> None:
    why = _unavailable()
    if why is None:
        return
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"browser tests cannot run in CI: {why}")
    pytest.skip(f"BROWSER TESTS SKIPPED: {why}")


@pytest.fixture(scope="module")
def server():
    """gunicorn with the project's config, as `make run` starts it, on a free loopback port."""
    _skip_or_fail_without_a_browser()
    with Server({"WORKERS": "2", "ACCESS_LOG_LEVEL": "WARNING"}) as running:
        yield f"http://127.0.0.1:{running.port}"


@pytest.fixture(scope="module")
def browser(server):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


# Collects CSP violations in the page itself (a console message is not guaranteed for every kind).
CSP_WATCH = """
window.__csp = [];
document.addEventListener('securitypolicyviolation', (e) => {
  window.__csp.push(e.violatedDirective + ' ' + e.blockedURI);
});
"""


class Table:
    """One browser tab on the page, with the helpers the flows share."""

    def __init__(self, context, base: str, lang: str):
        self.context = context
        self.base = base
        self.lang = lang
        self.names = NAMES[lang]
        self.page = context.new_page()
        self.errors: list[str] = []
        self.refusals_expected = False
        self.offline_expected = False
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def _console(self, message) -> None:
        if message.type != "error":
            return
        # Chromium logs every 4xx answer to fetch; a 422 is the API's word for an illegal move, so the
        # tests that enter one on purpose accept exactly that line and nothing else
        refusal = "status of 422" in message.text and "/v1/" in message.location.get("url", "")
        offline = "ERR_INTERNET_DISCONNECTED" in message.text or "ERR_FAILED" in message.text
        if not (refusal and self.refusals_expected) and not (offline and self.offline_expected):
            self.errors.append(message.text)

    def open(self, view: str = "settle") -> None:
        self.page.goto(f"{self.base}/#{view}")
        self.page.wait_for_selector("body[data-ready]")

    def reload(self) -> None:
        self.page.reload()
        self.page.wait_for_selector("body[data-ready]")

    def click(self, selector: str) -> None:
        self.page.locator(selector).click()

    def shot(self, name: str) -> None:
        if SHOTS:
            Path(SHOTS).mkdir(parents=True, exist_ok=True)
            self.page.screenshot(path=str(Path(SHOTS) / f"{name}-{self.lang}.png"), full_page=False)

    def csp_violations(self) -> list[str]:
        return self.page.evaluate("window.__csp || []")

    def axe(self) -> list[str]:
        """Serious and critical axe-core findings on the page as it is now."""
        self.page.evaluate(AXE.read_text(encoding="utf-8") + "\n;0")
        result = self.page.evaluate("async () => (await axe.run(document)).violations")
        return [
            f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:3]}"
            for v in result
            if v["impact"] in ("serious", "critical")
        ]


@pytest.fixture(params=LANGS)
def table(request, browser, server):
    lang = request.param
    # the browser's language only: the page must ask the service in its own language (Accept-Language)
    context = browser.new_context(viewport=PHONE, locale=lang, accept_downloads=True)
    context.add_init_script(CSP_WATCH)
    context.set_default_timeout(10_000)
    tab = Table(context, server, lang)
    yield tab
    try:
        assert tab.errors == [], f"console errors: {tab.errors}"
        assert tab.csp_violations() == [], "CSP violations"
    finally:
        context.close()


# --- flow 1: settle a hand -----------------------------------------------------------------------------


def _tap(t: Table, *cards: str) -> None:
    for card in cards:
        t.click(f'#seat-panel [data-card="{card}"]')


def _seat(t: Table, seat: int) -> None:
    t.click(f"#seat-tab-{seat}")


def _step(t: Table, key: str, times: int) -> None:
    for _ in range(times):
        t.click(f'[data-key="{key}-plus"]')


def _sent(t: Table, path: str, action) -> dict:
    with t.page.expect_request(lambda r: r.url.endswith(path) and r.method == "POST") as req:
        action()
    return req.value.post_data_json


def test_settle_a_2p_hand_with_pibak_and_gwangbak(table):
    t = table
    t.open("settle")
    a, b = t.names[:2]
    # A: three brights (3), godori (5), two double junk and eight plain junk by count: 12 units (3)
    _tap(t, "jan-bright", "mar-bright", "aug-bright", "feb-animal", "apr-animal", "aug-animal")
    _tap(t, "nov-double", "dec-double")
    _step(t, "junk-0", 8)
    # a card one player took is greyed for the other
    _seat(t, 1)
    taken = t.page.locator('#seat-panel [data-card="jan-bright"]')
    assert taken.is_disabled() and a in taken.locator(".sr").text_content()
    # B: no bright (gwangbak) and five junk (at most 7: pibak); entered by keyboard as well as by taps
    t.page.locator('#seat-panel [data-card="may-ribbon"]').focus()
    t.page.keyboard.press("Space")
    assert t.page.locator('#seat-panel [data-card="may-ribbon"]').get_attribute("aria-pressed") == "true"
    assert t.page.evaluate("document.activeElement.dataset.card") == "may-ribbon"
    _tap(t, "jun-animal")
    _step(t, "junk-1", 5)
    t.click('[data-key="winner-0"]')
    body = _sent(t, "/v1/settle", lambda: t.click('[data-key="submit"]'))
    t.page.wait_for_selector(".ruling")

    # the request holds distinct cards: the tapped ones and plain junk picked for the counts
    captured = [p["captured"] for p in body["players"]]
    assert len(captured[0]) == 16 and len(captured[1]) == 7
    assert len(set(captured[0]) | set(captured[1])) == 23
    # 3 + 5 + 3 = 11 points; B pays 11 x2 pibak x2 gwangbak = 44 points, 4400 at 100 a point
    payment = t.page.locator(f'.payment[data-from="{b}"]')
    assert payment.get_attribute("data-points") == "44" and payment.get_attribute("data-amount") == "4400"
    assert "4,400" in payment.inner_text()
    for rule in ("pibak", "gwangbak"):
        row = payment.locator(f'.check.applied[data-rule="{rule}"]')
        assert row.count() == 1 and "×2" in row.inner_text()
    words = {"ko": ("피박", "광박"), "en": ("pibak", "gwangbak")}[t.lang]
    assert all(w in payment.inner_text() for w in words)
    # the picture: an arrow from B to A with the amounts
    flow = t.page.locator(f'svg.picture .flow[data-from="{b}"]')
    assert "44" in flow.text_content() and "4,400" in flow.text_content()
    assert a in t.page.locator("svg.picture").get_attribute("aria-label")
    # the page shows what the service rules for the same request
    answer = requests.post(t.base + "/v1/settle", json=body, headers={"Accept-Language": t.lang}, timeout=5).json()
    assert [p["points"] for p in answer["payments"]] == [44]
    shown = t.page.locator(".explanation li").all_inner_texts()
    assert shown == answer["explanation"]
    payment.evaluate("e => e.scrollIntoView({block: 'start'})")  # the README shows the rules checked
    t.shot("settle")
    assert t.axe() == []


@pytest.mark.parametrize("table", ["ko"], indirect=True)
def test_settle_shows_every_rule_checked_with_its_reason(table):
    t = table
    t.open("settle")
    _tap(t, "jan-bright", "mar-bright", "aug-bright", "feb-animal", "apr-animal", "aug-animal")
    _seat(t, 1)
    _tap(t, "nov-bright")
    _step(t, "junk-1", 12)
    t.click('[data-key="winner-0"]')
    t.click('[data-key="submit"]')
    t.page.wait_for_selector(".ruling")
    payment = t.page.locator(".payment").first
    assert payment.locator('.check[data-source="checks"]').count() >= 4
    # B holds a bright and 12 junk: neither gwangbak nor pibak, each said with its reason
    for rule in ("pibak", "gwangbak"):
        row = payment.locator(f'.check.not-applied[data-rule="{rule}"]')
        assert row.count() == 1 and row.locator(".reason").inner_text().strip()


def test_settle_a_3p_hand_with_gobak(table):
    t = table
    t.open("settle")
    t.page.select_option('[data-key="players"]', "3")
    t.page.wait_for_selector("#seat-tab-2")
    assert t.page.locator('[data-key="preset"]').input_value() == "korean-3p"
    t.page.select_option('[data-key="gobak"]', "pays-all")  # 독박: the go-caller pays for everyone
    _, b, c = t.names
    _tap(t, "jan-ribbon", "feb-ribbon", "mar-ribbon", "jul-animal")  # hongdan: 3 points, target 3
    _seat(t, 1)
    _tap(t, "nov-junk-1", "dec-animal")
    _step(t, "go-1", 1)  # B called go and was overtaken
    # the players' tabs answer the arrow keys, as tabs do
    t.page.locator("#seat-tab-1").focus()
    t.page.keyboard.press("ArrowRight")
    assert t.page.locator("#seat-tab-2").get_attribute("aria-selected") == "true"
    assert t.page.evaluate("document.activeElement.id") == "seat-tab-2"
    _tap(t, "may-junk-1")
    t.click('[data-key="winner-0"]')
    t.click('[data-key="submit"]')
    t.page.wait_for_selector(".ruling")
    # base 3; B pays B's share and C's (gobak pays-all), C pays nothing
    pay_b = t.page.locator(f'.payment[data-from="{b}"]')
    pay_c = t.page.locator(f'.payment[data-from="{c}"]')
    assert pay_b.get_attribute("data-points") == "6" and pay_b.get_attribute("data-amount") == "600"
    assert pay_c.get_attribute("data-points") == "0"
    assert pay_b.locator('.check.applied[data-rule="gobak"]').count() == 1
    # pays-all multiplies nothing: B's row says it applies and C's that C pays nothing, never "x1" or "x0"
    verdict_b = pay_b.locator('.check[data-rule="gobak"] .verdict').inner_text()
    verdict_c = pay_c.locator('.check[data-rule="gobak"] .verdict').inner_text()
    assert "×" not in verdict_b + verdict_c
    assert verdict_c == {"ko": "내지 않음", "en": "pays nothing"}[t.lang]
    assert c in pay_b.locator(".covers").inner_text()
    assert t.page.locator(f'svg.picture .flow.zero[data-from="{c}"]').count() == 1
    assert ("고박" if t.lang == "ko" else "gobak") in pay_b.inner_text()
    t.shot("settle-3p")
    assert t.axe() == []


@pytest.mark.parametrize("table", ["ko"], indirect=True)
def test_settle_picture_fits_long_names(table):
    t = table
    t.open("settle")
    t.page.select_option('[data-key="players"]', "3")
    t.page.wait_for_selector("#seat-tab-2")
    long = "김수한무거북이와두루미삼천갑자"  # names may be up to 20 characters
    t.page.fill('[data-key="name-2"]', long)
    t.page.press('[data-key="name-2"]', "Tab")
    _tap(t, "jan-ribbon", "feb-ribbon", "mar-ribbon")
    t.click('[data-key="submit"]')
    t.page.wait_for_selector(".ruling")
    # every name under a circle stays inside the picture; the full name is in its label and in the rows
    boxes = t.page.eval_on_selector_all(
        "svg.picture .node-name", "els => els.map(e => { const b = e.getBBox(); return [b.x, b.x + b.width]; })"
    )
    width = float(t.page.locator("svg.picture").get_attribute("viewBox").split()[2])
    assert len(boxes) == 3 and all(left >= 0 and right <= width for left, right in boxes), boxes
    assert long in t.page.locator("svg.picture").get_attribute("aria-label")
    assert t.page.locator(f'.payment[data-from="{long}"]').count() == 1


@pytest.mark.parametrize("table", ["ko"], indirect=True)
def test_settle_while_the_service_is_unreachable(table):
    t = table
    t.offline_expected = True
    t.open("settle")
    _tap(t, "jan-bright", "mar-bright", "aug-bright", "feb-animal", "apr-animal", "aug-animal")
    t.context.set_offline(True)
    t.click('[data-key="submit"]')  # at the foot of the page
    # the person who tapped is told where they are looking, not at the top of a long page
    t.page.locator(".offline").wait_for()
    assert _in_sight(t, ".offline")
    t.context.set_offline(False)
    # back online, the ruling asked for comes by itself
    t.page.wait_for_selector(".ruling")
    assert t.page.locator(".offline").count() == 0


@pytest.mark.parametrize("table", ["ko"], indirect=True)
def test_a_reload_while_the_service_is_unreachable_opens_the_page_with_what_was_entered(table):
    """A phone loses the connection and the page is reloaded: the service worker's copy of the page opens, and
    nothing entered is lost (issue 10: "survive a reload ... and going offline")."""
    t = table
    t.offline_expected = True
    t.open("settle")
    t.page.evaluate("navigator.serviceWorker.ready")  # installed, with its copy of the page
    t.page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    entered = ("jan-bright", "mar-bright", "aug-bright", "feb-animal", "apr-animal", "aug-animal")
    _tap(t, *entered)
    t.context.set_offline(True)
    t.reload()  # from the kept copy: before, the browser's own error page
    for card in entered:
        assert t.page.locator(f'#seat-panel [data-card="{card}"]').get_attribute("aria-pressed") == "true"
    t.click('[data-key="submit"]')
    t.page.locator(".offline").wait_for()  # the page says the service cannot be reached
    t.context.set_offline(False)
    t.page.wait_for_selector(".ruling")


# --- flow 2: follow a live game ------------------------------------------------------------------------


def _named(move: dict, names: list[str]) -> dict:
    return {**move, "player": names[LIVE_LOG["players"].index(move["player"])]}


def _card(t: Table, card: str) -> None:
    t.click(f'.entry [data-card="{card}"]')


def _step_now(t: Table) -> str:
    return t.page.locator("#turn-prompt").get_attribute("data-step")


def _enter(t: Table, move: dict) -> None:
    """Enter one logged move the way a person at the table would."""
    if "call" in move:
        t.click(f'[data-key="call-{move["call"]}"]')
    else:
        if "bonus" in move:
            _card(t, move["bonus"])
        if "shake" in move:
            t.click('[data-key="shake"]')
            for card in move["shake"]:
                _card(t, card)
            assert _step_now(t) == "shake_play"
        if "play" in move:
            _card(t, move["play"])
            # a capture choice is asked exactly when the rules need one
            assert (_step_now(t) == "capture") == ("capture" in move), move
            if "capture" in move:
                t.click(f'[data-choice="{move["capture"]}"]')
        for card in move.get("bonus_flipped", []):
            _card(t, card)
        if "draw" in move:
            assert _step_now(t) == "draw"
            with t.page.expect_response(lambda r: r.url.endswith("/v1/replay")):
                _card(t, move["draw"])
                if "draw_capture" in move:
                    assert _step_now(t) == "draw_capture"
                    t.click(f'[data-choice="{move["draw_capture"]}"]')
            return


def _moves_shown(t: Table) -> int:
    return t.page.locator(".moves > li").count()


def test_follow_a_live_game(table):
    t = table
    t.refusals_expected = True  # one mistake is entered on purpose
    names = t.names[:2]
    _start_live(t)
    t.shot("live-start")
    moves = [_named(m, names) for m in LIVE_LOG["moves"]]
    for i, move in enumerate(moves):
        if i == 3:
            # a mistake first: a shake of a month that lies on the layout is refused, in words, at this move
            t.click('[data-key="shake"]')
            for card in ("jul-animal", "jul-ribbon", "jul-junk-1"):
                _card(t, card)
            _card(t, "jul-animal")
            _card(t, move["draw"])
            refused = t.page.locator(".refused")
            refused.wait_for()
            assert refused.get_attribute("data-move-index") == "3" and refused.get_attribute("data-code")
            assert _moves_shown(t) == 3
        if i == 5:
            # undo the last entry, then enter it again
            t.click('[data-key="undo"]')
            _wait_moves(t, 4)
            _enter(t, moves[4])
        if i == 8:
            # what the last turn caused is said above the prompt, where the person entering is looking
            ppuk = t.page.locator('.turn-head .just [data-type="ppuk"]').inner_text()
            assert ppuk == {"ko": "뻑", "en": "ppuk"}[t.lang]
        if i == 9:
            # a reload in the middle loses nothing
            before = t.page.locator(".scoreboard").inner_text()
            t.reload()
            assert _moves_shown(t) == 9 and t.page.locator(".scoreboard").inner_text() == before
        if move.get("call") == "stop":
            # at the decision: what a stop pays now, the same as the final ruling below
            stop_now = t.page.locator(".if-stop-payment")
            assert stop_now.get_attribute("data-points") == "32" and stop_now.get_attribute("data-amount") == "3200"
            t.page.evaluate("document.querySelector('.entry').scrollIntoView({block: 'end'})")
            t.shot("live-call")
        if move.get("call") == "go":
            assert t.page.locator(".if-go").get_attribute("data-go-count") == "1"
        _enter(t, move)
        _wait_moves(t, i + 1)
    t.page.wait_for_selector(".finished .ruling")
    assert t.page.locator(".moves > li").count() == len(moves) >= 15 + 2

    # the page's log, saved as a file, is the game as it was played
    with t.page.expect_download() as download:
        t.click('[data-key="export"]')
    log = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert log["moves"] == moves and log["deal"] == LIVE_LOG["deal"] and log["players"] == names
    # ... and the page showed what /v1/replay answers for that log
    answer = requests.post(t.base + "/v1/replay", json=log, headers={"Accept-Language": t.lang}, timeout=5).json()
    for player in answer["players"]:
        shown = t.page.locator(f'.player[data-player="{player["id"]}"]')
        assert shown.get_attribute("data-score") == str(player["score"]["total"])
        every_chip = [c.get_attribute("data-chip") for c in shown.locator("[data-chip]").all()]
        known_hand = [c.get_attribute("data-chip") for c in shown.locator(".known-hand [data-chip]").all()]
        assert sorted(known_hand) == sorted(player["hand"])  # the shaken cards B still holds
        assert sorted((Counter(every_chip) - Counter(known_hand)).elements()) == sorted(player["captured"])
    shown_events = [e.get_attribute("data-type") for e in t.page.locator(".events > li").all()]
    assert shown_events == [e["type"] for e in reversed(answer["events"])]
    assert {"ppuk", "steal", "go", "stop", "shake", "chok"} <= set(shown_events)
    ppuk = {"ko": "뻑", "en": "ppuk"}[t.lang]
    assert t.page.locator('.events > li[data-type="ppuk"] .event-type').inner_text() == ppuk
    paid = answer["settlement"]["payments"][0]
    shown_payment = t.page.locator(f'.ruling .payment[data-from="{paid["from"]}"]')
    assert shown_payment.get_attribute("data-points") == str(paid["points"]) == "32"
    t.shot("live-end")
    assert t.axe() == []


@pytest.mark.parametrize("table", ["ko"], indirect=True)
def test_live_decision_comes_from_the_service(table):
    t = table
    _play_until(t, lambda m: m.get("call") == "go")
    assert t.page.locator(".if-stop").get_attribute("data-source") == "if_stop"
    assert "gobak" in t.page.locator(".if-go").inner_text() or "고박" in t.page.locator(".if-go").inner_text()


@pytest.mark.parametrize("table", ["ko"], indirect=True)
def test_live_shows_known_cards_of_a_hidden_hand(table):
    t = table
    _play_until(t, lambda m: m is LIVE_LOG["moves"][4])  # after B's shake (move 3)
    b = t.names[1]
    shown = t.page.locator(f'.player[data-player="{b}"] .known-hand')
    assert shown.count() == 1
    known = shown.get_attribute("data-known-hand").split()
    assert sorted(known) == ["sep-junk-1", "sep-ribbon"]  # shown by the shake, not yet played


def _start_live(t: Table, layout=None) -> None:
    """Open the live tab, tap the layout cards of the deal, start the hand and wait for the first turn."""
    t.open("live")
    for card in LIVE_LOG["deal"]["layout"] if layout is None else layout:
        t.click(f'[data-card="{card}"]')
    t.click('[data-key="live-start"]')  # at the foot of a long grid of cards
    t.page.wait_for_selector("#turn-prompt")


def _wait_moves(t: Table, n: int) -> None:
    """Wait until the page lists ``n`` entered moves."""
    t.page.wait_for_function(f"() => document.querySelectorAll('.moves > li').length === {n}")


def _play_until(t: Table, stop) -> None:
    names = t.names[:2]
    _start_live(t)
    for i, move in enumerate(LIVE_LOG["moves"]):
        if stop(move):
            return
        _enter(t, _named(move, names))
        _wait_moves(t, i + 1)


@pytest.mark.parametrize("table", ["ko"], indirect=True)
def test_live_game_keeps_what_was_entered_while_the_service_is_unreachable(table):
    t = table
    t.offline_expected = True  # Chromium logs the fetches that cannot go out
    _play_until(t, lambda m: m is LIVE_LOG["moves"][2])
    # the service cannot be reached: the page says so, keeps the move, and checks it on "try again"
    t.page.route("**/v1/replay", lambda route: route.abort())
    move = _named(LIVE_LOG["moves"][2], t.names)
    _card(t, move["play"])
    _card(t, move["draw"])
    t.page.locator(".offline").wait_for()
    assert t.page.locator(".moves > li.pending").count() == 1
    t.reload()  # nothing is lost by a reload either; the page tries the service again at once
    t.page.locator(".offline").wait_for()
    assert t.page.locator(".moves > li.pending").count() == 1
    t.page.unroute("**/v1/replay")
    t.click('[data-key="retry"]')
    t.page.wait_for_function("() => !document.querySelector('.offline') && !document.querySelector('.pending')")
    assert _moves_shown(t) == 3
    # the phone loses its connection: the entry waits, and is checked when the connection is back
    t.context.set_offline(True)
    move = _named(LIVE_LOG["moves"][3], t.names)
    t.click('[data-key="shake"]')
    for card in move["shake"]:
        _card(t, card)
    _card(t, move["play"])
    _card(t, move["draw"])
    t.page.locator(".offline").wait_for()
    t.context.set_offline(False)
    t.page.wait_for_function("() => !document.querySelector('.offline') && !document.querySelector('.pending')")
    assert _moves_shown(t) == 4


def _in_sight(t: Table, selector: str) -> bool:
    """The element is inside the viewport and not under the sticky header (or in it)."""
    return t.page.evaluate(
        """(selector) => {
            const el = document.querySelector(selector);
            const r = el.getBoundingClientRect();
            const top = el.closest('.top') ? 0 : document.querySelector('.top').getBoundingClientRect().bottom;
            return r.height > 0 && r.top >= top - 1 && r.bottom <= innerHeight + 1;
        }""",
        selector,
    )


@pytest.mark.parametrize("table", ["ko"], indirect=True)
def test_live_keeps_the_turn_in_sight_on_a_phone(table):
    t = table
    names = t.names[:2]
    _start_live(t)
    assert _in_sight(t, "#turn-prompt")
    for i, move in enumerate(LIVE_LOG["moves"]):
        if move.get("call"):
            # the decision replaces the grid: the page shrinks under the finger, and go and stop must be in sight
            assert _in_sight(t, '[data-key="call-go"]') and _in_sight(t, ".if-stop")
            break
        if i == 10:
            # a card low in the grid: what to tap next is still said where the person is looking
            _card(t, _named(move, names)["play"])
            assert _step_now(t) == "draw" and _in_sight(t, "#turn-prompt")
            _card(t, move["draw"])
        else:
            _enter(t, _named(move, names))
        _wait_moves(t, i + 1)
    else:
        pytest.fail("the log has no call")


@pytest.mark.parametrize("table", ["ko"], indirect=True)
def test_live_double_tap_on_the_flipped_card_enters_one_turn(table):
    t = table
    names = t.names[:2]
    _start_live(t)
    move = _named(LIVE_LOG["moves"][0], names)
    _card(t, move["play"])
    t.click(f'[data-choice="{move["capture"]}"]')
    _card(t, move["bonus_flipped"][0])
    with t.page.expect_response(lambda r: r.url.endswith("/v1/replay")):
        t.page.locator(f'.entry [data-card="{move["draw"]}"]').dblclick()
    _wait_moves(t, 1)
    t.page.wait_for_timeout(300)  # a second replay, had the second tap made one, would be in by now
    # the second tap is not B's played card: B's turn starts afresh
    assert _step_now(t) == "play" and names[1] in t.page.locator("#turn-prompt").inner_text()
    assert t.page.evaluate("JSON.parse(localStorage.getItem('gostop.live')).draft") == {}


@pytest.mark.parametrize("table", ["ko"], indirect=True)
def test_live_flip_only_turn_after_a_bomb(table):
    """RULES.md 5: a bomb leaves flip turns, used at any later turn (bomb_flip_timing any) instead of a card."""
    t = table
    a, b = t.names[:2]
    _start_live(t, ["jan-bright", *(f"{m}-junk-1" for m in ("feb", "mar", "apr", "may", "jun", "jul", "aug"))])
    assert t.page.locator('[data-key="flip-only"]').count() == 0  # no bomb yet
    t.click('[data-key="bomb"]')
    for card in ("jan-ribbon", "jan-junk-1", "jan-junk-2"):
        _card(t, card)
    with t.page.expect_response(lambda r: r.url.endswith("/v1/replay")):
        _card(t, "sep-junk-1")
    _wait_moves(t, 1)
    _card(t, "oct-junk-1")
    with t.page.expect_response(lambda r: r.url.endswith("/v1/replay")):
        _card(t, "oct-junk-2")
    _wait_moves(t, 2)
    # A still holds hand cards and may use a flip turn instead
    t.click('[data-key="flip-only"]')
    assert _step_now(t) == "draw"
    body = _sent(t, "/v1/replay", lambda: _card(t, "nov-junk-1"))
    assert body["moves"][-1] == {"player": a, "flip": True, "draw": "nov-junk-1"}
    _wait_moves(t, 3)
    assert b in t.page.locator("#turn-prompt").inner_text()


@pytest.mark.parametrize("table", ["ko"], indirect=True)
def test_live_shake_after_a_bonus_card_from_hand(table):
    """RULES.md 5: under bonus_from_hand replace, the hand card played after a bonus card may be shaken."""
    t = table
    a, b = t.names[:2]
    layout = ["jan-bright", "may-junk-1", "feb-junk-2", "mar-junk-2", "sep-ribbon", "jul-animal", "sep-junk-2"]
    moves = [
        {"player": a, "play": "feb-ribbon", "draw": "feb-junk-1"},
        {"player": b, "play": "oct-ribbon", "draw": "nov-bright"},
        {"player": a, "play": "jul-ribbon", "draw": "feb-animal"},
        {"player": b, "bonus": "bonus-3", "shake": ["jun-animal", "jun-ribbon", "jun-junk-1"], "play": "jun-animal"},
    ]
    _start_live(t, [*layout, "may-junk-2"])
    for i, move in enumerate(moves[:3]):
        _enter(t, move)
        _wait_moves(t, i + 1)
    _enter(t, moves[3])
    body = _sent(t, "/v1/replay", lambda: _card(t, "jan-ribbon"))
    assert body["moves"][-1] == {**moves[3], "draw": "jan-ribbon"}
    _wait_moves(t, 4)


@pytest.mark.parametrize("table", ["ko"], indirect=True)
def test_live_chongtong_at_the_deal(table):
    """RULES.md 4: a player dealt four cards of one month shows them and wins at once (chongtong_points)."""
    t = table
    a, b = t.names[:2]
    t.open("live")
    layout = ["jan-bright", "feb-junk-1", "mar-ribbon", "apr-junk-1", "may-animal", "jun-junk-1", "aug-junk-2"]
    for card in [*layout, "oct-ribbon"]:
        t.click(f'[data-card="{card}"]')
    t.page.select_option('[data-key="chongtong-seat"]', "1")
    t.page.select_option('[data-key="chongtong-month"]', "11")
    body = _sent(t, "/v1/replay", lambda: t.click('[data-key="live-start"]'))
    assert body["deal"]["shown"] == {b: ["nov-bright", "nov-double", "nov-junk-1", "nov-junk-2"]}
    ruling = t.page.locator('.finished .ruling[data-outcome="chongtong"]')
    ruling.wait_for()
    # korean-2p pays 10 points for a chongtong, at the stake of 100
    payment = ruling.locator(f'.payment[data-from="{a}"]')
    assert payment.get_attribute("data-points") == "10" and payment.get_attribute("data-amount") == "1000"
    assert "총통" in ruling.locator("h2").inner_text()
    t.click('[data-key="live-ledger"]')
    t.open("ledger")
    assert t.page.locator(f'[data-total="{b}"]').inner_text() == "+1,000"


@pytest.mark.parametrize("table", ["ko"], indirect=True)
def test_live_game_by_keyboard_keeps_the_focus_in_the_turn(table):
    t = table
    t.open("live")
    for card in LIVE_LOG["deal"]["layout"]:
        t.page.locator(f'[data-card="{card}"]').focus()
        t.page.keyboard.press("Enter")
    t.page.locator('[data-key="live-start"]').focus()
    t.page.keyboard.press("Enter")
    t.page.wait_for_selector("#turn-prompt")
    # the card played is out of play at once: the focus goes to the prompt, not back to the top of the page
    t.page.locator('.entry [data-card="jun-ribbon"]').focus()
    t.page.keyboard.press("Enter")
    assert t.page.evaluate("document.activeElement.id") == "turn-prompt"
    t.page.keyboard.press("Tab")
    assert t.page.evaluate("!!document.activeElement.closest('.entry')")
    while t.page.evaluate("!document.activeElement.dataset.choice"):
        t.page.keyboard.press("Tab")
    assert t.page.evaluate("document.activeElement.dataset.choice") in ("jun-animal", "jun-junk-2")


@pytest.mark.parametrize("table", ["ko"], indirect=True)
def test_live_game_after_a_nagari_in_the_ledger_counts_double(table):
    """RULES.md 8, 9: the nagari carry of the ledger reaches a live game of the same players."""
    t = table
    t.open("ledger")
    nagari = {"outcome": "nagari", "winner": None, "score": None, "base_points": 0, "payments": [], "instant": []}
    ledger = {"players": t.names[:2], "preset": "korean-2p", "stake": 100, "hands": [nagari]}
    t.page.evaluate("(l) => localStorage.setItem('gostop.ledger', JSON.stringify(l))", ledger)
    t.reload()
    assert t.page.locator(".ledger-table tbody tr").count() == 1
    _play_until(t, lambda m: m.get("call") == "go")
    # 7 points x2 for B's shake = 14 without the carry (test_follow_a_live_game's log), x2 after a nagari
    stop_now = t.page.locator(".if-stop-payment")
    assert stop_now.get_attribute("data-points") == "28" and stop_now.get_attribute("data-amount") == "2800"


# --- flow 3: an evening's ledger -----------------------------------------------------------------------


def test_ledger_of_three_hands_with_a_nagari(table):
    t = table
    a, b = t.names[:2]
    t.open("settle")
    # hand 1: A stops with 3 brights and godori (8); B holds a bright and 10 junk: 8 points, 800
    _tap(t, "jan-bright", "mar-bright", "aug-bright", "feb-animal", "apr-animal", "aug-animal")
    _seat(t, 1)
    _tap(t, "nov-bright")
    _step(t, "junk-1", 10)
    t.click('[data-key="winner-0"]')
    t.click('[data-key="submit"]')
    t.click('[data-key="add-ledger"]')
    t.page.locator(".added").wait_for()
    # hand 2: nagari, entered in the ledger
    t.open("ledger")
    t.click('[data-key="ledger-nagari"]')
    assert t.page.locator(".carry").get_attribute("data-carry") == "1"
    # hand 3: settled from the ledger; the nagari carry is there by itself
    t.click('[data-key="ledger-settle"]')
    t.page.wait_for_selector('[data-view="settle"]')
    assert t.page.locator(".carry").count() == 1
    _tap(t, "jan-junk-1")
    _step(t, "junk-0", 10)
    _seat(t, 1)
    _tap(t, "feb-animal", "apr-animal", "aug-animal", "jan-ribbon", "feb-ribbon", "mar-ribbon")  # 5 + 3 = 8
    t.click('[data-key="winner-1"]')
    body = _sent(t, "/v1/settle", lambda: t.click('[data-key="submit"]'))
    assert body["nagari_streak"] == 1
    pay = t.page.locator(f'.payment[data-from="{a}"]')
    assert pay.get_attribute("data-points") == "16" and pay.locator('.check.applied[data-rule="nagari"]').count() == 1
    t.click('[data-key="add-ledger"]')
    t.open("ledger")
    rows = t.page.locator(".ledger-table tbody tr")
    assert [r.get_attribute("data-outcome") for r in rows.all()] == ["stop", "nagari", "stop"]
    # why hand 3 costs 1,600 for 8 points: the row says what doubled it
    carried = {"ko": "나가리 ×2", "en": "nagari carry ×2"}[t.lang]
    assert rows.nth(2).locator(".multipliers").inner_text() == carried
    assert rows.nth(0).locator(".multipliers").count() == 0
    assert t.page.locator(f'[data-total="{a}"]').inner_text() == "−800"
    assert t.page.locator(f'[data-total="{b}"]').inner_text() == "+800"
    transfer = t.page.locator(".transfers li")
    assert transfer.count() == 1
    assert (transfer.get_attribute("data-from"), transfer.get_attribute("data-to")) == (a, b)
    assert transfer.get_attribute("data-amount") == "800"
    # a reload (or a closed tab) keeps the evening
    t.reload()
    assert t.page.locator(".ledger-table tbody tr").count() == 3
    t.shot("ledger")
    assert t.axe() == []


# --- flow 4: check a logged hand -----------------------------------------------------------------------


def test_check_a_log_with_an_illegal_move(table, tmp_path):
    t = table
    t.refusals_expected = True
    bad = json.loads(json.dumps(LIVE_LOG))
    bad["moves"][4]["play"] = "nov-double"  # dealt face up at the start: already seen
    expected = requests.post(t.base + "/v1/replay", json=bad, headers={"Accept-Language": t.lang}, timeout=5)
    assert expected.status_code == 422
    t.open("check")
    t.page.fill("#log-text", json.dumps(bad))
    t.click('[data-key="check-run"]')
    verdict = t.page.locator('.verdict[data-verdict="illegal"]')
    verdict.wait_for()
    assert verdict.get_attribute("data-move-index") == "4"
    marked = t.page.locator(".moves > li.bad")
    assert marked.count() == 1 and marked.get_attribute("data-move-index") == "4"
    assert expected.json()["detail"] in marked.inner_text()
    t.shot("check")
    assert t.axe() == []
    # a legal log opened from a file: the verdict and the settlement
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(LIVE_LOG), encoding="utf-8")
    t.page.set_input_files('[data-key="log-file"]', str(path))
    t.page.locator('.verdict[data-verdict="finished"]').wait_for()
    assert t.page.locator('.ruling .payment[data-from="B"]').get_attribute("data-points") == "32"
    # not JSON at all
    t.page.fill("#log-text", "{not json")
    t.click('[data-key="check-run"]')
    t.page.locator('.verdict[data-verdict="not-json"]').wait_for()


@pytest.mark.parametrize("table", ["ko"], indirect=True)
def test_check_explains_a_log_it_cannot_read(table):
    t = table
    t.refusals_expected = True
    t.open("check")
    # the check page is not drawn like a rule's row of a ruling (the two once shared a class name)
    assert t.page.locator("main > section").evaluate("e => getComputedStyle(e).borderLeftStyle") == "none"
    # the service's answer says "the list shows each bad field": the page shows that list
    t.page.fill("#log-text", json.dumps({"rules": "korean-2p"}))
    t.click('[data-key="check-run"]')
    missing = t.page.locator(".problem .field-errors li")
    missing.first.wait_for()
    assert {li.get_attribute("data-field") for li in missing.all()} >= {"players", "deal"}
    # JSON that is not a log at all is told in words, without asking the service
    t.page.fill("#log-text", "null")
    t.click('[data-key="check-run"]')
    assert re.search("[가-힣]", t.page.locator('.verdict[data-verdict="not-a-log"]').inner_text())


@pytest.mark.parametrize("table", ["ko"], indirect=True)
def test_sentences_come_in_korean(table):
    t = table
    t.refusals_expected = True
    bad = json.loads(json.dumps(LIVE_LOG))
    bad["moves"][4]["play"] = "nov-double"
    t.open("check")
    t.page.fill("#log-text", json.dumps(bad))
    t.click('[data-key="check-run"]')
    reason = t.page.locator(".verdict .reason")
    reason.wait_for()
    assert re.search("[가-힣]", reason.inner_text())


@pytest.mark.parametrize("table", ["ko"], indirect=True)
def test_switching_language_asks_again_for_what_is_on_the_page(table):
    t = table
    t.open("settle")
    _tap(t, "jan-bright", "mar-bright", "aug-bright", "feb-animal", "apr-animal", "aug-animal")
    _seat(t, 1)
    _tap(t, "nov-bright")
    body = _sent(t, "/v1/settle", lambda: t.click('[data-key="submit"]'))
    t.page.wait_for_selector(".ruling")

    def ask(lang: str) -> list[str]:
        answer = requests.post(t.base + "/v1/settle", json=body, headers={"Accept-Language": lang}, timeout=5)
        return answer.json()["explanation"]

    assert t.page.locator(".explanation li").all_inner_texts() == ask("ko")
    t.click('[data-key="lang"]')
    # the ruling is not left half Korean on an English page
    t.page.wait_for_function(
        "(first) => document.querySelector('.explanation li')?.textContent === first", arg=ask("en")[0]
    )
    assert t.page.locator(".explanation li").all_inner_texts() == ask("en")


# --- the page as a whole -------------------------------------------------------------------------------


def test_first_load_is_small(browser, server):
    context = browser.new_context(viewport=PHONE, locale="ko")
    page = context.new_page()
    loaded = []
    page.on("requestfinished", lambda r: loaded.append(r))
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready]")
    page.wait_for_load_state("networkidle")
    sizes = [r.sizes() for r in loaded]
    total = sum(s["responseBodySize"] + s["responseHeadersSize"] for s in sizes)
    origins = {re.match(r"https?://[^/]+", r.url).group(0) for r in loaded}
    context.close()
    assert origins == {server}, "everything comes from this service"
    assert total <= 200_000, f"{total} bytes transferred"


def test_page_words_agree_with_the_catalogs(browser, server, rules_md):
    glossary = (SPEC_DIR / "GLOSSARY.md").read_text(encoding="utf-8")
    context = browser.new_context(viewport=PHONE, locale="ko")
    page = context.new_page()
    page.goto(server + "/#settle")
    page.wait_for_selector("body[data-ready]")
    words = page.evaluate("async () => (await import('/table/js/words.js')).WORDS")
    # every card's accessible name is the catalog's name for it
    cards = {c["id"]: c["names"]["ko"] for c in requests.get(server + "/v1/cards", timeout=5).json()["cards"]}
    labels = page.eval_on_selector_all(
        "#seat-panel [data-card]", "els => els.map(e => [e.dataset.card, e.querySelector('.sr').textContent])"
    )
    context.close()
    assert labels and all(label.startswith(cards[card]) for card, label in labels)
    # the Korean words for rules and events are GLOSSARY.md's
    table = dict(re.findall(r"^\| ([a-z][a-z -]*?) \| ([^|]+?) \|", glossary, re.M))
    korean = {ours: said.split(" (")[0].split(",")[0].strip() for ours, said in table.items()}
    checked = 0
    for group in ("rule", "event"):
        for key, word in words["ko"][group].items():
            ours = key if key in korean else key.replace("-", " ")
            if ours in korean:
                assert word == korean[ours], (key, word, korean[ours])
                checked += 1
    assert checked >= 10
    months = re.search(r"Months as players name them: (.+?)\.", glossary, re.S).group(1)
    named = [re.sub(r"\s*\(.*?\)", "", m).split(" ", 1)[1].strip() for m in months.replace("\n", " ").split(", ")]
    assert words["ko"]["months"][1:] == named
    assert set(words["ko"]) == set(words["en"]), "both languages have every word"
    # and the rules the page names are named as the API's own catalogs name them in its answers
    from service import sentences
    from service.i18n import LANGUAGES

    for lang in ("ko", "en"):
        for rule in ("shake", "bomb", "meongtta", "pibak", "gwangbak", "gobak"):
            assert words[lang]["rule"][rule] == sentences.rule(LANGUAGES[lang], rule), (lang, rule)


def test_page_is_served_under_a_strict_csp(server):
    resp = requests.get(server + "/", timeout=5)
    csp = resp.headers["Content-Security-Policy"]
    assert resp.status_code == 200 and "text/html" in resp.headers["Content-Type"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp and "unsafe-eval" not in csp
    script = requests.get(server + "/table/js/main.js", timeout=5)
    assert script.headers["Content-Type"].startswith("text/javascript")
    assert requests.get(server + "/table/nothing.js", timeout=5).status_code == 404
