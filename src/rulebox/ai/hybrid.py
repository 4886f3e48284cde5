"""The ``hybrid`` agent: MCTS whose root moves are screened first by a short alpha-beta search.

UCT's random playouts can miss a short forced line: a win the player has in hand, or the one
blocking move that keeps the opponent from winning on the next turn. Alpha-beta sees those
lines, however narrow.

First, where the game's heuristic module has ``hands_win(game, move)`` (an exact test that a
move lets the opponent win on his next turn whatever the player does with the rest of his;
Discs has one), the moves that do are left out while another move is left: a cheap check that
does not depend on the screen's budget. Then the hybrid spends at most a share of its time
(``screen=``, 0.3 by default) on null-window alpha-beta proofs from the current position,
deepening to ``depth=`` plies (4 by default: in Discs, the rest of a turn and the opponent's
main action), then:

- if alpha-beta proves a win, it plays it;
- root moves that alpha-beta proves lost are taken out, and UCT chooses among the rest with the
  time left (if every move is proved lost, it plays the one that loses latest).

Only proven results (a finished game within the searched depth) are used: the screen evaluates
no position (an unfinished leaf is worth 0) and does not steer UCT otherwise. This is an
MCTS-minimax hybrid with minimax at the root (Baier & Winands 2013). It plays the games
without hidden information that alpha-beta plays.

UCT runs with the game's knowledge on (its evaluation at the playouts' ends and its playout
policy); ``guide=0`` gives MCTS's search before issue 16 (the evaluation ``values_v1``), and
``eval=NAME`` another evaluation of the heuristic module's ``EVALUATIONS``, for comparisons.

With ``iterations=N`` the screen gets ``10 * N`` alpha-beta nodes and UCT ``N`` iterations, so
the move is exactly repeatable.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from rulebox.ai import heuristics
from rulebox.ai.alphabeta import (
    ALPHABETA_GAMES,
    WIN,
    AlphaBetaSearch,
    SearchTimeout,
    TranspositionTable,
    terminal_value,
)
from rulebox.ai.base import AgentEntry, Settings, choosable_moves, register_agent
from rulebox.ai.budget import Budget, extra_number
from rulebox.ai.heuristics import MODULES, Heuristic, heuristic
from rulebox.ai.mcts import MctsAgent, default_config
from rulebox.core.errors import OptionError
from rulebox.core.game import TERMINAL, Game
from rulebox.core.rng import rng
from rulebox.i18n import N_

SCREEN_NODES_PER_ITERATION = 10
"""With ``iterations=``, alpha-beta nodes the screen may search per UCT iteration."""


PROOF = WIN - 0.5
"""Values at least this far from 0 are finished games (evaluations stay within [-1, 1])."""
EPS = 1e-6


def prove(
    search: AlphaBetaSearch, game: Game, order: list[Any], max_depth: int
) -> dict[Any, float]:
    """Root moves proven won (a positive value) or lost (negative) by null-window alpha-beta
    searches at the two thresholds, deepening until the budget of ``search`` runs out, every
    move is decided, or ``max_depth``. A win found ends the search at once."""
    game = game.clone()
    p = game.current_player()
    proven: dict[Any, float] = {}
    open_moves = list(order)

    def value(move: Any, depth: int, alpha: float, beta: float) -> float:
        game.apply_unchecked(move)
        try:
            q = game.current_player()
            if q == TERMINAL:
                return terminal_value(game, p, 1)
            if q == p:
                return search.negamax(game, depth - 1, alpha, beta, 1)
            return -search.negamax(game, depth - 1, -beta, -alpha, 1)
        finally:
            game.undo()

    try:
        for depth in range(1, max_depth + 1):
            search._cut = False
            for move in open_moves:  # a win in hand first
                v = value(move, depth, PROOF - EPS, PROOF)
                if v >= PROOF:
                    proven[move] = v
                    return proven
            for move in open_moves:
                v = value(move, depth, -PROOF, -PROOF + EPS)
                if v <= -PROOF:
                    proven[move] = v
            open_moves = [m for m in open_moves if m not in proven]
            if not open_moves or not search._cut:
                break
    except SearchTimeout:
        pass
    return proven


def _unknown(game: Game) -> list[float]:
    return [0.0] * game.num_players


def heuristic_attr(game_id: str, name: str) -> Any:
    """The attribute ``name`` of the game's heuristic module (``None`` without one)."""
    try:
        module = importlib.import_module(f"{heuristics.__name__}.{MODULES.get(game_id, game_id)}")
    except ModuleNotFoundError:
        return None
    return getattr(module, name, None)


