"""Columns: who will cap which pin, read from the rules (COL-4, COL-8, COL-9).

Scoring (COL-9) counts roundels on level 5 first, then level 4, 3, ... so the evaluation is
built around the fifth level. What the rules make decisive there:

- a pin of height 4 whose top is a blocker can be capped only by that blocker's owner (COL-4:
  a roundel may not rest on an opponent's blocker); the other player can only kill it with a
  single blocker on level 5 (a double cannot rest on one piece at both ends, COL-6). Such a
  pin is *sealed* for the blocker's owner;
- a pin of height 4 whose top is a roundel can be capped by either player: of ``k`` such pins
  the player to move takes one more when ``k`` is odd (all of them if the other holds no
  roundel);
- a lower pin topped by a blocker takes the next roundel only from that blocker's owner, unless
  the other spends a single on it;
- a pin of height 3 is a seal waiting for a blocker: a single, a double over two such pins, or
  a triple (thick end down over heights 2 and 3) puts an own blocker on level 4;
- no one may pass (COL-1), and a roundel on level 4 hands the cap to the other: when the slots
  below level 4 run out, the player to move must give something away. Filled one unit at a
  time, an odd number of slots leaves the last safe one to the player to move;
- a roundel in hand scores only if a pin is left where it can reach level 5: not a full pin,
  not a height-4 pin topped by an opponent's blocker, and not a lower pin topped by one while
  the player has no single blocker left to cover it (a double or triple might, rarely; not
  counted).

Each of these is a feature of :data:`FEATURES` (player's count minus the opponent's, so the
features of the two players are opposite); the value is ``2 * sigmoid(w . f) - 1`` with the
weights of :func:`rulebox.ai.learned.load_weights` (hand-set :data:`DEFAULT_WEIGHTS` until
``rulebox train columns`` ships a file). Reads what ``Columns.stack``, ``Columns.pieces_left``
and ``current_player`` tell (through :func:`_board`, for speed).

The evaluation before issue 16 (roundels weighted by level plus a share for top blockers) is
kept as :func:`values_v1` for comparisons.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from rulebox.ai.learned import Weights, load_weights, sigmoid
from rulebox.core.game import Game
from rulebox.games.columns.geometry import DIRECTED_PAIRS, NUM_PINS, PAIRS

COPY_MAKE = True
"""Columns regenerates its move list on undo, so copying a position is cheaper."""

LEVELS = 5
_ROUNDEL, _SINGLE, _DOUBLE, _TRIPLE = 0, 1, 2, 3
_LOW = (0.25, 0.5, 1.0)
"""Weights of a roundel on level 1, 2, 3 in the feature ``lower``."""

FEATURES: tuple[str, ...] = (
    "caps",          # roundels on level 5 (COL-9's first count)
    "level4",        # roundels on level 4 (the first tie-break)
    "lower",         # roundels on levels 3, 2, 1 (later tie-breaks), 1, 1/2, 1/4 each
    "mover",         # +1 for the player to move
    "sealed",        # height-4 pins topped by an own blocker, up to the roundels in hand
    "sealed_safe",   # of those, more than the opponent's single blockers can kill
    "open4",         # caps of the height-4 pins with a roundel on top, taken in turn from the mover
    "reach5",        # roundels in hand that can still reach level 5 (pins the player can cap)
    "seal_moves",    # pins the player could seal on level 4 now with a blocker in hand
    "singles",       # single blockers in hand (they seal a height-3 pin or kill a seal)
    "pieces",        # pieces in hand, /4 (COL-8: who runs out of placements first)
    "tops",          # pins below level 4 topped by an own blocker (the next roundel there is his)
    "parity",        # +1 to the mover if the unit slots left below level 4 are odd, else -1
)

DEFAULT_WEIGHTS: dict[str, float] = {
    "caps": 1.3,
    "level4": 0.35,
    "lower": 0.2,
    "mover": -0.1,
    "sealed": 0.6,
    "sealed_safe": 0.2,
    "open4": 1.0,
    "reach5": 0.05,
    "seal_moves": 0.2,
    "singles": 0.2,
    "pieces": 0.05,
    "tops": 0.15,
    "parity": 0.1,
}
"""Hand-set, then moved towards a quick fit (``rulebox train columns --games 200
--generations 3 --seed 1``: held-out log-loss 0.500 against 0.538 for the first hand-set
weights) where it agreed with the rules: an open height-4 pin is nearly a cap for the mover,
low roundels break ties, and having to move is a small burden (no passing, COL-1). The fit's
large weight on ``pieces`` was left out: with one piece placed a turn it mostly tells the
seats apart."""


def model() -> Weights:
    """The learned (or hand-set) weights of :data:`FEATURES`."""
    return load_weights("columns", FEATURES, DEFAULT_WEIGHTS)


def _board(game: Any) -> tuple[list[list[int]], list[int], list[int], list[list[int]]]:
    """The position as plain numbers: each pin's piece numbers (bottom first), each piece's
    owner and kind, and each player's pieces in hand by kind: what ``Columns.stack`` and
    ``Columns.pieces_left`` tell, read from the game's own lists (never changed here).
    ``stack`` builds a tuple with an enum for every unit, which was most of the evaluation's
    time at every leaf of the search."""
    return game._stacks, game._owner, game._kind, game._left


def _features0(game: Any) -> list[float]:
    """:data:`FEATURES` from player 0's point of view (player 1's are their negatives)."""
    stacks, owner_of, kind_of, left = _board(game)
    rin = (left[0][_ROUNDEL], left[1][_ROUNDEL])
    singles = (left[0][_SINGLE], left[1][_SINGLE])
    doubles = (left[0][_DOUBLE], left[1][_DOUBLE])
    triples = (left[0][_TRIPLE], left[1][_TRIPLE])
    pieces = (sum(left[0]), sum(left[1]))
    heights = [0] * NUM_PINS
    tops = [0] * NUM_PINS
    r5 = [0, 0]
    r4 = [0, 0]
    low = [0.0, 0.0]
    sealed = [0, 0]
    cappable = [0, 0]
    tops_of = [0, 0]
    open4 = 0
    for pin, stack in enumerate(stacks):
        h = len(stack)
        heights[pin] = h
        if not h:
            tops[pin] = -1 - pin
            cappable[0] += 1
            cappable[1] += 1
            continue
        for level, code in enumerate(stack):
            if kind_of[code] == _ROUNDEL:
                if level == 4:
                    r5[owner_of[code]] += 1
                elif level == 3:
                    r4[owner_of[code]] += 1
                else:
                    low[owner_of[code]] += _LOW[level]
        code = stack[-1]
        owner, kind = owner_of[code], kind_of[code]
        tops[pin] = code
        if h >= LEVELS:
            continue
        if kind == _ROUNDEL:
            cappable[0] += 1
            cappable[1] += 1
            if h == LEVELS - 1:
                open4 += 1
        elif h == LEVELS - 1:
            sealed[owner] += 1
            cappable[owner] += 1
        else:  # the other player needs a single of his own on this blocker first
            tops_of[owner] += 1
            cappable[owner] += 1
            if singles[1 - owner]:
                cappable[1 - owner] += 1
    # pins that could get an own blocker on level 4 by a single, double or triple in hand
    seal = [0, 0]
    h3 = [pin for pin in range(NUM_PINS) if heights[pin] == 3]
    if h3:
        spots = [set(h3) if singles[p] else set() for p in (0, 1)]
        for a, b in PAIRS:
            if heights[a] == 3 and heights[b] == 3 and tops[a] != tops[b]:
                for p in (0, 1):
                    if doubles[p]:
                        spots[p].update((a, b))
        for a, b in DIRECTED_PAIRS:  # thick end down on heights 2 (thick) and 3 (thin)
            if heights[a] == 2 and heights[b] == 3 and tops[a] != tops[b]:
                for p in (0, 1):
                    if triples[p]:
                        spots[p].update((a, b))
        seal = [len(spots[0]), len(spots[1])]
    s0, s1 = min(sealed[0], rin[0]), min(sealed[1], rin[1])
    safe0, safe1 = max(0, s0 - singles[1]), max(0, s1 - singles[0])
    mover = game.current_player()
    sign = 1.0 if mover == 0 else (-1.0 if mover == 1 else 0.0)
    open_share = 0.0
    if open4 and sign:  # taken in turn, the mover first, by whoever still holds roundels
        first, second = (0, 1) if mover == 0 else (1, 0)
        if rin[first] and rin[second]:
            share = float(open4 % 2)
        else:
            share = float(open4) if rin[first] else (-float(open4) if rin[second] else 0.0)
        open_share = share if first == 0 else -share
    return [
        float(r5[0] - r5[1]),
        float(r4[0] - r4[1]),
        low[0] - low[1],
        sign,
        float(s0 - s1),
        float(safe0 - safe1),
        open_share,
        float(min(rin[0], cappable[0]) - min(rin[1], cappable[1])),
        float(seal[0] - seal[1]),
        float(singles[0] - singles[1]),
        (pieces[0] - pieces[1]) / 4.0,
        float(tops_of[0] - tops_of[1]),
        sign if sum(max(0, 3 - h) for h in heights) % 2 else -sign,
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
_WEIGHT_V1 = (1.0, 2.0, 4.0, 8.0, 16.0)
_SCALE_V1 = 24.0


def score_v1(game: Any) -> float:
    """Player 0's advantage in roundel points (a roundel counts ``2**(level-1)``), plus a share
    of the next roundel for the owner of a pin's top blocker (or the mover on an open pin)."""
    total = 0.0
    left = [game.pieces_left(p) for p in (0, 1)]
    roundels_left = [left[p][_ROUNDEL] for p in (0, 1)]
    mover = game.current_player()
    for pin in range(NUM_PINS):
        units = game.stack(pin)
        for level, (owner, kind, _code) in enumerate(units):
            if kind == _ROUNDEL:
                total += _WEIGHT_V1[level] if owner == 0 else -_WEIGHT_V1[level]
        h = len(units)
        if h >= LEVELS:
            continue
        nxt = _WEIGHT_V1[h]
        if h:
            owner, kind, _code = units[-1]
            if kind != _ROUNDEL:
                if roundels_left[owner]:
                    total += 0.35 * nxt if owner == 0 else -0.35 * nxt
                continue
        if mover in (0, 1) and roundels_left[mover]:
            total += 0.15 * nxt if mover == 0 else -0.15 * nxt
    return total


