"""Discs on a 390 x 844 touch phone (issue 17): every target a player taps (a disc to colour in
the set-up, a pin to move, the hole it goes to, a turn arrow, a pin to lock, a groove for the
barrier) reaches at least 44 x 44 CSS px, where targets lie closer the nearest one wins, a
groove tapped shows the barrier before a second tap places it, and a move of each kind is
played by tapping.

Skipped without ``/usr/bin/chromium`` (see ``conftest``)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from rulebox.server.testing import ServerProcess
from tests.web.test_web_boards_faults import open_game, play_api
from tests.web.test_web_games import state
from tests.web.web_helpers import Api, screenshot

# a game of first against second (the end-highlight game of test_web_boards_play), to the
# start of first's 6th turn: pins spread over a2, b1, c2 and the corners
MID_GAME = ["arrange RRGGBBBRG", "choose silver a1c3", "c1.nw-b1.ne", "end", "a1-", "end",
            "c1.sw-b1.se", "end", "c3.se-c2.ne", "end", "a3+", "end", "c3.c-c3.se", "end",
            "a3.se-a2.ne", "end", "c3.ne-c3.c", "end", "a2.ne-a2.c", "end", "a1.ne-a2.se", "end"]

# every target's reach, in CSS px: its shape's own box (a groove's reach is a rotated band) times
# the board's scale
REACHES = """() => {
  const s = document.querySelector('.discs-board');
  const k = s.getScreenCTM().a;
  return [...s.querySelectorAll('[data-reach]')].map((n) => {
    const b = n.getBBox();
    return [n.dataset.reach, b.width * k, b.height * k];
  });
}"""

# a point of the board (user units) on the screen
TO_SCREEN = """([x, y]) => {
  const m = document.querySelector('.discs-board').getScreenCTM();
  const p = new DOMPoint(x, y).matrixTransform(m);
  return [p.x, p.y];
}"""


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    """A touch page on a 390 x 844 phone; JavaScript errors fail the test."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True,
                              is_mobile=True)
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.set_default_timeout(20_000)
    yield pg
    ctx.close()
    assert not errors, errors


def reaches(page: Any) -> dict[str, tuple[float, float]]:
    return {key: (w, h) for key, w, h in page.evaluate(REACHES)}


def assert_reach(page: Any, keys: set[str]) -> None:
    """Each of ``keys`` is a target of the board reaching at least 44 x 44 px."""
    got = reaches(page)
    assert keys <= set(got), sorted(keys - set(got))
    small = {k: v for k, v in got.items() if min(v) < 44}
    assert not small, small


def ply_is(page: Any, n: int) -> None:
    page.wait_for_function(f"window.rulebox.state.ply === {n} && "
                           "window.rulebox.state.legal.length > 0")


def tap_board(page: Any, x: float, y: float) -> None:
    """A finger on the board at user units (x, y)."""
    sx, sy = page.evaluate(TO_SCREEN, [x, y])
    page.touchscreen.tap(sx, sy)


def test_discs_setup_by_tapping_on_a_phone(phone: Any, server: ServerProcess, api: Api) -> None:
    g = api.create("discs", ["human", "human"], hotseat=True, seed="3")
    open_game(phone, server, g)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    discs = phone.eval_on_selector_all(
        "[data-disc]", "ns => ns.map(n => { const r = n.getBoundingClientRect(); "
        "return Math.min(r.width, r.height); })")
    assert len(discs) == 9 and min(discs) >= 44, discs
    fills = "ns => ns.map(n => n.querySelector('.disc-face').getAttribute('fill'))"
    before = phone.eval_on_selector_all("[data-disc]", fills)
    for d in ("a1", "b1", "c1"):  # RGB -> GBR: still three of each colour
        phone.locator(f'[data-disc="{d}"]').tap()
    after = phone.eval_on_selector_all("[data-disc]", fills)
    assert after[:3] == [before[1], before[2], before[0]] and after[3:] == before[3:]
    phone.locator("#arrange-btn").tap()
    ply_is(phone, 1)
    assert state(phone)["history"] == ["arrange GBRGBRBRG"]
    # the pin colours and corners: buttons of at least 44 px
    buttons = phone.eval_on_selector_all(
        "#controls button[data-move^='choose']",
        "ns => ns.map(n => { const r = n.getBoundingClientRect(); return [r.width, r.height]; })")
    assert len(buttons) == 4 and min(min(b) for b in buttons) >= 44, buttons
    phone.locator("#controls button[data-move='choose silver a1c3']").tap()
    ply_is(phone, 2)
    assert state(phone)["history"][-1] == "choose silver a1c3"


