"""Strength of ``best``: seat-rotated, seeded matches per game against ``random`` and against
``mcts`` at the same time per move, with score intervals and Elo differences.

    python bench/bench_best_strength.py [--games-per-pair 100] [--time 1] [--workers 2]
                                        [--only columns,discs]

For the solitaire (36 to 1) it plays ``best``, ``mcts`` and ``random`` on the same deals and
prints each win rate. Results are printed as each game finishes, so a long run can be cut short.
"""

from __future__ import annotations

import argparse
import time

from rulebox.core import game_ids
from rulebox.match.ratings import elo_difference, score_interval, wilson_interval
from rulebox.match.tournament import AgentSpec, run_jobs, schedule, summarize


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games-per-pair", type=int, default=100)
    parser.add_argument("--time", type=float, default=1.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", default=",".join(game_ids()))
    parser.add_argument("--opponents", default="random,mcts")
    args = parser.parse_args()
    for game_id in args.only.split(","):
        t0 = time.perf_counter()
        best = AgentSpec.parse(f"best:time={args.time}")
        for opp in args.opponents.split(","):
            other = AgentSpec.parse(f"{opp}:time={args.time}")
            jobs = schedule(game_id, [best, other], args.games_per_pair, args.seed)
            results = run_jobs(jobs, args.workers)
            s = summarize(game_id, [best, other], results)
            if s.solitaire:
                for spec in (best, other):
                    st = s.stats[spec.label]
                    lo, hi = wilson_interval(st.wins, st.games)
                    print(f"{game_id:9} {spec.label:22} won {st.wins}/{st.games} "
                          f"({st.wins / max(1, st.games):.1%}, 95% CI {lo:.1%}-{hi:.1%}) "
                          f"slowest move {st.slowest_move:.2f}s", flush=True)
                continue
            w, d, lo_ = s.pairs.get((best.label, other.label), [0, 0, 0])
            n = w + d + lo_
            slo, shi = score_interval(w, d, lo_)
            score = (w + d / 2) / max(1, n)
            print(f"{game_id:9} best vs {other.label:18} {w:g}-{d:g}-{lo_:g} of {n:g}: score "
                  f"{score:.3f} (95% CI {slo:.3f}-{shi:.3f}), Elo diff "
                  f"{elo_difference(score):+.0f} [{elo_difference(slo):+.0f}, "
                  f"{elo_difference(shi):+.0f}], first player won "
                  f"{s.first_player_win_rate:.1%}, slowest move best "
                  f"{s.stats[best.label].slowest_move:.2f}s / {other.label} "
                  f"{s.stats[other.label].slowest_move:.2f}s, errors "
                  f"{sum(1 for r in results if r.error)}, {time.perf_counter() - t0:.0f}s",
                  flush=True)


if __name__ == "__main__":
    main()
