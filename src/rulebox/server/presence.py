"""Presence across the processes of a cluster (docs/SERVER.md, "Many processes").

With one process (SQLite) a seat is online when a socket of it is connected to that process
(:func:`rulebox.server.views.presence`). In a cluster a seat's socket may be on
any process, so each process writes its sockets' seats to the shared database and every
process reads the others':

* ``rulebox_presence`` has a row (game, seat, process) while the process holds a socket of the
  seat, with ``alive_until``: the process renews its rows every :data:`HEARTBEAT` seconds
  (``alive_until = now + TTL``). A process killed with SIGKILL stops renewing, so its seats stop
  counting at most :data:`TTL` seconds after its last renewal; the others notice at their next
  look (every :data:`HEARTBEAT` seconds), so within ``TTL + HEARTBEAT`` (20 s by default). A
  dead process of the same host is noticed at once at that look (its pid is gone).
* ``rulebox_presence_told`` keeps what the others were told of each seat (``in``, ``left``):
  a notice (``joined``, ``back``, ``left``) is decided by one conditional write, so exactly one
  process decides it, whichever processes see the change.
* The bus carries ``<game id>:p`` ("the presence of the game changed: read it again") and
  ``<game id>:e:<seat>:<kind>`` (a notice was decided). Every process that holds the game adds
  the notice to its table's events in the order of the bus and pushes its sockets, so a client
  gets the same notice once, whichever process it is connected to.

A payload's ``presence`` is the process's own sockets' seats plus the other processes' live
rows, read with the version check before each request (one round trip,
:meth:`PresenceStore.version_and_seats`) and again on each message and each look.

Both tables are ``UNLOGGED`` (no write-ahead log: nothing here needs to survive a crash of
PostgreSQL; the processes write their rows again at their next look).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
from collections.abc import Callable, Iterable
from typing import Any

from sqlalchemy import text
from sqlalchemy.engine import Engine

from rulebox.match.words import Event
from rulebox.server.attendance import PRESENCE_GRACE, announce, notice_words
from rulebox.server.clock import Clock, SystemClock
from rulebox.server.live import LiveGame
from rulebox.server.processes import pid_gone
from rulebox.server.pubsub import Bus, presence_message
from rulebox.server.service import GameService

log = logging.getLogger("rulebox.server")


def _env_seconds(name: str, default: float) -> float:
    """A number of seconds from the environment (``default`` when unset or unreadable)."""
    try:
        value = float(os.environ.get(name, ""))
    except ValueError:
        return default
    return value if value > 0 else default


TTL = _env_seconds("RULEBOX_PRESENCE_TTL", 15.0)
"""Seconds a process's presence rows count without being renewed (``RULEBOX_PRESENCE_TTL``)."""

HEARTBEAT = TTL / 3
"""Seconds between a process's renewals of its rows and looks at the others' (5 s)."""

Notice = Callable[[str, int, int], dict[str, Any]]
"""Makes a notice's stored event: (kind, its index in the table's events, the ply)."""

SCHEMA = (
    "CREATE UNLOGGED TABLE IF NOT EXISTS rulebox_presence ("
    " game_id VARCHAR(32) NOT NULL, seat INTEGER NOT NULL, owner VARCHAR(120) NOT NULL,"
    " alive_until TIMESTAMPTZ NOT NULL, PRIMARY KEY (game_id, seat, owner))",
    "CREATE INDEX IF NOT EXISTS rulebox_presence_owner ON rulebox_presence (owner)",
    "CREATE UNLOGGED TABLE IF NOT EXISTS rulebox_presence_told ("
    " game_id VARCHAR(32) NOT NULL, seat INTEGER NOT NULL, state VARCHAR(8) NOT NULL,"
    " PRIMARY KEY (game_id, seat))",
)

PRESENCE_LOCK = 0x72B0C6
"""The advisory lock held while a process makes the presence tables."""


