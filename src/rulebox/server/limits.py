"""What the server allows, so that it can be opened to the internet (docs/SERVER.md):
caps on the computer's settings, all-computer games, per-client rate limits, the expiry of
abandoned games, trusted hosts, and the fair think queue.

Every limit is a field of :class:`Limits` (``rulebox serve`` sets them from its options); the
defaults suit a server for strangers on a small machine.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
import math
import os
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from rulebox.core.errors import OptionError
from rulebox.core.numerals import plain_digits
from rulebox.i18n import _
from rulebox.match.agents import AgentSpec
from rulebox.server.clock import Clock, SystemClock

T = TypeVar("T")

LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "::1")
"""The hosts trusted by default: the server answers only requests addressed to loopback."""

log = logging.getLogger("rulebox.server")



def env_seconds(name: str, default: float) -> float:
    """Seconds from the environment variable ``name`` (``default`` when unset or unreadable;
    0 is allowed: off)."""
    try:
        value = float(os.environ.get(name, ""))
    except ValueError:
        return default
    return value if math.isfinite(value) and value >= 0 else default


@dataclass(frozen=True)
class Limits:
    """The server's limits; see docs/SERVER.md for each."""

    max_time: float = 5.0
    """Seconds a computer's turn at most (``time=`` above it is refused; every computer seat
    thinks with a ``time=``, so that ``iterations=`` alone cannot run longer)."""
    max_iterations: int = 20_000
    """``iterations=`` at most."""
    all_computer: str = "refuse"
    """``refuse``: a game needs a person at the table; ``low``: all-computer games run at low
    priority (only on a think worker no person is waiting for), at most :attr:`quota` at once."""
    quota: int = 2
    """All-computer games unfinished at once at most (with ``all_computer="low"``)."""
    create_per_minute: float = 60.0
    """Games a client (an IP address) may create a minute (0: no limit)..."""
    create_burst: int = 30
    """...with this many at once."""
    moves_per_second: float = 20.0
    """Moves and other changes (undo, draw, resign) a client may send a second (0: no limit)..."""
    moves_burst: int = 60
    """...with this many at once."""
    expire_after: float = 7 * 24 * 3600.0
    """Seconds after its last change an unfinished game is ended as abandoned (0: never)."""
    trusted_hosts: tuple[str, ...] = LOOPBACK_HOSTS
    """``Host`` names the server answers (``*``: any); others get 400 ``bad_host``."""
    short_think: float = 1.0
    """A decision of at most this many seconds is short: one think worker is kept for short
    ones (when there are two or more), so a person facing ``easy`` never waits behind long
    searches."""
    abandon_grace: float = 60.0
    """Seconds every opponent of a seat must be gone before it may claim the game (issue
    27; untimed and timed games)..."""
    abandon_grace_days: float = 1.0
    """...and days with a correspondence clock."""
    ws_ping: float = field(default_factory=lambda: env_seconds("RULEBOX_WS_PING", 20.0))
    """Seconds a WebSocket client may be quiet before the server sends it
    ``{"type": "ping"}`` (0: never; environment ``RULEBOX_WS_PING``)..."""
    ws_timeout: float = field(default_factory=lambda: env_seconds("RULEBOX_WS_TIMEOUT", 20.0))
    """...and seconds it then has to send anything (e.g. ``{"type": "pong"}``) before the
    socket is closed (code 4408) and its seat counts as gone (``RULEBOX_WS_TIMEOUT``)."""

    def cap(self, spec: AgentSpec, *, strict: bool) -> AgentSpec:
        """``spec`` within the caps, with a ``time=`` always set. ``strict``: a setting above a
        cap raises ``OptionError`` (a new seat); otherwise it is lowered (a stored game)."""
        time_text = spec.get("time")
        seconds = self.max_time
        if time_text is not None:
            try:
                seconds = float(time_text)
            except ValueError:
                raise OptionError(_("time={time_text!r} is not a number of seconds").format(
                                      time_text=time_text[:20])) \
                    from None
            if not math.isfinite(seconds) or seconds <= 0:
                raise OptionError(_("time= is a positive number of seconds"))
            if seconds > self.max_time:
                if strict:
                    raise OptionError(_("time= is at most {max_time:g} s on this server").format(
                                          max_time=self.max_time))
                seconds = self.max_time
        extra = {"time": f"{seconds:g}"}
        its = spec.get("iterations")
        if its is not None:
            if not plain_digits(its):
                raise OptionError(_("iterations= is a whole number"))
            if int(its) > self.max_iterations:
                if strict:
                    raise OptionError(_("iterations= is at most {max_iterations} on "
                                        "this server").format(max_iterations=self.max_iterations))
                extra["iterations"] = str(self.max_iterations)
        return spec.with_settings(extra, override=True)


