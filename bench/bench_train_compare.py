"""Trained weights against the hand-set ones, in one process: the same agent on every seat,
one side evaluating with the weights in ``--weights``, the other with ``DEFAULT_WEIGHTS`` (or
``--against FILE``), switched with :func:`rulebox.ai.learned.use_weights` before every move.

    python bench/bench_train_compare.py columba --weights /tmp/columba.json \\
        --agent mcts:iterations=300 --games 40 [--seed 1] [--players 2]

Two-player games: seats rotated, each deal (game seed) played once with each side first;
prints wins-draws-losses of the trained side and its score with a 95% interval. A solitaire:
the same deals played with each set of weights; prints both win rates and the deals only one
of them won. Agents should be bounded by ``iterations=`` (or be ``greedy``), so that the figures
repeat. Run it as one process (``nice -n 10``).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from rulebox.ai import make_agent
from rulebox.ai.learned import Weights, use_weights
from rulebox.ai.train import feature_set
from rulebox.core.registry import new_game
from rulebox.match.agents import AgentSpec
from rulebox.match.ratings import score_interval, wilson_interval


def load(path: str, game_id: str) -> Weights:
    """The weights in ``path``, or the game's hand-set ones for ``defaults``."""
    fs = feature_set(game_id)
    if path == "defaults":
        return fs.start_weights()
    w = Weights.from_json(json.loads(Path(path).read_text()))
    if w.features != fs.names:
        raise SystemExit(f"{path}: its features are not {game_id}'s FEATURES")
    return w


def play(game_id: str, seed: int, players: int | None, spec: AgentSpec,
         sides: list[Weights]) -> list[float]:
    """One game; seat ``i`` evaluates with ``sides[i]``. Returns the returns."""
    options = {"seed": str(seed)}
    if players is not None:
        options["players"] = str(players)
    game = new_game(game_id, options)
    agents: list[Any] = []
    for seat in range(game.num_players):
        settings = dict(spec.settings)
        settings["seed"] = str(seed * 7919 + seat * 104729)
        agents.append(make_agent(spec.name, game_id, settings))
    limit = game.max_moves * 4 + 100
    plies = 0
    while not game.is_terminal():
        p = game.current_player()
        use_weights(sides[p])
        game.apply(agents[p].choose(game))
        plies += 1
        if plies > limit:
            raise RuntimeError(f"game {seed} did not end")
    return [float(r) for r in game.returns()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game")
    parser.add_argument("--weights", required=True, help="the trained weights file")
    parser.add_argument("--against", default="defaults", help="defaults or another file")
    parser.add_argument("--agent", default="greedy")
    parser.add_argument("--games", type=int, default=20,
                        help="games (two-player: each deal twice, seats swapped) or deals")
    parser.add_argument("--seed", type=int, default=1, help="first deal (game seed)")
    parser.add_argument("--players", type=int, default=None)
    args = parser.parse_args()
    trained = load(args.weights, args.game)
    other = load(args.against, args.game)
    spec = AgentSpec.parse(args.agent)
    t0 = time.perf_counter()
    n = new_game(args.game, {"seed": "0", **({"players": str(args.players)}
                                           if args.players else {})}).num_players
    if n == 1:
        won = {"trained": 0, "other": 0}
        only = {"trained": 0, "other": 0}
        for d in range(args.games):
            seed = args.seed + d
            a = play(args.game, seed, None, spec, [trained])[0] >= 1.0
            b = play(args.game, seed, None, spec, [other])[0] >= 1.0
            won["trained"] += a
            won["other"] += b
            only["trained"] += a and not b
            only["other"] += b and not a
            print(f"deal {seed}: trained {'won' if a else 'lost'}, "
                  f"{args.against} {'won' if b else 'lost'}", flush=True)
        for key in ("trained", "other"):
            lo, hi = wilson_interval(won[key], args.games)
            print(f"{key:8} won {won[key]}/{args.games} ({won[key] / args.games:.1%}, "
                  f"95% CI {lo:.1%}-{hi:.1%}); deals only it won: {only[key]}")
    else:
        w = d_ = lo_ = 0.0
        for g in range(args.games):
            seed = args.seed + g // 2
            first = g % 2  # the seat of the trained side
            sides = [other] * n
            sides[first] = trained
            returns = play(args.game, seed, args.players, spec, sides)
            mine = returns[first]
            best_other = max(r for i, r in enumerate(returns) if i != first)
            if mine > best_other:
                w += 1
            elif mine < best_other:
                lo_ += 1
            else:
                d_ += 1
            print(f"game {g} (deal {seed}, trained in seat {first}): returns {returns}",
                  flush=True)
        slo, shi = score_interval(w, d_, lo_)
        total = w + d_ + lo_
        print(f"trained vs {args.against} with {spec.label}: {w:g}-{d_:g}-{lo_:g}, score "
              f"{(w + d_ / 2) / max(1, total):.3f} (95% CI {slo:.3f}-{shi:.3f})")
    print(f"{time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