def heuristic_hook(game_id: str, name: str) -> Callable[..., Any] | None:
    """An optional function ``name`` of the game's heuristic module (``None`` without one)."""
    hook = heuristic_attr(game_id, name)
    return hook if callable(hook) else None


def screen_heuristic(h: Heuristic) -> Heuristic:
    """The game's heuristic for proofs: no evaluation (an unfinished leaf is worth 0), no
    playouts, and every ply costing depth (``free_plies`` 0: a free blocking action of Discs
    would multiply the proof's tree by its ~45 choices instead of deepening it)."""
    screen = replace(h, values=_unknown, playout_move=None)
    if hasattr(screen, "free_plies"):
        screen = replace(screen, free_plies=0)
    return screen


class HybridAgent:
    """UCT after an alpha-beta screen of the root moves for proven wins and losses."""

    name = "hybrid"

    def __init__(self, game_id: str, settings: Settings) -> None:
        self.game_id = game_id
        self.settings = settings
        self.share = extra_number(settings, "screen", 0.3, 0.0, 0.9)
        self.max_depth = int(extra_number(settings, "depth", 4, 1, 64, integer=True))
        # proofs need no evaluation: an unfinished leaf is worth 0 (the game's move ordering
        # and its tactical hooks, wins in one and threats, still find wins and refutations)
        self.h = screen_heuristic(heuristic(game_id))
        self.table = TranspositionTable()
        # the game's knowledge on (guide=0, MCTS's "as before issue 16", turns it off and
        # plays the playouts' ends on the evaluation before it, values_v1)
        self.uct = MctsAgent(game_id, settings, replace(default_config(game_id), guide=1.0))
        name = (settings.extra or {}).get("eval")
        if name is not None:  # another evaluation at the playouts' ends (for comparisons)
            known = heuristic_attr(game_id, "EVALUATIONS") or {}
            values = known.get(name.strip().lower())
            if values is None:
                raise OptionError(f"bad agent setting eval={name[:30]!r} ({game_id}: "
                                  f"{', '.join(known) or 'none'})")
            self.uct.h = replace(self.uct.h, values=values)
        self.proven: dict[Any, float] = {}
        """The last screen's proven root values (wins and losses only), for tests and tools."""
        self.hands_win = heuristic_hook(game_id, "hands_win")
        self.filtered: list[Any] = []
        """Root moves the last choice left out: each hands the opponent a win next turn."""

    @property
    def last_iterations(self) -> int:
        return self.uct.last_iterations

    def choose(self, game: Game) -> Any:
        moves = choosable_moves(game)
        if len(moves) == 1:
            return moves[0]
        budget = Budget.from_settings(self.settings)
        nodes = (
            None
            if self.settings.iterations is None
            else self.settings.iterations * SCREEN_NODES_PER_ITERATION
        )
        screen = budget.part(self.share, nodes)
        candidates = self._not_handing_a_win(game, moves)
        order = sorted(candidates, key=str)
        rng(self.settings.seed, self.name, self.game_id, len(game.history)).shuffle(order)
        search = AlphaBetaSearch(self.h, screen, self.table, self.max_depth)
        self.proven = prove(search, game, order, self.max_depth)
        wins = [m for m in order if self.proven.get(m, 0.0) > 0]
        if wins:
            return wins[0]  # a proven win (found at the shallowest depth)
        safe = [m for m in candidates if m not in self.proven]
        if not safe:  # every move loses: the one that loses latest
            return max(order, key=lambda m: self.proven[m])
        if len(safe) == 1:
            return safe[0]
        return self.uct.search(game, moves, budget, safe)

    def _not_handing_a_win(self, game: Game, moves: list[Any]) -> list[Any]:
        """``moves`` without those that let the opponent win on his next turn whatever the
        player does with the rest of his (the game heuristic's exact ``hands_win``), unless
        every move does; the moves left out are kept in :attr:`filtered`."""
        self.filtered = []
        if self.hands_win is None:
            return moves
        work = game.clone()
        lost = [self.hands_win(work, m) for m in moves]
        if all(lost) or not any(lost):
            return moves
        self.filtered = [m for m, x in zip(moves, lost, strict=True) if x]
        return [m for m, x in zip(moves, lost, strict=True) if not x]


register_agent(
    AgentEntry(
        "hybrid",
        N_("MCTS after an alpha-beta screen for proven wins and losses (screen= share of time, "
        "eval= another evaluation at the playouts' ends)"),
        HybridAgent,
        games=ALPHABETA_GAMES,
        extra_settings=("c", "playout", "heuristic", "screen", "depth", "eval", "guide"),
    )
)
