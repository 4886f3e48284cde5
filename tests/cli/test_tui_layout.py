"""The full screen at 80x24, 100x30 and 160x48, and resized between them, for every game: what
the decision needs is in view, no line is cut mid-word, nothing scrolls sideways; and one test
for each fault of issue 35 (each failed before its fix)."""

from __future__ import annotations

import asyncio
import os
import pty
import re
import select
import subprocess
import sys
from pathlib import Path

import pytest
from textual.widgets import Input

from rulebox.cli.saves import Autosave
from rulebox.cli.seats import make_seats
from rulebox.core.registry import game_entry
from rulebox.i18n import set_language
from rulebox.match.records import load_record, save_record
from rulebox.match.table import Table
from rulebox.tui.app import EndScreen, GameApp, MoveLog, Question, hanging, shorten

SIZES = [(80, 24), (100, 30), (160, 48)]
GAMES = ["columns", "countred", "discs", "36to1", "columba"]
NEEDS = {
    "columns": ["R roundel", "to move:", "last:"],  # the key to the piece letters
    "countred": ["rN / bN", "to move:", "last:"],
    "discs": ["to move:", "last:"],
    "36to1": ["Face up:", "to move:", "last:"],  # the cards the player chooses from
    "columba": ["lay card", "to move:", "last:"],  # the card in hand
}
"""What each game's screen must show for the decision at hand, at every size."""


def make_table(game_id: str, seats: list[str] | None = None, seed: str = "3") -> Table:
    game = game_entry(game_id).cls.new({"seed": seed})
    specs = seats if seats is not None else [f"{p}=random" for p in range(1, game.num_players)]
    return Table(game, make_seats(game.id, game.num_players, specs, 0.05), seed=7)


async def settle(app: GameApp, pilot: object, limit: float = 20.0) -> None:
    waited = 0.0
    while app.thinking is not None and waited < limit:
        await pilot.pause(0.05)  # type: ignore[attr-defined]
        waited += 0.05
    await pilot.pause()  # type: ignore[attr-defined]
    await pilot.pause()  # type: ignore[attr-defined]


async def enter(app: GameApp, pilot: object, line: str) -> None:
    app.query_one("#cmd", Input).value = line
    await pilot.press("enter")  # type: ignore[attr-defined]
    await settle(app, pilot)


def screen_lines(app: GameApp) -> list[str]:
    """The screen as the player sees it (the compositor's strips of the top screen)."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def shown(app: GameApp, selector: str) -> list[str]:
    """The screen's lines within a widget's region, its scrollbars left out (what of it is in
    view)."""
    region = app.query_one(selector).scrollable_content_region
    return [line[region.x:region.right].rstrip()
            for line in screen_lines(app)[region.y:region.bottom]]


def words_of(texts: list[str]) -> set[str]:
    return {w for text in texts for w in text.split()}


def assert_no_word_cut(lines: list[str], source: list[str], where: str) -> None:
    """Every word on the screen's lines is a whole word of the text drawn there."""
    whole = words_of(source)
    for line in lines:
        for word in line.split():
            assert word in whole, f"{where}: {word!r} is cut (line {line!r})"


def assert_fits(app: GameApp, game_id: str, size: tuple[int, int]) -> None:
    screen = "\n".join(screen_lines(app))
    for need in NEEDS[game_id]:
        assert need in screen, f"{game_id} at {size}: {need!r} not in view:\n{screen}"
    for box in ("#boardbox", "#log", "#side"):
        assert app.query_one(box).max_scroll_x == 0, f"{box} scrolls sideways at {size}"
    assert app.query_one("#boardbox").max_scroll_y == 0, f"the board is cut at {size}"
    status = [t.plain for _r, t in app.status_lines()] + ["more: type `status`"]
    assert_no_word_cut(shown(app, "#status"), status, f"{game_id} status at {size}")
    log = [e.plain for e in app.query_one("#log", MoveLog).entries]
    assert_no_word_cut(shown(app, "#log"), log, f"{game_id} log at {size}")
    assert all(len(line) <= size[0] for line in screen_lines(app))


@pytest.mark.parametrize("game_id", GAMES)
def test_every_size_and_every_resize_shows_what_the_decision_needs(game_id: str) -> None:
    table = make_table(game_id)

    async def drive() -> None:
        app = GameApp(table, time=0.05)
        async with app.run_test(size=SIZES[0]) as pilot:
            await settle(app, pilot)
            for _n in range(2 if game_id != "discs" else 3):  # a turn each (Discs: set-up)
                await enter(app, pilot, str(table.game.legal_moves()[0]))
            for size in [*SIZES, SIZES[1], SIZES[0], SIZES[2], SIZES[0]]:
                await pilot.resize_terminal(*size)
                await settle(app, pilot)
                assert_fits(app, game_id, size)

    asyncio.run(drive())


