"""Who is at the table: the presence notices (``joined``, ``left``, ``back``) written once, and
one process's own part (a seat's socket came or went). In a cluster the notice is decided once
for every process (:mod:`rulebox.server.presence`), which makes its events with
:func:`notice_words` too."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from rulebox.i18n import N_
from rulebox.match.table import Table
from rulebox.match.words import Words
from rulebox.server.clock import Clock, SystemClock
from rulebox.server.live import ClusterLink, LiveGame

PRESENCE_GRACE = 4.0
"""Seconds a seat may be without a socket before the others are told it left (a reload, a
short network gap say nothing)."""

NOTICES = {"joined": N_("{name} joined"), "left": N_("{name} left"),
           "back": N_("{name} is back")}
"""The presence notices, each a message of the table's (said in each reader's language)."""


def notice_words(table: Table, seat: int, kind: str) -> Words:
    """The words of the notice ``kind`` about ``seat``."""
    return table.words(NOTICES[kind], name=seat)


def announce(live: LiveGame, seat: int, kind: str) -> None:
    """A presence notice in the table's events, not a change of the game (no new version)."""
    live.table.event(kind, notice_words(live.table, seat, kind), seat)


class Attendance:
    """The sockets of this process's seats coming and going; ``broadcast`` pushes a notice."""

    def __init__(self, broadcast: Callable[[LiveGame], Awaitable[None]],
                 grace: float = PRESENCE_GRACE, clock: Clock | None = None) -> None:
        self.broadcast = broadcast
        self.grace = grace
        self.clock: Clock = clock or SystemClock()
        """The app's clock (:mod:`rulebox.server.clock`): the grace period passes on it."""
        self.cluster: ClusterLink | None = None
        """Set when the process is one of a cluster: notices are decided there."""
        self._closed = False

    def close(self) -> None:
        self._closed = True

    def came(self, live: LiveGame, seat: int | None) -> bool:
        """A socket of ``seat`` came: cancel its pending "left"; answers whether to tell."""
        if seat is None or live.hotseat or live.records[seat].kind == "computer":
            return False
        pending = live.leaving.pop(seat, None)
        if pending is not None:
            pending.cancel()
        if self.cluster is not None:  # decided once for every process (server.presence)
            self.cluster.presence.came(live, seat)
            return False
        state = live.seen.get(seat)
        if state == "in":
            return False
        announce(live, seat, "back" if state == "left" else "joined")
        live.seen[seat] = "in"
        return True

    def went(self, live: LiveGame, seat: int | None) -> None:
        """The last socket of ``seat`` went: tell the others after the grace period."""
        if seat is None or live.hotseat or seat in live.sockets.values():
            return
        if self.cluster is not None and not self._closed:  # told once for every process
            self.cluster.presence.went(live, seat)
            return
        if seat in live.leaving or live.seen.get(seat) != "in":
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        live.leaving[seat] = loop.create_task(self._leave_later(live, seat))

    async def _leave_later(self, live: LiveGame, seat: int) -> None:
        await self.clock.sleep(self.grace)
        live.leaving.pop(seat, None)
        if seat in live.sockets.values() or self._closed:
            return
        async with live.lock:
            announce(live, seat, "left")
            live.seen[seat] = "left"
        await self.broadcast(live)
