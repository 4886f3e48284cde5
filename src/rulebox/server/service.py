"""The authoritative game service behind the web API: live games, seats, computer players.

The server never trusts a client. A seat is identified by a secret token (only its SHA-256 is
stored); a move is text that the game's own ``parse`` resolves against the rules; every message
about a game is built from ``view(seat)`` (``view(None)`` for spectators), so no seat ever
receives another's hidden cards or the deck order. Each accepted change is committed to storage
before it is acknowledged or pushed to anyone.

Uses only the game protocol (:mod:`rulebox.core`), the registries and the agents.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import multiprocessing
import secrets
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, TypeVar

from rulebox.ai.base import Agent, agent_entries, make_agent
from rulebox.core.errors import (
    AmbiguousMoveError,
    GameOverError,
    IllegalMoveError,
    InvalidMoveError,
    NothingToUndoError,
    RuleboxError,
    StateError,
)
from rulebox.core.game import TERMINAL, Game
from rulebox.core.registry import GameEntry, game_entry, game_ids
from rulebox.server.store import Store

T = TypeVar("T")

MAX_MOVE_CHARS = 200
"""Longer move text is refused as oversized (no notation comes close)."""

LEVELS: dict[str, tuple[str, dict[str, str]]] = {
    "easy": ("easy", {"time": "0.3"}),
    "medium": ("medium", {"time": "1"}),
    "hard": ("hard", {"time": "3"}),
}
"""Computer levels offered by the lobby: an agent and its settings. When the level's agent is
not registered, ``best`` plays with the same settings, and ``random`` when there is no ``best``."""

DEFAULT_LEVEL = "medium"

COMPUTER_TIME = "1"
"""Seconds per move of a plain ``computer`` seat (the ``best`` agent)."""

MAX_LIVE = 2000
"""Games kept in memory at most (idle ones beyond are reloaded from storage when needed)."""


class ApiError(Exception):
    """A refused request: an HTTP status, a short code and a message for a person."""

    def __init__(self, status: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.extra = extra

    def body(self) -> dict[str, Any]:
        """The JSON error body: ``{"error": {"code", "message", ...}}``."""
        return {"error": {"code": self.code, "message": self.message, **self.extra}}


def hash_token(token: str) -> str:
    """What is stored of a seat's token."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


@dataclass
class Seat:
    """One seat of a game: a person (with a token) or a computer (with an agent)."""

    kind: str  # "human" | "computer"
    token_hash: str | None = None
    agent: str | None = None
    settings: dict[str, str] = field(default_factory=dict)
    label: str = "human"

    def to_record(self) -> dict[str, Any]:
        return {"kind": self.kind, "token_hash": self.token_hash, "agent": self.agent,
                "settings": self.settings, "label": self.label}

    @classmethod
    def from_record(cls, data: dict[str, Any]) -> Seat:
        return cls(data["kind"], data.get("token_hash"), data.get("agent"),
                   dict(data.get("settings") or {}), data.get("label", data["kind"]))


def _agent_names(game_id: str) -> list[str]:
    return [e.name for e in agent_entries(game_id)]


