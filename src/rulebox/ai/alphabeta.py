"""The ``alphabeta`` agent: negamax with alpha-beta pruning, iterative deepening, a
transposition table keyed on ``position_key()``, and move ordering (table move, the game's
forcing moves, killer moves, history counts, then the game's ``order_key``).

It plays the two-player games without hidden information. Values are from the point of view of
the player to move; when a move leaves the same player to move (a bonus move, a multi-action
turn), the child's value is taken as it is rather than negated, so multi-action turns need no
special case. A finished game is worth more than any evaluation (``WIN`` minus a little per ply,
so a quicker win is preferred); evaluations are the game's heuristic in [-1, 1].

Tactics (issue 16), each through optional hooks of the game's heuristic
(:mod:`rulebox.ai.heuristics`) and harmless for a game without them:

- **Free plies**: a ply after which the same player moves again does not cost depth, up to the
  heuristic's ``free_plies`` such plies on one line (so the search still ends). A bonus move
  (Count Red CR-10) is then seen at every depth, as the player gets it.
- **Quiescence**: at depth 0 the player to move may stand pat on the evaluation or play one of
  the heuristic's ``forcing_moves`` (a win in one, a move that gives him another move), which are
  searched on (at most :data:`QUIESCENCE_PLIES` of them in a row).
- **Threat extension**: a leaf whose player to move faces an immediate win of the other
  (``in_danger``) is searched one more full ply, at most :data:`THREAT_EXTENSIONS` times on a
  line, so a threat that cannot be stopped is seen as a loss and one that can as what it is.
- **Root filter**: a root move that leaves the opponent to move with a win in one is not played
  while another move does not (``winning_moves``, else every reply is tried).

``time=`` bounds the search by the clock; ``iterations=`` bounds it by nodes (then the move is
exactly repeatable); ``seed=`` shuffles the root moves before ordering so that equal moves vary
from seed to seed; ``depth=`` caps the depth; ``eval=NAME`` uses another evaluation of the game
(its heuristic's ``EVALUATIONS``, e.g. Count Red's ``v1``, the one before issue 16).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, NamedTuple

from rulebox.ai.base import AgentEntry, Settings, choosable_moves, register_agent
from rulebox.ai.budget import Budget, extra_number
from rulebox.ai.heuristics import Heuristic, heuristic
from rulebox.core.errors import OptionError
from rulebox.core.game import TERMINAL, Game
from rulebox.core.rng import rng
from rulebox.i18n import N_

WIN = 2.0
"""A won game's value (evaluations stay within [-1, 1])."""
PLY_PENALTY = 1e-3
INF = float("inf")
QUIESCENCE_PLIES = 6
"""Forcing moves in a row searched past depth 0."""
NULL_WINDOW = 1e-7
"""The width of the windows that only test whether a later move beats the first (PVS)."""
THREAT_EXTENSIONS = 1
"""Leaves in danger searched one ply more, at most this many times on a line. Count Red at
0.3 s a move against 1 (bench_versus, 40 seat-rotated games each, under load): 2 scored 0.350
(0.221-0.505), 0 scored 0.500 (0.352-0.648); 1 is kept, it sees a double threat at depth 1."""

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
    """One iterative-deepening negamax search (a fresh table per agent, kept between moves).

    ``free_plies``, ``quiescence``, ``extensions`` and ``root_filter`` switch the tactics of the
    module docstring (the defaults: the heuristic's free plies, :data:`QUIESCENCE_PLIES`,
    :data:`THREAT_EXTENSIONS`, on); 0 or ``False`` turns one off (tests compare)."""

    def __init__(
        self,
        h: Heuristic,
        budget: Budget,
        table: TranspositionTable | None = None,
        max_depth: int = 64,
        free_plies: int | None = None,
        quiescence: int = QUIESCENCE_PLIES,
        extensions: int = THREAT_EXTENSIONS,
        root_filter: bool = True,
        pvs: bool = True,
    ) -> None:
        self.h = h
        self.budget = budget
        self.table = table if table is not None else TranspositionTable()
        self.max_depth = max_depth
        self.free_plies = h.free_plies if free_plies is None else free_plies
        self.quiescence = quiescence if h.forcing_moves is not None else 0
        self.extensions = extensions if h.in_danger is not None else 0
        self.root_filter = root_filter
        self.pvs = pvs
        self.nodes = 0
        self.killers: list[list[Any]] = []
        self.history: dict[Any, int] = {}
        self._cut = False  # whether some leaf was evaluated (not exact) in this iteration
        self.filtered: list[Any] = []
        """Root moves the last search left out: each hands the opponent a win in one."""

    # --- the tree ---------------------------------------------------------------------------
    def _tick(self) -> None:
        self.nodes += 1
        budget = self.budget
        if budget.iterations is not None and self.nodes >= budget.iterations:
            raise SearchTimeout
        if not self.nodes & 63 and budget.out_of_time():
            raise SearchTimeout

    def _ordered(
        self, game: Game, moves: list[Any], first: Any, ply: int, forcing: list[Any] | None = None
    ) -> list[Any]:
        """The table move, the forcing moves (wins first), the killers, then by history counts
        and the game's ``order_key``."""
        order_key = self.h.order_key
        history = self.history
        bonus: dict[Any, float] = {}
        if ply < len(self.killers):
            for m in self.killers[ply]:
                bonus[m] = 1e9
        if forcing:
            n = len(forcing)
            for i, m in enumerate(forcing):
                bonus[m] = 1e11 * (n - i)
        if first is not None:
            bonus[first] = 1e15
        get_bonus, get_history = bonus.get, history.get
        if order_key is None:
            return sorted(moves, key=lambda m: get_bonus(m, 0.0) + get_history(m, 0) * 1e3,
                          reverse=True)
        return sorted(
            moves,
            key=lambda m: get_bonus(m, 0.0) + get_history(m, 0) * 1e3 + order_key(game, m),
            reverse=True,
        )

    def negamax(
        self,
        game: Game,
        depth: int,
        alpha: float,
        beta: float,
        ply: int,
        free: int | None = None,
        ext: int | None = None,
    ) -> float:
        """The value of ``game`` (not finished) for its player to move, searched ``depth``
        plies deep within the window (alpha, beta); ``free`` same-player plies and ``ext``
        threat extensions are left on this line (``None``: all of them)."""
        if free is None:
            free = self.free_plies
        if ext is None:
            ext = self.extensions
        if depth <= 0:
            if ext > 0 and self.h.in_danger(game):  # type: ignore[misc]
                depth, ext = 1, ext - 1
            else:
                return self.quiesce(game, alpha, beta, ply, self.quiescence)
        self._tick()
        p = game.current_player()
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
        forcing = self.h.forcing_moves(game) if self.h.forcing_moves is not None else None
        pvs = self.pvs and beta - alpha > NULL_WINDOW
        for move in self._ordered(game, moves, first, ply, forcing):
            child = game.clone() if copy_make else game
            child.apply_unchecked(move)
            q = child.current_player()
            if q == TERMINAL:
                v = terminal_value(child, p, ply + 1)
            elif q == p:
                d, f = (depth, free - 1) if free > 0 else (depth - 1, 0)
                if pvs and best > -INF:
                    v = self.negamax(child, d, alpha, alpha + NULL_WINDOW, ply + 1, f, ext)
                    if alpha < v < beta:
                        v = self.negamax(child, d, alpha, beta, ply + 1, f, ext)
                else:
                    v = self.negamax(child, d, alpha, beta, ply + 1, f, ext)
            elif pvs and best > -INF:
                v = -self.negamax(child, depth - 1, -alpha - NULL_WINDOW, -alpha, ply + 1, free,
                                  ext)
                if alpha < v < beta:
                    v = -self.negamax(child, depth - 1, -beta, -alpha, ply + 1, free, ext)
            else:
                v = -self.negamax(child, depth - 1, -beta, -alpha, ply + 1, free, ext)
            if not copy_make:
                game.undo()
            if v > best:
                best, best_move = v, move
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        self._note_cutoff(move, ply, depth)
                        break
                if q == TERMINAL and v > 0:
                    break  # a win with this move: no other move wins sooner
        flag = EXACT if alpha0 < best < beta else (LOWER if best >= beta else UPPER)
        index = None if best_move is None else moves.index(best_move)
        self.table.put(key, depth, best, flag, index)
        return best

    def quiesce(self, game: Game, alpha: float, beta: float, ply: int, left: int) -> float:
        """The value of a leaf for its player to move: the evaluation (stand pat), or better
        through a forcing move (``forcing_moves``), at most ``left`` of them in a row."""
        self._tick()
        self._cut = True
        p = game.current_player()
        stand = self.h.values(game)[p]
        if left <= 0 or stand >= beta:
            return stand
        forcing = self.h.forcing_moves(game)  # type: ignore[misc]
        if not forcing:
            return stand
        best = stand
        if stand > alpha:
            alpha = stand
        copy_make = self.h.copy_make
        for move in forcing:
            child = game.clone() if copy_make else game
            child.apply_unchecked(move)
            q = child.current_player()
            if q == TERMINAL:
                v = terminal_value(child, p, ply + 1)
            elif q == p:
                v = self.quiesce(child, alpha, beta, ply + 1, left - 1)
            else:
                v = -self.quiesce(child, -beta, -alpha, ply + 1, left - 1)
            if not copy_make:
                game.undo()
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
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
    def hands_win(self, game: Game, move: Any) -> bool:
        """Whether ``move`` leaves the other player to move with a win in one (the game's
        ``winning_moves``, else every reply is tried). ``game`` is left as it was."""
        p = game.current_player()
        game.apply_unchecked(move)
        try:
            q = game.current_player()
            if q in (TERMINAL, p):
                return False
            if self.h.winning_moves is not None:
                return bool(self.h.winning_moves(game))
            for reply in game.legal_moves():
                game.apply_unchecked(reply)
                won = game.current_player() == TERMINAL and game.returns()[q] > 0
                game.undo()
                if won:
                    return True
            return False
        finally:
            game.undo()

    def safe_moves(self, game: Game, moves: list[Any]) -> list[Any]:
        """``moves`` without those that hand the opponent a win in one, unless all do (then
        all of them); the moves left out are kept in :attr:`filtered`."""
        safe = [m for m in moves if not self.hands_win(game, m)]
        if not safe:
            return list(moves)
        self.filtered = [m for m in moves if m not in safe]
        return safe

    def search(self, game: Game, root_moves: list[Any]) -> SearchResult:
        """Deepen until the budget runs out (or the tree is searched to the end)."""
        game = game.clone()
        p = game.current_player()
        order = list(root_moves)
        self.filtered = []
        if self.root_filter and len(order) > 1:
            order = self.safe_moves(game, order)
        scores: dict[Any, float] = {}
        best_move, best_value, done_depth, exact = order[0], -INF, 0, False
        if self.h.order_key is not None:
            order.sort(key=lambda m: self.h.order_key(game, m), reverse=True)  # type: ignore[misc]
        if self.h.forcing_moves is not None:
            urgent = {m: len(order) - i for i, m in enumerate(self.h.forcing_moves(game))}
            order.sort(key=lambda m: urgent.get(m, 0), reverse=True)  # wins first
        if self.h.winning_moves is not None:
            winning = self.h.winning_moves(game)
            wins = [m for m in order if m in winning]
            if wins:  # a win in one: nothing searches better
                game.apply_unchecked(wins[0])
                value = terminal_value(game, p, 1)
                return SearchResult(wins[0], value, 1, self.nodes, True)
        free = self.free_plies
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
                        d, f = (depth, free - 1) if free > 0 else (depth - 1, 0)
                        if self.pvs and it_move is not None:
                            v = self.negamax(game, d, alpha, alpha + NULL_WINDOW, 1, f)
                            if v > alpha:
                                v = self.negamax(game, d, alpha, INF, 1, f)
                        else:
                            v = self.negamax(game, d, alpha, INF, 1, f)
                    elif self.pvs and it_move is not None:
                        v = -self.negamax(game, depth - 1, -alpha - NULL_WINDOW, -alpha, 1, free)
                        if v > alpha:
                            v = -self.negamax(game, depth - 1, -INF, -alpha, 1, free)
                    else:
                        v = -self.negamax(game, depth - 1, -INF, -alpha, 1, free)
                    game.undo()
                    scores[move] = v
                    if v > it_best:
                        it_best, it_move = v, move
                        alpha = max(alpha, v)
                    if v >= WIN - 0.5:
                        break  # a proven win
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
        name = (settings.extra or {}).get("eval")
        if name is not None:
            values = self.h.evaluations.get(name.strip().lower())
            if values is None:
                known = ", ".join(self.h.evaluations) or "none"
                raise OptionError(f"bad agent setting eval={name[:30]!r} ({game_id}: {known})")
            self.h = replace(self.h, values=values)
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
        N_("negamax alpha-beta, iterative deepening, transposition table, quiescence on forcing "
        "moves (depth= caps it, eval= another evaluation)"),
        _make,
        games=ALPHABETA_GAMES,
        extra_settings=("depth", "eval"),
    )
)
