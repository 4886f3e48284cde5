"""Discs: the hybrid with the evaluation of issue 16 against the one before it, and the levels,
in seat-rotated seeded matches in this process (one game at a time), with 95% intervals.

    python bench/bench_discs_strength.py [--games 20] [--time 0.3] [--seed 1]
        [--pairs "hybrid/hybrid:eval=v1 hard/medium"]

``hybrid:eval=v1`` is the same agent with the evaluation before issue 16 at the leaves of its
playouts (``heuristics.discs.values_v1``; ordering, playouts and the hands-win filter are
today's). The whole engine before issue 16 is measured through the engine protocol instead:

    python bench/bench_versus.py discs --a best --b best --b-rev 4fd02cb --games 20 --time 0.3

Discs games run to about 280 actions; results are printed as each pair finishes.
"""

from __future__ import annotations

import argparse

from bench_columns_strength import play_pairs

GAME = "discs"
PAIRS = "hybrid/hybrid:eval=v1 hard/medium"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--time", type=float, default=0.3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pairs", default=PAIRS)
    args = parser.parse_args()
    play_pairs(GAME, args.pairs, args.games, args.time, args.seed)


if __name__ == "__main__":
    main()
