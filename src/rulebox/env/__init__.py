"""rulebox's games for reinforcement learning (``pip install 'rulebox[rl]'``).

* :func:`pettingzoo_env` - a PettingZoo AEC environment of any game (36 to 1 has one agent);
* :func:`gymnasium_env` - a Gymnasium environment: one seat learns, rulebox agents play the rest;
* ``import rulebox.openspiel`` - every game as an OpenSpiel game ``rulebox_<id>``;
* :func:`action_space` and :func:`observer` - the integer actions (a bijection with the
  notation, and legal-action masks) and the observation tensors (built from ``view(seat)``)
  that all three share (``space_key(game)`` names a game's: its id, or ``columba+officia``).
  docs/RESEARCH.md documents each game's layouts.

PettingZoo, Gymnasium and OpenSpiel are imported only when their adapter is asked for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulebox.env.actions import (
    ARCHITECT_REACH,
    COLUMBA_WINDOW,
    ActionSpace,
    UnsupportedOptionsError,
    Window,
    action_space,
    space_key,
    supported_games,
)
from rulebox.env.observations import Observer, observer

if TYPE_CHECKING:
    from rulebox.env.gymnasium_adapter import RuleboxGymEnv
    from rulebox.env.pettingzoo_adapter import RuleboxAECEnv

__all__ = [
    "ARCHITECT_REACH",
    "COLUMBA_WINDOW",
    "ActionSpace",
    "Observer",
    "UnsupportedOptionsError",
    "Window",
    "action_space",
    "gymnasium_env",
    "observer",
    "pettingzoo_env",
    "space_key",
    "supported_games",
]


def pettingzoo_env(
    game_id: str, render_mode: str | None = None, illegal: str = "raise", **options: Any
) -> RuleboxAECEnv:
    """A PettingZoo AEC environment of ``game_id`` (:mod:`rulebox.env.pettingzoo_adapter`)."""
    from rulebox.env.pettingzoo_adapter import RuleboxAECEnv

    return RuleboxAECEnv(game_id, render_mode=render_mode, illegal=illegal, **options)


def gymnasium_env(
    game_id: str,
    opponent: str = "best:time=0.1",
    seat: int = 0,
    render_mode: str | None = None,
    illegal: str = "lose",
    **options: Any,
) -> RuleboxGymEnv:
    """A Gymnasium environment of ``game_id`` (:mod:`rulebox.env.gymnasium_adapter`)."""
    from rulebox.env.gymnasium_adapter import RuleboxGymEnv

    return RuleboxGymEnv(
        game_id, opponent=opponent, seat=seat, render_mode=render_mode, illegal=illegal,
        **options,
    )
