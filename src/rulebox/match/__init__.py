"""Playing games: the table (seats, turns, the computer, undo, draws, rematch, announcements),
the agent-spec grammar, records, tournaments and ratings."""

from rulebox.match.agents import AgentSpec, default_agent
from rulebox.match.ending import Ending, StaleVersion, TableError
from rulebox.match.seats import Seat, SeatKind
from rulebox.match.table import Table
from rulebox.match.words import Event

__all__ = ["AgentSpec", "Ending", "Event", "Seat", "SeatKind", "StaleVersion", "Table",
           "TableError", "default_agent"]