class PresenceStore:
    """The presence tables (PostgreSQL), called from the server's database threads."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def create(self) -> None:
        """Make the tables (several processes starting at once make them once)."""
        with self.engine.begin() as conn:
            conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": PRESENCE_LOCK})
            for stmt in SCHEMA:
                conn.execute(text(stmt))

    @staticmethod
    def _store(conn: Any, gid: str, kind: str, notice: Notice | None) -> None:
        """Add a decided notice to the stored table's events (same version: not a change of
        the game), so that a process loading the game later has it too."""
        if notice is None:
            return
        row = conn.execute(text("SELECT state FROM rulebox_games WHERE id = :g FOR UPDATE"),
                           {"g": gid}).first()
        if row is None:
            return
        data = json.loads(row[0])
        if "table" not in data:  # stored before tables: no events
            return
        events = list(data.get("events") or [])
        count = int(data.get("event_count", len(events)))
        data["events"] = [*events, notice(kind, count, len(data.get("history") or []))][-50:]
        data["event_count"] = count + 1
        conn.execute(text("UPDATE rulebox_games SET state = :s WHERE id = :g"),
                     {"s": json.dumps(data), "g": gid})

    @staticmethod
    def _notify(conn: Any, channel: str | None, payloads: Iterable[str]) -> None:
        if channel is not None:
            for p in payloads:
                conn.execute(text("SELECT pg_notify(:c, :p)"), {"c": channel, "p": p})

    def sync(self, gid: str, seat: int, owner: str, here: bool, ttl: float,
             channel: str | None, notice: Notice | None = None) -> str | None:
        """Make the row of (``gid``, ``seat``, ``owner``) say ``here``, and when the seat came,
        decide its notice: ``joined`` (its first coming), ``back`` (after it was told gone) or
        ``None`` (nothing to tell, or it went). Sends the bus message in the same transaction
        (``channel``) and answers the notice (the message is ``<gid>:e:...`` then, else
        ``<gid>:p``); ``notice`` makes its event for the stored table."""
        with self.engine.begin() as conn:
            kind: str | None = None
            if here:
                conn.execute(text(
                    "INSERT INTO rulebox_presence (game_id, seat, owner, alive_until) "
                    "VALUES (:g, :s, :o, now() + :t * interval '1 second') "
                    "ON CONFLICT (game_id, seat, owner) DO UPDATE "
                    "SET alive_until = EXCLUDED.alive_until"),
                    {"g": gid, "s": seat, "o": owner, "t": ttl})
                row = conn.execute(text(
                    "INSERT INTO rulebox_presence_told (game_id, seat, state) "
                    "VALUES (:g, :s, 'in') ON CONFLICT (game_id, seat) DO UPDATE "
                    "SET state = 'in' WHERE rulebox_presence_told.state <> 'in' "
                    "RETURNING (xmax = 0)"), {"g": gid, "s": seat}).first()
                if row is not None:
                    kind = "joined" if row[0] else "back"
                    self._store(conn, gid, kind, notice)
            else:
                conn.execute(text("DELETE FROM rulebox_presence WHERE game_id = :g "
                                  "AND seat = :s AND owner = :o"),
                             {"g": gid, "s": seat, "o": owner})
            self._notify(conn, channel, [presence_message(gid, seat, kind)])
        return kind

    def leave(self, gid: str, seat: int, channel: str | None,
              notice: Notice | None = None) -> bool:
        """Decide ``left`` for a seat no process holds a live socket of, unless it was told
        already; answers whether this call decided it (then the message goes in the same
        transaction)."""
        with self.engine.begin() as conn:
            done = conn.execute(text(
                "UPDATE rulebox_presence_told SET state = 'left' "
                "WHERE game_id = :g AND seat = :s AND state = 'in' AND NOT EXISTS ("
                " SELECT 1 FROM rulebox_presence WHERE game_id = :g AND seat = :s"
                " AND alive_until > now())"), {"g": gid, "s": seat})
            told = bool(getattr(done, "rowcount", 0))
            if told:
                self._store(conn, gid, "left", notice)
                self._notify(conn, channel, [presence_message(gid, seat, "left")])
        return told

    def seats(self, gids: list[str], owner: str) -> dict[str, frozenset[int]]:
        """The seats of ``gids`` that other processes than ``owner`` hold live sockets of."""
        if not gids:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(text(
                "SELECT game_id, seat FROM rulebox_presence WHERE game_id = ANY(:g) "
                "AND owner <> :o AND alive_until > now()"), {"g": gids, "o": owner}).all()
        out: dict[str, set[int]] = {g: set() for g in gids}
        for gid, seat in rows:
            out[str(gid)].add(int(seat))
        return {g: frozenset(s) for g, s in out.items()}

    def version_and_seats(self, gid: str, owner: str) -> tuple[int | None, frozenset[int]]:
        """A game's stored version and the seats other processes hold live sockets of, in one
        round trip (the check before each request)."""
        with self.engine.connect() as conn:
            row = conn.execute(text(
                "SELECT (SELECT version FROM rulebox_games WHERE id = :g), "
                "ARRAY(SELECT DISTINCT seat FROM rulebox_presence WHERE game_id = :g "
                "AND owner <> :o AND alive_until > now())"), {"g": gid, "o": owner}).first()
        if row is None:
            return None, frozenset()
        return (None if row[0] is None else int(row[0])), frozenset(int(s) for s in row[1])

    def heartbeat(self, owner: str, rows: set[tuple[str, int]], ttl: float) -> None:
        """Renew ``owner``'s rows; when storage does not hold exactly ``rows`` (a write went
        astray, PostgreSQL restarted), write them all again. Forgets rows long expired."""
        with self.engine.begin() as conn:
            n = conn.execute(text(
                "UPDATE rulebox_presence SET alive_until = now() + :t * interval '1 second' "
                "WHERE owner = :o"), {"o": owner, "t": ttl})
            if getattr(n, "rowcount", -1) != len(rows):
                conn.execute(text("DELETE FROM rulebox_presence WHERE owner = :o"),
                             {"o": owner})
                if rows:
                    conn.execute(text(
                        "INSERT INTO rulebox_presence (game_id, seat, owner, alive_until) "
                        "VALUES (:g, :s, :o, now() + :t * interval '1 second') "
                        "ON CONFLICT (game_id, seat, owner) DO UPDATE "
                        "SET alive_until = EXCLUDED.alive_until"),
                        [{"g": g, "s": s, "o": owner, "t": ttl} for g, s in sorted(rows)])
            conn.execute(text("DELETE FROM rulebox_presence "
                              "WHERE alive_until < now() - interval '1 minute'"))

    def owners(self, prefix: str) -> list[str]:
        """The processes (``host:pid:...``) with rows whose name starts with ``prefix``."""
        with self.engine.connect() as conn:
            rows = conn.execute(text("SELECT DISTINCT owner FROM rulebox_presence "
                                     "WHERE owner LIKE :p"), {"p": prefix + "%"}).all()
        return [str(r[0]) for r in rows]

    def drop(self, owner: str, channel: str | None) -> list[str]:
        """Remove every row of ``owner`` (a process that stops, or died); answers the games
        (their messages go in the same transaction)."""
        with self.engine.begin() as conn:
            rows = conn.execute(text("DELETE FROM rulebox_presence WHERE owner = :o "
                                     "RETURNING game_id"), {"o": owner}).all()
            gids = sorted({str(r[0]) for r in rows})
            self._notify(conn, channel, [presence_message(g) for g in gids])
        return gids


class Presence:
    """One process's part of the cluster's presence (``Cluster.presence``): ``owner`` names
    the process, ``spawn`` runs a task of the cluster's."""

    def __init__(self, svc: GameService, bus: Bus, owner: str,
                 spawn: Callable[[Any], asyncio.Task[Any]], ttl: float = TTL,
                 grace: float | None = None) -> None:
        self.svc = svc
        self.bus = bus
        self.owner = owner
        self.host = owner.split(":")[0]
        self.spawn = spawn
        self.store = PresenceStore(self.svc.store.engine)
        self.ttl = ttl
        self.every = ttl / 3
        self.grace = PRESENCE_GRACE if grace is None else grace
        self.remote: dict[str, frozenset[int]] = {}
        """Per game: the seats other processes hold live sockets of (at the last read)."""
        self._locks: dict[str, asyncio.Lock] = {}
        self._task: asyncio.Task[None] | None = None
        self._closed = False
        self.ready = False
        """Whether the tables are there."""
        self.last_look = 0.0

    @property
    def channel(self) -> str | None:
        """PostgreSQL's channel (messages go in the write's transaction), else ``None``."""
        return self.svc.store.notify_channel

    # --- starting and stopping -----------------------------------------------------------------
    async def start(self) -> None:
        """Make the tables and start the heartbeat."""
        try:
            await self.svc.in_db(self.store.create)
            self.ready = True
        except Exception as e:  # the database is not there yet: the heartbeat tries again
            log.warning("rulebox: the presence tables cannot be made: %s", e)
        self._task = asyncio.get_running_loop().create_task(self._beat())

    async def close(self) -> None:
        """Stop; this process's rows go at once (the others are told)."""
        self._closed = True
        if self._task is not None:
            self._task.cancel()
        if self.ready:
            with contextlib.suppress(Exception):
                gids = await self.svc.in_db(self.store.drop, self.owner, self.channel)
                await self._publish([presence_message(g) for g in gids])

    async def _publish(self, payloads: list[str]) -> None:
        """Messages for a bus that does not send them in the write's transaction (Redis)."""
        if self.channel is None:
            for p in payloads:
                await self.bus.publish(p)

    def seats(self, live: LiveGame) -> frozenset[int]:
        """The seats of ``live`` other processes hold live sockets of."""
        return self.remote.get(live.id, frozenset())

    @staticmethod
    def _notice(live: LiveGame, seat: int) -> Notice:
        """The stored event of a notice about ``seat`` (as the table makes it)."""
        table = live.table

        def make(kind: str, index: int, ply: int) -> dict[str, Any]:
            words = notice_words(table, seat, kind)
            return Event(index, kind, words.shown(), seat, ply, words).to_json()

        return make

    def _lock(self, gid: str) -> asyncio.Lock:
        lock = self._locks.get(gid)
        if lock is None:
            if len(self._locks) > 10_000:
                self._locks = {g: k for g, k in self._locks.items() if k.locked()}
            lock = self._locks[gid] = asyncio.Lock()
        return lock

    # --- this process's sockets ----------------------------------------------------------------
    def came(self, live: LiveGame, seat: int) -> None:
        """A socket of ``seat`` came here (its notice, if any, is decided in storage)."""
        if not self._closed:
            self.spawn(self._sync(live, seat))

    def went(self, live: LiveGame, seat: int) -> None:
        """The last socket here of ``seat`` went: storage says so, and after the grace period
        the others are told, unless a socket of it is then connected to any process."""
        if self._closed:  # stopping: close() removes this process's rows at once
            return
        self.spawn(self._sync(live, seat))
        if seat not in live.leaving:
            live.leaving[seat] = asyncio.get_running_loop().create_task(
                self._leave_later(live, seat))

    async def _sync(self, live: LiveGame, seat: int) -> None:
        """Write whether this process holds a socket of ``seat`` now (one at a time per game,
        so the last write says the last state)."""
        async with self._lock(live.id):
            here = seat in live.sockets.values()
            for attempt in range(3):
                try:
                    kind = await self.svc.in_db(self.store.sync, live.id, seat, self.owner,
                                                 here, self.ttl, self.channel,
                                                 self._notice(live, seat))
                    await self._publish([presence_message(live.id, seat, kind)])
                    return
                except Exception as e:
                    log.warning("rulebox: presence of %s not stored: %s", live.id, e)
                    if attempt == 2 or self._closed:
                        return  # the heartbeat writes it again
                    await self.svc.clock.sleep(0.5 * 2 ** attempt)

    async def _leave_later(self, live: LiveGame, seat: int) -> None:
        try:
            await self.svc.clock.sleep(self.grace)
        finally:
            if live.leaving.get(seat) is asyncio.current_task():
                live.leaving.pop(seat, None)
        if self._closed or seat in live.sockets.values():
            return
        async with self._lock(live.id):  # after this process's own write
            pass
        with contextlib.suppress(Exception):
            if await self.svc.in_db(self.store.leave, live.id, seat, self.channel,
                                     self._notice(live, seat)):
                await self._publish([presence_message(live.id, seat, "left")])

    # --- the others' -----------------------------------------------------------------------------
    def on_message(self, gid: str, seat: int | None, kind: str | None) -> None:
        """A presence message of the bus (in the event loop, in the bus's order)."""
        live = self.svc.held(gid)
        if live is None:
            return
        if seat is not None and kind is not None and 0 <= seat < len(live.records):
            # every process holding the game adds the notice, in the bus's order
            announce(live, seat, kind)
            if kind == "left":
                live.seen[seat] = "left"
        self.spawn(self._reread(live, seat is not None))

    async def _reread(self, live: LiveGame, push: bool) -> None:
        try:
            seats = (await self.svc.in_db(self.store.seats, [live.id], self.owner))[live.id]
        except Exception as e:
            log.warning("rulebox: presence of %s cannot be read: %s", live.id, e)
            seats = self.remote.get(live.id, frozenset())
        if self.set_remote(live, seats) or push:
            await self.svc.broadcast(live)

    def set_remote(self, live: LiveGame, seats: frozenset[int]) -> bool:
        """Note the seats other processes hold sockets of; answers whether they changed. A seat
        gone from them and not here is told ``left`` after the grace period (perhaps its
        process died), unless some process decided that already."""
        before = self.remote.get(live.id, frozenset())
        self.remote[live.id] = seats
        for seat in before - seats:
            if seat not in live.sockets.values() and seat not in live.leaving \
                    and not self._closed:
                live.leaving[seat] = asyncio.get_running_loop().create_task(
                    self._leave_later(live, seat))
        return before != seats

    async def _beat(self) -> None:
        while not self._closed:
            await self.svc.clock.sleep(self.every)
            try:
                await self.look()
            except asyncio.CancelledError:
                raise
            except Exception as e:
                log.warning("rulebox: presence heartbeat failed: %s", e)

    async def look_quietly(self) -> None:
        """:meth:`look`, a failure only logged (after the bus reconnected)."""
        try:
            await self.look()
        except Exception as e:
            log.warning("rulebox: presence cannot be read: %s", e)

    async def look(self) -> None:
        """Renew this process's rows, forget those of dead processes of this host, and read the
        others' seats of the games with sockets here (pushing changes; a seat that is gone from
        every process is told ``left`` after the grace period)."""
        svc = self.svc
        if not self.ready:
            await svc.in_db(self.store.create)
            self.ready = True
        games = [g for g in svc.games if g.sockets]
        rows = {(g.id, s) for g in games for s in set(g.sockets.values())
                if s is not None and not g.hotseat}
        await svc.in_db(self.store.heartbeat, self.owner, rows, self.ttl)
        host = self.host
        for other in await svc.in_db(self.store.owners, host + ":"):
            if pid_gone(other, host):  # died on this host: no need to wait for its rows
                gids = await svc.in_db(self.store.drop, other, self.channel)
                await self._publish([presence_message(g) for g in gids])
        seats = await svc.in_db(self.store.seats, [g.id for g in games], self.owner)
        for live in games:
            if self.set_remote(live, seats.get(live.id, frozenset())):
                await svc.broadcast(live)
        for gid in [g for g in self.remote if g not in svc.games]:
            self.remote.pop(gid, None)
        self.last_look = svc.clock.monotonic()


