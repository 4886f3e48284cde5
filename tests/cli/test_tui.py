"""The full-screen game driven by Textual's pilot at 80x24, for every game: a move, an illegal
move, undo, the help panel and the end screen."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual.widgets import Input, Static

from rulebox.cli.saves import Autosave
from rulebox.cli.seats import make_seats
from rulebox.cli.text import goal
from rulebox.core.registry import game_entry
from rulebox.match.records import load_record
from rulebox.match.table import Table
from rulebox.tui.app import EndScreen, GameApp, MoveLog, Question

GAMES = [("columns", {}), ("countred", {}), ("discs", {}), ("36to1", {}), ("columba", {}),
         ("columba", {"variant": "kids"})]
HELP_LINES = 30
"""The help panel's bound: a screenful, never hundreds of lines."""


def make_table(game_id: str, options: dict[str, str], seats: list[str] | None = None) -> Table:
    game = game_entry(game_id).cls.new({"seed": "3", **options})
    specs = seats if seats is not None else [f"{p}=random" for p in range(1, game.num_players)]
    return Table(game, make_seats(game.id, game.num_players, specs, 0.05), seed=7)


async def settle(app: GameApp, pilot: object, limit: float = 20.0) -> None:
    """Wait until the computer has moved and the screen is quiet."""
    waited = 0.0
    while app.thinking is not None and waited < limit:
        await pilot.pause(0.05)  # type: ignore[attr-defined]
        waited += 0.05
    await pilot.pause()  # type: ignore[attr-defined]


async def enter(app: GameApp, pilot: object, line: str) -> None:
    app.query_one("#cmd", Input).value = line
    await pilot.press("enter")  # type: ignore[attr-defined]
    await settle(app, pilot)


def log_text(app: GameApp) -> str:
    """The move log, its wrapped lines joined into one line of words."""
    return " ".join(" ".join(e.plain for e in app.query_one("#log", MoveLog).entries).split())


