"""Discs: the race to a token of each colour, read from the rules (DSC-2..DSC-6).

A token of a colour is earned the moment three of a player's pins stand on one disc of that
colour (DSC-5), except on a starting disc the player has not yet left; the first to hold all
three colours wins at once (DSC-6). Only a pin move along a line changes which disc a pin is on
(a quarter turn moves pins round their own disc), so a token, and the win, always comes from a
step along a line into a disc where the player already has two pins. What the evaluation knows:

- **pins needed per colour**: for each colour still missing, the fewest pin moves that put a
  third pin on some disc of that colour that earns it (the distances of the nearest own pins
  through holes and lines, :data:`DIST`, ignoring who blocks the way; a disc with too few
  free holes left counts as far away);
- **tokens in reach**: the steps that earn a new colour right now (an own pin at the end of an
  unbarred line whose other end is a free hole of a disc with two own pins), and above all the
  *winning* ones, for the player who makes the next main action;
- **barriers and locks** (DSC-3, DSC-4): a barrier on a line that the opponent needs for a
  token is worth keeping there; a lock on a disc where the opponent has pins in outer holes
  stops them turning it;
- pins still on a starting disc that has not been left (they earn nothing there), and how many
  line steps a player's pins have (mobility).

These are :data:`FEATURES` (a player's count minus the opponent's, so the two players' features
are opposite); the value is ``2 * sigmoid(w . f) - 1`` with the weights of
:func:`rulebox.ai.learned.load_weights` (hand-set :data:`DEFAULT_WEIGHTS` until
``rulebox train discs`` ships a file). Reads only public accessors (``pin_at``, ``tokens``,
``disc_colour``, ``home_discs``, ``lock_hole``, ``barrier``, ``phase``). The evaluation
before issue 16 is kept as :func:`values_v1` for comparisons.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from rulebox.ai.learned import Weights, load_weights, sigmoid
from rulebox.core.game import Game
from rulebox.games.discs.geometry import (
    HOLES_PER_DISC,
    INNER_NEIGHBOURS,
    LINES_AT,
    NUM_DISCS,
    NUM_HOLES,
)

_TOKENS_TO_EARN = 3
_FAR = 8
"""Pin moves counted for a colour no disc of which can be reached (too few free holes)."""
_MAIN, _BLOCK = 2, 3  # Discs' Phase values for the main action and the blocking actions
_STEP, _TURN, _LOCK, _BAR, _END = 0, 1, 3, 5, 7  # Discs' action kinds used here


def _distances() -> tuple[tuple[int, ...], ...]:
    """``DIST[hole][disc]``: the fewest pin moves (steps inside a disc or along a line) from
    ``hole`` to some hole of ``disc``, on an empty board without barriers."""
    out = []
    for start in range(NUM_HOLES):
        dist = {start: 0}
        frontier = [start]
        while frontier:
            nxt = []
            for h in frontier:
                for q in (*INNER_NEIGHBOURS[h], *(q for q, _line in LINES_AT[h])):
                    if q not in dist:
                        dist[q] = dist[h] + 1
                        nxt.append(q)
            frontier = nxt
        best = [99] * NUM_DISCS
        for h, d in dist.items():
            disc = h // HOLES_PER_DISC
            best[disc] = min(best[disc], d)
        out.append(tuple(best))
    return tuple(out)


DIST: tuple[tuple[int, ...], ...] = _distances()

FEATURES: tuple[str, ...] = (
    "tokens",     # tokens held
    "race",       # pin moves the opponent needs for all missing colours minus mine, / 4
    "near",       # missing colours one pin move away
    "steps",      # steps that earn a new colour now (unbarred line, free hole), up to 4
    "win",        # holds two tokens and can step to the third
    "win_next",   # +1 if the player who makes the next main action can win with it (and
                  # the other, still in his blocking actions, cannot bar the one line left)
    "tempo",      # +1 for the player who makes the next main action
    "home",       # pins on starting discs not yet left, / 5 (the opponent's minus mine)
    "mobility",   # line steps open to the player's pins, / 10
    "bar_cut",    # opponent's token steps the player's barrier stops
    "lock_cut",   # the player's lock holds a disc where the opponent has pins on the rim
)

DEFAULT_WEIGHTS: dict[str, float] = {
    "tokens": 1.0,
    "race": 0.6,
    "near": 0.3,
    "steps": 0.15,
    "win": 0.8,
    "win_next": 3.0,
    "tempo": 0.1,
    "home": 0.3,
    "mobility": 0.1,
    "bar_cut": 0.3,
    "lock_cut": 0.1,
}
"""Hand-set: a winning step for the next mover decides; a token and a move of the race next."""


def model() -> Weights:
    """The learned (or hand-set) weights of :data:`FEATURES`."""
    return load_weights("discs", FEATURES, DEFAULT_WEIGHTS)


class Scan:
    """What the features need from one position, read once: the board, counts per disc,
    tokens, discs that earn nothing yet, barriers and locks."""

    __slots__ = ("bars", "board", "colour", "count", "home", "locks", "pins", "tokens")

    def __init__(self, game: Any) -> None:
        self.board = board = list(map(game.pin_at, range(NUM_HOLES)))
        self.pins: list[list[int]] = [[], []]
        self.count = [[0] * NUM_DISCS, [0] * NUM_DISCS]
        for h, p in enumerate(board):
            if p >= 0:
                self.pins[p].append(h)
                self.count[p][h // HOLES_PER_DISC] += 1
        self.colour = [game.disc_colour(d) for d in range(NUM_DISCS)]
        self.tokens = (game.tokens(0), game.tokens(1))
        self.home = (set(game.home_discs(0)), set(game.home_discs(1)))
        self.bars = (game.barrier(0), game.barrier(1))
        self.locks = (game.lock_hole(0), game.lock_hole(1))

    def earns(self, p: int, disc: int) -> bool:
        """Whether a third pin of ``p`` on ``disc`` would earn a new colour."""
        return (
            self.count[p][disc] == _TOKENS_TO_EARN - 1
            and disc not in self.home[p]
            and self.colour[disc] not in self.tokens[p]
        )

    def token_steps(self, p: int, barred: bool = False) -> list[tuple[int, int, int]]:
        """``(from, to, line)`` of every step that earns ``p`` a new colour now (``barred``:
        instead the steps that would, but whose line holds a barrier)."""
        hot = [self.earns(p, d) for d in range(NUM_DISCS)]
        if not any(hot):
            return []
        out = []
        board = self.board
        bars = self.bars
        for q in self.pins[p]:
            for dst, line in LINES_AT[q]:
                if board[dst] < 0 and hot[dst // HOLES_PER_DISC] and (line in bars) == barred:
                    out.append((q, dst, line))
        return out

    def needs(self, p: int) -> dict[str, int]:
        """For each colour ``p`` still misses, the fewest pin moves that put three pins of
        ``p`` on a disc of that colour that earns it (:data:`_FAR` when every such disc has
        too few free holes). A pin already on the disc is 0 moves away (:data:`DIST`)."""
        have = self.tokens[p]
        home = self.home[p]
        theirs = self.count[1 - p]
        cols: list[tuple[int, ...]] | None = None
        need: dict[str, int] = {}
        for d in range(NUM_DISCS):
            c = self.colour[d]
            if c in have or d in home:
                continue
            if HOLES_PER_DISC - theirs[d] < _TOKENS_TO_EARN:
                n = _FAR
            else:
                if cols is None:
                    cols = list(zip(*(DIST[q] for q in self.pins[p]), strict=True))
                n = min(_FAR, sum(sorted(cols[d])[:_TOKENS_TO_EARN]))
            if n < need.get(c, _FAR + 1):
                need[c] = n
        return need


def _side(s: Scan, p: int) -> tuple[float, ...]:
    """One player's raw counts: tokens, race, near, steps, win, home, mobility, bar_cut,
    lock_cut."""
    have = s.tokens[p]
    need = s.needs(p)
    missing = [c for c in "RGB" if c not in have]
    race = sum(need.get(c, _FAR) for c in missing)
    near = sum(1 for c in missing if need.get(c, _FAR) <= 1)
    steps = s.token_steps(p)
    win = 1.0 if len(have) == 2 and steps else 0.0
    home = sum(s.count[p][d] for d in s.home[p])
    board = s.board
    bars = s.bars
    mobility = 0
    for q in s.pins[p]:
        for dst, line in LINES_AT[q]:
            if board[dst] < 0 and line not in bars:
                mobility += 1
    cut = 0
    if s.bars[p] >= 0:
        cut = sum(1 for _a, _b, line in s.token_steps(1 - p, barred=True) if line == s.bars[p])
    lock = s.locks[p]
    lock_cut = 0.0
    if lock >= 0:
        base = lock - lock % HOLES_PER_DISC
        if any(board[base + k] == 1 - p for k in range(1, HOLES_PER_DISC)):
            lock_cut = 1.0
    return (float(len(have)), float(race), float(near), float(min(4, len(steps))), win,
            float(home), float(mobility), float(cut), lock_cut)


def _features0(game: Any) -> list[float]:
    """:data:`FEATURES` from player 0's point of view (player 1's are their negatives)."""
    if int(game.phase) < _MAIN:
        return [0.0] * len(FEATURES)  # the set-up (DSC-1): no pins yet
    s = Scan(game)
    a, b = _side(s, 0), _side(s, 1)
    mover = game.current_player()
    nxt = -1
    if mover in (0, 1):
        nxt = mover if int(game.phase) == _MAIN else 1 - mover
    tempo = 0.0 if nxt < 0 else (1.0 if nxt == 0 else -1.0)
    win_next = 0.0
    if nxt >= 0 and (a, b)[nxt][4]:
        win_next = tempo
        if nxt != mover and not unstoppable(game, nxt):  # he may still bar it
            win_next = 0.0
    return [
        a[0] - b[0],
        (b[1] - a[1]) / 4.0,
        a[2] - b[2],
        a[3] - b[3],
        a[4] - b[4],
        win_next,
        tempo,
        (b[5] - a[5]) / 5.0,
        (a[6] - b[6]) / 10.0,
        a[7] - b[7],
        a[8] - b[8],
    ]


def features(game: Game, player: int) -> list[float]:
    """:data:`FEATURES` of ``game`` from ``player``'s point of view."""
    f = _features0(game)
    return f if player == 0 else [-x for x in f]