LAYOUT = {  # game: side by side at 80x24, 100x30, 160x48
    "columns": (True, True, True), "countred": (True, True, True),
    "discs": (True, True, True), "36to1": (False, False, True), "columba": (True, True, True),
}


@pytest.mark.parametrize("game_id", GAMES)
def test_side_by_side_where_the_side_panel_gets_room_else_stacked(game_id: str) -> None:
    """Fault 1: resizing re-lays out (36 to 1 stayed side by side at 80 columns, its side panel
    11 columns wide); fault 2: 36 to 1 at 100x30 stacks, the side panel gets the whole width."""
    table = make_table(game_id)

    async def drive() -> None:
        app = GameApp(table, time=0.05)
        async with app.run_test(size=SIZES[1]) as pilot:
            await settle(app, pilot)
            for size, wide in [*zip(SIZES, LAYOUT[game_id], strict=True),
                               (SIZES[0], LAYOUT[game_id][0])]:
                await pilot.resize_terminal(*size)
                await settle(app, pilot)
                assert app.query_one("#main").has_class("wide") == wide, size
                side = app.query_one("#side").region.width
                assert side >= (26 if wide else size[0]), (size, side)

    asyncio.run(drive())


def test_resized_columns_log_is_rewrapped_whole() -> None:
    """Fault 1: Columns resized from 100x30 to 80x24 cut its log lines ("...which would leave a
    gap [") and scrolled sideways."""
    table = make_table("columns", seats=["1=human"])

    async def drive() -> None:
        app = GameApp(table)
        async with app.run_test(size=(100, 30)) as pilot:
            for move in ("Ra1", "Rb1", "Ra1", "Da1b1"):
                await enter(app, pilot, move)
            await pilot.resize_terminal(80, 24)
            await settle(app, pilot)
            log = "\n".join(shown(app, "#log"))
            assert "[COL-2]" in log
            assert app.query_one("#log").max_scroll_x == 0
            entries = [e.plain for e in app.query_one("#log", MoveLog).entries]
            assert_no_word_cut(shown(app, "#log"), entries, "log")

    asyncio.run(drive())


def test_36to1_explain_draws_its_board_in_the_boards_place() -> None:
    """Fault 2: `explain B4` drew its board wrapped into garbage in a 31-column panel."""
    table = make_table("36to1", seed="1")

    async def drive() -> None:
        app = GameApp(table)
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(app, pilot)
            card = str(table.game.legal_moves()[0]).split(":")[0]
            await enter(app, pilot, f"explain {card}")
            board = shown(app, "#board")
            assert sum(">" in line for line in board) >= 3  # the marked cubes, unwrapped
            assert all(re.fullmatch(r"\s*\d\s.*\s\d", line) for line in board[2:8])
            panel = "\n".join(shown(app, "#help"))
            assert "face up" in panel and "can remove" in panel
            await pilot.press("escape")
            await pilot.pause()
            assert ">" not in "\n".join(shown(app, "#board"))

    asyncio.run(drive())


def test_log_lines_written_behind_the_help_panel_wrap_at_the_logs_width() -> None:
    """Fault 3: lines written while `?` was open wrapped at 20 columns."""
    table = make_table("columns", seats=["1=human"])

    async def drive() -> None:
        app = GameApp(table, time=0.05)
        async with app.run_test(size=(100, 30)) as pilot:
            await enter(app, pilot, "?")
            await enter(app, pilot, "history")  # said in the log, behind the panel
            await enter(app, pilot, "hint")
            await pilot.press("escape")
            await settle(app, pilot)
            log = shown(app, "#log")
            assert any(line.startswith("hint: the computer would play ") for line in log), log

    asyncio.run(drive())


def test_the_end_screen_answers_only_the_keys_it_shows() -> None:
    """Fault 4: `n` (typed as the start of `undo` after a resign) started a new game."""
    table = make_table("columns")

    async def drive() -> None:
        app = GameApp(table)
        async with app.run_test(size=(80, 24)) as pilot:
            await enter(app, pilot, "resign")
            await pilot.press("y")
            await settle(app, pilot)
            assert isinstance(app.screen, EndScreen)
            for key in "unxyz":
                await pilot.press(key)
            await pilot.pause()
            assert isinstance(app.screen, EndScreen) and app.number == 1
            assert app.table is table
            end = "\n".join(screen_lines(app))
            assert "Enter" in end and "Esc" in end and "q quit" in end
            await pilot.press("q")

    asyncio.run(drive())


