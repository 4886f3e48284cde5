"""The page around the board (issue 17): your seat is never lost, your games in the lobby, seat
links, spectators labelled; the move log in words; the end screen; no undo after the end; the
error toast; the words of the page."""

from __future__ import annotations

import random
import re
from typing import Any

from rulebox.server.testing import ServerProcess
from tests.web.web_helpers import Api, moves_sent, record_moves


def state(page: Any) -> dict[str, Any]:
    return page.evaluate("window.rulebox && window.rulebox.state")


def start_from_lobby(page: Any, server: ServerProcess, game: str, mode: str = "computer") -> str:
    """A game started with the lobby's form; answers its id."""
    page.goto(server.url + "/")
    page.click(f'[data-game="{game}"]')
    page.click(f'[data-mode="{mode}"]')
    if page.locator("#level").count():
        page.select_option("#level", "easy")
    page.click("#start")
    page.wait_for_selector(".board")
    page.wait_for_function("window.rulebox && window.rulebox.state")
    if mode == "computer":
        # who begins is drawn (Count Red's first player, the computer's colour): when the
        # computer does, its first turn is waited for, so the game is at the player's turn
        page.wait_for_function("window.rulebox.state.to_move === window.rulebox.state.you")
    return str(state(page)["id"])


def play_api(api: Api, gid: str, tokens: list[str], plies: int, seed: int = 3) -> dict[str, Any]:
    """Seeded random moves through the API for whichever seat is to move."""
    rng = random.Random(seed)
    st = api.call("GET", f"/api/games/{gid}", token=tokens[0])
    for _ in range(plies):
        if st["over"]:
            break
        st = api.call("GET", f"/api/games/{gid}", token=tokens[st["to_move"]])
        st = api.call("POST", f"/api/games/{gid}/moves",
                      {"move": rng.choice(st["legal"]), "version": st["version"]},
                      tokens[st["to_move"]])
    return st


def wait_status(page: Any, text: str) -> None:
    page.wait_for_function(f"document.getElementById('status').textContent.includes({text!r})")


READY = "window.rulebox && window.rulebox.state && window.rulebox.state.legal.length > 0"


def stored(page: Any, gid: str) -> Any:
    return page.evaluate(f"JSON.parse(localStorage.getItem('rulebox:{gid}'))")


def test_watching_your_own_game_keeps_your_seat(page: Any, server: ServerProcess) -> None:
    gid = start_from_lobby(page, server, "countred")
    token = stored(page, gid)[0]
    assert token
    # the lobby: your game is under "Watch a game" too; open it from there
    page.click("#home-link")
    page.wait_for_selector(f".recent-list a[href='/game/{gid}#watch']")
    page.click(f".recent-list a[href='/game/{gid}#watch']")
    page.wait_for_selector(".board")
    page.wait_for_function(READY)
    assert stored(page, gid)[0] == token  # the seat is still this browser's
    assert state(page)["you"] == 0
    assert "Your turn" in page.inner_text("#status")
    assert page.locator("#spectator").is_hidden()


def test_your_games_in_the_lobby_with_whose_turn_and_results(page: Any, server: ServerProcess,
                                                             api: Api) -> None:
    first = start_from_lobby(page, server, "countred")
    second = start_from_lobby(page, server, "columns")
    token = stored(page, second)[0]
    api.call("POST", f"/api/games/{second}/resign", {}, token)
    page.click("#home-link")
    page.wait_for_selector("#my-games li")
    one = page.locator(f'#my-games li[data-id="{first}"]')
    two = page.locator(f'#my-games li[data-id="{second}"]')
    assert "your turn" in one.inner_text()
    assert "finished" in two.inner_text()
    assert "[" not in two.inner_text()  # the result in words, no rule ID
    # a click brings you back to your seat
    one.locator("a").click()
    page.wait_for_function(f"window.rulebox && window.rulebox.state.id === '{first}' && "
                           "window.rulebox.state.legal.length > 0")
    assert state(page)["you"] == 0


def test_a_computer_game_has_its_seat_link_and_a_spectator_is_labelled(
        browser: Any, page: Any, server: ServerProcess) -> None:
    gid = start_from_lobby(page, server, "countred")
    link = page.locator('.invite-url[data-seat="0"]')
    url = link.input_value()
    assert f"/game/{gid}#t=" in url
    assert page.locator('[data-copy="0"]').count() == 1
    # another device opens the link: the same seat
    ctx = browser.new_context()
    other = ctx.new_page()
    other.goto(url)
    other.wait_for_function("window.rulebox && window.rulebox.state "
                            "&& window.rulebox.state.you === 0")
    assert other.locator("#spectator").is_hidden()
    # a spectator is told so
    ctx2 = browser.new_context()
    watcher = ctx2.new_page()
    watcher.goto(f"{server.url}/game/{gid}#watch")
    watcher.wait_for_selector("#spectator:not([hidden])")
    assert "spectator" in watcher.inner_text("#spectator")
    ctx.close()
    ctx2.close()


