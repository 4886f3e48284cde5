"""The ASGI application: the JSON API, a WebSocket per game and the static web client.

``create_app(db_url)`` builds it; ``rulebox serve`` runs it under Uvicorn. The API is described
at ``/openapi.json`` (and browsable at ``/docs``). Every refusal, down to a malformed body, an
unknown route or a wrong method, has the documented form ``{"error": {"code", "message"}}``.
Requests must name a trusted host (loopback by default: no DNS rebinding); every answer carries
a Content-Security-Policy, ``X-Frame-Options`` and ``Referrer-Policy``; clients are
rate-limited (429 ``rate_limited`` with ``retry_after``). See docs/SERVER.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from fastapi import Depends, FastAPI, Header, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from rulebox.core.registry import game_ids
from rulebox.i18n import LANGUAGES, _, catalog_json, negotiate, normalize, use_language
from rulebox.server import views
from rulebox.server.clock import Clock, SystemClock
from rulebox.server.cluster import Cluster
from rulebox.server.cluster import attach as attach_cluster
from rulebox.server.errors import ApiError
from rulebox.server.limits import Limits, RateLimiter
from rulebox.server.presence import Liveness
from rulebox.server.service import GameService
from rulebox.server.store import Store

MAX_BODY = 64 * 1024
"""Request bodies above this many bytes are refused (413)."""
BODY_TIMEOUT = 10.0
"""Seconds a request body may take to arrive (then 408): a body shorter than its
Content-Length does not hold a connection."""

GameId = Literal[tuple(game_ids())]  # type: ignore[valid-type]
"""The game ids, exactly."""

CSP = ("default-src 'self'; script-src 'self'{extra}; style-src 'self' 'unsafe-inline'; "
       "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
       "form-action 'self'; frame-ancestors 'none'")
"""The web client's Content-Security-Policy (its scripts and styles are files of its own)."""
DOCS_CSP = ("default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
            "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; img-src 'self' data: "
            "https://fastapi.tiangolo.com; frame-ancestors 'none'")
"""The API browser (``/docs``, ``/redoc``) loads FastAPI's scripts from their CDN."""

class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class NewGame(_Strict):
    """``POST /api/games``."""

    game: GameId = Field(description="game id")  # type: ignore[valid-type]
    options: dict[str, str | StrictInt | StrictBool] = Field(
        default_factory=dict, max_length=30, description="game options as key: value text; "
        "seed= or deck= make an arranged deal, announced to every seat")
    seats: list[str] = Field(min_length=1, max_length=8,
                             description="one per player: 'human' or an agent spec "
                             "name[:key=value,...]: 'computer', 'computer:easy|medium|hard', "
                             "'mcts:time=1,seed=3' (time= seconds a turn, capped by the "
                             "server: 5 s by default). At least one person by default.")
    hotseat: StrictBool = Field(False,
                                description="one screen for every human seat (allows undo)")
    clock: str | None = Field(None, max_length=12,
                              description="a time control: '5+3' (minutes + increment seconds "
                              "a move) or '3d' (days per move, correspondence); none by "
                              "default. A player whose time runs out loses (result.how "
                              "'time')")
    open: StrictBool = Field(False, description="list the game in the lobby: the other "
                             "people's seats are free until someone joins (a session needed)")
    rated: StrictBool = Field(False, description="rate the game when it ends (accounts only)")
    seat: StrictInt | None = Field(None, ge=0, le=7, description="the creator's seat (the "
                                   "first person's seat by default)")


class SeatToken(BaseModel):
    """A seat of a new game and its secret token (``null`` for a computer seat)."""

    player: int
    token: str | None
    kind: str
    label: str


class Created(BaseModel):
    """The answer to ``POST /api/games``."""

    id: str
    game: str
    seats: list[SeatToken]


class MineEntry(BaseModel):
    """A game this browser sits at: its id and the seat's token (``null``: watching). Other
    fields are ignored; a bad id or token only leaves that game out."""

    id: str = Field(max_length=200)
    token: str | None = Field(None, max_length=200)


class MineIn(_Strict):
    """``POST /api/games/mine``."""

    games: list[MineEntry] = Field(max_length=50, description="at most 50 games")