def values_v1(game: Game) -> list[float]:
    """The evaluation before issue 16: tanh of the roundel-point lead."""
    v = math.tanh(score_v1(game) / _SCALE_V1)
    return [v, -v]


# --- move ordering and playouts -----------------------------------------------------------------
def order_key(game: Game, move: Any) -> float:
    """Larger first: a cap, killing an opponent's seal, sealing on level 4 (two pins before
    one), low roundels; last a roundel on level 4, which hands the cap to the opponent."""
    stacks, owner_of, kind_of, _left = _board(game)
    kind = int(move.kind)
    pins = move.pins
    stack = stacks[pins[0]]
    h = len(stack)
    if kind == _ROUNDEL:
        if h == 4:
            return 1000.0
        return 5.0 if h == 3 else 100.0 - 10 * h
    if kind == _SINGLE:
        if h == 4:
            top = stack[-1]
            if kind_of[top] != _ROUNDEL and owner_of[top] != game.current_player():
                return 900.0  # kills a pin sealed for the opponent
            return 300.0 if kind_of[top] == _ROUNDEL else 10.0
        return 600.0 if h == 3 else 20.0 + h
    if kind == _DOUBLE:
        return {3: 700.0, 4: 350.0}.get(h, 20.0 + h)
    if move.up:  # thick h+1, h+2 and thin h+1
        return {2: 500.0, 3: 400.0}.get(h, 20.0 + h)
    return {2: 700.0, 3: 350.0}.get(h, 20.0 + h)  # flat top on level h+2


