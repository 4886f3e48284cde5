"""A table's log replayed, written once: every change to a game in order (a move, ``!undo``,
``!reshuffle SEED``), from which the table, a saved record, the server's replay of a position
and the fairness check rebuild the game exactly, reshuffles included."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence

from rulebox.core.errors import RuleboxError, StateError
from rulebox.core.game import Game
from rulebox.core.registry import new_game
from rulebox.i18n import _

UNDO = "!undo"
RESHUFFLE = "!reshuffle "


def apply_step(game: Game, step: str, reshuffled: Callable[[int], None] | None = None
               ) -> int | None:
    """Play one step of a log on ``game`` (a move checked by the rules): answers who made it
    for a move, ``None`` for an undo or a reshuffle. ``reshuffled`` is told each reshuffle's
    seed before it is made (the fairness check refuses one it was not committed to). Raises
    what the game raises, or ``ValueError`` for a malformed reshuffle."""
    if step == UNDO:
        game.undo()
        return None
    if step.startswith(RESHUFFLE):
        seed = int(step.split()[1])
        if reshuffled is not None:
            reshuffled(seed)
        reshuffle = getattr(game, "reshuffle_unseen", None)
        if reshuffle is not None:
            reshuffle(random.Random(seed))
        return None
    mover = game.current_player()
    game.apply(step)
    return mover


def _broken(i: int, step: str, e: Exception) -> StateError:
    return StateError(_("step {i} ({step!r}) of the log does not replay: {e}").format(
        i=i, step=step[:40], e=e))


def replay_movers(game_id: str, options: Mapping[str, str], steps: Sequence[str]
                  ) -> tuple[Game, list[int]]:
    """The game and who made each move of its history, from a log, every move checked;
    ``StateError`` says where it breaks."""
    game = new_game(game_id, options)
    movers: list[int] = []
    for i, step in enumerate(steps, start=1):
        try:
            mover = apply_step(game, step)
        except (RuleboxError, ValueError, IndexError) as e:
            raise _broken(i, step, e) from None
        if mover is not None:
            movers.append(mover)
        elif step == UNDO:
            movers.pop()
    return game, movers


def replay_log(game_id: str, options: Mapping[str, str], steps: Sequence[str]) -> Game:
    """A game rebuilt from a table's log, every move checked; ``StateError`` says where it
    breaks."""
    return replay_movers(game_id, options, steps)[0]


def position_at(game_id: str, options: Mapping[str, str], steps: Sequence[str],
                line: Sequence[str]) -> Game:
    """The game after the moves ``line`` as it last stood on the log ``steps`` (so that a
    replay after takebacks shows what was dealt then, not the original order)."""
    found: Game | None = None
    game = new_game(game_id, options)
    want = [str(m) for m in line]
    for k in range(len(steps) + 1):
        if len(game.history) == len(want) and [str(m) for m in game.history] == want and (
                k == len(steps) or not steps[k].startswith(RESHUFFLE.strip())):
            found = game.clone()
        if k < len(steps):
            try:
                apply_step(game, steps[k])
            except (RuleboxError, ValueError, IndexError) as e:
                raise _broken(k + 1, steps[k], e) from None
    if found is None:
        raise StateError(_("that position is not on the game's log"))
    return found


def movers_of(game: Game) -> list[int]:
    """Who made each move of ``game``'s history (replayed from its start, a drawn one too)."""
    g = game.start_copy()
    out = []
    for m in game.history:
        out.append(g.current_player())
        g.apply_unchecked(m)
    return out
