"""Live updates between server processes: "game ``id`` is now at version ``v``".

Every committed write of a server process is announced on a channel; every process listens,
and reloads and pushes a game its sockets watch when the announced version is ahead of its own
(:mod:`rulebox.server.cluster`). Two carriers:

* :class:`PostgresBus` (the default on PostgreSQL): ``LISTEN``/``NOTIFY`` on the database the
  processes share, so no other server is needed. The notification is queued in the write's own
  transaction (:attr:`rulebox.server.store.Store.notify_channel`), so it is sent exactly when,
  and only if, the change commits.
* :class:`RedisBus` (``rulebox serve --pubsub redis://HOST``): Redis pub/sub, published right
  after each commit.

A message is ``<game id>:<version>``, or a presence message (``<game id>:p``,
``<game id>:e:<seat>:<notice>``, :mod:`rulebox.server.presence`). Messages lost while a listener
reconnects are made up for: on every (re)connection the cluster compares the versions of the
games it serves with storage and reads their presence again. With SQLite (one process) there is
no bus: a change is pushed in-process as before.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any, Protocol

from rulebox.core.numerals import plain_digits
from rulebox.i18n import _
from rulebox.server.store import Change, Store

CHANNEL = "rulebox_changes"
"""The channel (PostgreSQL) or pub/sub channel (Redis) of every server process."""

log = logging.getLogger("rulebox.server")

OnChange = Callable[[str, int], None]
"""Called in the event loop for each message: (game id, version)."""

OnPresence = Callable[[str, "int | None", "str | None"], None]
"""Called in the event loop for each presence message: (game id, seat, notice)."""


def parse(payload: str) -> tuple[str, int] | None:
    """``(game id, version)`` of a message, or ``None`` for anything else."""
    gid, sep, version = payload.rpartition(":")
    if not sep or not gid or not plain_digits(version) or len(gid) > 32:
        return None
    return gid, int(version)


NOTICE_KINDS = ("joined", "left", "back")
"""The presence notices a message may carry (:mod:`rulebox.server.attendance`)."""


def presence_message(gid: str, seat: int | None = None, kind: str | None = None) -> str:
    """The presence message: ``<gid>:p`` (read the game's presence again) or
    ``<gid>:e:<seat>:<kind>`` (a notice was decided)."""
    if kind is None or seat is None:
        return f"{gid}:p"
    return f"{gid}:e:{seat}:{kind}"


def parse_presence(payload: str) -> tuple[str, int | None, str | None] | None:
    """``(game id, seat, notice)`` of a presence message (``seat`` and ``notice`` ``None`` for
    ``<gid>:p``), or ``None`` for anything else."""
    parts = payload.split(":")
    if not parts[0] or len(parts[0]) > 32 or not parts[0].isalnum():
        return None
    if len(parts) == 2 and parts[1] == "p":
        return parts[0], None, None
    if (len(parts) == 4 and parts[1] == "e" and plain_digits(parts[2])
            and parts[3] in NOTICE_KINDS):
        return parts[0], int(parts[2]), parts[3]
    return None


class Bus(Protocol):
    """What the cluster needs of a carrier."""

    connected: bool

    def attach(self, store: Store) -> None:
        """Make ``store``'s writes publish their changes."""

    async def start(self, on_change: OnChange, on_connect: Callable[[], None],
                    on_presence: OnPresence | None = None) -> None:
        """Start listening; ``on_connect`` after every (re)connection."""

    async def publish(self, payload: str) -> None:
        """Send a message that is not a stored change (presence)."""

    async def close(self) -> None:
        """Stop listening and publishing."""


def _backoff(delay: float) -> float:
    return min(10.0, delay * 2)


def _dispatch(payload: str, on_change: OnChange, on_presence: OnPresence | None) -> None:
    """Hand a message to the callback of its kind (anything else is ignored)."""
    msg = parse(payload)
    if msg is not None:
        on_change(*msg)
        return
    if on_presence is not None:
        seen = parse_presence(payload)
        if seen is not None:
            on_presence(*seen)


class PostgresBus:
    """``LISTEN``/``NOTIFY`` on the shared database (psycopg 3, one connection per process)."""

    def __init__(self, sqlalchemy_url: str, channel: str = CHANNEL) -> None:
        from sqlalchemy.engine import make_url

        self.conninfo = make_url(sqlalchemy_url).set(drivername="postgresql").render_as_string(
            hide_password=False)
        self.channel = channel
        self.connected = False
        self._task: asyncio.Task[None] | None = None
        self._store: Store | None = None

    def attach(self, store: Store) -> None:
        store.notify_channel = self.channel
        self._store = store

    async def start(self, on_change: OnChange, on_connect: Callable[[], None],
                    on_presence: OnPresence | None = None) -> None:
        self._task = asyncio.get_running_loop().create_task(
            self._listen(on_change, on_connect, on_presence))

    async def publish(self, payload: str) -> None:
        """``NOTIFY`` outside a write (the cluster's own messages go in their write's
        transaction; this is for anything else)."""
        store = self._store
        if store is None:
            return
        from sqlalchemy import text

        def send() -> None:
            with store.engine.begin() as conn:
                conn.execute(text("SELECT pg_notify(:c, :p)"), {"c": self.channel, "p": payload})

        await asyncio.get_running_loop().run_in_executor(None, send)

    async def _listen(self, on_change: OnChange, on_connect: Callable[[], None],
                      on_presence: OnPresence | None) -> None:
        import psycopg

        delay = 0.5
        while True:
            try:
                conn = await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True)
                async with conn:
                    await conn.execute(f"LISTEN {self.channel}")
                    self.connected = True
                    delay = 0.5
                    on_connect()
                    async for note in conn.notifies():
                        _dispatch(note.payload, on_change, on_presence)
            except asyncio.CancelledError:
                raise
            except Exception as e:  # the database went away: listen again when it is back
                log.warning("rulebox: LISTEN %s lost (%s); retrying", self.channel, e)
            self.connected = False
            await asyncio.sleep(delay)
            delay = _backoff(delay)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        self.connected = False


