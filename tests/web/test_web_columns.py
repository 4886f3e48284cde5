"""Columns in the browser: a whole game against the computer by clicking, illegal attempts
explained, undo, replay, spectating, hot-seat."""

from __future__ import annotations

import random
import re
from typing import Any

from rulebox.server.testing import ServerProcess
from tests.web.web_helpers import Api, screenshot


def state(page: Any) -> dict[str, Any]:
    return page.evaluate("window.rulebox && window.rulebox.state")


def wait_ply(page: Any, ply: int) -> None:
    page.wait_for_function(f"window.rulebox && window.rulebox.state.ply >= {ply}")


def wait_my_turn_or_over(page: Any) -> dict[str, Any]:
    page.wait_for_function("window.rulebox && (window.rulebox.state.over || "
                           "(window.rulebox.state.legal.length > 0))")
    return state(page)


def click_move(page: Any, move: str) -> None:
    """Make a Columns move with the mouse: the piece, then its pin(s)."""
    kind = move[0]
    pins = re.findall(r"[a-d][1-3]", move)
    tool = kind if kind in "RSD" else "T" + move[-1]
    page.click(f'[data-tool="{tool}"]')
    for pin in pins:
        page.click(f'[data-pin="{pin}"]')


def test_a_whole_game_against_the_computer_by_clicking(page: Any, server: ServerProcess) -> None:
    page.goto(server.url + "/")
    page.click('[data-game="columns"]')
    screenshot(page, "lobby")
    page.click('[data-mode="computer"]')
    page.select_option("#level", "easy")
    page.click("#start")
    page.wait_for_selector(".columns-board")
    rng = random.Random(7)
    moves = 0
    while True:
        st = wait_my_turn_or_over(page)
        if st["over"]:
            break
        legal = st["legal"]
        # prefer shapes that exercise every tool
        kinds = sorted({m[0] + (m[-1] if m[0] == "T" else "") for m in legal})
        pick = rng.choice(kinds)
        move = rng.choice([m for m in legal if m[0] + (m[-1] if m[0] == "T" else "") == pick])
        ply = st["ply"]
        click_move(page, move)
        wait_ply(page, ply + 1)
        assert state(page)["history"][ply] == move
        moves += 1
        if moves == 6:
            screenshot(page, "columns")
    st = state(page)
    assert st["over"] and st["result"]["reason"]
    status = page.inner_text("#status")
    assert status.startswith("Game over")
    assert page.is_visible("#result")
    # the move list shows every move
    assert page.locator("#moves li").count() == len(st["history"])
    # replay: back to the start, then one move on
    page.click("#replay-btn")
    page.wait_for_selector("#replay-bar:not([hidden])")
    page.wait_for_function("document.querySelector('#status').textContent.includes('after move 0')")
    assert page.locator(".unit").count() == 0
    page.click("#replay-next")
    page.wait_for_function("document.querySelector('#status').textContent.includes('after move 1')")
    assert page.locator(".unit").count() >= 1
    # a rematch with the same seats
    page.click("#replay-close")
    old_id = st["id"]
    page.click("#rematch-btn")
    page.wait_for_function(f"window.rulebox.state.id !== '{old_id}'")
    page.wait_for_function("window.rulebox.state.legal.length > 0")
    assert state(page)["ply"] == 0 and "Your turn" in page.inner_text("#status")


def test_an_illegal_attempt_is_explained_with_its_rule(page: Any, server: ServerProcess,
                                                       api: Api) -> None:
    g = api.create("columns", ["human", "human"], hotseat=True)
    t0, t1 = (s["token"] for s in g["seats"])
    api.call("POST", f"/api/games/{g['id']}/moves", {"move": "Sa1"}, t0)
    page.goto(f"{server.url}/game/{g['id']}#t={t0},{t1}")
    page.wait_for_selector(".columns-board")
    page.wait_for_function("window.rulebox && window.rulebox.state.to_move === 1")
    assert page.get_attribute('[data-pin="a1"]', "class").find("hot") < 0  # not highlighted
    page.click('[data-tool="R"]')
    page.click('[data-pin="a1"]')
    toast = page.locator("#toast")
    toast.wait_for(state="visible")
    assert "[COL-4]" in toast.inner_text() and "blocker" in toast.inner_text()
    assert state(page)["history"] == ["Sa1"]


