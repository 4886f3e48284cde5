"""The engine line protocol of PROTOCOL.md: one command per line in, ``=``/``?`` answers out.

The engine never crashes on input: every command is handled inside one ``try`` that turns any
error into a ``?`` answer, and a failed command never changes the state (moves are checked before
they are applied; ``load`` builds the new game before it replaces the old one).

Programs parse the answers, so the engine speaks English whatever the locale says: its refusal
reasons are in another language only when ``--lang`` (``rulebox engine --lang de``) or
``RULEBOX_LANG`` asks for one (:func:`engine_language`). The protocol's keywords (``=``, ``?``,
``illegal:``, ``over``, ``ongoing``, the command names), the notation and the rule IDs never
change with the language.
"""

from __future__ import annotations

import json
import os
import sys
from typing import IO

from rulebox.ai.base import agent_entries
from rulebox.core.errors import RuleboxError
from rulebox.core.game import TERMINAL, Game
from rulebox.core.load import load_any
from rulebox.core.options import option_pairs
from rulebox.core.registry import game_entry, game_ids
from rulebox.i18n import _, normalize, use_language
from rulebox.match.agents import COMPUTER, AgentSpec
from rulebox.match.table import Seat, Table

COMMANDS: dict[str, str] = {
    "games": "games",
    "new": "new <game> [key=value ...]",
    "legal": "legal",
    "play": "play <move>",
    "undo": "undo",
    "turn": "turn",
    "result": "result",
    "show": "show",
    "state": "state",
    "load": "load <json>",
    "view": "view <player>",
    "history": "history",
    "genmove": "genmove [agent[:key=value,...]] [key=value ...]",
    "agents": "agents",
    "help": "help",
    "list_commands": "list_commands",
    "known_command": "known_command <command>",
    "quit": "quit",
}
"""Every command with its usage, in PROTOCOL.md's order; ``list_commands`` / ``help`` /
``known_command`` (GTP's discovery commands) answer from it."""

MAX_LINE = 1 << 20
"""Longest command line read (1 MiB); a longer one is refused and skipped."""


class EngineError(Exception):
    """A command that cannot be carried out; its text becomes the ``?`` answer."""


def engine_language(explicit: str | None = None, env: dict[str, str] | None = None) -> str:
    """The language of the engine's texts: ``explicit`` (``--lang``), then ``RULEBOX_LANG``,
    else English; never the locale (``LANG``), since programs parse the answers."""
    env = dict(os.environ) if env is None else env
    return normalize(explicit) or normalize(env.get("RULEBOX_LANG")) or "en"


