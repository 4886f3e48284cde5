"""The table on a phone (390x844) and by keyboard (issue 17): a tapped game shows its form, hit
areas of at least 44 px, no sideways scrolling, the "confirm move" setting, every control reached
by Tab with a visible focus ring, live regions, and the language switch."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from rulebox.server.testing import ServerProcess
from tests.web.web_helpers import Api, moves_sent, record_moves

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    """A touch phone's page; JavaScript errors fail the test."""
    ctx = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.set_default_timeout(20_000)
    yield pg
    ctx.close()
    assert not errors, errors


def state(page: Any) -> dict[str, Any]:
    return page.evaluate("window.rulebox && window.rulebox.state")


SMALL_TARGETS = """(root) => [...document.querySelectorAll(
    '.btn, .mode, select, summary, .copy-btn, .game-card, #moves li, .header-tools select')]
  .filter((e) => !e.closest('#board, #controls') && e.getClientRects().length
          && getComputedStyle(e).visibility !== 'hidden')
  .map((e) => { const r = e.getBoundingClientRect();
                return [e.id || e.className || e.tagName,
                        Math.round(r.width), Math.round(r.height)]; })
  .filter(([, w, h]) => w < 44 || h < 44)"""


def test_a_tapped_game_shows_its_form_on_a_phone(phone: Any, server: ServerProcess) -> None:
    phone.goto(server.url + "/")
    phone.wait_for_selector('[data-game="discs"]')
    phone.tap('[data-game="discs"]')
    phone.wait_for_function("document.querySelector('#new-game h2').textContent === 'Discs'")
    # the form scrolls into the upper half of the screen (smoothly: waited for, not timed)
    phone.wait_for_function("(() => { const y = document.querySelector('#new-game')"
                            f".getBoundingClientRect().y; return 0 <= y && y < {PHONE['height']}"
                            " * 0.5; })()")
    assert phone.locator("#start").is_visible()
    assert phone.evaluate(SMALL_TARGETS) == []
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_the_game_page_fits_a_phone_with_44px_targets(phone: Any, server: ServerProcess,
                                                      api: Api) -> None:
    for game, seats in (("countred", ["human", "computer:easy"]),
                        ("columba", ["human", "human"]), ("36to1", ["human"])):
        g = api.create(game, seats)
        phone.goto(f"{server.url}/game/{g['id']}#t={g['seats'][0]['token']}")
        phone.wait_for_selector(".board")
        phone.wait_for_selector("#conn.ok")
        phone.click("#move-entry summary")
        phone.click(".invite summary")
        assert phone.evaluate(SMALL_TARGETS) == [], game
        width = phone.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], (game, width)


def test_confirm_move_sends_only_after_confirm(page: Any, server: ServerProcess,
                                               api: Api) -> None:
    g = api.create("columns", ["human", "human"], hotseat=True)
    tokens = ",".join(s["token"] for s in g["seats"])
    record_moves(page)
    page.goto(f"{server.url}/game/{g['id']}#t={tokens}")
    page.wait_for_function("window.rulebox && window.rulebox.state.legal.length > 0")
    assert not page.is_checked("#set-confirm")  # off by default
    page.click("#settings summary")
    page.check("#set-confirm")
    page.click("#settings summary")
    page.click("#move-entry summary")
    page.fill("#move-input", "Rb2")
    page.press("#move-input", "Enter")
    page.wait_for_selector("#confirm-bar:not([hidden])")
    assert "Rb2" in page.inner_text("#confirm-bar")
    assert moves_sent(page) == [] and state(page)["ply"] == 0  # nothing sent yet
    page.click("#cancel-move")
    assert page.locator("#confirm-bar").is_hidden()
    assert moves_sent(page) == [] and state(page)["ply"] == 0  # nor after Cancel
    page.fill("#move-input", "Rb2")
    page.press("#move-input", "Enter")
    page.click("#confirm-move")
    page.wait_for_function("window.rulebox.state.ply === 1")
    assert moves_sent(page) == ["sent Rb2", "answered Rb2"]
    # the setting is kept
    page.reload()
    page.wait_for_selector(".board")
    assert page.is_checked("#set-confirm")


def test_every_control_by_keyboard_with_a_focus_ring(page: Any, server: ServerProcess,
                                                     api: Api) -> None:
    g = api.create("countred", ["human", "human"], hotseat=True, seed="2")
    tokens = [s["token"] for s in g["seats"]]
    st = api.call("GET", f"/api/games/{g['id']}", token=tokens[0])
    api.call("POST", f"/api/games/{g['id']}/moves", {"move": st["legal"][0]}, tokens[0])
    page.goto(f"{server.url}/game/{g['id']}#t={','.join(tokens)}")
    page.wait_for_selector("#moves li")
    page.wait_for_selector("#conn.ok")
    page.locator("body").click(position={"x": 2, "y": 400})
    seen = {}
    for _ in range(80):
        page.keyboard.press("Tab")
        info = page.evaluate("""() => { const e = document.activeElement;
            const s = getComputedStyle(e);
            const ply = e.dataset && e.dataset.ply ? 'ply' + e.dataset.ply : null;
            return [e.id || ply || e.getAttribute('class') || e.tagName,
                    s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2]; }""")
        seen[info[0]] = info[1]
    for want in ("lang", "rules-btn", "lobby-btn", "undo-btn", "ply1", "draw-offer"):
        assert want in seen, (want, seen)
        assert seen[want], (want, "no focus ring")
    # the log and the notices are read out politely
    assert page.get_attribute("#moves", "role") == "log"
    assert page.get_attribute("#log-live", "aria-live") == "polite"
    assert page.get_attribute("#announcements", "aria-live") == "polite"
    assert page.get_attribute("#status", "aria-live") == "polite"
    assert page.get_attribute('#moves li[data-ply="1"]', "aria-label")


def test_the_language_switch(page: Any, server: ServerProcess, api: Api) -> None:
    g = api.create("columns", ["human", "human"], hotseat=True)
    tokens = ",".join(s["token"] for s in g["seats"])
    page.goto(server.url + "/")
    page.wait_for_selector("#lang")
    assert page.eval_on_selector_all("#lang option", "os => os.map((o) => o.textContent)") == [
        "English", "Deutsch", "Русский"]
    sockets: list[str] = []
    langs: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    page.on("request", lambda r: langs.append(r.headers.get("accept-language", ""))
            if "/api/games" in r.url else None)
    page.select_option("#lang", "de")
    page.wait_for_function("document.documentElement.lang === 'de'")
    page.goto(f"{server.url}/game/{g['id']}#t={tokens}")
    page.wait_for_selector("#conn.ok")
    assert page.evaluate("document.documentElement.lang") == "de"
    assert page.input_value("#lang") == "de"
    assert sockets and all("lang=de" in u for u in sockets)
    assert langs and all(x.startswith("de") for x in langs)
