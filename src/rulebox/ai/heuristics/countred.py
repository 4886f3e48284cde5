"""Count Red: who can make the next four (CR-9), written from the rules as features of a logistic
evaluation (:mod:`rulebox.ai.learned`): ``value = 2 * sigmoid(w . f) - 1``.

The pieces belong to no one and the four wins for whoever makes it, so everything is tempo and
parity. A base changes only when a piece is set on an empty field (CR-6): a piece of number n
comes to rest only on a field worth n, and stacking (CR-7) never changes a base. So for every
column and colour the analysis knows how many bases are in place and which field is missing,
and for the missing field:

- if it is empty: which of the two pieces that fit it (the right colour and number) can be
  lifted and by whom (CR-4: the parity of the red around a single piece plus itself, a single on
  a locked field never; CR-5: a stack's top only by its former), and who may set it there
  (CR-6: the red around the field after the move plus the piece). A lift and a setting that
  both have one player's parity are a four that player can make: a win in one if he is to move,
  a threat if not, and two threats on different fields are hard to stop at once;
- who controls the field for a piece from afar (the parity of the red around it), even while
  the piece that fits is not free;
- if it holds a stack: the field is sealed, its base stays until the stack's former lifts the
  top (CR-5), so the former decides when to open it;
- if it holds a single wrong base: whoever may lift it opens the field (a locked one never).

Threes (CR-10) give a bonus move, so a two-base window with its third field open is a move away
from a free move, and a three whose fourth field the same player can then fill is a win (three
then four). Free pieces (singles one player may lift) and stack tops are the players' mobility.

The analysis reads the position through ``position_key()`` (its first part packs each field's
bottom, top and lock as :func:`rulebox.games.countred.rules.position_text` decodes them, then
the player to move; its second part the formers of the stacks in field order), ``parity`` and
the ``stack_lift`` option; a test checks the fours and threes it finds against every legal move
played out, so a change of that packing fails there. It is cached per position, and also
gives the search its forcing moves (fours and threes of the player to move,
:func:`forcing_moves`), the wins in one (:func:`winning_moves`) and whether the player to move
faces a four (:func:`in_danger`).

``values_v1`` is the evaluation before issue 16 (columns holding three bases of one colour), kept
for comparisons as ``alphabeta:eval=v1``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, NamedTuple

from rulebox.ai.learned import load_weights, sigmoid
from rulebox.core.game import Game
from rulebox.games.countred.moves import MOVES, NEIGHBOURS, RED, VALUE

FREE_PLIES = 4
"""A bonus move (CR-10) costs alpha-beta no depth, up to 4 on a line (at most 4 threes a game)."""

COLUMNS = 4
ROWS = 4
_N = 16

FEATURES: tuple[str, ...] = (
    "tempo",
    "win_now",
    "threats",
    "double_threat",
    "bonus_now",
    "bonus_next",
    "combo",
    "open_fours",
    "sealed",
    "openers",
    "open_twos",
    "free_pieces",
    "stack_tops",
    "three_columns",
)
"""The features, each from the given player's point of view (antisymmetric: a player's
features are the other's negated):

- ``tempo``: +1 if the player is to move, else -1;
- ``win_now``: +1 if the player is to move and can make a four, -1 if the opponent is and can;
- ``threats``: fields (at most 2) where the player not to move could make a four if it were his
  turn: + for the player's threats, - for the opponent's;
- ``double_threat``: +-1 when those are two fields or more;
- ``bonus_now``: threes (at most 3) the player to move can make now (a bonus move), signed;
- ``bonus_next``: threes (at most 3) the player not to move could make, signed;
- ``combo``: columns where the player can make a three and controls the fourth field with the
  piece for it free to him (three, bonus move, four), minus the opponent's;
- ``open_fours``: columns with three bases of a colour and the fourth field empty, that the
  player controls (the parity of the red around it with the piece that fits), minus the
  opponent's;
- ``sealed``: such columns whose fourth field is sealed by a stack the player formed, minus the
  opponent's;
- ``openers``: such columns whose fourth field holds a wrong single base the player may lift,
  minus the opponent's;
- ``open_twos``: windows with two bases of a colour and the third field empty, controlled by the
  player, minus the opponent's (halved);
- ``free_pieces``: single pieces the player may lift minus those the opponent may (quartered);
- ``stack_tops``: stack tops the player may lift minus the opponent's;
- ``three_columns``: columns holding three bases of one colour, + if the player is to move,
  - if not (the evaluation before issue 16).
