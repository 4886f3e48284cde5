"""Latency of the browser table (issue 17), in a real Chromium against a real server:

- **click to redraw**: from the click that completes a move on the board to the move in the
  page's move log (the POST, the answer, the redraw of board and log), hot-seat Count Red;
- **move to the other board**: from that click on one player's page to the move in the other
  player's page (an online game in two browser contexts; the WebSocket push).

    python bench/bench_web_latency.py [--samples 40] [--seed 1]

Both times are taken in the pages (``performance.timeOrigin + performance.now()``, the same
machine's clock for both pages), so Playwright's own round trips are not counted. Prints p50,
p95 and the maximum in milliseconds.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import urllib.request
from pathlib import Path
from typing import Any

from rulebox.server.testing import ServerProcess


class Api:
    """The few JSON API calls the benchmark needs."""

    def __init__(self, base: str) -> None:
        self.base = base

    def call(self, method: str, path: str, body: Any = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=60) as r:
            return json.load(r)

    def create(self, game: str, seats: list[str], hotseat: bool = False, **options: str) -> Any:
        return self.call("POST", "/api/games", {"game": game, "seats": seats,
                                                 "options": options, "hotseat": hotseat})

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]

# in each page: the time of the last click, and the time each ply first shows in the move log
PROBE = """() => {
  const now = () => performance.timeOrigin + performance.now();
  window.__bench = { click: 0, seen: {} };
  document.addEventListener("click", () => { window.__bench.click = now(); }, true);
  new MutationObserver(() => {
    for (const li of document.querySelectorAll("#moves li[data-ply]")) {
      const p = li.dataset.ply;
      if (!(p in window.__bench.seen)) window.__bench.seen[p] = now();
    }
  }).observe(document.getElementById("app"), { childList: true, subtree: true });
}"""


def pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, round(q * (len(s) - 1)))]


def report(name: str, xs: list[float]) -> None:
    print(f"{name}: n={len(xs)} p50={statistics.median(xs):.1f} ms "
          f"p95={pct(xs, 0.95):.1f} ms max={max(xs):.1f} ms")


def click_move(page: Any, move: str) -> None:
    src, dst = move.split("-")
    page.click(f'[data-field="{src}"]')
    page.click(f'[data-field="{dst}"]')


def open_page(browser: Any, url: str) -> Any:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    page.set_default_timeout(30_000)
    page.goto(url)
    page.wait_for_selector(".countred-board")
    page.wait_for_selector("#conn.ok")
    page.evaluate(PROBE)
    return page


def redraw(browser: Any, api: Api, base: str, samples: int, rng: random.Random) -> list[float]:
    """Click to redraw on one hot-seat page (new games when one ends)."""
    out: list[float] = []
    while len(out) < samples:
        g = api.create("countred", ["human", "human"], hotseat=True,
                       seed=str(rng.randrange(10**6)))
        tokens = ",".join(s["token"] for s in g["seats"])
        page = open_page(browser, f"{base}/game/{g['id']}#t={tokens}")
        while len(out) < samples:
            st = page.evaluate("window.rulebox.state")
            moves = [m for m in st["legal"] if "-" in m]
            if st["over"] or not moves:
                break
            ply = st["ply"] + 1
            click_move(page, rng.choice(moves))
            page.wait_for_function(f"window.__bench.seen['{ply}'] !== undefined")
            page.wait_for_function(f"window.rulebox.state.ply === {ply} && (window.rulebox"
                                   ".state.over || window.rulebox.state.legal.length)")
            b = page.evaluate("window.__bench")
            out.append(b["seen"][str(ply)] - b["click"])
        page.context.close()
    return out


def push(browser: Any, api: Api, base: str, samples: int, rng: random.Random) -> list[float]:
    """From a click on one player's page to the move in the other's (online, two contexts)."""
    out: list[float] = []
    while len(out) < samples:
        g = api.call("POST", "/api/games", {"game": "countred", "seats": ["human", "human"],
                                             "options": {"seed": str(rng.randrange(10**6))}})
        t0, t1 = (s["token"] for s in g["seats"])
        pages = [open_page(browser, f"{base}/game/{g['id']}#t={t0}"),
                 open_page(browser, f"{base}/game/{g['id']}#t=,{t1}")]
        while len(out) < samples:
            st = pages[0].evaluate("window.rulebox.state")
            if st["over"]:
                break
            me = pages[st["to_move"]]
            other = pages[1 - st["to_move"]]
            me.wait_for_function("window.rulebox.state.legal.length > 0")
            st = me.evaluate("window.rulebox.state")
            moves = [m for m in st["legal"] if "-" in m]
            if not moves:
                break
            ply = st["ply"] + 1
            click_move(me, rng.choice(moves))
            other.wait_for_function(f"window.__bench.seen['{ply}'] !== undefined")
            clicked = me.evaluate("window.__bench.click")
            seen = other.evaluate(f"window.__bench.seen['{ply}']")
            out.append(seen - clicked)
            other.wait_for_function(f"window.rulebox.state.ply === {ply}")
        for p in pages:
            p.context.close()
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--samples", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    rng = random.Random(args.seed)
    unlimited = ["--moves-per-second", "0", "--create-per-minute", "0"]
    with tempfile.TemporaryDirectory() as tmp, \
            ServerProcess(f"sqlite:///{Path(tmp) / 'bench.db'}", args=unlimited) as srv, \
            sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        api = Api(srv.url)
        report("click to redraw (hot-seat Count Red)",
               redraw(browser, api, srv.url, args.samples, rng))
        report("move to the other player's board (online Count Red)",
               push(browser, api, srv.url, args.samples, rng))
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
