"""The boards of issue 17 in Chromium: the last turn marked after the computer's move in every
game (and animated, except with reduced motion), the deciding pieces of a finished game, play by
keyboard, and hit areas of at least 44 px on a 390 x 844 phone.

Skipped without ``/usr/bin/chromium`` (see ``conftest``)."""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from rulebox.core.registry import new_game
from rulebox.games.discs.rules import Discs
from rulebox.server.testing import ServerProcess
from tests.web.test_web_boards_faults import open_game, play_api
from tests.web.test_web_games import state
from tests.web.web_helpers import Api, screenshot, settle

TWO_PLAYER = ["columns", "countred", "discs", "columba"]


def human_turn(api: Api, gid: str, token: str, rng: random.Random) -> dict[str, Any]:
    """Seat 0 plays one whole turn through the API: a seeded choice of its main moves, then
    ``end`` where the game has it."""
    st = api.call("GET", f"/api/games/{gid}", token=token)
    while not st["over"] and st["to_move"] == 0 and st["legal"]:
        legal = st["legal"]
        if "end" in legal:
            move = "end"
        else:
            main = [m for m in legal if not m.startswith(("lock", "bar", "unlock", "unbar"))]
            move = rng.choice(main or legal)
        st = api.call("POST", f"/api/games/{gid}/moves", {"move": move, "version": st["version"]},
                      token)
    return st


def expected_marks(game: str, moves: list[str]) -> set[str]:
    """What a board must mark for the turn ``moves``: pins, fields, holes, discs, squares."""
    out: set[str] = set()
    for m in moves:
        if game == "columns":
            out.update(re.findall(r"[a-d][1-3]", m))
        elif game == "countred":
            out.update(m.split("-") if "-" in m else [])
        elif game == "discs":
            if re.fullmatch(r"[a-c][1-3]\.\w+-[a-c][1-3]\.\w+", m):
                out.update(m.split("-"))
            elif re.fullmatch(r"[a-c][1-3][+-]", m):
                out.add(m[:2])
            elif m.startswith(("lock ", "bar ")):
                out.add(m.split(" ", 1)[1])
        elif game == "columba":
            c = re.search(r"(-?\d+),(-?\d+)", m)
            if c:  # a card covers four squares, the rest one
                x, y = int(c.group(1)), int(c.group(2))
                size = 2 if m.startswith("place") else 1
                out.update(f"{x + i},{y + j}" for i in range(size) for j in range(size))
    return out


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    """A page on a 390 x 844 phone; JavaScript errors fail the test."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True,
                              is_mobile=True)
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.set_default_timeout(20_000)
    yield pg
    ctx.close()
    assert not errors, errors


def against_the_computer(page: Any, server: ServerProcess, api: Api, game: str,
                         seed: str = "5", steps: int = 1, turns: int = 4) -> dict[str, Any]:
    """A game of seat 0 against the easy computer, open in ``page``, played (seat 0 through the
    API) until the computer has made a turn the page saw that marks something, with at least
    ``steps`` moves that do (at most ``turns`` turns); returns the page's state."""
    g = api.create(game, ["human", "computer:easy"], seed=seed)
    token = g["seats"][0]["token"]
    page.goto(f"{server.url}/game/{g['id']}#t={token},")
    page.wait_for_selector(".board")
    rng = random.Random(1)
    for _ in range(turns):
        human_turn(api, g["id"], token, rng)
        page.wait_for_function("window.rulebox && window.rulebox.state.ply > 0 && "
                               "(window.rulebox.state.over || window.rulebox.state.to_move === 0)")
        st = state(page)
        last = st.get("last") or {}
        if st["over"] or (last.get("player") == 1 and len(
                [m for m in last["moves"] if expected_marks(game, [m])]) >= steps):
            break
    return state(page)


@pytest.mark.parametrize("game", TWO_PLAYER)
def test_the_computer_turn_is_marked_on_the_board(page: Any, server: ServerProcess, api: Api,
                                                  game: str) -> None:
    st = against_the_computer(page, server, api, game)
    last = st["last"]
    assert last["player"] == 1, last  # the computer's turn
    want = expected_marks(game, last["moves"])
    assert want, last
    marked = set(page.eval_on_selector_all("[data-last]", "ns => ns.map(n => n.dataset.last)"))
    assert marked == want, (last["moves"], marked)


