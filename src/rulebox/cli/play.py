"""``rulebox play`` in the line mode: people and agents at one terminal, a script through a
pipe, or a screen reader (``--plain``; the full screen is :mod:`rulebox.tui`).

Commands at the prompt: a move in the game's notation; ``?``/``help`` (a short help: what wins,
the commands that work here, the legal moves grouped); ``moves [KIND]``; ``notation``;
``board``; ``history``; ``undo``; ``hint``; ``explain ARG`` (where the game has it);
``save FILE``; ``draw`` (two-player games); ``resign`` and ``quit`` (both ask first).
Ctrl-C asks too, and a second Ctrl-C leaves. Every game is saved as it goes
(:mod:`rulebox.cli.saves`).

Everything around the rules (whose turn, the computer's turn, undo, draws, resignation, the
rematch, the announcements) is the table's (:class:`rulebox.match.table.Table`); this module
reads lines and prints what the table says.
"""

from __future__ import annotations

import sys
import time as clock
from collections.abc import Callable
from dataclasses import dataclass

from rich.console import Console
from rich.text import Text

from rulebox.cli import text as words
from rulebox.cli.board import last_turn, legend, marked
from rulebox.cli.saves import Autosave
from rulebox.core.errors import RuleboxError
from rulebox.core.game import Game, Termination
from rulebox.core.registry import game_entry
from rulebox.i18n import N_, _
from rulebox.match.records import save_record
from rulebox.match.table import Ending, Seat, Table, TableError

STYLES = {"move": "bold", "agent_error": "bold red", "game_over": "", "undo": "",
          "reshuffle": "dim", "draw_offer": "", "draw_declined": "", "draw_agreed": "",
          "resigned": ""}
"""How each kind of event is printed; announcements (the rest) in bold magenta."""

QUIT = Ending(Termination.QUIT,
              N_("game stopped; it is saved: `rulebox play --load last` continues it"))
LEFT = Ending(Termination.QUIT,
              N_("left the game; it is saved: `rulebox play --load last` continues it"))
"""Endings at the terminal; their reasons are message ids, translated where printed."""
Reader = Callable[[str], str | None]


