"""Agents: they see only the game protocol. Importing this package registers every agent."""

from rulebox.ai import (  # noqa: F401  (each module registers its agents)
    alphabeta,
    greedy,
    levels,
    mcts,
    random_agent,
    solitaire36,
)
from rulebox.ai.base import Agent, AgentEntry, Settings, agent_entries, make_agent, register_agent

__all__ = ["Agent", "AgentEntry", "Settings", "agent_entries", "make_agent", "register_agent"]
