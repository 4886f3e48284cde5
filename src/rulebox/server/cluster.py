"""Several server processes on one PostgreSQL database (docs/SERVER.md, "Many processes").

The database is the single truth; a process's in-memory table is a cache of it:

* **Before a request** the process reads the game's stored version (one indexed read) and
  reloads the table when storage is ahead (:meth:`Cluster.refresh`).
* **A write** names the version it was made on; storage refuses it when another process got
  there first (:class:`rulebox.server.store.StaleWrite`). The process then reloads the game and
  answers 409 ``stale`` with the current version, the table's own answer to a move made on an
  old position (:meth:`rulebox.server.storage.Storage.overtaken`). So a move is applied once,
  whichever processes receive it.
* **Live updates** cross processes on a bus (:mod:`rulebox.server.pubsub`): a process that
  serves sockets of a game reloads it when a message says its version moved on, and pushes it.
* **Computer turns** are jobs in the database (``rulebox_jobs``): a process takes the oldest
  free one with ``SELECT ... FOR UPDATE SKIP LOCKED`` under a lease that it renews while it
  thinks. A process that dies mid-think leaves the job to be taken again when the lease
  expires (at once, when its holder is a process of this host that no longer exists), and the
  version check makes sure the move is made once even if two processes thought about it.
* **Presence** is the cluster's: each process writes its sockets' seats with a heartbeat and
  reads the others' (:mod:`rulebox.server.presence`); a notice is decided once.
* **Rate limits** are the cluster's: the buckets are in the database, or in Redis with
  ``--pubsub redis://`` (:meth:`Cluster.share`).

With SQLite there is no cluster (one process; the service's in-process path is unchanged).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from rulebox.server.errors import ApiError
from rulebox.server.limits import PostgresBuckets, RateLimiter, RedisBuckets, SharedBuckets
from rulebox.server.live import LiveGame
from rulebox.server.presence import Presence
from rulebox.server.processes import owner_id, pid_gone
from rulebox.server.pubsub import Bus, RedisBus, make_bus
from rulebox.server.service import GameService

log = logging.getLogger("rulebox.server")

DEFAULT_LEASE = 10.0
"""Seconds a process holds a computer's turn without renewing it (renewed every third of it)."""

POLL = 1.0
"""Seconds between looks at the job table when no message woke the process."""