class MoveIn(_Strict):
    """``POST /api/games/{id}/moves``: the move text of PROTOCOL.md's notation."""

    move: str = Field(max_length=200, description="move text, e.g. 'Ra1'")
    player: StrictInt | None = Field(None, ge=0, le=7,
                                     description="optional: the seat the move is for")
    version: StrictInt | None = Field(
        None, ge=0, description="the game's version the move was made on (the payload's "
        "'version'); a stale one is refused with 409 'stale' and the current version. Clients "
        "should always send it: a retried or double click of one action of a multi-action "
        "turn is then never applied twice")


class UndoIn(_Strict):
    """``POST /api/games/{id}/undo`` (the body is optional)."""

    version: StrictInt | None = Field(None, ge=0,
                                      description="the version the undo was asked on")


class RematchIn(_Strict):
    """``POST /api/games/{id}/rematch`` (the body is optional)."""

    same_deal: StrictBool = Field(
        False, description="deal the same cards again (same seed, deck and roles); by "
        "default a fresh shuffle")


class DrawIn(_Strict):
    """``POST /api/games/{id}/draw``."""

    action: Literal["offer", "accept", "decline", "withdraw"] = Field(
        description="offer, accept, decline or withdraw")


class ErrorDetail(BaseModel):
    """What a refusal says: a short ``code``, a ``message`` for a person, and per code more
    (``rule`` and ``reason`` of an illegal move, ``version`` of a stale one, ``retry_after``
    seconds of a rate limit)."""

    model_config = ConfigDict(extra="allow")
    code: str
    message: str


class ErrorBody(BaseModel):
    """Every refusal: ``{"error": {"code", "message", ...}}``."""

    error: ErrorDetail


ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorBody} for code in (400, 401, 403, 404, 408, 409, 413, 422, 429)
}

HTTP_CODES = {400: "malformed", 404: "not_found", 405: "method_not_allowed",
              408: "timeout", 413: "oversized", 415: "malformed", 422: "malformed"}


class Guard:
    """The outer layer of every request: the ``Host`` must be trusted, the body arrives whole
    within :data:`BODY_TIMEOUT` and at most ``limit`` bytes (413, announced or streamed), and
    every answer carries the security headers."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY,
                 hosts: tuple[str, ...] = ("*",), body_timeout: float = BODY_TIMEOUT,
                 script_extra: str = "") -> None:
        self.app = app
        self.csp = CSP.format(extra=f" {script_extra}" if script_extra else "")
        self.limit = limit
        self.hosts = tuple(h.lower() for h in hosts)
        self.body_timeout = body_timeout

    def trusted(self, scope: Scope) -> bool:
        if "*" in self.hosts:
            return True
        host = ""
        for name, value in scope.get("headers", []):
            if name == b"host":
                host = value.decode("latin-1").strip().lower()
                break
        if host.startswith("["):
            host = host[1:].partition("]")[0]
        elif host.count(":") == 1:
            host = host.partition(":")[0]
        return host in self.hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        with use_language(request_language(scope)):
            await self._guarded(scope, receive, send)

    async def _guarded(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not self.trusted(scope):
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 4400, "reason": "bad host"})
                return
            await _refuse(send, ApiError(400, "bad_host", _("this server does not answer "
                                                            "for that host name")))
            return
        if scope["type"] == "websocket":
            await self.app(scope, receive, send)
            return
        path = scope.get("path", "")
        csp = DOCS_CSP if path in ("/docs", "/redoc") else self.csp

        async def headed(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers += [(b"content-security-policy", csp.encode()),
                            (b"x-frame-options", b"DENY"),
                            (b"referrer-policy", b"no-referrer"),
                            (b"x-content-type-options", b"nosniff")]
                message = {**message, "headers": headers}
            await send(message)

        for name, value in scope.get("headers", []):
            if name == b"content-length" and (not value.isdigit() or int(value) > self.limit):
                await _refuse(headed, ApiError(413, "oversized",
                                               _("requests are at most {limit} bytes").format(
                                                   limit=self.limit)))
                return
        chunks: list[bytes] = []
        seen = 0
        more = True
        deadline = asyncio.get_running_loop().time() + self.body_timeout  # the whole body
        while more:
            try:
                left = max(0.0, deadline - asyncio.get_running_loop().time())
                message = await asyncio.wait_for(receive(), left)
            except TimeoutError:
                await _refuse(headed, ApiError(408, "timeout", _("the request body did not "
                                                                 "arrive within "
                                                                 "{body_timeout:g} s").format(
                                                                   body_timeout=self.body_timeout)))
                return
            if message["type"] == "http.disconnect":
                return
            body = message.get("body", b"")
            seen += len(body)
            if seen > self.limit:
                await _refuse(headed, ApiError(413, "oversized",
                                               _("requests are at most {limit} bytes").format(
                                                   limit=self.limit)))
                return
            chunks.append(body)
            more = bool(message.get("more_body", False))
        whole = b"".join(chunks)
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": whole, "more_body": False}
            return await receive()

        await self.app(scope, replay, headed)


def request_language(scope: Scope) -> str:
    """The language of a request's texts: ``?lang=`` (the web client's switch), then
    ``Accept-Language``, then English."""
    query = scope.get("query_string", b"").decode("latin-1")
    for part in query.split("&"):
        key, _sep, value = part.partition("=")
        if key == "lang" and normalize(value):
            return normalize(value) or "en"
    for name, value in scope.get("headers", []):
        if name == b"accept-language":
            return negotiate(value.decode("latin-1")[:200]) or "en"
    return "en"


async def _refuse(send: Send, error: ApiError) -> None:
    body = json.dumps(error.body()).encode()
    headers = [(b"content-type", b"application/json"),
               (b"content-length", str(len(body)).encode())]
    if error.status == 408:
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": error.status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def _json(data: dict[str, Any]) -> Response:
    """Views are plain JSON already: skip FastAPI's generic encoder (it dominates the cost)."""
    return Response(json.dumps(data, separators=(",", ":")), media_type="application/json")


