"""The ASGI application: the JSON API, a WebSocket per game and the static web client.

``create_app(db_url)`` builds it; ``rulebox serve`` runs it under Uvicorn. The API is described
at ``/openapi.json`` (and browsable at ``/docs``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Header, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from rulebox.server.service import ApiError, GameService
from rulebox.server.store import Store

MAX_BODY = 64 * 1024
"""Request bodies above this many bytes are refused (413)."""

class NewGame(BaseModel):
    """``POST /api/games``."""

    game: str = Field(description="game id, e.g. columns, 36to1, countred, columba, discs")
    options: dict[str, Any] = Field(default_factory=dict,
                                    description="game options as key: value text")
    seats: list[str] = Field(description="one per player: 'human' or an agent spec "
                             "name[:key=value,...]: 'computer', 'computer:easy|medium|hard', "
                             "'mcts:time=1,seed=3' (time= seconds a turn)")
    hotseat: bool = Field(False, description="one screen for every human seat (allows undo)")


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


class MoveIn(BaseModel):
    """``POST /api/games/{id}/moves``: the move text of PROTOCOL.md's notation."""

    move: Any = Field(description="move text, e.g. 'Ra1'")
    player: int | None = Field(None, description="optional: the seat the move is for")
    version: Any = Field(None, description="the game's version the move was made on (the "
                         "payload's 'version'); a stale one is refused with 409 'stale' and the "
                         "current version. Clients should always send it: a retried or double "
                         "click of one action of a multi-action turn is then never applied twice")


class UndoIn(BaseModel):
    """``POST /api/games/{id}/undo`` (the body is optional)."""

    version: Any = Field(None, description="the version the undo was asked on")


class RematchIn(BaseModel):
    """``POST /api/games/{id}/rematch`` (the body is optional)."""

    same_deal: bool = Field(False, description="deal the same cards again (same seed, deck and "
                            "roles); by default a fresh shuffle")


class DrawIn(BaseModel):
    """``POST /api/games/{id}/draw``."""

    action: str = Field(description="offer, accept, decline or withdraw")


class ErrorBody(BaseModel):
    """Every refusal: ``{"error": {"code", "message", "rule"?, "reason"?}}``."""

    error: dict[str, Any]


ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorBody} for code in (400, 401, 403, 404, 409, 413, 422)
}


class BodyLimit:
    """Refuse request bodies above ``limit`` bytes with 413, whether announced or streamed."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", []):
            if name == b"content-length" and (not value.isdigit() or int(value) > self.limit):
                await _refuse_big(send)
                return
        seen = 0
        started = False

        async def limited() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise _TooBig
            return message

        async def watch(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, limited, watch)
        except _TooBig:
            if not started:
                await _refuse_big(send)


class _TooBig(Exception):
    pass


async def _refuse_big(send: Send) -> None:
    body = json.dumps(ApiError(413, "oversized", f"requests are at most {MAX_BODY} bytes")
                      .body()).encode()
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


def _json(data: dict[str, Any]) -> Response:
    """Views are plain JSON already: skip FastAPI's generic encoder (it dominates the cost)."""
    return Response(json.dumps(data, separators=(",", ":")), media_type="application/json")


def _bearer(authorization: str | None) -> str | None:
    if authorization is None:
        return None
    scheme, _, token = authorization.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(401, "bad_token", "use Authorization: Bearer <token>")
    return token.strip()


def _check_id(gid: str) -> str:
    if not gid.isalnum() or len(gid) > 32 or not gid.isascii():
        raise ApiError(404, "no_such_game", "there is no game with this id")
    return gid


def web_root() -> Path:
    """The folder of the static web client."""
    return Path(str(resources.files("rulebox.web")))