def test_36to1_the_last_move_is_marked(page: Any, server: ServerProcess, api: Api) -> None:
    g = api.create("36to1", ["human"], seed="0")
    play_api(api, g, ["R6:b1", "G5:b3"])
    open_game(page, server, g)
    marked = page.eval_on_selector_all("[data-last]", "ns => ns.map(n => n.dataset.last)")
    assert marked == ["b3"]  # only the last move, though a solitaire's turn is the whole game
    assert "last" in page.get_attribute('[data-cell="b3"]', "class").split()


def test_the_computer_turn_is_stepped_through_unless_motion_is_reduced(
        browser: Any, server: ServerProcess, api: Api) -> None:
    for reduced in (False, True):
        ctx = browser.new_context(viewport={"width": 1180, "height": 860},
                                  reduced_motion="reduce" if reduced else "no-preference")
        page = ctx.new_page()
        page.set_default_timeout(20_000)
        # when each step of the turn starts to move, as the page schedules it: the drawing's
        # clock (the one performance.now() the board reads to time a drawing) plus the
        # element's delay (a turn may come in several states, one per move). The drawing's own
        # clock, not the observer's, so that a slow drawing on a loaded machine is not taken
        # for a restart.
        page.add_init_script("""
            window.__starts = {};
            const clock = performance.now.bind(performance);
            let drawnAt = 0;
            performance.now = () => (drawnAt = clock());
            new MutationObserver(() => {
              for (const n of document.querySelectorAll('.rb-anim')) {
                if (n.__seen) continue;
                n.__seen = 1;
                const at = drawnAt + parseFloat(getComputedStyle(n).animationDelay) * 1000;
                (window.__starts[n.dataset.step] ||= []).push(at);
              }
            }).observe(document, { subtree: true, childList: true });
        """)
        st = against_the_computer(page, server, api, "columba", seed="8", steps=2, turns=8)
        steps = [m for m in st["last"]["moves"] if re.search(r"-?\d+,-?\d+", m)]
        assert len(steps) >= 2, st["last"]  # a card, then a dovecote (or a tile, a falcon)
        # (the state is drawn as it comes; the observer's records are delivered before the
        # page runs anything else, so they are all there now)
        starts = page.evaluate("window.__starts")
        if reduced:
            assert starts == {}
        else:
            assert steps and sorted(starts) == [str(i) for i in range(len(steps))], (steps, starts)
            # a step drawn again (the turn's next state came) goes on, it does not restart
            assert all(max(v) - min(v) < 60 for v in starts.values()), starts
            # one step after another, at least 400 ms apart (a little less for timer jitter)
            at = [min(starts[str(i)]) for i in range(len(steps))]
            assert all(b - a >= 350 for a, b in itertools.pairwise(at)), (steps, at)
        ctx.close()


# A Discs game that ends with a win (seeded random games end drawn): found once with a greedy
# first (the step that brings most own pins onto a disc of a colour it lacks, random.Random(9)
# breaking ties) against a random second, arrangement RRGGBBBRG, second silver on a1 and c3.
# first takes green on a2, red on b1, then blue on b2 with the last move (DSC-6).
DISCS_WIN = [
    "arrange RRGGBBBRG", "choose silver a1c3", "c1.nw-b1.ne", "end", "a1-", "end", "c1.sw-b1.se",
    "end", "c3.se-c2.ne", "end", "a3+", "end", "c3.c-c3.se", "end", "a3.se-a2.ne", "end",
    "c3.ne-c3.c", "end", "a2.ne-a2.c", "end", "a1.ne-a2.se", "end", "a3.c-a3.se", "end",
    "c3.sw-c2.nw", "end", "c1.se-c1.sw", "end", "c3.nw-c3.ne", "end", "a3.sw-a3.c", "end",
    "a1.c-a1.ne", "end", "c1.c-c1.nw", "end", "c3.c-c3.nw", "end", "a3.nw-a3.sw", "end",
    "a1.se-b1.sw", "end", "a3.sw-a2.nw", "end", "b1.sw-a1.se", "end", "a3.se-a2.ne", "end",
    "c2.nw-b2.ne", "end", "a2.nw-a3.sw", "end", "c3.ne-c3.c", "end", "a2.ne-b2.nw", "end",
    "b2.ne-c2.nw", "end", "a3.c-a3.se", "end", "a2+", "end", "c1.nw-b2.se", "end", "c2.nw-c2.sw",
    "end", "a2.c-a2.se", "end", "a1-", "end", "a2.se-b1.nw", "end", "c2.ne-c2.nw", "end",
    "b1.nw-b2.sw"]


