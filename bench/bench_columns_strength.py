"""Columns: the evaluation of issue 16 against the one before it, and the levels, in
seat-rotated seeded matches in this process (one game at a time), with 95% intervals.

    python bench/bench_columns_strength.py [--games 40] [--time 0.3] [--seed 1]
        [--pairs "alphabeta/alphabeta:eval=v1 hard/medium"]

``alphabeta:eval=v1`` is the same search with the evaluation before issue 16
(``heuristics.columns.values_v1``). The whole engine before issue 16 (evaluation and search)
is measured through the engine protocol instead:

    python bench/bench_versus.py columns --a best --b best --b-rev 4fd02cb --games 40 --time 0.3

Results are printed as each pair finishes.
"""

from __future__ import annotations

import argparse
import time

from rulebox.match.ratings import elo_difference, score_interval
from rulebox.match.tournament import AgentSpec, run_jobs, schedule, summarize

GAME = "columns"
PAIRS = "alphabeta/alphabeta:eval=v1 hard/medium"


def play_pairs(game_id: str, pairs: str, games: int, seconds: float, seed: int) -> None:
    """Each pair ``a/b`` of ``pairs`` plays ``games`` seat-rotated games; print the score."""
    for pair in pairs.split():
        t0 = time.perf_counter()
        a, b = (AgentSpec.parse(f"{x}{',' if ':' in x else ':'}time={seconds}")
                for x in pair.split("/"))
        results = run_jobs(schedule(game_id, [a, b], games, seed), 1)
        s = summarize(game_id, [a, b], results)
        w, d, lo_ = s.pairs.get((a.label, b.label), [0, 0, 0])
        n = w + d + lo_
        slo, shi = score_interval(w, d, lo_)
        score = (w + d / 2) / max(1, n)
        print(f"{game_id} {a.label} vs {b.label}: {w:g}-{d:g}-{lo_:g} of {n:g}, score "
              f"{score:.3f} (95% CI {slo:.3f}-{shi:.3f}), Elo {elo_difference(score):+.0f}; "
              f"slowest move {s.stats[a.label].slowest_move:.2f}s / "
              f"{s.stats[b.label].slowest_move:.2f}s; errors "
              f"{sum(1 for r in results if r.error)}; {time.perf_counter() - t0:.0f}s",
              flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--time", type=float, default=0.3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pairs", default=PAIRS)
    args = parser.parse_args()
    play_pairs(GAME, args.pairs, args.games, args.time, args.seed)


if __name__ == "__main__":
    main()
