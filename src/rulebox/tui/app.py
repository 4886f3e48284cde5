"""``rulebox play`` on a full screen (Textual).

One screen, fitting 80x24 and growing with the window: the board (its drawing only, scrollable:
Columba's territory grows in every direction) with the last move marked, beside it (or below it
when the board is wide) the status (what wins, whose turn, the last move, the computer thinking
with the time used), the move log and, on ``?``, a short help panel in its place; the input line
at the bottom. Moves are typed in the game's notation, as in the line mode, with the same
commands (:func:`rulebox.cli.text.commands`). ``quit`` and ``resign`` ask first; Ctrl-C asks,
and a second Ctrl-C leaves. The game is saved after every change (:mod:`rulebox.cli.saves`).

The computer thinks in a worker thread; while it thinks, commands that change the game wait.
Everything around the rules is the table's (:class:`rulebox.match.table.Table`)."""

from __future__ import annotations

import contextlib
import re
import threading
import time as clock
from collections.abc import Iterable, Iterator
from typing import Any, ClassVar

from rich.console import Console, ConsoleOptions
from rich.markup import escape
from rich.measure import Measurement
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Container, ScrollableContainer, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from rulebox.cli import text as words
from rulebox.cli.board import board_lines, cell_at, last_turn, legend, marked, text_parts
from rulebox.cli.saves import Autosave
from rulebox.core.errors import RuleboxError
from rulebox.core.registry import game_entry
from rulebox.i18n import _
from rulebox.match.records import save_record
from rulebox.match.table import Table, TableError

SIDE_WIDE = 40
"""The side panel goes beside the board when it gets this many columns there (the help's
command lines are 40 wide); else below the board, where it gets the whole width."""
SIDE_MIN = 26
"""Beside the board with fewer columns (down to this many) only when the board is too tall to
have the status and the log below it (Count Red at 80x24)."""
BELOW_MIN = 8
"""Lines the status and the log need below the board for the stacked layout."""
LOG_MIN = 4
"""Lines of the move log kept in view; the status takes at most the rest of the side panel."""
MSG_LINES = 3
"""The message line grows to this many lines for a long message (a refusal), then shortens
it in the middle, keeping its start and its rule ID (the whole message is in the log)."""
TICK = 0.1
"""How often the thinking indicator's clock is redrawn (seconds)."""
SECOND_CTRL_C = 3.0
"""A second Ctrl-C within this many seconds leaves."""


RULE_ID = re.compile(r"\s*(\[[A-Z][A-Z0-9]*-[0-9A-Za-z.-]+\])\s*$")
"""A refusal's rule ID at its end (``illegal: ... [COL-4]``)."""
COLUMNS_OF = re.compile(r"^(\s*\S+(?: \S+)*? {2,})\S")
"""A line laid out in columns (``  undo          take back ...``): its continuation lines go
under the second column."""


def hanging(line: str, width: int) -> list[str]:
    """``line`` wrapped at ``width`` between words, each continuation indented under the text it
    continues: an indented line under its first word, a line in columns under its second
    column (a command's description). A word longer than the width is the only thing cut."""
    width = max(width, 8)
    if len(line) <= width:
        return [line]
    lead = len(line) - len(line.lstrip(" "))
    cols = COLUMNS_OF.match(line)
    indent = len(cols.group(1)) if cols and len(cols.group(1)) <= width * 2 // 3 else lead
    if indent > width * 2 // 3:
        indent = min(lead, width // 4)
    out: list[str] = []
    current = line[:lead]
    for word in line[lead:].split(" "):
        room = width - len(current)
        if current.strip() and len(word) + 1 > room:
            out.append(current.rstrip())
            current = " " * indent
        if not current.strip():
            while len(current) + len(word) > width:  # a word wider than the panel
                cut = width - len(current)
                out.append(current + word[:cut])
                word = word[cut:]
                current = " " * indent
            current += word
        else:
            current += " " + word
    out.append(current.rstrip())
    return out


class Hanging:
    """Lines of help (the ``?`` panel, ``moves``, ``explain``) wrapped at whatever width they
    are drawn at, with hanging indents (:func:`hanging`): Textual draws them again at the new
    width after every resize."""

    def __init__(self, lines: Iterable[str], style: str = "") -> None:
        self.lines = list(lines)
        self.style = style

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Text]:
        for line in self.lines:
            for part in hanging(line, options.max_width):
                yield Text(part, style=self.style, end="\n", no_wrap=True)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        longest = max((len(line) for line in self.lines), default=1)
        return Measurement(min(8, longest), min(longest, options.max_width))


