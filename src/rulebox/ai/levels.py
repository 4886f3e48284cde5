"""``best`` and the difficulty levels ``easy``, ``medium``, ``hard``: for each game, which agent
with which settings. Each level is measured to beat the one below it clearly
(``bench/bench_levels_strength.py``; figures in the docstrings of :data:`LEVELS`).

A level passes ``time=`` and ``seed=`` through to the agent it stands for; ``iterations=``
given by the caller replaces the level's own. A level's fixed settings (its caps) stay.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rulebox.ai.base import _AGENTS, AgentEntry, Settings, register_agent
from rulebox.core.errors import UnknownNameError
from rulebox.core.game import Game


@dataclass(frozen=True)
class Level:
    """An agent name and the settings that make it this level."""

    agent: str
    extra: Mapping[str, str] = field(default_factory=dict)
    iterations: int | None = None
    """A cap on iterations for this level (the clock still applies)."""


LEVELS: dict[str, dict[str, Level]] = {
    # at 0.3 s a move, seats rotated: greedy:epsilon=0.5 beat random 29-0-1, greedy beat
    # greedy:epsilon=0.5 24-0-6, alpha-beta beat greedy 30-0 (alpha-beta at depth 2 was not
    # clearly weaker than full alpha-beta: 13-0-17). best beat random 100-0-0 and mcts 91-0-9
    # in 100 games at 1 s
    "columns": {
        "easy": Level("greedy", {"epsilon": "0.5"}),
        "medium": Level("greedy"),
        "hard": Level("alphabeta"),
        "best": Level("alphabeta"),
    },
    # 10 games a pair at 0.3 s: easy-random 9-0-1, medium-easy 8-1-1, hard-medium 8-2-0
    # (random 0, easy +222, medium +422, hard +679), and hard-medium 23-7-0 in 30 more; best
    # beat random 98-2-0 and mcts 75-15-10 in 100 games at 1 s
    "countred": {
        "easy": Level("greedy"),
        "medium": Level("alphabeta", {"depth": "2"}),
        "hard": Level("alphabeta"),
        "best": Level("alphabeta"),
    },
    # Discs, at 0.25 s a move (bench/bench_levels_strength.py, seats rotated): greedy beat
    # greedy:epsilon=0.5 26-1-13 and 15-5; the hybrid beat greedy 20-0 and alpha-beta 11-9
    # (alpha-beta beat greedy 18-1-1). Plain MCTS misses some one-turn threats that alpha-beta
    # sees, so hard and best are the hybrid: alpha-beta proofs first, then MCTS
    # (tests/ai/test_ai_tactics.py); at 1 s it beat plain MCTS 10-4-6
    "discs": {
        "easy": Level("greedy", {"epsilon": "0.5"}),
        "medium": Level("greedy"),
        "hard": Level("hybrid"),
        "best": Level("hybrid"),
    },
    # deals 0..999 (bench/bench_36to1_strength.py): connected 5.7%, counter without the
    # fragile terms 18.5%, counter 22.8%. At 1 s a move on deals 0..99: connected 5%, counter
    # without lookahead and fragile terms 21%, counter with lookahead 31%, MCTS with random
    # playouts 41%, MCTS with keep-together playouts and no doomed moves (now hard and best)
    # 84% (same deals: 65 won that medium lost, 2 the other way; 49 to 6 against the random
    # playouts). Results per deal: bench/results/s36_t1.json
    "36to1": {
        "easy": Level("connected"),
        "medium": Level("counter", {"lookahead": "0", "fragile": "0"}),
        "hard": Level("mcts"),
        "best": Level("mcts"),
    },
    # at 0.25 s a move: greedy beat greedy:epsilon=0.7 7-1 and 4-0, and random 4-0;
    # determinized mcts (no playouts) beat greedy 5-1, 2-2 and 19-1-10, and ismcts 5-1.
    # At 1 s: mcts beat random 10-0 and greedy 6-4, and drew 5-5 with ismcts
    "columba": {
        "easy": Level("greedy", {"epsilon": "0.7"}),
        "medium": Level("greedy"),
        "hard": Level("mcts"),
        "best": Level("mcts"),
    },
}

FALLBACK: dict[str, Level] = {
    "easy": Level("greedy"),
    "medium": Level("mcts", {}, iterations=200),
    "hard": Level("mcts"),
    "best": Level("mcts"),
}
"""Levels of a game that has no entry in :data:`LEVELS` (a new game)."""


def level_of(game_id: str, level: str) -> Level:
    """The agent a level stands for in a game."""
    return LEVELS.get(game_id, FALLBACK).get(level, FALLBACK[level])


class LevelAgent:
    """A named level: it delegates every move to the agent the level stands for."""

    def __init__(self, level: str, game_id: str, settings: Settings) -> None:
        self.name = level
        spec = level_of(game_id, level)
        entry: AgentEntry | None = _AGENTS.get(spec.agent)
        if entry is None or not entry.plays(game_id):
            raise UnknownNameError(f"level {level} needs agent {spec.agent!r} for {game_id}")
        extra = dict(spec.extra)
        extra.update(settings.extra or {})
        iterations = settings.iterations if settings.iterations is not None else spec.iterations
        inner = Settings(settings.time, iterations, settings.seed, extra)
        self.agent_name = spec.agent
        self.inner = entry.factory(game_id, inner)

    def choose(self, game: Game) -> Any:
        return self.inner.choose(game)


def _factory(level: str) -> Any:
    def make(game_id: str, settings: Settings) -> LevelAgent:
        return LevelAgent(level, game_id, settings)

    return make


_DESCRIPTIONS = {
    "best": "the strongest agent for this game (time= seconds per move)",
    "easy": "difficulty level: easy (beats random, loses to medium)",
    "medium": "difficulty level: medium (beats easy, loses to hard)",
    "hard": "difficulty level: hard (the best agent, at the time= given)",
}

LEVEL_SETTINGS = ("depth", "lookahead", "c", "playout", "epsilon", "fragile", "screen")
"""The agents' own settings a level passes on (each agent reads those it knows)."""

for _level in ("best", "easy", "medium", "hard"):
    register_agent(AgentEntry(_level, _DESCRIPTIONS[_level], _factory(_level),
                              extra_settings=LEVEL_SETTINGS))
