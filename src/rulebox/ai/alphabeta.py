"""The ``alphabeta`` agent: negamax with alpha-beta pruning, iterative deepening, a
transposition table keyed on ``position_key()``, and move ordering (table move, killer moves,
history counts, then the game's ``order_key``).

It plays the two-player games without hidden information. Values are from the point of view of
the player to move; when a move leaves the same player to move (a bonus move, a multi-action
turn), the child's value is taken as it is rather than negated, so multi-action turns need no
special case. A finished game is worth more than any evaluation (``WIN`` minus a little per ply,
so a quicker win is preferred); evaluations are the game's heuristic in [-1, 1].

``time=`` bounds the search by the clock; ``iterations=`` bounds it by nodes (then the move is
exactly repeatable); ``seed=`` shuffles the root moves before ordering so that equal moves vary
from seed to seed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from rulebox.ai.base import AgentEntry, Settings, choosable_moves, register_agent
from rulebox.ai.budget import Budget, extra_number
from rulebox.ai.heuristics import Heuristic, heuristic
from rulebox.core.game import TERMINAL, Game
from rulebox.core.rng import rng

WIN = 2.0
"""A won game's value (evaluations stay within [-1, 1])."""
PLY_PENALTY = 1e-3
INF = float("inf")

EXACT, LOWER, UPPER = 0, 1, 2
"""Transposition-table bounds: the stored value is exact, a lower bound, or an upper bound."""

ALPHABETA_GAMES = ("columns", "countred", "discs")


class SearchTimeout(Exception):
    """Raised inside the search when the budget runs out; the last finished depth counts."""


class TTEntry(NamedTuple):
    """What the table knows about a position: searched ``depth`` plies deep, ``value`` with
    its ``flag`` (EXACT, LOWER or UPPER bound) and the best move found (the search stores its
    index in ``legal_moves()``)."""

    depth: int
    value: float
    flag: int
    move: Any


class TranspositionTable:
    """Positions seen by the search, keyed on ``position_key()``. A deeper entry is kept over
    a shallower one; when full, the table starts again (simple and safe).

    Entries are plain tuples of numbers, which Python's garbage collector stops tracking, so a
    large table does not make collections (and so every agent in the process) slow.
    """

    def __init__(self, capacity: int = 300_000) -> None:
        self.capacity = capacity
        self._data: dict[Any, tuple[int, float, int, Any]] = {}
        self.hits = 0

    def __len__(self) -> int:
        return len(self._data)

    def get(self, key: Any) -> TTEntry | None:
        entry = self._data.get(key)
        if entry is None:
            return None
        self.hits += 1
        return TTEntry(*entry)

    def put(self, key: Any, depth: int, value: float, flag: int, move: Any) -> None:
        old = self._data.get(key)
        if old is not None and old[0] > depth:
            if move is not None and old[3] is None:
                self._data[key] = (old[0], old[1], old[2], move)
            return
        if old is None and len(self._data) >= self.capacity:
            self._data.clear()
        self._data[key] = (depth, value, flag, move)

    def probe(self, key: Any, depth: int, alpha: float, beta: float) -> tuple[float | None, Any]:
        """``(value, move)``: a value when the entry settles the window at this depth, else
        ``None``; the stored best move either way (``None`` when unknown)."""
        entry = self._data.get(key)
        if entry is None:
            return None, None
        self.hits += 1
        d, v, flag, move = entry
        if d >= depth and (
            flag == EXACT or (flag == LOWER and v >= beta) or (flag == UPPER and v <= alpha)
        ):
            return v, move
        return None, move


def terminal_value(game: Game, player: int, ply: int) -> float:
    """The value of a finished game for ``player``: beyond every evaluation, sooner is bigger."""
    lo, hi = game.return_bounds
    scale = max(abs(lo), abs(hi)) or 1.0
    r = game.returns()[player] / scale
    if r > 0:
        return r + (WIN - 1.0) - PLY_PENALTY * ply
    if r < 0:
        return r - (WIN - 1.0) + PLY_PENALTY * ply
    return 0.0


@dataclass
class SearchResult:
    """The outcome of one search: the move, its value, the deepest finished depth, nodes."""

    move: Any
    value: float
    depth: int
    nodes: int
    exact: bool


