"""Count Red search figures for issue 16: depth and nodes/s, and how early ``best`` sees the end.

    python bench/bench_countred_strength.py speed [--agent alphabeta] [--positions 8]
        [--iterations 15000] [--time 0.5]
    python bench/bench_countred_strength.py foresight [--games 20] [--time 0.3]
        [--against best] [--seed 1]

``speed`` searches positions reached by seeded random play (2, 6, 10, ... moves in, games with
seeds 100, 101, ...) once with ``iterations=`` (nodes per CPU second, the depth reached) and
once with ``time=`` (the depth reached on the clock). It uses only ``make_agent`` and the
agent's ``last`` search result, so the same command measures another rulebox version:
``PYTHONPATH=.bench-cache/rev-4fd02cb/src python bench/bench_countred_strength.py speed``
(``bench/bench_versus.py`` makes that worktree). Nodes are what each version's search counts
(today: quiescence and extension nodes too).

``foresight`` plays ``best`` against ``--against`` (seats rotated, seeds from ``--seed``) and
records, at each move of ``best`` (of both sides in self-play, ``--against best``), the value of
its search for itself. For each decided game it reports how many of its own moves before the
end ``best`` first saw the result and kept seeing it: *proven* (a value beyond every
evaluation: a forced win or loss found by the search) and *eval* (a value of at least 0.8 in
size, the evaluation's near-certainty). Strength against the version before issue 16 is
measured by ``bench/bench_versus.py`` (a subprocess opponent).
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from rulebox.ai import make_agent
from rulebox.core import new_game
from rulebox.core.game import Game
from rulebox.core.rng import rng

PROVEN = 1.5
"""Search values beyond this are finished games (``alphabeta.WIN - 0.5``)."""
SURE = 0.8


def positions(count: int) -> list[Game]:
    """``count`` positions of Count Red after 2, 6, 10, ... seeded random moves."""
    out: list[Game] = []
    i = 0
    while len(out) < count and i < 10 * count:
        game = new_game("countred", {"seed": str(100 + i)})
        r = rng(i, "bench-countred-strength")
        for _ in range(2 + 4 * (i % 8)):
            if game.is_terminal():
                break
            moves = sorted(game.legal_moves(), key=str)
            game.apply(moves[r.randrange(len(moves))])
        i += 1
        if not game.is_terminal() and len(game.legal_moves()) > 1:
            out.append(game)
    return out


def _last(agent: Any) -> Any:
    """The last search result of an alpha-beta agent or of a level standing for one."""
    inner = getattr(agent, "inner", agent)
    return getattr(inner, "last", None)


def speed(args: argparse.Namespace) -> None:
    name, _, rest = args.agent.partition(":")
    settings = dict(kv.split("=", 1) for kv in rest.split(",") if kv)
    games = positions(args.positions)
    nodes = 0
    cpu = 0.0
    depths: list[int] = []
    clock_depths: list[int] = []
    for i, game in enumerate(games):
        agent = make_agent(name, "countred",
                           {**settings, "iterations": str(args.iterations), "seed": str(i)})
        t0 = time.process_time()
        agent.choose(game)
        cpu += time.process_time() - t0
        last = _last(agent)
        nodes += last.nodes
        depths.append(last.depth)
        timed = make_agent(name, "countred", {**settings, "time": str(args.time), "seed": str(i)})
        timed.choose(game)
        clock_depths.append(_last(timed).depth)
    print(f"{args.agent}: {len(games)} positions, {nodes} nodes in {cpu:.1f} CPU s = "
          f"{nodes / cpu:.0f} nodes/CPU-s; depth at {args.iterations} nodes: mean "
          f"{statistics.mean(depths):.2f} {depths}; depth at {args.time} s: mean "
          f"{statistics.mean(clock_depths):.2f} {clock_depths}")


def foresight(args: argparse.Namespace) -> None:
    proven: dict[str, list[int]] = {"won": [], "lost": []}
    sure: dict[str, list[int]] = {"won": [], "lost": []}
    score = [0, 0, 0]  # best's wins, draws, losses (seat ``index % 2``)
    selfplay = args.against == "best"
    for index in range(args.games):
        seed = args.seed + index // 2
        seat = index % 2
        game = new_game("countred", {"seed": str(seed)})
        agents = {
            seat: make_agent("best", "countred", {"time": str(args.time), "seed": str(index)}),
            1 - seat: _spec(args.against, args.time, index),
        }
        watched = (0, 1) if selfplay else (seat,)  # in self-play both sides are best
        values: dict[int, list[float]] = {p: [] for p in watched}  # search values, own moves
        while not game.is_terminal() and len(game.history) < 400:
            p = game.current_player()
            move = agents[p].choose(game)
            if p in values:
                last = _last(agents[p])
                values[p].append(last.value if last is not None else 0.0)
            game.apply(move)
        returns = game.returns() if game.is_terminal() else [0.0, 0.0]
        r = returns[seat]
        score[0 if r > 0 else 2 if r < 0 else 1] += 1
        for p in watched:
            if returns[p]:
                key = "won" if returns[p] > 0 else "lost"
                sign = 1.0 if returns[p] > 0 else -1.0
                proven[key].append(_seen_for(values[p], sign, PROVEN))
                sure[key].append(_seen_for(values[p], sign, SURE))
        result = "won" if r > 0 else "lost" if r < 0 else "draw"
        print(f"game {index:3} seed {seed} best seat {seat}: {result} in {len(game.history)} "
              f"plies ({game.outcome().reason if game.outcome() else 'unfinished'}); last values "
              + "; ".join(f"seat {p}: {[round(v, 2) for v in values[p][-6:]]}" for p in watched),
              flush=True)
    print(f"best against {args.against} at {args.time} s: {score[0]}-{score[1]}-{score[2]}")
    for key in ("won", "lost"):
        if proven[key]:
            print(f"{key} games ({len(proven[key])} sides): own moves before the end from which "
                  f"best saw the result: proven mean {statistics.mean(proven[key]):.1f} median "
                  f"{statistics.median(proven[key])} {sorted(proven[key])}; |value| >= {SURE}: "
                  f"mean {statistics.mean(sure[key]):.1f} median {statistics.median(sure[key])} "
                  f"{sorted(sure[key])}")


def _spec(spec: str, seconds: float, index: int) -> Any:
    name, _, rest = spec.partition(":")
    settings = dict(kv.split("=", 1) for kv in rest.split(",") if kv)
    return make_agent(name, "countred",
                      {"time": str(seconds), "seed": str(1000 + index), **settings})


def _seen_for(values: list[float], sign: float, threshold: float) -> int:
    """How many of the last values (counted back from the end) all have ``sign * v >=
    threshold``: the moves before the end from which the result was seen for good."""
    n = 0
    for v in reversed(values):
        if sign * v < threshold:
            break
        n += 1
    return n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="command", required=True)
    s = sub.add_parser("speed")
    s.add_argument("--agent", default="alphabeta")
    s.add_argument("--positions", type=int, default=8)
    s.add_argument("--iterations", type=int, default=15000)
    s.add_argument("--time", type=float, default=0.5)
    f = sub.add_parser("foresight")
    f.add_argument("--games", type=int, default=20)
    f.add_argument("--time", type=float, default=0.3)
    f.add_argument("--against", default="best")
    f.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if args.command == "speed":
        speed(args)
    else:
        foresight(args)


if __name__ == "__main__":
    main()
