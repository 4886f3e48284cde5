"""36 to 1: win rates over fixed deals (game seeds 0..N-1) of the card-counting agent and the
simple baseline that only avoids splitting the cubes into two groups.

    python bench/bench_36to1_strength.py [--deals 1000] [--agents connected,counter:lookahead=0]
                                         [--workers 2] [--time 1]

Prints, per agent: wins / deals, the win rate with its 95% Wilson interval, the mean number of
cubes left, and the slowest move. With two or more agents it then compares each pair on the
same deals: the deals only one of them won, and the two-sided sign-test p-value of that split
(a paired comparison needs far fewer deals than two separate win rates). ``--json FILE``
keeps every deal's result; ``--against FILE`` compares each agent, deal by deal, with the
agents kept in such a file (on the deals both played).
"""

from __future__ import annotations

import argparse
import json
import math
import time
from concurrent.futures import ProcessPoolExecutor

from rulebox.ai import make_agent
from rulebox.core import new_game
from rulebox.match.ratings import wilson_interval
from rulebox.match.tournament import AgentSpec


def play(args: tuple[str, int, float | None]) -> tuple[int, int, float]:
    """(won, cubes left, slowest move) of one deal."""
    label, seed, seconds = args
    spec = AgentSpec.parse(label)
    settings = dict(spec.settings)
    settings.setdefault("seed", str(seed))
    if seconds is not None:
        settings.setdefault("time", str(seconds))
    game = new_game("36to1", {"seed": str(seed)})
    agent = make_agent(spec.name, "36to1", settings)
    slowest = 0.0
    while not game.is_terminal():
        t0 = time.perf_counter()
        game.apply(agent.choose(game))
        slowest = max(slowest, time.perf_counter() - t0)
    left = game.cubes_left()  # type: ignore[attr-defined]
    return int(left == 1), left, slowest


def logged(path: str, jobs: list[tuple[str, int, float | None]]) -> list[tuple[int, int, float]]:
    """Play ``jobs`` one after the other, appending each result to the JSON-lines file
    ``path``; deals already in the file (same agent and time) are not played again."""
    done: dict[tuple[str, int, float | None], tuple[int, int, float]] = {}
    try:
        with open(path, encoding="utf-8") as f:
            for line in f:
                r = json.loads(line)
                done[(r["agent"], r["deal"], r["time"])] = (r["won"], r["left"], r["slowest"])
    except FileNotFoundError:
        pass
    out = []
    for job in jobs:
        if job not in done:
            won, left, slowest = play(job)
            with open(path, "a", encoding="utf-8") as f:
                f.write(json.dumps({"agent": job[0], "deal": job[1], "time": job[2],
                                    "won": won, "left": left, "slowest": slowest}) + "\n")
            done[job] = (won, left, slowest)
        out.append(done[job])
    return out


def sign_test(a: int, b: int) -> float:
    """Two-sided exact binomial p-value of ``a`` against ``b`` discordant deals (p = 1/2)."""
    n = a + b
    if n == 0:
        return 1.0
    k = min(a, b)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2**n
    return min(1.0, 2 * tail)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--first", type=int, default=0, help="first deal (seed)")
    parser.add_argument("--agents", default="connected,counter:lookahead=0")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--time", type=float, default=None)
    parser.add_argument("--json", metavar="FILE", help="write every deal's result to FILE")
    parser.add_argument("--against", metavar="FILE", help="earlier --json results to compare")
    parser.add_argument("--log", metavar="FILE",
                        help="append each deal's result to FILE as it ends (JSON lines; with "
                             "--workers 1); the same command goes on where a stopped run left off")
    args = parser.parse_args()
    seeds = range(args.first, args.first + args.deals)
    won: dict[str, list[int]] = {}
    labels = args.agents.split(",")
    for label in labels:
        t0 = time.perf_counter()
        jobs = [(label, s, args.time) for s in seeds]
        if args.log:
            results = logged(args.log, jobs)
        elif args.workers > 1:
            with ProcessPoolExecutor(args.workers) as pool:
                results = list(pool.map(play, jobs, chunksize=8))
        else:
            results = [play(j) for j in jobs]
        won[label] = [r[0] for r in results]
        wins = sum(r[0] for r in results)
        lo, hi = wilson_interval(wins, len(results))
        cubes = sum(r[1] for r in results) / len(results)
        slowest = max(r[2] for r in results)
        print(f"{label:28} deals {seeds.start}..{seeds.stop - 1}: won {wins}/{len(results)} "
              f"= {wins / len(results):.1%} (95% CI {lo:.1%}-{hi:.1%}), mean cubes left "
              f"{cubes:.2f}, slowest move {slowest:.2f}s, {time.perf_counter() - t0:.0f}s",
              flush=True)
    for i, a in enumerate(labels):
        for b in labels[i + 1:]:
            only_a = sum(x and not y for x, y in zip(won[a], won[b], strict=True))
            only_b = sum(y and not x for x, y in zip(won[a], won[b], strict=True))
            print(f"{a} vs {b} on the same deals: won only by {a} {only_a}, only by {b} "
                  f"{only_b}, sign test p = {sign_test(only_a, only_b):.2g}")
    if args.against:
        with open(args.against, encoding="utf-8") as f:
            earlier = json.load(f)
        where = {d: i for i, d in enumerate(earlier["deals"])}
        shared = [(k, where[d]) for k, d in enumerate(seeds) if d in where]
        for a in labels:
            for b, results in earlier["won"].items():
                only_a = sum(won[a][k] and not results[j] for k, j in shared)
                only_b = sum(results[j] and not won[a][k] for k, j in shared)
                print(f"{a} vs {b} of {args.against} on {len(shared)} shared deals: won only "
                      f"by {a} {only_a}, only by {b} {only_b}, sign test p = "
                      f"{sign_test(only_a, only_b):.2g}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"deals": list(seeds), "time": args.time, "won": won}, f)


if __name__ == "__main__":
    main()
