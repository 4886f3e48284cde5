"""Everything a player needs is in view (issue 28): in every game and phase, at four desktop
sizes and two phone sizes, the board and every enabled control of the turn (the board's
controls, the end screen's buttons) lie inside the window as the page opens, without scrolling,
and nothing scrolls sideways.

The positions are set up through the API (hot-seat games, seeded moves); one browser, one page
per size group, the viewport resized and the game page opened again for each size.
Skipped without ``/usr/bin/chromium`` (see ``conftest``)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from rulebox.server.testing import ServerProcess
from tests.web.web_helpers import Api

DESKTOP = [(1280, 800), (1366, 768), (1440, 900), (1920, 1080)]
PHONE = [(390, 844), (360, 740)]

# the board and every control a player may use now, in CSS px of the window
MEASURE = """() => {
  const vw = document.documentElement.clientWidth;
  const vh = window.innerHeight;
  const shown = (e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
  const box = (e) => {
    const r = e.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom].map(Math.round);
  };
  const name = (e) => e.id || e.dataset.move || e.dataset.tool || e.dataset.card
    || e.dataset.discard || e.dataset.turn || e.textContent.trim().slice(0, 30);
  const board = document.querySelector('#board > *');
  const controls = [...document.querySelectorAll(
    '#controls button, #controls select, #end-screen button, #confirm-bar button')]
    .filter((e) => !e.disabled && shown(e));
  return {
    vw, vh, scrollY: window.scrollY,
    sideways: Math.max(document.documentElement.scrollWidth, document.body.scrollWidth) > vw + 1,
    board: board ? box(board) : null,
    controls: controls.map((e) => [name(e), box(e)]),
  };
}"""


def outside(rect: list[int], vw: int, vh: int) -> bool:
    """True when a box is not wholly inside the window (one px of rounding allowed)."""
    left, top, right, bottom = rect
    return left < -1 or top < -1 or right > vw + 1 or bottom > vh + 1


def faults(m: dict[str, Any]) -> list[str]:
    """What of a measurement is out of view."""
    out = []
    if m["sideways"]:
        out.append("the page scrolls sideways")
    if m["board"] is None:
        out.append("no board")
    elif outside(m["board"], m["vw"], m["vh"]):
        out.append(f"board {m['board']}")
    out += [f"{name} {rect}" for name, rect in m["controls"] if outside(rect, m["vw"], m["vh"])]
    return out


class Table:
    """Pages at every size, and a game opened and measured at each."""

    def __init__(self, browser: Any, base: str) -> None:
        self.base = base
        self.errors: list[str] = []
        self.contexts = []
        self.pages: dict[tuple[int, int], Any] = {}
        for group, touch in ((DESKTOP, False), (PHONE, True)):
            ctx = browser.new_context(viewport={"width": group[0][0], "height": group[0][1]},
                                      has_touch=touch, is_mobile=touch)
            pg = ctx.new_page()
            pg.set_default_timeout(20_000)
            pg.on("pageerror", lambda e: self.errors.append(str(e)))
            self.contexts.append(ctx)
            for size in group:
                self.pages[size] = pg

    def open(self, size: tuple[int, int], url: str,
             then: Callable[[Any], None] | None = None) -> dict[str, Any]:
        """Open ``url`` at ``size`` (after ``then(page)``: a click of the player) and measure."""
        pg = self.pages[size]
        pg.set_viewport_size({"width": size[0], "height": size[1]})
        pg.goto("about:blank")
        pg.goto(url)
        pg.wait_for_selector("#board > *")
        pg.wait_for_function("window.rulebox && window.rulebox.drawn && window.rulebox.drawn.count")
        if then:
            then(pg)
        return pg.evaluate(MEASURE)

    def check(self, url: str, what: str, then: Callable[[Any], None] | None = None,
              sizes: list[tuple[int, int]] | None = None) -> list[str]:
        """Every size: ``what`` and the faults found (an empty list when all fits)."""
        found = []
        for size in sizes or DESKTOP + PHONE:
            m = self.open(size, url, then)
            found += [f"{what} at {size[0]}x{size[1]}: {f}" for f in faults(m)]
        return found

    def close(self) -> None:
        for ctx in self.contexts:
            ctx.close()


@pytest.fixture
def table(browser: Any, server: ServerProcess) -> Iterator[Table]:
    tb = Table(browser, server.url)
    yield tb
    tb.close()
    assert not tb.errors, tb.errors


def hotseat(api: Api, game: str, n: int, **options: str) -> tuple[str, list[str], str]:
    """A hot-seat game: its id, its tokens and the link that holds every seat."""
    g = api.create(game, ["human"] * n, hotseat=n > 1, **options)
    tokens = [s["token"] for s in g["seats"]]
    return g["id"], tokens, f"{api.base}/game/{g['id']}#t={','.join(tokens)}"


def play(api: Api, gid: str, tokens: list[str], moves: list[str]) -> dict[str, Any]:
    """Given moves, each by the seat to move."""
    st = api.call("GET", f"/api/games/{gid}", token=tokens[0])
    for mv in moves:
        st = api.call("POST", f"/api/games/{gid}/moves", {"move": mv, "version": st["version"]},
                      tokens[st["to_move"]])
    return st


def play_until(api: Api, gid: str, tokens: list[str], stop: Callable[[dict[str, Any]], bool],
               seed: int = 28, limit: int = 400) -> dict[str, Any]:
    """Seeded random moves until ``stop(state)`` (as the seat to move sees it) or the end."""
    rng = random.Random(seed)
    st = api.call("GET", f"/api/games/{gid}", token=tokens[0])
    for _ in range(limit):
        if st["over"]:
            return st
        st = api.call("GET", f"/api/games/{gid}", token=tokens[st["to_move"]])
        if stop(st):
            return st
        st = api.call("POST", f"/api/games/{gid}/moves",
                      {"move": rng.choice(st["legal"]), "version": st["version"]},
                      tokens[st["to_move"]])
    return st


def resign(api: Api, gid: str, tokens: list[str]) -> None:
    st = api.call("GET", f"/api/games/{gid}", token=tokens[0])
    api.call("POST", f"/api/games/{gid}/resign", {}, tokens[st["to_move"] or 0])


def test_columns_fits(table: Table, api: Api) -> None:
    gid, tokens, url = hotseat(api, "columns", 2, seed="28")
    found = table.check(url, "the piece picker at the start")
    play_until(api, gid, tokens, lambda st: st["ply"] >= 10)
    found += table.check(url, "the piece picker mid-game")
    resign(api, gid, tokens)
    found += table.check(url, "the end screen")
    assert not found, "\n".join(found)


def test_countred_fits(table: Table, api: Api) -> None:
    gid, tokens, url = hotseat(api, "countred", 2, seed="28")
    play_until(api, gid, tokens, lambda st: st["ply"] >= 6)

    def lift(pg: Any) -> None:
        pg.click(".countred-board .field.hot")
        pg.wait_for_selector("#explain:not([hidden])")
    found = table.check(url, "a piece lifted, the counts explained", lift)
    resign(api, gid, tokens)
    found += table.check(url, "the end screen")
    assert not found, "\n".join(found)


DISCS_MID = ["arrange RRGGBBBRG", "choose silver a1c3", "c1.nw-b1.ne", "end", "a1-", "end",
             "c1.sw-b1.se", "end", "c3.se-c2.ne", "end", "a3+", "end", "c3.c-c3.se", "end"]


def test_discs_fits(table: Table, api: Api) -> None:
    gid, tokens, url = hotseat(api, "discs", 2)
    found = table.check(url, "the arrangement (Arrange)")
    play(api, gid, tokens, DISCS_MID[:1])
    found += table.check(url, "the choice of pins (Choose)")
    play(api, gid, tokens, DISCS_MID[1:])
    found += table.check(url, "a turn: steps, turns")
    play(api, gid, tokens, ["a3.se-a2.ne"])
    found += table.check(url, "a turn after a step (End)")
    resign(api, gid, tokens)
    found += table.check(url, "the end screen")
    assert not found, "\n".join(found)


@pytest.mark.parametrize("players", [2, 4])
def test_columba_fits(table: Table, api: Api, players: int) -> None:
    gid, tokens, url = hotseat(api, "columba", players, seed="28", players=str(players))
    # the start of a turn: the card in hand, Rotate and the squares to lay it
    st = play_until(api, gid, tokens, lambda st: st["ply"] >= 8 and any(
        m.startswith("place ") for m in st["legal"]))
    assert any(m.startswith("place ") for m in st["legal"])
    found = table.check(url, f"{players} players: the card in hand")
    st = play(api, gid, tokens, [next(m for m in st["legal"] if m.startswith("place "))])
    found += table.check(url, f"{players} players: after the card (End turn)")
    resign(api, gid, tokens)
    found += table.check(url, f"{players} players: the end screen")
    assert not found, "\n".join(found)


def test_36to1_fits(table: Table, api: Api) -> None:
    gid, tokens, url = hotseat(api, "36to1", 1, seed="28")
    found = table.check(url, "the face-up cards")
    play_until(api, gid, tokens, lambda st: st["ply"] >= 12)
    found += table.check(url, "the face-up cards mid-game")
    st = play_until(api, gid, tokens, lambda st: False)
    assert st["over"]
    found += table.check(url, "the end screen")
    assert not found, "\n".join(found)
