"""Discs random playouts per second on one core (a benchmark that prints figures, not a test).

From a fixed set-up (``arrange RGBGBRBRG``, ``choose silver a1c3``) each playout picks a random
legal action at every step with ``legal_moves()`` and plays it with ``apply_unchecked`` until the
game ends. A ply is one action (main action, lock, barrier or end).

    /work/venv/bin/python bench/bench_discs.py [--seconds 10 | --games N] [--seed S] [--profile]

The last line is ``playouts/s=<x> plies/s=<y>``, as ``rulebox bench`` prints it.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import time
from collections import Counter

from rulebox.games.discs.rules import Discs

SETUP = ("arrange RGBGBRBRG", "choose silver a1c3")


def start() -> Discs:
    """The fixed set-up every playout starts from."""
    game = Discs.new({"seed": "1"})
    for text in SETUP:
        game.apply(text)
    return game


def playout(game: Discs, rng: random.Random) -> int:
    """Play random legal actions to the end; return the number of plies."""
    plies = 0
    choice = rng.choice
    while not game.is_terminal():
        game.apply_unchecked(choice(game.legal_moves()))
        plies += 1
    return plies


def run(seconds: float, seed: int = 1, games_wanted: int = 0
        ) -> tuple[int, int, float, float, Counter[str]]:
    """Playouts for about ``seconds`` (or exactly ``games_wanted`` if given);
    (playouts, plies, wall seconds, CPU seconds, how the games ended)."""
    rng = random.Random(seed)
    base = start()
    games = plies = 0
    ends: Counter[str] = Counter()
    t0, c0 = time.perf_counter(), time.process_time()
    while (games < games_wanted) if games_wanted else (time.perf_counter() - t0 < seconds):
        game = base.clone()
        plies += playout(game, rng)
        games += 1
        out = game.outcome()
        assert out is not None
        ends["win" if out.winners else out.reason.split(" ")[0] + " (draw)"] += 1
    return games, plies, time.perf_counter() - t0, time.process_time() - c0, ends


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games", type=int, default=0, help="play exactly this many playouts")
    ap.add_argument("--profile", action="store_true", help="print a cProfile of the run")
    args = ap.parse_args()
    if args.profile:
        prof = cProfile.Profile()
        prof.enable()
    games, plies, elapsed, cpu, ends = run(args.seconds, args.seed, args.games)
    if args.profile:
        prof.disable()
        pstats.Stats(prof).sort_stats("tottime").print_stats(12)
    print(f"games ended by: {dict(ends)}")
    print(f"mean plies per game: {plies / max(games, 1):.1f}")
    print(f"CPU time: playouts/s={games / cpu:.1f} (wall figures below)")
    print(f"playouts/s={games / elapsed:.1f} plies/s={plies / elapsed:.0f}")


if __name__ == "__main__":
    main()