class Cluster:
    """The machinery of one server process among several on a shared database."""

    def __init__(self, svc: GameService, bus: Bus, lease: float = DEFAULT_LEASE) -> None:
        self.svc = svc
        self.bus = bus
        self.lease = max(0.5, float(lease))
        self.owner = owner_id()
        self.host = self.owner.split(":")[0]
        self.running: dict[str, asyncio.Task[None]] = {}
        self.jobs_waiting = 0
        """Free jobs in the whole cluster at the last look."""
        self.on_job_wait: list[Any] = []
        """Called with the seconds each job waited before this process took it."""
        self._enqueued: dict[str, int] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._wake = asyncio.Event()
        self._loop_task: asyncio.Task[None] | None = None
        self._closed = False
        bus.attach(svc.store)
        self.presence = Presence(svc, bus, self.owner, self._spawn)
        """Which seats have sockets on any process (:mod:`rulebox.server.presence`)."""

    # --- starting and stopping -----------------------------------------------------------------
    async def start(self) -> None:
        """Listen on the bus and start taking computer turns."""
        await self.presence.start()
        await self.bus.start(self._changed, self._connected, self.presence.on_message)
        self._loop_task = asyncio.get_running_loop().create_task(self._job_loop())

    async def close(self) -> None:
        """Stop; the jobs this process holds go back to the others at once."""
        self._closed = True
        if self._loop_task is not None:
            self._loop_task.cancel()
        held = list(self.running)
        for task in list(self.running.values()) + list(self._tasks):
            task.cancel()
        await self.presence.close()
        await self.bus.close()
        for gid in held:
            with contextlib.suppress(Exception):
                await self.svc.in_db(self.svc.store.release_job, gid, self.owner)

    def _spawn(self, coro: Any) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def share(self, *limiters: RateLimiter) -> None:
        """Make ``limiters`` count for the whole cluster: their buckets in Redis when the bus is
        Redis, else in the shared database (one statement a limited request)."""
        bus = self.bus
        buckets: SharedBuckets
        if isinstance(bus, RedisBus):
            buckets = RedisBuckets(lambda: bus.client)
        else:
            buckets = PostgresBuckets(self.svc.store.engine, self.svc.in_db)
        for limiter in limiters:
            limiter.shared = buckets

    # --- keeping tables current ----------------------------------------------------------------
    async def refresh(self, live: LiveGame) -> None:
        """Reload ``live`` when storage holds a newer version (and push it to its sockets); note
        the seats other processes hold sockets of (read in the same round trip)."""
        if self.presence.ready:
            version, seats = await self.svc.in_db(self.presence.store.version_and_seats,
                                                   live.id, self.owner)
            moved = self.presence.set_remote(live, seats)
        else:
            version, moved = await self.svc.in_db(self.svc.store.version_of, live.id), False
        if version is None or version <= live.version:
            if moved and live.sockets:
                await self.svc.broadcast(live)
            return
        await self._catch_up(live, version)

    async def _catch_up(self, live: LiveGame, version: int) -> None:
        async with live.lock:
            if version <= live.version:
                return
            stored = await self.svc.in_db(self.svc.store.load, live.id)
            if stored is None or stored.version <= live.version:
                return
            self.svc.storage.reload(live, stored)
        await self.svc.broadcast(live)

    def _changed(self, gid: str, version: int) -> None:
        """A message of the bus: push a game whose sockets are here and that moved on."""
        self._wake.set()  # maybe a new job
        live = self.svc.held(gid)
        if live is not None and live.sockets and version > live.version:
            self._spawn(self._catch_up(live, version))

    def _connected(self) -> None:
        """After (re)connecting to the bus: catch up with what was missed meanwhile."""
        self._wake.set()
        for live in self.svc.games:
            if live.sockets:
                self._spawn(self.refresh(live))
        self._spawn(self.presence.look_quietly())

    # --- computer turns ------------------------------------------------------------------------
    def kick(self, live: LiveGame) -> None:
        """A computer is to move in ``live``: make sure the cluster has the job."""
        if self._closed or live.id in self.running or live.table.computer_to_move() is None:
            return
        version = live.version
        if self._enqueued.get(live.id) == version:
            return
        if len(self._enqueued) > 10_000:
            self._enqueued.clear()
        self._enqueued[live.id] = version
        self._spawn(self._enqueue(live.id, version))

    async def _enqueue(self, gid: str, version: int) -> None:
        for attempt in range(4):  # the database may be back in a moment
            try:
                await self.svc.in_db(self.svc.store.enqueue_job, gid, version)
                break
            except Exception as e:
                log.warning("rulebox: could not queue the computer's turn of %s: %s", gid, e)
                if attempt == 3 or self._closed:
                    self._enqueued.pop(gid, None)  # the next request tries again
                    return
                await asyncio.sleep(0.5 * 2 ** attempt)
        self._wake.set()

    async def _job_loop(self) -> None:
        store = self.svc.store
        last_check = 0.0
        while not self._closed:
            self._wake.clear()
            try:
                while len(self.running) < self.svc.queue.slots and not self._closed:
                    job = await self.svc.in_db(store.take_job, self.owner, self.lease)
                    if job is None:
                        break
                    gid, version, waited = job
                    for hook in self.on_job_wait:
                        hook(waited)
                    self._enqueued[gid] = version
                    self.running[gid] = asyncio.get_running_loop().create_task(
                        self._run(gid, version))
                if time.monotonic() - last_check > POLL:
                    last_check = time.monotonic()
                    for gid, holder in await self.svc.in_db(store.held_jobs, self.host + ":"):
                        if pid_gone(holder, self.host):  # died here: no need to wait
                            await self.svc.in_db(store.release_job, gid, holder)
                            self._wake.set()
                    self.jobs_waiting = await self.svc.in_db(store.waiting_jobs)
            except asyncio.CancelledError:
                raise
            except Exception as e:
                log.warning("rulebox: the job table cannot be read: %s", e)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), POLL)

    async def _renew(self, gid: str) -> None:
        while True:
            await asyncio.sleep(self.lease / 3)
            with contextlib.suppress(Exception):
                await self.svc.in_db(self.svc.store.renew_job, gid, self.owner, self.lease)

    async def _run(self, gid: str, version: int) -> None:
        """Think about the computer's turn of ``gid`` on ``version`` and play it."""
        svc = self.svc
        renew = asyncio.get_running_loop().create_task(self._renew(gid))
        done = True
        live: LiveGame | None = None
        try:
            live = await svc.live(gid)  # current: refreshed from storage
            async with live.lock:
                table = live.table
                decision = table.decision() if table.version == version else None
                state = table.to_json()
                snapshot = table.game.clone()
            if decision is not None:
                await svc.decide(live, decision, state, snapshot)
                await svc.broadcast(live)
        except asyncio.CancelledError:
            done = False
            raise
        except ApiError as e:
            done = e.code == "stale"  # another process moved first: this job is over
            if not done:
                log.warning("rulebox: the computer's turn of %s failed: %s", gid, e.message)
        except Exception as e:  # leave the job to be taken again
            done = False
            log.warning("rulebox: the computer's turn of %s failed: %s", gid, e)
        finally:
            renew.cancel()
            self.running.pop(gid, None)
            self._wake.set()
            if not self._closed:
                self._spawn(self._after(gid, version, done, live))

    async def _after(self, gid: str, version: int, done: bool, live: LiveGame | None) -> None:
        store = self.svc.store
        try:
            if done:
                await self.svc.in_db(store.finish_job, gid, version)
            else:
                await asyncio.sleep(1.0)  # not at once: a storage failure needs a moment
                await self.svc.in_db(store.release_job, gid, self.owner)
        except Exception as e:
            log.warning("rulebox: the job of %s could not be closed: %s", gid, e)
        if live is not None and done:
            self._enqueued.pop(gid, None)
            self.kick(live)  # the next computer's turn, if there is one


def attach(svc: GameService, pubsub: str | None = None, lease: float | None = None) -> Cluster:
    """Make ``svc`` (on PostgreSQL) one process of a cluster: updates on the bus of ``pubsub``
    (``redis://...``; PostgreSQL's ``LISTEN``/``NOTIFY`` by default), computer turns as jobs
    under a lease of ``lease`` seconds."""
    cluster = Cluster(svc, make_bus(svc.store.url, pubsub), lease or DEFAULT_LEASE)
    svc.cluster = cluster
    return cluster