def playout_move(game: Game, moves: Sequence[Any], rng: random.Random) -> Any:
    """Mostly the best move by :func:`order_key` (a cap, a kill, a seal), else at random."""
    if rng.random() < 0.5:
        best = max(moves, key=lambda m: order_key(game, m))
        if order_key(game, best) >= 600.0:
            return best
    return moves[rng.randrange(len(moves))]


EVALUATIONS = {"v1": values_v1}
"""The evaluation before issue 16 (``alphabeta:eval=v1``)."""


def winning_moves(game: Game) -> list[Any]:
    """Exactly the moves that win at once for the player to move: the opponent is left with no
    placement (COL-8) and the player is ahead (COL-9). Cheap in most positions: a move fills
    at most two pins, so while three pins still take an opponent's single (or roundel) no move
    can end the game."""
    g: Any = game
    p = g.current_player()
    if p not in (0, 1):
        return []
    stacks, owner_of, kind_of, left = _board(g)
    o = 1 - p
    open_pins = [s for s in stacks if len(s) < LEVELS]
    if left[o][_SINGLE] and len(open_pins) > 2:
        return []
    if left[o][_ROUNDEL] and sum(
        1 for s in open_pins if not s or kind_of[s[-1]] == _ROUNDEL or owner_of[s[-1]] == o
    ) > 2:
        return []
    out = []
    for move in g.legal_moves():
        child = g.clone()
        child.apply_unchecked(move)
        if child.current_player() not in (0, 1) and child.returns()[p] > 0:
            out.append(move)
    return out
