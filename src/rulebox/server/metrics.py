"""What load balancers and monitoring ask of a server process: ``/healthz``, ``/readyz`` and
``/metrics`` (Prometheus text format, prometheus-client).

* ``GET /healthz``: 200 while the process runs its event loop (liveness), with its pid.
* ``GET /readyz``: 200 once the database answers, the think workers are warm and (with several
  processes) the bus of live updates is connected; 503 ``not_ready`` otherwise (readiness: a
  balancer sends no players to a process that cannot serve them yet).
* ``GET /metrics``: this process's figures. Each process has its own (``--workers N``:
  scrape each process through its own port, or sum over the processes behind one address as
  their counters are monotonic): ``rulebox_moves_total`` (moves committed; moves/s is its
  ``rate()``), ``rulebox_think_queue_length`` (decisions waiting for a think worker here),
  ``rulebox_jobs_waiting`` (computer turns in the database nobody holds, PostgreSQL),
  ``rulebox_think_wait_seconds`` and ``rulebox_job_wait_seconds`` (histograms of the waits),
  ``rulebox_websocket_clients``, ``rulebox_live_games`` and ``rulebox_request_seconds`` (a
  histogram of the request latency by method, route and status),
  ``rulebox_websocket_timeouts_total`` (sockets closed for not answering a ping) and
  ``rulebox_presence_remote_seats`` (seats of the games here with sockets on other processes).
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeVar

from fastapi.responses import JSONResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from rulebox.i18n import _
from rulebox.server.errors import ApiError

if TYPE_CHECKING:
    from fastapi import FastAPI

    from rulebox.server.service import GameService
    from rulebox.server.store import Change

T = TypeVar("T")

LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
WAIT_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)

_GAME_ROUTES = {"moves", "undo", "resign", "draw", "rematch", "replay", "explain", "ws",
                "review", "log", "clock"}


def route_of(path: str) -> str:
    """The route a path belongs to, with ids left out (a label of few values)."""
    parts = path.split("/")
    if path in ("/", "/healthz", "/readyz", "/metrics", "/api/catalog", "/api/games",
                "/openapi.json", "/docs"):
        return path
    if path.startswith("/static/"):
        return "/static"
    if path.startswith("/game/"):
        return "/game/{id}"
    if len(parts) >= 4 and parts[1:3] == ["api", "games"]:
        if len(parts) == 4:
            return "/api/games/{id}"
        if len(parts) == 5 and parts[4] in _GAME_ROUTES:
            return "/api/games/{id}/" + parts[4]
    if len(parts) >= 3 and parts[1] == "api" and parts[2] in ("rules", "assets", "i18n"):
        return f"/api/{parts[2]}"
    return "other"


class Metrics:
    """The figures of one server process (a registry of its own: several apps in one test
    process do not collide)."""

    def __init__(self, svc: GameService) -> None:
        from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

        self.svc = svc
        r = self.registry = CollectorRegistry()
        self.moves = Counter("rulebox_moves", "Moves committed by this process", registry=r)
        self.writes = Counter("rulebox_writes", "Changes of games committed by this process",
                              registry=r)
        Gauge("rulebox_think_queue_length", "Computer decisions waiting for a think worker "
              "of this process", registry=r).set_function(lambda: svc.queue.waiting())
        Gauge("rulebox_think_running", "Computer decisions being thought in this process",
              registry=r).set_function(lambda: svc.queue.running)
        Gauge("rulebox_jobs_waiting", "Computer turns in the database that no process holds "
              "(PostgreSQL; at this process's last look)", registry=r).set_function(
            lambda: svc.cluster.jobs_waiting if svc.cluster is not None else 0)
        Gauge("rulebox_websocket_clients", "WebSocket clients connected to this process",
              registry=r).set_function(
            lambda: svc.games.sockets())
        Gauge("rulebox_live_games", "Games held in memory by this process",
              registry=r).set_function(lambda: len(svc.games))
        self.think_wait = Histogram("rulebox_think_wait_seconds", "Seconds a computer "
                                    "decision waited for a think worker of this process",
                                    buckets=WAIT_BUCKETS, registry=r)
        self.job_wait = Histogram("rulebox_job_wait_seconds", "Seconds a computer turn waited "
                                  "in the database until a process took it (PostgreSQL)",
                                  buckets=WAIT_BUCKETS, registry=r)
        self.latency = Histogram("rulebox_request_seconds", "Seconds to answer a request",
                                 ["method", "route", "status"], buckets=LATENCY_BUCKETS,
                                 registry=r)
        r.register(_Liveness(svc))
        svc.store.listeners.append(self._committed)
        if svc.cluster is not None:
            svc.cluster.on_job_wait.append(self.job_wait.observe)
        self._time_queue()

    def _committed(self, changes: list[Change]) -> None:
        moves = sum(n for _gid, _v, n in changes)
        if moves:
            self.moves.inc(moves)
        self.writes.inc(len(changes))

    def _time_queue(self) -> None:
        """Observe how long each decision waits in the think queue (wraps its ``run``)."""
        queue = self.svc.queue
        run = queue.run
        observe = self.think_wait.observe

        async def timed_run(seconds: float, low: bool, job: Callable[[], Awaitable[T]]) -> T:
            asked = time.monotonic()

            async def started() -> T:
                observe(time.monotonic() - asked)
                return await job()

            return await run(seconds, low, started)

        queue.run = timed_run  # type: ignore[method-assign]

    def text(self) -> bytes:
        """The Prometheus text exposition."""
        from prometheus_client import generate_latest

        return bytes(generate_latest(self.registry))


class _Liveness:
    """The figures of sockets' liveness and the cluster's presence, read when scraped."""

    def __init__(self, svc: GameService) -> None:
        self.svc = svc

    def collect(self) -> Any:
        from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily

        from rulebox.server.presence import Liveness

        yield CounterMetricFamily("rulebox_websocket_timeouts", "WebSocket clients this "
                                  "process closed for not answering a ping",
                                  value=Liveness.closed)
        cluster = self.svc.cluster
        seats = sum(len(s) for s in cluster.presence.remote.values()) if cluster else 0
        yield GaugeMetricFamily("rulebox_presence_remote_seats", "Seats of the games held "
                                "here whose sockets are on other processes", value=seats)


class MetricsMiddleware:
    """Times every HTTP request (WebSockets are counted as clients, not timed)."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        status = 500

        async def sending(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            self.metrics.latency.labels(scope.get("method", "?"), route_of(scope.get("path", "")),
                                        str(status)).observe(time.perf_counter() - start)


def register(app: FastAPI, svc: Callable[[], GameService], ready: asyncio.Event) -> Metrics | None:
    """Add ``/healthz``, ``/readyz`` and ``/metrics`` to ``app`` and time its requests;
    ``ready`` is set once the think workers are warm. Answers the metrics (``None`` without
    prometheus-client: ``/metrics`` then answers 503)."""
    try:
        metrics: Metrics | None = Metrics(svc())
    except ImportError:
        metrics = None

    @app.get("/healthz", tags=["operations"])
    async def healthz() -> dict[str, Any]:
        """Liveness: the process answers (with its pid)."""
        return {"status": "ok", "pid": os.getpid()}

    @app.get("/readyz", tags=["operations"])
    async def readyz() -> Response:
        """Readiness: the database answers, the think workers are warm and (several processes)
        the bus of live updates is connected; 503 ``not_ready`` otherwise."""
        s = svc()
        checks: dict[str, bool] = {"warm": ready.is_set()}
        try:
            await asyncio.wait_for(s.in_db(s.store.ping), 5)
            checks["database"] = True
        except Exception:
            checks["database"] = False
        if s.cluster is not None:
            checks["bus"] = bool(s.cluster.bus.connected)
        if all(checks.values()):
            return JSONResponse({"status": "ready", "pid": os.getpid(), "checks": checks})
        failed = ", ".join(k for k, ok in checks.items() if not ok)
        err = ApiError(503, "not_ready", _("not ready: {checks}").format(checks=failed),
                       checks=checks)
        return JSONResponse(err.body(), status_code=503)

    @app.get("/metrics", tags=["operations"])
    async def metrics_text() -> Response:
        """This process's figures in the Prometheus text format."""
        if metrics is None:
            err = ApiError(503, "no_metrics", _("metrics need prometheus-client "
                                                "(pip install 'rulebox[web]')"))
            return JSONResponse(err.body(), status_code=503)
        return Response(metrics.text(), media_type="text/plain; version=0.0.4; charset=utf-8")

    if metrics is not None:
        app.add_middleware(MetricsMiddleware, metrics=metrics)
    return metrics
