"""Who sits where at the terminal: ``--seat N=WHO``, WHO a person (``human``) or an agent spec
(:mod:`rulebox.match.agents`: ``1=mcts:time=2,seed=5``, ``1=computer``, ``1=computer:easy``)."""

from __future__ import annotations

from rulebox.core.errors import OptionError
from rulebox.i18n import _
from rulebox.match.agents import PERSON_NAMES, AgentSpec, default_agent
from rulebox.match.table import Seat

HUMAN = "human"

__all__ = ["HUMAN", "default_agent", "make_seats", "parse_seat_spec"]


def parse_seat_spec(text: str) -> tuple[int, str]:
    """Read ``1=mcts`` or ``1=mcts:time=2,seed=5`` into (seat, who)."""
    if "=" not in text:
        raise OptionError(_("a seat is written N=human or N=<agent>, not {text!r}").format(
                              text=text[:40]))
    seat_text, _sep, rest = text.partition("=")
    try:
        seat = int(seat_text)
    except ValueError:
        raise OptionError(_("seat {seat!r} is not a number").format(
                              seat=seat_text[:20])) from None
    return seat, rest.strip()


def make_seats(
    game_id: str,
    num_players: int,
    specs: list[str],
    time: float,
    default: str | None = None,
) -> list[Seat]:
    """Seats for a game: seat 0 is a person and the others the strongest agent (or
    ``default``), unless ``specs`` say otherwise. An agent without ``time=``/``iterations=``
    gets ``time`` seconds a turn, and without ``seed=`` its seat number as seed."""
    computer = default or "computer"
    chosen: dict[int, str] = {}
    for text in specs:
        seat, who = parse_seat_spec(text)
        if not 0 <= seat < num_players:
            raise OptionError(_("there is no seat {seat}: seats are 0 to {num_players}").format(
                                  seat=seat, num_players=num_players - 1))
        chosen[seat] = who
    seats = []
    for p in range(num_players):
        who = chosen.get(p, HUMAN if p == 0 else computer)
        if who.strip().lower() in PERSON_NAMES:
            seats.append(Seat.person())
            continue
        spec = AgentSpec.parse(who).resolve(game_id)
        defaults = {"seed": str(p)}
        if spec.get("iterations") is None:
            defaults["time"] = f"{time:g}"
        spec = spec.with_settings(defaults).sorted()
        spec.make(game_id)  # refuse an unknown agent or a bad setting now
        seats.append(Seat.computer(spec, spec.name))
    return seats
