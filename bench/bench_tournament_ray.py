"""Tournament games per second: in one process, in local worker processes, and as Ray tasks.

    nice -n 10 python bench/bench_tournament_ray.py [--workers 2] [--seed 0] \\
        [--light countred:random,greedy:50] [--heavy columns:greedy,mcts:iterations=300:8]

Two workloads, each ``game:agents:games`` (agents separated by commas; games per pair):
*light*, games of a few milliseconds, where the cost of handing a game to another process
shows; *heavy*, games of a second or more, where only the number of cores counts. Each is
played

- in this process (``workers=1``: the baseline),
- in ``--workers`` local worker processes (:class:`concurrent.futures.ProcessPoolExecutor`, the
  default of ``rulebox tournament``; the pool's start is in the time),
- as Ray tasks on a local Ray of ``--workers`` CPUs (``rulebox tournament --ray``), the Ray's
  start timed apart, twice: the first run also starts Ray's worker processes and imports
  rulebox in them, the second finds them warm,

and the per-game records of every way are checked to be the same (seats, returns, winners,
plies, reasons; not the timings). Also printed: how many empty Ray tasks a second go round
trip, which bounds what Ray can do with short games. Or ``--address ADDRESS`` plays the Ray
runs on that cluster instead of a local one.

The figures are wall-clock times on a shared machine: run it as one measurement at a time
(``nice -n 10``), and say what else was running.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable
from dataclasses import asdict
from typing import Any

from rulebox.match.agents import split_agent_list
from rulebox.match.ray_runner import RayCluster
from rulebox.match.tournament import GameResult, run_jobs, schedule


def workload(text: str) -> tuple[str, str, int]:
    """``game:agents:games`` (the agents may hold ``:``; the game and the count may not)."""
    game, _, rest = text.partition(":")
    agents, _, games = rest.rpartition(":")
    if not game or not agents or not games.isdigit():
        raise argparse.ArgumentTypeError(f"a workload is game:agents:games, not {text!r}")
    return game, agents, int(games)


def records(results: list[GameResult]) -> list[dict[str, Any]]:
    """The results without their timings."""
    out = []
    for r in results:
        d = asdict(r)
        d.pop("seconds")
        d.pop("max_move_seconds")
        out.append(d)
    return out


def timed(run: Callable[[], list[GameResult]]) -> tuple[float, list[GameResult]]:
    """Seconds of wall clock and what ``run`` gave."""
    t0 = time.perf_counter()
    results = run()
    return time.perf_counter() - t0, results


def line(label: str, n: int, seconds: float, base: float | None) -> str:
    """One row: games, seconds, games/s and the speed against the one-process run."""
    rate = n / seconds if seconds > 0 else float("inf")
    speed = f"  x{base / seconds:.2f}" if base else ""
    return f"  {label:<34} {n:4d} games {seconds:8.2f} s {rate:9.2f} games/s{speed}"


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workers", type=int, default=2, help="processes / Ray CPUs (2)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--light", type=workload, default=workload("countred:random,greedy:50"))
    parser.add_argument("--heavy", type=workload,
                        default=workload("columns:greedy,mcts:iterations=300:8"))
    parser.add_argument("--address", default=None,
                        help="a Ray cluster's address (default: a local Ray of --workers CPUs)")
    args = parser.parse_args()
    print(f"{os.cpu_count()} CPUs here, load average {os.getloadavg()[0]:.2f} "
          f"{os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f} (1, 5, 15 min), "
          f"{args.workers} workers")
    plans = []
    for name, (game, agents, games) in (("light", args.light), ("heavy", args.heavy)):
        jobs = schedule(game, split_agent_list(agents), games, args.seed)
        plans.append((name, game, agents, jobs))

    local: dict[str, tuple[float, list[GameResult]]] = {}
    for name, game, agents, jobs in plans:
        print(f"{name}: {game}, {agents}, {len(jobs)} games")
        one = timed(lambda jobs=jobs: run_jobs(jobs, 1))
        print(line("one process", len(jobs), one[0], None))
        pool = timed(lambda jobs=jobs: run_jobs(jobs, args.workers))
        print(line(f"{args.workers} worker processes", len(jobs), pool[0], one[0]))
        assert records(pool[1]) == records(one[1]), "worker processes changed the results"
        local[name] = one

    t0 = time.perf_counter()
    with RayCluster(args.address, args.workers) as cluster:
        started = time.perf_counter() - t0
        print(f"Ray: {cluster.describe()}, started or reached in {started:.2f} s")
        for name, _game, _agents, jobs in plans:
            base = local[name][0]
            for turn in ("first", "second"):
                took = timed(lambda jobs=jobs: run_jobs(jobs, runner=cluster.map))
                print(line(f"{name} on Ray, {turn} run", len(jobs), took[0], base))
                assert records(took[1]) == records(local[name][1]), "Ray changed the results"
        n = 500
        t1 = time.perf_counter()
        list(cluster.map(abs, list(range(n))))
        empty = time.perf_counter() - t1
        print(f"  {n} empty Ray tasks: {empty:.2f} s, {n / empty:.0f} tasks/s round trip")
        t2 = time.perf_counter()
    print(f"Ray shut down in {time.perf_counter() - t2:.2f} s; the records of every run were "
          "the same")


if __name__ == "__main__":
    main()
