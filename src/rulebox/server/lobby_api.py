"""The HTTP and WebSocket routes of issue 27 (players, sessions, open games, pairing, chat,
takebacks, abandonment); the contract is docs/SERVER.md. ``register`` adds them to the app.

A session comes as ``Authorization: Bearer rbs_...``, as ``X-Rulebox-Session`` (beside a seat
token) or as the ``rulebox_session`` cookie. A request that changes something on the strength of
the cookie must come from the server's own pages: its ``Origin`` must name the host the request
was sent to (403 ``bad_origin``), so another site cannot act for a signed-in browser (CSRF).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Any, Literal
from urllib.parse import urlsplit

from fastapi import Depends, FastAPI, Header, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt

from rulebox.i18n import _
from rulebox.server.accounts import SESSION_DAYS, NameTaken, Person, TooManyFailures
from rulebox.server.errors import ApiError
from rulebox.server.lobby import Lobby
from rulebox.server.players import (
    SESSION_PREFIX,
    NameError_,
    check_name,
    check_password,
)
from rulebox.server.service import GameService

COOKIE = "rulebox_session"
CHANGING = ("POST", "PUT", "PATCH", "DELETE")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SignUp(_Strict):
    """``POST /api/players``."""

    name: str = Field(max_length=200)
    password: str = Field(max_length=1000)


class GuestIn(_Strict):
    """``POST /api/guests``."""

    name: str = Field(max_length=200)


class LoginIn(_Strict):
    """``POST /api/session``."""

    name: str = Field(max_length=200)
    password: str = Field(max_length=1000)


class JoinIn(_Strict):
    """``POST /api/games/{id}/join`` (the body is optional)."""

    seat: StrictInt | None = Field(None, description="the seat to take; the first free one "
                                   "by default")


class PairingIn(_Strict):
    """``POST /api/pairing``."""

    game: str = Field(max_length=40)
    clock: str | None = Field(None, max_length=12)
    rated: StrictBool = False


class ChatIn(_Strict):
    """``POST /api/games/{id}/chat``."""

    text: str = Field(max_length=5000, description="at most 500 characters")


class MuteIn(_Strict):
    """``POST /api/games/{id}/mute``."""

    name: str = Field(max_length=200)
    muted: StrictBool = True


class TakebackIn(_Strict):
    """``POST /api/games/{id}/takeback``."""

    action: Literal["ask", "accept", "decline", "withdraw"]


class ClaimIn(_Strict):
    """``POST /api/games/{id}/claim``."""

    result: Literal["win", "draw"]


def session_of(request: Request | WebSocket) -> tuple[str | None, bool]:
    """The session token a request carries and whether it came as the cookie."""
    auth = request.headers.get("authorization", "")
    scheme, _sep, token = auth.strip().partition(" ")
    if scheme.lower() == "bearer" and token.strip().startswith(SESSION_PREFIX):
        return token.strip()[:200], False
    given = request.headers.get("x-rulebox-session")
    if given:
        return given.strip()[:200], False
    cookie = request.cookies.get(COOKIE)
    return (cookie[:200], True) if cookie else (None, False)


def check_origin(request: Request) -> None:
    """403 ``bad_origin`` for a changing request authorised by the cookie from elsewhere."""
    origin = request.headers.get("origin")
    host = request.headers.get("host", "")
    if origin is None or urlsplit(origin).netloc.lower() != host.lower():
        raise ApiError(403, "bad_origin", _("this request must come from this site's pages"))


def seat_token(authorization: str | None) -> str | None:
    """The seat token of ``Authorization`` (a session token there is not one)."""
    if authorization is None:
        return None
    scheme, _sep, token = authorization.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(401, "bad_token", _("use Authorization: Bearer <token>"))
    token = token.strip()
    return None if token.startswith(SESSION_PREFIX) else token


def _check_id(gid: str) -> str:
    if not gid.isalnum() or len(gid) > 32 or not gid.isascii():
        raise ApiError(404, "no_such_game", _("there is no game with this id"))
    return gid


def _client(request: Request) -> str:
    return request.client.host if request.client is not None else "?"


def _with_cookie(request: Request, body: dict[str, Any], status: int, token: str
                 ) -> JSONResponse:
    resp = JSONResponse(body, status_code=status)
    resp.set_cookie(COOKIE, token, max_age=SESSION_DAYS * 86400, path="/", httponly=True,
                    samesite="lax", secure=request.url.scheme == "https")
    return resp


def register(app: FastAPI, svc: Callable[[], GameService], lobby: Callable[[], Lobby],
             limit_changes: Callable[..., Awaitable[None]]) -> None:
    """Add issue 27's routes to ``app``."""

    async def who(request: Request) -> Person | None:
        token, cookie = session_of(request)
        if token is None:
            return None
        if cookie and request.method in CHANGING:
            check_origin(request)
        return await lobby().person(token)

    async def someone(request: Request) -> Person:
        person = await who(request)
        if person is None:
            raise ApiError(401, "no_session", _("sign in or choose a guest name first"))
        return person

    def refuse_name(e: NameError_) -> ApiError:
        messages = {"length": _("a name has 3 to 20 characters"),
                    "characters": _("a name has only letters, digits, _ and -"),
                    "mixed_script": _("a name's letters are all of one script"),
                    "reserved": _("that name is reserved")}
        return ApiError(400, "bad_name", messages.get(e.reason, str(e)), reason=e.reason)

    async def make(request: Request, name: str, password: str | None) -> JSONResponse:
        try:
            shown = check_name(name)
        except NameError_ as e:
            raise refuse_name(e) from None
        if password is not None:
            try:
                check_password(password)
            except ValueError:
                raise ApiError(400, "bad_password", _("a password has 8 to 200 characters")) \
                    from None
        lob = lobby()
        try:
            person, token = await lob.db(lob.accounts.register, shown, password, lob.now())
        except NameTaken:
            raise ApiError(409, "name_taken", _("that name is taken")) from None
        return _with_cookie(request, {"name": person.name, "session": token,
                                      "guest": person.guest}, 201, token)

    # --- sessions -----------------------------------------------------------------------------
    @app.post("/api/players", tags=["players"], status_code=201)
    async def sign_up(request: Request, body: SignUp) -> Response:
        """Make an account: 201 ``{"name", "session", "guest": false}`` and the cookie."""
        return await make(request, body.name, body.password)

    @app.post("/api/guests", tags=["players"], status_code=201)
    async def guest(request: Request, body: GuestIn) -> Response:
        """Play as a guest under a name (casual games only)."""
        return await make(request, body.name, None)

    @app.post("/api/session", tags=["players"])
    async def login(request: Request, body: LoginIn) -> Response:
        """Sign in: 200 ``{"name", "session"}``; 401 ``bad_login`` alike for an unknown name
        and a wrong password; 429 after 10 failures in 15 minutes."""
        lob = lobby()
        try:
            done = await lob.db(lob.accounts.login, body.name, body.password,
                                _client(request), lob.now())
        except TooManyFailures as e:
            raise ApiError(429, "too_many_failures", _("too many failed logins; try again "
                                                       "later"),
                           retry_after=round(e.retry_after, 1)) from None
        if done is None:
            raise ApiError(401, "bad_login", _("wrong name or password"))
        person, token = done
        return _with_cookie(request, {"name": person.name, "session": token, "guest": False},
                            200, token)

    @app.get("/api/session", tags=["players"])
    async def current(person: Person = Depends(someone)) -> dict[str, Any]:  # noqa: B008
        """Who this session is."""
        return {"name": person.name, "guest": person.guest}

    @app.delete("/api/session", tags=["players"])
    async def logout(request: Request) -> Response:
        """Sign out: the session ends, the cookie goes."""
        token, cookie = session_of(request)
        if token is not None:
            if cookie:
                check_origin(request)
            lob = lobby()
            await lob.db(lob.accounts.logout, token)
        resp = JSONResponse({"ok": True})
        resp.delete_cookie(COOKIE, path="/")
        return resp

    @app.get("/api/players/{name}", tags=["players"])
    async def profile(name: str) -> Response:
        """A player's ratings, rating history, last 50 games and running games."""
        lob = lobby()
        found = await lob.db(lob.profile, name[:80])
        if found is None:
            raise ApiError(404, "no_such_player", _("there is no player of that name"))
        return JSONResponse(found)

    @app.get("/api/scores/{game}", tags=["players"])
    async def scores(game: str) -> dict[str, Any]:
        """The best scores of a solitaire (36 to 1)."""
        lob = lobby()
        return {"scores": await lob.db(lob.best_scores, game[:40])}

    # --- open games ---------------------------------------------------------------------------
    @app.post("/api/games/{gid}/join", tags=["lobby"])
    async def join(gid: str, request: Request, body: JoinIn | None = None) -> dict[str, Any]:
        """Take a free seat of an open game: ``{"id", "seat", "token"}``."""
        person = await who(request)
        return await lobby().join(_check_id(gid), body.seat if body else None, person)

    @app.post("/api/games/{gid}/cancel", tags=["lobby"])
    async def cancel(gid: str, request: Request,
                     authorization: str | None = Header(None)) -> dict[str, Any]:
        """The creator cancels an open game before it starts."""
        person = await who(request)
        token = seat_token(authorization)
        seat = None
        if token is not None:
            live = await svc().live(_check_id(gid))
            seat = live.seat_of(token)
        return await lobby().cancel(_check_id(gid), person, seat)

    # --- pairing ------------------------------------------------------------------------------
    @app.post("/api/pairing", tags=["lobby"])
    async def pair(body: PairingIn, person: Person = Depends(someone)) -> Response:  # noqa: B008
        """Queue for a game: 200 paired at once, else 202 waiting."""
        status, answer = await lobby().pairing.enter(person, body.game, body.clock, body.rated)
        return JSONResponse(answer, status_code=status)

    @app.get("/api/pairing", tags=["lobby"])
    async def pairing_status(person: Person = Depends(someone)) -> dict[str, Any]:  # noqa: B008
        """Waiting, paired (game, seat, token) or none."""
        return await lobby().pairing.status(person)

    @app.delete("/api/pairing", tags=["lobby"])
    async def unpair(person: Person = Depends(someone)) -> dict[str, Any]:  # noqa: B008
        """Leave the queue."""
        return await lobby().pairing.leave(person)

    # --- at the table -------------------------------------------------------------------------
    async def seated(gid: str, authorization: str | None) -> tuple[Any, int | None]:
        live = await svc().live(_check_id(gid))
        return live, live.seat_of(seat_token(authorization))

    @app.post("/api/games/{gid}/chat", tags=["table"], status_code=201,
              dependencies=[Depends(limit_changes)])
    async def chat(gid: str, body: ChatIn, request: Request,
                   authorization: str | None = Header(None)) -> dict[str, Any]:
        """Say something: a seat's token speaks in the players' channel, a session without
        one in the spectators'."""
        live, seat = await seated(gid, authorization)
        person = await who(request)
        message = await lobby().chat.post(live, seat, person.name if person else None,
                                          body.text)
        return {"message": message}

    @app.get("/api/games/{gid}/chat", tags=["table"])
    async def chat_read(gid: str, authorization: str | None = Header(None)) -> dict[str, Any]:
        """The messages the asker may read, oldest first."""
        live, seat = await seated(gid, authorization)
        return {"messages": await lobby().chat.read(live, seat)}

    @app.post("/api/games/{gid}/mute", tags=["table"])
    async def mute(gid: str, body: MuteIn, authorization: str | None = Header(None)
                   ) -> dict[str, Any]:
        """A seat stops (or starts again) receiving a name's messages in this game."""
        live, seat = await seated(gid, authorization)
        if seat is None:
            raise ApiError(401, "no_token", _("send the seat's token: Authorization: "
                                              "Bearer <token>"))
        return {"muted": await lobby().chat.mute(live, seat, body.name, body.muted)}

    @app.post("/api/games/{gid}/takeback", tags=["table"],
              dependencies=[Depends(limit_changes)])
    async def takeback(gid: str, body: TakebackIn, authorization: str | None = Header(None)
                       ) -> Response:
        """Ask to take back your last turn, or answer the other's request."""
        s = svc()
        live, seat = await s._seat(_check_id(gid), seat_token(authorization))
        if body.action == "ask":
            answer = await s._change(live, seat, lambda t: t.ask_takeback(seat))
        else:
            asker = live.table.takeback_offer
            if asker is not None and (body.action == "withdraw") != (asker == seat):
                raise ApiError(409, "no_request", _("there is no such takeback request"))
            answer = await s._change(live, seat, lambda t: t.answer_takeback(
                seat, body.action == "accept"))
        return JSONResponse(answer)

    @app.post("/api/games/{gid}/claim", tags=["table"], dependencies=[Depends(limit_changes)])
    async def claim(gid: str, body: ClaimIn, authorization: str | None = Header(None)
                    ) -> Response:
        """Claim the win (or a draw) when every opponent has been gone past the grace."""
        s = svc()
        lob = lobby()
        live, seat = await s._seat(_check_id(gid), seat_token(authorization))
        if live.over():
            raise ApiError(409, "game_over", _("the game is over"))
        await lob.watch.look_gone(live)
        info = lob.watch.claim_info(live, seat)
        if info is None or not info["can_claim"]:
            raise ApiError(409, "not_abandoned", _("the other side has not been gone long "
                                                   "enough"),
                           at=info["at"] if info is not None else None)
        answer = await s._change(live, seat, lambda t: t.claim_abandoned(
            seat, body.result == "draw"))
        return JSONResponse(answer)

    # --- the lobby socket ---------------------------------------------------------------------
    @app.websocket("/api/lobby/ws")
    async def lobby_socket(ws: WebSocket, auth: str | None = Query(None)) -> None:
        """``{"type": "lobby", "games"}`` when the open games change, ``{"type": "paired"}``
        when the session's pairing is made."""
        await ws.accept()
        lob = lobby()
        token, _cookie = session_of(ws)
        try:
            if auth == "first":
                try:
                    hello = json.loads(await asyncio.wait_for(ws.receive_text(), 10))
                    given = hello.get("session") if isinstance(hello, dict) else None
                    token = given if isinstance(given, str) and given else token
                except (ValueError, TimeoutError):
                    await ws.close(code=4401, reason="bad session")
                    return
            person = await lob.person(token) if token else None
            lob.watch.sockets[ws] = person
            await lob.watch.send_lobby(force=ws)
            while True:
                msg = await ws.receive_text()
                if len(msg) < 100 and "ping" in msg:
                    await ws.send_json({"type": "pong",
                                        "server_time": int(lob.now() * 1000)})
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            lob.watch.sockets.pop(ws, None)
