"""The server's timers: clocks whose flag falls (the game ends on time even when nobody sends
anything, and after a restart from the stored deadline), and abandoned games ended after a while
(``--expire-after``, docs/SERVER.md)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from rulebox.server.clock import Clock, SystemClock
from rulebox.server.errors import ApiError
from rulebox.server.limits import Limits
from rulebox.server.live import LiveGame
from rulebox.server.storage import Storage

FLAG_SWEEP = 2.0
"""Seconds between looks in storage for clocks whose flag fell with no timer watching (after a
restart, or in a process that died): each is loaded, which ends it on time."""

TIMER_SLACK = 0.05
"""Seconds a flag timer waits past the deadline (so that the flag has surely fallen)."""


class Timers:
    """Flag timers per live game and the sweeps of storage for fallen flags and abandoned
    games. ``open_game`` loads a game by id (its loading settles its clock); ``broadcast``
    pushes a change."""

    def __init__(self, storage: Storage, limits: Limits,
                 open_game: Callable[[str], Awaitable[LiveGame]],
                 broadcast: Callable[[LiveGame], Coroutine[Any, Any, None]],
                 clock: Clock | None = None) -> None:
        self.storage = storage
        self.clock: Clock = clock or SystemClock()
        """The app's clock (:mod:`rulebox.server.clock`): flags fall and sweeps come on it."""
        self.limits = limits
        self.open_game = open_game
        self.broadcast = broadcast
        self._sweeper: asyncio.Task[None] | None = None
        self._flag_sweeper: asyncio.Task[None] | None = None
        self._closed = False

    def close(self) -> None:
        self._closed = True
        for task in (self._sweeper, self._flag_sweeper):
            if task is not None:
                task.cancel()

    # --- one game's clock ----------------------------------------------------------------------
    async def settle_time(self, live: LiveGame) -> bool:
        """End the game when the running seat's flag has fallen (a stored change like any
        other, then pushed), and keep the timer armed; answers whether it ended now."""
        table = live.table
        clock = table.clock
        ended = False
        if clock is not None and not table.over() and clock.flagged(self.clock.time()) is not None:
            async with live.lock:
                before = self.storage.snapshot(live)
                if live.table.check_time(self.clock.time()) is not None:
                    live.stop_computer()
                    try:
                        await self.storage.store_state(live, before)
                        ended = True
                    except ApiError:
                        pass  # storage failed: the table went back; the next request retries
            if ended:
                await self.broadcast(live)
        self.arm(live)
        return ended

    async def store_flag(self, live: LiveGame, before: dict[str, Any]) -> None:
        """The table ended the game on time while refusing a request (the flag fell between
        the request's arrival and its turn at the lock): store that ending and push it."""
        ending = live.table.ending
        if ending is None or ending.how != "time" or before.get("ending") is not None:
            return
        with contextlib.suppress(ApiError):  # storage failed: the table went back
            await self.storage.store_state(live, before)
            asyncio.get_running_loop().create_task(self.broadcast(live))

    def arm(self, live: LiveGame) -> None:
        """Keep one timer per live game whose clock runs: it ends the game on time even when
        nobody sends anything."""
        clock = live.table.clock
        at = clock.falls_at() if clock is not None and not live.table.over() else None
        task = live.clock_task
        if task is not None and not task.done():
            if at is not None and getattr(task, "rulebox_at", None) == at:
                return
            task.cancel()
        live.clock_task = None
        if at is None or self._closed:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        live.clock_task = loop.create_task(self._timer(live, at))
        live.clock_task.rulebox_at = at  # type: ignore[attr-defined]

    async def _timer(self, live: LiveGame, at: float) -> None:
        await self.clock.sleep(max(0.0, at - self.clock.time()) + TIMER_SLACK)
        live.clock_task = None
        with contextlib.suppress(Exception):
            await self.settle_time(live)

    # --- the sweeps of storage -----------------------------------------------------------------
    def start_sweepers(self) -> None:
        """Start looking for fallen flags and (with ``expire_after``) abandoned games."""
        if self._closed:
            return
        if self._sweeper is None and self.limits.expire_after > 0:
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep_loop())
        if self._flag_sweeper is None:
            self._flag_sweeper = asyncio.get_running_loop().create_task(self._flag_loop())

    async def _flag_loop(self) -> None:
        while not self._closed:
            await self.clock.sleep(FLAG_SWEEP)
            with contextlib.suppress(Exception):
                await self.end_fallen_flags()

    async def end_fallen_flags(self) -> int:
        """Load every unfinished game whose stored clock says its flag fell (loading ends it on
        time, stored and pushed): the timers a restart or a dead process lost. Answers how
        many games it looked at."""
        ids = await self.storage.in_db(self.storage.store.flags_fallen, self.clock.time(), 200)
        for gid in ids:
            with contextlib.suppress(ApiError):
                await self.open_game(gid)
        return len(ids)

    async def _sweep_loop(self) -> None:
        every = min(60.0, max(0.2, self.limits.expire_after / 10))
        while not self._closed:
            await self.clock.sleep(every)
            with contextlib.suppress(Exception):
                await self.expire_abandoned()

    async def expire_abandoned(self) -> int:
        """End every unfinished game whose last change is older than ``expire_after`` (the
        table's ending ``expired``, stored and pushed); answers how many."""
        if self.limits.expire_after <= 0:
            return 0
        store = self.storage.store
        ids = await self.storage.in_db(store.stale_unfinished, self.limits.expire_after, 200)
        done = 0
        for gid in ids:
            try:
                live = await self.open_game(gid)
            except ApiError:
                continue
            async with live.lock:
                table = live.table
                if table.over():
                    continue
                before = self.storage.snapshot(live)
                hours = self.limits.expire_after / 3600
                table.expire(f"abandoned: no move for {hours:g} hours")
                live.stop_computer()
                try:
                    await self.storage.store_state(live, before)
                except ApiError:  # another process changed (or expired) it first: skip it
                    continue
                done += 1
            await self.broadcast(live)
        return done
