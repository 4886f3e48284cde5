"""Faults found by a player's play-through of the browser table (issue 17, the review): a Columba
territory on a phone that was cut at the right edge and jumped back left at every redraw, and the
notices that showed a rule ID inline ("... [CR-10]") instead of a badge one click from the rule."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from rulebox.server.testing import ServerProcess
from tests.web.web_helpers import Api, screenshot, settle

PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server of its own without the move rate limit (games are played up to their end)."""
    pytest.importorskip("fastapi")
    pytest.importorskip("uvicorn")
    folder = tmp_path_factory.mktemp("review17")
    srv = ServerProcess(f"sqlite:///{folder / 'rulebox.db'}", log=folder / "server.log",
                        args=["--moves-per-second", "0", "--create-per-minute", "0"]).start()
    yield srv
    srv.stop()


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


def play_random(api: Api, gid: str, tokens: list[str], plies: int, seed: int,
                until: Any = None) -> dict[str, Any]:
    """Seeded random moves for whichever seat is to move, until ``plies``, the end, or
    ``until(state)``."""
    rng = random.Random(seed)
    st = api.call("GET", f"/api/games/{gid}", token=tokens[0])
    while not st["over"] and st["ply"] < plies:
        st = api.call("GET", f"/api/games/{gid}", token=tokens[st["to_move"]])
        if until and until(st):
            break
        st = api.call("POST", f"/api/games/{gid}/moves",
                      {"move": rng.choice(st["legal"]), "version": st["version"]},
                      tokens[st["to_move"]])
    return st


def columba(api: Api, plies: int, until: Any = None) -> tuple[str, list[str], dict[str, Any]]:
    g = api.create("columba", ["human", "human"], hotseat=True, seed="17")
    tokens = [s["token"] for s in g["seats"]]
    st = play_random(api, g["id"], tokens, plies, seed=17, until=until)
    return g["id"], tokens, st


WIDTHS = """() => { const sc = document.querySelector('.columba-scroll');
  const b = document.querySelector('.columba-board').getBoundingClientRect();
  return { client: sc.clientWidth, scroll: sc.scrollWidth, left: sc.scrollLeft,
           board: Math.round(b.width),
           scrolls: document.querySelector('.columba-view').classList.contains('scrolls') }; }"""


IN_VIEW = """() => {
  const sc = document.querySelector('.columba-scroll').getBoundingClientRect();
  return [...document.querySelectorAll('.columba-board .cell.hot')].filter((c) => {
    const r = c.getBoundingClientRect();
    return r.left >= sc.left - 1 && r.right <= sc.right + 1; }).length; }"""


def test_a_finished_columba_territory_fits_a_phone(phone: Any, server: ServerProcess,
                                                   api: Api) -> None:
    gid, tokens, st = columba(api, 400)
    if not st["over"]:
        api.call("POST", f"/api/games/{gid}/resign", {}, tokens[st["to_move"]])
    phone.goto(f"{server.url}/game/{gid}#t={','.join(tokens)}")
    phone.wait_for_selector("#end-screen:not([hidden])")
    phone.wait_for_selector(".columba-board")
    w = phone.evaluate(WIDTHS)
    # nothing to tap: the whole territory (and its deciding squares) is in view, no sideways cut
    assert w["scroll"] <= w["client"] + 1, w
    assert not w["scrolls"], w
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(phone, "review17-columba-end-phone")