class AlphaBetaSearch:
    """One iterative-deepening negamax search (a fresh table per agent, kept between moves)."""

    def __init__(
        self,
        h: Heuristic,
        budget: Budget,
        table: TranspositionTable | None = None,
        max_depth: int = 64,
    ) -> None:
        self.h = h
        self.budget = budget
        self.table = table if table is not None else TranspositionTable()
        self.max_depth = max_depth
        self.nodes = 0
        self.killers: list[list[Any]] = []
        self.history: dict[Any, int] = {}
        self._cut = False  # whether some leaf was evaluated (not exact) in this iteration

    # --- the tree ---------------------------------------------------------------------------
    def _tick(self) -> None:
        self.nodes += 1
        budget = self.budget
        if budget.iterations is not None and self.nodes >= budget.iterations:
            raise SearchTimeout
        if not self.nodes & 63 and budget.out_of_time():
            raise SearchTimeout

    def _ordered(self, game: Game, moves: list[Any], first: Any, ply: int) -> list[Any]:
        order_key = self.h.order_key
        killers = self.killers[ply] if ply < len(self.killers) else ()
        history = self.history

        def key(m: Any) -> float:
            if m == first:
                return 1e12
            k = 0.0
            if m in killers:
                k += 1e9
            k += history.get(m, 0) * 1e3
            if order_key is not None:
                k += order_key(game, m)
            return k

        return sorted(moves, key=key, reverse=True)

    def negamax(self, game: Game, depth: int, alpha: float, beta: float, ply: int) -> float:
        """The value of ``game`` (not finished) for its player to move, searched ``depth``
        plies deep within the window (alpha, beta)."""
        self._tick()
        p = game.current_player()
        if depth <= 0:
            self._cut = True
            return self.h.values(game)[p]
        key = game.position_key()
        hit, tt_move = self.table.probe(key, depth, alpha, beta)
        if hit is not None:
            self._cut = True  # the stored value may rest on evaluations
            return hit
        alpha0 = alpha
        best = -INF
        best_move = None
        copy_make = self.h.copy_make
        moves = game.legal_moves()
        first = moves[tt_move] if tt_move is not None and tt_move < len(moves) else None
        for move in self._ordered(game, moves, first, ply):
            child = game.clone() if copy_make else game
            child.apply_unchecked(move)
            q = child.current_player()
            if q == TERMINAL:
                v = terminal_value(child, p, ply + 1)
            elif q == p:
                v = self.negamax(child, depth - 1, alpha, beta, ply + 1)
            else:
                v = -self.negamax(child, depth - 1, -beta, -alpha, ply + 1)
            if not copy_make:
                game.undo()
            if v > best:
                best, best_move = v, move
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        self._note_cutoff(move, ply, depth)
                        break
        flag = EXACT if alpha0 < best < beta else (LOWER if best >= beta else UPPER)
        index = None if best_move is None else moves.index(best_move)
        self.table.put(key, depth, best, flag, index)
        return best

    def _note_cutoff(self, move: Any, ply: int, depth: int) -> None:
        while len(self.killers) <= ply:
            self.killers.append([])
        k = self.killers[ply]
        if move not in k:
            k.insert(0, move)
            del k[2:]
        self.history[move] = self.history.get(move, 0) + depth * depth

    # --- the root ---------------------------------------------------------------------------
    def search(self, game: Game, root_moves: list[Any]) -> SearchResult:
        """Deepen until the budget runs out (or the tree is searched to the end)."""
        game = game.clone()
        p = game.current_player()
        order = list(root_moves)
        scores: dict[Any, float] = {}
        best_move, best_value, done_depth, exact = order[0], -INF, 0, False
        if self.h.order_key is not None:
            order.sort(key=lambda m: self.h.order_key(game, m), reverse=True)  # type: ignore[misc]
        for depth in range(1, self.max_depth + 1):
            self._cut = False
            alpha, it_best, it_move = -INF, -INF, None
            try:
                for move in order:
                    game.apply_unchecked(move)
                    q = game.current_player()
                    if q == TERMINAL:
                        v = terminal_value(game, p, 1)
                    elif q == p:
                        v = self.negamax(game, depth - 1, alpha, INF, 1)
                    else:
                        v = -self.negamax(game, depth - 1, -INF, -alpha, 1)
                    game.undo()
                    scores[move] = v
                    if v > it_best:
                        it_best, it_move = v, move
                        alpha = max(alpha, v)
            except SearchTimeout:
                # a move of the unfinished depth that beat the previous best is searched enough
                if it_move is not None and it_move != best_move:
                    best_move, best_value = it_move, it_best
                break
            best_move, best_value, done_depth = it_move, it_best, depth
            # the previous best first, the rest by their latest scores (stable: seed order)
            order.sort(key=lambda m: (m == best_move, scores.get(m, -INF)), reverse=True)
            if not self._cut or best_value >= WIN - 0.5 or all(
                s <= -(WIN - 0.5) for s in scores.values()
            ):
                exact = True
                break
            if self.budget.out_of_time():
                break
        return SearchResult(best_move, best_value, done_depth, self.nodes, exact)


class AlphaBetaAgent:
    """Iterative-deepening alpha-beta with the game's evaluation."""

    name = "alphabeta"

    def __init__(self, game_id: str, settings: Settings, max_depth: int = 64) -> None:
        self.game_id = game_id
        self.settings = settings
        self.h = heuristic(game_id)
        self.max_depth = int(extra_number(settings, "depth", max_depth, 1, 64, integer=True))
        self.table = TranspositionTable()
        self.last: SearchResult | None = None

    def choose(self, game: Game) -> Any:
        budget = Budget.from_settings(self.settings)
        moves = sorted(choosable_moves(game), key=str)
        if len(moves) == 1:
            return moves[0]
        # the same seed and position give the same order, whatever came before
        rng(self.settings.seed, "alphabeta", self.game_id, len(game.history)).shuffle(moves)
        search = AlphaBetaSearch(self.h, budget, self.table, self.max_depth)
        self.last = search.search(game, moves)
        return self.last.move


def _make(game_id: str, settings: Settings) -> AlphaBetaAgent:
    return AlphaBetaAgent(game_id, settings)


register_agent(
    AgentEntry(
        "alphabeta",
        "negamax alpha-beta, iterative deepening, transposition table (depth= caps it)",
        _make,
        games=ALPHABETA_GAMES,
        extra_settings=("depth",),
    )
)
