"""The Discs board, computed once from the grid (RULINGS.md, section Discs).

Nine discs in a 3 x 3 grid, files ``a``-``c`` and ranks ``1``-``3`` (rank 3 is north). Each disc
has five holes like the five on a die: the centre ``c`` and the outer holes ``ne``, ``nw``,
``se``, ``sw`` on its diagonals. A hole is written ``disc.hole`` (``b2.ne``).

Numbering: discs in string order of their names (a1=0, a2=1, a3=2, b1=3, ..., c3=8) and holes
in string order too (``a1.c``=0, ``a1.ne``=1, ``a1.nw``=2, ``a1.se``=3, ``a1.sw``=4, ``a2.c``=5,
...), so hole ``h`` lies on disc ``h // 5`` and is an outer hole exactly when ``h % 5`` is not 0.
Sorting numbers sorts names, which makes every canonical text (lines in string order) cheap.

Everything else is derived from two facts written once:

* :data:`OFFSET`: where each hole sits on its disc, in half-units of the disc grid;
* :data:`CLOCKWISE`: a quarter turn clockwise as a mapping over hole names
  (``ne -> se -> sw -> nw -> ne``, the centre stays).

The 32 lines are the pairs of outer holes on neighbouring discs that face each other: the step
from one hole to the other is twice the step between their discs (two parallel lines between
orthogonal neighbours, one between diagonal neighbours).
"""

from __future__ import annotations

FILES = "abc"
RANKS = "123"
HOLE_KINDS: tuple[str, ...] = ("c", "ne", "nw", "se", "sw")
"""The five holes of a disc in string order; index 0 is the centre."""

OFFSET: dict[str, tuple[int, int]] = {"c": (0, 0), "ne": (1, 1), "nw": (-1, 1),
                                      "se": (1, -1), "sw": (-1, -1)}
"""Where a hole sits relative to its disc's centre (x grows east, y grows north)."""

DISC_SPACING = 4
"""Distance between the centres of orthogonally neighbouring discs, in the units of OFFSET."""

CLOCKWISE: dict[str, str] = {"c": "c", "ne": "se", "se": "sw", "sw": "nw", "nw": "ne"}
"""A quarter turn clockwise, as a mapping over hole names (the only place a rotation is written)."""

ANTICLOCKWISE: dict[str, str] = {v: k for k, v in CLOCKWISE.items()}

DISC_NAMES: tuple[str, ...] = tuple(f + r for f in FILES for r in RANKS)
DISC_INDEX: dict[str, int] = {name: i for i, name in enumerate(DISC_NAMES)}
NUM_DISCS = len(DISC_NAMES)

HOLE_NAMES: tuple[str, ...] = tuple(f"{d}.{k}" for d in DISC_NAMES for k in HOLE_KINDS)
HOLE_INDEX: dict[str, int] = {name: i for i, name in enumerate(HOLE_NAMES)}
NUM_HOLES = len(HOLE_NAMES)
HOLES_PER_DISC = len(HOLE_KINDS)

ARRANGE_ORDER: tuple[int, ...] = tuple(DISC_INDEX[f + r] for r in RANKS for f in FILES)
"""The discs in the order of the ``arrange`` notation: a1, b1, c1, a2, ..., c3."""

CORNERS: tuple[int, ...] = tuple(DISC_INDEX[n] for n in ("a1", "a3", "c1", "c3"))
CORNER_PAIRS: tuple[tuple[int, int], ...] = (
    (DISC_INDEX["a1"], DISC_INDEX["c3"]),
    (DISC_INDEX["a3"], DISC_INDEX["c1"]),
)
"""The two pairs of diagonally opposite corner discs (``a1c3`` and ``a3c1`` in the notation)."""
CORNER_PAIR_NAMES: tuple[str, ...] = ("a1c3", "a3c1")


def disc_xy(disc: int) -> tuple[int, int]:
    """(file, rank) indices of a disc, both from 0."""
    return divmod(disc, len(RANKS))