def screen_lines(app: GameApp) -> list[str]:
    """The screen as the player sees it, line by line (the compositor's strips)."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def shown(app: GameApp, selector: str) -> str:
    """The part of the screen a widget covers, as text (what of it is in view)."""
    region = app.query_one(selector).region
    lines = screen_lines(app)
    return "\n".join(line[region.x:region.right].rstrip()
                     for line in lines[region.y:region.bottom])


def message(app: GameApp) -> str:
    """The message line, its wrapped lines joined."""
    return " ".join(shown(app, "#msg").split())


@pytest.mark.parametrize(("game_id", "options"), GAMES, ids=lambda v: str(v))
def test_full_screen_move_illegal_undo_help_and_resign(
        game_id: str, options: dict[str, str], tmp_path: Path) -> None:
    table = make_table(game_id, options)
    auto = Autosave(tmp_path)

    async def drive() -> None:
        app = GameApp(table, time=0.05, autosave=auto)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            # a move: the log says it, the status names it as the last move
            move = str(table.game.legal_moves()[0])
            before = len(table.game.history)
            await enter(app, pilot, move)
            assert [str(m) for m in table.game.history][before] == move
            assert f"plays {move}" in log_text(app)
            assert "last:" in str(app.query_one("#status", Static).render())
            # an illegal move: refused, said on the message line, nothing changed
            n = len(table.game.history)
            await enter(app, pilot, "zz9")
            assert len(table.game.history) == n
            assert "zz9" in message(app)
            # undo: back to before the move
            await enter(app, pilot, "undo")
            assert len(table.game.history) == before
            assert "took back" in log_text(app)
            # help: a short panel with the goal, commands that work here, the moves grouped
            await enter(app, pilot, "?")
            assert app.query_one("#help").display
            helptext = "\n".join(app.panel)
            assert len(helptext.splitlines()) <= HELP_LINES
            assert goal(table.game) in helptext
            assert ("explain" in helptext) == (game_entry(game_id).explain is not None)
            assert ("draw " in helptext) == (table.game.num_players == 2)
            await pilot.press("escape")
            assert not app.query_one("#help").display
            # resign asks first; yes ends the game on the end screen with one message
            await enter(app, pilot, "resign")
            assert isinstance(app.screen, Question)
            await pilot.press("y")
            await pilot.pause()
            assert isinstance(app.screen, EndScreen)
            assert "resigns" in app.screen.message
            await pilot.press("q")
        assert app.result and "resigns" in app.result[0]

    asyncio.run(drive())
    assert table.ending is not None and table.ending.how == "resigned"
    saved = load_record(tmp_path / "last.json")  # saved as it went
    assert saved.game == game_id and saved.ending is not None


COLUMNS_TO_THE_END = (
    "Ta3b3^ Tc3b3v Td2d3^ Db1c1 Ra2 Sc3 Tc2c1v Tc2d2^ Sc2 Tb3a3^ Rc1 Sc3 Sc3 Sd3 Sd3 Rb1 "
    "Rb1 Rb2 Rb1 Ra2 Rc1 Rd2 Rb1 Rb3 Ra1 Rd1 Ra1 Rd1 Da1a2 Rd2 Ra1 Rb2 Rc1 Rb2 Rd3 Da2a3 "
    "Rb2 Da2b2"
).split()


def test_full_screen_game_to_the_end_by_the_rules() -> None:
    """Two people at one screen play Columns to its end: the end screen says who won, once."""
    game = game_entry("columns").cls.new({"seed": "0"})
    table = Table(game, make_seats("columns", 2, ["1=human"], 0.05), seed=1)

    async def drive() -> list[str]:
        app = GameApp(table)
        async with app.run_test(size=(80, 24)) as pilot:
            for move in COLUMNS_TO_THE_END:
                await enter(app, pilot, move)
            assert isinstance(app.screen, EndScreen)
            end = app.screen.message
            assert end.count("wins") == 1 and "Game over" not in end
            await pilot.press("q")
        return app.result

    result = asyncio.run(drive())
    assert table.ending is not None and table.ending.how == "rules"
    assert len(result) == 1 and "wins" in result[0]


def test_quit_asks_and_no_keeps_playing() -> None:
    table = make_table("columns", {})

    async def drive() -> None:
        app = GameApp(table)
        async with app.run_test(size=(80, 24)) as pilot:
            await enter(app, pilot, "quit")
            assert isinstance(app.screen, Question)
            await pilot.press("n")
            await pilot.pause()
            assert not isinstance(app.screen, Question)
            await enter(app, pilot, "Ra1")
            assert len(table.game.history) >= 1
            await pilot.press("ctrl+c")  # asks (a notice); a second one leaves
            await pilot.pause()
            assert app.is_running
            await pilot.press("ctrl+c")
            await pilot.pause()

    asyncio.run(drive())
    assert table.ending is None


def test_the_last_move_is_marked_on_the_board() -> None:
    table = make_table("countred", {}, seats=["1=human"])

    async def drive() -> None:
        app = GameApp(table)
        async with app.run_test(size=(80, 24)) as pilot:
            await enter(app, pilot, "A1-B2")
            board = app.drawing()
            marked = {board.plain[s.start:s.end] for s in board.spans
                      if "reverse" in str(s.style)}
            assert marked and any("r" in m or "3" in m for m in marked)

    asyncio.run(drive())


def test_a_whole_turn_is_marked_columba() -> None:
    """Columba's turn is several moves (place, cote, end): the board marks all it changed."""
    from rulebox.cli.board import last_turn, marked

    game = game_entry("columba").cls.new({"seed": "2"})
    table = Table(game, make_seats("columba", 2, ["1=human"], 0.05), seed=1)
    for move in ("place -1,0 r0", "end"):
        table.play(None, move)
    assert last_turn(table.movers) == 2
    board = marked(game, None, last_turn(table.movers))
    spans = [board.plain[s.start:s.end] for s in board.spans if "reverse" in str(s.style)]
    assert {"W", "B", "K"} <= set(spans)  # the pigeons of the card just laid
    assert "-" not in spans and "2" not in spans  # not the labels, though the drawing moved
    assert len(spans) <= 12


