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
from rulebox.i18n import N_


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
    # in 100 games at 1 s. After issue 16 (features from the rules, trained weights, search
    # that sees wins in one): hard beat medium 9-0-1 at 0.3 s; best beat best-v1 33-0-7 at
    # 0.3 s (0.825, 0.681-0.913; bench_versus.py)
    "columns": {
        "easy": Level("greedy", {"epsilon": "0.5"}),
        "medium": Level("greedy"),
        "hard": Level("alphabeta"),
        "best": Level("alphabeta"),
    },
    # 10 games a pair at 0.3 s: easy-random 9-0-1, medium-easy 8-1-1, hard-medium 8-2-0
    # (random 0, easy +222, medium +422, hard +679), and hard-medium 23-7-0 in 30 more; best
    # beat random 98-2-0 and mcts 75-15-10 in 100 games at 1 s. After issue 16 (the evaluation
    # of who can make each four, threats, bonus combinations; free plies for bonus moves,
    # quiescence on fours and threes, a root filter against handing a four), at 0.3 s a move:
    # hard beat medium 11-9-0 and medium beat easy 13-7-0 (20 games each); best beat best-v1
    # 94-4-2 at 0.3 s and 59-1-0 at 0.5 s (bench_versus.py)
    "countred": {
        "easy": Level("greedy"),
        "medium": Level("alphabeta", {"depth": "2"}),
        "hard": Level("alphabeta"),
        "best": Level("alphabeta"),
    },
    # Discs, at 0.25 s a move (bench/bench_levels_strength.py, seats rotated): greedy beat
    # greedy:epsilon=0.5 26-1-13 and 15-5. Plain MCTS misses some one-turn threats that
    # alpha-beta sees, so hard and best are the hybrid: alpha-beta proofs first, then MCTS
    # (tests/ai/test_ai_tactics.py). With the evaluation of issue 16 (features from the rules,
    # weights trained by self-play) one ply of greedy became as strong as the searchers at short
    # clocks: hybrid against greedy 0-4-6 at 0.2 s and 1-3-0 at 1 s, alpha-beta against greedy
    # 0-8-2 at 0.3 s; most games end drawn by the quiet-turn rule. So medium keeps some noise:
    # hybrid beat greedy:epsilon=0.3 6-0 at 0.2 s, and greedy:epsilon=0.3 beat
    # greedy:epsilon=0.5 7-3. best (hybrid) beat best-v1 19-0-1 at 0.2 s (bench_versus.py)
    "discs": {
        "easy": Level("greedy", {"epsilon": "0.5"}),
        "medium": Level("greedy", {"epsilon": "0.3"}),
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
        # the guided policy (no search; never a move proven lost): 111 of deals 0..199
        # (55.5%, 48.6-62.2%); deal by deal 76 to 13 against medium (p = 5e-12), 44 to 44
        # against best at 500 iterations, 15 to 58 against best at 1 s
        "hard": Level("guided"),
        "best": Level("mcts"),
    },
    # Columba, seats rotated (rulebox tournament columba --agents A,B --time T --seed S):
    # easy (greedy:epsilon=0.7) beat random 9-0-1. With the evaluation of issue 16 (features
    # per side from the rules, blind to the deck) one ply of greedy is stronger than every
    # search tried on it: greedy beat mcts on the new evaluation 29-0-7 (0.81, 0.65-0.90) at
    # 0.3 s, and beat best-v1 (mcts:guide=0) 80-0 (10-0 at 1 s, 10-0 at 0.5 s, 60-0 at 0.3 s);
    # mcts on the new evaluation beat easy 10-0. So medium is mcts and hard and best are greedy
    "columba": {
        "easy": Level("greedy", {"epsilon": "0.7"}),
        "medium": Level("mcts"),
        "hard": Level("greedy"),
        "best": Level("greedy"),
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
    "best": N_("the strongest agent for this game (time= seconds per move)"),
    "easy": N_("difficulty level: easy (beats random, loses to medium)"),
    "medium": N_("difficulty level: medium (beats easy, loses to hard)"),
    "hard": N_("difficulty level: hard (the best agent, at the time= given)"),
}

LEVEL_SETTINGS = ("depth", "lookahead", "c", "playout", "epsilon", "fragile", "screen", "eval",
                  "guide", "widen", "heuristic")
"""The agents' own settings a level passes on (each agent reads those it knows)."""

for _level in ("best", "easy", "medium", "hard"):
    register_agent(AgentEntry(_level, _DESCRIPTIONS[_level], _factory(_level),
                              extra_settings=LEVEL_SETTINGS))
