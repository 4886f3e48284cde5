"""Time controls: a chess clock for a table, driven by timestamps passed in.

Two kinds of control, written as text:

- ``"5+3"``: **base + increment**, minutes and seconds (Fischer): each seat starts with five
  minutes; the time a turn takes is taken from the seat's time, and three seconds are added
  when the turn ends. ``"0.5+0"`` (thirty seconds, nothing added) is allowed too.
- ``"3d"``: **correspondence**, days per move: each turn may take at most three days; what a
  turn leaves is not kept (every turn starts with the full days).

A :class:`Clock` is a pure object: every method that reads or changes it takes ``now`` (seconds
since the epoch, a float), so tests need no sleeping and a server in several processes agrees
on the time (the clock's state is plain JSON in the table's state).

A *turn* is what the table calls one: consecutive decisions of one seat (a multi-action turn)
are one turn of the clock; the increment is added once, when another seat is to move.

The table's policy (:class:`rulebox.match.table.Table`):

- The clock starts with the first move: the first turn of the game is not timed (a game waiting
  for its second player does not lose on time); from then on the seat to move runs.
- A computer's clock does not run: its time is the server's limit (``time=``), not the clock.
- A fallen flag ends the game, ``Ending`` how ``"time"``: the seat that ran out loses and the
  other side wins (with more than two players: everyone else wins, as after a resignation).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rulebox.core.errors import RuleboxError
from rulebox.i18n import _

MAX_MINUTES = 24 * 60
"""The longest base of a base + increment control (a day)."""
MAX_INCREMENT = 600
"""The largest increment in seconds."""
MAX_DAYS = 30
"""The most days per move of a correspondence control."""
DAY = 86400.0

_FISCHER = re.compile(r"^\s*(\d{1,4}(?:\.\d{1,2})?)\s*\+\s*(\d{1,3})\s*$")
_DAYS = re.compile(r"^\s*(\d{1,2})\s*d\s*$", re.IGNORECASE)


class ClockError(RuleboxError):
    """A time control that cannot be read."""


@dataclass(frozen=True)
class TimeControl:
    """A time control: ``base`` seconds per seat plus ``increment`` seconds a turn, or
    ``days`` per move (correspondence; ``base`` is then the days in seconds)."""

    text: str
    base: float
    increment: float = 0.0
    days: int | None = None

    @property
    def per_move(self) -> bool:
        """Whether each turn starts with the full time (correspondence)."""
        return self.days is not None

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """``"5+3"`` (minutes + increment seconds) or ``"3d"`` (days per move)."""
        if not isinstance(text, str) or len(text) > 12:
            raise ClockError(_("a clock is minutes+seconds such as 5+3, or days per move "
                               "such as 3d"))
        m = _DAYS.match(text)
        if m:
            days = int(m.group(1))
            if not 1 <= days <= MAX_DAYS:
                raise ClockError(_("days per move are 1 to {most}").format(most=MAX_DAYS))
            return cls(f"{days}d", days * DAY, 0.0, days)
        m = _FISCHER.match(text)
        if not m:
            raise ClockError(_("a clock is minutes+seconds such as 5+3, or days per move "
                               "such as 3d"))
        minutes, increment = float(m.group(1)), int(m.group(2))
        if not 0 < minutes <= MAX_MINUTES or increment > MAX_INCREMENT:
            raise ClockError(_("a clock has 0 to {minutes} minutes and at most {seconds} "
                               "seconds a move").format(minutes=MAX_MINUTES,
                                                        seconds=MAX_INCREMENT))
        shown = f"{minutes:g}+{increment}"
        return cls(shown, minutes * 60.0, float(increment), None)

    @classmethod
    def seconds(cls, base: float, increment: float = 0.0) -> TimeControl:
        """A control given in seconds (tests, short games): ``base`` seconds, ``increment``."""
        text = f"{base / 60:g}+{increment:g}"
        return cls(text, float(base), float(increment), None)


@dataclass
class Clock:
    """The time left per seat, the seat whose time runs and since when (see the module)."""

    control: TimeControl
    remaining: list[float]
    running: int | None = None
    since: float | None = None
    """When the running seat's time began to run (epoch seconds)."""
    used: list[float] = field(default_factory=list)
    """Seconds each turn took, in order (what a record or a review may show)."""

    @classmethod
    def new(cls, control: TimeControl | str, seats: int) -> Clock:
        """A stopped clock with the full time for each of ``seats``."""
        c = TimeControl.parse(control) if isinstance(control, str) else control
        return cls(c, [c.base] * seats)

    # --- reading ------------------------------------------------------------------------------
    def left(self, seat: int, now: float) -> float:
        """Seconds ``seat`` has left at ``now`` (never below zero); in correspondence a seat
        that is not running has the full days of its next turn."""
        if self.control.per_move and seat != self.running:
            return self.control.base
        t = self.remaining[seat]
        if seat == self.running and self.since is not None:
            t -= max(0.0, now - self.since)
        return max(0.0, t)

    def falls_at(self) -> float | None:
        """When the running seat's flag falls (epoch seconds), or ``None`` when none runs."""
        if self.running is None or self.since is None:
            return None
        return self.since + self.remaining[self.running]

    def flagged(self, now: float) -> int | None:
        """The seat whose time ran out at ``now``, or ``None``."""
        at = self.falls_at()
        return self.running if at is not None and now >= at else None

    # --- changing -----------------------------------------------------------------------------
    def start(self, seat: int | None, now: float) -> None:
        """Let ``seat``'s time run from ``now`` (``None``: stop; see :meth:`stop`). A
        correspondence turn starts with the full days."""
        if seat is None:
            self.stop(now)
            return
        if self.control.per_move:
            self.remaining[seat] = self.control.base
        self.running = seat
        self.since = now

    def stop(self, now: float) -> None:
        """Stop the running time, charging it to the running seat (no increment)."""
        if self.running is not None and self.since is not None:
            spent = max(0.0, now - self.since)
            self.remaining[self.running] = max(0.0, self.remaining[self.running] - spent)
        self.running = None
        self.since = None

    def end_turn(self, seat: int, next_seat: int | None, now: float) -> float:
        """``seat``'s turn ended at ``now``; ``next_seat``'s time runs from then (``None``:
        nobody's, e.g. a computer or the end of the game). Answers the seconds the turn took.
        The increment goes to ``seat`` when its time was running."""
        spent = 0.0
        if self.running == seat and self.since is not None:
            spent = max(0.0, now - self.since)
            self.remaining[seat] = max(0.0, self.remaining[seat] - spent) + (
                self.control.increment if not self.control.per_move else 0.0)
            self.used.append(round(spent, 3))
        self.running = None
        self.since = None
        if next_seat is not None:
            self.start(next_seat, now)
        return spent

    # --- showing and storing ------------------------------------------------------------------
    def payload(self, now: float) -> dict[str, Any]:
        """The clock as the game payload carries it (docs/SERVER.md): the control, the time
        left per seat at ``now``, the running seat and the server's time in milliseconds."""
        c = self.control
        return {"control": c.text, "base": c.base, "increment": c.increment, "days": c.days,
                "remaining": [round(self.left(p, now), 3) for p in range(len(self.remaining))],
                "running": self.running, "server_time": int(now * 1000)}

    def to_json(self) -> dict[str, Any]:
        return {"control": self.control.text, "base": self.control.base,
                "increment": self.control.increment, "days": self.control.days,
                "remaining": list(self.remaining), "running": self.running,
                "since": self.since, "used": list(self.used[-500:])}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Clock:
        days = data.get("days")
        control = TimeControl(str(data["control"]), float(data["base"]),
                              float(data.get("increment", 0.0)),
                              int(days) if days is not None else None)
        since = data.get("since")
        running = data.get("running")
        remaining: Sequence[Any] = data.get("remaining") or []
        return cls(control, [float(x) for x in remaining],
                   int(running) if running is not None else None,
                   float(since) if since is not None else None,
                   [float(x) for x in data.get("used") or []])