def resolve_seat(spec: Any, game_id: str) -> Seat:
    """Read a seat of ``POST /api/games``: ``human``, ``computer`` (the ``best`` agent, one
    second a move), ``computer:easy|medium|hard`` (the lobby's levels) or an agent name with
    optional settings (``mcts:time=1,iterations=500``). ``best`` falls back to ``random`` while
    it is not registered."""
    if not isinstance(spec, str) or not spec.strip() or len(spec) > 100:
        raise ApiError(400, "bad_seat", "a seat is 'human', 'computer' or an agent name")
    text = spec.strip().lower()
    if text == "human":
        return Seat("human")
    level = None
    if text == "computer":
        name, settings = "best", {"time": COMPUTER_TIME}
    elif text.startswith("computer:"):
        level = text.partition(":")[2]
        if level not in LEVELS:
            raise ApiError(400, "bad_seat", f"unknown level {level[:20]!r} "
                           f"(levels: {', '.join(LEVELS)})")
        name, settings = LEVELS[level]
        settings = dict(settings)
    else:
        name, _, rest = text.partition(":")
        settings = {}
        for part in filter(None, (p.strip() for p in rest.split(","))):
            key, eq, value = part.partition("=")
            if not eq:
                raise ApiError(400, "bad_seat", f"agent settings are key=value, not {part[:30]!r}")
            settings[key.strip()] = value.strip()
    names = _agent_names(game_id)
    if level and name not in names:
        name = "best"
    if name == "best" and "best" not in names:
        name, settings = "random", {k: v for k, v in settings.items() if k == "seed"}
    try:
        make_agent(name, game_id, settings)
    except RuleboxError as e:
        raise ApiError(400, "bad_seat", str(e)) from None
    label = f"computer ({level})" if level else (
        "computer" if text == "computer" else f"computer ({name})")
    return Seat("computer", agent=name, settings=settings, label=label)


@dataclass
class LiveGame:
    """A game held in memory while anyone uses it; storage has the same state."""

    id: str
    entry: GameEntry
    game: Game
    seats: list[Seat]
    hotseat: bool
    version: int
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    sockets: dict[Any, int | None] = field(default_factory=dict)
    agents: dict[int, Agent] = field(default_factory=dict)
    computer_task: asyncio.Task[None] | None = None
    used: float = field(default_factory=time.monotonic)
    draw_offer: int | None = None
    agreed: str | None = None
    rematch: str | None = None

    def over(self) -> bool:
        """Whether the game has ended, by the rules or by agreement."""
        return self.agreed is not None or self.game.is_terminal()

    def seat_of(self, token: str | None) -> int | None:
        """The seat a token belongs to; ``None`` for no token. A bad token raises 401."""
        if token is None:
            return None
        h = hash_token(token)
        for i, seat in enumerate(self.seats):
            if seat.token_hash is not None and secrets.compare_digest(seat.token_hash, h):
                return i
        raise ApiError(401, "bad_token", "this token does not belong to a seat of this game")