def shorten(text: str, width: int, lines: int = MSG_LINES) -> list[str]:
    """``text`` wrapped at ``width`` in at most ``lines`` lines: when it needs more, its start
    is kept up to where it no longer fits, then ``…`` and its rule ID (a refusal's rule ID is
    never lost)."""
    wrapped = hanging(text, width)
    if len(wrapped) <= lines:
        return wrapped
    found = RULE_ID.search(text)
    tail = " … " + found.group(1) if found else " …"
    head = text[: found.start()] if found else text
    words_ = head.split(" ")
    k = len(words_)
    while k > 1 and len(hanging(" ".join(words_[:k]) + tail, width)) > lines:
        k -= 1
    return hanging(" ".join(words_[:k]) + tail, width)[:lines]


class Brief:
    """The message line: one message, wrapped at the screen's width, at most
    :data:`MSG_LINES` lines (:func:`shorten`)."""

    def __init__(self, text: Text) -> None:
        self.text = text

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Text]:
        for line in shorten(self.text.plain, options.max_width):
            yield Text(line, style=self.text.style, end="\n", no_wrap=True)


class Stage(Container):
    """The board and the side panel; lays them out again whenever its size changes (the
    terminal was resized, the message line grew)."""

    def on_resize(self, event: events.Resize) -> None:
        app = self.app
        if isinstance(app, GameApp):
            app.arrange()


class MoveLog(VerticalScroll):
    """The move log: every line said, wrapped at the log's current width (Textual wraps the
    text again after a resize, or after the log was hidden behind the help panel), kept
    scrolled to the newest line."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.entries: list[Text] = []

    def compose(self) -> ComposeResult:
        yield Static(id="logtext")

    def write(self, line: Text) -> None:
        self.entries.append(line)
        self.query_one("#logtext", Static).update(Text("\n").join(self.entries))
        self.call_after_refresh(self.scroll_end, animate=False)

    def on_resize(self, event: events.Resize) -> None:
        self.call_after_refresh(self.scroll_end, animate=False)


class Question(ModalScreen[bool]):
    """A yes/no question over the game (``y``/Enter yes, ``n``/Escape no)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "yes"), Binding("enter", "answer(True)", "yes"),
                Binding("n", "answer(False)", "no"), Binding("escape", "answer(False)", "no"),
                # the German and Russian yes (ja, да) and no (nein, нет) work too
                Binding("j", "answer(True)", "yes", show=False),
                Binding("д", "answer(True)", "yes", show=False),
                Binding("н", "answer(False)", "no", show=False)]
    DEFAULT_CSS = """
    Question { align: center middle; }
    Question > Static { width: 60; max-width: 100%; height: auto; border: round $accent;
                        padding: 1 2; background: $panel; }
    """

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        yes, no = escape(_("yes")), escape(_("no"))
        yield Static(Text.from_markup(f"{escape(self.question)}\n\n[b]y[/b] {yes}    "
                                      f"[b]n[/b] {no}"))

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class EndScreen(ModalScreen[str]):
    """The end of a game: the one end message (and the match's), then the next game or quit."""

    BINDINGS: ClassVar[list[BindingType]] = [
        # exactly the keys the screen shows: Enter, Esc and q (an `n` once started a new game
        # when a player typed `un` of `undo`)
        Binding("q", "leave('quit')", "quit"), Binding("escape", "leave('look')", "look"),
        Binding("enter", "leave('next')", "next")]
    DEFAULT_CSS = """
    EndScreen { align: center middle; }
    EndScreen > Static { width: 64; max-width: 100%; height: auto; max-height: 100%;
                         border: heavy $success; padding: 1 2; background: $panel; }
    """

    def __init__(self, message: str, more: bool) -> None:
        super().__init__()
        self.message = message
        self.more = more

    def compose(self) -> ComposeResult:
        keys = ("[b]Enter[/b] " + escape(_("next game") if self.more else _("a rematch")) + "    ")
        yield Static(Text.from_markup("[b]" + escape(_("Game over")) + "[/b]\n\n")
                     + Text(self.message + "\n\n")
                     + Text.from_markup(keys + "[b]Esc[/b] " + escape(_("look at the board"))
                                        + "    [b]q[/b] " + escape(_("quit"))),
                     id="end")

    def action_leave(self, what: str) -> None:
        self.dismiss(what)


