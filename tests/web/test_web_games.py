"""The other games in the browser: a few turns of each by clicking (hot-seat, so one page plays
every seat), checking what the page shows; and no hidden information reaches the page."""

from __future__ import annotations

import contextlib
import json
import random
import re
from collections.abc import Callable
from typing import Any

import pytest

from rulebox.core.registry import game_ids, new_game
from rulebox.server.testing import ServerProcess
from tests.web.web_helpers import Api, screenshot


def state(page: Any) -> dict[str, Any]:
    return page.evaluate("window.rulebox && window.rulebox.state")


def open_hotseat(page: Any, server: ServerProcess, api: Api, game: str, n: int,
                 **options: str) -> dict[str, Any]:
    g = api.create(game, ["human"] * n, hotseat=n > 1, **options)
    tokens = ",".join(s["token"] for s in g["seats"])
    page.goto(f"{server.url}/game/{g['id']}#t={tokens}")
    page.wait_for_selector(".board")
    page.wait_for_function("window.rulebox && (window.rulebox.state.over || "
                           "window.rulebox.state.legal.length > 0)")
    return g


def play_turns(page: Any, plies: int, choose: Callable[[list[str], random.Random], str],
               click: Callable[[Any, str], None], shot: str, seed: int = 1) -> list[str]:
    """Make ``plies`` moves by clicking; each must show up in the page's move list."""
    rng = random.Random(seed)
    played = []
    for i in range(plies):
        st = state(page)
        if st["over"]:
            break
        move = choose(st["legal"], rng)
        ply = st["ply"]
        click(page, move)
        page.wait_for_function(f"window.rulebox.state.ply > {ply}")
        page.wait_for_function("window.rulebox.state.over || window.rulebox.state.legal.length")
        st = state(page)
        assert st["history"][ply] == move, (move, st["history"][ply:])
        assert page.locator("#moves li").nth(ply).inner_text() == move
        played.append(move)
        if i == plies // 2:
            screenshot(page, shot)
    return played


# --- Count Red ---------------------------------------------------------------------------------

def countred_click(page: Any, move: str) -> None:
    if move == "claim":
        page.click('[data-move="claim"]')
        return
    src, dst = move.split("-")
    page.click(f'[data-field="{src}"]')
    page.click(f'[data-field="{dst}"]')


def test_countred_turns_by_clicking(page: Any, server: ServerProcess, api: Api) -> None:
    open_hotseat(page, server, api, "countred", 2, seed="4")
    assert page.locator("[data-field]").count() == 16
    assert "counts" in page.inner_text("#controls")
    played = play_turns(page, 8, lambda legal, rng: rng.choice([m for m in legal if m != "claim"]),
                        countred_click, "countred")
    assert len(played) >= 4
    # an illegal attempt (a field that does not glow) is explained with its rule
    st = state(page)
    if not st["over"]:
        sources = {m.split("-")[0] for m in st["legal"] if "-" in m}
        dead = [f for f in (c + r for c in "ABCD" for r in "1234") if f not in sources
                and st["view"]["position"]["fields"].get(f)]
        if dead:
            page.click(f'[data-field="{dead[0]}"]')
            page.click(f'[data-field="{"A1" if dead[0] != "A1" else "B1"}"]')
            toast = page.locator("#toast")
            toast.wait_for(state="visible")
            assert re.search(r"\[CR-\d+\]", toast.inner_text())
            assert state(page)["ply"] == st["ply"]
            # and the game's explanation of that attempt shows under the board
            page.wait_for_selector("#explain:not([hidden])")
            assert "illegal" in page.inner_text("#explain")


# --- 36 to 1 -----------------------------------------------------------------------------------

def s36_click(page: Any, move: str) -> None:
    card, cell = move.split(":")
    if cell == "x":
        page.click(f'[data-discard="{card}"]')
        return
    page.click(f'[data-card="{card}"]')
    page.click(f'[data-cell="{cell}"]')