def test_the_move_log_in_words_scrolls_and_shows_any_position(page: Any, server: ServerProcess,
                                                              api: Api) -> None:
    g = api.create("countred", ["human", "human"], hotseat=True, seed="5")
    tokens = [s["token"] for s in g["seats"]]
    st = play_api(api, g["id"], tokens, 30)
    plies = st["ply"]
    assert plies > 20
    page.goto(f"{server.url}/game/{g['id']}#t={','.join(tokens)}")
    page.wait_for_selector("#moves li")
    assert page.locator("#moves li").count() == plies
    box = page.locator("#moves").bounding_box()
    # every move past the 14th is reachable inside the box (no sideways overflow)
    for ply in (15, 20, plies):
        li = page.locator(f'#moves li[data-ply="{ply}"]')
        li.scroll_into_view_if_needed()
        b = li.bounding_box()
        inside_x = box["x"] - 1 <= b["x"] and b["x"] + b["width"] <= box["x"] + box["width"] + 1
        inside_y = box["y"] - 1 <= b["y"] and b["y"] + b["height"] <= box["y"] + box["height"] + 1
        assert inside_x and inside_y, (ply, b, box)
        assert li.inner_text() == st["history"][ply - 1]
    assert page.evaluate("getComputedStyle(document.getElementById('moves')).overflowY") == "auto"
    # in words, one entry per turn, with who played
    log = st.get("log")
    if log:
        assert page.locator("#moves .turn").count() == len(log)
        last = page.locator(f'#moves li[data-ply="{plies}"]')
        assert last.get_attribute("data-words") == log[-1]["texts"][-1]
        assert log[-1]["seat"] in page.locator("#moves .turn").last.inner_text()
    # the current entry is marked
    newest = page.locator(f'#moves li[data-ply="{plies}"]')
    assert "current" in (newest.get_attribute("class") or "")
    # a click shows that position; "back to the game" returns
    page.locator('#moves li[data-ply="15"]').click()
    wait_status(page, "after move 15 of")
    assert "current" in (page.locator('#moves li[data-ply="15"]').get_attribute("class") or "")
    assert page.locator('#moves li[data-ply="15"]').get_attribute("aria-current") == "step"
    page.click("#replay-close")
    page.wait_for_function("!document.getElementById('status').textContent.includes('after move')")
    assert page.locator("#replay-bar").is_hidden()
    # by keyboard too
    page.locator('#moves li[data-ply="3"]').focus()
    page.keyboard.press("Enter")
    wait_status(page, "after move 3 of")


def test_the_end_screen(page: Any, server: ServerProcess, api: Api) -> None:
    g = api.create("countred", ["human", "human"], hotseat=True, seed="5")
    tokens = [s["token"] for s in g["seats"]]
    st = play_api(api, g["id"], tokens, 400, seed=11)
    if not st["over"]:
        st = api.call("POST", f"/api/games/{g['id']}/resign", {}, tokens[st["to_move"]])
    page.goto(f"{server.url}/game/{g['id']}#t={','.join(tokens)}")
    page.wait_for_selector("#end-screen:not([hidden])")
    text = page.inner_text("#end-text")
    assert text and "[" not in text and "CR-" not in text
    if st["result"].get("text"):
        assert text == st["result"]["text"]
    # the rule one click away
    assert page.locator("#end-rule-text").is_hidden()
    page.click("#end-rule")
    page.wait_for_selector("#end-rule-text:not([hidden])")
    assert st["result"]["reason"] in page.inner_text("#end-rule-text")
    # a score table with every seat, the winner marked
    rows = page.locator("#score-table tbody tr")
    assert rows.count() == 2
    for w in st["result"]["winners"]:
        assert "winner" in (rows.nth(w).get_attribute("class") or "")
    # the deciding pieces go to the board
    shown = page.evaluate("window.rulebox.state.result.highlight || []")
    assert shown == (st["result"].get("highlight") or [])
    # replay and rematch
    page.click("#end-replay")
    wait_status(page, "after move 0 of")
    assert page.locator("#end-screen").is_hidden()
    page.click("#replay-close")
    page.wait_for_selector("#end-screen:not([hidden])")
    page.click("#end-rematch")
    page.wait_for_function(f"window.rulebox.state.id !== '{g['id']}' && !window.rulebox.state.over")


def test_no_undo_after_the_game_is_over(page: Any, server: ServerProcess, api: Api) -> None:
    for game, n in (("discs", 2), ("36to1", 1)):
        g = api.create(game, ["human"] * n, hotseat=n > 1, seed="3")
        tokens = [s["token"] for s in g["seats"]]
        play_api(api, g["id"], tokens, 3)
        page.goto(f"{server.url}/game/{g['id']}#t={','.join(tokens)}")
        page.wait_for_selector("#undo-btn:not([hidden])")
        api.call("POST", f"/api/games/{g['id']}/resign", {}, tokens[0])
        page.wait_for_function("window.rulebox.state.over")
        page.wait_for_selector("#end-screen:not([hidden])")
        assert page.locator("#undo-btn").is_hidden(), game