class GameService:
    """Creates, loads and plays games; pushes every change to the seats' sockets."""

    def __init__(self, store: Store, *, think_workers: int = 2) -> None:
        self.store = store
        self._db = ThreadPoolExecutor(1 if store.is_sqlite else 8, thread_name_prefix="rb-db")
        self._think = ThreadPoolExecutor(think_workers, thread_name_prefix="rb-ai")
        # computers think in worker processes, so that a long search never slows the server
        self._procs: ProcessPoolExecutor | None = ProcessPoolExecutor(
            think_workers, mp_context=multiprocessing.get_context("spawn"))
        self._live: dict[str, LiveGame] = {}
        self._pending: list[tuple[tuple[Any, ...], asyncio.Future[None]]] = []
        self._writer: asyncio.Task[None] | None = None
        self._loading: dict[str, asyncio.Lock] = {}
        self._closed = False

    async def close(self) -> None:
        """Stop computer players and release threads and connections."""
        self._closed = True
        for live in list(self._live.values()):
            if live.computer_task is not None:
                live.computer_task.cancel()
        self._think.shutdown(wait=False, cancel_futures=True)
        if self._procs is not None:
            self._procs.shutdown(wait=False, cancel_futures=True)
        self._db.shutdown(wait=True)
        self.store.close()

    async def _in_db(self, fn: Callable[..., T], *args: Any) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._db, lambda: fn(*args))

    # --- the catalogue -------------------------------------------------------------------------
    def catalog(self) -> dict[str, Any]:
        """Every game with its options, seats and the agents that play it."""
        games = []
        for gid in game_ids():
            entry = game_entry(gid)
            cls = entry.cls
            games.append({
                "id": gid,
                "title": entry.title,
                "player_counts": list(cls.player_counts),
                "hidden_information": cls.has_hidden_information,
                "seat_names": [entry.seat_name(p) for p in range(max(cls.player_counts))],
                "options": [
                    {"name": s.name, "default": None if s.default is None else str(s.default),
                     "help": s.help, "choices": list(s.choices)}
                    for s in cls.option_specs
                ],
                "agents": [{"name": e.name, "description": e.description}
                           for e in agent_entries(gid)],
                "notation": entry.notation_help,
            })
        return {"games": games, "levels": list(LEVELS), "default_level": DEFAULT_LEVEL}

    def rules(self, game_id: str) -> dict[str, Any]:
        """The rules text of a game (its ``rules.md``) and its notation."""
        try:
            entry = game_entry(game_id)
        except RuleboxError as e:
            raise ApiError(404, "unknown_game", str(e)) from None
        try:
            text = entry.rules_text()
        except (FileNotFoundError, OSError, ModuleNotFoundError):
            text = f"# {entry.title}\n\n(The rules text of this game is not written yet.)\n"
        return {"game": entry.id, "title": entry.title, "text": text,
                "notation": entry.notation_help}

    def asset(self, game_id: str, name: str) -> Any:
        """A JSON data file shipped in a game's package (its printed components)."""
        from fastapi.responses import Response

        try:
            entry = game_entry(game_id)
        except RuleboxError:
            raise ApiError(404, "unknown_game", "no such game") from None
        stem, _, ext = name.partition(".")
        if ext != "json" or not stem.replace("_", "").isalnum():
            raise ApiError(404, "no_such_asset", "assets are JSON files of the game's package")
        try:
            data = resources.files(entry.package).joinpath(name).read_bytes()
        except (FileNotFoundError, OSError, ModuleNotFoundError):
            raise ApiError(404, "no_such_asset", f"{entry.title} has no {name}") from None
        return Response(data, media_type="application/json",
                        headers={"Cache-Control": "public, max-age=3600"})

    # --- creating and loading ------------------------------------------------------------------
    async def create(
        self, game_id: Any, options: Any, seat_specs: Any, hotseat: bool = False
    ) -> dict[str, Any]:
        """Start a game; answers its id and one token per human seat."""
        if not isinstance(game_id, str):
            raise ApiError(400, "unknown_game", "game must be a game id")
        try:
            entry = game_entry(game_id)
        except RuleboxError as e:
            raise ApiError(400, "unknown_game", str(e)) from None
        if options is None:
            options = {}
        if not isinstance(options, dict) or len(options) > 30 or not all(
            isinstance(k, str) and len(k) <= 40 and isinstance(v, str | int | bool)
            and len(str(v)) <= 2000 for k, v in options.items()
        ):
            raise ApiError(400, "bad_options", "options are an object of short key: value text")
        opts = {k: str(v) for k, v in options.items() if str(v).strip() != ""}
        if not isinstance(seat_specs, list) or not seat_specs or len(seat_specs) > 8:
            raise ApiError(400, "bad_seats", "seats is a list with one entry per player")
        names = {s.name for s in entry.cls.option_specs}
        if "players" in names and "players" not in opts:
            opts["players"] = str(len(seat_specs))
        try:
            game = entry.cls.new(opts)
        except RuleboxError as e:
            raise ApiError(400, "bad_options", str(e)) from None
        if len(seat_specs) != game.num_players:
            raise ApiError(400, "bad_seats", f"{entry.title} with these options has "
                           f"{game.num_players} seat(s), not {len(seat_specs)}")
        seats = [resolve_seat(s, entry.id) for s in seat_specs]
        tokens: list[str | None] = []
        for seat in seats:
            if seat.kind == "human":
                token = secrets.token_urlsafe(18)
                seat.token_hash = hash_token(token)
                tokens.append(token)
            else:
                tokens.append(None)
        gid = secrets.token_urlsafe(9).replace("-", "x").replace("_", "y")
        await self._in_db(self.store.create_game, gid, entry.id,
                          [s.to_record() for s in seats], bool(hotseat), game.to_json())
        live = LiveGame(gid, entry, game, seats, bool(hotseat), 0)
        self._live[gid] = live
        self._evict()
        async with live.lock:
            self._kick_computers(live)
        return {"id": gid, "game": entry.id,
                "seats": [{"player": i, "token": t, "kind": s.kind, "label": s.label}
                          for i, (t, s) in enumerate(zip(tokens, seats, strict=True))]}

    async def live(self, gid: str) -> LiveGame:
        """The live game of an id, loaded from storage when needed (404 when unknown)."""
        live = self._live.get(gid)
        if live is not None:
            live.used = time.monotonic()
            self._kick_computers(live)  # e.g. after a computer player failed
            return live
        lock = self._loading.setdefault(gid, asyncio.Lock())
        async with lock:
            live = self._live.get(gid)
            if live is not None:
                return live
            stored = await self._in_db(self.store.load, gid)
            if stored is None:
                self._loading.pop(gid, None)
                raise ApiError(404, "no_such_game", "there is no game with this id")
            try:
                entry = game_entry(stored.game)
                game = entry.cls.from_json(stored.state)
            except RuleboxError as e:
                raise ApiError(500, "corrupt_game", f"the stored game cannot be loaded: {e}") \
                    from None
            live = LiveGame(gid, entry, game, [Seat.from_record(s) for s in stored.seats],
                            stored.hotseat, stored.version, agreed=stored.agreed)
            self._live[gid] = live
            self._loading.pop(gid, None)
            self._evict()
        async with live.lock:
            self._kick_computers(live)
        return live

    def _evict(self) -> None:
        """Keep at most :data:`MAX_LIVE` games in memory: forget the least recently used idle
        ones (storage has them; they come back on the next request)."""
        if len(self._live) <= MAX_LIVE:
            return
        idle = sorted((g for g in self._live.values()
                       if not g.sockets and g.computer_task is None and not g.lock.locked()),
                      key=lambda g: g.used)
        for g in idle[: len(self._live) - MAX_LIVE]:
            self._live.pop(g.id, None)

    # --- what a seat sees ----------------------------------------------------------------------
    def payload(self, live: LiveGame, seat: int | None) -> dict[str, Any]:
        """The game as ``seat`` may see it (``None``: a spectator). Built from ``view(seat)``
        only, plus the public facts: seats, whose turn, the result and (on the seat's own
        turn) its legal moves."""
        game = live.game
        view = game.view(seat)
        to_move = game.current_player()
        if "history" in view:
            history = list(view["history"])
        elif game.has_hidden_information:
            history = None  # the game keeps its move list to itself
        else:
            history = [str(m) for m in game.history]
        out = game.outcome()
        result: dict[str, Any] | None = None
        if live.agreed is not None:
            to_move = TERMINAL
            result = {"winners": [], "scores": None, "reason": live.agreed,
                      "line": "over winner=none"}
        elif out is not None:
            result = {"winners": list(out.winners),
                      "scores": None if out.scores is None else list(out.scores),
                      "reason": out.reason, "line": out.result_line()}
        legal: list[str] = []
        if (seat is not None and to_move == seat and to_move != TERMINAL
                and live.seats[seat].kind == "human"):
            legal = sorted(str(m) for m in game.legal_moves())
        return {
            "id": live.id,
            "game": live.entry.id,
            "title": live.entry.title,
            "options": game.public_options(),
            "version": live.version,
            "you": seat,
            "hotseat": live.hotseat,
            "seats": [{"player": i, "name": live.entry.seat_name(i), "kind": s.kind,
                       "label": s.label} for i, s in enumerate(live.seats)],
            "to_move": to_move if to_move >= 0 else None,
            "over": result is not None,
            "result": result,
            "ply": len(game.history),
            "history": history,
            "legal": legal,
            "can_undo": (self._may_undo(live, seat) and len(game.history) > 0
                         and live.agreed is None),
            "draw_offer": live.draw_offer,
            "rematch": live.rematch,
            "can_offer_draw": (seat is not None and result is None and len(live.seats) > 1
                               and live.seats[seat].kind == "human"),
            "view": view,
        }

    # --- playing --------------------------------------------------------------------------------
    async def play(self, gid: str, token: str | None, text: Any, player: Any = None
                   ) -> dict[str, Any]:
        """Play ``text`` for the bearer's seat; answers that seat's payload after the move."""
        if not isinstance(text, str):
            raise ApiError(400, "malformed", "move must be text in the game's notation")
        if len(text) > MAX_MOVE_CHARS:
            raise ApiError(413, "oversized", f"a move is at most {MAX_MOVE_CHARS} characters")
        live = await self.live(gid)
        seat = live.seat_of(token)
        if seat is None:
            raise ApiError(401, "no_token", "send the seat's token: Authorization: Bearer <token>")
        if player is not None and player != seat:
            raise ApiError(403, "wrong_seat", f"this token belongs to player {seat}, "
                           f"not to player {player!r}"[:120])
        async with live.lock:
            game = live.game
            to_move = game.current_player()
            if to_move == TERMINAL or live.agreed is not None:
                raise ApiError(409, "game_over", "the game is over")
            if to_move != seat:
                raise ApiError(409, "not_your_turn",
                               f"it is player {to_move}'s turn ({live.entry.seat_name(to_move)})")
            move = _parse(game, text)
            await self._commit(live, [move])
            live.draw_offer = None  # a move lets a pending draw offer lapse
            self._kick_computers(live)
            body = self.payload(live, seat)
            body["move"] = str(move)
        await self.broadcast(live)
        return body

    async def undo(self, gid: str, token: str | None) -> dict[str, Any]:
        """Take back moves until it is the bearer's turn before their last move (against the
        computer), or the last move (hot-seat, solitaire)."""
        live = await self.live(gid)
        seat = live.seat_of(token)
        if seat is None:
            raise ApiError(401, "no_token", "send the seat's token: Authorization: Bearer <token>")
        async with live.lock:
            if not self._may_undo(live, seat):
                raise ApiError(403, "no_undo", "moves can be taken back only against the "
                               "computer or at a hot-seat table")
            game = live.game
            if live.agreed is not None:
                raise ApiError(409, "game_over", "the game ended by agreement")
            if not game.history:
                raise ApiError(409, "nothing_to_undo", "there is no move to undo")
            undone = 0
            try:
                while True:
                    game.undo()
                    undone += 1
                    mover = game.current_player()
                    if live.hotseat or mover == seat or not game.history:
                        break
            except NothingToUndoError as e:
                if undone == 0:
                    raise ApiError(409, "nothing_to_undo", str(e)) from None
            live.version += 1
            ply = len(game.history)
            try:
                await self._in_db(self.store.truncate, live.id, ply, game.to_json(), live.version)
            except Exception:
                self._live.pop(live.id, None)  # reload from storage next time
                raise ApiError(503, "storage", "the undo could not be stored") from None
            self._kick_computers(live)
            body = self.payload(live, seat)
        await self.broadcast(live)
        return body

    async def draw(self, gid: str, token: str | None, action: Any) -> dict[str, Any]:
        """Draw by agreement (the match layer's part, e.g. Count Red's CR-14): ``offer``,
        ``accept`` or ``decline`` (``withdraw`` for one's own offer). A computer declines; a
        move lets an offer lapse."""
        if action not in ("offer", "accept", "decline", "withdraw"):
            raise ApiError(400, "malformed", "action is offer, accept, decline or withdraw")
        live = await self.live(gid)
        seat = live.seat_of(token)
        if seat is None:
            raise ApiError(401, "no_token", "send the seat's token: Authorization: Bearer <token>")
        async with live.lock:
            if live.over():
                raise ApiError(409, "game_over", "the game is over")
            if len(live.seats) < 2:
                raise ApiError(409, "no_draw", "a solitaire has no one to agree with")
            offer = live.draw_offer
            if action == "offer":
                if offer is not None and offer != seat:
                    action = "accept"  # both want it
                elif all(s.kind == "computer" for i, s in enumerate(live.seats) if i != seat):
                    raise ApiError(409, "declined", "the computer declines the draw")
                else:
                    live.draw_offer = seat
            if action == "accept":
                if offer is None or offer == seat:
                    raise ApiError(409, "no_offer", "there is no draw offer to accept")
                live.agreed = "draw by agreement"
                live.draw_offer = None
                live.version += 1
                try:
                    await self._in_db(self.store.set_agreed, live.id, live.agreed, live.version)
                except Exception:
                    live.agreed = None
                    live.version -= 1
                    raise ApiError(503, "storage", "the draw could not be stored") from None
            elif action in ("decline", "withdraw"):
                if offer is None or (action == "decline") == (offer == seat):
                    raise ApiError(409, "no_offer", "there is no such draw offer")
                live.draw_offer = None
            body = self.payload(live, seat)
        await self.broadcast(live)
        return body

    async def rematch(self, gid: str, token: str | None) -> dict[str, Any]:
        """A new game with the same seats (every token goes on working) after this one ended.
        Its options come from the game's own rematch rule where it has one (Count Red, CR-15:
        the loser starts, parities swap), else the same options with a fresh seed."""
        live = await self.live(gid)
        seat = live.seat_of(token)
        if seat is None:
            raise ApiError(401, "no_token", "send the seat's token: Authorization: Bearer <token>")
        async with live.lock:
            if not live.over():
                raise ApiError(409, "not_over", "a rematch follows a finished game")
            if live.rematch is not None:
                return {"id": live.rematch}
            full = live.game.options()
            rule = live.entry.extra.get("rematch")
            opts: dict[str, str] | None = None
            if callable(rule):
                try:
                    opts = dict(rule(full, None if live.agreed else live.game.outcome()))
                except (RuleboxError, ValueError, TypeError, KeyError):
                    opts = None
            if opts is None:
                opts = {k: v for k, v in full.items() if k != "seed"}
            try:
                game = live.entry.cls.new(opts)
            except RuleboxError as e:
                raise ApiError(409, "no_rematch", f"no rematch: {e}") from None
            seats = [Seat(s.kind, s.token_hash, s.agent, dict(s.settings), s.label)
                     for s in live.seats]
            new_id = secrets.token_urlsafe(9).replace("-", "x").replace("_", "y")
            await self._in_db(self.store.create_game, new_id, live.entry.id,
                              [s.to_record() for s in seats], live.hotseat, game.to_json())
            fresh = LiveGame(new_id, live.entry, game, seats, live.hotseat, 0)
            self._live[new_id] = fresh
            live.rematch = new_id
        async with fresh.lock:
            self._kick_computers(fresh)
        await self.broadcast(live)
        return {"id": new_id}

    def _may_undo(self, live: LiveGame, seat: int | None) -> bool:
        if seat is None or live.seats[seat].kind != "human":
            return False
        if live.hotseat:
            return True
        return all(s.kind == "computer" for i, s in enumerate(live.seats) if i != seat)

    async def _commit(self, live: LiveGame, moves: list[Any]) -> None:
        """Apply legal moves and store them; on a storage failure take them back."""
        game = live.game
        first = len(game.history)
        done: list[tuple[int, str]] = []
        for move in moves:
            done.append((game.current_player(), str(move)))
            game.apply_unchecked(move)
        live.version += 1
        try:
            await self._write_moves((live.id, first, done, game.to_json(), game.is_terminal(),
                                     live.version))
        except Exception:
            for _ in done:
                game.undo()
            live.version -= 1
            raise ApiError(503, "storage", "the move could not be stored; try again") from None

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
                batch, self._pending = self._pending[:500], self._pending[500:]
                try:
                    await self._in_db(self.store.record_batch, [item for item, _ in batch])
                except Exception:
                    # one at a time, so that one bad write fails only its own move
                    for item, fut in batch:
                        try:
                            await self._in_db(self.store.record_batch, [item])
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

    # --- computer seats -------------------------------------------------------------------------
    def _kick_computers(self, live: LiveGame) -> None:
        """Start the computer player task if a computer is to move (call with the lock held)."""
        if self._closed or live.computer_task is not None:
            return
        p = live.game.current_player()
        if p >= 0 and live.seats[p].kind == "computer" and live.agreed is None:
            live.computer_task = asyncio.get_running_loop().create_task(self._computers(live))

    async def _think_apart(self, agent: str, game_id: str, settings: dict[str, str],
                           state: dict[str, Any], snapshot: Game) -> Any:
        """The agent's move, chosen in a worker process from the complete state."""
        if self._procs is None:
            raise RuntimeError("no worker processes")
        loop = asyncio.get_running_loop()
        try:
            text = await loop.run_in_executor(self._procs, think_job, agent, game_id, settings,
                                              state)
        except BrokenProcessPool:
            self._procs = None
            raise
        return snapshot.parse(text)

    def _agent(self, live: LiveGame, p: int) -> Agent:
        agent = live.agents.get(p)
        if agent is None:
            seat = live.seats[p]
            settings = dict(seat.settings)
            settings.setdefault("seed", str(int(hash_token(f"{live.id}:{p}")[:12], 16)))
            try:
                agent = make_agent(seat.agent or "random", live.entry.id, settings)
            except RuleboxError:
                agent = make_agent("random", live.entry.id, {"seed": settings["seed"]})
            live.agents[p] = agent
        return agent

    async def _computers(self, live: LiveGame) -> None:
        loop = asyncio.get_running_loop()
        try:
            while True:
                async with live.lock:
                    p = live.game.current_player()
                    if (p < 0 or live.seats[p].kind != "computer" or self._closed
                            or live.agreed is not None):
                        live.computer_task = None
                        return
                    version = live.version
                    snapshot = live.game.clone()
                    state = live.game.to_json()
                    seat = live.seats[p]
                    settings = dict(seat.settings)
                    settings.setdefault("seed", str(
                        (int(hash_token(f"{live.id}:{p}")[:12], 16) + version) % 2**62))
                try:
                    move = await self._think_apart(seat.agent or "random", live.entry.id,
                                                   settings, state, snapshot)
                except asyncio.CancelledError:
                    raise
                except Exception:  # no worker process: think here, in a thread
                    try:
                        agent = self._agent(live, p)
                        move = await loop.run_in_executor(self._think, agent.choose, snapshot)
                    except asyncio.CancelledError:
                        raise
                    except Exception:  # a failing agent must not stall the game: play randomly
                        move = make_agent("random", live.entry.id,
                                          {"seed": str(version)}).choose(snapshot)
                async with live.lock:
                    if live.version != version:
                        continue  # an undo came first: think again about the new position
                    try:
                        live.game.check_move(move)
                    except RuleboxError:
                        move = live.game.legal_moves()[0]
                    try:
                        await self._commit(live, [move])
                    except ApiError:
                        await asyncio.sleep(1.0)
                        continue
                await self.broadcast(live)
        except asyncio.CancelledError:
            raise
        except Exception:  # never leave a game stuck: note it, and let the next request retry
            live.computer_task = None
            raise

    # --- explanations ---------------------------------------------------------------------------
    async def explain(self, gid: str, token: str | None, arg: str) -> dict[str, Any]:
        """The game's own ``explain`` (e.g. how a count comes out in Count Red) for the current
        position. Only for games without hidden information: an explanation reads the whole
        position."""
        live = await self.live(gid)
        live.seat_of(token)
        explain = live.entry.explain
        if explain is None or live.entry.cls.has_hidden_information:
            raise ApiError(404, "no_explain", f"{live.entry.title} has no explanations")
        if not isinstance(arg, str) or not arg.strip() or len(arg) > 40:
            raise ApiError(400, "malformed", "ask about a field, a hole or a move (short text)")
        async with live.lock:
            game = live.game.clone()
        try:
            text = explain(game, arg)
        except RuleboxError as e:
            raise ApiError(400, "malformed", str(e)) from None
        except (ValueError, KeyError, IndexError, TypeError):
            raise ApiError(400, "malformed", f"nothing to explain about {arg[:40]!r}") from None
        return {"id": gid, "ask": arg, "text": text}

    # --- replay --------------------------------------------------------------------------------
    async def replay(self, gid: str, token: str | None, ply: int) -> dict[str, Any]:
        """The position after ``ply`` moves, as the bearer's seat (or a spectator) saw it."""
        live = await self.live(gid)
        seat = live.seat_of(token)
        async with live.lock:
            history = live.game.history
            if not 0 <= ply <= len(history):
                raise ApiError(404, "no_such_ply", f"the game has plies 0 to {len(history)}")
            full = live.game.to_json()
        try:
            game = live.entry.cls.new(full["options"])
            for text in history[:ply]:
                game.apply(str(text))
        except RuleboxError as e:
            raise ApiError(409, "no_replay", f"this game cannot be replayed: {e}") from None
        view = game.view(seat)
        return {"id": gid, "ply": ply, "plies": len(history),
                "move": str(history[ply - 1]) if ply else None,
                "to_move": game.current_player() if not game.is_terminal() else None,
                "view": view}

    # --- sockets -------------------------------------------------------------------------------
    async def attach(self, live: LiveGame, ws: Any, seat: int | None) -> dict[str, Any]:
        """Register a socket for a seat; answers the payload to send first."""
        async with live.lock:
            live.sockets[ws] = seat
            return self.payload(live, seat)

    def detach(self, live: LiveGame, ws: Any) -> None:
        """Forget a socket."""
        live.sockets.pop(ws, None)

    async def broadcast(self, live: LiveGame) -> None:
        """Send every socket its own seat's payload (built from that seat's view only)."""
        async with live.lock:
            if not live.sockets:
                return
            by_seat: dict[int | None, dict[str, Any]] = {}
            targets = list(live.sockets.items())
            for _, seat in targets:
                if seat not in by_seat:
                    by_seat[seat] = {"type": "state", **self.payload(live, seat)}
        sends: list[Awaitable[Any]] = [
            _send(ws, by_seat[seat]) for ws, seat in targets
        ]
        results = await asyncio.gather(*sends, return_exceptions=True)
        for (ws, _), res in zip(targets, results, strict=True):
            if isinstance(res, BaseException):
                self.detach(live, ws)


