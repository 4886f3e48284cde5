"""PettingZoo AEC environments of rulebox's games (as PettingZoo's classic games are made).

Agents are ``player_0``, ``player_1``, ...; seat ``i`` of the game is ``player_i``. An agent's
observation is ``{"observation": float32 vector, "action_mask": int8 vector}`` (the mask is all
zeros for an agent that is not to move). Multi-action turns (Discs, Columba) are consecutive
steps of the same agent. Rewards come at the end of the game: each agent's ``returns()``.

``reset(seed=s)`` plays rulebox's game with ``seed=s`` (so the same seed is the same deal as
``rulebox play <game> seed=s``); ``reset()`` without a seed draws the next game seed from a
generator seeded by the last seed given (or from the operating system if none was).

An illegal action raises ``ValueError`` (the mask is the contract), unless the environment was
made with ``illegal="lose"``: then the game ends, the offender gets the lowest return and the
others 0, and the offender's info says ``{"illegal_action": True}`` (PettingZoo's
TerminateIllegalWrapper convention).
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from rulebox.core import TERMINAL
from rulebox.env.common import ILLEGAL_MODES, OBS_HIGH, OBS_LOW, SEED_SPAN, Table


class RuleboxAECEnv(AECEnv):  # type: ignore[misc]
    """One of rulebox's games as a PettingZoo AEC environment."""

    # an instance attribute in PettingZoo's AECEnv (the name is set per game below)
    metadata: dict[str, Any] = {  # noqa: RUF012
        "render_modes": ["ansi"], "name": "rulebox", "is_parallelizable": False,
    }

    def __init__(
        self, game_id: str, render_mode: str | None = None, illegal: str = "raise",
        **options: Any,
    ) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        if illegal not in ILLEGAL_MODES:
            raise ValueError(f"illegal must be one of {ILLEGAL_MODES}, not {illegal!r}")
        self.table = Table(game_id, options)
        self.render_mode = render_mode
        self.illegal = illegal
        self.metadata = {**self.metadata, "name": f"rulebox_{game_id}"}
        n = self.table.num_players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        size = self.table.observer.size
        self._obs_space = spaces.Dict({
            "observation": spaces.Box(OBS_LOW, OBS_HIGH, (size,), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (self.table.space.n,), dtype=np.int8),
        })
        self._act_space = spaces.Discrete(self.table.space.n)
        self._rng = np.random.default_rng()
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_space

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.agent_name_mapping[agent]
        return {"observation": self.table.observe(seat), "action_mask": self.table.mask(seat)}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(int(seed))
            game_seed = int(seed)
        else:
            game_seed = int(self._rng.integers(SEED_SPAN - 1))
        self.table.reset(game_seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.table.game.current_player()]

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        table = self.table
        if action is None or int(action) not in table.legal.moves:
            if self.illegal == "raise":
                raise ValueError(table.illegal_reason(action))
            self.rewards[agent] = float(table.return_bounds[0])
            self.infos[agent] = {"illegal_action": True}
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            table.play(int(action))
            mover = table.game.current_player()
            if mover == TERMINAL:
                returns = table.game.returns()
                self.rewards = {a: float(returns[i]) for i, a in enumerate(self.possible_agents)
                                if a in self.rewards}
                self.terminations = dict.fromkeys(self.agents, True)
            else:
                self.agent_selection = self.possible_agents[mover]
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render_mode (rulebox envs render 'ansi')")
            return None
        return self.table.text(None)

    def close(self) -> None:
        return None

    def __str__(self) -> str:
        return f"rulebox_{self.table.game_id}"
