"""Random playouts of Count Red: prints playouts/s and plies/s on one core.

Each playout starts from the start position (fixed seed and options), then plays a random legal
move each ply (``legal_moves()`` + ``apply_unchecked``) until the game is over.

    python bench/bench_countred.py [--seconds 5] [--seed 1] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import time

from rulebox.games.countred.rules import CountRed


def playouts(seconds: float, seed: int) -> tuple[int, int, float, float]:
    """Play random games for about ``seconds``; return (games, plies, elapsed seconds, CPU
    seconds of this process: on a busy machine the CPU rate is the steadier figure)."""
    rnd = random.Random(seed)
    games = plies = 0
    cpu = time.process_time()
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        g = CountRed.new({"seed": seed, "first": 0, "even": 0})
        while not g.is_terminal():
            moves = g.legal_moves()
            g.apply_unchecked(moves[int(rnd.random() * len(moves))])
            plies += 1
        games += 1
    return games, plies, time.perf_counter() - start, time.process_time() - cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--profile", action="store_true", help="print a cProfile of the run")
    args = ap.parse_args()
    if args.profile:
        prof = cProfile.Profile()
        prof.enable()
        games, plies, elapsed, cpu = playouts(args.seconds, args.seed)
        prof.disable()
        pstats.Stats(prof).sort_stats("tottime").print_stats(12)
    else:
        games, plies, elapsed, cpu = playouts(args.seconds, args.seed)
    print(f"games={games} plies={plies} seconds={elapsed:.2f} cpu_seconds={cpu:.2f} "
          f"plies/game={plies / games:.1f} cpu_playouts/s={games / cpu:.1f}")
    print(f"playouts/s={games / elapsed:.1f} plies/s={plies / elapsed:.0f}")


if __name__ == "__main__":
    main()
