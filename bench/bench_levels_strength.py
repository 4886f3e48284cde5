"""Calibration of the difficulty levels: ``easy``, ``medium`` and ``hard`` (and ``random``
below them) in a seat-rotated round robin per game; each level should beat the one below.

    python bench/bench_levels_strength.py [--games-per-pair 20] [--time 0.5] [--workers 2]
                                          [--only columns]

Prints each pair's score with a 95% interval and the Bradley-Terry ratings.
"""

from __future__ import annotations

import argparse
import math
import time

from rulebox.core import game_ids
from rulebox.match.ratings import score_interval, wilson_interval
from rulebox.match.tournament import AgentSpec, run_jobs, schedule, summarize


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games-per-pair", type=int, default=20)
    parser.add_argument("--time", type=float, default=0.5)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", default=",".join(game_ids()))
    parser.add_argument("--levels", default="random,easy,medium,hard")
    args = parser.parse_args()
    for game_id in args.only.split(","):
        t0 = time.perf_counter()
        specs = [AgentSpec.parse(f"{lv}:time={args.time}") for lv in args.levels.split(",")]
        jobs = schedule(game_id, specs, args.games_per_pair, args.seed)
        results = run_jobs(jobs, args.workers)
        s = summarize(game_id, specs, results)
        if s.solitaire:
            for spec in specs:
                st = s.stats[spec.label]
                lo, hi = wilson_interval(st.wins, st.games)
                print(f"{game_id:9} {spec.label:18} won {st.wins}/{st.games} "
                      f"({st.wins / max(1, st.games):.1%}, 95% CI {lo:.1%}-{hi:.1%})", flush=True)
            continue
        for (a, b), (w, d, lo_) in s.pairs.items():
            slo, shi = score_interval(w, d, lo_)
            n = w + d + lo_
            print(f"{game_id:9} {a:18} vs {b:18} {w:g}-{d:g}-{lo_:g}: score "
                  f"{(w + d / 2) / max(1, n):.3f} (95% CI {slo:.3f}-{shi:.3f})", flush=True)
        ratings = ", ".join(
            f"{r.name} {r.elo:+.0f}" + ("" if math.isinf(r.ci95) else f"±{r.ci95:.0f}")
            for r in s.ratings
        )
        print(f"{game_id:9} ratings: {ratings}; first player won "
              f"{s.first_player_win_rate:.1%}; {time.perf_counter() - t0:.0f}s", flush=True)


if __name__ == "__main__":
    main()
