"""Playing games: the table (seats, turns, the computer, undo, draws, rematch, announcements),
the agent-spec grammar, records, tournaments and ratings."""

from rulebox.match.agents import AgentSpec, default_agent
from rulebox.match.table import Ending, Event, Seat, SeatKind, StaleVersion, Table, TableError

__all__ = ["AgentSpec", "Ending", "Event", "Seat", "SeatKind", "StaleVersion", "Table",
           "TableError", "default_agent"]
