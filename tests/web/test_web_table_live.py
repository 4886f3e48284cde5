"""The live table (issue 17): clocks and a loss on time, presence dots and notices, waiting for an
opponent, the "disconnected, reconnecting" state that blocks moves, the computer thinking, and the
tab's title and favicon on your turn."""

from __future__ import annotations

from typing import Any

from rulebox.server.testing import ServerProcess
from tests.web.web_helpers import Api


def state(page: Any) -> dict[str, Any]:
    return page.evaluate("window.rulebox && window.rulebox.state")


def open_seat(browser: Any, url: str, size: tuple[int, int] = (1180, 860)) -> Any:
    """A page in a fresh browser context (its own localStorage): another person."""
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = ctx.new_page()
    page.set_default_timeout(20_000)
    page.goto(url)
    page.wait_for_selector(".board")
    page.wait_for_selector("#conn.ok")
    return page


def online(api: Api, game: str = "columns", clock: str | None = None) -> tuple[str, list[str]]:
    body: dict[str, Any] = {"game": game, "seats": ["human", "human"], "options": {}}
    if clock:
        body["clock"] = clock
    g = api.call("POST", "/api/games", body)
    return g["id"], [s["token"] for s in g["seats"]]


def test_clocks_tick_and_a_flag_ends_the_game(browser: Any, server: ServerProcess,
                                              api: Api) -> None:
    gid, (t0, t1) = online(api, clock="0.05+0")  # three seconds each
    first = open_seat(browser, f"{server.url}/game/{gid}#t={t0}")
    second = open_seat(browser, f"{server.url}/game/{gid}#t=,{t1}")
    st = state(second)
    assert st["clock"] and st["clock"]["control"] == "0.05+0"
    assert second.locator(".clock").count() == 2
    assert second.inner_text('.clock[data-player="1"]') == "3.0"
    api.call("POST", f"/api/games/{gid}/moves", {"move": "Rb2"}, t0)  # the clock starts
    second.wait_for_selector('.clock.running[data-player="1"]')
    shown = second.inner_text('.clock[data-player="1"]')
    assert float(shown) <= 3.0
    # it ticks down in the page
    second.wait_for_function("parseFloat(document.querySelector('.clock[data-player=\"1\"]')"
                             f".textContent) < {float(shown)}")
    # the server ends it on time; both pages show it
    for pg in (first, second):
        pg.wait_for_function("window.rulebox.state.over", timeout=15_000)
        assert state(pg)["result"]["how"] == "time"
        pg.wait_for_selector("#end-screen:not([hidden])")
    assert "You lose" in second.inner_text("#end-screen")
    assert "You win" in first.inner_text("#end-screen")
    # and both are told why (an event "flag")
    for pg in (first, second):
        pg.wait_for_selector('#announcements li[data-kind="flag"]')
    for pg in (first, second):
        pg.context.close()


def test_the_clock_choice_at_creation(page: Any, server: ServerProcess) -> None:
    page.goto(server.url + "/")
    page.click('[data-game="columns"]')
    page.click('[data-mode="computer"]')
    assert page.locator("#clock-choice").count() == 0  # nobody plays from afar
    page.click('[data-mode="online"]')
    values = page.eval_on_selector_all("#clock-choice option", "os => os.map((o) => o.value)")
    assert values[0] == "" and {"3+2", "5+3", "15+10", "1d", "3d"} <= set(values)
    page.select_option("#clock-choice", "5+3")
    page.click("#start")
    page.wait_for_selector(".board")
    page.wait_for_function("window.rulebox && window.rulebox.state")
    clock = state(page)["clock"]
    assert clock["control"] == "5+3" and clock["base"] == 300
    assert page.inner_text('.clock[data-player="0"]') == "5:00"


def test_presence_waiting_and_notices(browser: Any, page: Any, server: ServerProcess) -> None:
    page.goto(server.url + "/")
    page.click('[data-game="columns"]')
    page.click('[data-mode="online"]')
    page.click("#start")
    page.wait_for_selector(".board")
    page.wait_for_selector("#conn.ok")
    # nobody at the other seat yet: waiting, with the link to send
    page.wait_for_selector("#waiting:not([hidden])")
    assert "Waiting for an opponent" in page.inner_text("#waiting")
    url = page.locator("#waiting .invite-url").input_value()
    assert "#t=," in url
    page.wait_for_selector('.presence.off[data-player="1"]')
    assert page.locator('.presence.on[data-player="0"]').count() == 1
    # the friend comes: the dot turns on, the waiting box goes, a notice says so
    friend = open_seat(browser, url)
    page.wait_for_selector('.presence.on[data-player="1"]')
    page.wait_for_selector("#waiting", state="hidden")
    page.wait_for_selector('#announcements li[data-kind="joined"]')
    # a declined draw offer is told to the one who offered
    page.click("#draw-offer")
    friend.wait_for_selector("#draw-decline")
    friend.click("#draw-decline")
    page.wait_for_selector('#announcements li[data-kind="declined"], '
                           '#announcements li[data-kind="draw_declined"]')
    # the friend leaves, then comes back
    friend.context.close()
    page.wait_for_selector('.presence.off[data-player="1"]', timeout=15_000)
    page.wait_for_selector('#announcements li[data-kind="left"]', timeout=15_000)
    friend = open_seat(browser, url)
    page.wait_for_selector('.presence.on[data-player="1"]')
    page.wait_for_selector('#announcements li[data-kind="back"]')
    friend.context.close()