def create_app(db_url: str | None = None) -> FastAPI:
    """The web application on storage at ``db_url`` (SQLite in the data directory if ``None``)."""
    state: dict[str, GameService] = {"svc": GameService(Store(db_url))}

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        try:
            yield
        finally:
            await state["svc"].close()

    app = FastAPI(
        title="rulebox",
        version="1",
        summary="Five published board games played exactly by their rulebooks.",
        lifespan=lifespan,
    )

    def svc() -> GameService:
        return state["svc"]

    @app.exception_handler(ApiError)
    async def _api_error(_request: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse(exc.body(), status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        errs = exc.errors()
        where = ".".join(str(x) for x in errs[0].get("loc", ())) if errs else "body"
        msg = errs[0].get("msg", "invalid request") if errs else "invalid request"
        return JSONResponse(ApiError(400, "malformed", f"{where}: {msg}"[:200]).body(),
                            status_code=400)

    # --- the API -------------------------------------------------------------------------------
    @app.get("/api/catalog", tags=["games"])
    async def catalog() -> dict[str, Any]:
        """Every game with its options and seats, the agents and the computer levels."""
        return svc().catalog()

    @app.get("/api/rules/{game}", tags=["games"], responses=ERRORS)
    async def rules(game: str) -> dict[str, Any]:
        """The rules of a game in English with rule IDs, and its move notation."""
        return svc().rules(game[:40])

    @app.get("/api/assets/{game}/{name}", tags=["games"], responses=ERRORS)
    async def asset(game: str, name: str) -> Response:
        """A public data file of a game's package (e.g. Columba's card faces, ``deck.json``):
        the printed components, never a game's state (a shuffled order is state, not a file)."""
        return svc().asset(game[:40], name[:60])

    @app.get("/api/games", tags=["games"])
    async def recent() -> dict[str, Any]:
        """The most recently played games (to spectate)."""
        return {"games": await svc()._in_db(svc().store.recent, 20)}

    @app.post("/api/games", tags=["games"], response_model=Created, responses=ERRORS)
    async def create(body: NewGame) -> dict[str, Any]:
        """Start a game. The answer holds one secret token per human seat: the bearer of a
        token plays that seat (``Authorization: Bearer <token>``)."""
        return await svc().create(body.game, body.options, body.seats, body.hotseat)

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

    @app.post("/api/games/{gid}/moves", tags=["games"], responses=ERRORS)
    async def play(
        gid: str, body: MoveIn, authorization: str | None = Header(None)
    ) -> Response:
        """Play a move for the token's seat. Refused (4xx, nothing changes) when it is not
        that seat's turn, the move is malformed or illegal (with the rule ID), or the token
        is wrong."""
        return _json(await svc().play(_check_id(gid), _bearer(authorization), body.move,
                                      body.player, body.version))

    @app.post("/api/games/{gid}/undo", tags=["games"], responses=ERRORS)
    async def undo(gid: str, body: UndoIn | None = None,
                   authorization: str | None = Header(None)) -> Response:
        """Take back your last move and the computer's replies (against the computer, or at a
        hot-seat table). Cards not yet seen are shuffled again: an undo never shows what
        comes next."""
        version = body.version if body is not None else None
        return _json(await svc().undo(_check_id(gid), _bearer(authorization), version))

    @app.post("/api/games/{gid}/resign", tags=["games"], responses=ERRORS)
    async def resign(gid: str, authorization: str | None = Header(None)) -> Response:
        """Give up the game: the other side wins."""
        return _json(await svc().resign(_check_id(gid), _bearer(authorization)))

    @app.post("/api/games/{gid}/draw", tags=["games"], responses=ERRORS)
    async def draw(gid: str, body: DrawIn, authorization: str | None = Header(None)
                   ) -> Response:
        """Draw by agreement: offer one, accept or decline the other side's offer (or
        withdraw one's own). A move lets a pending offer lapse; a computer accepts only when
        it is losing (409 ``declined`` otherwise)."""
        return _json(await svc().draw(_check_id(gid), _bearer(authorization), body.action))

    @app.post("/api/games/{gid}/rematch", tags=["games"], responses=ERRORS)
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
    async def socket(ws: WebSocket, gid: str, token: str | None = None,
                     auth: str | None = None) -> None:
        """Pushes ``{"type": "state", ...}`` (the same as ``GET /api/games/{id}``, for the
        token's seat only) after every change. The token comes as ``?token=``, or, with
        ``?auth=first``, as the first message ``{"type": "auth", "token": ...}`` (so that it
        never appears in a URL or a log); no token: a spectator."""
        try:
            live = await svc().live(_check_id(gid))
            if auth != "first":
                seat = live.seat_of(token or None)
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
            while True:
                msg = await ws.receive_text()
                if len(msg) < 100 and "ping" in msg:
                    await ws.send_json({"type": "pong"})
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            svc().detach(live, ws)

    # --- the web client ------------------------------------------------------------------------
    root = web_root()

    @app.get("/", include_in_schema=False)
    async def index() -> Response:
        return FileResponse(root / "index.html", headers={"Cache-Control": "no-cache"})

    @app.get("/game/{gid}", include_in_schema=False)
    async def game_page(gid: str) -> Response:
        return FileResponse(root / "index.html", headers={"Cache-Control": "no-cache"})

    app.mount("/static", StaticFiles(directory=root), name="static")
    app.add_middleware(BodyLimit, limit=MAX_BODY)
    return app
