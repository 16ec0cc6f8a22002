"""How fast the table page is ready on this machine, and how much its first load transfers.

Debian's Chromium (headless, through Playwright) opens / on the service under gunicorn, at a phone viewport,
in a fresh browser context each time (nothing cached), and reads the page's own "gostop-ready" performance
mark: the time from navigation to the page drawn with the catalog loaded and every control live.
Usage: python bench/page_load.py [--loads 10]
"""

from __future__ import annotations

import argparse
import statistics

from hostile import serving

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run"]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--loads", type=int, default=10)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    ready_ms: list[float] = []
    transferred: list[int] = []
    with serving("service.wsgi:app", 2, {"ACCESS_LOG_LEVEL": "WARNING"}) as base, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for _ in range(args.loads):
            context = browser.new_context(viewport={"width": 360, "height": 640}, locale="ko")
            page = context.new_page()
            done: list = []
            page.on("requestfinished", lambda r, done=done: done.append(r))
            page.goto(base + "/")
            page.wait_for_selector("body[data-ready]")
            page.wait_for_load_state("networkidle")
            ready_ms.append(page.evaluate("performance.getEntriesByName('gostop-ready')[0].startTime"))
            sizes = [r.sizes() for r in done]
            transferred.append(sum(s["responseBodySize"] + s["responseHeadersSize"] for s in sizes))
            context.close()
        browser.close()
    print(f"table page, {args.loads} cold loads at 360x640 (fresh context each)")
    print(f"ready: median {statistics.median(ready_ms):.0f} ms, max {max(ready_ms):.0f} ms")
    print(f"first load transfers {max(transferred) / 1024:.1f} KiB in {len(sizes)} requests")


if __name__ == "__main__":
    main()