class Liveness:
    """The server's side of a WebSocket's liveness: a client quiet for ``every`` seconds is sent
    ``{"type": "ping", "server_time": ms}`` and must send anything (the web client answers
    ``{"type": "pong"}``; its own pings count too) within ``timeout`` seconds, or the socket is
    closed with code 4408 and :meth:`receive` answers ``None`` (the seat then counts as gone,
    like any closed socket). A phone gone off the network or a half-open connection is so
    closed within ``every + timeout`` seconds of its last message. ``every`` 0: no pings. The
    seconds are those of ``clock`` (the app's, :mod:`rulebox.server.clock`)."""

    CLOSE_CODE = 4408
    closed = 0
    """Sockets this process closed for not answering (``rulebox_websocket_timeouts_total``)."""

    def __init__(self, ws: Any, every: float, timeout: float,
                 clock: Clock | None = None) -> None:
        self.ws = ws
        self.every = max(0.0, every)
        self.timeout = max(0.05, timeout)
        self.clock: Clock = clock or SystemClock()
        self.heard_at = self.clock.monotonic()
        self.pinged_at: float | None = None
        self._pending: asyncio.Future[str] | None = None

    async def receive(self) -> str | None:
        """The client's next text message, or ``None`` once it failed to answer a ping."""
        while True:
            if self._pending is None:
                self._pending = asyncio.ensure_future(self.ws.receive_text())
            if self.every <= 0:
                return await self._take()
            now = self.clock.monotonic()
            if self.pinged_at is None and now - self.heard_at >= self.every:
                self.pinged_at = now
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(self.ws.send_json(
                        {"type": "ping", "server_time": int(self.clock.time() * 1000)}),
                        self.timeout)
            due = (self.pinged_at + self.timeout if self.pinged_at is not None
                   else self.heard_at + self.every)
            try:
                await self.clock.wait_for(asyncio.shield(self._pending),
                                          max(0.0, due - self.clock.monotonic()))
            except TimeoutError:
                if self.pinged_at is not None and self.clock.monotonic() >= due:
                    await self._close()
                    return None
                continue
            return await self._take()

    async def _take(self) -> str:
        assert self._pending is not None
        try:
            return await self._pending
        finally:
            self._pending = None
            self.heard_at = self.clock.monotonic()
            self.pinged_at = None

    async def _close(self) -> None:
        Liveness.closed += 1
        if self._pending is not None:
            self._pending.cancel()
            self._pending = None
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.ws.close(code=self.CLOSE_CODE,
                                                 reason="no answer to ping"), 2.0)
