"""Search speed per game: MCTS iterations per second and alpha-beta nodes per second.

    python bench/bench_agents.py [--games columns,countred] [--seconds 2] [--positions 3]

Each figure is measured from a few positions reached by seeded random play (a fresh agent per
position, ``time=`` seconds each); it prints one line per game and agent.
"""

from __future__ import annotations

import argparse
import time

from rulebox.ai import agent_entries, make_agent
from rulebox.ai.alphabeta import AlphaBetaAgent
from rulebox.ai.mcts import MctsAgent
from rulebox.core import game_ids, new_game
from rulebox.core.game import Game
from rulebox.core.rng import rng


def positions(game_id: str, count: int) -> list[Game]:
    """``count`` positions after 2, 8, 14, ... seeded random moves."""
    out = []
    for i in range(count):
        game = new_game(game_id, {"seed": str(100 + i)})
        r = rng(i, "bench-agents")
        for _ in range(2 + 6 * i):
            if game.is_terminal():
                break
            moves = sorted(game.legal_moves(), key=str)
            game.apply(moves[r.randrange(len(moves))])
        if not game.is_terminal() and len(game.legal_moves()) > 1:
            out.append(game)
    return out


def measure(game_id: str, agent: str, seconds: float, count: int) -> tuple[float, str]:
    """(per second, unit) of one agent over the positions."""
    done = 0
    spent = 0.0
    unit = "iterations/s"
    for game in positions(game_id, count):
        a = make_agent(agent, game_id, {"time": str(seconds), "seed": "1"})
        t0 = time.perf_counter()
        a.choose(game)
        spent += time.perf_counter() - t0
        if isinstance(a, AlphaBetaAgent):
            unit = "nodes/s"
            done += a.last.nodes if a.last else 0
        elif isinstance(a, MctsAgent):
            done += a.last_iterations
    return (done / spent if spent else 0.0), unit


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", default=",".join(game_ids()))
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--positions", type=int, default=3)
    args = parser.parse_args()
    for game_id in args.games.split(","):
        names = {e.name for e in agent_entries(game_id)}
        for agent in ("alphabeta", "mcts", "ismcts"):
            if agent in names:
                rate, unit = measure(game_id, agent, args.seconds, args.positions)
                print(f"{game_id:9} {agent:10} {rate:10.0f} {unit}", flush=True)


if __name__ == "__main__":
    main()
