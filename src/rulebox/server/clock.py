"""The server's one source of time: a monotonic clock (intervals, deadlines), the wall time (what
clients are told, stored deadlines such as a chess clock's flag) and waiting on the monotonic one.

``create_app`` makes one :class:`SystemClock` (or takes the one it is given) and hands it to every
part that reads time: socket pings and their timeouts, presence's heartbeat, TTLs and grace, the
expiry and flag rounds, the rate limits' buckets, the computer's think budget. A test gives a
:class:`MockClock` instead and moves it on with :meth:`MockClock.advance` (as Trio's
``MockClock`` does): a 20 s ping timeout then takes a millisecond, and nothing is slept for.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import threading
import time
from collections.abc import Awaitable
from typing import Protocol, TypeVar

T = TypeVar("T")


class Clock(Protocol):
    """What the server reads time from."""

    def monotonic(self) -> float:
        """Seconds on a clock that never goes back (only differences mean anything)."""
        ...

    def time(self) -> float:
        """Wall time: seconds since the epoch."""
        ...

    async def sleep(self, seconds: float) -> None:
        """Wait ``seconds`` on :meth:`monotonic`."""
        ...

    async def wait_for(self, aw: Awaitable[T], timeout: float) -> T:
        """``aw``'s result, or ``TimeoutError`` once ``timeout`` seconds of this clock passed
        first (``aw`` is then cancelled, as :func:`asyncio.wait_for` does)."""
        ...


class SystemClock:
    """The real clocks: :func:`time.monotonic`, :func:`time.time`, :func:`asyncio.sleep`."""

    def monotonic(self) -> float:
        return time.monotonic()

    def time(self) -> float:
        return time.time()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(max(0.0, seconds))

    async def wait_for(self, aw: Awaitable[T], timeout: float) -> T:
        return await asyncio.wait_for(aw, max(0.0, timeout))


class MockClock:
    """A clock that moves only when told: :meth:`advance` (from any thread: a test's, while the
    app runs in another thread's event loop) wakes every sleeper whose time has come. Starts at
    ``monotonic`` 0 and wall time ``wall`` (1 January 2026 by default)."""

    def __init__(self, wall: float = 1_767_225_600.0) -> None:
        self._now = 0.0
        self._wall0 = wall
        self._lock = threading.Lock()
        self._order = itertools.count()
        self._sleepers: list[tuple[float, int, asyncio.Future[None],
                                   asyncio.AbstractEventLoop]] = []

    def monotonic(self) -> float:
        return self._now

    def time(self) -> float:
        return self._wall0 + self._now

    @property
    def sleepers(self) -> int:
        """How many waits are pending (a test may wait for the server to be waiting)."""
        with self._lock:
            return sum(not fut.done() for _at, _n, fut, _loop in self._sleepers)

    async def sleep(self, seconds: float) -> None:
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[None] = loop.create_future()
        with self._lock:
            heapq.heappush(self._sleepers, (self._now + seconds, next(self._order), fut, loop))
        await fut

    async def wait_for(self, aw: Awaitable[T], timeout: float) -> T:
        task = asyncio.ensure_future(aw)
        timer = asyncio.ensure_future(self.sleep(timeout))
        try:
            await asyncio.wait({task, timer}, return_when=asyncio.FIRST_COMPLETED)
        except asyncio.CancelledError:
            task.cancel()
            raise
        finally:
            timer.cancel()
        if task.done():
            return task.result()
        task.cancel()
        raise TimeoutError

    def advance(self, seconds: float) -> None:
        """Move the clock on by ``seconds`` and wake the sleepers whose time has come."""
        if seconds < 0:
            raise ValueError("a clock does not go back")
        with self._lock:
            self._now += seconds
            due = []
            while self._sleepers and self._sleepers[0][0] <= self._now:
                due.append(heapq.heappop(self._sleepers))
        for _at, _n, fut, loop in due:
            if not loop.is_closed():
                loop.call_soon_threadsafe(_wake, fut)


def _wake(fut: asyncio.Future[None]) -> None:
    if not fut.done():
        fut.set_result(None)