@dataclass
class Bucket:
    """A token bucket: ``rate`` a second, ``burst`` at most."""

    rate: float
    burst: float
    level: float
    at: float

    def take(self, now: float) -> float:
        """0 when a token was taken, else the seconds until one is there."""
        self.level = min(self.burst, self.level + (now - self.at) * self.rate)
        self.at = now
        if self.level >= 1:
            self.level -= 1
            return 0.0
        return (1 - self.level) / self.rate


class SharedBuckets(Protocol):
    """Token buckets that every process of a cluster shares (:mod:`rulebox.server.cluster`)."""

    async def take(self, key: str, rate: float, burst: float) -> float:
        """Take a token of bucket ``key``: 0 when taken, else the seconds until one is there."""


@dataclass
class RateLimiter:
    """Token buckets per client address; :meth:`check` answers the seconds to wait (0: go).
    With :attr:`shared` buckets (several processes) :meth:`wait` takes from those, so that the
    limit holds for the whole cluster; should they fail, this process's own count stands in."""

    rate: float
    burst: int
    buckets: dict[str, Bucket] = field(default_factory=dict)
    name: str = ""
    """The kind of request counted (``create``, ``moves``): the shared buckets' key prefix."""
    shared: SharedBuckets | None = None
    clock: Clock = field(default_factory=SystemClock, repr=False, compare=False)
    """The app's clock (:mod:`rulebox.server.clock`): the buckets fill on its seconds."""
    _warned: float = 0.0

    async def wait(self, client: str) -> float:
        """The seconds ``client`` must wait (0: go), in the shared buckets when there are."""
        if self.rate <= 0:
            return 0.0
        if self.shared is not None:
            try:
                return await self.shared.take(f"{self.name}:{client}", self.rate, self.burst)
            except Exception as e:  # the shared store is away: count here meanwhile
                if self.clock.monotonic() - self._warned > 60:
                    self._warned = self.clock.monotonic()
                    log.warning("rulebox: shared rate limits unavailable (%s); counting in "
                                "this process", e)
        return self.check(client)

    def check(self, client: str) -> float:
        if self.rate <= 0:
            return 0.0
        now = self.clock.monotonic()
        b = self.buckets.get(client)
        if b is None:
            if len(self.buckets) > 10_000:  # forget full buckets (idle clients)
                self.buckets = {k: v for k, v in self.buckets.items()
                                if v.level + (now - v.at) * v.rate < v.burst}
            b = self.buckets[client] = Bucket(self.rate, self.burst, self.burst, now)
        return b.take(now)


@dataclass(order=True)
class _Waiting:
    low: bool
    seconds: float
    seq: int
    go: asyncio.Event = field(compare=False)
    long: bool = field(compare=False)
    gone: bool = field(default=False, compare=False)


class ThinkQueue:
    """The fair think queue: ``slots`` think workers shared by every game.

    A waiting decision is started as soon as a worker is free, shortest budget first (a
    person waiting on ``easy`` goes before a 5 s search that asked earlier), people's games
    before all-computer ones (which use at most one worker, and take one only when no
    person's decision that could start there waits). With two or more workers one is kept
    for short decisions (at most :attr:`Limits.short_think` seconds), so a short one waits at
    most for another short one.
    Each game has at most one decision in the queue (its computer task thinks one at a time),
    so no game can queue many searches at once.
    """

    def __init__(self, slots: int, short: float) -> None:
        self.slots = max(1, slots)
        self.short = short
        self.running = 0
        self.running_long = 0
        self.running_low = 0
        self._heap: list[_Waiting] = []
        self._seq = itertools.count()

    def waiting(self) -> int:
        """Decisions waiting for a worker."""
        return sum(not w.gone for w in self._heap)

    async def run(self, seconds: float, low: bool, job: Callable[[], Awaitable[T]]) -> T:
        """Run ``job`` (a decision of ``seconds``) on a worker slot when its turn comes."""
        w = _Waiting(low, seconds, next(self._seq), asyncio.Event(), seconds > self.short)
        heapq.heappush(self._heap, w)
        self._dispatch()
        try:
            await w.go.wait()
        except BaseException:
            if w.go.is_set():
                self._release(w)
            else:
                w.gone = True
            raise
        try:
            return await job()
        finally:
            self._release(w)

    def _release(self, w: _Waiting) -> None:
        self.running -= 1
        self.running_long -= w.long
        self.running_low -= w.low
        self._dispatch()

    def _dispatch(self) -> None:
        skipped: list[_Waiting] = []
        while self.running < self.slots and self._heap:
            w = heapq.heappop(self._heap)
            if w.gone:
                continue
            if (w.long and self.slots > 1 and self.running_long >= self.slots - 1) or \
                    (w.low and self.running_low >= 1):
                skipped.append(w)
                continue
            self.running += 1
            self.running_long += w.long
            self.running_low += w.low
            w.go.set()
        for w in skipped:
            heapq.heappush(self._heap, w)


