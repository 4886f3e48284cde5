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
import threading
import time as clock
from typing import Any, ClassVar

from rich.markup import escape
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Container, ScrollableContainer, Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, RichLog, Static

from rulebox.cli import text as words
from rulebox.cli.board import board_lines, cell_at, last_turn, legend, marked, text_parts
from rulebox.cli.saves import Autosave
from rulebox.core.errors import RuleboxError
from rulebox.core.registry import game_entry
from rulebox.i18n import _
from rulebox.match.records import save_record
from rulebox.match.table import Table, TableError

SIDE_MIN = 28
"""The narrowest the side panel gets beside the board; a wider board puts it below."""
TICK = 0.1
"""How often the thinking indicator's clock is redrawn (seconds)."""
SECOND_CTRL_C = 3.0
"""A second Ctrl-C within this many seconds leaves."""


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
    Question > Static { width: 60; height: auto; border: round $accent; padding: 1 2;
                        background: $panel; }
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
        Binding("q", "leave('quit')", "quit"), Binding("escape", "leave('look')", "look"),
                Binding("enter", "leave('next')", "next"), Binding("n", "leave('next')", "next")]
    DEFAULT_CSS = """
    EndScreen { align: center middle; }
    EndScreen > Static { width: 64; height: auto; border: heavy $success; padding: 1 2;
                         background: $panel; }
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
    #main.tall #boardbox { width: 100%; height: auto; max-height: 80%; }
    #board { width: auto; height: auto; }
    #side { width: 1fr; min-width: 24; height: 1fr; padding: 0 0 0 1; }
    #status { height: auto; }
    #log { height: 1fr; min-height: 3; scrollbar-size: 1 1; }
    #help { height: 1fr; display: none; border-top: solid $accent; scrollbar-size: 1 1; }
    #cmd { height: 1; border: none; padding: 0 1; }
    #msg { height: 1; padding: 0 1; }
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
        """Whether the status is cut to the last move and the turn (while a panel is open)."""
        self.title = table.game.title

    # --- layout ---------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        with Container(id="main", classes="wide"):
            with ScrollableContainer(id="boardbox"):
                yield Static(id="board")
            with Vertical(id="side"):
                yield Static(id="status")
                yield RichLog(id="log", wrap=True, min_width=20, markup=False)
                with ScrollableContainer(id="help"):
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

    def on_resize(self) -> None:
        self.arrange()

    def arrange(self) -> None:
        """Board and side by side when there is room, else one above the other."""
        main = self.query_one("#main")
        width = self.board_width()
        wide = width + SIDE_MIN + 2 <= self.size.width
        changed = main.has_class("wide") != wide
        main.set_class(wide, "wide")
        main.set_class(not wide, "tall")
        if changed:
            self.update_status()

    def board_width(self) -> int:
        plain = self.drawing().plain
        return max((len(line) for line in plain.split("\n")), default=0)

    # --- what is shown ----------------------------------------------------------------------------
    def viewer(self) -> int | None:
        """Whose view is drawn: the person to move, else the only person, else all public."""
        t = self.table
        p = t.to_move()
        if p is not None and t.seats[p].is_person:
            return p
        persons = [i for i, s in enumerate(t.seats) if s.is_person]
        return persons[0] if len(persons) == 1 else None

    def drawing(self) -> Text:
        """The board's drawing (the render's first lines) with the last move marked."""
        viewer = self.viewer() if not self.table.over() else None
        full = marked(self.table.game, viewer, last_turn(self.table.movers))
        n = board_lines(self.table.game, viewer)
        lines = full.split("\n", allow_blank=True)
        while n > 0 and not lines[n - 1].plain.strip():
            n -= 1
        return Text("\n").join(lines[:n])

    def details(self) -> list[str]:
        """The render's text below the drawing (holdings, scores), blank lines dropped."""
        viewer = self.viewer() if not self.table.over() else None
        full = marked(self.table.game, viewer).plain
        lines = full.split("\n")
        n = board_lines(self.table.game, viewer)
        return [line.rstrip() for line in lines[n:] if line.strip()]

    def refresh_all(self) -> None:
        drawing = self.drawing()
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

    def update_status(self) -> None:
        t = self.table
        out = Text()
        if self.games > 1:
            out.append(_("Game {number} of {games}").format(number=self.number, games=self.games)
                       + "\n", style="bold")
        to_move = ""
        # the holdings and scores only beside the board (below it, `status` shows them)
        short = self.compact or not self.query_one("#main").has_class("wide")
        if short and not self.compact and any(self.details()):
            out.append(_("holdings and scores: type `status`") + "\n", style="dim")
        # the render's parts, not its words: the key is left out, the status's last line is
        # whose turn it is (said below in the table's words)
        _key, facts, status = text_parts(t.game, self.viewer() if not t.over() else None)
        if t.over():
            status = []  # the end is said below, once
        elif status:
            to_move = status[-1].strip()
            status = status[:-1]
        for line in [] if short else [*facts, *status]:
            out.append(line.strip() + "\n")
        if legend(t.game):
            out.append(_("cell codes: type `notation`") + "\n", style="dim")
        if t.game.history:
            mover = t.movers[-1] if t.movers else None
            who = self.seat_name(mover) if mover is not None else ""
            k = last_turn(t.movers)
            turn = ", ".join(str(m) for m in t.game.history[-k:])
            out.append(_("last: {who} {moves}").format(who=who, moves=turn) + "\n", style="bold")
        if self.thinking is not None:
            q, since = self.thinking
            out.append(_("{name} is thinking... {seconds} s").format(
                name=self.seat_name(q), seconds=f"{clock.monotonic() - since:.1f}") + "\n",
                       style="bold cyan")
        elif t.over():
            out.append(words.end_message(t) + "\n", style="bold green")
        else:
            p = t.to_move()
            if p is not None:
                out.append(_("to move: {name}").format(name=self.seat_name(p)) + "\n",
                           style="bold reverse")
                if len(to_move) > 40 and not self.compact:  # the render says more (a card)
                    out.append(to_move.split(", ", 1)[-1] + "\n")
        self.query_one("#status", Static).update(out)

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
        self.query_one("#log", RichLog).write(text)
        if not msg:
            return
        first = text.split("\n")[0]
        first.truncate(max(self.size.width - 2, 20), overflow="ellipsis")
        self.query_one("#msg", Static).update(first)

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
            self.say(explain(t.game, arg) if explain is not None
                     else _("this game has no explain command; try ? for the moves"))
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
        self.query_one("#helptext", Static).update(Text("\n".join(lines)))
        self.query_one("#log").display = False
        self.query_one("#help").display = True
        self.query_one("#help").scroll_home(animate=False)
        self.compact = True
        self.update_status()

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
        if self.compact:
            self.compact = False
            self.update_status()

    def action_close_help(self) -> None:
        self.close_help()

    # --- leaving ----------------------------------------------------------------------------------
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
    if app.result:
        for line in app.result:
            print(line)
    elif not app.table.over():
        print(_("left the game; it is saved: `rulebox play --load last` continues it"))
    return int(code)