def test_DSC_6_discs_highlights_of_the_browser_game() -> None:
    """The won game of the browser test, in Python: the discs of first's three tokens in the
    order earned, then first's pins on the last of them."""
    g = Discs.new({"seed": "3"})
    for m in DISCS_WIN[:-1]:
        g.apply(m)
    assert g.highlights() == [] and g.tokens(0) == "RG"
    g.apply(DISCS_WIN[-1])
    outcome = g.outcome()
    assert outcome is not None and outcome.winners == (0,)
    assert g.highlights() == ["a2", "b1", "b2", "b2.nw", "b2.se", "b2.sw"]


def finished(game: str, options: dict[str, str], seed: int, limit: int) -> list[str]:
    """The moves of a seeded random game of ``game`` played to its end (Discs: DISCS_WIN)."""
    if game == "discs":
        return list(DISCS_WIN)
    rng = random.Random(seed)
    g = new_game(game, dict(options))
    moves: list[str] = []
    while not g.is_terminal() and len(moves) < limit:
        moves.append(g.move_text(rng.choice(g.legal_moves())))
        g.apply(moves[-1])
    assert g.is_terminal()
    return moves


@pytest.mark.parametrize(("game", "options", "seed"), [
    pytest.param(game, options, seed)
    for game, options, seed in [
        ("columns", {}, 0),  # the pins of the winner's roundels on the deciding level
        ("countred", {"seed": "1"}, 4),  # the column of four
        ("columba", {"seed": "8"}, 0),  # the winner's largest estate
        ("36to1", {"seed": "0"}, 0),  # the cubes left
        ("discs", {"seed": "3"}, 0),  # the discs of the winner's tokens, its pins on the last
    ]
])
def test_the_deciding_pieces_are_highlighted_at_the_end(
        page: Any, server: ServerProcess, api: Api, game: str, options: dict[str, str],
        seed: int) -> None:
    moves = finished(game, options, seed, 400)
    local = new_game(game, dict(options))
    for m in moves:
        local.apply(m)
    deciding = set(local.highlights())
    assert deciding
    n = local.num_players
    g = api.create(game, ["human"] * n, hotseat=n > 1, **options)
    play_api(api, g, moves)
    open_game(page, server, g)
    st = state(page)
    assert st["over"] and set(st["result"]["highlight"]) == deciding
    marked = set(page.eval_on_selector_all("[data-decide]", "ns => ns.map(n => n.dataset.decide)"))
    assert marked == deciding
    screenshot(page, f"{game}-end-won-desktop")


def focus_board(page: Any) -> str:
    """Tab from the top of the page until a board item has the focus; returns its key."""
    page.locator("body").focus()
    for _ in range(60):
        page.keyboard.press("Tab")
        key = page.evaluate("document.activeElement && document.activeElement.dataset "
                            "&& document.activeElement.dataset.kb || null")
        if key:
            return str(key)
    raise AssertionError("no board item is reachable by Tab")


def test_columns_a_move_by_keyboard(page: Any, server: ServerProcess, api: Api) -> None:
    g = api.create("columns", ["human", "human"], hotseat=True)
    open_game(page, server, g)
    assert focus_board(page) == "a1"  # one Tab stop for the board, on its first pin
    assert page.get_attribute('[data-pin="a1"]', "aria-label") == "pin a1: empty"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowUp")
    assert page.evaluate("document.activeElement.dataset.pin") == "b2"
    page.keyboard.press("Enter")  # the roundel is the chosen piece
    page.wait_for_function("window.rulebox.state.ply === 1")
    assert state(page)["history"] == ["Rb2"]
    label = page.get_attribute('[data-pin="b2"]', "aria-label")
    assert label.startswith("pin b2: 1 of 5 levels, light roundel on top")
    # the focus stays on the board, where it was
    page.wait_for_function("document.activeElement && document.activeElement.dataset.pin === 'b2'")
    # a double by keyboard: Space on two pins
    page.click('[data-tool="D"]')
    page.focus('[data-pin="c1"]')
    page.keyboard.press(" ")
    page.keyboard.press("ArrowRight")
    page.keyboard.press(" ")
    page.wait_for_function("window.rulebox.state.ply === 2")
    assert state(page)["history"][-1] == "Dc1d1"