PG_BUCKETS = (
    "CREATE UNLOGGED TABLE IF NOT EXISTS rulebox_rate ("
    " key VARCHAR(200) PRIMARY KEY, level DOUBLE PRECISION NOT NULL,"
    " at DOUBLE PRECISION NOT NULL, ok BOOLEAN NOT NULL)"
)
"""The shared buckets on PostgreSQL: unlogged (no write-ahead log, no disk flush per request;
after a crash of PostgreSQL every bucket starts full again)."""

PG_TAKE = (
    "INSERT INTO rulebox_rate AS r (key, level, at, ok) "
    "VALUES (:k, CAST(:b AS float8) - 1, extract(epoch FROM clock_timestamp()), true) "
    "ON CONFLICT (key) DO UPDATE SET "
    "level = CASE WHEN least(:b, r.level + (EXCLUDED.at - r.at) * :r) >= 1 "
    "THEN least(:b, r.level + (EXCLUDED.at - r.at) * :r) - 1 "
    "ELSE least(:b, r.level + (EXCLUDED.at - r.at) * :r) END, "
    "at = EXCLUDED.at, ok = least(:b, r.level + (EXCLUDED.at - r.at) * :r) >= 1 "
    "RETURNING ok, level"
)
"""One token bucket step in one statement (the row is locked by the update, so two processes
never take the same token); the time is the database's, the same for every host."""


class PostgresBuckets:
    """:class:`SharedBuckets` in a small unlogged table of the shared database, one UPSERT a
    request (run in the server's database threads by ``run``)."""

    FORGET_EVERY = 300.0

    def __init__(self, engine: Any, run: Any) -> None:
        self.engine = engine
        self.run = run
        self._made = False
        self._forgot = time.monotonic()

    def create(self) -> None:
        from sqlalchemy import text

        with self.engine.begin() as conn:
            conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": 0x72B0C7})
            conn.execute(text(PG_BUCKETS))
        self._made = True

    def _take(self, key: str, rate: float, burst: float) -> float:
        from sqlalchemy import text

        if not self._made:
            self.create()
        with self.engine.begin() as conn:
            ok, level = conn.execute(text(PG_TAKE), {"k": key[:200], "r": float(rate),
                                                     "b": float(burst)}).one()
            if time.monotonic() - self._forgot > self.FORGET_EVERY:  # full buckets: idle
                self._forgot = time.monotonic()
                conn.execute(text("DELETE FROM rulebox_rate WHERE at < "
                                  "extract(epoch FROM clock_timestamp()) - :s"),
                             {"s": self.FORGET_EVERY})
        return 0.0 if ok else (1 - float(level)) / rate

    async def take(self, key: str, rate: float, burst: float) -> float:
        return float(await self.run(self._take, key, rate, burst))


REDIS_TAKE = """
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local b = redis.call('HMGET', KEYS[1], 'level', 'at')
local level = tonumber(b[1]) or burst
local at = tonumber(b[2]) or now
level = math.min(burst, level + math.max(0, now - at) * rate)
local wait = 0
if level >= 1 then level = level - 1 else wait = (1 - level) / rate end
redis.call('HSET', KEYS[1], 'level', tostring(level), 'at', tostring(now))
redis.call('EXPIRE', KEYS[1], math.ceil(burst / rate) + 1)
return tostring(wait)
"""
"""A token bucket step as one Lua script (atomic in Redis), on Redis's clock."""


class RedisBuckets:
    """:class:`SharedBuckets` in Redis (with ``--pubsub redis://...``): a hash per bucket,
    forgotten once it would be full again."""

    def __init__(self, client: Any, prefix: str = "rulebox:rate:") -> None:
        self.client = client
        self.prefix = prefix
        self._script: Any = None

    async def take(self, key: str, rate: float, burst: float) -> float:
        client = self.client() if callable(self.client) else self.client
        if client is None:
            raise RuntimeError("Redis is not connected yet")
        if self._script is None:
            self._script = client.register_script(REDIS_TAKE)
        wait = await self._script(keys=[self.prefix + key[:200]], args=[rate, burst])
        return float(wait.decode() if isinstance(wait, bytes) else wait)
