"""Who sits where: a person or an agent for each seat of a game."""

from __future__ import annotations

from dataclasses import dataclass

from rulebox.ai.base import Agent, agent_entries, make_agent
from rulebox.core.errors import OptionError

HUMAN = "human"


def default_agent(game_id: str) -> str:
    """The strongest agent registered for a game (``best`` when there is one)."""
    names = [e.name for e in agent_entries(game_id)]
    for name in ("best", "mcts", "greedy", "random"):
        if name in names:
            return name
    return names[0]


@dataclass
class Seat:
    """One seat: a person (``agent is None``) or an agent with its settings."""

    spec: str
    agent: Agent | None = None

    @property
    def is_human(self) -> bool:
        return self.agent is None


def parse_seat_spec(text: str) -> tuple[int, str, dict[str, str]]:
    """Read ``1=mcts`` or ``1=mcts:time=2,seed=5`` into (seat, agent name, settings)."""
    if "=" not in text:
        raise OptionError(f"a seat is written N=human or N=<agent>, not {text[:40]!r}")
    seat_text, _, rest = text.partition("=")
    try:
        seat = int(seat_text)
    except ValueError:
        raise OptionError(f"seat {seat_text[:20]!r} is not a number") from None
    name, _, settings_text = rest.partition(":")
    settings: dict[str, str] = {}
    for part in filter(None, settings_text.split(",")):
        key, eq, value = part.partition("=")
        if not eq:
            raise OptionError(f"agent settings are key=value, not {part[:40]!r}")
        settings[key.strip().lower()] = value.strip()
    return seat, name.strip().lower(), settings


def make_seats(
    game_id: str,
    num_players: int,
    specs: list[str],
    time: float,
    default: str | None = None,
) -> list[Seat]:
    """Seats for a game: seat 0 is a person and the others the strongest agent, unless
    ``specs`` say otherwise."""
    computer = default or default_agent(game_id)
    chosen: dict[int, tuple[str, dict[str, str]]] = {}
    for spec in specs:
        seat, name, settings = parse_seat_spec(spec)
        if not 0 <= seat < num_players:
            raise OptionError(f"there is no seat {seat}: seats are 0 to {num_players - 1}")
        chosen[seat] = (name, settings)
    seats = []
    for p in range(num_players):
        name, settings = chosen.get(p, (HUMAN if p == 0 else computer, {}))
        if name in (HUMAN, "person", "me"):
            seats.append(Seat(HUMAN))
            continue
        if name == "computer":
            name = computer
        settings = dict(settings)
        settings.setdefault("time", str(time))
        settings.setdefault("seed", str(p))
        spec = name + (":" + ",".join(f"{k}={v}" for k, v in sorted(settings.items())))
        seats.append(Seat(spec, make_agent(name, game_id, settings)))
    return seats