def test_clicks_on_the_board_write_the_cells() -> None:
    """Count Red: click A1, then B2, then Enter plays A1-B2."""
    table = make_table("countred", {}, seats=["1=human"])

    async def drive() -> None:
        app = GameApp(table)
        async with app.run_test(size=(80, 24)) as pilot:
            lines = app.drawing().plain.split("\n")
            row1 = next(i for i, line in enumerate(lines) if line.startswith("  1 |"))
            row2 = next(i for i, line in enumerate(lines) if line.startswith("  2 |"))
            a = lines[0].index("A")
            b = lines[0].index("B")
            await pilot.click("#board", offset=(a, row1))
            await pilot.click("#board", offset=(b, row2))
            assert app.query_one("#cmd", Input).value == "A1-B2"
            await pilot.press("enter")
            await pilot.pause()

    asyncio.run(drive())
    assert [str(m) for m in table.game.history] == ["A1-B2"]


def test_cell_under_a_click() -> None:
    from rulebox.cli.board import board_lines, cell_at

    game = game_entry("columba").cls.new({"seed": "1"})
    plain = game_entry("columba").render(game, 0).plain
    drawing = "\n".join(plain.split("\n")[:board_lines(game, 0)])
    lines = drawing.split("\n")
    y = next(i for i, line in enumerate(lines) if line.startswith("   1 "))
    x = lines[0].index(" 0 ") + 1
    assert cell_at("columba", drawing, x, y) == "0,1"
    assert cell_at("columba", drawing, x, 0) is None  # the header is no cell
    assert cell_at("columns", drawing, x, y) is None  # Columns: no clicks


def test_the_status_shows_the_computer_thinking_with_the_time_used() -> None:
    import re
    import time

    game = game_entry("countred").cls.new({"seed": "1"})
    table = Table(game, make_seats("countred", 2, ["1=mcts:time=1"], 1), seed=1)

    async def drive() -> None:
        app = GameApp(table)
        async with app.run_test(size=(80, 24)) as pilot:
            await enter(app, pilot, "A1-B2")  # the computer answers, its time in the log
            assert re.search(r"second \(mcts\) plays \S+ \(\d+\.\d s\)", log_text(app))
            # while it thinks: the clock in the status, and moves wait
            app.thinking = (1, time.monotonic() - 1.5)
            app.update_status()
            status = str(app.query_one("#status", Static).render())
            assert re.search(r"second \(mcts\) is thinking\.\.\. 1\.[5-9] s", status)
            app.command("D4-C3")
            assert "wait for its move" in message(app)
            assert len(table.game.history) == 2
            app.thinking = None

    asyncio.run(drive())


SCREEN_80X24 = {  # game: (lines of the board's drawing, side by side with the status)
    "columns": (21, True), "countred": (18, True), "discs": (12, True), "36to1": (9, False),
    "columba": (5, True),
}


@pytest.mark.parametrize("game_id", list(SCREEN_80X24))
def test_each_game_fits_80x24_at_the_start(game_id: str) -> None:
    """The lines each game's screen takes at 80x24 (docs/TERMINAL.md): the whole board in
    view without scrolling, the turn shown, the input line at the bottom."""
    table = make_table(game_id, {})

    async def drive() -> None:
        app = GameApp(table)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            lines, wide = SCREEN_80X24[game_id]
            assert len(app.drawing().plain.split("\n")) == lines
            assert app.query_one("#main").has_class("wide") == wide
            box = app.query_one("#boardbox")
            assert box.max_scroll_y == 0 and box.max_scroll_x == 0
            assert "to move:" in str(app.query_one("#status", Static).render())
            assert app.query_one("#cmd", Input).region.y == 23

    asyncio.run(drive())
