"""An OpenSpiel MCTS match on a rulebox game: OpenSpiel's MCTS bot against its random bot.

``import rulebox.openspiel`` registers the games; from there on it is plain OpenSpiel. The MCTS
bot (random rollouts, UCT) plays each seat in turn; chance nodes (Count Red's draw of who starts,
the shuffled decks) are sampled with their probabilities. For a game with hidden cards use
``--ismcts``: information-set MCTS, which resamples the unseen cards through the states'
``resample_from_infostate``.

    python examples/openspiel_mcts.py [--game countred] [--games 4] [--simulations 100]
                                      [--ismcts] [--seed 0]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import rulebox.openspiel


def play(game: pyspiel.Game, bots: list, rng: np.random.RandomState) -> list[float]:
    """One game between ``bots`` (one per seat); the returns."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(bots[state.current_player()].step(state))
    return list(state.returns())


def make_search_bot(game: pyspiel.Game, simulations: int, use_ismcts: bool,
                    seed: int) -> pyspiel.Bot:
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
    if use_ismcts:
        return ismcts.ISMCTSBot(game, evaluator, 2.0, simulations, max_world_samples=4,
                                random_state=np.random.RandomState(seed))
    return mcts.MCTSBot(game, 2.0, simulations, evaluator,
                        random_state=np.random.RandomState(seed))


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="countred", help="a rulebox game id")
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--simulations", type=int, default=100)
    parser.add_argument("--ismcts", action="store_true", help="information-set MCTS")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    rulebox.openspiel.set_resample_seed(args.seed)
    game = pyspiel.load_game(f"rulebox_{args.game}")
    n = game.num_players()
    rng = np.random.RandomState(args.seed)
    total = 0.0
    start = time.perf_counter()
    for g in range(args.games):
        seat = g % n
        bots = [pyspiel.make_uniform_random_bot(p, args.seed * 1000 + g) for p in range(n)]
        bots[seat] = make_search_bot(game, args.simulations, args.ismcts, args.seed + g)
        returns = play(game, bots, rng)
        total += returns[seat]
        print(f"game {g + 1}: search bot in seat {seat}, returns {returns}")
    mean = total / max(1, args.games)
    kind = "IS-MCTS" if args.ismcts else "MCTS"
    print(f"{kind} ({args.simulations} simulations) against random on rulebox_{args.game}: "
          f"mean return {mean:+.3f} over {args.games} games "
          f"({time.perf_counter() - start:.0f} s)")
    return {"mean": mean}


if __name__ == "__main__":
    main()
