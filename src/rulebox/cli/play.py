"""``rulebox play``: people and agents at one terminal, or a script through a pipe.

Commands at the prompt: a move in the game's notation; ``?``/``help``; ``moves``; ``board``;
``undo``; ``hint``; ``explain ARG`` (where the game has it); ``save FILE``; ``draw`` (offer a
draw, two-player games); ``claim`` where the rules have it; ``resign``; ``quit``.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from dataclasses import dataclass, field

from rich.console import Console
from rich.text import Text

from rulebox.ai.base import make_agent
from rulebox.cli.seats import Seat, default_agent
from rulebox.core.errors import RuleboxError
from rulebox.core.game import Game, Outcome
from rulebox.core.registry import GameEntry, game_entry
from rulebox.match.records import Record, save_record

HELP = """\
Commands: a move in the notation below, or
  ? / help      this help and the legal moves      moves        the legal moves only
  board         draw the board again               undo         take back your last move
  hint          what the computer would play       explain X    explain a piece/card/field
  save FILE     save the game record               draw         offer a draw
  history       the moves so far
  resign        give up the game                   quit         stop (the game is not saved)"""


@dataclass
class Ending:
    """How a game at the terminal ended: by the rules, or by the people at the table."""

    outcome: Outcome | None
    how: str  # "rules", "resigned", "agreed", "quit"
    text: str
    winners: tuple[int, ...] = ()


@dataclass
class Session:
    """One game at the terminal."""

    game: Game
    seats: list[Seat]
    console: Console
    read: Callable[[str], str | None]
    time: float = 1.0
    started: str | None = None
    movers: list[int] = field(default_factory=list)
    pending: list[str] = field(default_factory=list)

    @property
    def entry(self) -> GameEntry:
        return game_entry(self.game.id)

    def name(self, p: int) -> str:
        seat = self.seats[p]
        who = "you" if seat.is_human and sum(s.is_human for s in self.seats) == 1 else (
            "person" if seat.is_human else seat.spec.split(":")[0])
        seat_name = self.entry.seat_name(p)
        if seat_name == f"player {p}":
            return f"player {p} ({who})"
        return f"player {p} ({seat_name}, {who})"

    def players(self) -> list[str]:
        return [s.spec for s in self.seats]

    def record(self) -> Record:
        rec = Record.of(self.game, self.players(), self.started)
        return rec

    # --- drawing ------------------------------------------------------------------------------
    def show_board(self, player: int | None) -> None:
        self.console.print(self.entry.render(self.game, player))

    def show_moves(self) -> None:
        moves = sorted(str(m) for m in self.game.legal_moves())
        if any(" " in m for m in moves):  # moves with spaces: one per line
            self.console.print(f"{len(moves)} legal moves:\n  " + "\n  ".join(moves))
        else:
            self.console.print(f"{len(moves)} legal moves: " + " ".join(moves))

    # --- the loop -----------------------------------------------------------------------------
    def run(self) -> Ending:
        shown_for: tuple[int, int] | None = None
        while not self.game.is_terminal():
            p = self.game.current_player()
            seat = self.seats[p]
            if not seat.is_human:
                assert seat.agent is not None
                move = seat.agent.choose(self.game.clone())
                self._apply(str(move))
                self.console.print(Text(f"{self.name(p)} plays {move}", style="bold cyan"))
                self.flush_announcements()
                shown_for = None
                continue
            if shown_for != (len(self.game.history), p):
                self.show_board(p)
                shown_for = (len(self.game.history), p)
            line = self.read(f"{self.name(p)} > ")
            if line is None:
                return Ending(None, "quit", "input ended; the game was not finished")
            ending = self.command(line.strip(), p)
            if ending is not None:
                return ending
        self.show_board(None)
        outcome = self.game.outcome()
        assert outcome is not None
        return Ending(outcome, "rules", self.describe(outcome), outcome.winners)

    def _apply(self, text: str) -> object:
        """Play a move (checked) and say what it did beyond the move itself, where the game
        has an ``announce`` hook (a bonus move, a skipped turn)."""
        p = self.game.current_player()
        announce = self.entry.extra.get("announce")
        before = self.game.position_json() if announce else None
        move = self.game.apply(text)
        self.movers.append(p)
        if announce:
            for line in announce(self.game, p, before):
                self.pending.append(line)
        return move

    def flush_announcements(self) -> None:
        for line in self.pending:
            self.console.print(Text(line, style="bold magenta"))
        self.pending.clear()

    def describe(self, outcome: Outcome) -> str:
        if outcome.winners:
            who = " and ".join(self.name(w) for w in outcome.winners)
            verb = "win" if len(outcome.winners) > 1 else "wins"
            text = f"{who} {verb}: {outcome.reason}"
        else:
            text = f"no winner: {outcome.reason}"
        if outcome.scores is not None:
            text += " (score " + ", ".join(str(s) for s in outcome.scores) + ")"
        return text

    def command(self, line: str, p: int) -> Ending | None:
        word, _, arg = line.partition(" ")
        word = word.lower()
        arg = arg.strip()
        console = self.console
        if not line:
            return None
        if word in ("?", "help"):
            console.print(HELP, highlight=False)
            console.print(self.entry.notation_help, highlight=False)
            self.show_moves()
        elif word in ("moves", "legal"):
            self.show_moves()
        elif word == "history":
            moves = [str(m) for m in self.game.history]
            console.print(" ".join(f"{i}.{m}" for i, m in enumerate(moves, 1)) or "no moves yet")
        elif word in ("board", "show"):
            self.show_board(p)
        elif word == "quit" or word == "exit":
            return Ending(None, "quit", "game stopped")
        elif word == "undo":
            self.undo()
        elif word == "hint":
            agent = make_agent(default_agent(self.game.id), self.game.id,
                               {"time": str(self.time), "seed": str(len(self.movers))})
            console.print(f"hint: the computer would play {agent.choose(self.game.clone())}")
        elif word == "explain":
            if self.entry.explain is None:
                console.print("this game has no explain command; try ? for the moves")
            else:
                try:
                    console.print(self.entry.explain(self.game, arg), highlight=False)
                except RuleboxError as e:
                    console.print(f"[red]{e}[/red]")
        elif word == "save":
            if not arg:
                console.print("usage: save FILE")
            else:
                try:
                    save_record(self.record(), arg)
                    console.print(f"saved to {arg}")
                except OSError as e:
                    console.print(f"[red]cannot save to {arg}: {e.strerror}[/red]")
        elif word == "resign":
            return self.resign(p)
        elif word == "draw":
            return self.offer_draw(p)
        else:
            try:
                move = self._apply(line)
                console.print(Text(f"{self.name(p)} plays {move}", style="bold"))
                self.flush_announcements()
            except RuleboxError as e:
                console.print(Text(str(e), style="bold red"))
                console.print("type ? for help and the legal moves", style="dim")
        return None

    def undo(self) -> None:
        """Take back moves until the last move of a person is undone."""
        humans = {i for i, s in enumerate(self.seats) if s.is_human}
        if not any(m in humans for m in self.movers):
            self.console.print("there is no move of yours to undo")
            return
        while self.movers:
            mover = self.movers.pop()
            move = self.game.undo()
            self.console.print(f"took back {move}")
            if mover in humans:
                break

    def opponents(self, p: int) -> list[int]:
        n = self.game.num_players
        if n == 4:
            return [q for q in range(n) if q % 2 != p % 2]
        return [q for q in range(n) if q != p]

    def resign(self, p: int) -> Ending | None:
        if self.game.num_players not in (2, 4):
            if self.game.num_players == 1:
                return Ending(None, "resigned", f"{self.name(p)} gives up")
            self.console.print("resign is for two-player and team games; use quit")
            return None
        winners = tuple(self.opponents(p))
        who = " and ".join(self.name(w) for w in winners)
        return Ending(None, "resigned", f"{self.name(p)} resigns; {who} win(s)", winners)

    def offer_draw(self, p: int) -> Ending | None:
        if self.game.num_players != 2:
            self.console.print("draw offers are for two-player games")
            return None
        q = 1 - p
        seat = self.seats[q]
        if seat.is_human:
            answer = self.read(f"{self.name(q)}: accept a draw? [y/n] ")
            accepted = answer is not None and answer.strip().lower() in ("y", "yes")
        else:
            accepted = self.computer_accepts_draw(q)
        if accepted:
            return Ending(None, "agreed", "draw agreed")
        self.console.print(f"{self.name(q)} declines the draw")
        return None

    def computer_accepts_draw(self, q: int, playouts: int = 200) -> bool:
        """The computer accepts when random playouts from what it may see (hidden parts redrawn
        by ``determinize``) say it is losing: a mean return below -0.1."""
        rng = random.Random(len(self.game.history))
        total = 0.0
        for _ in range(playouts):
            g = self.game.determinize(q, rng)
            while not g.is_terminal():
                moves = g.legal_moves()
                g.apply_unchecked(moves[rng.randrange(len(moves))])
            total += g.returns()[q]
        return total / playouts < -0.1


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
    first: Game,
    seats: list[Seat],
    games: int,
    console: Console,
    read: Callable[[str], str | None] = read_line,
    time: float = 1.0,
    save: str | None = None,
    movers: list[int] | None = None,
) -> int:
    """Play ``games`` games (a match when more than one) and print each result and the score."""
    entry = game_entry(first.id)
    n = first.num_players
    score = [0.0] * n
    game = first
    for number in range(1, games + 1):
        if games > 1:
            console.rule(f"Game {number} of {games}")
            console.print("options: " + " ".join(f"{k}={v}" for k, v in game.options().items()))
        session = Session(game, seats, console, read, time, movers=list(movers or []))
        ending = session.run()
        console.print(Text(ending.text, style="bold"))
        if save:
            rec = session.record()
            save_record(rec, save if games == 1 else f"{save}.{number}")
            console.print(f"record saved to {save if games == 1 else f'{save}.{number}'}")
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
                f"{session.name(i)} {score[i]:g}" for i in range(n)))
        if number < games:
            rematch = entry.extra.get("rematch")
            opts = game.options()
            if rematch is not None:
                opts = rematch(opts, ending.outcome if ending.how == "rules" else Outcome(
                    ending.winners, None, ending.how))
            else:
                opts = dict(opts, seed=str(int(opts.get("seed", "0")) + 1))
            game = entry.cls.new(opts)
            movers = []
    return 0
