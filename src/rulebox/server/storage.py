"""Committing and reloading tables: the one way the server's live games reach storage and come
back from it (:class:`rulebox.server.store.Store` holds the SQL).

Each accepted change is committed before it is acknowledged or pushed to anyone; a failed write
puts the table back as it was (503). Moves of many games that arrive while a commit is under way
are committed together in the next one (group commit). A write names the version it was made
on: when another process of a cluster got there first, the table is reloaded and the change is
refused with 409 ``stale`` (:meth:`Storage.overtaken`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from rulebox.core.errors import RuleboxError
from rulebox.core.registry import GameEntry, game_entry
from rulebox.i18n import _
from rulebox.match.table import Table
from rulebox.server.clock import Clock, SystemClock
from rulebox.server.errors import ApiError
from rulebox.server.limits import Limits
from rulebox.server.live import LiveGame
from rulebox.server.seats import SeatRecord
from rulebox.server.store import StaleWrite, Store

T = TypeVar("T")

BATCH = 500
"""Moves committed together at most."""


class Storage:
    """The live games' side of storage: one thread pool for the database, the group commit of
    moves, and the one loader of a stored table."""

    def __init__(self, store: Store, limits: Limits, clock: Clock | None = None) -> None:
        self.store = store
        self.limits = limits
        self.clock: Clock = clock or SystemClock()
        """The app's clock: the tables' chess clocks read its wall time."""
        self._db = ThreadPoolExecutor(1 if store.is_sqlite else 8, thread_name_prefix="rb-db")
        self._pending: list[tuple[tuple[Any, ...], asyncio.Future[None]]] = []
        self._writer: asyncio.Task[None] | None = None
        self._closed = False
        self.on_stored: list[Callable[[LiveGame], Awaitable[None]]] = []
        """Called after every stored change, with the game's lock held (issue 27's lobby)."""

    async def in_db(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(*args)`` (a call of the store) in the database's threads."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._db, lambda: fn(*args))

    def stop(self) -> None:
        """The server is stopping: moves that wait for a commit after the one under way fail."""
        self._closed = True

    def close(self) -> None:
        """Finish the writes under way and close the connections."""
        self.stop()
        self._db.shutdown(wait=True)
        self.store.close()

    # --- loading -------------------------------------------------------------------------------
    def table_of(self, stored: Any, records: list[SeatRecord]) -> Table:
        """The table of a stored game (:meth:`Store.load`), with ``records``' seats within the
        server's caps; 500 ``corrupt_game`` when it cannot be loaded."""
        try:
            table = Table.from_json(stored.state, [r.seat(stored.hotseat, self.limits)
                                                   for r in records])
        except (RuleboxError, KeyError, TypeError, ValueError) as e:
            raise ApiError(500, "corrupt_game", _("the stored game cannot be loaded: {error}")
                           .format(error=e)) from None
        table.version = max(table.version, stored.version)
        if stored.agreed and table.ending is None:  # stored before tables kept endings
            table.agree()
        return table

    async def load(self, gid: str) -> LiveGame | None:
        """The stored game ``gid`` as a live game (``None`` when there is none)."""
        stored = await self.in_db(self.store.load, gid)
        if stored is None:
            return None
        records = [SeatRecord.from_record(s) for s in stored.seats]
        try:
            entry = game_entry(stored.game)
        except RuleboxError as e:
            raise ApiError(500, "corrupt_game", _("the stored game cannot be loaded: {error}")
                           .format(error=e)) from None
        table = self.table_of(stored, records)
        table.time_source = self.clock.time
        return LiveGame(gid, entry, table, records, stored.hotseat, rematch=stored.rematch,
                        used=self.clock.monotonic())

    def reload(self, live: LiveGame, stored: Any) -> None:
        """Replace ``live``'s table by the stored one (call with the game's lock held), and its
        seats (a seat taken in an open game, issue 27)."""
        live.records = [SeatRecord.from_record(s) for s in stored.seats]
        live.table = self.table_of(stored, live.records)
        if getattr(stored, "rematch", None):
            live.rematch = stored.rematch

    async def overtaken(self, live: LiveGame) -> ApiError:
        """Another process changed the game first: reload it (the lock is held) and answer the
        table's refusal of a change made on an old version, 409 ``stale``."""
        stored = await self.in_db(self.store.load, live.id)
        if stored is not None:
            self.reload(live, stored)
        return ApiError(409, "stale", _("the game has changed (version {version}); look again")
                        .format(version=live.version), version=live.version)

    # --- committing ----------------------------------------------------------------------------
    async def create(self, gid: str, entry: GameEntry, table: Table, records: list[SeatRecord],
                     hotseat: bool) -> None:
        """Store a new game."""
        await self.in_db(self.store.create_game, gid, entry.id,
                         [s.to_record() for s in records], hotseat, table.to_json())

    @staticmethod
    def snapshot(live: LiveGame) -> dict[str, Any]:
        """The table as it is, to go back to when a change cannot be stored."""
        return live.table.to_json()

    @staticmethod
    def restore(live: LiveGame, snapshot: dict[str, Any]) -> None:
        source = live.table.time_source  # the app's clock, kept
        live.table = Table.from_json(snapshot, live.table.seats)
        live.table.time_source = source

    async def commit(self, live: LiveGame, before: dict[str, Any]) -> None:
        """Store the moves made since ``before``; on a storage failure go back to it."""
        table = live.table
        first = len(before["history"])
        history = [str(m) for m in table.game.history]
        done = [(table.movers[i], history[i]) for i in range(first, len(history))]
        try:
            await self._write_moves((live.id, first, done, table.to_json(), table.over(),
                                     table.version, before["version"]))
        except StaleWrite:  # another server process changed the game first
            raise await self.overtaken(live) from None
        except Exception:
            self.restore(live, before)
            raise ApiError(503, "storage", _("the move could not be stored; try again")) from None
        await self._stored(live)

    async def store_state(self, live: LiveGame, before: dict[str, Any]) -> None:
        """Store the table after a change that is not a move (undo, draw, resignation)."""
        table = live.table
        try:
            await self.in_db(self.store.save_state, live.id, len(table.game.history),
                             table.to_json(), table.over(), table.version,
                             table.ending.reason if table.ending is not None
                             and table.ending.how != "rules" else None, before["version"])
        except StaleWrite:  # another server process changed the game first
            raise await self.overtaken(live) from None
        except Exception:
            self.restore(live, before)
            raise ApiError(503, "storage", _("the change could not be stored; try again")) \
                from None
        await self._stored(live)

    async def _stored(self, live: LiveGame) -> None:
        """A change of ``live`` is stored: the hooks hear of it (the lobby counts and rates a
        game that ended before the change is answered, issue 27)."""
        for hook in self.on_stored:
            await hook(live)

    async def _write_moves(self, item: tuple[Any, ...]) -> None:
        """Store moves; returns once they are committed. Moves of many games that arrive while
        a commit is under way are committed together in the next one (group commit)."""
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append((item, fut))
        if self._writer is None:
            self._writer = asyncio.get_running_loop().create_task(self._write_loop())
        await fut

    async def _write_loop(self) -> None:
        try:
            while self._pending:
                batch, self._pending = self._pending[:BATCH], self._pending[BATCH:]
                try:
                    await self.in_db(self.store.record_batch, [item for item, _ in batch])
                except Exception:
                    # one at a time, so that one bad write fails only its own move
                    for item, fut in batch:
                        try:
                            await self.in_db(self.store.record_batch, [item])
                        except Exception as e:
                            if not fut.done():
                                fut.set_exception(e)
                        else:
                            if not fut.done():
                                fut.set_result(None)
                    continue
                for _, fut in batch:
                    if not fut.done():
                        fut.set_result(None)
        finally:
            self._writer = None
            for _, fut in self._pending if self._closed else []:
                if not fut.done():
                    fut.set_exception(RuntimeError("the server is stopping"))