def test_36to1_turns_by_clicking_and_no_deck_order_reaches_the_page(
    page: Any, server: ServerProcess, api: Api
) -> None:
    frames: list[str] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(
        payload if isinstance(payload, str) else payload.decode())))
    bodies: list[str] = []

    def keep(resp: Any) -> None:
        if "/api/" in resp.url and "json" in (resp.headers.get("content-type") or ""):
            with contextlib.suppress(Exception):  # a body gone with a navigation
                bodies.append(resp.text())

    page.on("response", keep)
    seed = "987654"
    open_hotseat(page, server, api, "36to1", 1, seed=seed)
    assert page.locator("[data-cell]").count() == 36
    assert page.inner_text("#cubes-left") == "36"
    played = play_turns(page, 6, lambda legal, rng: rng.choice(legal), s36_click, "36to1")
    local = new_game("36to1", {"seed": seed})
    full_order = json.dumps(local.position_json()["pile"])
    for text in played:
        local.apply(text)
    assert state(page)["view"] == local.view(0)
    assert page.inner_text("#cubes-left") == str(local.view(0)["cubes_left"])
    pile_now = json.dumps(local.position_json()["pile"])
    seen = frames + bodies
    assert frames, "no WebSocket message was received"
    for msg in seen:
        assert seed not in msg
        assert full_order[1:-1] not in msg and pile_now[1:-1] not in msg


# --- Discs -------------------------------------------------------------------------------------

def _orthogonal(line: str) -> bool:
    a, b = (h.split(".")[0] for h in line.split("-"))
    return (a[0] == b[0]) != (a[1] == b[1])


def discs_choose(legal: list[str], rng: random.Random) -> str:
    for prefix in ("arrange", "choose"):
        options = [m for m in legal if m.startswith(prefix)]
        if options:
            return options[0] if prefix == "arrange" else rng.choice(options)
    main = [m for m in legal if re.fullmatch(r"[a-c][1-3](\.\w+-[a-c][1-3]\.\w+|[+-])", m)]
    if main:
        return rng.choice(main)
    extras = [m for m in legal if m.startswith("lock ")
              or (m.startswith("bar ") and _orthogonal(m[4:]))]
    if extras and rng.random() < 0.5:
        return rng.choice(extras)
    return "end" if "end" in legal else rng.choice(legal)


def discs_click(page: Any, move: str) -> None:
    if move.startswith("arrange"):
        # the page starts from RGBGBRBRG; click discs to reach the wanted layout
        want = move.split()[1]
        have = list("RGBGBRBRG")
        order = ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"]
        for i, d in enumerate(order):
            while have[i] != want[i]:
                page.click(f'[data-disc="{d}"]', position={"x": 30, "y": 60})
                have[i] = {"R": "G", "G": "B", "B": "R"}[have[i]]
        page.click("#arrange-btn")
    elif move.startswith("lock "):
        page.click(f'[data-hole="{move[5:]}"]')
    elif move.startswith("bar "):
        page.click(f'[data-line="{move[4:]}"]')
    elif "-" in move and "." in move:
        a, b = move.split("-")
        page.click(f'[data-hole="{a}"]')
        page.click(f'[data-hole="{b}"]')
    else:
        page.click(f'[data-move="{move}"]')


def test_discs_setup_and_turns_by_clicking(page: Any, server: ServerProcess, api: Api) -> None:
    open_hotseat(page, server, api, "discs", 2, seed="3")
    assert page.locator("[data-disc]").count() == 9
    played = play_turns(page, 14, discs_choose, discs_click, "discs", seed=5)
    assert played[0].startswith("arrange") and played[1].startswith("choose")
    assert "end" in played
    assert page.locator(".pin").count() == 20


# --- Columba -----------------------------------------------------------------------------------

def columba_choose(legal: list[str], rng: random.Random) -> str:
    places = [m for m in legal if m.startswith("place")]
    if places:
        return rng.choice(places)
    cotes = [m for m in legal if m.startswith("cote")]
    if cotes and rng.random() < 0.7:
        return rng.choice(cotes)
    for word in ("goal", "end"):
        if word in legal:
            return word
    return rng.choice(legal)


def columba_click(page: Any, move: str) -> None:
    words = move.split()
    if words[0] == "place":
        rot = words[2]
        for _ in range(4):
            if page.inner_text("#rot-label") == rot:
                break
            page.click("#rot-right")
        page.click(f'[data-cell="{words[1]}"]')
    elif re.search(r"-?\d+,-?\d+", move):
        prefix = " ".join(words[:-1])
        page.click(f'[data-tool="{prefix}|"]')
        page.click(f'[data-cell="{words[-1]}"]')
    else:
        page.click(f'[data-move="{move}"]')


