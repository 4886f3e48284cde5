"""Random playouts per second for every registered game (legal moves generated at every step).

    python bench/bench_games.py [--seconds S] [game ...]

Prints one line per game and, last, a summary line per game in the form of ``rulebox bench``.
Not a timed test: it only reports figures.
"""

from __future__ import annotations

import argparse

from rulebox.cli.bench import bench
from rulebox.core.registry import game_ids

TARGETS = {"columns": 2000, "countred": 500, "36to1": 1000, "discs": 100, "columba": 10}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("games", nargs="*")
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    for game_id in args.games or game_ids():
        playouts, plies, elapsed = bench(game_id, args.seconds)
        target = TARGETS.get(game_id)
        note = f" (target {target})" if target else ""
        print(f"{game_id:9} playouts/s={playouts / elapsed:9.1f} plies/s={plies / elapsed:9.0f}"
              f"{note}")


if __name__ == "__main__":
    main()