def test_a_lost_connection_blocks_moves_until_it_is_back(page: Any, server: ServerProcess,
                                                          api: Api) -> None:
    gid, (t0, _t1) = online(api)
    page.goto(f"{server.url}/game/{gid}#t={t0}")
    page.wait_for_selector("#conn.ok")
    page.wait_for_function("window.rulebox.state.legal.length > 0")
    assert page.locator("#offline").is_hidden()
    page.context.set_offline(True)
    page.evaluate("window.rulebox.socket.close()")
    page.wait_for_selector("#offline:not([hidden])")
    assert "reconnecting" in page.inner_text("#offline").lower()
    # no move goes while the connection is gone: nothing glows, a typed move waits
    assert page.locator(".pin.hot").count() == 0
    page.click("#move-entry summary")
    page.fill("#move-input", "Rb2")
    page.press("#move-input", "Enter")
    page.locator("#toast").wait_for(state="visible")
    assert "Disconnected" in page.inner_text("#toast")
    page.context.set_offline(False)
    page.wait_for_selector("#offline", state="hidden", timeout=15_000)
    page.wait_for_selector("#conn.ok")
    assert state(page)["ply"] == 0
    page.fill("#move-input", "Rb2")
    page.press("#move-input", "Enter")
    page.wait_for_function("window.rulebox.state.ply === 1")


def test_a_socket_that_stops_answering_is_dropped_and_redialled(
        page: Any, server: ServerProcess, api: Api) -> None:
    gid, (t0, _t1) = online(api)
    page.goto(f"{server.url}/game/{gid}#t={t0}")
    page.wait_for_selector("#conn.ok")
    # the socket swallows everything from now on: its ping is never answered
    page.evaluate("window.rulebox.socket.send = () => {}; window.rulebox.deadSocket = "
                  "window.rulebox.socket")
    page.wait_for_function("window.rulebox.socket !== window.rulebox.deadSocket",
                           timeout=25_000)
    page.wait_for_selector("#conn.ok")
    assert page.locator("#offline").is_hidden()


def test_the_computer_thinking_and_your_turn_in_the_tab(page: Any, server: ServerProcess,
                                                         api: Api) -> None:
    g = api.create("columns", ["human", "mcts:time=1.5"])
    token = g["seats"][0]["token"]
    page.goto(f"{server.url}/game/{g['id']}#t={token}")
    page.wait_for_function("window.rulebox && window.rulebox.state.legal.length > 0")
    page.wait_for_function("document.title.startsWith('(•) Your turn — Columns')")
    assert page.get_attribute("link[rel='icon']", "data-turn") == "1"
    assert page.evaluate("window.rulebox_beeps || 0") == 0  # the sound is off by default
    # the sound on, and the player looks elsewhere (the tab hidden) while the computer thinks
    page.click("#settings summary")
    page.check("#set-sound")
    page.click("#settings summary")
    beeps = page.evaluate("window.rulebox_beeps || 0")
    page.click("#move-entry summary")
    page.fill("#move-input", "Rb2")
    page.press("#move-input", "Enter")
    page.wait_for_selector('.seat-line[data-player="1"] .thinking-mark')
    page.evaluate("Object.defineProperty(document, 'hidden', {value: true, configurable: true})")
    assert "thinking" in page.inner_text("#status")
    assert not page.evaluate("document.title.startsWith('(•)')")
    assert page.get_attribute("link[rel='icon']", "data-turn") == "0"
    drawn = page.evaluate("window.rulebox.drawn")
    page.wait_for_function("window.rulebox.state.ply === 2", timeout=20_000)
    assert page.locator(".thinking-mark").count() == 0
    # the computer's move goes to the board as the last turn, to be animated (once), and is
    # read out in words
    after = page.evaluate("window.rulebox.drawn")
    assert after["animations"] == drawn["animations"] + 1
    st = state(page)
    if st.get("last"):
        assert after["last"]["player"] == 1 and after["last"]["moves"] == [st["history"][1]]
        assert page.inner_text("#log-live") == "; ".join(st["last"]["texts"])
    assert after["highlight"] == []
    assert page.evaluate("window.rulebox_beeps || 0") == beeps + 1  # one beep: your turn again
    page.wait_for_function("document.title.startsWith('(•) Your turn')")