class Engine:
    """One engine session: at most one game at a time, answering in ``lang`` (English by
    default)."""

    def __init__(self, lang: str = "en") -> None:
        self.lang = normalize(lang) or "en"
        self.game: Game | None = None
        self.done = False
        self._tab: Table | None = None

    def _table(self) -> Table:
        """The table around the current game (for ``genmove``: the turn's clock, the agent
        spec, the failure report); rebuilt when the game was replaced or changed."""
        game = self._need_game()
        t = self._tab
        if t is None or t.game is not game or len(t.movers) != len(game.history):
            t = Table(game, [Seat.remote()] * game.num_players, seed=0)
            self._tab = t
        return t

    def _need_game(self) -> Game:
        if self.game is None:
            raise EngineError(_("no game: start one with 'new <game>' (see 'games')"))
        return self.game

    def handle(self, line: str) -> str | None:
        """Answer one line: the full response text (ending in a blank line), or ``None`` for a
        blank or comment line."""
        text = line.strip()
        if not text or text.startswith("#"):
            return None
        with use_language(self.lang):
            return self._answer(text)

    def _answer(self, text: str) -> str:
        try:
            result = self._dispatch(text)
        except (EngineError, RuleboxError) as e:
            return self._format(False, str(e))
        except RecursionError:
            return self._format(False, _("input nested too deeply"))
        except Exception as e:  # never crash on input: report and go on
            return self._format(False, _("internal error: {name}: {error}").format(
                name=type(e).__name__, error=e))
        return self._format(True, result)

    @staticmethod
    def _format(ok: bool, result: str) -> str:
        """Frame a result: ``=``/``?``, a space, the first line, the further lines, a blank line.

        An empty line would end the response early, so further lines that are empty (the
        spacing of a drawn board) are left out."""
        lines = [ln.rstrip("\r") for ln in result.split("\n")] if result else [""]
        head = ("= " if ok else "? ") + lines[0]
        rest = [ln for ln in lines[1:] if ln.strip()]
        return "\n".join([head, *rest]) + "\n\n"

    def _dispatch(self, text: str) -> str:
        parts = text.split(None, 1)
        command = parts[0].lower()
        rest = parts[1].strip() if len(parts) > 1 else ""
        args = rest.split()
        handler = getattr(self, f"cmd_{command}", None)
        if handler is None or command not in COMMANDS:
            shown = command if len(command) <= 30 else command[:27] + "..."
            raise EngineError(_("unknown command {shown!r}").format(shown=shown))
        return handler(rest, args)

    # --- commands -------------------------------------------------------------------------------
    def cmd_games(self, rest: str, args: list[str]) -> str:
        return "\n".join(f"{g} {game_entry(g).title}" for g in game_ids())

    def cmd_new(self, rest: str, args: list[str]) -> str:
        if not args:
            raise EngineError(_("usage: new <game> [key=value ...]; games: {game_ids}").format(
                                  game_ids=", ".join(game_ids())))
        entry = game_entry(args[0])
        game = entry.cls.new(option_pairs(args[1:]))
        self.game = game
        return self._describe(game)

    @staticmethod
    def _describe(game: Game) -> str:
        return " ".join([game.id, *(f"{k}={v}" for k, v in game.options().items())])

    def cmd_legal(self, rest: str, args: list[str]) -> str:
        game = self._need_game()
        return "\n".join(sorted(str(m) for m in game.legal_moves()))

    def cmd_play(self, rest: str, args: list[str]) -> str:
        self._need_game()
        if not rest:
            raise EngineError(_("usage: play <move>"))
        return str(self._table().play(None, rest))

    def cmd_undo(self, rest: str, args: list[str]) -> str:
        """The exact undo of the rules (PROTOCOL.md): programs driving the engine see the whole
        state anyway, so the table's reshuffle after a person's undo does not apply here."""
        return str(self._need_game().undo())

    def cmd_turn(self, rest: str, args: list[str]) -> str:
        player = self._need_game().current_player()
        return "over" if player == TERMINAL else str(player)

    def cmd_result(self, rest: str, args: list[str]) -> str:
        outcome = self._need_game().outcome()
        return "ongoing" if outcome is None else outcome.result_line()

    def cmd_show(self, rest: str, args: list[str]) -> str:
        game = self._need_game()
        return game_entry(game.id).render(game, None).plain.rstrip("\n")

    def cmd_state(self, rest: str, args: list[str]) -> str:
        return json.dumps(self._need_game().to_json(), separators=(",", ":"), sort_keys=True)

    def cmd_load(self, rest: str, args: list[str]) -> str:
        if not rest:
            raise EngineError(_("usage: load <json state or: game [key=value ...] diagram>"))
        self.game = load_any(rest)
        return self._describe(self.game)

    def cmd_view(self, rest: str, args: list[str]) -> str:
        game = self._need_game()
        if len(args) != 1:
            raise EngineError(_("usage: view <player>"))
        try:
            player = int(args[0])
        except ValueError:
            raise EngineError(_("player must be a number, got {arg!r}").format(
                arg=args[0][:20])) from None
        if not 0 <= player < game.num_players:
            raise EngineError(_("no player {player}: players are 0 to {num_players}").format(
                                  player=player, num_players=game.num_players - 1))
        return json.dumps(game.view(player), separators=(",", ":"), sort_keys=True)

    def cmd_history(self, rest: str, args: list[str]) -> str:
        return "\n".join(str(m) for m in self._need_game().history)

    def cmd_genmove(self, rest: str, args: list[str]) -> str:
        """One decision of an agent (AgentSpec, ``time=`` the budget of the whole turn). An
        agent that fails is reported (``?``) and logged, and nothing is played."""
        game = self._need_game()
        if game.is_terminal():
            raise EngineError(_("the game is over"))
        spec = AgentSpec.from_words(args, COMPUTER)
        spec.make(game.id)  # an unknown agent or a bad setting is refused here
        table = self._table()
        p = game.current_player()
        table.seats[p] = Seat.computer(spec)
        try:
            decision = table.decision()
            assert decision is not None
            try:
                move = table.think(decision)
            except Exception as e:
                table.fail(decision, e)  # logged; the engine's own game is left as it was
                self._tab = None
                raise EngineError(_("agent {label} failed: {name}: {e}").format(
                                      label=spec.label, name=type(e).__name__, e=e)) from None
        finally:
            table.seats[p] = Seat.remote()
        return str(table.play(p, move))

    def cmd_help(self, rest: str, args: list[str]) -> str:
        return "\n".join(COMMANDS.values())

    def cmd_list_commands(self, rest: str, args: list[str]) -> str:
        return "\n".join(COMMANDS)

    def cmd_known_command(self, rest: str, args: list[str]) -> str:
        if len(args) != 1:
            raise EngineError(_("usage: known_command <command>"))
        return "true" if args[0].lower() in COMMANDS else "false"

    def cmd_agents(self, rest: str, args: list[str]) -> str:
        game_id = self.game.id if self.game is not None else None
        return "\n".join(f"{e.name} {_(e.description) if e.description else ''}".rstrip()
                         for e in agent_entries(game_id))

    def cmd_quit(self, rest: str, args: list[str]) -> str:
        self.done = True
        return ""


def _read_lines(stream: IO[bytes]):  # type: ignore[no-untyped-def]
    """Yield decoded lines; a line over :data:`MAX_LINE` bytes is yielded as ``None``."""
    while True:
        chunk = stream.readline(MAX_LINE + 1)
        if not chunk:
            return
        if len(chunk) > MAX_LINE and not chunk.endswith(b"\n"):
            while True:  # skip the rest of the oversized line
                more = stream.readline(MAX_LINE)
                if not more or more.endswith(b"\n"):
                    break
            yield None
            continue
        yield chunk.decode("utf-8", errors="replace").replace("\x00", "\ufffd")


def run(stdin: IO[bytes] | None = None, stdout: IO[str] | None = None,
        lang: str | None = None) -> int:
    """Serve the protocol until ``quit`` or the end of input; exit status 0. ``lang`` is
    ``--lang`` (see :func:`engine_language`)."""
    inp = stdin if stdin is not None else sys.stdin.buffer
    out = stdout if stdout is not None else sys.stdout
    engine = Engine(engine_language(lang))
    for line in _read_lines(inp):
        if line is None:
            with use_language(engine.lang):
                too_long = _("line too long (over {limit} bytes)").format(limit=MAX_LINE)
            response: str | None = Engine._format(False, too_long)
        else:
            response = engine.handle(line)
        if response is not None:
            try:
                out.write(response)
                out.flush()
            except BrokenPipeError:  # the reader went away: nothing left to answer
                break
        if engine.done:
            break
    return 0