def test_undo_against_the_computer(page: Any, server: ServerProcess, api: Api) -> None:
    g = api.create("columns", ["human", "computer:easy"])
    token = g["seats"][0]["token"]
    page.goto(f"{server.url}/game/{g['id']}#t={token}")
    page.wait_for_selector(".columns-board")
    wait_my_turn_or_over(page)
    click_move(page, "Rb2")
    wait_ply(page, 2)
    page.wait_for_selector("#undo-btn:not([hidden])")
    page.click("#undo-btn")
    page.wait_for_function("window.rulebox.state.ply === 0")
    assert page.locator(".unit").count() == 0
    # the rules are at hand
    page.click("#rules-btn")
    page.wait_for_selector("#rules-dialog[open]")
    page.wait_for_function("document.querySelector('#rules-body').textContent.includes('COL-4')")
    assert "Ra1" in page.inner_text("#rules-body")  # the notation too


def test_a_spectator_and_the_other_seat_see_moves_live(browser: Any, page: Any,
                                                       server: ServerProcess, api: Api) -> None:
    g = api.create("columns", ["human", "human"])
    t0, t1 = (s["token"] for s in g["seats"])
    page.goto(f"{server.url}/game/{g['id']}#t={t0}")
    ctx2 = browser.new_context(viewport={"width": 390, "height": 844})  # a phone
    other = ctx2.new_page()
    other.goto(f"{server.url}/game/{g['id']}#t=,{t1}")
    ctx3 = browser.new_context()
    watcher = ctx3.new_page()
    watcher.goto(f"{server.url}/game/{g['id']}#watch")
    for pg in (page, other, watcher):
        pg.wait_for_selector(".columns-board")
        pg.wait_for_selector("#conn.ok")
    assert "Your turn" in page.inner_text("#status")
    assert "Waiting" in other.inner_text("#status")
    click_move(page, "Da1b1")
    for pg in (other, watcher):
        pg.wait_for_function("window.rulebox && window.rulebox.state.ply === 1")
        assert pg.locator("#moves li").first.inner_text() == "Da1b1"
        assert pg.locator(".unit.blocker").count() == 2
    assert "Your turn" in other.inner_text("#status")
    assert state(watcher)["legal"] == [] and state(watcher)["you"] is None
    click_move(other, "Rc1")
    page.wait_for_function("window.rulebox.state.ply === 2")
    # the spectator cannot move
    watcher.click('[data-pin="d3"]')
    assert state(watcher)["ply"] == 2
    screenshot(other, "columns-phone")
    # a draw by agreement: offered on one page, accepted on the other
    page.click("#draw-offer")
    other.wait_for_selector("#draw-accept")
    assert "offers a draw" in other.inner_text("#draw-box")
    other.click("#draw-accept")
    for pg in (page, other, watcher):
        pg.wait_for_function("window.rulebox.state.over")
        assert "draw" in pg.inner_text("#status")
    ctx2.close()
    ctx3.close()


def test_an_online_game_from_the_lobby_with_an_invite_link(browser: Any, page: Any,
                                                          server: ServerProcess) -> None:
    page.goto(server.url + "/")
    page.click('[data-game="columns"]')
    page.click('[data-mode="online"]')
    page.click("#start")
    page.wait_for_selector(".columns-board")
    link = page.locator('.invite-url[data-seat="1"]')
    url = link.input_value()
    assert "/game/" in url and "#t=" in url
    ctx2 = browser.new_context()
    friend = ctx2.new_page()
    friend.goto(url)
    friend.wait_for_selector(".columns-board")
    friend.wait_for_function("window.rulebox && window.rulebox.state.you === 1")
    click_move(page, "Rb2")
    friend.wait_for_function("window.rulebox.state.ply === 1")
    assert "Your turn" in friend.inner_text("#status")
    assert friend.locator('.seat-line[data-player="1"]').inner_text().startswith("dark (you)")
    ctx2.close()