@dataclass
class Session:
    """One game at the terminal: reads commands, drives the table, prints its events."""

    table: Table
    console: Console
    read: Reader
    time: float = 1.0
    seen: int = 0
    autosave: Autosave | None = None
    think_time: float = 0.0

    @property
    def game(self) -> Game:
        return self.table.game

    def show_board(self, player: int | None) -> None:
        k = last_turn(self.table.movers, self.game.num_players)
        self.console.print(marked(self.game, player, k))
        if self.game.history:
            last = ", ".join(str(m) for m in self.game.history[-k:])
            mover = self.table.movers[-1] if self.table.movers else None
            who = words.agree(self.table.name(mover)) if mover is not None else _("last move")
            self.console.print(Text(" " + _("last move: {who} played {moves}").format(
                who=who, moves=last), style="dim"))

    def show_moves(self, kind: str = "") -> None:
        moves = words.moves_of_kind(self.game, kind)
        if not moves:
            self.console.print(_("no legal moves of kind {kind!r}; type `moves` for all").format(
                kind=words.clean(kind, 20)))
        elif any(" " in m for m in moves):  # moves with spaces: one per line
            self.console.print(f"{words.plural(len(moves), 'legal move')}:\n  "
                               + "\n  ".join(moves))
        else:
            self.console.print(f"{words.plural(len(moves), 'legal move')}: " + " ".join(moves))

    def show_events(self) -> None:
        """Print what happened since the last time (moves, announcements, draws...)."""
        for ev in self.table.events_since(self.seen):
            if ev.kind in ("undo", "game_over", "resigned") or not ev.text:  # said elsewhere
                continue
            style = STYLES.get(ev.kind, "bold magenta")
            line = ev.shown()
            if ev.kind == "move" and ev.player is not None and \
                    self.table.seats[ev.player].is_computer:
                style = "bold cyan"
                if self.think_time:
                    line += f" ({self.think_time:.1f} s)"
            self.console.print(Text(words.agree(line), style=style))
        self.seen = len(self.table.events)

    def save_progress(self) -> None:
        if self.autosave is not None:
            self.autosave.save(self.table)
            if self.autosave.failed and not getattr(self, "_told", False):
                self.console.print(self.autosave.failed, style="dim")
                self._told = True

    # --- the loop -----------------------------------------------------------------------------
    def run(self) -> Ending:
        shown_for: tuple[int, int] | None = None
        table = self.table
        self.seen = len(table.events)
        self.console.print(Text(words.goal(self.game), style="italic"))
        if legend(self.game):  # once: the board's cell codes (again with `board`)
            self.console.print(legend(self.game), highlight=False)
        while not table.over():
            try:
                if (q := table.computer_to_move()) is not None:
                    self.computer_turn(q)
                    shown_for = None
                    continue
                p = table.to_move()
                assert p is not None
                if shown_for != (table.version, p):
                    self.show_board(p)
                    shown_for = (table.version, p)
                line = self.read(f"{words.agree(words.clean(table.name(p)))} > ")
                if line is None:
                    return Ending(Termination.QUIT, _(
                        "input ended; the game was not finished (it is saved: `rulebox play "
                        "--load last` continues it)"))
                ending = self.command(line.strip(), p)
                self.show_events()
                self.save_progress()
                if ending is not None:
                    return ending
            except KeyboardInterrupt:
                if self.interrupted():
                    return LEFT
        if table.ending is not None and table.ending.how == "rules":
            self.show_board(None)
        assert table.ending is not None
        return table.ending

    def computer_turn(self, q: int) -> None:
        start = clock.monotonic()
        name = self.table.name(q)
        if self.console.is_terminal:
            with self.console.status(_("{name} is thinking (Ctrl-C asks to leave)...").format(
                    name=name)):
                self.table.play_computers(limit=1)
        else:
            self.table.play_computers(limit=1)
        self.think_time = clock.monotonic() - start
        self.show_events()
        self.think_time = 0.0
        self.save_progress()

    def interrupted(self) -> bool:
        """Ctrl-C: ask; a second Ctrl-C (or the end of input) leaves."""
        self.console.print()
        self.console.print(_("Ctrl-C: press it again to leave (the game is saved), or Enter to "
                             "go on"), style="bold")
        try:
            answer = self.read("")
        except KeyboardInterrupt:
            return True
        return answer is None or answer.strip().lower() in ("q", "quit", *words.yes_words())

    def confirm(self, question: str, default: bool) -> bool:
        """A yes/no question; the end of input answers ``default``."""
        answer = self.read(question + " " + _("[y/N]") + " ")
        if answer is None:
            return default
        return answer.strip().lower() in words.yes_words()

    def command(self, line: str, p: int) -> Ending | None:
        word, _sep, arg = line.partition(" ")
        word = word.lower()
        arg = arg.strip()
        console = self.console
        table = self.table
        if not line:
            return None
        try:
            if word in ("?", "help"):
                for h in words.short_help(table, p):
                    console.print(h, highlight=False)
            elif word in ("moves", "legal"):
                self.show_moves(arg)
            elif word == "notation":
                console.print("\n".join(words.notation_lines(self.game)), highlight=False)
                if legend(self.game):
                    console.print(legend(self.game), highlight=False)
            elif word == "history":
                moves = [str(m) for m in self.game.history]
                console.print(" ".join(f"{i}.{m}" for i, m in enumerate(moves, 1))
                              or _("no moves yet"))
            elif word in ("board", "show", "status"):  # `status` as on the full screen
                self.show_board(p)
                if legend(self.game):
                    console.print(legend(self.game), highlight=False)
            elif word in ("quit", "exit"):
                if self.confirm(_("leave the game? It is saved; `rulebox play --load last` "
                                  "continues it."), True):
                    return QUIT
            elif word == "undo":
                for move in table.undo(p):
                    console.print(_("took back {move}").format(move=move))
            elif word == "hint":
                console.print(_("hint: the computer would play {move}").format(
                    move=table.hint(self.time)))
            elif word == "explain":
                explain = game_entry(self.game.id).explain
                if explain is None:
                    console.print(_("this game has no explain command; try ? for the moves"))
                else:
                    console.print(explain(self.game, arg), highlight=False)
            elif word == "save":
                self.save(arg)
            elif word == "resign":
                if self.game.num_players not in (1, 2, 4):
                    console.print(_("resign is for one- and two-player and team games; use quit"))
                elif self.confirm(_("resign this game?"), False):
                    return table.resign(p)
            elif word == "draw":
                return self.offer_draw(p)
            else:
                table.play(p, line)
        except TableError as e:
            console.print(Text(str(e), style="bold red" if e.code != "nothing_to_undo" else ""))
        except RuleboxError as e:
            console.print(Text(str(e), style="bold red"))
            if word not in ("explain", "hint"):
                console.print(_("type ? for help and the legal moves"), style="dim")
        return None

    def save(self, path: str) -> None:
        if not path:
            self.console.print(_("usage: save FILE"))
            return
        try:
            save_record(self.table.record(), path)
            self.console.print(_("saved to {path}").format(path=path))
        except OSError as e:
            self.console.print(Text(_("cannot save to {path}: {error}").format(
                path=path, error=e.strerror), style="red"))

    def offer_draw(self, p: int) -> Ending | None:
        table = self.table
        if self.game.num_players != 2:
            self.console.print(_("draw offers are for two-player games"))
            return None
        answer = table.offer_draw(p)
        if answer == "offered":
            q = table.opponents(p)[0]
            self.show_events()
            reply = self.read(_("{name}: accept a draw?").format(name=table.name(q)) + " "
                              + _("[y/n]") + " ")
            table.answer_draw(q, reply is not None
                              and reply.strip().lower() in words.yes_words())
        return table.ending


