"""``rulebox bench``: random playouts with legal-move generation at every step.

Each playout starts from a new game (seeded), asks ``legal_moves()`` at every step, picks one at
random and plays it with the unchecked fast path ``apply_unchecked`` (the moves come from
``legal_moves`` so they are legal). The last line printed is ``playouts/s=<x> plies/s=<y>``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping

from rulebox.core.registry import game_entry


def bench(game_id: str, seconds: float, seed: int = 1,
          options: Mapping[str, str] | None = None) -> tuple[int, int, float]:
    """(playouts, plies, elapsed seconds) of random games for about ``seconds``."""
    cls = game_entry(game_id).cls
    rng = random.Random(seed)
    playouts = plies = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        game = cls.new(dict(options or {}, seed=str(rng.randrange(2**31))))
        while not game.is_terminal():
            moves = game.legal_moves()
            game.apply_unchecked(moves[rng.randrange(len(moves))])
            plies += 1
        playouts += 1
        now = time.perf_counter()
        if now >= deadline:
            return playouts, plies, now - start
