"""The RL adapters' speed, and Columba's window checked against random games (not timed tests).

    python bench/bench_env.py speed [--seconds S] [--games G ...]
    python bench/bench_env.py window [--games N] [--minutes M]

``speed`` plays random legal actions through each adapter (PettingZoo AEC with the observation
and mask of every step, Gymnasium with a ``random`` opponent (a step includes the opponent's
plies), OpenSpiel's ``legal_actions``/``apply_action`` with the deal's chance nodes) and prints
env steps/s per game per adapter beside the engine's random playouts (``legal_moves()`` and
``apply_unchecked``, as ``rulebox bench`` plays them), in wall-clock and CPU seconds of this
process (the steadier figure on a shared machine).

``window`` plays ``N`` seeded random Columba games (uniform over the legal moves, seeds 0..N-1)
and records, for every position, the squares of every legal move (a ``place`` covers its 2 x 2
fields): the extremes over all games, the longest games, and how many legal moves fell outside
:data:`rulebox.env.actions.COLUMBA_WINDOW`.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable


def window(games: int, minutes: float, start_seed: int = 0) -> None:
    """Play random Columba games and report how far the legal moves reach."""
    from rulebox.core import new_game
    from rulebox.games.columba.cards import xy

    try:
        from rulebox.env.actions import COLUMBA_WINDOW
    except ImportError:  # the measurement that chose the window ran before it existed
        COLUMBA_WINDOW = None
    lo = [0, 0]
    hi = [0, 0]
    where = {"x-": 0, "x+": 0, "y-": 0, "y+": 0}  # the seed of each extreme
    longest: list[tuple[int, int]] = []
    outside = 0
    moves_seen = 0
    start = time.perf_counter()
    played = 0
    for seed in range(start_seed, start_seed + games):
        if time.perf_counter() - start > 60 * minutes:
            break
        game = new_game("columba", {"seed": str(seed)})
        chooser = random.Random(seed)
        plies = 0
        while not game.is_terminal():
            moves = game.legal_moves()
            for m in moves:
                if m.verb in ("goal", "nogoal", "buy", "raise", "end", "farmerswife", "thief"):
                    continue
                x, y = xy(m.sq)
                x2, y2 = (x + 1, y + 1) if m.verb == "place" else (x, y)
                for key, new, old in (("x-", -x, -lo[0]), ("y-", -y, -lo[1]),
                                      ("x+", x2, hi[0]), ("y+", y2, hi[1])):
                    if new > old:
                        where[key] = seed
                lo[0], lo[1] = min(lo[0], x), min(lo[1], y)
                hi[0], hi[1] = max(hi[0], x2), max(hi[1], y2)
                moves_seen += 1
                if COLUMBA_WINDOW is not None and not COLUMBA_WINDOW.holds(x, y, x2, y2):
                    outside += 1
            game.apply_unchecked(chooser.choice(moves))
            plies += 1
        longest.append((plies, seed))
        played += 1
    longest.sort(reverse=True)
    print(f"games={played} (seeds {start_seed}..{start_seed + played - 1}) "
          f"seconds={time.perf_counter() - start:.0f}")
    print(f"x from {lo[0]} to {hi[0]}, y from {lo[1]} to {hi[1]} (squares of legal moves)")
    print("seeds of the extremes:", where)
    print("longest games (plies, seed):", longest[:5])
    if COLUMBA_WINDOW is not None:
        print(f"window {COLUMBA_WINDOW}: {outside} of {moves_seen} legal moves outside")


GAMES = ("columns", "36to1", "countred", "discs", "columba")


def _timed(run_one: Callable[[int], int], seconds: float) -> tuple[int, float, float]:
    """Call ``run_one(seed)`` (one game; returns its steps) until ``seconds`` have passed:
    (steps, wall seconds, CPU seconds of this process). One game first, untimed, warms the
    tables that games and adapters build on first use."""
    run_one(10**9)
    steps = 0
    seed = 0
    wall, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - wall < seconds:
        steps += run_one(seed)
        seed += 1
    return steps, time.perf_counter() - wall, time.process_time() - cpu


def _engine(game_id: str) -> Callable[[int], int]:
    from rulebox.core import new_game

    def one(seed: int) -> int:  # what ``rulebox bench`` does
        game = new_game(game_id, {"seed": str(seed)})
        rng = random.Random(seed)
        plies = 0
        while not game.is_terminal():
            moves = game.legal_moves()
            game.apply_unchecked(moves[rng.randrange(len(moves))])
            plies += 1
        return plies

    return one


def _pettingzoo(game_id: str) -> Callable[[int], int]:
    import numpy as np

    from rulebox.env import pettingzoo_env

    env = pettingzoo_env(game_id)

    def one(seed: int) -> int:
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        steps = 0
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
        return steps

    return one


def _gymnasium(game_id: str) -> Callable[[int], int]:
    import numpy as np

    from rulebox.env import gymnasium_env

    env = gymnasium_env(game_id, opponent="random")

    def one(seed: int) -> int:
        _, info = env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        steps = 0
        done = False
        while not done:
            _, _, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            done = term or trunc
            steps += 1
        return steps

    return one


def _openspiel(game_id: str) -> Callable[[int], int]:
    import pyspiel

    import rulebox.openspiel  # noqa: F401  (registers the games)

    game = pyspiel.load_game(f"rulebox_{game_id}")

    def one(seed: int) -> int:
        rng = random.Random(seed)
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                steps += 1
        return steps

    return one


def speed(seconds: float, games: list[str]) -> None:
    """Steps per second of each adapter beside the engine's plies per second."""
    print(f"{'game':<9} {'adapter':<11} {'steps':>7} {'steps/s':>9} {'steps/CPU s':>12} "
          f"{'vs engine (CPU)':>16}")
    for game_id in games:
        base = None
        for name, make in (("engine", _engine), ("pettingzoo", _pettingzoo),
                           ("gymnasium", _gymnasium), ("openspiel", _openspiel)):
            steps, wall, cpu = _timed(make(game_id), seconds)
            rate_cpu = steps / max(cpu, 1e-9)
            base = rate_cpu if base is None else base
            print(f"{game_id:<9} {name:<11} {steps:>7} {steps / wall:>9.0f} {rate_cpu:>12.0f} "
                  f"{rate_cpu / base:>15.2f}x", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    w = sub.add_parser("window")
    w.add_argument("--games", type=int, default=10_000)
    w.add_argument("--minutes", type=float, default=15.0)
    w.add_argument("--start", type=int, default=0, help="first seed")
    sp = sub.add_parser("speed")
    sp.add_argument("--seconds", type=float, default=5.0, help="per game and adapter")
    sp.add_argument("--games", nargs="*", default=list(GAMES))
    args = parser.parse_args()
    if args.what == "window":
        window(args.games, args.minutes, args.start)
    else:
        speed(args.seconds, args.games)


if __name__ == "__main__":
    main()
