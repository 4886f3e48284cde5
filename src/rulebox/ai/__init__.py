"""Agents: they see only the game protocol. Importing this package registers every agent.

Game-specific agents (36 to 1) import their game's tables; if that game fails to import, the
generic agents still register and a warning says why.
"""

import warnings

from rulebox.ai import (  # noqa: F401  (each module registers its agents)
    alphabeta,
    greedy,
    hybrid,
    levels,
    mcts,
    random_agent,
)
from rulebox.ai.base import Agent, AgentEntry, Settings, agent_entries, make_agent, register_agent

try:
    from rulebox.ai import solitaire36  # noqa: F401
except ImportError as _e:  # pragma: no cover - only while a game package is broken
    warnings.warn(f"rulebox: the 36 to 1 agents are unavailable: {_e}", RuntimeWarning,
                  stacklevel=1)

__all__ = ["Agent", "AgentEntry", "Settings", "agent_entries", "make_agent", "register_agent"]