class RedisBus:
    """Redis pub/sub (redis-py's asyncio client): ``--pubsub redis://host:6379/0``."""

    def __init__(self, url: str, channel: str = CHANNEL) -> None:
        self.url = url
        self.channel = channel
        self.connected = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._outbox: asyncio.Queue[str] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []

    def attach(self, store: Store) -> None:
        store.listeners.append(self._committed)

    def _committed(self, changes: list[Change]) -> None:
        """In the writing thread: hand the messages to the event loop's publisher."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        for gid, version, _n in changes:
            with contextlib.suppress(RuntimeError):  # the loop is stopping
                loop.call_soon_threadsafe(self._outbox.put_nowait, f"{gid}:{version}")

    async def start(self, on_change: OnChange, on_connect: Callable[[], None],
                    on_presence: OnPresence | None = None) -> None:
        import redis.asyncio as redis

        self._loop = asyncio.get_running_loop()
        client: Any = redis.from_url(self.url)
        self._client = client
        self._tasks = [self._loop.create_task(self._listen(client, on_change, on_connect,
                                                           on_presence)),
                       self._loop.create_task(self._publish(client))]

    @property
    def client(self) -> Any:
        """The Redis client (``None`` before :meth:`start`): the cluster's shared rate limits
        use it too."""
        return getattr(self, "_client", None)

    async def publish(self, payload: str) -> None:
        """Published in order with the changes (the same outbox)."""
        self._outbox.put_nowait(payload)

    async def _publish(self, client: Any) -> None:
        while True:
            payload = await self._outbox.get()
            for _attempt in range(3):
                try:
                    await client.publish(self.channel, payload)
                    break
                except asyncio.CancelledError:
                    raise
                except Exception as e:
                    log.warning("rulebox: publishing to Redis failed (%s)", e)
                    await asyncio.sleep(0.5)

    async def _listen(self, client: Any, on_change: OnChange,
                      on_connect: Callable[[], None], on_presence: OnPresence | None) -> None:
        delay = 0.5
        while True:
            try:
                pubsub = client.pubsub(ignore_subscribe_messages=True)
                async with pubsub:
                    await pubsub.subscribe(self.channel)
                    self.connected = True
                    delay = 0.5
                    on_connect()
                    async for message in pubsub.listen():
                        data = message.get("data")
                        if isinstance(data, bytes):
                            data = data.decode("utf-8", "replace")
                        if isinstance(data, str):
                            _dispatch(data, on_change, on_presence)
            except asyncio.CancelledError:
                raise
            except Exception as e:
                log.warning("rulebox: Redis subscription lost (%s); retrying", e)
            self.connected = False
            await asyncio.sleep(delay)
            delay = _backoff(delay)

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if getattr(self, "_client", None) is not None:
            with contextlib.suppress(Exception):
                await self._client.aclose()
        self.connected = False


def make_bus(db_url: str, pubsub: str | None) -> Bus:
    """The carrier for a shared database: Redis when ``pubsub`` is a ``redis://`` URL, else
    PostgreSQL's own ``LISTEN``/``NOTIFY``."""
    if pubsub and pubsub.startswith(("redis://", "rediss://", "unix://")):
        return RedisBus(pubsub)
    if pubsub and pubsub not in ("postgres", "postgresql"):
        raise ValueError(_("--pubsub is redis://... or postgres, not {value}")
                         .format(value=repr(pubsub)))
    return PostgresBus(db_url)