def test_a_long_refusal_keeps_its_start_and_its_rule_id() -> None:
    """Fault 5: the message line cut "illegal: a double blocker needs two stacks ... which
    would..." and lost the rule ID."""
    table = make_table("columns", seats=["1=human"])

    async def drive() -> None:
        app = GameApp(table)
        async with app.run_test(size=(80, 24)) as pilot:
            for move in ("Ra1", "Rb1", "Ra1", "Da1b1"):
                await enter(app, pilot, move)
            msg = " ".join(" ".join(shown(app, "#msg")).split())
            assert msg.startswith("illegal: a double blocker needs two stacks")
            assert msg.endswith("[COL-2]")

    asyncio.run(drive())


def test_shorten_keeps_the_start_and_the_rule_id() -> None:
    text = ("illegal: a double blocker needs two stacks of the same height; a1 has 2 and b1 has"
            " 1, which would leave a gap [COL-2]")
    assert shorten(text, 80) == hanging(text, 80)  # fits in 2 lines: whole
    short = shorten(text, 30, 2)
    assert len(short) == 2 and all(len(line) <= 30 for line in short)
    assert short[0].startswith("illegal: a double") and short[-1].endswith("… [COL-2]")


def test_hanging_indent_and_no_word_cut() -> None:
    line = "  explain X     a piece, card or field of the board"
    assert hanging(line, 30) == ["  explain X     a piece, card", "                or field of",
                                 "                the board"]
    assert hanging("  B1: no, 1 (the new stack, no neighbours): odd", 24) == [
        "  B1: no, 1 (the new", "  stack, no neighbours):", "  odd"]


def test_discs_status_says_the_whole_turn() -> None:
    """Fault 6: the status showed a dangling fragment "turn a disc, or pass)"."""
    table = make_table("discs", seats=["1=human"])

    async def drive() -> None:
        app = GameApp(table)
        async with app.run_test(size=(80, 24)) as pilot:
            await enter(app, pilot, "arrange RGBRGBRGB")
            await enter(app, pilot, "choose silver a1c3")
            status = " ".join(" ".join(shown(app, "#status")).split())
            assert "to move: main action (move a pin, turn a disc, or pass)" in status
            assert not re.search(r"(^|\n)\s*turn a disc, or pass\)", "\n".join(
                shown(app, "#status")))

    asyncio.run(drive())


def test_columns_legend_on_screen_and_first_in_the_help() -> None:
    """Fault 7: the piece codes were not explained on the screen, and `?` counted R, S, D, T
    before saying what they are."""
    table = make_table("columns", seats=["1=human"])

    async def drive() -> None:
        app = GameApp(table)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = "\n".join(screen_lines(app))
            assert "R roundel" in screen and "triple blocker" in screen
            await enter(app, pilot, "?")
            panel = "\n".join(app.panel)
            assert panel.index("R roundel") < panel.index("legal moves by piece")

    asyncio.run(drive())


NOTATION_START = {  # the first line of `notation`, in German and in Russian
    "columns": ("Die Stäbe heißen a1..d3", "Стержни: a1..d3"),
    "countred": ("Die Felder heißen A1..D4", "Поля: A1..D4"),
    "discs": ("Scheiben a1..c3", "Диски a1..c3"),
    "36to1": ("Die Zellen heißen a1..f6", "Клетки обозначаются a1..f6"),
    "columba": ("Die Quadrate heißen x,y", "Клетки обозначаются x,y"),
}


@pytest.mark.parametrize("game_id", GAMES)
def test_notation_help_in_german_and_russian(game_id: str) -> None:
    """Fault 8: `notation` was English under --lang de and --lang ru in all five games; the
    moves it shows stay as typed."""
    english = game_entry(game_id).notation_help.splitlines()
    for lang, start in zip(("de", "ru"), NOTATION_START[game_id], strict=True):
        set_language(lang)
        try:
            table = make_table(game_id)

            async def drive(table: Table) -> list[str]:
                app = GameApp(table, time=0.05)
                async with app.run_test(size=(100, 30)) as pilot:
                    await settle(app, pilot)
                    await enter(app, pilot, "notation")
                    return app.panel

            panel = asyncio.run(drive(table))
        finally:
            set_language("en")
        assert panel[0].startswith(start), (lang, panel[0])
        assert not set(panel) & set(english[:1])
        moves = {w for line in english for w in line.split() if re.fullmatch(r"[A-Z]?\w\d\S*", w)}
        assert moves & words_of(panel)


