"""The board faults of issue 17, each in a real browser: Columns' "no place" piece and its
impossible first pin, Columba's ghost card at load, its touch preview and its -4, Discs' seat
colours, 36 to 1's prompt when only discarding is possible.

Positions are reached by playing fixed moves through the API (Columns has no chance; 36 to 1 and
Discs are seeded). Skipped without ``/usr/bin/chromium`` (see ``conftest``)."""

from __future__ import annotations

from typing import Any

from rulebox.core.registry import new_game
from rulebox.server.testing import ServerProcess
from tests.web.test_web_games import open_hotseat, state
from tests.web.web_helpers import Api, settle

# 29 plies of Columns after which light (to move) still holds triple blockers, but none fits
# anywhere (COL-7): its triple buttons must say "no place" and refuse to be chosen
COLUMNS_NO_TRIPLE = (
    "Da2a3 Rb1 Dd2d3 Rb2 Rd2 Sc1 Ra2 Rb2 Rd2 Db1c1 Sb3 Rd1 Sd3 Tb1b2^ Dc2c3 Sa2 Sb2 Sa3 Ta2b2v "
    "Rc1 Td3d2v Rc1 Rd1 Db1c1 Rc3 Rc3 Tc3d3v Tb3a3v Rc2"
).split()

# 36 to 1, seed 0: after these 27 moves no face-up card can remove a cube (S36-3): discard only
S36_DISCARD_ONLY = (
    "R6:b1 G5:b3 R2:c1 G3:c6 W3:d6 K4:c5 Y6:c2 R1:a1 G2:b4 W4:d3 K5:e6 W5:e4 R4:d1 Y5:b2 Y1:a3 "
    "K3:a5 R3:c4 K6:f4 G6:f3 B6:f6 K2:b6 Y3:f2 G1:e3 K1:e5 Y2:d2 W6:f1 B3:d4"
).split()


def play_api(api: Api, g: dict[str, Any], moves: list[str]) -> None:
    """Play ``moves`` through the API, each by the seat to move (hot-seat tokens)."""
    tokens = [s["token"] for s in g["seats"]]
    for move in moves:
        st = api.call("GET", f"/api/games/{g['id']}", token=tokens[0])
        api.call("POST", f"/api/games/{g['id']}/moves", {"move": move},
                 tokens[st["to_move"]])


def open_game(page: Any, server: ServerProcess, g: dict[str, Any]) -> None:
    tokens = ",".join(s["token"] for s in g["seats"])
    page.goto(f"{server.url}/game/{g['id']}#t={tokens}")
    page.wait_for_selector(".board")
    page.wait_for_function("window.rulebox && (window.rulebox.state.over || "
                           "window.rulebox.state.legal.length > 0)")


# --- Columns -------------------------------------------------------------------------------------

def test_columns_a_piece_with_no_place_cannot_be_chosen(page: Any, server: ServerProcess,
                                                        api: Api) -> None:
    local = new_game("columns", {})
    for m in COLUMNS_NO_TRIPLE:
        local.apply(m)
    p = local.current_player()
    assert local.view(p)["left"][p]["T"] > 0  # triples in stock ...
    assert not [m for m in local.legal_moves() if local.move_text(m)[0] == "T"]  # ... none fits
    g = api.create("columns", ["human", "human"], hotseat=True)
    play_api(api, g, COLUMNS_NO_TRIPLE)
    open_game(page, server, g)
    for tool in ("T^", "Tv"):
        button = page.locator(f'[data-tool="{tool}"]')
        assert "no place" in button.inner_text()
        assert button.is_disabled()
        button.click(force=True)  # even a forced click does not choose it
        assert "on" not in (page.get_attribute(f'[data-tool="{tool}"]', "class") or "").split()
    assert page.locator('[data-tool="R"]').is_enabled()


def test_columns_an_impossible_first_pin_is_refused_at_the_first_click(
        page: Any, server: ServerProcess, api: Api) -> None:
    # after Ta3b3^ (a3 two high, b3 one high) no double may have an end on a3 or b3 (COL-6)
    g = api.create("columns", ["human", "human"], hotseat=True)
    play_api(api, g, ["Ta3b3^"])
    open_game(page, server, g)
    assert not any("a3" in m for m in state(page)["legal"] if m.startswith("D"))
    page.click('[data-tool="D"]')
    page.click('[data-pin="a3"]')
    toast = page.locator("#toast")
    toast.wait_for(state="visible")
    assert "a3" in toast.inner_text() and "[COL-6]" in toast.inner_text()
    assert page.locator(".pin.chosen").count() == 0  # not taken as the first end
    assert state(page)["ply"] == 1
    # a possible first pin is still taken, and the double completes
    page.click('[data-pin="c1"]')
    assert page.get_attribute('[data-pin="c1"]', "class").split().count("chosen") == 1
    page.click('[data-pin="d1"]')
    page.wait_for_function("window.rulebox.state.ply === 2")
    assert state(page)["history"][-1] == "Dc1d1"


# --- Columba -------------------------------------------------------------------------------------

