"""Gymnasium environments of rulebox's games: one seat learns, rulebox agents play the others.

The observation is the learner's float32 vector (:mod:`rulebox.env.observations`); the legal
actions are ``info["action_mask"]`` (int8, Gymnasium's convention) and ``env.action_masks()``
(the name masked-PPO implementations call). Multi-action turns are consecutive steps. The
reward is the learner's ``returns()`` entry when the game ends, 0 before.

``opponent`` names a rulebox agent as tournaments do (``best:time=0.1``, ``mcts:iterations=200``,
``random``); each other seat gets its own, seeded from the game seed and the seat unless the spec
gives ``seed=``. 36 to 1 has no other seat. ``reset(seed=s)`` plays rulebox's game with
``seed=s``; ``reset()`` draws the game seed from ``self.np_random`` (Gymnasium's convention).
Agents bounded by ``time=`` depend on the clock; use ``iterations=`` for repeatable episodes.

Illegal actions: by default (``illegal="lose"``) an illegal action ends the episode with the
lowest return and ``info["illegal_action"] = True`` (Gymnasium's own ``check_env`` steps with
unmasked random actions); ``illegal="raise"`` raises ``ValueError`` instead.
"""

from __future__ import annotations

from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from rulebox.ai.base import Agent, make_agent
from rulebox.core import TERMINAL
from rulebox.env.common import ILLEGAL_MODES, OBS_HIGH, OBS_LOW, SEED_SPAN, Table
from rulebox.match import AgentSpec


def _agent_seed(game_seed: int, seat: int) -> int:
    return (game_seed * 1_000_003 + 7919 * (seat + 1)) % SEED_SPAN


class RuleboxGymEnv(gym.Env):  # type: ignore[misc]
    """One seat of a rulebox game as a Gymnasium environment."""

    # an instance attribute in Gymnasium's Env, so not a ClassVar here
    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        game_id: str,
        opponent: str = "best:time=0.1",
        seat: int = 0,
        render_mode: str | None = None,
        illegal: str = "lose",
        **options: Any,
    ) -> None:
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        if illegal not in ILLEGAL_MODES:
            raise ValueError(f"illegal must be one of {ILLEGAL_MODES}, not {illegal!r}")
        self.table = Table(game_id, options)
        if not 0 <= seat < self.table.num_players:
            raise ValueError(f"seat must be 0..{self.table.num_players - 1}, not {seat}")
        self.seat = seat
        self.spec_text = opponent
        self.opponent = AgentSpec.parse(opponent)
        self.render_mode = render_mode
        self.illegal = illegal
        self.observation_space = spaces.Box(
            OBS_LOW, OBS_HIGH, (self.table.observer.size,), dtype=np.float32
        )
        self.action_space = spaces.Discrete(self.table.space.n)
        self._agents: dict[int, Agent] = {}
        self._done = True

    # --- the other seats ------------------------------------------------------------------------
    def _make_agents(self, game_seed: int) -> None:
        settings = dict(self.opponent.settings)
        self._agents = {}
        for p in range(self.table.num_players):
            if p == self.seat:
                continue
            own = dict(settings)
            own.setdefault("seed", str(_agent_seed(game_seed, p)))
            self._agents[p] = make_agent(self.opponent.name, self.table.game_id, own)

    def _others_play(self) -> None:
        game = self.table.game
        while True:
            mover = game.current_player()
            if mover == TERMINAL or mover == self.seat:
                return
            self.table.play_move(self._agents[mover].choose(game))

    # --- the Gymnasium API ----------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = int(seed) if seed is not None else int(self.np_random.integers(SEED_SPAN - 1))
        self.table.reset(game_seed)
        self._make_agents(game_seed)
        self._others_play()
        self._done = self.table.game.is_terminal()
        return self.table.observe(self.seat), self._info()

    def step(
        self, action: Any
    ) -> tuple[np.ndarray, SupportsFloat, bool, bool, dict[str, Any]]:
        if self._done:
            raise RuntimeError("step() after the episode ended: call reset()")
        table = self.table
        try:
            a = int(action)
        except (TypeError, ValueError):
            a = -1
        if a not in table.legal.moves:
            if self.illegal == "raise":
                raise ValueError(table.illegal_reason(action))
            self._done = True
            info = {**self._info(), "illegal_action": True}
            return table.observe(self.seat), float(table.return_bounds[0]), True, False, info
        table.play(a)
        self._others_play()
        game = table.game
        self._done = game.is_terminal()
        reward = float(game.returns()[self.seat]) if self._done else 0.0
        return table.observe(self.seat), reward, self._done, False, self._info()

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self.action_masks()}
        if self.table.game.is_terminal():
            info["returns"] = list(self.table.game.returns())
        return info

    def action_masks(self) -> np.ndarray:
        """The learner's legal-action mask (int8; all zeros once the game is over)."""
        return self.table.mask(self.seat)

    def render(self) -> str | None:
        if self.render_mode is None:
            gym.logger.warn("render() without a render_mode (rulebox envs render 'ansi')")
            return None
        return self.table.text(self.seat)


def register_all() -> list[str]:
    """Register every game with Gymnasium as ``rulebox/<game>-v0`` (``gymnasium.make`` then
    takes the same keyword arguments as :func:`gymnasium_env`); returns the ids."""
    from rulebox.env.actions import supported_games

    ids = []
    for game_id in supported_games():
        env_id = f"rulebox/{game_id}-v0"
        if env_id not in gym.registry:
            gym.register(env_id, entry_point=f"{__name__}:RuleboxGymEnv",
                         kwargs={"game_id": game_id})
        ids.append(env_id)
    return ids


register_all()