def test_discs_a_turn_of_each_kind_by_tapping_on_a_phone(phone: Any, server: ServerProcess,
                                                         api: Api) -> None:
    g = api.create("discs", ["human", "human"], hotseat=True, seed="3")
    play_api(api, g, MID_GAME)
    open_game(phone, server, g)
    n = len(MID_GAME)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    legal = state(phone)["legal"]
    steps = [m for m in legal if re.fullmatch(r"[a-c][1-3]\.\w+-[a-c][1-3]\.\w+", m)]
    turns = {m for m in legal if re.fullmatch(r"[a-c][1-3][+-]", m)}
    assert steps and turns
    # the main action: the pins that may move and the turn arrows
    assert_reach(phone, {m.split("-")[0] for m in steps} | turns)
    screenshot(phone, "discs-phone-main")
    # a pin, then its hole: the finger lands 12 px beside each, not on it
    src, dst = sorted(steps)[0].split("-")
    xy = {h: phone.evaluate(f"""() => {{
        const c = document.querySelector('[data-hole="{h}"] .ring');
        return [+c.getAttribute('cx'), +c.getAttribute('cy')]; }}""") for h in (src, dst)}
    scale = phone.evaluate("document.querySelector('.discs-board').getScreenCTM().a")
    tap_board(phone, xy[src][0], xy[src][1] + 12 / scale)
    phone.wait_for_selector(f'[data-hole="{src}"].chosen')
    assert_reach(phone, {m.split("-")[1] for m in steps if m.startswith(src + "-")})
    tap_board(phone, xy[dst][0] - 12 / scale, xy[dst][1])
    ply_is(phone, n + 1)
    assert state(phone)["history"][-1] == f"{src}-{dst}"
    # the blocking actions: the pins that may lock, every groove that may take the barrier
    legal = state(phone)["legal"]
    bars = [m[4:] for m in legal if m.startswith("bar ")]
    locks = [m[5:] for m in legal if m.startswith("lock ")]
    assert len(bars) >= 20 and locks
    assert_reach(phone, {f"bar {b}" for b in bars} | set(locks))
    screenshot(phone, "discs-phone-blocking")
    # a diagonal groove where six grooves cross in 50 px: a tap a quarter along it is nearer to
    # it than to its crossing twin and the square's sides. A finger's first tap on a groove
    # shows the barrier there (its one action of the turn cannot be taken back), the second
    # places it; a tap on another groove shows it there instead.
    diagonal = sorted(b for b in bars if b.split("-")[0][0] != b.split("-")[1][0]
                      and b.split("-")[0][1] != b.split("-")[1][1])[0]

    def quarter(line: str) -> tuple[float, float]:
        x1, y1, x2, y2 = phone.evaluate(f"""() => {{
            const l = document.querySelector('[data-line="{line}"] line.groove');
            return ['x1', 'y1', 'x2', 'y2'].map((a) => +l.getAttribute(a)); }}""")
        return x1 + (x2 - x1) * 0.25, y1 + (y2 - y1) * 0.25

    side = sorted(b for b in bars if b != diagonal and b.split("-")[0][:2] == diagonal[:2])[0]
    tap_board(phone, *quarter(side))
    phone.wait_for_selector(f'[data-preview="{side}"]', state="attached")
    tap_board(phone, *quarter(diagonal))
    phone.wait_for_selector(f'[data-preview="{diagonal}"]', state="attached")
    assert phone.locator("[data-preview]").count() == 1
    assert state(phone)["ply"] == n + 1  # nothing played yet
    assert diagonal in phone.inner_text("#hint")
    assert phone.locator(f'#controls button[data-move="bar {diagonal}"]').is_visible()
    screenshot(phone, "discs-phone-barrier-shown")
    tap_board(phone, *quarter(diagonal))
    ply_is(phone, n + 2)
    assert state(phone)["history"][-1] == f"bar {diagonal}"
    phone.locator(f'[data-hole="{sorted(locks)[0]}"]').tap()
    ply_is(phone, n + 3)
    assert state(phone)["history"][-1] == f"lock {sorted(locks)[0]}"
    # the position may come first by the socket and its controls with the move's answer
    phone.wait_for_selector('#controls button[data-move="end"]', state="visible")
    buttons = phone.eval_on_selector_all(
        "#controls button:not([hidden])",
        "ns => ns.filter(n => n.offsetParent).map(n => n.getBoundingClientRect().height)")
    assert buttons and min(buttons) >= 44, buttons
    phone.locator('#controls button[data-move="end"]').tap()
    ply_is(phone, n + 4)
    # second's turn: a disc turned by its arrow
    arrows = sorted(m for m in state(phone)["legal"] if re.fullmatch(r"[a-c][1-3][+-]", m))
    assert arrows
    phone.locator(f'.turn-arrow[data-move="{arrows[0]}"]').tap()
    ply_is(phone, n + 5)
    assert state(phone)["history"][-1] == arrows[0]