class GameApp(App[int]):
    """One table on the full screen (a match: a rematch after each game)."""

    CSS = """
    Screen { layout: vertical; }
    #main { height: 1fr; }
    #main.wide { layout: horizontal; }
    #main.tall { layout: vertical; }
    #boardbox { width: auto; height: 1fr; max-width: 100%; overflow: auto auto;
                scrollbar-size: 1 1; }
    #main.tall #boardbox { width: 100%; height: auto; max-height: 70%; }
    #board { width: auto; height: auto; }
    #side { width: 1fr; height: 1fr; padding: 0 0 0 1; }
    #main.tall #side { padding: 0; }
    #status { height: auto; }
    #log { height: 1fr; min-height: 1; scrollbar-size: 1 1; overflow-x: hidden; }
    #logtext { width: 100%; height: auto; }
    #help { height: 1fr; display: none; border-top: solid $accent; scrollbar-size: 1 1;
            overflow-x: hidden; }
    #helptext { width: 100%; }
    #cmd { height: 1; border: none; padding: 0 1; }
    #msg { height: auto; max-height: 3; padding: 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+c", "interrupt", "leave", priority=True, show=False),
                Binding("f1", "help", "help", show=False),
                Binding("escape", "close_help", "close help", show=False)]

    def __init__(self, table: Table, *, games: int = 1, time: float = 1.0,
                 save: str | None = None, autosave: Autosave | None = None,
                 note: str = "") -> None:
        super().__init__()
        self.table = table
        self.games = games
        self.number = 1
        self.score = [0.0] * table.game.num_players
        self.time = time
        self.save_to = save
        self.autosave = autosave
        self.note = note
        self.thinking: tuple[int, float] | None = None
        self.last_ctrl_c = 0.0
        self.seen = len(table.events)
        self.ended_shown = False
        self.result: list[str] = []
        self.compact = False
        """Whether a panel (help, moves, explain) takes the log's place: the status keeps to
        less then."""
        self.panel: list[str] = []
        """The lines of the last panel shown (help, moves, notation, status, explain)."""
        self.message = Text()
        """What the message line says (its first line: shortened there when long)."""
        self.explained: Text | None = None
        """A drawing of the board from ``explain`` (36 to 1 marks the cubes a card can take),
        shown in the board's place until the panel closes."""
        self.title = table.game.title

    # --- layout ---------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        with Stage(id="main", classes="wide"):
            with ScrollableContainer(id="boardbox"):
                yield Static(id="board")
            with Vertical(id="side"):
                yield Static(id="status")
                yield MoveLog(id="log")
                with VerticalScroll(id="help"):
                    yield Static(id="helptext")
        yield Static(id="msg")
        yield Input(placeholder=_("a move, or ? for help"), id="cmd")

    def on_mount(self) -> None:
        self.query_one("#cmd", Input).focus()
        if self.note:
            self.say(self.note, "dim")
        self.say(words.goal(self.table.game), "italic")
        self.say(_("type a move, or ? for help"), "dim")
        self.refresh_all()
        self.set_interval(TICK, self.tick)
        self.next_turn()

    def arrange(self) -> None:
        """The side panel beside the board when it gets :data:`SIDE_WIDE` columns there, or
        when the board leaves too few lines below it (and it still gets :data:`SIDE_MIN`);
        else below the board with the whole width. Called on every change of the stage's size
        (:class:`Stage`) and of the drawing; the status is fitted to the new room after the
        layout."""
        main = self.query_one("#main")
        width, height = main.size if main.size.width else self.size
        drawing = self.board_drawing().plain.split("\n")
        room = width - max((len(line) for line in drawing), default=0) - 2
        wide = room >= SIDE_WIDE or (height - len(drawing) < BELOW_MIN and room >= SIDE_MIN)
        main.set_class(wide, "wide")
        main.set_class(not wide, "tall")
        self.call_after_refresh(self.update_status)

    # --- what is shown ----------------------------------------------------------------------------
    def viewer(self) -> int | None:
        """Whose view is drawn: the person to move, else the only person, else all public."""
        t = self.table
        p = t.to_move()
        if p is not None and t.seats[p].is_person:
            return p
        persons = [i for i, s in enumerate(t.seats) if s.is_person]
        return persons[0] if len(persons) == 1 else None

    def turn_length(self) -> int:
        """How many moves the last turn had (marked together, named together)."""
        return last_turn(self.table.movers, self.table.game.num_players)

    def drawing(self) -> Text:
        """The board's drawing (the render's first lines) with the last move marked."""
        viewer = self.viewer() if not self.table.over() else None
        full = marked(self.table.game, viewer, self.turn_length())
        n = board_lines(self.table.game, viewer)
        lines = full.split("\n", allow_blank=True)
        while n > 0 and not lines[n - 1].plain.strip():
            n -= 1
        return Text("\n").join(lines[:n])

    def board_drawing(self) -> Text:
        """What the board's panel shows: the drawing, or ``explain``'s drawing while open."""
        return self.explained if self.explained is not None else self.drawing()

    def details(self) -> list[str]:
        """The render's text below the drawing (holdings, scores), blank lines dropped."""
        viewer = self.viewer() if not self.table.over() else None
        full = marked(self.table.game, viewer).plain
        lines = full.split("\n")
        n = board_lines(self.table.game, viewer)
        return [line.rstrip() for line in lines[n:] if line.strip()]

    def refresh_all(self) -> None:
        drawing = self.board_drawing()
        self.query_one("#board", Static).update(drawing)
        self.update_status()
        self.arrange()
        self.call_after_refresh(self.follow, drawing)

    def follow(self, drawing: Text) -> None:
        """Scroll the board (Columba's territory) so that the last turn is in view."""
        marks = [span.start for span in drawing.spans if "reverse" in str(span.style)]
        if not marks:
            return
        before = drawing.plain[: min(marks)]
        y = before.count("\n")
        x = len(before) - (before.rfind("\n") + 1)
        box = self.query_one("#boardbox", ScrollableContainer)
        if box.max_scroll_x == 0 and box.max_scroll_y == 0:
            return
        width, height = box.scrollable_content_region.size
        if not (box.scroll_x <= x < box.scroll_x + width - 4
                and box.scroll_y <= y < box.scroll_y + height - 1):
            box.scroll_to(max(0, x - width // 2), max(0, y - height // 2), animate=False)

    def status_lines(self) -> list[tuple[int, Text]]:
        """Everything the status could say, in the order shown, each with its rank (0 first):
        whose turn (or who thinks, or the end) and the match, then the last turn, what the
        render says of the turn (Discs' phase, Columba's card), the holdings (36 to 1's face-up
        cards), the key to the drawing's letters (Columns' R S D T), Columba's cell codes."""
        t = self.table
        out: list[tuple[int, Text]] = []
        viewer = self.viewer() if not t.over() else None
        key, facts, status = text_parts(t.game, viewer)
        said = status[-1].strip() if status and not t.over() else ""
        out += [(3, Text(line.strip())) for line in facts]
        out += [(4, Text(line.strip(), style="dim")) for line in key]
        if legend(t.game):
            out.append((5, Text(_("cell codes: type `notation`"), style="dim")))
        if self.games > 1:
            out.append((0, Text(_("Game {number} of {games}").format(
                number=self.number, games=self.games), style="bold")))
        if t.game.history:
            mover = t.movers[-1] if t.movers else None
            who = self.seat_name(mover) if mover is not None else ""
            turn = ", ".join(str(m) for m in t.game.history[-self.turn_length():])
            out.append((1, Text(_("last: {who} {moves}").format(who=who, moves=turn),
                                style="bold")))
        if self.thinking is not None:
            q, since = self.thinking
            out.append((0, Text(_("{name} is thinking... {seconds} s").format(
                name=self.seat_name(q), seconds=f"{clock.monotonic() - since:.1f}"),
                style="bold cyan")))
        elif t.over():
            out.append((0, Text(words.end_message(t), style="bold green")))
        elif (p := t.to_move()) is not None:
            out.append((0, Text(_("to move: {name}").format(name=self.seat_name(p)),
                                style="bold reverse")))
            if len(said) > 40:  # the render says more than whose turn (a phase, a card)
                out.append((2, Text(said)))
        return out

    def update_status(self) -> None:
        """The status, as much of it as fits above :data:`LOG_MIN` lines of log (half the side
        panel while a panel is open), most needed first (:meth:`status_lines`); what is left
        out is one ``status`` away."""
        side = self.query_one("#side")
        width = side.content_region.width or self.size.width // 2
        height = side.content_region.height or self.size.height - 2
        room = max(2, height // 2 if self.compact else height - LOG_MIN)
        lines = self.status_lines()
        cost = [len(text.wrap(self.console, max(width, 8))) for _rank, text in lines]
        shown = [False] * len(lines)
        used = 0
        for i in sorted(range(len(lines)), key=lambda i: lines[i][0]):
            if used + cost[i] <= room:
                shown[i] = True
                used += cost[i]
        kept = [text for (_rank, text), ok in zip(lines, shown, strict=True) if ok]
        if not all(shown) and used < room:
            kept.insert(0, Text(_("more: type `status`"), style="dim"))
        self.query_one("#status", Static).update(Text("\n").join(kept))

    def seat_name(self, p: int) -> str:
        """The table's name of seat ``p``, in the terminal's words."""
        return words.agree(self.table.name(p))

    def tick(self) -> None:
        if self.thinking is not None:
            self.update_status()

    def say(self, line: str, style: str = "", *, msg: bool = True) -> None:
        """A line in the move log; its first line also on the message line above the input
        (seen even when the log has no room)."""
        text = Text(words.agree(line), style=style)
        self.query_one("#log", MoveLog).write(text)
        if not msg:
            return
        self.message = text.split("\n")[0]
        self.query_one("#msg", Static).update(Brief(self.message))

    def show_events(self) -> None:
        for ev in self.table.events_since(self.seen):
            if ev.kind in ("undo", "game_over", "resigned") or not ev.text:
                continue
            style = "bold magenta" if ev.is_announcement else (
                "bold red" if ev.kind == "agent_error" else "")
            if ev.kind == "move" and ev.player is not None and \
                    self.table.seats[ev.player].is_computer:
                style = "cyan"
            self.say(ev.shown(), style)
        self.seen = len(self.table.events)

    def save_progress(self) -> None:
        if self.autosave is not None:
            self.autosave.save(self.table)

    # --- turns ------------------------------------------------------------------------------------
    def next_turn(self) -> None:
        """After every change: the computer's turn, or the end, or wait for the person."""
        self.show_events()
        self.save_progress()
        self.refresh_all()
        t = self.table
        if t.over():
            self.game_over()
        elif t.computer_to_move() is not None and self.thinking is None:
            q = t.computer_to_move()
            assert q is not None
            self.thinking = (q, clock.monotonic())
            self.update_status()
            self.think()

    def think(self) -> None:
        """The computer's move in a daemon thread (a search cannot be stopped; leaving the game
        must not wait for it, and the game was saved before it began)."""

        def run() -> None:
            self.table.play_computers(limit=1)
            with contextlib.suppress(RuntimeError):  # the app has gone
                self.call_from_thread(self.thought)

        threading.Thread(target=run, name="rulebox-think", daemon=True).start()

    def thought(self) -> None:
        if self.thinking is not None:
            _q, since = self.thinking
            self.thinking = None
            spent = clock.monotonic() - since
            evs = self.table.events_since(self.seen)
            for ev in evs:
                if ev.kind == "move":
                    self.say(f"{ev.shown()} ({spent:.1f} s)", "cyan")
                elif ev.text and ev.kind not in ("undo", "game_over", "resigned"):
                    self.say(ev.shown(), "bold magenta" if ev.is_announcement else "bold red")
            self.seen = len(self.table.events)
        self.next_turn()

    def game_over(self) -> None:
        if self.ended_shown:
            return
        self.ended_shown = True
        t = self.table
        e = t.ending
        assert e is not None
        message = words.end_message(t)
        self.say(message, "bold green")
        self.result.append(message)
        if self.save_to:
            where = self.save_to if self.games == 1 else f"{self.save_to}.{self.number}"
            save_record(t.record(), where)
            self.say(_("record saved to {path}").format(path=where), "dim")
        n = t.game.num_players
        if e.winners:
            for w in e.winners:
                self.score[w] += 1
        elif n > 1:
            for i in range(n):
                self.score[i] += 0.5
        more = self.number < self.games
        if self.games > 1:
            names = [t.name(i) for i in range(n)]
            score = _("match score:") + " " + ", ".join(
                f"{names[i]} {self.score[i]:g}" for i in range(n))
            message += "\n" + score
            if not more:
                match = words.match_message(names, self.score, self.number)
                message += "\n" + match
                self.result.append(match)
        self.push_screen(EndScreen(message, more), self.after_end)

    def after_end(self, what: str | None) -> None:
        if what == "quit":
            self.exit(0)
        elif what == "next":
            self.rematch()

    def rematch(self) -> None:
        try:
            table = self.table.rematch()
        except TableError as e:
            self.say(str(e), "bold red")
            return
        self.table = table
        self.number += 1
        if self.number > self.games:
            self.games = self.number
        self.seen = len(table.events)
        self.ended_shown = False
        if self.autosave is not None:
            self.autosave.path = None
        self.say("--- " + _("game {number}:").format(number=self.number) + " " + " ".join(
            f"{k}={v}" for k, v in table.game.public_options().items()), "bold")
        self.next_turn()

    # --- input ------------------------------------------------------------------------------------
    def on_click(self, event: events.Click) -> None:
        """A click on the board writes its cell into the input (Columba ``x,y``, 36 to 1 and
        Count Red the field; Count Red's first click adds the ``-`` of a move)."""
        board = self.query_one("#board", Static)
        if event.widget is not board:
            return
        offset = event.get_content_offset(board)
        if offset is None:
            return
        cell = cell_at(self.table.game.id, self.drawing().plain, offset.x, offset.y)
        box = self.query_one("#cmd", Input)
        box.focus()
        if cell is None:
            return
        if self.table.game.id == "countred" and not box.value.strip():
            cell += "-"
        elif box.value and not box.value.endswith((" ", "-", ":")):
            cell = " " + cell
        box.insert_text_at_cursor(cell)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        line = event.value.strip()
        event.input.value = ""
        if line:
            self.command(line)

    def command(self, line: str) -> None:
        t = self.table
        word, _sep, arg = line.partition(" ")
        word = word.lower()
        arg = arg.strip()
        if word in ("?", "help"):
            self.action_help()
            return
        if word in ("moves", "legal"):
            moves = words.moves_of_kind(t.game, arg)
            head = words.plural(len(moves), "legal move")
            if arg:
                head = _("{moves} of kind {kind}").format(moves=head, kind=arg)
            self.show_panel([head + ":", *moves])
            return
        if word in ("status", "board"):
            self.show_panel(self.details() or [_("nothing more to show")])
            return
        if word == "notation":
            self.show_panel([*words.notation_lines(t.game), "", *legend(t.game).splitlines()])
            return
        if word == "history":
            moves = [str(m) for m in t.game.history]
            self.say(" ".join(f"{i}.{m}" for i, m in enumerate(moves, 1)) or _("no moves yet"))
            return
        if word in ("quit", "exit"):
            self.ask(_("Leave the game? It is saved: `rulebox play --load last` continues it."),
                     lambda yes: self.exit(0) if yes else None)
            return
        if word == "explain":
            explain = game_entry(t.game.id).explain
            if explain is None:
                self.say(_("this game has no explain command; try ? for the moves"))
            else:
                self.show_explained(explain(t.game, arg))
            return
        if word == "save":
            if not arg:
                self.say(_("usage: save FILE"))
                return
            try:
                save_record(t.record(), arg)
                self.say(_("saved to {path}").format(path=arg))
            except OSError as e:
                self.say(_("cannot save to {path}: {error}").format(path=arg, error=e.strerror),
                         "bold red")
            return
        if self.thinking is not None:
            self.say(_("the computer is thinking; wait for its move"), "bold")
            return
        p = t.to_move()
        if p is None:
            self.say(_("the game is over; Enter on the end screen starts a rematch"), "bold")
            if not self.screen_stack[-1:] or not isinstance(self.screen, EndScreen):
                self.ended_shown = False
                self.game_over()
            return
        try:
            if word == "undo":
                for move in t.undo(p):
                    self.say(_("took back {move}").format(move=move))
            elif word == "hint":
                self.say(_("hint: the computer would play {move}").format(move=t.hint(self.time)))
                return
            elif word == "resign":
                if t.game.num_players not in (1, 2, 4):
                    self.say(_("resign is for one- and two-player and team games; use quit"))
                    return
                self.ask(_("Resign this game?"), lambda yes: self.resign(p) if yes else None)
                return
            elif word == "draw":
                self.offer_draw(p)
            else:
                t.play(p, line)
        except TableError as e:
            self.say(str(e), "bold red" if e.code != "nothing_to_undo" else "")
            return
        except RuleboxError as e:
            self.say(str(e), "bold red")
            self.say(_("type ? for help and the legal moves"), "dim", msg=False)
            return
        self.close_help()
        self.next_turn()

    def resign(self, p: int) -> None:
        try:
            self.table.resign(p)
        except TableError as e:
            self.say(str(e), "bold red")
        self.next_turn()

    def offer_draw(self, p: int) -> None:
        t = self.table
        if t.game.num_players != 2:
            self.say(_("draw offers are for two-player games"))
            return
        answer = t.offer_draw(p)
        if answer == "offered":
            q = t.opponents(p)[0]
            self.show_events()

            def answered(yes: bool | None) -> None:
                t.answer_draw(q, bool(yes))
                self.next_turn()

            self.push_screen(Question(_("{name}: accept a draw?").format(name=t.name(q))),
                             answered)

    def ask(self, question: str, then: Any) -> None:
        self.push_screen(Question(question), then)

    # --- help -------------------------------------------------------------------------------------
    def show_panel(self, lines: list[str]) -> None:
        """Help, moves, the notation, ``status`` or an explanation in the log's place, wrapped
        at the panel's width with hanging indents (again after every resize)."""
        self.panel = list(lines)
        self.query_one("#helptext", Static).update(Hanging(lines))
        self.query_one("#log").display = False
        self.query_one("#help").display = True
        self.query_one("#help").scroll_home(animate=False)
        self.compact = True
        self.update_status()

    def show_explained(self, text: str) -> None:
        """``explain``'s answer in the panel; a drawing of the board in it (36 to 1 marks the
        cubes a card can take) goes in the board's place, where the board fits, until the panel
        closes."""
        lines = text.split("\n")
        block = next((i for i, line in enumerate(lines) if not line.strip()), len(lines))
        board = self.drawing().plain.split("\n")
        if block >= 3 and abs(block - len(board)) <= 1:
            drawing = Text("\n".join(line.rstrip() for line in lines[:block]))
            drawing.highlight_regex(r">.<", "reverse bold")
            self.explained = drawing
            self.refresh_all()
            lines = lines[block:]
            while lines and not lines[0].strip():
                lines = lines[1:]
        self.show_panel(lines)

    def action_help(self) -> None:
        p = self.table.to_move()
        lines = words.short_help(self.table, p, full_screen=True)
        if legend(self.table.game):
            lines += legend(self.table.game).splitlines()
        lines.append(_("Esc closes this panel; F1 or ? opens it."))
        self.show_panel(lines)

    def close_help(self) -> None:
        self.query_one("#help").display = False
        self.query_one("#log").display = True
        if self.explained is not None:
            self.explained = None
            self.refresh_all()
        if self.compact:
            self.compact = False
            self.update_status()

    def action_close_help(self) -> None:
        self.close_help()

    # --- leaving ----------------------------------------------------------------------------------
    def farewell(self) -> list[str]:
        """What stays printed after the full screen: each game's end, the match's winner, and
        "left the game" when the game on the table was left unfinished (also a rematch nobody
        planned, after a finished game)."""
        lines = list(self.result)
        if not self.table.over():
            lines.append(_("left the game; it is saved: `rulebox play --load last` continues it"))
        return lines

    def action_interrupt(self) -> None:
        now = clock.monotonic()
        if now - self.last_ctrl_c <= SECOND_CTRL_C:
            self.exit(130)
            return
        self.last_ctrl_c = now
        self.notify(_("Ctrl-C again to leave (the game is saved: rulebox play --load last)"),
                    timeout=SECOND_CTRL_C)


def run_app(table: Table, *, games: int = 1, time: float = 1.0, save: str | None = None,
            autosave: Autosave | None = None, note: str = "") -> int:
    """Play on the full screen; after it, the end message (or how to continue) stays printed."""
    app = GameApp(table, games=games, time=time, save=save, autosave=autosave, note=note)
    code = app.run() or 0
    for line in app.farewell():
        print(line)
    return int(code)
