"""Columns: roundels weighted by level, plus who controls the pins where a roundel can still rise.

Scoring (COL-9) compares roundels on level 5, then 4, ... so a roundel counts ``2**(level-1)``
(a level-5 roundel outweighs a lower one in practice). A pin whose top unit is a blocker can take
a roundel only from that blocker's owner (COL-4), so the owner of the top blocker of a pin with
room gets a share of the roundel that pin could still take. Reads only ``Columns.stack`` and
``Columns.pieces_left``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from rulebox.core.game import Game

COPY_MAKE = True
"""Columns regenerates its move list on undo, so copying a position is cheaper."""

LEVELS = 5
_ROUNDEL, _SINGLE, _DOUBLE, _TRIPLE = 0, 1, 2, 3
_WEIGHT = (1.0, 2.0, 4.0, 8.0, 16.0)
_SCALE = 24.0


def score(game: Any) -> float:
    """Player 0's advantage in roundel points (positive: player 0 is ahead)."""
    total = 0.0
    left = [game.pieces_left(p) for p in (0, 1)]
    roundels_left = [left[p][_ROUNDEL] for p in (0, 1)]
    mover = game.current_player()
    for pin in range(12):
        units = game.stack(pin)
        for level, (owner, kind, _code) in enumerate(units):
            if kind == _ROUNDEL:
                total += _WEIGHT[level] if owner == 0 else -_WEIGHT[level]
        h = len(units)
        if h >= LEVELS:
            continue
        # the next roundel on this pin would stand on level h + 1
        nxt = _WEIGHT[h]
        if h:
            owner, kind, _code = units[-1]
            if kind != _ROUNDEL:
                if roundels_left[owner]:
                    total += 0.35 * nxt if owner == 0 else -0.35 * nxt
                continue
        # open pin: the player to move takes it first
        if mover in (0, 1) and roundels_left[mover]:
            total += 0.15 * nxt if mover == 0 else -0.15 * nxt
    return total


def values(game: Game) -> list[float]:
    """tanh of the roundel-point lead, as (player 0, player 1) returns."""
    v = math.tanh(score(game) / _SCALE)
    return [v, -v]


def order_key(game: Game, move: Any) -> float:
    """Roundels first, higher ones before lower; then blockers by the level they reach."""
    kind = int(move.kind)
    pins = move.pins
    h = max(len(game.stack(p)) for p in pins)  # type: ignore[attr-defined]
    if kind == _ROUNDEL:
        return 100.0 + 10 * h
    return 10.0 * h + kind


def playout_move(game: Game, moves: Sequence[Any], rng: random.Random) -> Any:
    """Mostly random; a roundel onto level 5 or 4 is taken when one is offered."""
    if rng.random() < 0.5:
        best = None
        best_h = 2
        for m in moves:
            if m.kind == _ROUNDEL:
                h = len(game.stack(m.pins[0]))  # type: ignore[attr-defined]
                if h > best_h:
                    best, best_h = m, h
        if best is not None:
            return best
    return moves[rng.randrange(len(moves))]