def test_a_wide_columba_territory_scrolls_visibly_and_keeps_its_place(
        phone: Any, server: ServerProcess, api: Api) -> None:
    def placing(st: dict[str, Any]) -> bool:  # a card to lay, well into the game
        return st["ply"] >= 40 and any(m.startswith("place") for m in st["legal"])

    gid, tokens, st = columba(api, 200, until=placing)
    assert placing(st)
    phone.goto(f"{server.url}/game/{gid}#t={','.join(tokens)}")
    phone.wait_for_function("window.rulebox && window.rulebox.state.legal.length > 0")
    phone.wait_for_selector(".columba-board .cell.hot")
    w = phone.evaluate(WIDTHS)
    assert w["scroll"] > w["client"] + 40, w  # 44 px squares: wider than the phone
    assert w["scrolls"], w
    # the view opens on the squares to tap, not at the territory's left edge
    hot = phone.evaluate(IN_VIEW)
    assert hot > 0
    # an arrow shows each way there is more to see; it scrolls the territory
    phone.evaluate("document.querySelector('.columba-scroll').scrollLeft = 0")
    phone.wait_for_selector(".cb-pan-left", state="hidden")
    phone.wait_for_selector(".cb-pan-right", state="visible")
    phone.tap(".cb-pan-right")
    phone.wait_for_function("document.querySelector('.columba-scroll').scrollLeft > 20")
    phone.wait_for_selector(".cb-pan-left", state="visible")
    # a redraw (another tool chosen) keeps the place the player scrolled to
    phone.evaluate("document.querySelector('.columba-scroll').scrollTo({left: 10000})")
    end = phone.evaluate(WIDTHS)["left"]
    assert end > 40
    phone.wait_for_selector(".cb-pan-right", state="hidden")
    phone.evaluate("document.querySelector('.columba-scroll').dataset.old = '1'")
    tool = phone.locator(".tool-btn:not(.on)")
    if tool.count():
        tool.first.tap()
    else:
        phone.tap("#rot-right")
    phone.wait_for_selector(".columba-scroll:not([data-old])")  # drawn again
    assert abs(phone.evaluate(WIDTHS)["left"] - end) <= 60
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(phone, "review17-columba-scroll-phone")


def test_a_notice_shows_its_rule_as_a_badge_not_inline(page: Any, server: ServerProcess,
                                                       api: Api) -> None:
    g = api.create("countred", ["human", "human"], hotseat=True, seed="5")
    tokens = [s["token"] for s in g["seats"]]

    def has_rule(st: dict[str, Any]) -> bool:
        return any("[" in (e.get("text") or "") and e["kind"] != "move" for e in st["events"])

    st = play_random(api, g["id"], tokens, 300, seed=5, until=has_rule)
    assert has_rule(st), "no notice with a rule ID in 300 plies"
    page.goto(f"{server.url}/game/{g['id']}#t={','.join(tokens)}")
    page.wait_for_selector(".announcement")
    texts = page.locator(".announcement .announcement-text").all_inner_texts()
    assert texts and not any("[" in x for x in texts), texts
    badge = page.locator(".announcement .rule-badge").first
    rule = badge.get_attribute("data-rule")
    assert rule and rule.startswith("CR-"), rule
    assert badge.inner_text() == rule
    badge.click()
    page.wait_for_selector("#rules-dialog[open] .rule-id.wanted")
    assert page.inner_text("#rules-dialog .rule-id.wanted") == rule


def test_a_resignation_has_no_empty_why_button(page: Any, server: ServerProcess,
                                               api: Api) -> None:
    g = api.create("columns", ["human", "human"], hotseat=True)
    tokens = [s["token"] for s in g["seats"]]
    play_random(api, g["id"], tokens, 4, seed=1)
    st = api.call("POST", f"/api/games/{g['id']}/resign", {}, tokens[0])
    assert st["over"] and not st["result"].get("rule")
    page.goto(f"{server.url}/game/{g['id']}#t={','.join(tokens)}")
    page.wait_for_selector("#end-screen:not([hidden])")
    # "Why? The rule" would only repeat the line above it: there is no rule to open
    assert page.locator("#end-rule").count() == 0
    assert page.locator("#end-replay").is_visible()
    # the heading starts with a capital letter ("Dark wins", not "dark wins")
    head = page.inner_text("#end-title")
    assert head[:1].isupper(), head