def test_the_error_toast_leaves_the_counters_free_and_goes(page: Any, server: ServerProcess,
                                                           api: Api) -> None:
    g = api.create("columns", ["human", "human"], hotseat=True)
    tokens = [s["token"] for s in g["seats"]]
    api.call("POST", f"/api/games/{g['id']}/moves", {"move": "Sa1"}, tokens[0])
    page.goto(f"{server.url}/game/{g['id']}#t={','.join(tokens)}")
    page.wait_for_function("window.rulebox && window.rulebox.state.to_move === 1")
    page.click("#move-entry summary")
    page.fill("#move-input", "Ra1")  # illegal: a roundel on a blocker
    page.press("#move-input", "Enter")
    toast = page.locator("#toast")
    toast.wait_for(state="visible")
    assert "COL-" in toast.inner_text()
    # it covers neither the board nor the counters under it
    tb = toast.bounding_box()
    for sel in ("#board", "#controls"):
        b = page.locator(sel).bounding_box()
        if b and b["height"] > 0:
            assert tb["y"] + tb["height"] <= b["y"] or tb["y"] >= b["y"] + b["height"], sel
    # the next legal move takes it away (long before 4 s)
    page.fill("#move-input", "Rb2")
    page.press("#move-input", "Enter")
    page.wait_for_function("window.rulebox.state.ply === 2")
    assert toast.is_hidden()
    # a click closes it; and it goes by itself after about 4 s
    page.fill("#move-input", "Ra9")  # no such pin
    page.press("#move-input", "Enter")
    toast.wait_for(state="visible")
    toast.click()
    assert toast.is_hidden()
    page.fill("#move-input", "Ra9")
    page.press("#move-input", "Enter")
    toast.wait_for(state="visible")
    toast.wait_for(state="hidden", timeout=5500)


def test_a_move_made_while_the_last_is_on_its_way_waits_and_goes(
        page: Any, server: ServerProcess, api: Api) -> None:
    """The server has taken the first move (its state came by the socket) but its answer to the
    POST is late: the next move waits for that answer and is then sent, not dropped."""
    g = api.create("columns", ["human", "human"], hotseat=True)
    tokens = [s["token"] for s in g["seats"]]
    held: list[Any] = []

    def hold(route: Any) -> None:
        if route.request.method == "POST" and not held:
            held.append((route, route.fetch()))  # the server has the move; its answer waits
        else:
            route.continue_()

    page.route(re.compile(r"/api/games/[^/?]+/moves"), hold)
    record_moves(page)
    page.goto(f"{server.url}/game/{g['id']}#t={','.join(tokens)}")
    page.wait_for_function(READY)
    page.click("#move-entry summary")
    page.fill("#move-input", "Sa1")
    page.press("#move-input", "Enter")
    page.wait_for_function("window.rulebox.state.ply === 1")  # by the socket
    assert held
    page.fill("#move-input", "Rb2")
    page.press("#move-input", "Enter")
    assert moves_sent(page) == ["sent Sa1"]  # it waits for the first move's answer
    assert state(page)["ply"] == 1
    route, answer = held[0]
    route.fulfill(response=answer)
    page.wait_for_function("window.rulebox.state.ply === 2")
    assert moves_sent(page) == ["sent Sa1", "answered Sa1", "sent Rb2", "answered Rb2"]
    assert state(page)["history"][-1] == "Rb2"
    assert page.input_value("#move-input") == ""


def test_the_words_of_the_page(page: Any, server: ServerProcess, api: Api) -> None:
    g = api.create("countred", ["human", "computer:easy"])
    page.goto(f"{server.url}/game/{g['id']}#t={g['seats'][0]['token']}")
    page.wait_for_function(READY)
    # the move box shows this game's own notation, not Columns' "Ra1"
    ph = page.get_attribute("#move-input", "placeholder") or ""
    assert "Ra1" not in ph and "B2-C2" in ph
    # "to move" stays inside the panel beside "computer (easy)"
    side = page.locator(".side").bounding_box()
    for mark in page.locator(".turn-mark, .thinking-mark, .seat-kind").all():
        b = mark.bounding_box()
        if b:
            assert b["x"] + b["width"] <= side["x"] + side["width"] + 0.5
    assert page.evaluate("getComputedStyle(document.querySelector('.turn-mark, .thinking-mark'))"
                         ".textTransform") != "uppercase"
    # one move is "1 move", not "1 moves"
    one = api.create("columns", ["human", "human"], hotseat=True)
    api.call("POST", f"/api/games/{one['id']}/moves", {"move": "Rb2"}, one["seats"][0]["token"])
    page.goto(server.url + "/")
    item = page.locator(".recent-list li", has=page.locator(f"a[href='/game/{one['id']}#watch']"))
    item.wait_for()
    assert "1 move" in item.inner_text() and "1 moves" not in item.inner_text()
    # the form names the seats, never "player 0"
    page.click('[data-game="countred"]')
    assert "player 0" not in page.inner_text("#new-game")
    assert "0:" not in page.inner_text("#new-game .seats")