def test_countred_a_move_by_keyboard(page: Any, server: ServerProcess, api: Api) -> None:
    g = api.create("countred", ["human", "human"], hotseat=True, seed="4")
    open_game(page, server, g)
    focus_board(page)
    move = sorted(m for m in state(page)["legal"] if "-" in m)[0]
    src, dst = move.split("-")

    def walk_to(field: str) -> None:
        here = page.evaluate("document.activeElement.dataset.field")
        cols = "ABCD"
        dx = cols.index(field[0]) - cols.index(here[0])
        dy = int(field[1]) - int(here[1])
        for _ in range(abs(dx)):
            page.keyboard.press("ArrowRight" if dx > 0 else "ArrowLeft")
        for _ in range(abs(dy)):
            page.keyboard.press("ArrowUp" if dy > 0 else "ArrowDown")
        assert page.evaluate("document.activeElement.dataset.field") == field

    walk_to(src)
    label = page.get_attribute(f'[data-field="{src}"]', "aria-label")
    assert re.fullmatch(rf"{src}: a (red|black) \d", label), label
    page.keyboard.press("Enter")
    page.wait_for_selector(f'[data-field="{src}"].chosen')
    walk_to(dst)
    page.keyboard.press("Enter")
    page.wait_for_function("window.rulebox.state.ply === 1")
    assert state(page)["history"] == [move]


HIT_TARGETS = {
    "columns": "[data-pin]",
    "countred": "[data-field]",
    "36to1": "[data-cell]",
    "discs": "[data-hole] .hit-area",
    "columba": ".columba-board .cell.hot",
}


@pytest.mark.parametrize("game", sorted(HIT_TARGETS))
def test_hit_areas_are_at_least_44_px_on_a_phone(phone: Any, server: ServerProcess, api: Api,
                                                 game: str) -> None:
    n = 1 if game == "36to1" else 2
    g = api.create(game, ["human"] * n, hotseat=n > 1, seed="3")
    if game == "discs":  # past the set-up: the pins are on the board
        play_api(api, g, ["arrange RGBGBRBRG", "choose silver a1c3"])
    open_game(phone, server, g)
    phone.wait_for_selector(HIT_TARGETS[game])
    settle(phone)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways page
    sizes = phone.eval_on_selector_all(
        HIT_TARGETS[game],
        "ns => ns.map(n => { const r = n.getBoundingClientRect(); return [r.width, r.height]; })")
    assert len(sizes) >= 9
    smallest = min(min(w, h) for w, h in sizes)
    assert smallest >= 44, (game, smallest)
    # the board's buttons too
    buttons = phone.eval_on_selector_all(
        "#controls button:not([hidden])",
        "ns => ns.filter(n => n.offsetParent).map(n => n.getBoundingClientRect().height)")
    assert all(h >= 44 for h in buttons), buttons


def test_discs_a_pin_moved_by_keyboard(page: Any, server: ServerProcess, api: Api) -> None:
    g = api.create("discs", ["human", "human"], hotseat=True, seed="3")
    play_api(api, g, ["arrange RGBGBRBRG", "choose silver a1c3"])  # first holds a3 and c1
    open_game(page, server, g)
    assert "c1.nw-b1.ne" in state(page)["legal"]  # along the line to the west
    focus_board(page)
    page.focus('[data-hole="c1.nw"]')
    assert page.get_attribute('[data-hole="c1.nw"]', "aria-label") == (
        "hole c1.nw: a black pin of first")
    page.keyboard.press("Enter")
    page.wait_for_selector('[data-hole="c1.nw"].chosen')
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("document.activeElement.dataset.hole") == "b1.ne"
    assert page.get_attribute('[data-hole="b1.ne"]', "aria-label") == "hole b1.ne: empty"
    page.keyboard.press("Enter")
    page.wait_for_function("window.rulebox.state.ply === 3")
    assert state(page)["history"][-1] == "c1.nw-b1.ne"
    # the turn ends by its button, reached with Tab
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.dataset.move") == "end":
            break
    page.keyboard.press("Enter")
    page.wait_for_function("window.rulebox.state.ply === 4")
    assert state(page)["history"][-1] == "end"
