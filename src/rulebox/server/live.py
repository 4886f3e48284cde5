"""The live games of one server process: each table held in memory while anyone uses it (storage
has the same state), with its stored seats, its sockets and its running tasks; and what the
service asks of a cluster, when it is one process of several (:mod:`rulebox.server.cluster`)."""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

from rulebox.core.game import Game
from rulebox.core.registry import GameEntry
from rulebox.i18n import _
from rulebox.match.table import Table
from rulebox.server.errors import ApiError
from rulebox.server.pubsub import Bus
from rulebox.server.seats import SeatRecord, hash_token

MAX_LIVE = 2000
"""Games kept in memory at most (idle ones beyond are reloaded from storage when needed)."""


@dataclass
class LiveGame:
    """A table held in memory while anyone uses it; storage has the same state."""

    id: str
    entry: GameEntry
    table: Table
    records: list[SeatRecord]
    hotseat: bool
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    sockets: dict[Any, int | None] = field(default_factory=dict)
    computer_task: asyncio.Task[None] | None = None
    used: float = field(default_factory=time.monotonic)
    rematch: str | None = None
    langs: dict[Any, str] = field(default_factory=dict)
    """Each socket's language (``?lang=`` on its URL, else its Accept-Language)."""
    clock_task: asyncio.Task[None] | None = None
    """The timer that ends the game when the running seat's flag falls."""
    seen: dict[int, str] = field(default_factory=dict)
    """Presence per seat: ``in`` once a socket of it came, ``left`` once its leaving was told."""
    leaving: dict[int, asyncio.Task[None]] = field(default_factory=dict)
    """The pending "left" notice per seat (cancelled when a socket of it comes back)."""
    log_texts: dict[str, tuple[list[str], list[str]]] = field(default_factory=dict)
    """Per language: the moves described so far and their texts (the move log's cache)."""

    @property
    def all_computer(self) -> bool:
        """Whether no person sits at the table."""
        return all(r.kind == "computer" for r in self.records)

    @property
    def game(self) -> Game:
        return self.table.game

    @property
    def version(self) -> int:
        return self.table.version

    def over(self) -> bool:
        """Whether the game has ended, by the rules or at the table."""
        return self.table.over()

    def seat_of(self, token: str | None) -> int | None:
        """The seat a token belongs to; ``None`` for no token. A bad token raises 401."""
        if token is None:
            return None
        h = hash_token(token)
        for i, seat in enumerate(self.records):
            if seat.token_hash is not None and secrets.compare_digest(seat.token_hash, h):
                return i
        raise ApiError(401, "bad_token", _("this token does not belong to a seat of this game"))

    def stop_computer(self) -> None:
        """Cancel the computer's turn under way (the game ended otherwise)."""
        if self.computer_task is not None:
            self.computer_task.cancel()
            self.computer_task = None


def new_id() -> str:
    """A fresh game id (letters and digits)."""
    return secrets.token_urlsafe(9).replace("-", "x").replace("_", "y")


class LiveGames:
    """The games this process holds in memory, at most :data:`MAX_LIVE` (the least recently
    used idle ones are forgotten: storage has them)."""

    def __init__(self) -> None:
        self._games: dict[str, LiveGame] = {}

    def get(self, gid: str) -> LiveGame | None:
        return self._games.get(gid)

    def __contains__(self, gid: object) -> bool:
        return gid in self._games

    def __len__(self) -> int:
        return len(self._games)

    def __iter__(self) -> Iterator[LiveGame]:
        return iter(list(self._games.values()))

    def add(self, live: LiveGame) -> None:
        """Hold ``live``; forget the least recently used idle games beyond :data:`MAX_LIVE`."""
        self._games[live.id] = live
        if len(self._games) <= MAX_LIVE:
            return
        idle = sorted((g for g in self._games.values()
                       if not g.sockets and g.computer_task is None and not g.lock.locked()),
                      key=lambda g: g.used)
        for g in idle[: len(self._games) - MAX_LIVE]:
            self._games.pop(g.id, None)

    def sockets(self) -> int:
        """The sockets connected to this process's games."""
        return sum(len(g.sockets) for g in self)


class PresenceLink(Protocol):
    """The cluster's presence as the service uses it (:class:`rulebox.server.presence.Presence`)."""

    @property
    def remote(self) -> dict[str, frozenset[int]]:
        """Per game: the seats other processes hold live sockets of."""

    def came(self, live: LiveGame, seat: int) -> None: ...

    def went(self, live: LiveGame, seat: int) -> None: ...

    def seats(self, live: LiveGame) -> frozenset[int]: ...


class ClusterLink(Protocol):
    """What the service asks of the cluster it is a process of
    (:class:`rulebox.server.cluster.Cluster`)."""

    @property
    def presence(self) -> PresenceLink: ...

    @property
    def bus(self) -> Bus: ...

    @property
    def jobs_waiting(self) -> int:
        """Free jobs in the whole cluster at the last look."""

    @property
    def on_job_wait(self) -> list[Any]:
        """Called with the seconds each job waited before this process took it."""

    async def refresh(self, live: LiveGame) -> None: ...

    def kick(self, live: LiveGame) -> None: ...