def test_columba_no_ghost_card_where_the_mouse_was_at_load(page: Any,
                                                          server: ServerProcess) -> None:
    # the mouse clicks Start and stays there; the board is drawn under it
    page.goto(server.url + "/")
    page.click('[data-game="columba"]')
    page.click('[data-mode="hotseat"]')
    page.click("#start")
    page.wait_for_selector("#rot-label")
    page.wait_for_selector(".columba-board .cell.hot")
    # the card faces have loaded and the board is drawn again with them (the card in hand)
    page.wait_for_function("document.querySelectorAll('.hand .mini-card rect').length === 5")
    assert page.locator(".ghost rect").count() == 0
    # a mouse that moves over the board does bring the card along
    target = next(m for m in state(page)["legal"] if m.startswith("place")).split()[1]
    page.hover(f'[data-cell="{target}"]')
    page.wait_for_selector(".ghost rect")
    assert page.locator(".ghost rect").count() >= 4


def test_columba_on_touch_the_first_tap_previews_and_the_second_places(
        browser: Any, server: ServerProcess, api: Api) -> None:
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True,
                              is_mobile=True)
    page = ctx.new_page()
    page.set_default_timeout(20_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        open_hotseat(page, server, api, "columba", 2, seed="8")
        page.wait_for_selector("#rot-label")
        page.wait_for_selector(".columba-board .cell.hot")
        page.wait_for_function("document.querySelectorAll('.hand .mini-card rect').length === 5")
        settle(page)
        legal = state(page)["legal"]
        rot = page.inner_text("#rot-label")
        move = next(m for m in legal if m.startswith("place") and m.endswith(rot))
        square = move.split()[1]
        page.tap(f'[data-cell="{square}"]')
        # a preview, not a move: the card shows where it would land, with a Place button
        page.wait_for_selector(f'.ghost.preview [data-ghost="{square}"]')
        assert page.locator(".ghost.preview rect").count() >= 4
        assert state(page)["ply"] == 0
        assert page.is_visible("#place-btn")
        # the second tap on the previewed card lays it there
        page.tap(f'[data-cell="{square}"]')
        page.wait_for_function("window.rulebox.state.ply === 1")
        assert state(page)["history"] == [move]
        # the turn ends; the next player's card: a preview, then the Place button
        while not any(m.startswith("place") for m in state(page)["legal"]):
            ply = state(page)["ply"]
            word = next(w for w in ("nogoal", "end") if w in state(page)["legal"])
            page.tap(f'[data-move="{word}"]')
            page.wait_for_function(f"window.rulebox.state.ply > {ply}")
        ply = state(page)["ply"]
        page.wait_for_selector(".columba-board .cell.hot")
        rot = page.inner_text("#rot-label")
        move = next(m for m in state(page)["legal"] if m.startswith("place") and m.endswith(rot))
        page.tap(f'[data-cell="{move.split()[1]}"]')
        page.wait_for_selector("#place-btn")
        assert state(page)["ply"] == ply
        page.tap("#place-btn")
        page.wait_for_function(f"window.rulebox.state.ply === {ply + 1}")
        assert state(page)["history"][-1] == move
    finally:
        ctx.close()
    assert not errors, errors


def test_columba_the_minus_four_at_the_start_says_why(page: Any, server: ServerProcess,
                                                      api: Api) -> None:
    # CB-11: an objective not completed costs 4 points; every player starts with one
    open_hotseat(page, server, api, "columba", 2, seed="8")
    page.wait_for_selector(".cb-player")
    for p in (0, 1):
        player = page.locator(f'.cb-player[data-player="{p}"]')
        assert "-4 points" in player.inner_text()  # a count through tn() (issue 23)
        why = player.locator('[data-why="objective"]')
        assert why.is_visible() and "objective" in why.inner_text()
        assert "CB-11" in (why.get_attribute("title") or "")


# --- Discs ---------------------------------------------------------------------------------------

def test_discs_seat_dots_wear_the_colours_of_their_pins(page: Any, server: ServerProcess,
                                                        api: Api) -> None:
    g = api.create("discs", ["human", "human"], hotseat=True, seed="3")
    play_api(api, g, ["arrange RGBGBRBRG", "choose silver a1c3"])  # second takes silver
    open_game(page, server, g)
    assert state(page)["view"]["position"]["silver"] == 1

    def dot(p: int) -> str:
        return str(page.evaluate(
            f"getComputedStyle(document.querySelector('.seat-line[data-player=\"{p}\"] "
            f".seat-dot')).backgroundImage + ' ' + getComputedStyle(document.querySelector("
            f"'.seat-line[data-player=\"{p}\"] .seat-dot')).backgroundColor"))

    silver, black = dot(1), dot(0)
    assert "141, 150, 163" in silver and "255, 255, 255" in silver  # the silver pin's gradient
    assert "11, 11, 11" in black  # the black pin's
    for d in (silver, black):  # not the cream and blue of other games' seats
        assert "232, 200, 114" not in d and "44, 74, 134" not in d
    stocks = page.inner_text("#controls .stocks")
    assert "(black)" in stocks and "(silver)" in stocks


# --- 36 to 1 -------------------------------------------------------------------------------------

def test_36to1_only_discarding_left_asks_for_a_discard(page: Any, server: ServerProcess,
                                                       api: Api) -> None:
    g = api.create("36to1", ["human"], seed="0")
    play_api(api, g, S36_DISCARD_ONLY)
    open_game(page, server, g)
    legal = state(page)["legal"]
    assert legal and all(m.endswith(":x") for m in legal)
    hint = page.inner_text("#hint")
    assert "Choose a face-up card" not in hint
    assert "discard" in hint.lower()
    assert page.locator("[data-discard]").count() == len(legal)
