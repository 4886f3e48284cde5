"""The Columns board: 12 pins in a 3 x 4 grid (files a-d, ranks 1-3) and the 17 adjacent pairs.

Pins are numbered in string order of their names (a1=0, a2=1, a3=2, b1=3, ..., d3=11), so that
sorting pins by number sorts their names.
"""

from __future__ import annotations

FILES = "abcd"
RANKS = "123"
LEVELS = 5

PIN_NAMES: tuple[str, ...] = tuple(f + r for f in FILES for r in RANKS)
PIN_INDEX: dict[str, int] = {name: i for i, name in enumerate(PIN_NAMES)}
NUM_PINS = len(PIN_NAMES)


def pin_xy(pin: int) -> tuple[int, int]:
    """(file, rank) indices of a pin, both from 0."""
    return divmod(pin, len(RANKS))


def adjacent(p: int, q: int) -> bool:
    """Whether two pins are orthogonally adjacent (diagonals never are)."""
    (fp, rp), (fq, rq) = pin_xy(p), pin_xy(q)
    return abs(fp - fq) + abs(rp - rq) == 1


PAIRS: tuple[tuple[int, int], ...] = tuple(
    (p, q) for p in range(NUM_PINS) for q in range(p + 1, NUM_PINS) if adjacent(p, q)
)
"""The 17 unordered adjacent pairs, lower pin first."""

DIRECTED_PAIRS: tuple[tuple[int, int], ...] = tuple(
    pair for p, q in PAIRS for pair in ((p, q), (q, p))
)
"""The 34 (thick, thin) pin pairs a triple blocker can span."""
