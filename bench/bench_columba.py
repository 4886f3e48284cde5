"""Columba random playouts per second (not a timed test).

Each playout starts a new game and, until it is over, picks a random legal action from
``legal_moves()`` and plays it with ``apply_unchecked``, the way ``rulebox bench`` does.

    /work/venv/bin/python bench/bench_columba.py [--seconds S] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import time

from rulebox.games.columba.rules import Columba


def playouts(players: int, seconds: float, seed: int = 0) -> tuple[int, int, float]:
    """(playouts, plies, elapsed seconds) of random games for about ``seconds``."""
    rng = random.Random(seed)
    games = plies = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        g = Columba.new({"players": str(players), "seed": str(rng.randrange(2**31))})
        while not g.is_terminal():
            moves = g.legal_moves()
            g.apply_unchecked(moves[rng.randrange(len(moves))])
            plies += 1
        games += 1
    return games, plies, time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--profile", action="store_true", help="profile the 2-player playouts")
    args = ap.parse_args()
    if args.profile:
        prof = cProfile.Profile()
        prof.runcall(playouts, 2, args.seconds)
        pstats.Stats(prof).sort_stats("cumulative").print_stats(25)
        return
    for players in (2, 3, 4):
        games, plies, elapsed = playouts(players, args.seconds)
        print(f"columba players={players}: {games} playouts in {elapsed:.1f}s: "
              f"playouts/s={games / elapsed:.1f} plies/s={plies / elapsed:.0f} "
              f"plies/playout={plies / max(games, 1):.0f}")


if __name__ == "__main__":
    main()