def test_columba_turns_by_clicking(page: Any, server: ServerProcess, api: Api) -> None:
    frames: list[str] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(
        payload if isinstance(payload, str) else payload.decode())))
    open_hotseat(page, server, api, "columba", 2, seed="8")
    deck = new_game("columba", {"seed": "8"}).position_json()["deck"]
    page.wait_for_selector("#rot-label")
    target = state(page)["legal"][0].split()[1]
    page.hover(f'[data-cell="{target}"]')  # the card in hand follows the mouse
    assert page.locator(".ghost rect").count() >= 4
    screenshot(page, "columba-place", keep_mouse=True)
    played = play_turns(page, 10, columba_choose, columba_click, "columba", seed=2)
    assert any(m.startswith("place") for m in played) and "end" in played
    assert page.locator(".cb-player").count() == 2
    # the deck's order never reaches the page (three cards in a row would give it away)
    assert frames
    for i in range(len(deck) - 2):
        run = json.dumps(deck[i:i + 3])[1:-1]
        assert all(run not in f for f in frames)
    assert all('"8"' not in f and "seed" not in f for f in frames)


@pytest.mark.parametrize("game_id", game_ids())
def test_every_game_starts_from_the_lobby(page: Any, server: ServerProcess, game_id: str) -> None:
    page.goto(server.url + "/")
    page.click(f'[data-game="{game_id}"]')
    if page.locator('[data-mode="computer"]').count():
        page.click('[data-mode="computer"]')
        page.select_option("#level", "easy")
    if page.locator("#players").count():
        page.select_option("#players", page.locator("#players option").last.get_attribute("value"))
    page.click("#start")
    page.wait_for_selector(".board")
    page.wait_for_function("window.rulebox && window.rulebox.state.id")
    st = state(page)
    assert st["game"] == game_id and st["you"] is not None
    # the rules of the game are at hand
    page.click("#rules-btn")
    page.wait_for_selector("#rules-dialog[open]")
    page.wait_for_function("document.querySelector('#rules-body h2, #rules-body h3, "
                           "#rules-body p') !== null")


CR_BONUS = (
    "C3-B4 D2-B1 D4-B2 C1-D1 A1-A3 B1-C4 B4-C3 D1-B1 B2-C3 B4-D1 A4-D3 D1-A2 C2-D1 A2-D4 "
    "C3-B4 A2-D2 "
).split()


def test_countred_bonus_move_is_announced_in_the_browser(
    page: Any, server: ServerProcess, api: Api
) -> None:
    """CR-10: the table's announcement (the terminal prints it) shows above the board."""
    open_hotseat(page, server, api, "countred", 2, seed="1", even="0", first="0",
                 stack_lift="free")
    assert page.locator("#announcements li").count() == 0
    for ply, move in enumerate(CR_BONUS):
        countred_click(page, move)
        page.wait_for_function(f"window.rulebox.state.ply > {ply}")
    page.wait_for_selector('#announcements li[data-kind="bonus_move"]')
    li = page.locator('#announcements li[data-kind="bonus_move"]').last
    assert "D1, D2, D3 are locked; second earns a bonus move" in \
        li.locator(".announcement-text").inner_text()
    assert li.locator('.rule-badge[data-rule="CR-10"]').count() == 1  # the rule as a badge
    screenshot(page, "countred-announcement")


def test_resign_from_the_page_ends_the_game(page: Any, server: ServerProcess, api: Api) -> None:
    """The table's resignation through the browser: the other side wins, and it is said."""
    g = api.create("columns", ["human", "computer:easy"], seed="2")
    page.goto(f"{server.url}/game/{g['id']}#t={g['seats'][0]['token']},")
    page.wait_for_selector(".board")
    page.wait_for_function("window.rulebox && window.rulebox.state.legal.length > 0")
    page.on("dialog", lambda d: d.accept())
    page.click("#resign-btn")
    page.wait_for_function("window.rulebox.state.over")
    st = state(page)
    assert st["result"]["how"] == "resigned" and st["result"]["winners"] == [1]
    # the end is announced once (issue 28): on the end screen, not again as a notice
    page.wait_for_selector("#end-screen", state="visible")
    assert "resign" in page.inner_text("#end-screen").lower()
    assert "resigns" not in page.inner_text("#announcements")
    assert page.locator("#resign-btn").is_hidden()