def think_job(agent: str, game_id: str, settings: dict[str, str], state: dict[str, Any]) -> str:
    """Run in a worker process: restore the game from its complete state and let the agent
    choose; answers the move's text."""
    game = game_entry(game_id).cls.from_json(state)
    try:
        chooser = make_agent(agent, game_id, settings)
    except RuleboxError:
        chooser = make_agent("random", game_id, {"seed": settings.get("seed", "0")})
    return str(chooser.choose(game))


async def _send(ws: Any, data: dict[str, Any]) -> None:
    with contextlib.suppress(asyncio.CancelledError):
        await asyncio.wait_for(ws.send_json(data), timeout=10)


def _parse(game: Game, text: str) -> Any:
    """Resolve move text, turning the rules' errors into API errors."""
    try:
        return game.parse(text)
    except GameOverError as e:
        raise ApiError(409, "game_over", str(e)) from None
    except IllegalMoveError as e:
        raise ApiError(422, "illegal", str(e), rule=e.rule, reason=e.reason) from None
    except AmbiguousMoveError as e:
        raise ApiError(400, "ambiguous", str(e)) from None
    except InvalidMoveError as e:
        raise ApiError(400, "malformed", str(e)) from None
    except StateError as e:
        raise ApiError(400, "malformed", str(e)) from None
    except RuleboxError as e:
        raise ApiError(400, "malformed", str(e)) from None
    except (TypeError, KeyError, IndexError, AttributeError):
        raise ApiError(400, "malformed", f"{text[:40]!r} is not a move of this game") from None
