"""Columba: the score as things stand (CB-6, CB-11, the penalty for an open objective
included), each side against the best other side. Reads only the public ``scores`` and
``sides`` (what every player sees in ``view``)."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from rulebox.core.game import Game

_SCALE = 12.0


def values(game: Game) -> list[float]:
    """tanh of each side's lead (or deficit) over the best other side, per player."""
    g: Any = game
    scores = g.scores()
    sides = g.sides()
    totals = [sum(scores[p] for p in side) for side in sides]
    out = [0.0] * g.num_players
    for i, side in enumerate(sides):
        others = [t for j, t in enumerate(totals) if j != i]
        lead = totals[i] - (max(others) if others else 0)
        v = math.tanh(lead / _SCALE)
        for p in side:
            out[p] = v
    return out


def playout_move(game: Game, moves: Sequence[Any], rng: random.Random) -> Any:
    """Random, but usually end the turn once the card is down (no long tile shuffles)."""
    if len(moves) > 1 and rng.random() < 0.7:
        for m in moves:
            if str(m) == "end":
                return m
    return moves[rng.randrange(len(moves))]