"""

DEFAULT_WEIGHTS: dict[str, float] = {
    "tempo": 0.1,
    "win_now": 3.0,
    "threats": 1.0,
    "double_threat": 1.2,
    "bonus_now": 0.35,
    "bonus_next": 0.25,
    "combo": 0.6,
    "open_fours": 0.3,
    "sealed": 0.25,
    "openers": 0.15,
    "open_twos": 0.15,
    "free_pieces": 0.1,
    "stack_tops": 0.1,
    "three_columns": 0.1,
}
"""Hand-set weights, used until ``rulebox train countred`` ships a weights file."""

_NMASK = tuple(sum(1 << g for g in NEIGHBOURS[f]) for f in range(_N))
_ADJ = tuple(tuple(bool(_NMASK[s] >> t & 1) for t in range(_N)) for s in range(_N))
_COLUMN = tuple(tuple(row * COLUMNS + col for row in range(ROWS)) for col in range(COLUMNS))
_WINDOWS = ((0, 1, 2), (1, 2, 3))
_CODE = tuple(tuple(1 + v + 4 * x for v in range(4)) for x in range(2))  # _CODE[red][number]
_ALL = (1 << _N) - 1
_COLUMN_MASKS = tuple(
    (
        sum(1 << f for f in column),
        tuple(
            (sum(1 << column[r] for r in window), column[3 if window[0] == 0 else 0])
            for window in _WINDOWS
        ),
    )
    for column in _COLUMN
)
"""Each column's mask, and its two three-windows (mask, the column's field outside it)."""


class Analysis(NamedTuple):
    """What the evaluation and the search need of one position (see the module docstring)."""

    mover: int
    feats0: tuple[float, ...]
    """The features from player 0's point of view (player 1's are these negated)."""
    wins: tuple[int, ...]
    """The moves that make a four for the player to move, as ``16 * src + dst``."""
    forcing: tuple[int, ...]
    """The wins, then the moves that make a three (a bonus move) for the player to move, as
    ``16 * src + dst`` (numbers, not move objects: the cache then holds nothing the garbage
    collector must keep scanning)."""
    danger: bool
    """Whether the player not to move could make a four if it were his turn."""


_CACHE: dict[Any, Analysis] = {}
_CACHE_SIZE = 50_000


def analyse(game: Game) -> Analysis:
    """The analysis of a Count Red position (cached by ``position_key``)."""
    g: Any = game
    key = g.position_key()
    found = _CACHE.get(key)
    if found is not None:
        return found
    found = _analyse(g, key)
    if len(_CACHE) >= _CACHE_SIZE:
        _CACHE.clear()
    _CACHE[key] = found
    return found


def _analyse(g: Any, key: Any) -> Analysis:
    full, formers = key
    mover = full & 1
    k = full >> 1
    par0 = g.parity(0)
    owner = (0, 1) if par0 == 0 else (1, 0)  # owner[parity] = the player of that parity
    strict = g.opts.get("stack_lift", "seed") == "seed"
    # the fields as bit masks: bases by colour, singles, locks, the red-around parity, and
    # where each piece is on top (pm[piece])
    base = [0, 0]
    pm = [0] * 9
    single = 0
    locks = 0
    odd = 0  # bit f: an odd number of red pieces around f
    stacks: list[tuple[int, int, int]] = []
    f = 0
    while k:
        bits = k & 511
        if bits:
            bit = 1 << f
            b = bits & 15
            t = bits >> 4 & 15
            red = RED[b]
            base[red] |= bit
            if t:
                stacks.append((f, b, t))
                pm[t] |= bit
                red += RED[t]
            else:
                single |= bit
                pm[b] |= bit
            if red & 1:
                odd ^= _NMASK[f]
            if bits & 256:
                locks |= bit
        k >>= 9
        f += 1
    # who may lift what (CR-4, CR-5): singles by parity, stack tops by their formers
    loose = single & ~locks
    lift1 = (odd ^ base[1]) & loose  # singles lifted on odd counts
    free = [0, 0]
    free[owner[1]] = lift1.bit_count()
    free[owner[0]] = (loose & ~lift1).bit_count()
    tops = [0, 0]
    lifter = [-1] * _N
    former = [-1] * _N
    for i, (f, b, t) in enumerate(stacks):
        who = formers[i]
        former[f] = who
        if strict and (RED[b] + RED[t]) & 1 != par0 ^ who:
            pm[t] &= ~(1 << f)
            continue
        tops[who] += 1
        lifter[f] = who
    empty = _ALL & ~(base[0] | base[1])
    four_fields: tuple[set[int], set[int]] = (set(), set())
    wins: list[int] = []
    threes: list[int] = []
    n_threes = [0, 0]
    combo = [0, 0]
    open_fours = [0, 0]
    sealed = [0, 0]
    openers = [0, 0]
    twos = [0, 0]
    three_columns = 0
    for cmask, windows in _COLUMN_MASKS:
        for x in (0, 1):
            mine = base[x] & cmask
            n = mine.bit_count()
            if n == 3:
                three_columns += 1
                tbit = cmask & ~mine
                t = tbit.bit_length() - 1
                if not empty & tbit:
                    if former[t] >= 0:
                        sealed[former[t]] += 1
                    elif loose & tbit:
                        openers[owner[(lift1 >> t) & 1]] += 1
                    continue
                odd_t = (odd >> t) & 1
                open_fours[owner[odd_t ^ x]] += 1
                for s, who in _candidates(pm[_CODE[x][VALUE[t]]], lifter, loose, lift1, owner):
                    if owner[odd_t ^ (0 if _ADJ[s][t] else x)] == who:
                        four_fields[who].add(t)
                        if who == mover:
                            wins.append(16 * s + t)
            elif n == 2:
                for wmask, rest in windows:
                    tbit = wmask & empty
                    if not tbit or (mine & wmask).bit_count() != 2:
                        continue
                    t = tbit.bit_length() - 1
                    odd_t = (odd >> t) & 1
                    twos[owner[odd_t ^ x]] += 1
                    cands = _candidates(pm[_CODE[x][VALUE[t]]], lifter, loose, lift1, owner)
                    if not cands:
                        continue
                    t2 = rest if empty >> rest & 1 else -1
                    for s, who in cands:
                        if owner[odd_t ^ (0 if _ADJ[s][t] else x)] != who:
                            continue
                        n_threes[who] += 1
                        if who == mover:
                            threes.append(16 * s + t)
                        # three, bonus move, four: the last field empty, its piece free to him
                        if t2 >= 0 and owner[((odd >> t2) & 1) ^ x] == who and any(
                            w == who and s2 != s
                            for s2, w in _candidates(
                                pm[_CODE[x][VALUE[t2]]], lifter, loose, lift1, owner
                            )
                        ):
                            combo[who] += 1
    other = mover ^ 1
    sm = 1.0 if mover == 0 else -1.0  # the sign of the mover's terms for player 0
    threats = min(len(four_fields[other]), 2)
    feats0 = (
        sm,
        sm if wins else 0.0,
        -sm * threats,
        -sm if threats >= 2 else 0.0,
        sm * min(n_threes[mover], 3),
        -sm * min(n_threes[other], 3),
        float(combo[0] - combo[1]),
        float(open_fours[0] - open_fours[1]),
        float(sealed[0] - sealed[1]),
        float(openers[0] - openers[1]),
        0.5 * (twos[0] - twos[1]),
        0.25 * (free[0] - free[1]),
        float(tops[0] - tops[1]),
        sm * three_columns,
    )
    forcing = tuple(wins) + tuple(threes)
    return Analysis(mover, feats0, tuple(wins), forcing, bool(four_fields[other]))


def _candidates(
    mask: int, lifter: list[int], loose: int, lift1: int, owner: tuple[int, int]
) -> list[tuple[int, int]]:
    """(field, who may lift it) for the fields of ``mask`` whose top piece can be lifted."""
    out = []
    while mask:
        low = mask & -mask
        s = low.bit_length() - 1
        mask ^= low
        if loose & low:
            out.append((s, owner[(lift1 >> s) & 1]))
        elif lifter[s] >= 0:
            out.append((s, lifter[s]))
    return out


def features(game: Game, player: int) -> list[float]:
    """:data:`FEATURES` of ``game`` from ``player``'s point of view."""
    f0 = analyse(game).feats0
    return list(f0) if player == 0 else [-x for x in f0]


