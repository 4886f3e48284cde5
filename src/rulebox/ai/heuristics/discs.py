"""Discs: progress towards the three tokens (DSC-5, DSC-6).

A token is worth most; for each colour not yet earned, the best disc of that colour (one that
earns something: not a starting disc the player has not left yet) counts by how many of the
player's pins stand on it (three earn the token). Reads only ``tokens``, ``pin_at``,
``disc_colour`` and ``home_discs``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from rulebox.core.game import Game

NUM_DISCS = 9
HOLES_PER_DISC = 5
_PROGRESS = (0.0, 0.5, 1.6, 3.0)  # pins on the best disc of a missing colour: 0, 1, 2, 3+
_TOKEN = 4.0
_SCALE = 8.0


def progress(game: Any, player: int, counts: Sequence[Sequence[int]]) -> float:
    """How close ``player`` is to holding all three tokens."""
    have = game.tokens(player)
    total = _TOKEN * len(have)
    home = set(game.home_discs(player))
    best: dict[str, float] = {}
    for d in range(NUM_DISCS):
        colour = game.disc_colour(d)
        if colour in have or colour == "?" or d in home:
            continue
        v = _PROGRESS[min(3, counts[player][d])]
        if v > best.get(colour, -1.0):
            best[colour] = v
    total += sum(best.values())
    if len(have) == 2:
        total += 0.5 * sum(best.values())  # the last colour is the whole game
    return total


def values(game: Game) -> list[float]:
    """tanh of the difference in progress, as (player 0, player 1) returns."""
    g: Any = game
    counts = [[0] * NUM_DISCS, [0] * NUM_DISCS]
    for hole in range(NUM_DISCS * HOLES_PER_DISC):
        p = g.pin_at(hole)
        if p >= 0:
            counts[p][hole // HOLES_PER_DISC] += 1
    v = math.tanh((progress(g, 0, counts) - progress(g, 1, counts)) / _SCALE)
    return [v, -v]


def order_key(game: Game, move: Any) -> float:
    """Main actions before blocking ones; ``end`` early among the blocking ones."""
    text = str(move)
    if text == "end":
        return 5.0
    if text.startswith(("lock", "unlock", "bar", "unbar")):
        return 0.0
    return 10.0


def playout_move(game: Game, moves: Sequence[Any], rng: random.Random) -> Any:
    """Random, but a turn's blocking actions are usually skipped (``end``)."""
    for m in moves:
        if str(m) == "end":
            if rng.random() < 0.85:
                return m
            break
    return moves[rng.randrange(len(moves))]
