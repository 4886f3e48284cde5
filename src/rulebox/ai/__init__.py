"""Agents: they see only the game protocol. Importing this package registers every agent."""

from rulebox.ai import alphabeta, greedy, mcts, random_agent, solitaire36  # noqa: F401
from rulebox.ai.base import Agent, AgentEntry, Settings, agent_entries, make_agent, register_agent

__all__ = ["Agent", "AgentEntry", "Settings", "agent_entries", "make_agent", "register_agent"]
