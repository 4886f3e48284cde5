"""The ``greedy`` agent: one ply, the move whose result the game's evaluation likes best.

A game with hidden information is first determinized for the player to move (so the agent never
reads a card it cannot see); ties are broken by the seeded random generator.
"""

from __future__ import annotations

from typing import Any

from rulebox.ai.base import AgentEntry, Settings, register_agent
from rulebox.ai.budget import extra_number
from rulebox.ai.heuristics import Heuristic, heuristic
from rulebox.core.game import Game
from rulebox.core.rng import rng
from rulebox.i18n import N_


def sorted_moves(game: Game) -> list[Any]:
    """The legal moves in a fixed order (by notation), so that choices repeat by seed."""
    return sorted(game.legal_moves(), key=str)


class GreedyAgent:
    """Plays the move with the best one-ply evaluation for the player to move; with
    ``epsilon=`` it plays a random move instead that often (a weaker level)."""

    name = "greedy"

    def __init__(self, game_id: str, settings: Settings) -> None:
        self._h: Heuristic = heuristic(game_id)
        self._rng = rng(settings.seed, "greedy", game_id)
        self.epsilon = extra_number(settings, "epsilon", 0.0, 0.0, 1.0)

    def choose(self, game: Game) -> Any:
        me = game.current_player()
        moves = sorted_moves(game)
        if not moves:
            raise ValueError("no legal move: the game is over")
        if self.epsilon and self._rng.random() < self.epsilon:
            return moves[self._rng.randrange(len(moves))]
        base = game.determinize(me, self._rng) if game.has_hidden_information else game.clone()
        best: list[Any] = []
        best_value = -float("inf")
        for move in moves:
            child = base.clone()
            child.apply_unchecked(move)
            value = self._h.value(child, me)
            if value > best_value + 1e-12:
                best, best_value = [move], value
            elif value >= best_value - 1e-12:
                best.append(move)
        return best[self._rng.randrange(len(best))]


register_agent(
    AgentEntry(
        "greedy",
        N_("one ply: the move the game's evaluation likes best (seed= breaks ties; epsilon=)"),
        GreedyAgent,
        extra_settings=("epsilon",),
    )
)
