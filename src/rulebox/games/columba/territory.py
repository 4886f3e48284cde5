"""Columba's territory: what lies on the grid, and its regions and estates.

The territory is a dict from square key (see :mod:`cards`) to the top item there, a
:class:`Square` ``(kind, colour, turn, who, card)``: a wild pigeon ``FIELD`` of a card (``card``
is its id, ``turn`` the turn it was laid), a domesticated pigeon ``TILE`` (``who`` laid it on
``turn``) or a ``FALCON`` (``who`` laid it; ``card`` is the colour of a tile under it, or
``None``). Only the top item counts, so nothing else under it is kept. Dovecotes stand on
squares (key -> ``(owner, large)``).

A region is a set of squares of one colour joined along edges (falcons and empty squares
separate them); a region holding a dovecote is its owner's estate. Every question about
regions goes through one flood fill, :func:`flood`: the regions of a territory
(:func:`find_regions`), whether a placement would join two estates (:func:`joins_estates`, on
the regions after it, CB-9), and whether a loaded territory is one piece (:func:`is_connected`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from rulebox.games.columba.cards import NEIGHBOURS

FIELD, TILE, FALCON = 0, 1, 2
KIND_NAMES = ("field", "tile", "falcon")

Square = tuple[Any, ...]
"""``(kind, colour, turn, who, card)``, see the module docstring."""
Cotes = dict[int, tuple[int, bool]]
"""Dovecotes: square -> (owner, large)."""

WILD = "wild"
"""The state's mark on a tile a falcon cut off from every estate (CB-3 c)."""

Regions = tuple[dict[int, int], list[list[int]], list[int]]
"""(label of each pigeon square, members of each region, owner of each region or -1)."""


def flood(cls: Mapping[int, int], start: int, mark: dict[int, int], tag: int) -> list[int]:
    """The squares joined to ``start`` along edges through squares of its class (``cls``:
    square -> class; squares not in it join nothing), in the order they are found, ``start``
    first; each is marked ``tag`` in ``mark``, and squares marked already are not entered. The
    one flood fill."""
    c = cls[start]
    mark[start] = tag
    found = [start]
    stack = [start]
    while stack:
        a = stack.pop()
        for d in NEIGHBOURS:
            b = a + d
            if b not in mark and cls.get(b) == c:
                mark[b] = tag
                found.append(b)
                stack.append(b)
    return found


def colours(sq: Mapping[int, Square]) -> dict[int, int]:
    """The colour of every pigeon square (falcons join no region)."""
    return {k: s[1] for k, s in sq.items() if s[0] != FALCON}


def find_regions(sq: Mapping[int, Square], cotes: Cotes) -> Regions:
    """The regions of a territory; a region's owner is the owner of its dovecote."""
    cls = colours(sq)
    label: dict[int, int] = {}
    regs: list[list[int]] = []
    for k in cls:
        if k not in label:
            regs.append(flood(cls, k, label, len(regs)))
    owner = [-1] * len(regs)
    for k, (p, _large) in cotes.items():
        owner[label[k]] = p
    return label, regs, owner


def joins_estates(sq: Mapping[int, Square], cotes: Cotes, changes: Mapping[int, Square]) -> bool:
    """Whether laying ``changes`` (square -> new top item) on the territory would leave two
    dovecotes in one region (CB-9), judged on the regions after it. Only a region through a
    changed square can have gained a dovecote, so only those are searched."""
    cls = colours(sq)
    for k, s in changes.items():
        if s[0] == FALCON:
            cls.pop(k, None)
        else:
            cls[k] = s[1]
    seen: dict[int, int] = {}
    for start in changes:
        if start in cls and start not in seen:
            members = flood(cls, start, seen, 0)
            if sum(1 for k in members if k in cotes) > 1:
                return True
    return False


def is_connected(squares: Iterable[int]) -> bool:
    """Whether the squares make one piece along edges (the territory always does, CB-2)."""
    cls = dict.fromkeys(squares, 0)
    if not cls:
        return True
    return len(flood(cls, next(iter(cls)), {}, 0)) == len(cls)