def _bearer(authorization: str | None) -> str | None:
    if authorization is None:
        return None
    scheme, _sep, token = authorization.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(401, "bad_token", _("use Authorization: Bearer <token>"))
    return token.strip()


def _check_id(gid: str) -> str:
    if not gid.isalnum() or len(gid) > 32 or not gid.isascii():
        raise ApiError(404, "no_such_game", _("there is no game with this id"))
    return gid


def web_root() -> Path:
    """The folder of the static web client."""
    return Path(str(resources.files("rulebox.web")))


def _client(request: Request) -> str:
    return request.client.host if request.client is not None else "?"


def create_app(db_url: str | None = None, limits: Limits | None = None,
               think_workers: int = 2, csp_script_extra: str = "",
               pubsub: str | None = None, job_lease: float | None = None,
               lobby_options: dict[str, Any] | None = None,
               clock: Clock | None = None) -> FastAPI:
    """The web application on storage at ``db_url`` (SQLite in the data directory if
    ``None``), within ``limits`` (:class:`rulebox.server.limits.Limits`). ``csp_script_extra``
    adds sources to the Content-Security-Policy's ``script-src`` (browser tests whose driver
    evaluates strings need ``'unsafe-eval'``; never for a real server). On PostgreSQL the
    process is one of a cluster (:mod:`rulebox.server.cluster`): live updates on ``pubsub``
    (``redis://...``, else ``LISTEN``/``NOTIFY``), computer turns as jobs under a lease of
    ``job_lease`` seconds. ``clock`` is the one clock every part reads
    (:mod:`rulebox.server.clock`; a :class:`~rulebox.server.clock.SystemClock` when ``None``,
    a test's :class:`~rulebox.server.clock.MockClock` to move time on without waiting), the
    lobby's wall time included. ``lobby_options`` go to :class:`rulebox.server.lobby.Lobby`
    (tests: a clock of its own, cheap password hashing, no background round)."""
    if not all(w.startswith("'") and w.endswith("'") and w[1:-1].replace("-", "").isalpha()
               for w in csp_script_extra.split()):
        raise ValueError("csp_script_extra is quoted keywords such as 'unsafe-eval'")
    limits = limits or Limits()
    clock = clock or SystemClock()
    state: dict[str, GameService] = {
        "svc": GameService(Store(db_url), think_workers=think_workers, limits=limits,
                           clock=clock)}
    cluster: Cluster | None = None
    if not state["svc"].store.is_sqlite:  # several processes may share the database
        cluster = attach_cluster(state["svc"], pubsub, job_lease)
    from rulebox.server.lobby import Lobby  # issue 27: players, open games, ratings, chat

    lobby = Lobby(state["svc"], **{"clock": state["svc"].clock.time,
                                   "abandon_grace": limits.abandon_grace,
                                   "abandon_grace_correspondence": limits.abandon_grace_days
                                   * 86400, **(lobby_options or {})})
    state["svc"].lobby = lobby
    warm = asyncio.Event()
    creations = RateLimiter(limits.create_per_minute / 60, limits.create_burst, name="create",
                            clock=clock)
    changes = RateLimiter(limits.moves_per_second, limits.moves_burst, name="moves",
                          clock=clock)
    if cluster is not None:  # one limit for all the processes
        cluster.share(creations, changes)

    async def limit_creation(request: Request) -> None:
        wait = await creations.wait(_client(request))
        if wait:
            raise ApiError(429, "rate_limited", _("too many new games from this "
                                                  "address; try again in {wait:.0f} s").format(
                                                    wait=wait), retry_after=round(wait, 1))

    async def limit_changes(request: Request) -> None:
        wait = await changes.wait(_client(request))
        if wait:
            raise ApiError(429, "rate_limited", _("too many moves from this address; slow down"),
                           retry_after=round(wait, 2))

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        warming = asyncio.get_running_loop().create_task(state["svc"].warm())
        warming.add_done_callback(lambda _task: warm.set())  # /readyz
        if cluster is not None:
            await cluster.start()
        lobby.start()
        try:
            yield
            warming.cancel()
        finally:
            await lobby.close()
            if cluster is not None:
                await cluster.close()
            await state["svc"].close()

    app = FastAPI(
        title="rulebox",
        version="1",
        summary="Five published board games played exactly by their rulebooks.",
        lifespan=lifespan,
    )

    app.state.svc = state["svc"]  # tests reach the service and its lobby
    app.state.lobby = lobby

    def svc() -> GameService:
        return state["svc"]

    async def who(request: Request) -> Any:
        """The session's person, if the request carries one (issue 27)."""
        from rulebox.server.lobby_api import check_origin, session_of

        token, cookie = session_of(request)
        if token is None:
            return None
        if cookie:
            check_origin(request)
        return await lobby.person(token)

    @app.exception_handler(ApiError)
    async def _api_error(_request: Request, exc: ApiError) -> JSONResponse:
        headers = ({"Retry-After": str(max(1, round(float(exc.extra["retry_after"]))))}
                   if "retry_after" in exc.extra else None)
        return JSONResponse(exc.body(), status_code=exc.status, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        errs = exc.errors()
        loc = tuple(errs[0].get("loc", ())) if errs else ()
        where = ".".join(str(x) for x in loc) or "body"
        msg = errs[0].get("msg", "invalid request") if errs else "invalid request"
        code = "malformed"
        if errs and errs[0].get("type") == "string_too_long" and loc == ("body", "move"):
            return JSONResponse(ApiError(413, "oversized", _("a move is at most 200 characters"))
                                .body(), status_code=413)
        if loc[-1:] == ("game",) and loc[:1] == ("body",):
            code = "unknown_game"
            msg = _("game must be one of {games}").format(games=", ".join(game_ids()))
        elif errs and errs[0].get("type") == "json_invalid":
            msg = _("the body is not valid JSON")
        return JSONResponse(ApiError(400, code, f"{where}: {msg}"[:200]).body(),
                            status_code=400)

    @app.exception_handler(StarletteHTTPException)
    async def _http(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = HTTP_CODES.get(exc.status_code, f"http_{exc.status_code}")
        text = exc.detail if isinstance(exc.detail, str) else "refused"
        if exc.status_code == 404:
            text = _("there is nothing at this address")
        elif exc.status_code == 405:
            text = _("this address does not take that method")
        elif exc.status_code == 400:
            text = _("the body is not valid JSON in UTF-8 (or nests or counts too deep)")
        return JSONResponse(ApiError(exc.status_code, code, text).body(),
                            status_code=exc.status_code, headers=exc.headers)

    @app.exception_handler(Exception)
    async def _crash(_request: Request, _exc: Exception) -> JSONResponse:
        return JSONResponse(ApiError(500, "internal", _("the server failed; try again")).body(),
                            status_code=500)

    # --- the API -------------------------------------------------------------------------------
    @app.get("/api/catalog", tags=["games"])
    async def catalog() -> dict[str, Any]:
        """Every game with its options and seats, the agents and the computer levels."""
        return svc().catalog()

    @app.get("/api/i18n/{lang}", tags=["games"], responses=ERRORS)
    async def i18n(lang: str) -> Response:
        """The message catalogue of a language (``en``, ``de``, ``ru``) for the web client:
        ``{"lang", "plural", "messages"}`` (docs/LANGUAGES.md)."""
        code = normalize(lang[:20])
        if code is None:
            raise ApiError(404, "unknown_language",
                           _("languages: {languages}").format(languages=', '.join(LANGUAGES)))
        return JSONResponse(catalog_json(code),
                            headers={"Cache-Control": "public, max-age=300"})

    @app.get("/api/rules/{game}", tags=["games"], responses=ERRORS)
    async def rules(game: str) -> dict[str, Any]:
        """The rules of a game in English with rule IDs, and its move notation."""
        return svc().rules(game[:40])

    @app.get("/api/assets/{game}/{name}", tags=["games"], responses=ERRORS)
    async def asset(game: str, name: str) -> Response:
        """A public data file of a game's package (e.g. Columba's card faces, ``deck.json``):
        the printed components, never a game's state (a shuffled order is state, not a file)."""
        return Response(views.asset(game[:40], name[:60]), media_type="application/json",
                        headers={"Cache-Control": "public, max-age=3600"})

    @app.get("/api/games", tags=["games"])
    async def recent(open: int = Query(0, ge=0, le=1),
                     played: bool = False) -> dict[str, Any]:
        """The most recently played games (to spectate); ``?played=1``: only games with a
        move, each with its seats' kinds and labels; ``?open=1``: the open games of the
        lobby, with their free seats (docs/SERVER.md)."""
        if open:
            return {"games": await svc().in_db(lobby.open_games)}
        return {"games": await svc().recent(20, played)}

    @app.post("/api/games", tags=["games"], response_model=Created, responses=ERRORS,
              dependencies=[Depends(limit_creation)])
    async def create(body: NewGame, request: Request) -> dict[str, Any]:
        """Start a game. The answer holds one secret token per human seat: the bearer of a
        token plays that seat (``Authorization: Bearer <token>``). With a session the
        creator's seat is named; ``open`` lists it in the lobby, ``rated`` rates it."""
        person = await who(request)
        if person is None and not (body.open or body.rated or body.seat is not None):
            return await svc().create(body.game, body.options, body.seats, body.hotseat,
                                      clock=body.clock)
        result: dict[str, Any] = await lobby.create(body.model_dump(), person)
        return result

    @app.post("/api/games/mine", tags=["games"], responses=ERRORS)
    async def mine(body: MineIn) -> Response:
        """The games this browser sits at, for the lobby's "your games": each with whose turn
        it is and the result when over. Unknown ids and bad tokens are left out."""
        return _json(await svc().mine([e.model_dump() for e in body.games]))

    @app.get("/api/games/{gid}", tags=["games"], responses=ERRORS)
    async def get_game(
        gid: str, authorization: str | None = Header(None)
    ) -> Response:
        """The game as the token's seat may see it (``view``, ``legal`` on its turn,
        ``history``, ``result``), or as a spectator without a token."""
        live = await svc().live(_check_id(gid))
        seat = live.seat_of(_bearer(authorization))
        async with live.lock:
            return _json(svc().payload(live, seat))

    @app.post("/api/games/{gid}/moves", tags=["games"], responses=ERRORS,
              dependencies=[Depends(limit_changes)])
    async def play(
        gid: str, body: MoveIn, authorization: str | None = Header(None)
    ) -> Response:
        """Play a move for the token's seat. Refused (4xx, nothing changes) when it is not
        that seat's turn, the move is malformed or illegal (with the rule ID), or the token
        is wrong."""
        return _json(await svc().play(_check_id(gid), _bearer(authorization), body.move,
                                      body.player, body.version))

    @app.post("/api/games/{gid}/undo", tags=["games"], responses=ERRORS,
              dependencies=[Depends(limit_changes)])
    async def undo(gid: str, body: UndoIn | None = None,
                   authorization: str | None = Header(None)) -> Response:
        """Take back your last move and the computer's replies (against the computer, or at a
        hot-seat table). Cards not yet seen are shuffled again: an undo never shows what
        comes next."""
        version = body.version if body is not None else None
        return _json(await svc().undo(_check_id(gid), _bearer(authorization), version))

    @app.post("/api/games/{gid}/resign", tags=["games"], responses=ERRORS,
              dependencies=[Depends(limit_changes)])
    async def resign(gid: str, authorization: str | None = Header(None)) -> Response:
        """Give up the game: the other side wins."""
        return _json(await svc().resign(_check_id(gid), _bearer(authorization)))

    @app.post("/api/games/{gid}/draw", tags=["games"], responses=ERRORS,
              dependencies=[Depends(limit_changes)])
    async def draw(gid: str, body: DrawIn, authorization: str | None = Header(None)
                   ) -> Response:
        """Draw by agreement: offer one, accept or decline the other side's offer (or
        withdraw one's own). A move lets a pending offer lapse; a computer accepts only when
        it is losing (409 ``declined`` otherwise)."""
        return _json(await svc().draw(_check_id(gid), _bearer(authorization), body.action))

    @app.post("/api/games/{gid}/rematch", tags=["games"], responses=ERRORS,
              dependencies=[Depends(limit_creation)])
    async def rematch(gid: str, body: RematchIn | None = None,
                      authorization: str | None = Header(None)) -> dict[str, Any]:
        """After the game: a new one with the same seats and tokens (``{"id"}``), freshly
        shuffled unless ``same_deal``; the game's own rematch rule sets its options where it
        has one (Count Red: CR-15)."""
        same = body.same_deal if body is not None else False
        return await svc().rematch(_check_id(gid), _bearer(authorization), same)

    @app.get("/api/games/{gid}/replay", tags=["games"], responses=ERRORS)
    async def replay(
        gid: str, ply: int = Query(0, ge=0, le=1_000_000),
        authorization: str | None = Header(None),
    ) -> Response:
        """The position after ``ply`` moves, as the token's seat (or a spectator) saw it."""
        return _json(await svc().replay(_check_id(gid), _bearer(authorization), ply))

    @app.get("/api/games/{gid}/explain", tags=["games"], responses=ERRORS)
    async def explain(
        gid: str, q: str = Query(..., max_length=40), authorization: str | None = Header(None),
    ) -> Response:
        """The game's explanation of a field or a move in the current position (Count Red:
        how the count comes out; Discs: why a move is or is not legal)."""
        return _json(await svc().explain(_check_id(gid), _bearer(authorization), q))

    @app.websocket("/api/games/{gid}/ws")
    async def socket(ws: WebSocket, gid: str, auth: str | None = None) -> None:
        """Pushes ``{"type": "state", ...}`` (the same as ``GET /api/games/{id}``, for the
        token's seat only) after every change. With ``?auth=first`` the token comes as the
        first message ``{"type": "auth", "token": ...}``; a token in the URL (``?token=``) is
        refused (close 4400): URLs end up in logs. No token: a spectator."""
        seat: int | None = None
        try:
            if "token" in ws.query_params:
                raise ApiError(400, "token_in_url", _("send the token in the first "
                                                      "message (?auth=first), never in "
                                                      "the URL"))
            live = await svc().live(_check_id(gid))
        except ApiError as e:
            await ws.close(code=4000 + e.status, reason=e.message[:100])
            return
        await ws.accept()
        try:
            if auth == "first":
                try:
                    hello = json.loads(await asyncio.wait_for(ws.receive_text(), 10))
                    given = hello.get("token") if isinstance(hello, dict) else None
                    seat = live.seat_of(given if isinstance(given, str) and given else None)
                except (ApiError, ValueError, TimeoutError):
                    await ws.close(code=4401, reason="bad token")
                    return
            first = await svc().attach(live, ws, seat)
            await ws.send_json({"type": "state", **first})
            # a quiet client is pinged; one that does not answer is closed (its seat goes)
            alive = Liveness(ws, limits.ws_ping, limits.ws_timeout, clock)
            while True:
                msg = await alive.receive()
                if msg is None:
                    break
                if len(msg) < 100 and "ping" in msg:  # the client checks the connection
                    await ws.send_json({"type": "pong",
                                        "server_time": int(clock.time() * 1000)})
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            svc().detach(live, ws)

    from rulebox.server.lobby_api import register as register_lobby  # issue 27
    register_lobby(app, svc, lambda: lobby, limit_changes)
    from rulebox.server.review import register as register_review  # issue 22
    register_review(app, svc)
    from rulebox.server.metrics import register as register_operations  # issue 20
    register_operations(app, svc, warm)

    # --- the web client ------------------------------------------------------------------------
    root = web_root()

    @app.get("/", include_in_schema=False)
    async def index() -> Response:
        return FileResponse(root / "index.html", headers={"Cache-Control": "no-cache"})

    @app.get("/game/{gid}", include_in_schema=False)
    async def game_page(gid: str) -> Response:
        return FileResponse(root / "index.html", headers={"Cache-Control": "no-cache"})

    app.mount("/static", StaticFiles(directory=root), name="static")
    app.add_middleware(Guard, limit=MAX_BODY, hosts=limits.trusted_hosts,
                       script_extra=csp_script_extra)
    return app
