"""Screenshots of the browser table (issues 17 and 28): every game at four desktop sizes and two
phone sizes, in each phase a player meets, into docs/screenshots/.

    python scripts/screenshots.py [--out docs/screenshots] [--games columns,countred]
                                  [--sizes 1280x800,390x844]

Each picture is the window as the player sees it (the viewport, not the whole page): what is
in it is what needs no scrolling. Files: ``{game}-{phase}-{W}x{H}.png`` with the phases
``open`` (Discs: ply 0, the arrangement), ``mid`` (a turn of the player, its controls shown) and
``end`` (the end screen), and ``columba4-mid``/``columba4-end`` (four players, two teams);
``lobby-{W}x{H}.png``.

    python scripts/screenshots.py --tests [--out docs/screenshots]

``--tests`` refreshes instead the pictures the browser tests take (``columns.png``,
``lang-de-countred.png``, ...): it runs ``pytest -m browser`` with ``RULEBOX_SCREENSHOT_DIR`` set
to ``--out``. A plain test run keeps no picture, so it leaves the checkout as it was.

A real server on a fresh SQLite file and the system's Chromium (Playwright without its own
browser download). The games are played through the API with seeded random moves (hot-seat, so
one page sees every seat); the page opens on the seats' link.
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
# game id -> (file name, players, the plies before the mid-game picture, phases)
GAMES: dict[str, tuple[str, int, int, tuple[str, ...]]] = {
    "columns": ("columns", 2, 10, ("mid", "end")),
    "countred": ("countred", 2, 10, ("mid", "end")),
    "discs": ("discs", 2, 12, ("open", "mid", "end")),
    "columba": ("columba", 2, 10, ("mid", "end")),
    "columba4": ("columba4", 4, 14, ("mid", "end")),
    "36to1": ("36to1", 1, 10, ("mid", "end")),
}
SIZES = [(1280, 800), (1366, 768), (1440, 900), (1920, 1080), (390, 844), (360, 740)]
PHONES = {(390, 844), (360, 740)}
MAX_PLIES = 700  # a game not over by then is resigned
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


def shoot(page: Any, url: str, path: Path, size: tuple[int, int]) -> None:
    """Open ``url`` at ``size`` and keep the window (the viewport) as ``path``."""
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.goto("about:blank")
    page.goto(url)
    page.wait_for_selector(".board, .game-cards")
    page.wait_for_function("document.querySelector('#conn') === null || "
                           "document.querySelector('#conn.ok') !== null")
    page.wait_for_timeout(700)  # the last move's marks and animations settle
    page.mouse.move(0, 0)
    page.screenshot(path=str(path))


def main(argv: list[str] | None = None) -> int:
    """Make the screenshots; prints each file written."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default="docs/screenshots")
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--sizes", default=",".join(f"{w}x{h}" for w, h in SIZES))
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--tests", action="store_true",
                        help="run the browser tests, keeping the pictures they take in --out")
    args = parser.parse_args(argv)
    if args.tests:
        env = dict(os.environ, RULEBOX_SCREENSHOT_DIR=str(Path(args.out).resolve()))
        return subprocess.call([sys.executable, "-m", "pytest", "-p", "no:cacheprovider",
                                "-m", "browser", "tests/web"], cwd=ROOT, env=env)
    from playwright.sync_api import sync_playwright

    sizes = [tuple(int(x) for x in s.split("x")) for s in args.sizes.split(",")]
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    unlimited = ["--moves-per-second", "0", "--create-per-minute", "0"]
    with tempfile.TemporaryDirectory() as tmp, \
            ServerProcess(f"sqlite:///{Path(tmp) / 'shots.db'}", args=unlimited) as srv, \
            sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        pages = {}
        for size in sizes:
            ctx = browser.new_context(viewport={"width": size[0], "height": size[1]},
                                      has_touch=size in PHONES, is_mobile=size in PHONES)
            pages[size] = ctx.new_page()
            path = out / f"lobby-{size[0]}x{size[1]}.png"
            shoot(pages[size], srv.url + "/", path, size)
            print(path)
        for name in args.games.split(","):
            stem, n, mid, phases = GAMES[name]
            game = "columba" if name == "columba4" else name
            rng = random.Random(args.seed)
            options = {"seed": str(args.seed)}
            if game == "columba":
                options["players"] = str(n)
            g = call(srv.url, "POST", "/api/games", {"game": game, "seats": ["human"] * n,
                                                       "options": options, "hotseat": n > 1})
            tokens = [s["token"] for s in g["seats"]]
            url = f"{srv.url}/game/{g['id']}#t={','.join(tokens)}"
            for phase in phases:
                if phase == "mid":
                    play_random(srv.url, g["id"], tokens, mid, rng)
                elif phase == "end":
                    st = play_random(srv.url, g["id"], tokens, MAX_PLIES, rng)
                    if not st["over"]:
                        seat = st["to_move"] or 0
                        call(srv.url, "POST", f"/api/games/{g['id']}/resign", {}, tokens[seat])
                for size in sizes:
                    path = out / f"{stem}-{phase}-{size[0]}x{size[1]}.png"
                    shoot(pages[size], url, path, size)
                    print(path)
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
