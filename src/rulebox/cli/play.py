"""``rulebox play``: people and agents at one terminal, or a script through a pipe.

Commands at the prompt: a move in the game's notation; ``?``/``help``; ``moves``; ``board``;
``undo``; ``hint``; ``explain ARG`` (where the game has it); ``save FILE``; ``draw`` (offer a
draw, two-player games); ``resign``; ``quit``.

Everything around the rules (whose turn, the computer's turn, undo, draws, resignation, the
rematch, the announcements) is the table's (:class:`rulebox.match.table.Table`); this module
reads lines and prints what the table says.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass

from rich.console import Console
from rich.text import Text

from rulebox.core.errors import RuleboxError
from rulebox.core.game import Game
from rulebox.core.registry import game_entry
from rulebox.match.records import save_record
from rulebox.match.table import Ending, Seat, Table, TableError

HELP = """\
Commands: a move in the notation below, or
  ? / help      this help and the legal moves      moves        the legal moves only
  board         draw the board again               undo         take back your last move
  hint          what the computer would play       explain X    explain a piece/card/field
  save FILE     save the game record               draw         offer a draw
  history       the moves so far
  resign        give up the game                   quit         stop (the game is not saved)"""

STYLES = {"move": "bold", "agent_error": "bold red", "game_over": "", "undo": "",
          "reshuffle": "dim", "draw_offer": "", "draw_declined": "", "draw_agreed": "",
          "resigned": ""}
"""How each kind of event is printed; announcements (the rest) in bold magenta."""

QUIT = Ending("quit", "game stopped")


@dataclass
class Session:
    """One game at the terminal: reads commands, drives the table, prints its events."""

    table: Table
    console: Console
    read: Callable[[str], str | None]
    time: float = 1.0
    seen: int = 0

    @property
    def game(self) -> Game:
        return self.table.game

    def show_board(self, player: int | None) -> None:
        self.console.print(game_entry(self.game.id).render(self.game, player))

    def show_moves(self) -> None:
        moves = sorted(str(m) for m in self.game.legal_moves())
        if any(" " in m for m in moves):  # moves with spaces: one per line
            self.console.print(f"{len(moves)} legal moves:\n  " + "\n  ".join(moves))
        else:
            self.console.print(f"{len(moves)} legal moves: " + " ".join(moves))

    def show_events(self) -> None:
        """Print what happened since the last time (moves, announcements, draws...)."""
        for ev in self.table.events_since(self.seen):
            if ev.kind in ("undo", "game_over", "resigned") or not ev.text:  # said elsewhere
                continue
            style = STYLES.get(ev.kind, "bold magenta")
            if ev.kind == "move" and ev.player is not None and \
                    self.table.seats[ev.player].is_computer:
                style = "bold cyan"
            self.console.print(Text(ev.text, style=style))
        self.seen = len(self.table.events)

    # --- the loop -----------------------------------------------------------------------------
    def run(self) -> Ending:
        shown_for: tuple[int, int] | None = None
        table = self.table
        self.seen = len(table.events)
        while not table.over():
            if table.computer_to_move() is not None:
                table.play_computers(limit=1)
                self.show_events()
                shown_for = None
                continue
            p = table.to_move()
            assert p is not None
            if shown_for != (table.version, p):
                self.show_board(p)
                shown_for = (table.version, p)
            line = self.read(f"{table.name(p)} > ")
            if line is None:
                return Ending("quit", "input ended; the game was not finished")
            ending = self.command(line.strip(), p)
            self.show_events()
            if ending is not None:
                return ending
        if table.ending is not None and table.ending.how == "rules":
            self.show_board(None)
        assert table.ending is not None
        return table.ending

    def command(self, line: str, p: int) -> Ending | None:
        word, _, arg = line.partition(" ")
        word = word.lower()
        arg = arg.strip()
        console = self.console
        table = self.table
        if not line:
            return None
        try:
            if word in ("?", "help"):
                console.print(HELP, highlight=False)
                console.print(game_entry(self.game.id).notation_help, highlight=False)
                self.show_moves()
            elif word in ("moves", "legal"):
                self.show_moves()
            elif word == "history":
                moves = [str(m) for m in self.game.history]
                console.print(" ".join(f"{i}.{m}" for i, m in enumerate(moves, 1))
                              or "no moves yet")
            elif word in ("board", "show"):
                self.show_board(p)
            elif word in ("quit", "exit"):
                return QUIT
            elif word == "undo":
                for move in table.undo(p):
                    console.print(f"took back {move}")
            elif word == "hint":
                console.print(f"hint: the computer would play {table.hint(self.time)}")
            elif word == "explain":
                explain = game_entry(self.game.id).explain
                if explain is None:
                    console.print("this game has no explain command; try ? for the moves")
                else:
                    console.print(explain(self.game, arg), highlight=False)
            elif word == "save":
                self.save(arg)
            elif word == "resign":
                if self.game.num_players not in (1, 2, 4):
                    console.print("resign is for one- and two-player and team games; use quit")
                else:
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
                console.print("type ? for help and the legal moves", style="dim")
        return None

    def save(self, path: str) -> None:
        if not path:
            self.console.print("usage: save FILE")
            return
        try:
            save_record(self.table.record(), path)
            self.console.print(f"saved to {path}")
        except OSError as e:
            self.console.print(f"[red]cannot save to {path}: {e.strerror}[/red]")

    def offer_draw(self, p: int) -> Ending | None:
        table = self.table
        if self.game.num_players != 2:
            self.console.print("draw offers are for two-player games")
            return None
        answer = table.offer_draw(p)
        if answer == "offered":
            q = table.opponents(p)[0]
            self.show_events()
            reply = self.read(f"{table.name(q)}: accept a draw? [y/n] ")
            table.answer_draw(q, reply is not None and reply.strip().lower() in ("y", "yes"))
        return table.ending


def read_line(prompt: str) -> str | None:
    """A line from the person (or the script on standard input); ``None`` at the end."""
    try:
        line = input(prompt)
        if not sys.stdin.isatty():  # a script: show what it typed, so the transcript reads
            print(line)
        return line
    except EOFError:
        print()
        return None
    except KeyboardInterrupt:
        print()
        return None


def make_console() -> Console:
    """Rich decides colour: none when ``NO_COLOR`` is set or output is not a terminal."""
    return Console(highlight=False, soft_wrap=True)


def play_match(
    first: Table,
    games: int,
    console: Console,
    read: Callable[[str], str | None] = read_line,
    time: float = 1.0,
    save: str | None = None,
) -> int:
    """Play ``games`` games (a match when more than one) and print each result and the score;
    each next game is the table's rematch."""
    table = first
    n = table.game.num_players
    score = [0.0] * n
    for number in range(1, games + 1):
        if games > 1:
            console.rule(f"Game {number} of {games}")
            console.print("options: " + " ".join(
                f"{k}={v}" for k, v in table.game.options().items()))
        session = Session(table, console, read, time)
        ending = session.run()
        console.print(Text(table.describe_end() if ending.how != "quit" else ending.reason,
                           style="bold"))
        if save:
            where = save if games == 1 else f"{save}.{number}"
            save_record(table.record(), where)
            console.print(f"record saved to {where}")
        if ending.how == "quit":
            break
        if ending.winners:
            for w in ending.winners:
                score[w] += 1
        elif n > 1:
            for i in range(n):
                score[i] += 0.5
        if games > 1:
            console.print("match score: " + ", ".join(
                f"{table.name(i)} {score[i]:g}" for i in range(n)))
        if number < games:
            table = table.rematch()
    return 0


__all__ = ["Seat", "Session", "Table", "make_console", "play_match", "read_line"]