def test_a_computer_seat_is_labelled_in_the_page_language(page: Any, server: ServerProcess,
                                                          api: Api) -> None:
    # a catalogue that has the words (the real German one is being completed): the label
    # the server sends ("computer (easy)") is said through the catalogue, not shown as sent
    messages = {"computer ({level})": "Computer ({level})", "easy": "leicht",
                "hard": "schwer", "medium": "mittel"}
    page.route("**/api/i18n/de", lambda route: route.fulfill(
        status=200, content_type="application/json",
        body='{"lang": "de", "messages": ' + json.dumps(messages) + "}"))
    g = api.create("countred", ["human", "computer:easy"])
    page.goto(server.url + "/")
    page.evaluate("localStorage.setItem('rulebox.lang', 'de')")
    page.goto(f"{server.url}/game/{g['id']}#t={g['seats'][0]['token']}")
    page.wait_for_selector('.seat-line[data-player="1"] .seat-kind')
    assert page.inner_text('.seat-line[data-player="1"] .seat-kind') == "Computer (leicht)"
    # and the lobby's level choice
    page.click("#home-link")
    page.click('[data-game="countred"]')
    assert page.locator("#level option").all_inner_texts() == ["leicht", "mittel", "schwer"]


def test_a_solitaire_log_numbers_each_move(page: Any, server: ServerProcess, api: Api) -> None:
    g = api.create("36to1", ["human"], seed="3")
    tokens = [g["seats"][0]["token"]]
    st = play_random(api, g["id"], tokens, 3, seed=3)
    assert len(st["log"]) == 1  # the payload: one turn of the one player
    page.goto(f"{server.url}/game/{g['id']}#t={tokens[0]}")
    page.wait_for_selector("#moves .turn")
    # the page: one numbered entry per move (not a single "1." for the whole game)
    assert page.locator("#moves .turn-no").all_inner_texts() == ["1.", "2.", "3."]
    words = page.locator("#moves li").evaluate_all("(xs) => xs.map((x) => x.dataset.words)")
    assert words == st["log"][0]["texts"]
    page.click('#moves li[data-ply="2"]')
    page.wait_for_selector("#replay-bar:not([hidden])")
    page.wait_for_selector('#moves li[data-ply="2"][aria-current="step"]')


def test_the_lobby_game_links_are_44px_on_a_phone(phone: Any, server: ServerProcess,
                                                  api: Api) -> None:
    g = api.create("countred", ["human", "computer:easy"])
    phone.goto(server.url + "/")
    phone.evaluate("([k, v]) => localStorage.setItem(k, v)",
                   [f"rulebox:{g['id']}", json.dumps([g["seats"][0]["token"], None])])
    phone.goto(server.url + "/")
    phone.wait_for_selector(".my-game-link")
    phone.wait_for_selector(".recent-list a")
    small = phone.evaluate("""() => [...document.querySelectorAll('.my-game-link, .recent-list a')]
      .map((a) => a.getBoundingClientRect()).filter((r) => r.height < 44 || r.width < 44)
      .map((r) => [Math.round(r.width), Math.round(r.height)])""")
    assert small == []
    phone.tap(".my-game-link")
    phone.wait_for_url(f"**/game/{g['id']}")


ONE_LINE = """() => [...document.querySelectorAll('.seat-line')].map((line) => {
  const name = line.querySelector('.seat-name').getBoundingClientRect();
  const clock = line.querySelector('.clock').getBoundingClientRect();
  const box = line.getBoundingClientRect();
  return [Math.abs((name.top + name.bottom) / 2 - (clock.top + clock.bottom) / 2) < 8,
          clock.right <= box.right + 1, name.height < 30]; })"""


