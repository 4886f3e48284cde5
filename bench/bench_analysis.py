"""Headline balance figures for all five games in one process (docs/ANALYSIS.md).

``nice -n 10 python bench/bench_analysis.py --out bench/results/analysis`` plays, one game at a
time in this process (no workers), the runs of :data:`RUNS` and writes each game's report.html
and metrics.json under OUT/<game>/ and the headline lines to OUT/headline.txt. ``--scale`` divides
the number of games (a quick check)."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from rulebox.analysis.balance import analyze, expand_variants, headline
from rulebox.analysis.report import write_report

RUNS: list[tuple[str, str, int, list[str]]] = [
    # game, agents, games per variant, variants
    ("columns", "greedy", 200, []),
    ("countred", "greedy", 100, ["first=0,1"]),
    ("discs", "random", 200, []),
    ("36to1", "greedy", 50, ["green=0,1,2,3", "end=continue,literal"]),
    ("columba", "greedy", 100, []),
    ("columba", "greedy", 40, ["players=3,4"]),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", default="bench/results/analysis")
    parser.add_argument("--scale", type=int, default=1)
    parser.add_argument("--only", default=None, help="one game id")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    lines: list[str] = []
    for game, agents, games, vary in RUNS:
        if args.only and game != args.only:
            continue
        n = max(1, games // args.scale)
        t0 = time.perf_counter()
        doc = analyze(game, agents.split(","), n, expand_variants(vary), args.seed, 1, None,
                      str(out / f"{game}{'_' + '_'.join(vary) if vary else ''}.log.jsonl"))
        name = game + ("_" + "_".join(v.split("=")[0] for v in vary) if vary else "")
        write_report(doc, out / name)
        took = time.perf_counter() - t0
        block = [*headline(doc), f"  ({n} games per variant, agents {agents}, "
                 f"{took:.0f} s wall under load)"]
        print("\n".join(block), flush=True)
        lines += block
        (out / "headline.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
