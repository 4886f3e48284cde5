"""``GET /api/games/{id}/review``: the review of a finished game (issue 22), for the browser.

The answer is the ``review`` section of :mod:`rulebox.analysis.review` (per move: the mover's
win probability before and after, the preferred move, the mark; the decisive moment), plus the
game's moves. Only a game that is over is reviewed (409 ``not_over`` before): by then a hidden
deal is revealed, and the review still evaluates every move from what its mover could see.

A review costs seconds of computation, so it is done once per game and process (kept in
:data:`CACHE`, at most :data:`CACHE_SIZE` games), one review at a time (the others wait), in a
thread so that the server keeps answering, with the agent at :data:`REVIEW_TIME` seconds a
position; a game longer than :data:`MAX_PLIES` is refused (413 ``too_long``). Anyone may ask:
the review shows nothing the finished game's payload does not.

Registered by ``create_app`` with ``register(app, svc)``.
"""

from __future__ import annotations

import asyncio
import json
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from fastapi import FastAPI
from fastapi.responses import Response

from rulebox.i18n import _
from rulebox.server.service import ApiError, GameService

REVIEW_TIME = 0.1
"""Seconds the reviewing agent (``best``) thinks per position."""

MAX_PLIES = 600
"""The longest game the server reviews."""

CACHE_SIZE = 64
CACHE: OrderedDict[str, dict[str, Any]] = OrderedDict()
_GATE: dict[str, asyncio.Semaphore] = {}


def _gate() -> asyncio.Semaphore:
    loop = id(asyncio.get_running_loop())
    key = str(loop)
    if key not in _GATE:
        _GATE.clear()
        _GATE[key] = asyncio.Semaphore(1)
    return _GATE[key]


def _compute(record: Any) -> dict[str, Any]:
    from rulebox.analysis.review import Evaluator, review_record

    return review_record(record, Evaluator(record.game, "best", REVIEW_TIME, seed=1))


async def game_review(svc: GameService, gid: str) -> dict[str, Any]:
    """The review of a finished game (computed on the first request, then kept)."""
    if gid in CACHE:
        CACHE.move_to_end(gid)
        return CACHE[gid]
    live = await svc.live(gid)
    async with live.lock:
        if not live.table.over():
            raise ApiError(409, "not_over", _("a game is reviewed once it is over"))
        record = live.table.record()
    if len(record.moves) > MAX_PLIES:
        raise ApiError(413, "too_long", _("games of at most {max_plies} moves are "
                                          "reviewed").format(max_plies=MAX_PLIES))
    async with _gate():
        if gid not in CACHE:
            review = await asyncio.to_thread(_compute, record)
            CACHE[gid] = {"id": gid, "game": record.game, "moves": list(record.moves),
                          "review": review}
            while len(CACHE) > CACHE_SIZE:
                CACHE.popitem(last=False)
    return CACHE[gid]


def register(app: FastAPI, svc: Callable[[], GameService]) -> None:
    """Add the review route to the application."""

    @app.get("/api/games/{gid}/review", tags=["games"])
    async def review(gid: str) -> Response:
        """The review of a finished game: per move the mover's win probability before and
        after, the best move, inaccuracy / mistake / blunder, and the decisive moment."""
        if not gid.isalnum() or len(gid) > 32 or not gid.isascii():
            raise ApiError(404, "no_such_game", _("there is no game with this id"))
        data = await game_review(svc(), gid)
        return Response(json.dumps(data, separators=(",", ":")), media_type="application/json")
