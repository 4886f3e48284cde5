"""Random playouts of 36 to 1 per second on one core (a benchmark, not a timed test).

Each playout starts from a new seeded deal and plays a random legal move at every step
(``legal_moves()`` then ``apply_unchecked``) until the game is over, as ``rulebox bench`` does.

    /work/venv/bin/python bench/bench_36to1.py [--seconds S] [key=value ...]

The last line is ``playouts/s=<x> plies/s=<y>``.
"""

from __future__ import annotations

import argparse
import random
import time

from rulebox.games.solitaire36.rules import Solitaire36


def run(seconds: float, options: dict[str, str]) -> tuple[int, int, float, float, int]:
    """Play random games for about ``seconds``: (playouts, plies, elapsed seconds, CPU seconds
    of this process, wins). On a busy machine the CPU figure is the steadier one."""
    chooser = random.Random(12345)
    playouts = plies = wins = 0
    seed = 0
    start = time.perf_counter()
    cpu = time.process_time()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for _ in range(50):
            game = Solitaire36.new({**options, "seed": str(seed)})
            seed += 1
            while not game.is_terminal():
                game.apply_unchecked(chooser.choice(game.legal_moves()))
                plies += 1
            playouts += 1
            wins += game.cubes_left() == 1
    return playouts, plies, time.perf_counter() - start, time.process_time() - cpu, wins


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("options", nargs="*", help="game options as key=value")
    args = parser.parse_args()
    options = dict(o.split("=", 1) for o in args.options)
    playouts, plies, elapsed, cpu, wins = run(args.seconds, options)
    print(f"36to1 {options or ''} playouts={playouts} plies={plies} wins={wins} "
          f"seconds={elapsed:.2f} cpu_seconds={cpu:.2f} cpu_playouts/s={playouts / cpu:.0f}")
    print(f"playouts/s={playouts / elapsed:.0f} plies/s={plies / elapsed:.0f}")


if __name__ == "__main__":
    main()