def hole_xy(hole: int) -> tuple[int, int]:
    """Board coordinates of a hole: the disc centre times the spacing plus the hole's offset."""
    disc, k = divmod(hole, HOLES_PER_DISC)
    f, r = disc_xy(disc)
    dx, dy = OFFSET[HOLE_KINDS[k]]
    return f * DISC_SPACING + dx, r * DISC_SPACING + dy


def is_outer(hole: int) -> bool:
    """Whether a hole is on the rim (not a centre)."""
    return hole % HOLES_PER_DISC != 0


def _hole_on(disc: int, kind: str) -> int:
    return disc * HOLES_PER_DISC + HOLE_KINDS.index(kind)


def _inner_neighbours(hole: int) -> tuple[int, ...]:
    """Holes of the same disc one step away: the centre touches every outer hole; an outer hole
    touches the centre and its two rim neighbours (one quarter turn either way)."""
    disc, k = divmod(hole, HOLES_PER_DISC)
    kind = HOLE_KINDS[k]
    if kind == "c":
        kinds = [k2 for k2 in HOLE_KINDS if k2 != "c"]
    else:
        kinds = ["c", CLOCKWISE[kind], ANTICLOCKWISE[kind]]
    return tuple(sorted(_hole_on(disc, k2) for k2 in kinds))


INNER_NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    _inner_neighbours(h) for h in range(NUM_HOLES)
)
"""For each hole, the holes of its own disc one step away."""


def _faces(p: int, q: int) -> bool:
    """Whether outer holes p and q face each other across neighbouring discs."""
    if not (is_outer(p) and is_outer(q)):
        return False
    (fp, rp), (fq, rq) = disc_xy(p // HOLES_PER_DISC), disc_xy(q // HOLES_PER_DISC)
    ddx, ddy = fq - fp, rq - rp
    if (ddx, ddy) == (0, 0) or max(abs(ddx), abs(ddy)) != 1:
        return False
    (xp, yp), (xq, yq) = hole_xy(p), hole_xy(q)
    return (xq - xp, yq - yp) == (2 * ddx, 2 * ddy)


LINES: tuple[tuple[int, int], ...] = tuple(
    (p, q) for p in range(NUM_HOLES) for q in range(p + 1, NUM_HOLES) if _faces(p, q)
)
"""The 32 lines, each as (lower hole, higher hole): string order of the hole names."""
LINE_INDEX: dict[tuple[int, int], int] = {pair: i for i, pair in enumerate(LINES)}
LINE_NAMES: tuple[str, ...] = tuple(f"{HOLE_NAMES[p]}-{HOLE_NAMES[q]}" for p, q in LINES)
NUM_LINES = len(LINES)

LINES_AT: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((q if p == h else p, i) for i, (p, q) in enumerate(LINES) if h in (p, q))
    for h in range(NUM_HOLES)
)
"""For each hole, (hole at the other end, line index) of every line ending there."""


def line_between(p: int, q: int) -> int:
    """The index of the line joining holes p and q, or -1 if none does."""
    return LINE_INDEX.get((min(p, q), max(p, q)), -1)


def _turn_map(disc: int, mapping: dict[str, str]) -> tuple[int, ...]:
    """Where every hole of the board goes when ``disc`` turns by ``mapping`` (others stay)."""
    out = list(range(NUM_HOLES))
    for k, kind in enumerate(HOLE_KINDS):
        out[disc * HOLES_PER_DISC + k] = _hole_on(disc, mapping[kind])
    return tuple(out)


CLOCKWISE_DIR = 1
ANTICLOCKWISE_DIR = -1
TURN_MAPS: dict[int, tuple[tuple[int, ...], ...]] = {
    CLOCKWISE_DIR: tuple(_turn_map(d, CLOCKWISE) for d in range(NUM_DISCS)),
    ANTICLOCKWISE_DIR: tuple(_turn_map(d, ANTICLOCKWISE) for d in range(NUM_DISCS)),
}
"""``TURN_MAPS[direction][disc][hole]``: where a pin in ``hole`` is after the quarter turn."""

OUTER_HOLES: tuple[tuple[int, ...], ...] = tuple(
    tuple(d * HOLES_PER_DISC + k for k in range(1, HOLES_PER_DISC)) for d in range(NUM_DISCS)
)
"""The four outer holes of each disc."""
