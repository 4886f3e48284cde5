"""Per-game evaluations for search agents.

A heuristic module ``rulebox.ai.heuristics.<module>`` defines

- ``values(game) -> list[float]``: a guess at the final :meth:`Game.returns` of every player, within
  the game's ``return_bounds``, from public accessors, ``position_json`` or ``view`` only;
- optionally ``order_key(game, move) -> float``: larger first, for move ordering in alpha-beta and
  for greedy playouts (cheap: it must not play the move);
- optionally ``playout_move(game, moves, rng) -> move``: a quick move for MCTS playouts;
- optionally ``doomed(game, move) -> bool``: ``True`` only when playing ``move`` certainly loses
  for the mover whatever follows (a proof from public information, never a guess); MCTS does
  not choose such a move while another is left;
- optionally ``COPY_MAKE = True`` when ``clone`` + ``apply_unchecked`` is cheaper than
  ``apply_unchecked`` + ``undo`` for that game (search then copies instead of undoing);
- optionally ``winning_moves(game) -> list``: exactly the legal moves that win the game at once
  for the player to move (alpha-beta's root filter uses it to see whether a move hands the
  opponent a win in one; without it the filter tries every reply);
- optionally ``forcing_moves(game) -> list``: legal moves of the player to move that win at
  once or give him another move (a bonus move), wins first; alpha-beta orders them first and
  searches them past its depth at the leaves (quiescence, with the evaluation as stand-pat);
- optionally ``in_danger(game) -> bool``: whether the player not to move could win at once if
  it were his turn (a threat the player to move must answer); alpha-beta then searches a leaf
  one more ply (a bounded number of times per line);
- optionally ``FREE_PLIES = n``: how many plies of one line may be a player moving again (a
  bonus move, an action of a multi-action turn) without costing alpha-beta depth (default
  :data:`FREE_PLIES`);
- optionally ``EVALUATIONS = {name: values}``: other evaluations by name, chosen with
  ``alphabeta:eval=name`` (for comparisons with an older evaluation).

Games whose id is not a Python name use the module named in :data:`MODULES`. A game without a
module gets :class:`Neutral` (0 for every player until the game is over).
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rulebox.core.game import Game

FREE_PLIES = 0
"""Default of ``FREE_PLIES``: same-player plies of one line that alpha-beta does not count. Off
unless a game asks for it: in a game of multi-action turns (Discs) it changes what a depth means
for every search that shares the table and the node budget (the hybrid's proofs)."""

MODULES = {"36to1": "solitaire36"}
"""Game id -> heuristic module name, where the id is not a Python identifier."""


def terminal_values(game: Game) -> list[float]:
    """The returns of a finished game."""
    return [float(r) for r in game.returns()]


@dataclass(frozen=True)
class Heuristic:
    """The evaluation functions of one game (see the module docstring)."""

    game_id: str
    values: Callable[[Game], list[float]]
    order_key: Callable[[Game, Any], float] | None = None
    playout_move: Callable[[Game, Sequence[Any], random.Random], Any] | None = None
    copy_make: bool = False
    doomed: Callable[[Game, Any], bool] | None = None
    winning_moves: Callable[[Game], list[Any]] | None = None
    forcing_moves: Callable[[Game], list[Any]] | None = None
    in_danger: Callable[[Game], bool] | None = None
    free_plies: int = FREE_PLIES
    evaluations: Mapping[str, Callable[[Game], list[float]]] = field(default_factory=dict)

    def value(self, game: Game, player: int) -> float:
        """The value of ``game`` for ``player`` (the true returns once the game is over)."""
        if game.is_terminal():
            return float(game.returns()[player])
        return self.values(game)[player]

    def all_values(self, game: Game) -> list[float]:
        """Every player's value of ``game`` (the true returns once the game is over)."""
        if game.is_terminal():
            return terminal_values(game)
        return self.values(game)


def _neutral(game: Game) -> list[float]:
    lo, hi = game.return_bounds
    mid = 0.0 if lo <= 0.0 <= hi else (lo + hi) / 2
    return [mid] * game.num_players


_CACHE: dict[str, Heuristic] = {}


def heuristic(game_id: str) -> Heuristic:
    """The heuristic of a game (a neutral one if the game has none)."""
    found = _CACHE.get(game_id)
    if found is not None:
        return found
    name = MODULES.get(game_id, game_id)
    try:
        module = importlib.import_module(f"{__name__}.{name}")
    except ModuleNotFoundError as e:
        if e.name != f"{__name__}.{name}":
            raise
        found = Heuristic(game_id, _neutral)
    else:
        found = Heuristic(
            game_id,
            module.values,
            getattr(module, "order_key", None),
            getattr(module, "playout_move", None),
            bool(getattr(module, "COPY_MAKE", False)),
            getattr(module, "doomed", None),
            getattr(module, "winning_moves", None),
            getattr(module, "forcing_moves", None),
            getattr(module, "in_danger", None),
            int(getattr(module, "FREE_PLIES", FREE_PLIES)),
            dict(getattr(module, "EVALUATIONS", {})),
        )
    _CACHE[game_id] = found
    return found
