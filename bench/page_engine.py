"""Where the page's engine spends its start on a second visit (issue 26's budget: ready from the service
worker's cache in at most 3 s with the CPU slowed 4x), and what a first answer then takes.

Debian's Chromium (headless, through Playwright) opens the table page on the service under gunicorn once (the
service worker keeps the engine's files; the engine loads once, so that Chromium may keep its compiled
WebAssembly), then opens it again ``--visits`` times in the same browser context with the CPU slowed 4x (CDP
``Emulation.setCPUThrottlingRate``) and reads the engine worker's phases (``window.gostop.ready``'s ``phases``:
when each step ended, from the worker's start). Prints the median of each phase and the load average.
Usage: python bench/page_engine.py [--visits 5] [--rate 4]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics

from hostile import serving

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run"]
KEPT = "async () => (await (await caches.open('gostop-engine')).keys()).length >= 6"
FIRST = """async () => {
    const t0 = performance.now();
    await window.gostop.answer("/v1/score", {cards: ["jan-bright", "mar-bright", "aug-bright"]}, "ko");
    return performance.now() - t0;
}"""


def until(page, check: str) -> None:
    """Wait until the async function ``check`` resolves true in the page (wait_for_function does not await it)."""
    wait = "await new Promise((r) => setTimeout(r, 100))"
    page.evaluate(f"async () => {{ const check = {check}; while (!(await check())) {wait}; }}")


def visit(context, base: str, rate: float) -> dict[str, float]:
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
    page.goto(base + "/")
    page.wait_for_selector("body[data-ready]")
    info = page.evaluate(
        "window.gostop.ready.then((info) => ({...info, at: performance.now(), origin: performance.timeOrigin}))"
    )
    drawn = page.evaluate("performance.getEntriesByName('gostop-ready')[0].startTime")
    asked = page.evaluate("performance.getEntriesByName('gostop-engine-start')[0].startTime")
    first = page.evaluate(FIRST)
    page.close()
    worker_start = info["time_origin"] - info["origin"]  # the worker's start, from the page's navigation
    said = {"page drawn": drawn, "engine asked (engine.js loaded)": asked, "worker started": worker_start}
    info["phases"].pop("snapshot_bytes", None)
    if "snapshot_refused" in info["phases"]:
        print("snapshot refused:", info["phases"].pop("snapshot_refused"))
    said.update({name: worker_start + ms for name, ms in info["phases"].items() if name != "from_snapshot"})
    said["started from the snapshot (1: yes)"] = int(info["phases"]["from_snapshot"])
    said["ready (from navigation)"] = info["at"]
    said["ready (in the worker)"] = info["ready_ms"]
    said["pyodide (in the worker)"] = info["pyodide_ms"]
    said["imports"] = info["imports_ms"]
    said["first answer"] = first
    said["wasm memory (MiB)"] = (info["wasm_memory_bytes"] or 0) / 2**20
    return said


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--visits", type=int, default=5)
    parser.add_argument("--rate", type=float, default=4)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    runs: list[dict[str, float]] = []
    with serving("service.wsgi:app", 2, {"ACCESS_LOG_LEVEL": "WARNING"}) as base, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        context = browser.new_context(viewport={"width": 390, "height": 844}, locale="ko")
        page = context.new_page()
        page.goto(base + "/")
        page.wait_for_selector("body[data-ready]")
        page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=180_000)
        until(page, KEPT)
        kept = """async () => {
            const cache = await caches.open('gostop-engine-snapshot');
            const keys = await cache.keys();
            return keys.length === 1 && (await (await cache.match(keys[0])).arrayBuffer()).byteLength > 0;
        }"""
        until(page, kept)  # the first visit starts the engine once its files are kept: its snapshot
        page.close()
        for _ in range(args.visits):
            runs.append(visit(context, base, args.rate))
        browser.close()
    load = os.getloadavg()[0]
    print(f"second visits, CPU slowed {args.rate:g}x, {args.visits} visits, load average {load:.1f}:")
    print("  ms from the navigation (median, min, max)")
    for name in runs[0]:
        values = [r[name] for r in runs if name in r]
        print(f"  {name:<42} {statistics.median(values):8.0f} {min(values):8.0f} {max(values):8.0f}")
    print(json.dumps(runs[-1]["wasm memory (MiB)"]))


if __name__ == "__main__":
    main()
