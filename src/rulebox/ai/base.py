"""The agent protocol and the agent registry.

An agent sees only the game protocol (:class:`rulebox.core.Game`): it reads the position through
``legal_moves``, ``clone``, ``apply_unchecked``, ``returns``, ``view`` and ``determinize`` and
returns one legal move. It never changes the game it is given and never reads hidden state of a
game with hidden information except through ``determinize(player, rng)``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from rulebox.core.errors import OptionError, UnknownNameError
from rulebox.core.game import Game


class Agent(Protocol):
    """Chooses moves for whichever player is to move."""

    name: str

    def choose(self, game: Game) -> Any:
        """A legal move for the player to move in ``game`` (which is left unchanged)."""
        ...


def choosable_moves(game: Game) -> list[Any]:
    """The legal moves an agent chooses from; ``ValueError`` when the game is over."""
    moves = game.legal_moves()
    if not moves:
        raise ValueError("no legal move: the game is over")
    return moves


@dataclass(frozen=True)
class Settings:
    """The settings every agent accepts: ``time=`` seconds per move, ``iterations=``, ``seed=``."""

    time: float | None = None
    iterations: int | None = None
    seed: int = 0
    extra: Mapping[str, str] | None = None

    @classmethod
    def parse(cls, raw: Mapping[str, str], allowed_extra: tuple[str, ...] = ()) -> Settings:
        """Read ``key=value`` text; unknown keys and bad values raise ``OptionError``."""
        time: float | None = None
        iterations: int | None = None
        seed = 0
        extra: dict[str, str] = {}
        for key, value in raw.items():
            k = key.strip().lower()
            try:
                if k == "time":
                    time = float(value)
                    if not 0 < time <= 3600:
                        raise ValueError
                elif k == "iterations":
                    iterations = int(value)
                    if not 1 <= iterations <= 10_000_000:
                        raise ValueError
                elif k == "seed":
                    seed = int(value)
                    if not 0 <= seed < 2**63:
                        raise ValueError
                elif k in allowed_extra:
                    extra[k] = value
                else:
                    known = ", ".join(("time", "iterations", "seed", *allowed_extra))
                    raise OptionError(f"agents take {known}; not {key[:30]!r}")
            except ValueError:
                if isinstance(value, str) and len(value) > 30:
                    value = value[:27] + "..."
                raise OptionError(f"bad agent setting {k}={value!r}") from None
        return cls(time, iterations, seed, extra)


AgentFactory = Callable[[str, Settings], Agent]


@dataclass(frozen=True)
class AgentEntry:
    """A registered agent: its name, a one-line description, which games it plays (``None``:
    all), the extra settings it accepts and how to make one."""

    name: str
    description: str
    factory: AgentFactory
    games: tuple[str, ...] | None = None
    extra_settings: tuple[str, ...] = ()

    def plays(self, game_id: str) -> bool:
        return self.games is None or game_id in self.games


_AGENTS: dict[str, AgentEntry] = {}


def register_agent(entry: AgentEntry) -> AgentEntry:
    """Add an agent to the registry under its name."""
    _AGENTS[entry.name] = entry
    return entry


def agent_entries(game_id: str | None = None) -> list[AgentEntry]:
    """Every registered agent (that plays ``game_id`` when given), in registration order."""
    import rulebox.ai  # noqa: F401  (registers the built-in agents)

    return [e for e in _AGENTS.values() if game_id is None or e.plays(game_id)]


def make_agent(name: str, game_id: str, settings: Mapping[str, str] | None = None) -> Agent:
    """An agent by name for a game, with ``key=value`` settings."""
    import rulebox.ai  # noqa: F401

    key = name.strip().lower()
    entry = _AGENTS.get(key)
    if entry is None:
        shown = key if len(key) <= 30 else key[:27] + "..."
        names = ", ".join(e.name for e in _AGENTS.values() if e.plays(game_id))
        raise UnknownNameError(f"unknown agent or level {shown!r} (for {game_id}: {names})")
    if not entry.plays(game_id):
        raise UnknownNameError(f"agent {key!r} does not play {game_id}")
    return entry.factory(game_id, Settings.parse(settings or {}, entry.extra_settings))
