"""Screenshots of the browser table (issue 17): every game, desktop (1280x900) and phone (390x844),
mid-game and at the end, into docs/screenshots/.

    python scripts/screenshots.py [--out docs/screenshots] [--games columns,countred]
    python scripts/screenshots.py --tests [--out docs/screenshots]

``--tests`` refreshes instead the pictures the browser tests take (``columns.png``,
``lang-de-countred.png``, ...): it runs ``pytest -m browser`` with ``RULEBOX_SCREENSHOT_DIR`` set
to ``--out``. A plain test run keeps no picture, so it leaves the checkout as it was.

A real server on a fresh SQLite file and the system's Chromium (Playwright without its own
browser download). The games are played through the API with seeded random moves (hot-seat, so
one page sees every seat); the page opens on the first seat's link. The lobby is kept too.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path
from typing import Any

from rulebox.server.testing import ServerProcess

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]
GAMES = {"columns": 2, "countred": 2, "discs": 2, "columba": 2, "36to1": 1}
SIZES = {"desktop": (1280, 900), "phone": (390, 844)}
MID = 10  # plies played before the mid-game picture
MAX_PLIES = 600  # a game not over by then is resigned
ROOT = Path(__file__).resolve().parent.parent


def call(base: str, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
    """One JSON API call."""
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    req = urllib.request.Request(base + path, data=data, headers=headers, method=method)
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.load(r)


def play_random(base: str, gid: str, tokens: list[str], plies: int,
                rng: random.Random) -> dict[str, Any]:
    """Seeded random moves for whichever seat is to move, until ``plies`` or the end."""
    st = call(base, "GET", f"/api/games/{gid}", token=tokens[0])
    while not st["over"] and st["ply"] < plies:
        seat = st["to_move"]
        st = call(base, "GET", f"/api/games/{gid}", token=tokens[seat])
        if not st["legal"]:
            break
        st = call(base, "POST", f"/api/games/{gid}/moves",
                  {"move": rng.choice(st["legal"]), "version": st["version"]}, tokens[seat])
    return st


def shoot(browser: Any, url: str, path: Path, size: tuple[int, int],
          seats: dict[str, list[str | None]] | None = None) -> None:
    """Open ``url`` at ``size`` and keep the whole page as ``path`` (``seats``: game id ->
    tokens this browser holds, for the lobby's "Your games")."""
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = ctx.new_page()
    if seats:
        page.goto(url)
        for gid, tokens in seats.items():
            page.evaluate("([k, v]) => localStorage.setItem(k, v)",
                          [f"rulebox:{gid}", json.dumps(tokens)])
    page.goto(url)
    page.wait_for_selector(".board, .game-cards")
    page.wait_for_function("document.querySelector('#conn') === null || "
                           "document.querySelector('#conn.ok') !== null")
    page.wait_for_timeout(700)  # the last move's marks and animations settle
    page.mouse.move(0, 0)
    page.screenshot(path=str(path), full_page=True)
    ctx.close()


def main(argv: list[str] | None = None) -> int:
    """Make the screenshots; prints each file written."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default="docs/screenshots")
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--tests", action="store_true",
                        help="run the browser tests, keeping the pictures they take in --out")
    args = parser.parse_args(argv)
    if args.tests:
        env = dict(os.environ, RULEBOX_SCREENSHOT_DIR=str(Path(args.out).resolve()))
        return subprocess.call([sys.executable, "-m", "pytest", "-p", "no:cacheprovider",
                                "-m", "browser", "tests/web"], cwd=ROOT, env=env)
    from playwright.sync_api import sync_playwright

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    unlimited = ["--moves-per-second", "0", "--create-per-minute", "0"]
    with tempfile.TemporaryDirectory() as tmp, \
            ServerProcess(f"sqlite:///{Path(tmp) / 'shots.db'}", args=unlimited) as srv, \
            sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for size_name, size in SIZES.items():
            shoot(browser, srv.url + "/", out / f"lobby-{size_name}.png", size)
            print(out / f"lobby-{size_name}.png")
        held: dict[str, list[str | None]] = {}
        for game in args.games.split(","):
            rng = random.Random(args.seed)
            n = GAMES[game]
            g = call(srv.url, "POST", "/api/games", {"game": game, "seats": ["human"] * n,
                                                       "options": {"seed": str(args.seed)},
                                                       "hotseat": n > 1})
            tokens = [s["token"] for s in g["seats"]]
            url = f"{srv.url}/game/{g['id']}#t={','.join(tokens)}"
            play_random(srv.url, g["id"], tokens, MID, rng)
            held[g["id"]] = tokens
            for size_name, size in SIZES.items():
                path = out / f"{game}-mid-{size_name}.png"
                shoot(browser, url, path, size)
                print(path)
            st = play_random(srv.url, g["id"], tokens, MAX_PLIES, rng)
            if not st["over"]:
                seat = st["to_move"] or 0
                call(srv.url, "POST", f"/api/games/{g['id']}/resign", {}, tokens[seat])
            for size_name, size in SIZES.items():
                path = out / f"{game}-end-{size_name}.png"
                shoot(browser, url, path, size)
                print(path)
        # the lobby of a browser that sits at every game above (one of them still going)
        g = call(srv.url, "POST", "/api/games", {"game": "countred", "options": {},
                                                   "seats": ["human", "computer:easy"]})
        held[g["id"]] = [g["seats"][0]["token"], None]
        for size_name, size in SIZES.items():
            path = out / f"lobby-yours-{size_name}.png"
            shoot(browser, srv.url + "/", path, size, held)
            print(path)
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
