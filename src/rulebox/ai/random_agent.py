"""The ``random`` agent: a uniformly random legal move, repeatable by seed."""

from __future__ import annotations

from typing import Any

from rulebox.ai.base import AgentEntry, Settings, choosable_moves, register_agent
from rulebox.core.game import Game
from rulebox.core.rng import rng
from rulebox.i18n import N_


class RandomAgent:
    """Plays a uniformly random legal move; the same seed gives the same sequence of choices."""

    name = "random"

    def __init__(self, game_id: str, settings: Settings) -> None:
        self._rng = rng(settings.seed, "random-agent", game_id)

    def choose(self, game: Game) -> Any:
        moves = sorted(choosable_moves(game), key=str)
        return self._rng.choice(moves)


register_agent(
    AgentEntry("random", N_("a uniformly random legal move (seed= repeats it)"), RandomAgent)
)