def read_line(prompt: str) -> str | None:
    """A line from the person (or the script on standard input); ``None`` at the end. Ctrl-C
    goes up to the session, which asks."""
    try:
        line = input(prompt)
        if not sys.stdin.isatty():  # a script: show what it typed, so the transcript reads
            print(line)
        return line
    except EOFError:
        print()
        return None


def make_console() -> Console:
    """Rich decides colour: none when ``NO_COLOR`` is set or output is not a terminal."""
    return Console(highlight=False, soft_wrap=True)


def play_match(
    first: Table,
    games: int,
    console: Console,
    read: Reader = read_line,
    time: float = 1.0,
    save: str | None = None,
    autosave: Autosave | None = None,
) -> int:
    """Play ``games`` games (a match when more than one) and print each result once, the score
    and who won the match; each next game is the table's rematch."""
    table = first
    n = table.game.num_players
    score = [0.0] * n
    played = 0
    for number in range(1, games + 1):
        if games > 1:
            console.rule(_("Game {number} of {games}").format(number=number, games=games))
            console.print(_("options:") + " " + " ".join(
                f"{k}={v}" for k, v in table.game.options().items()))
        session = Session(table, console, read, time, autosave=autosave)
        ending = session.run()
        session.save_progress()
        console.print(Text(_("Game over: {how}").format(how=words.end_message(table))
                           if ending.how != "quit" else ending.shown(), style="bold"))
        if save:
            where = save if games == 1 else f"{save}.{number}"
            save_record(table.record(), where)
            console.print(_("record saved to {path}").format(path=where))
        if ending.how == "quit":
            break
        played += 1
        if ending.winners:
            for w in ending.winners:
                score[w] += 1
        elif n > 1:
            for i in range(n):
                score[i] += 0.5
        if games > 1:
            console.print(_("match score:") + " " + ", ".join(
                f"{table.name(i)} {score[i]:g}" for i in range(n)))
        if number < games:
            table = table.rematch()
            if autosave is not None:
                autosave.path = None
    if games > 1 and played:
        names = [table.name(i) for i in range(n)]
        console.print(Text(words.match_message(names, score, played), style="bold"))
    return 0


__all__ = ["Seat", "Session", "Table", "make_console", "play_match", "read_line"]