def values(game: Game) -> list[float]:
    """``2 * sigmoid(w . f) - 1`` for player 0 and its negation for player 1."""
    w = load_weights("countred", FEATURES, DEFAULT_WEIGHTS)
    f0 = analyse(game).feats0
    z = w.bias
    for wi, fi in zip(w.weights, f0, strict=True):
        z += wi * fi
    v = 2.0 * sigmoid(z) - 1.0
    return [v, -v]


def winning_moves(game: Game) -> list[Any]:
    """The moves that make a four (CR-9) for the player to move."""
    return [MOVES[x >> 4][x & 15] for x in analyse(game).wins]


def forcing_moves(game: Game) -> list[Any]:
    """The moves that win at once, then those that make a three and so give the player to move
    a bonus move (CR-10)."""
    return [MOVES[x >> 4][x & 15] for x in analyse(game).forcing]


def in_danger(game: Game) -> bool:
    """Whether the player not to move could make a four if it were his turn."""
    return analyse(game).danger


def values_v1(game: Game) -> list[float]:
    """The evaluation before issue 16: a small edge to the player to move for every column
    holding three base pieces of one colour."""
    g: Any = game
    p = g.current_player()
    if p < 0:
        return [0.0, 0.0]
    near = 0
    for col in range(COLUMNS):
        colours: dict[int, int] = {}
        for row in range(ROWS):
            pieces = g.pieces(row * COLUMNS + col)  # field = 4 * row + column
            if pieces:
                key = RED[pieces[0]]
                colours[key] = colours.get(key, 0) + 1
        if colours and max(colours.values()) >= 3:
            near += 1
    v = math.tanh(0.15 * near)
    return [v, -v] if p == 0 else [-v, v]


EVALUATIONS: dict[str, Callable[[Game], list[float]]] = {"v1": values_v1}
"""Other evaluations by name (``alphabeta:eval=v1``), for comparisons."""
