"""The RL adapters' speed, and Columba's window checked against random games (not timed tests).

    python bench/bench_env.py speed [--seconds S] [--games G ...]
    python bench/bench_env.py window [--games N] [--minutes M]

``speed`` plays random legal actions through each adapter (PettingZoo AEC, Gymnasium with a
``random`` opponent, OpenSpiel) and prints env steps/s per game per adapter beside
``rulebox bench``'s plies/s (``legal_moves()`` and ``apply_unchecked`` on the game itself).

``window`` plays ``N`` seeded random Columba games (uniform over the legal moves, seeds 0..N-1)
and records, for every position, the squares of every legal move (a ``place`` covers its 2 x 2
fields): the extremes over all games, the longest games, and how many legal moves fell outside
:data:`rulebox.env.actions.COLUMBA_WINDOW`.
"""

from __future__ import annotations

import argparse
import random
import time


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    w = sub.add_parser("window")
    w.add_argument("--games", type=int, default=10_000)
    w.add_argument("--minutes", type=float, default=15.0)
    w.add_argument("--start", type=int, default=0, help="first seed")
    args = parser.parse_args()
    if args.what == "window":
        window(args.games, args.minutes, args.start)


if __name__ == "__main__":
    main()