def values(game: Game) -> list[float]:
    """``2 * sigmoid(w . f) - 1`` for player 0, and its negative for player 1."""
    v = 2.0 * sigmoid(model().logit(_features0(game))) - 1.0
    return [v, -v]


# --- the evaluation before issue 16, for comparisons --------------------------------------------
_PROGRESS_V1 = (0.0, 0.5, 1.6, 3.0)  # pins on the best disc of a missing colour: 0, 1, 2, 3+
_TOKEN_V1 = 4.0
_SCALE_V1 = 8.0


def progress_v1(game: Any, player: int, counts: Sequence[Sequence[int]]) -> float:
    """How close ``player`` is to holding all three tokens (the evaluation before issue 16)."""
    have = game.tokens(player)
    total = _TOKEN_V1 * len(have)
    home = set(game.home_discs(player))
    best: dict[str, float] = {}
    for d in range(NUM_DISCS):
        colour = game.disc_colour(d)
        if colour in have or colour == "?" or d in home:
            continue
        v = _PROGRESS_V1[min(3, counts[player][d])]
        if v > best.get(colour, -1.0):
            best[colour] = v
    total += sum(best.values())
    if len(have) == 2:
        total += 0.5 * sum(best.values())  # the last colour is the whole game
    return total


def values_v1(game: Game) -> list[float]:
    """The evaluation before issue 16: tanh of the difference in progress."""
    g: Any = game
    counts = [[0] * NUM_DISCS, [0] * NUM_DISCS]
    for hole in range(NUM_DISCS * HOLES_PER_DISC):
        p = g.pin_at(hole)
        if p >= 0:
            counts[p][hole // HOLES_PER_DISC] += 1
    v = math.tanh((progress_v1(g, 0, counts) - progress_v1(g, 1, counts)) / _SCALE_V1)
    return [v, -v]


# --- move ordering and playouts -----------------------------------------------------------------
def _disc_pins(game: Any, player: int, disc: int) -> int:
    base = disc * HOLES_PER_DISC
    return sum(1 for k in range(HOLES_PER_DISC) if game.pin_at(base + k) == player)


def _earns(game: Any, player: int, disc: int) -> bool:
    """Whether a third pin of ``player`` on ``disc`` would earn a new colour (cheap form of
    :meth:`Scan.earns` for move ordering)."""
    return (
        game.disc_colour(disc) not in game.tokens(player)
        and disc not in game.home_discs(player)
        and _disc_pins(game, player, disc) == _TOKENS_TO_EARN - 1
    )


def order_key(game: Game, move: Any) -> float:
    """Larger first: a step that earns a token (a winning one first), a step into the hole an
    opponent's token step needs, a barrier across such a step, then ``end``, other main
    actions, and the other blocking actions last."""
    g: Any = game
    kind = int(move.kind)
    p = g.current_player()
    if kind == _STEP:
        if move.line < 0:
            return 10.0
        disc = move.b // HOLES_PER_DISC
        if _earns(g, p, disc):
            return 5000.0 if len(g.tokens(p)) == 2 else 1000.0
        if _earns(g, 1 - p, disc):
            return 700.0  # takes a free hole of a disc the opponent is about to score
        return 20.0
    if kind == _BAR:
        for src, dst in ((move.a, move.b), (move.b, move.a)):
            if g.pin_at(src) == 1 - p and g.pin_at(dst) < 0 and _earns(
                g, 1 - p, dst // HOLES_PER_DISC
            ):
                return 2000.0 if len(g.tokens(1 - p)) == 2 else 800.0
        return 0.0
    if kind == _END:
        return 500.0
    if kind == _TURN:
        return 15.0
    return 1.0


def _hot_discs(game: Any, player: int) -> set[int]:
    """The discs where one more pin of ``player`` earns a new colour."""
    have = game.tokens(player)
    home = game.home_discs(player)
    count = [0] * NUM_DISCS
    for h in range(NUM_HOLES):
        if game.pin_at(h) == player:
            count[h // HOLES_PER_DISC] += 1
    return {
        d for d in range(NUM_DISCS)
        if count[d] == _TOKENS_TO_EARN - 1 and d not in home and game.disc_colour(d) not in have
    }


def playout_move(game: Game, moves: Sequence[Any], rng: random.Random) -> Any:
    """A step that earns a token when there is one; in the blocking actions, a barrier across
    an opponent's winning step, else mostly ``end``; otherwise at random."""
    g: Any = game
    phase = int(g.phase)
    p = g.current_player()
    if phase == _MAIN:
        hot = _hot_discs(g, p)
        if hot and rng.random() < 0.9:
            for m in moves:
                if int(m.kind) == _STEP and m.line >= 0 and m.b // HOLES_PER_DISC in hot:
                    return m
    elif phase == _BLOCK:
        end = None
        hot = _hot_discs(g, 1 - p) if len(g.tokens(1 - p)) == 2 else set()
        for m in moves:
            k = int(m.kind)
            if k == _END:
                end = m
            elif k == _BAR and hot:
                for src, dst in ((m.a, m.b), (m.b, m.a)):
                    if (g.pin_at(src) == 1 - p and g.pin_at(dst) < 0
                            and dst // HOLES_PER_DISC in hot):
                        return m
        if end is not None and rng.random() < 0.85:
            return end
    return moves[rng.randrange(len(moves))]


# --- tactics for alpha-beta (rulebox.ai.heuristics: winning_moves, forcing_moves, in_danger) -----
FREE_PLIES = 0
"""A turn's blocking actions cost alpha-beta depth like any other action: each offers about 45
choices (locks, barriers, ``end``), so free blocking plies would multiply the tree instead of
deepening it."""

EVALUATIONS = {"v1": values_v1}
"""The evaluation before issue 16 (``alphabeta:eval=v1``)."""


def _steps_into(
    game: Any, player: int, hot: set[int], movable: int = -1
) -> list[tuple[int, int, int]]:
    """``(from, to, line)`` of the steps of ``player`` along an unbarred line into a free hole
    of a disc in ``hot`` (whoever is to move); with ``movable`` a player, also the steps that
    only that player's barrier stops (he may move it away)."""
    bars = tuple(game.barrier(q) for q in (0, 1) if q != movable)
    out = []
    for h in range(NUM_HOLES):
        if h % HOLES_PER_DISC and game.pin_at(h) == player:
            for dst, line in LINES_AT[h]:
                if dst // HOLES_PER_DISC in hot and line not in bars and game.pin_at(dst) < 0:
                    out.append((h, dst, line))
    return out


def unstoppable(game: Any, player: int) -> bool:
    """Whether ``player``, not to move, holds a winning step that the player to move cannot
    stop with what is left of his blocking actions: a step along an unbarred line into a free
    hole of a disc of his missing colour where he has two pins, when there are such steps on
    two lines or more, or on one and the barrier action is spent, or the barrier of the player
    to move stops another one (moving it opens that line, DSC-4: one barrier each)."""
    if len(game.tokens(player)) != 2:
        return False
    hot = _hot_discs(game, player)
    if not hot:
        return False
    me = 1 - player
    lines = {line for _src, _dst, line in _steps_into(game, player, hot, movable=me)}
    if not lines:
        return False
    mine = game.barrier(me)
    open_lines = lines - {mine}
    if not open_lines:
        return False  # the one threat is stopped already, by his own barrier
    return len(lines) > 1 or game.turn_flags()[1]


def winning_moves(game: Game) -> list[Any]:
    """The main actions that win at once for the player to move (DSC-6): with two tokens, a
    step along a line that puts a third pin on a disc of the missing colour."""
    g: Any = game
    p = g.current_player()
    if p not in (0, 1) or int(g.phase) != _MAIN or len(g.tokens(p)) != 2:
        return []
    hot = _hot_discs(g, p)
    if not hot:
        return []
    return [
        m for m in g.legal_moves()
        if int(m.kind) == _STEP and m.line >= 0 and m.b // HOLES_PER_DISC in hot
    ]


def forcing_moves(game: Game) -> list[Any]:
    """The moves alpha-beta searches past its depth: only wins in one (in Discs every main
    action gives the player blocking actions, so "another move" would be every move)."""
    return winning_moves(game)


def in_danger(game: Game) -> bool:
    """Whether the player not to move holds two tokens and a step to the third that nothing
    stops now (if it were his main action he would win)."""
    g: Any = game
    p = g.current_player()
    if p not in (0, 1) or int(g.phase) < _MAIN:
        return False
    q = 1 - p
    if len(g.tokens(q)) != 2:
        return False
    hot = _hot_discs(g, q)
    return bool(hot) and bool(_steps_into(g, q, hot))


def hands_win(game: Game, move: Any) -> bool:
    """Whether playing ``move`` lets the opponent win with his next main action whatever the
    player does with the rest of his turn (exact, from the rules): only a step along a line
    earns a token (a turn keeps every pin on its disc, DSC-2), so after the player's turn the
    opponent wins at once exactly when he holds two tokens and has an unbarred step into a free
    hole of a disc of the missing colour where he has two pins; and the only blocking action
    that stops such a step is the player's barrier across its line (DSC-4; a lock only stops
    turns, DSC-3), see :func:`unstoppable`. ``game`` is left as it was."""
    g: Any = game
    if int(move.kind) > _END:  # the set-up (DSC-1): no pins yet
        return False
    p = g.current_player()
    g.apply_unchecked(move)
    try:
        q = g.current_player()
        if q not in (0, 1):
            return g.returns()[p] < 0
        opp = 1 - p
        if q == opp:  # his turn has begun
            return bool(winning_moves(g))
        return unstoppable(g, opp)
    finally:
        g.undo()