def test_a_resigned_game_is_finished_in_its_record(tmp_path: Path) -> None:
    """Fault 9: a resigned game's record had "finished": null."""
    table = make_table("columns")

    async def drive() -> None:
        app = GameApp(table, autosave=Autosave(tmp_path))
        async with app.run_test(size=(80, 24)) as pilot:
            await enter(app, pilot, "Ra1")
            await enter(app, pilot, "resign")
            await pilot.press("y")
            await settle(app, pilot)
            await pilot.press("q")

    asyncio.run(drive())
    record = load_record(tmp_path / "last.json")
    assert record.result is not None and record.finished is not None
    assert record.to_json()["finished"] is not None


def rulebox(*args: str, stdin: str, data: Path) -> subprocess.CompletedProcess[bytes]:
    env = dict(os.environ, NO_COLOR="1", COLUMNS="100", RULEBOX_DATA=str(data))
    return subprocess.run([sys.executable, "-m", "rulebox.cli.main", *args],
                          input=stdin.encode(), capture_output=True, timeout=120, env=env)


def test_plain_mode_takes_status_as_well_as_board(tmp_path: Path) -> None:
    """Fault 10: `--plain` answered `status` with "malformed move 'status'"."""
    proc = rulebox("play", "columns", "--plain", "--seed", "1", "--seat", "1=human",
                   stdin="status\nquit\n", data=tmp_path)
    out = proc.stdout.decode()
    assert proc.returncode == 0, proc.stderr.decode()
    assert "malformed" not in out and "holds 12R 3S 3D 3T" in out


def test_declining_to_continue_exits_0_and_says_what_happens(tmp_path: Path) -> None:
    """Fault 11: declining "continue your unfinished game ...?" exited with code 2."""
    game = game_entry("columns").cls.new({"seed": "1"})
    table = Table(game, make_seats("columns", 2, ["1=human"], 0.05), seed=1)
    table.play(0, "Ra1")
    (tmp_path / "games").mkdir()
    save_record(table.record(), tmp_path / "last.json")
    env = dict(os.environ, NO_COLOR="1", RULEBOX_DATA=str(tmp_path), TERM="dumb")
    main, child = pty.openpty()  # a terminal: the question is asked only there
    proc = subprocess.Popen([sys.executable, "-m", "rulebox.cli.main", "play"], stdin=child,
                            stdout=child, stderr=child, env=env, close_fds=True)
    os.close(child)
    out = b""
    try:
        while b"continue your unfinished game" not in out:
            ready, _w, _x = select.select([main], [], [], 60)
            assert ready, out
            out += os.read(main, 4096)
        os.write(main, b"n\n")
        assert proc.wait(timeout=60) == 0
        while select.select([main], [], [], 0.5)[0]:
            try:
                chunk = os.read(main, 4096)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
    finally:
        os.close(main)
        if proc.poll() is None:
            proc.kill()
    assert b"not continued" in out and b"--load last" in out


def test_leaving_a_rematch_says_the_game_is_saved() -> None:
    """Fault 11: leaving a game nobody planned (the rematch after a finished game) printed no
    "left the game; it is saved"."""
    table = make_table("columns")

    async def drive() -> GameApp:
        app = GameApp(table)
        async with app.run_test(size=(80, 24)) as pilot:
            await enter(app, pilot, "resign")
            await pilot.press("y")
            await settle(app, pilot)
            await pilot.press("enter")  # the rematch
            await settle(app, pilot)
            assert app.number == 2
            await enter(app, pilot, "quit")
            assert isinstance(app.screen, Question)
            await pilot.press("y")
            await pilot.pause()
        return app

    app = asyncio.run(drive())
    said = app.farewell()
    assert "resigns" in said[0]
    assert said[-1].startswith("left the game; it is saved")


def test_36to1_last_shows_only_the_last_turn() -> None:
    """Fault 11: 36 to 1's "last:" listed every move since the start."""
    table = make_table("36to1")

    async def drive() -> None:
        app = GameApp(table)
        async with app.run_test(size=(80, 24)) as pilot:
            played = []
            for _n in range(3):
                move = str(table.game.legal_moves()[0])
                played.append(move)
                await enter(app, pilot, move)
            last = next(line for line in shown(app, "#status") if line.startswith("last:"))
            assert last.split() == ["last:", "player", "(you)", played[-1]]

    asyncio.run(drive())