@pytest.mark.parametrize("size", [(1280, 900), (390, 844)], ids=["desktop", "phone"])
def test_a_seat_with_a_clock_stays_on_one_line(browser: Any, server: ServerProcess, api: Api,
                                               size: tuple[int, int]) -> None:
    g = api.call("POST", "/api/games", {"game": "columns", "seats": ["human", "human"],
                                        "options": {}, "clock": "5+3"})
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]})
    try:
        pg = ctx.new_page()
        pg.goto(f"{server.url}/game/{g['id']}#watch")  # a spectator: "human" beside both
        pg.wait_for_selector('.seat-line.turn .turn-mark')
        pg.wait_for_selector('.clock[data-player="1"]')
        # the seat to move (its "to move" mark too) keeps its clock beside its name, and the
        # name whole (not "ligh t")
        assert pg.evaluate(ONE_LINE) == [[True, True, True], [True, True, True]]
    finally:
        ctx.close()


def test_a_log_entry_tapped_on_a_phone_shows_its_position(phone: Any, server: ServerProcess,
                                                          api: Api) -> None:
    g = api.create("countred", ["human", "human"], hotseat=True, seed="5")
    tokens = [s["token"] for s in g["seats"]]
    play_random(api, g["id"], tokens, 12, seed=5)
    phone.goto(f"{server.url}/game/{g['id']}#t={','.join(tokens)}")
    phone.wait_for_selector('#moves li[data-ply="3"]')
    settle(phone)  # the socket's first state drawn: the log is not redrawn under the tap
    phone.locator('#moves li[data-ply="3"]').scroll_into_view_if_needed()
    assert phone.locator("#status").bounding_box()["y"] < 0  # the board is far above the log
    phone.tap('#moves li[data-ply="3"]')
    phone.wait_for_function("/ 3 /.test(document.getElementById('status').textContent)")
    # the position comes into view (scrolled to), and so are the replay's buttons (at the
    # screen's foot)
    phone.wait_for_function("(() => { const r = document.getElementById('board')"
                            f".getBoundingClientRect(); return r.y < {PHONE['height']} / 2"
                            " && r.y + r.height > 0; })()")
    box = phone.locator("#board").bounding_box()
    assert box["y"] < PHONE["height"] / 2 and box["y"] + box["height"] > 0, box
    bar = phone.locator("#replay-bar").bounding_box()
    assert bar["y"] >= 0 and bar["y"] + bar["height"] <= PHONE["height"] + 1, bar
    phone.tap("#replay-next")
    phone.wait_for_function("/ 4 /.test(document.getElementById('status').textContent)")
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(phone, "review17-replay-phone", keep_mouse=True)


GLYPHS = """(texts) => {
  const font = getComputedStyle(document.querySelector('#replay-first')).font;
  const paint = (s) => { const c = document.createElement('canvas'); c.width = 80; c.height = 40;
    const g = c.getContext('2d'); g.font = font; g.fillText(s, 4, 28);
    return Array.from(g.getImageData(0, 0, 80, 40).data).join(','); };
  const missing = paint('\\u{10FFFD}');  // a private-use character: no font has it
  return texts.map((s) => [...s].map((ch) => paint(ch) !== missing)); }"""


def test_the_replay_buttons_show_their_symbols(page: Any, server: ServerProcess,
                                               api: Api) -> None:
    g = api.create("countred", ["human", "human"], hotseat=True, seed="5")
    tokens = [s["token"] for s in g["seats"]]
    play_random(api, g["id"], tokens, 4, seed=5)
    page.goto(f"{server.url}/game/{g['id']}#t={','.join(tokens)}")
    page.click('#moves li[data-ply="2"]')
    page.wait_for_selector("#replay-bar:not([hidden])")
    ids = ["replay-first", "replay-prev", "replay-next", "replay-last"]
    texts = [page.inner_text(f"#{i}") for i in ids]
    # every character is drawn by a font of this system (no empty boxes for ⏮ and ⏭)
    assert page.evaluate(GLYPHS, texts) == [[True] * len(x) for x in texts], texts
