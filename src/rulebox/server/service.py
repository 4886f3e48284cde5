"""The authoritative game service behind the web API: live tables, tokens, computer players.

The server never trusts a client. A seat is identified by a secret token (only its SHA-256 is
stored); a move is text that the game's own ``parse`` resolves against the rules; every message
about a game is built from ``view(seat)`` (``view(None)`` for spectators), so no seat ever
receives another's hidden cards or the deck order. Each accepted change is committed to storage
before it is acknowledged or pushed to anyone.

Everything around the rules (turns, versions, the computer's turn and its failure policy, undo,
draws, resignation, rematch, announcements) is the table's (:class:`rulebox.match.table.Table`);
this module translates HTTP to table calls, table errors to HTTP, and stores the table.

What keeps a server open to strangers usable (:mod:`rulebox.server.limits`, docs/SERVER.md):
computer settings capped (``time=`` at most 5 s by default), all-computer games refused (or run
at low priority within a quota), one fair think queue, and abandoned games ended after a while.
The hidden order of a deal comes from OS randomness (``secrets.SystemRandom``, not from a
seed); 36 to 1 and Columba commit to their deal before the first move and reveal it at the end
(:mod:`rulebox.match.fairness`, docs/FAIRNESS.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import multiprocessing
import os
import re
import secrets
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from importlib import resources
from typing import TYPE_CHECKING, Any, TypeVar

from rulebox.ai.base import agent_entries
from rulebox.core.errors import (
    AmbiguousMoveError,
    GameOverError,
    IllegalMoveError,
    InvalidMoveError,
    RuleboxError,
    StateError,
)
from rulebox.core.game import Game
from rulebox.core.registry import GameEntry, game_entry, game_ids
from rulebox.i18n import N_, _, language, ngettext, use_language
from rulebox.match.agents import LOBBY_TIMES, AgentSpec
from rulebox.match.clock import Clock, ClockError, TimeControl
from rulebox.match.fairness import arranged, new_game, seal, server_deal, server_seed
from rulebox.match.table import Decision, Ending, Seat, Table, TableError, position_at
from rulebox.server.clock import Clock as ServerClock
from rulebox.server.clock import SystemClock
from rulebox.server.cluster import overtaken
from rulebox.server.limits import Limits, ThinkQueue
from rulebox.server.store import StaleWrite, Store
from rulebox.server.worker import worker_init

if TYPE_CHECKING:
    from rulebox.server.cluster import Cluster

T = TypeVar("T")

MAX_MOVE_CHARS = 200
"""Longer move text is refused as oversized (no notation comes close)."""

LEVELS = ("easy", "medium", "hard")
"""Computer levels offered by the lobby (``computer:LEVEL``, :mod:`rulebox.match.agents`)."""

DEFAULT_LEVEL = "medium"

MAX_LIVE = 2000
"""Games kept in memory at most (idle ones beyond are reloaded from storage when needed)."""

STATUS: dict[str, int] = {
    "stale": 409, "not_your_turn": 409, "game_over": 409, "nothing_to_undo": 409,
    "no_draw": 409, "no_offer": 409, "not_over": 409, "no_rematch": 409, "declined": 409,
    "no_undo": 403, "wrong_seat": 403, "bad_seats": 400,
}
"""The HTTP status of each table refusal."""

FLAG_SWEEP = 2.0
"""Seconds between looks in storage for clocks whose flag fell with no timer watching (after a
restart, or in a process that died): each is loaded, which ends it on time."""

EVENTS_SHOWN = 30
"""The last events a payload carries (the browser shows the announcements among them)."""

PRESENCE_GRACE = 4.0
"""Seconds a seat may be without a socket before the others are told it left (a reload, a
short network gap say nothing)."""

MAX_MINE = 50
"""Entries of ``POST /api/games/mine`` at most."""

RULE_ID = re.compile(r"\b[A-Z]{1,4}-\d+[a-z]?\b")
_RULE_REFS = re.compile(r"\s*[\[(]\s*[A-Z]{1,4}-\d+[a-z]?(?:\s*[,;/]\s*[A-Z]{1,4}-\d+[a-z]?)*"
                        r"\s*[\])]")


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
class SeatRecord:
    """A seat as stored: ``human`` (with its token's hash) or ``computer`` (its agent spec)."""

    kind: str  # "human" | "computer"
    token_hash: str | None = None
    agent: str | None = None
    label: str = "human"

    def to_record(self) -> dict[str, Any]:
        return {"kind": self.kind, "token_hash": self.token_hash, "agent": self.agent,
                "label": self.label}

    @classmethod
    def from_record(cls, data: dict[str, Any]) -> SeatRecord:
        agent = data.get("agent")
        settings = data.get("settings") or {}
        if agent and settings:  # stored before agent specs: a name and a settings object
            agent = AgentSpec(str(agent), tuple((str(k), str(v))
                                                for k, v in settings.items())).label
        return cls(data["kind"], data.get("token_hash"), agent, data.get("label", data["kind"]))

    def seat(self, hotseat: bool, limits: Limits | None = None) -> Seat:
        """The table's seat: a person at this screen (hot-seat) or elsewhere, or the agent
        (within ``limits``' caps: a game stored before them thinks no longer than they allow)."""
        if self.kind == "computer":
            spec = AgentSpec.parse(self.agent or "computer")
            if limits is not None:
                spec = limits.cap(spec, strict=False)
            return Seat.computer(spec, self.label)
        return Seat.person() if hotseat else Seat.remote()


def resolve_seat(spec: Any, game_id: str, limits: Limits | None = None) -> SeatRecord:
    """Read a seat of ``POST /api/games``: ``human`` or an agent spec
    (:mod:`rulebox.match.agents`): ``computer`` (the strongest agent), ``computer:easy`` (the
    lobby's levels), ``mcts:time=1,iterations=500``. A bad spec, or one above ``limits``' caps,
    is refused with 400; the stored spec always has a ``time=``."""
    if not isinstance(spec, str) or not spec.strip() or len(spec) > 100:
        raise ApiError(400, "bad_seat", _("a seat is 'human', 'computer' or an agent spec"))
    try:
        seat = Seat.parse(spec, game_id, remote=True)
        agent = seat.agent
        if agent is not None and limits is not None:
            agent = limits.cap(agent, strict=True)
            agent.make(game_id)
    except RuleboxError as e:
        raise ApiError(400, "bad_seat", str(e)) from None
    if not seat.is_computer:
        return SeatRecord("human")
    assert agent is not None
    return SeatRecord("computer", agent=agent.label, label=seat.label)


@dataclass
class LiveGame:
    """A table held in memory while anyone uses it; storage has the same state."""

    id: str
    entry: GameEntry
    table: Table
    records: list[SeatRecord]
    hotseat: bool
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    sockets: dict[Any, int | None] = field(default_factory=dict)
    computer_task: asyncio.Task[None] | None = None
    used: float = field(default_factory=time.monotonic)
    rematch: str | None = None
    langs: dict[Any, str] = field(default_factory=dict)
    """Each socket's language (``?lang=`` on its URL, else its Accept-Language)."""
    clock_task: asyncio.Task[None] | None = None
    """The timer that ends the game when the running seat's flag falls."""
    seen: dict[int, str] = field(default_factory=dict)
    """Presence per seat: ``in`` once a socket of it came, ``left`` once its leaving was told."""
    leaving: dict[int, asyncio.Task[None]] = field(default_factory=dict)
    """The pending "left" notice per seat (cancelled when a socket of it comes back)."""
    log_texts: dict[str, tuple[list[str], list[str]]] = field(default_factory=dict)
    """Per language: the moves described so far and their texts (the move log's cache)."""

    @property
    def all_computer(self) -> bool:
        """Whether no person sits at the table."""
        return all(r.kind == "computer" for r in self.records)

    @property
    def game(self) -> Game:
        return self.table.game

    @property
    def version(self) -> int:
        return self.table.version

    def over(self) -> bool:
        """Whether the game has ended, by the rules or at the table."""
        return self.table.over()

    def seat_of(self, token: str | None) -> int | None:
        """The seat a token belongs to; ``None`` for no token. A bad token raises 401."""
        if token is None:
            return None
        h = hash_token(token)
        for i, seat in enumerate(self.records):
            if seat.token_hash is not None and secrets.compare_digest(seat.token_hash, h):
                return i
        raise ApiError(401, "bad_token", _("this token does not belong to a seat of this game"))


def _table_error(e: TableError) -> ApiError:
    return ApiError(STATUS.get(e.code, 409), e.code, str(e), **e.extra)


def _new_id() -> str:
    return secrets.token_urlsafe(9).replace("-", "x").replace("_", "y")


class GameService:
    """Creates, loads and plays games; pushes every change to the seats' sockets."""

    cluster: Cluster | None = None
    """Several processes on one PostgreSQL database (:mod:`rulebox.server.cluster`; set by
    ``create_app``): tables are refreshed from storage, computer turns are jobs there."""

    def __init__(self, store: Store, *, think_workers: int = 2,
                 limits: Limits | None = None, clock: ServerClock | None = None) -> None:
        self.store = store
        self.limits = limits or Limits()
        self.clock: ServerClock = clock or SystemClock()
        """The one clock of the app (:mod:`rulebox.server.clock`), read by every part."""
        self.queue = ThinkQueue(think_workers, self.limits.short_think)
        self._sweeper: asyncio.Task[None] | None = None
        self._flag_sweeper: asyncio.Task[None] | None = None
        self._db = ThreadPoolExecutor(1 if store.is_sqlite else 8, thread_name_prefix="rb-db")
        self._think_threads = ThreadPoolExecutor(think_workers, thread_name_prefix="rb-ai")
        # computers think in worker processes, so that a long search never slows the server
        self._procs: ProcessPoolExecutor | None = ProcessPoolExecutor(
            think_workers, mp_context=multiprocessing.get_context("spawn"),
            initializer=worker_init, initargs=(os.getpid(),))
        self._live: dict[str, LiveGame] = {}
        self._pending: list[tuple[tuple[Any, ...], asyncio.Future[None]]] = []
        self._writer: asyncio.Task[None] | None = None
        self._loading: dict[str, asyncio.Lock] = {}
        self._closed = False

    async def warm(self) -> None:
        """Start every think worker now and load the games and agents in it, so that no
        person's first computer reply waits for a process to start (which takes seconds on a
        busy machine, longer than ``easy`` thinks)."""
        self._start_sweeper()  # abandoned games expire even if no game is created
        if self._procs is None:
            return
        loop = asyncio.get_running_loop()
        n = self.queue.slots
        jobs = [loop.run_in_executor(self._procs, warm_job, 0.5) for _ in range(n)]
        with contextlib.suppress(Exception):
            await asyncio.gather(*jobs)

    async def close(self) -> None:
        """Stop computer players and release threads and connections."""
        self._closed = True
        if self._sweeper is not None:
            self._sweeper.cancel()
        if self._flag_sweeper is not None:
            self._flag_sweeper.cancel()
        for live in list(self._live.values()):
            if live.computer_task is not None:
                live.computer_task.cancel()
            for task in [live.clock_task, *live.leaving.values()]:
                if task is not None:
                    task.cancel()
        self._think_threads.shutdown(wait=False, cancel_futures=True)
        if self._procs is not None:
            stop_workers(self._procs)
            self._procs = None
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
                     "help": _(s.help) if s.help else "", "choices": list(s.choices)}
                    for s in cls.option_specs
                ],
                "agents": [{"name": e.name,
                            "description": _(e.description) if e.description else ""}
                           for e in agent_entries(gid)],
                "notation": entry.notation_text(),
            })
        return {"games": games, "levels": list(LEVELS), "default_level": DEFAULT_LEVEL,
                "level_times": {k: LOBBY_TIMES[k] for k in LEVELS}}

    def rules(self, game_id: str) -> dict[str, Any]:
        """The rules text of a game (its ``rules.md``) and its notation."""
        try:
            entry = game_entry(game_id)
        except RuleboxError as e:
            raise ApiError(404, "unknown_game", str(e)) from None
        try:
            text = entry.rules_text(language())  # the request's language (English if none)
        except (FileNotFoundError, OSError, ModuleNotFoundError):
            text = f"# {entry.title}\n\n(The rules text of this game is not written yet.)\n"
        return {"game": entry.id, "title": entry.title, "text": text,
                "notation": entry.notation_text()}

    def asset(self, game_id: str, name: str) -> Any:
        """A JSON data file shipped in a game's package (its printed components)."""
        from fastapi.responses import Response

        try:
            entry = game_entry(game_id)
        except RuleboxError:
            raise ApiError(404, "unknown_game", _("no such game")) from None
        stem, _sep, ext = name.partition(".")
        if ext != "json" or not stem.replace("_", "").isalnum():
            raise ApiError(404, "no_such_asset", _("assets are JSON files of the game's package"))
        try:
            data = resources.files(entry.package).joinpath(name).read_bytes()
        except (FileNotFoundError, OSError, ModuleNotFoundError):
            raise ApiError(404, "no_such_asset", _("{title} has no {name}").format(
                                                     title=entry.title, name=name)) from None
        return Response(data, media_type="application/json",
                        headers={"Cache-Control": "public, max-age=3600"})

    # --- creating and loading ------------------------------------------------------------------
    async def create(
        self, game_id: Any, options: Any, seat_specs: Any, hotseat: bool = False,
        clock: Any = None,
    ) -> dict[str, Any]:
        """Start a game; answers its id and one token per human seat. ``clock`` is a time
        control (``"5+3"``, ``"3d"``, :mod:`rulebox.match.clock`) or ``None``."""
        control = self._time_control(clock)
        if not isinstance(game_id, str):
            raise ApiError(400, "unknown_game", _("game must be a game id"))
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
            raise ApiError(400, "bad_options", _("options are an object of short key: "
                                                 "value text"))
        opts = {k.strip().lower(): str(v) for k, v in options.items() if str(v).strip() != ""}
        if not isinstance(seat_specs, list) or not seat_specs or len(seat_specs) > 8:
            raise ApiError(400, "bad_seats", _("seats is a list with one entry per player"))
        names = {s.name for s in entry.cls.option_specs}
        if "players" in names and "players" not in opts:
            opts["players"] = str(len(seat_specs))
        fixed = arranged(opts)
        if not fixed:
            opts["seed"] = str(server_seed())
        try:
            # the hidden order from OS randomness (not from the seed) unless the creator fixed it
            game = new_game(entry.id, opts) if fixed else server_deal(entry.id, opts)
        except RuleboxError as e:
            raise ApiError(400, "bad_options", str(e)) from None
        if len(seat_specs) != game.num_players:
            raise ApiError(400, "bad_seats", ngettext(
                "{title} with these options has {num_players} seat, not {n_seat_specs}",
                "{title} with these options has {num_players} seats, not {n_seat_specs}",
                game.num_players).format(title=entry.title, num_players=game.num_players,
                                         n_seat_specs=len(seat_specs)))
        records = [resolve_seat(s, entry.id, self.limits) for s in seat_specs]
        if all(r.kind == "computer" for r in records):
            self._check_all_computer()
        tokens: list[str | None] = []
        for rec in records:
            if rec.kind == "human":
                token = secrets.token_urlsafe(18)
                rec.token_hash = hash_token(token)
                tokens.append(token)
            else:
                tokens.append(None)
        table = Table(game, [r.seat(bool(hotseat), self.limits) for r in records],
                      arranged=fixed, deal=seal(game),
                      clock=Clock.new(control, game.num_players) if control else None,
                      time_source=self.clock.time)
        live = await self._start(entry, table, records, bool(hotseat))
        return {"id": live.id, "game": entry.id,
                "seats": [{"player": i, "token": t, "kind": s.kind, "label": s.label}
                          for i, (t, s) in enumerate(zip(tokens, records, strict=True))]}

    @staticmethod
    def _time_control(clock: Any) -> TimeControl | None:
        """The time control of ``POST /api/games`` (400 ``bad_clock`` when unreadable)."""
        if clock is None or clock == "":
            return None
        if not isinstance(clock, str):
            raise ApiError(400, "bad_clock", _("a clock is text such as 5+3 or 3d"))
        try:
            return TimeControl.parse(clock)
        except ClockError as e:
            raise ApiError(400, "bad_clock", str(e)) from None

    def _check_all_computer(self) -> None:
        """Refuse a game without a person (or beyond the quota of all-computer games)."""
        if self.limits.all_computer != "low":
            raise ApiError(400, "all_computer", _("a game needs at least one person at "
                                                  "the table on this server"))
        running = sum(1 for g in self._live.values() if g.all_computer and not g.over())
        if running >= self.limits.quota:
            raise ApiError(429, "quota", _("at most {quota} games between computers at "
                                           "once on this server; try again later").format(
                                             quota=self.limits.quota), retry_after=60)

    async def _start(self, entry: GameEntry, table: Table, records: list[SeatRecord],
                     hotseat: bool, gid: str | None = None) -> LiveGame:
        """Store a new table (under ``gid``, else a new id) and hold it live."""
        self._start_sweeper()
        gid = gid or _new_id()
        await self._in_db(self.store.create_game, gid, entry.id,
                          [s.to_record() for s in records], hotseat, table.to_json())
        live = LiveGame(gid, entry, table, records, hotseat, used=self.clock.monotonic())
        self._live[gid] = live
        self._evict()
        async with live.lock:
            self._kick_computers(live)
        return live

    async def live(self, gid: str) -> LiveGame:
        """The live game of an id, loaded from storage when needed (404 when unknown)."""
        live = self._live.get(gid)
        if live is not None:
            live.used = self.clock.monotonic()
            if self.cluster is not None:  # another process may have changed it
                await self.cluster.refresh(live)
            self._kick_computers(live)  # e.g. after a storage failure stopped the computer
            await self.settle_time(live)
            return live
        lock = self._loading.setdefault(gid, asyncio.Lock())
        async with lock:
            live = self._live.get(gid)
            if live is not None:
                return live
            stored = await self._in_db(self.store.load, gid)
            if stored is None:
                self._loading.pop(gid, None)
                raise ApiError(404, "no_such_game", _("there is no game with this id"))
            records = [SeatRecord.from_record(s) for s in stored.seats]
            try:
                entry = game_entry(stored.game)
                table = Table.from_json(stored.state, [r.seat(stored.hotseat, self.limits)
                                                        for r in records])
                table.time_source = self.clock.time
            except (RuleboxError, KeyError, TypeError, ValueError) as e:
                raise ApiError(500, "corrupt_game", _("the stored game cannot be "
                                                      "loaded: {e}").format(e=e)) \
                    from None
            table.version = max(table.version, stored.version)
            if stored.agreed and table.ending is None:  # stored before tables kept endings
                table._agree()
            live = LiveGame(gid, entry, table, records, stored.hotseat,
                            rematch=stored.rematch, used=self.clock.monotonic())
            self._live[gid] = live
            self._loading.pop(gid, None)
            self._evict()
        if self.cluster is not None:  # the seats with sockets on other processes
            await self.cluster.refresh(live)
        async with live.lock:
            self._kick_computers(live)
        await self.settle_time(live)
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
        only, plus the public facts: seats, whose turn, the result, the table's events (the
        announcements among them) and, on the seat's own turn, its legal moves."""
        table = live.table
        game = table.game
        view = game.view(seat)
        if "history" in view:
            history: list[str] | None = list(view["history"])
        elif game.has_hidden_information:
            history = None  # the game keeps its move list to itself
        else:
            history = [str(m) for m in game.history]
        ending = table.ending
        result: dict[str, Any] | None = None
        if ending is not None:
            scores = ending.outcome.scores if ending.outcome is not None else None
            result = {"winners": list(ending.winners),
                      "scores": None if scores is None else list(scores),
                      "reason": ending.reason, "how": ending.how,
                      "line": ending.result_line(), **self.result_words(live)}
        to_move = table.to_move()
        legal: list[str] = []
        if seat is not None and to_move == seat and not table.seats[seat].is_computer:
            legal = sorted(str(m) for m in game.legal_moves())
        events = [e.to_json() for e in table.events[-EVENTS_SHOWN:]
                  if e.text and (e.kind != "move" or history is not None)]
        fresh = (game.outcome() if ending is not None and ending.how == "rules"
                 and game.is_terminal() else None)
        for e in events:
            if e["kind"] == "draw_declined":
                e["kind"] = "declined"  # the contract's name (issue 17)
            elif e["kind"] == "game_over" and fresh is not None:
                e["text"] = fresh.reason  # the rules' reason in the reader's language
        return {
            "id": live.id,
            "game": live.entry.id,
            "title": live.entry.title,
            "options": game.public_options(),
            "version": table.version,
            "you": seat,
            "hotseat": live.hotseat,
            "seats": [{"player": i, "name": live.entry.seat_name(i), "kind": r.kind,
                       "label": r.label} for i, r in enumerate(live.records)],
            "to_move": to_move,
            "over": result is not None,
            "result": result,
            "ply": len(game.history),
            "history": history,
            "legal": legal,
            "can_undo": table.can_undo(seat),
            "draw_offer": table.draw_offer,
            "rematch": live.rematch,
            "can_offer_draw": (seat is not None and result is None and len(live.records) > 1
                               and not table.seats[seat].is_computer),
            "takebacks": table.takebacks,
            "events": events,
            "arranged": table.arranged,
            "fairness": self.fairness(live),
            "view": view,
            **self.table_extras(live, seat, history),
        }

    def fairness(self, live: LiveGame) -> dict[str, Any] | None:
        """The commitment to the deal (36 to 1, Columba; docs/FAIRNESS.md): ``commitment`` and
        ``arranged`` from the start; once the game is over also ``reveal`` (whose SHA-256 is the
        commitment) and ``log`` (every step, takebacks included) to replay it on."""
        table = live.table
        if table.deal is None:
            return None
        out: dict[str, Any] = {"commitment": table.deal.commitment, "arranged": table.arranged}
        if table.over():
            out["reveal"] = table.deal.reveal
            out["log"] = list(table.log)
            out["options"] = table.game.public_options()
        return out

    # --- playing --------------------------------------------------------------------------------
    async def _seat(self, gid: str, token: str | None) -> tuple[LiveGame, int]:
        live = await self.live(gid)
        seat = live.seat_of(token)
        if seat is None:
            raise ApiError(401, "no_token", _("send the seat's token: Authorization: "
                                              "Bearer <token>"))
        return live, seat

    async def play(self, gid: str, token: str | None, text: Any, player: Any = None,
                   version: Any = None) -> dict[str, Any]:
        """Play ``text`` for the bearer's seat, made on ``version`` (a stale version is refused
        with 409 and the current version); answers that seat's payload after the move."""
        if not isinstance(text, str):
            raise ApiError(400, "malformed", _("move must be text in the game's notation"))
        if len(text) > MAX_MOVE_CHARS:
            raise ApiError(413, "oversized", _("a move is at most {max_move_chars} "
                                               "characters").format(
                                                 max_move_chars=MAX_MOVE_CHARS))
        if version is not None and (not isinstance(version, int) or isinstance(version, bool)):
            raise ApiError(400, "malformed", _("version is the number of the game's version"))
        live, seat = await self._seat(gid, token)
        if player is not None and player != seat:
            raise ApiError(403, "wrong_seat", f"this token belongs to player {seat}, "
                           f"not to player {player!r}"[:120])
        async with live.lock:
            before = self._snapshot(live)
            try:
                move = live.table.play(seat, text, version=version)
            except TableError as e:
                await self._store_flag(live, before)
                raise _table_error(e) from None
            except RuleboxError as e:
                raise _rules_error(e, text) from None
            await self._commit(live, before)
            self._kick_computers(live)
            body = self.payload(live, seat)
            body["move"] = str(move)
        await self.broadcast(live)
        return body

    async def undo(self, gid: str, token: str | None, version: Any = None) -> dict[str, Any]:
        """Take back moves back to the bearer's last decision (against the computer, or at a
        hot-seat table: the last person's move); unseen cards are shuffled again."""
        live, seat = await self._seat(gid, token)
        return await self._change(live, seat, lambda t: t.undo(seat, version=version))

    async def resign(self, gid: str, token: str | None) -> dict[str, Any]:
        """The bearer's seat gives up: the other side wins."""
        live, seat = await self._seat(gid, token)
        return await self._change(live, seat, lambda t: t.resign(seat))

    async def draw(self, gid: str, token: str | None, action: Any) -> dict[str, Any]:
        """Draw by agreement: ``offer``, ``accept`` or ``decline`` (``withdraw`` for one's own
        offer). A computer answers an offer by the table's rule (it accepts when it is losing;
        a refusal is 409 ``declined``); a move lets an offer lapse."""
        if action not in ("offer", "accept", "decline", "withdraw"):
            raise ApiError(400, "malformed", _("action is offer, accept, decline or withdraw"))
        live, seat = await self._seat(gid, token)
        if action == "offer":
            answer: list[str] = []
            body = await self._change(live, seat, lambda t: answer.append(t.offer_draw(seat)))
            if answer == ["declined"]:
                raise ApiError(409, "declined", _("the computer declines the draw"),
                               version=live.version)
            return body
        if action in ("decline", "withdraw") and live.table.draw_offer is not None and \
                (action == "withdraw") != (live.table.draw_offer == seat):
            raise ApiError(409, "no_offer", _("there is no such draw offer"))
        return await self._change(live, seat, lambda t: t.answer_draw(seat, action == "accept"))

    async def _change(self, live: LiveGame, seat: int, change: Callable[[Table], Any]
                      ) -> dict[str, Any]:
        """Make a change other than a move at the table, store it, and push it."""
        async with live.lock:
            before = self._snapshot(live)
            try:
                change(live.table)
            except TableError as e:
                raise _table_error(e) from None
            await self._store_state(live, before)
            self._kick_computers(live)
            body = self.payload(live, seat)
        await self.broadcast(live)
        return body

    async def rematch(self, gid: str, token: str | None, same_deal: bool = False
                      ) -> dict[str, Any]:
        """A new game with the same seats (every token goes on working) after this one ended,
        by the table's seed policy: a fresh deal unless ``same_deal``; the game's own rule
        first (Count Red, CR-15)."""
        live, _seat = await self._seat(gid, token)
        async with live.lock:
            if live.rematch is not None:
                return {"id": live.rematch}
            try:
                table = live.table.rematch(same_deal=bool(same_deal))
            except TableError as e:
                raise _table_error(e) from None
            records = [SeatRecord(r.kind, r.token_hash, r.agent, r.label) for r in live.records]
            if live.all_computer:
                self._check_all_computer()
            if not same_deal:  # dealt anew by the operating system's randomness
                table.game = server_deal(live.entry.id, table.game.options())
            table.deal = seal(table.game)
            # named in storage first, so that of two processes asked at once only one starts it
            new_id = _new_id()
            claimed = await self._in_db(self.store.claim_rematch, live.id, new_id)
            if claimed is None or claimed != new_id:
                live.rematch = claimed
                if claimed is None:
                    raise ApiError(404, "no_such_game", _("there is no game with this id"))
                return {"id": claimed}
            try:
                fresh = await self._start(live.entry, table, records, live.hotseat, new_id)
            except BaseException:
                with contextlib.suppress(Exception):
                    await self._in_db(self.store.release_rematch, live.id, new_id)
                raise
            live.rematch = fresh.id
        await self.broadcast(live)
        return {"id": fresh.id}

    # --- storing --------------------------------------------------------------------------------
    def _snapshot(self, live: LiveGame) -> dict[str, Any]:
        return live.table.to_json()

    def _restore(self, live: LiveGame, snapshot: dict[str, Any]) -> None:
        live.table = Table.from_json(snapshot, live.table.seats)
        live.table.time_source = self.clock.time

    async def _commit(self, live: LiveGame, before: dict[str, Any]) -> None:
        """Store the moves made since ``before``; on a storage failure go back to it."""
        table = live.table
        first = len(before["history"])
        history = [str(m) for m in table.game.history]
        done = [(table.movers[i], history[i]) for i in range(first, len(history))]
        try:
            await self._write_moves((live.id, first, done, table.to_json(), table.over(),
                                     table.version, before["version"]))
        except StaleWrite:  # another server process changed the game first
            raise await overtaken(self, live) from None
        except Exception:
            self._restore(live, before)
            raise ApiError(503, "storage", _("the move could not be stored; try again")) from None

    async def _store_state(self, live: LiveGame, before: dict[str, Any]) -> None:
        """Store the table after a change that is not a move (undo, draw, resignation)."""
        table = live.table
        try:
            await self._in_db(self.store.save_state, live.id, len(table.game.history),
                              table.to_json(), table.over(), table.version,
                              table.ending.reason if table.ending is not None
                              and table.ending.how != "rules" else None, before["version"])
        except StaleWrite:  # another server process changed the game first
            raise await overtaken(self, live) from None
        except Exception:
            self._restore(live, before)
            raise ApiError(503, "storage", _("the change could not be stored; try again")) \
                from None

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
        if self.cluster is not None:  # a job in the database, for any process to take
            self.cluster.kick(live)
            return
        if self._closed or live.computer_task is not None:
            return
        if live.table.computer_to_move() is not None:
            live.computer_task = asyncio.get_running_loop().create_task(self._computers(live))

    async def _think(self, live: LiveGame, decision: Decision, state: dict[str, Any],
                     snapshot: Game) -> Any:
        """The agent's move for ``decision``: in a worker process from the table's state, or,
        when there is no working worker process, in a thread here (the same agent: a broken
        pool is not the agent's failure). An agent's own error propagates."""
        loop = asyncio.get_running_loop()
        seconds = float(decision.spec.get("time") or self.limits.max_time)

        async def job() -> Any:
            if self._procs is not None:
                try:
                    return await loop.run_in_executor(self._procs, think_job,
                                                      decision.spec.label, live.entry.id, state)
                except BrokenProcessPool:
                    self._procs = None
            agent = decision.spec.make(live.entry.id)
            return await loop.run_in_executor(self._think_threads, agent.choose, snapshot)

        return await self.queue.run(seconds, live.all_computer, job)

    async def _computers(self, live: LiveGame) -> None:
        """The computer's turn: the table's decisions, thought out of the lock; a decision
        overtaken by a change (an undo) is thought again; a failing agent forfeits (the
        table's policy) and the failure is stored and shown."""
        try:
            while True:
                async with live.lock:
                    table = live.table
                    decision = table.decision() if not self._closed else None
                    if decision is None:
                        live.computer_task = None
                        return
                    state = table.to_json()
                    snapshot = table.game.clone()
                try:
                    if not await self.decide(live, decision, state, snapshot):
                        continue  # an undo came first: think again about the new position
                except ApiError:  # storage failed (the table went back) or another process
                    await self.clock.sleep(1.0)  # moved first (reloaded): a moment, then again
                    continue
                await self.broadcast(live)
        except asyncio.CancelledError:
            raise
        except Exception:  # never leave a game stuck: note it, and let the next request retry
            live.computer_task = None
            raise

    async def decide(self, live: LiveGame, decision: Decision, state: dict[str, Any],
                     snapshot: Game) -> bool:
        """Think about ``decision`` out of the lock, then, unless the table moved on meanwhile
        (``False``), play the move, or forfeit by the table's policy when the agent failed, and
        store it (:class:`ApiError` when storage refuses: the table goes back)."""
        try:
            move: Any = await self._think(live, decision, state, snapshot)
            error: BaseException | None = None
        except asyncio.CancelledError:
            raise
        except Exception as e:
            move, error = None, e
        async with live.lock:
            table = live.table
            if table.version != decision.version:
                return False
            before = self._snapshot(live)
            if error is not None:
                table.fail(decision, error)
                await self._store_state(live, before)
            else:
                table.play_decision(decision, move)
                await self._commit(live, before)
        return True

    # --- abandoned games ------------------------------------------------------------------------
    def _start_sweeper(self) -> None:
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
        ids = await self._in_db(self.store.flags_fallen, self.clock.time(), 200)
        for gid in ids:
            with contextlib.suppress(ApiError):
                await self.live(gid)
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
        ids = await self._in_db(self.store.stale_unfinished, self.limits.expire_after, 200)
        done = 0
        for gid in ids:
            try:
                live = await self.live(gid)
            except ApiError:
                continue
            async with live.lock:
                table = live.table
                if table.over():
                    continue
                before = self._snapshot(live)
                hours = self.limits.expire_after / 3600
                text = f"abandoned: no move for {hours:g} hours"
                table.ending = Ending("expired", text, ())
                table.draw_offer = None
                table._bump()
                table._event("expired", text)
                if live.computer_task is not None:
                    live.computer_task.cancel()
                    live.computer_task = None
                try:
                    await self._store_state(live, before)
                except ApiError:  # another process changed (or expired) it first: skip it
                    continue
                done += 1
            await self.broadcast(live)
        return done

    # --- explanations ---------------------------------------------------------------------------
    async def explain(self, gid: str, token: str | None, arg: str) -> dict[str, Any]:
        """The game's own ``explain`` (e.g. how a count comes out in Count Red) for the current
        position. Only for games without hidden information: an explanation reads the whole
        position."""
        live = await self.live(gid)
        live.seat_of(token)
        explain = live.entry.explain
        if explain is None or live.entry.cls.has_hidden_information:
            raise ApiError(404, "no_explain", _("{title} has no explanations").format(
                                                  title=live.entry.title))
        if not isinstance(arg, str) or not arg.strip() or len(arg) > 40:
            raise ApiError(400, "malformed", _("ask about a field, a hole or a move "
                                               "(short text)"))
        async with live.lock:
            game = live.game.clone()
        try:
            text = explain(game, arg)
        except RuleboxError as e:
            raise ApiError(400, "malformed", str(e)) from None
        except (ValueError, KeyError, IndexError, TypeError):
            raise ApiError(400, "malformed", _("nothing to explain about {arg!r}").format(
                                                 arg=arg[:40])) from None
        return {"id": gid, "ask": arg, "text": text}

    # --- replay --------------------------------------------------------------------------------
    async def replay(self, gid: str, token: str | None, ply: int) -> dict[str, Any]:
        """The position after ``ply`` moves, as the bearer's seat (or a spectator) saw it (after
        takebacks: the last time the game stood there on its final line)."""
        live = await self.live(gid)
        seat = live.seat_of(token)
        async with live.lock:
            history = [str(m) for m in live.game.history]
            if not 0 <= ply <= len(history):
                raise ApiError(404, "no_such_ply", _("the game has plies 0 to "
                                                     "{n_history}").format(
                                                       n_history=len(history)))
            options = live.game.options()
            steps = list(live.table.log)
        try:
            game = position_at(live.entry.id, options, steps, history[:ply])
        except RuleboxError as e:
            raise ApiError(409, "no_replay",
                           _("this game cannot be replayed: {e}").format(e=e)) from None
        view = game.view(seat)
        return {"id": gid, "ply": ply, "plies": len(history),
                "move": history[ply - 1] if ply else None,
                "to_move": game.current_player() if not game.is_terminal() else None,
                "view": view}

    # --- clocks, presence and the move log (issue 17) -------------------------------------------
    def table_extras(self, live: LiveGame, seat: int | None, history: list[str] | None
                     ) -> dict[str, Any]:
        """The payload's fields of issue 17 (docs/SERVER.md): the move log in words and its last
        turn, the clock, presence, the computer thinking, and whether the bearer only watches."""
        table = live.table
        entries = self.move_log(live, history)
        clock = table.clock
        # a computer to move is deciding (here, or as a job of another process of a cluster)
        thinking = table.computer_to_move()
        return {
            "spectator": seat is None,
            "log": entries,
            "last": entries[-1] if entries else None,
            "clock": clock.payload(self.clock.time()) if clock is not None else None,
            "presence": self.presence(live),
            "thinking": thinking,
        }

    def presence(self, live: LiveGame) -> list[bool]:
        """Per seat: a socket of it is connected, or it is a computer's (at a hot-seat table
        the people share one screen: a socket of any seat is there for all)."""
        here = set(live.sockets.values())
        if self.cluster is not None:  # and the seats with sockets on other processes
            here |= self.cluster.presence.seats(live)
        if live.hotseat and here - {None}:
            here = set(range(len(live.records)))
        return [r.kind == "computer" or i in here for i, r in enumerate(live.records)]

    def result_words(self, live: LiveGame) -> dict[str, Any]:
        """The result's ``text`` (in words, without rule IDs), its ``why`` (the reason with its
        rule IDs, as the end screen's "Why?" says it), both in the reader's language, the
        deciding ``rule`` and the pieces that decided it (``highlight``, from
        ``Game.highlights()``). The result's ``reason`` stays the stored (English) one."""
        table = live.table
        ending = table.ending
        if ending is None:
            return {}
        found = RULE_ID.search(ending.reason)
        shown = ending.shown()
        if ending.how == "rules" and table.game.is_terminal():
            # the rules' reason made now, in the reader's language (the ending keeps the
            # language of the request that ended the game)
            with contextlib.suppress(Exception):
                fresh = table.game.outcome()
                if fresh is not None:
                    shown = fresh.reason
        reason = _RULE_REFS.sub("", shown).strip()  # in the reader's language
        if ending.how == "rules" and ending.winners:
            who = _(" and ").join(live.entry.seat_name(w) for w in ending.winners)
            text = ngettext("{who} wins: {reason}", "{who} win: {reason}",
                            len(ending.winners)).format(who=who, reason=reason)
        elif ending.how == "rules" and table.game.num_players > 1:
            text = _("no winner: {reason}").format(reason=reason)
        else:
            text = reason
        highlight: list[str] = []
        if table.game.is_terminal():
            with contextlib.suppress(Exception):  # the end screen never fails on a mark
                highlight = [str(h) for h in table.game.highlights()]
        return {"text": text, "why": shown, "rule": found.group(0) if found else None,
                "highlight": highlight}

    def move_log(self, live: LiveGame, history: list[str] | None
                 ) -> list[dict[str, Any]] | None:
        """The move log in words, one entry per turn (consecutive plies of one seat), over the
        moves ``history`` the seat may see (``None``: hidden, no log)."""
        if history is None:
            return None
        table = live.table
        texts = self._log_texts(live)
        entries: list[dict[str, Any]] = []
        for i, move in enumerate(history[: len(texts)]):
            p = table.movers[i] if i < len(table.movers) else None
            if entries and entries[-1]["player"] == p:
                last = entries[-1]
                last["to_ply"] = i + 1
                last["moves"].append(move)
                last["texts"].append(texts[i])
                continue
            entries.append({"turn": len(entries) + 1, "player": p,
                            "seat": live.entry.seat_name(p) if p is not None else None,
                            "from_ply": i + 1, "to_ply": i + 1, "moves": [move],
                            "texts": [texts[i]]})
        return entries

    def _log_texts(self, live: LiveGame) -> list[str]:
        """``Game.describe`` of every move of the game in the current language, each on the
        position before it; cached per language and extended incrementally (an undo keeps the
        common beginning)."""
        game = live.game
        lang = language()
        moves = [str(m) for m in game.history]
        done, texts = live.log_texts.get(lang, ([], []))
        k = 0
        while k < min(len(done), len(moves)) and done[k] == moves[k]:
            k += 1
        if k == len(moves) and len(texts) >= k:
            return texts[:k]
        texts = texts[:k]
        try:
            g = game.clone()
            for _i in range(len(moves) - k):
                g.undo()
            for move in game.history[k:]:
                texts.append(g.describe(move))
                g.apply_unchecked(move)
        except Exception:  # a game that cannot step back: from the table's log, else notation
            with contextlib.suppress(Exception):
                g = position_at(game.id, game.options(), live.table.log, moves[:len(texts)])
                for move in game.history[len(texts):]:
                    texts.append(g.describe(move))
                    g.apply_unchecked(move)
            texts += [_("{seat} plays {move}").format(
                seat=live.entry.seat_name(live.table.movers[i]), move=moves[i])
                if i < len(live.table.movers) else moves[i]
                for i in range(len(texts), len(moves))]
        live.log_texts[lang] = (moves, texts)
        return texts

    async def _store_flag(self, live: LiveGame, before: dict[str, Any]) -> None:
        """The table ended the game on time while refusing a request (the flag fell between
        the request's arrival and its turn at the lock): store that ending and push it."""
        ending = live.table.ending
        if ending is None or ending.how != "time" or before.get("ending") is not None:
            return
        with contextlib.suppress(ApiError):  # storage failed: the table went back
            await self._store_state(live, before)
            asyncio.get_running_loop().create_task(self.broadcast(live))

    async def settle_time(self, live: LiveGame) -> bool:
        """End the game when the running seat's flag has fallen (a stored change like any
        other, then pushed), and keep the timer armed; answers whether it ended now."""
        table = live.table
        clock = table.clock
        ended = False
        if clock is not None and not table.over() and clock.flagged(self.clock.time()) is not None:
            async with live.lock:
                before = self._snapshot(live)
                if live.table.check_time(self.clock.time()) is not None:
                    if live.computer_task is not None:
                        live.computer_task.cancel()
                        live.computer_task = None
                    try:
                        await self._store_state(live, before)
                        ended = True
                    except ApiError:
                        pass  # storage failed: the table went back; the next request retries
            if ended:
                await self.broadcast(live)
        self._arm_clock(live)
        return ended

    def _arm_clock(self, live: LiveGame) -> None:
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
        live.clock_task = loop.create_task(self._clock_timer(live, at))
        live.clock_task.rulebox_at = at  # type: ignore[attr-defined]

    async def _clock_timer(self, live: LiveGame, at: float) -> None:
        await self.clock.sleep(max(0.0, at - self.clock.time()) + 0.05)
        live.clock_task = None
        with contextlib.suppress(Exception):
            await self.settle_time(live)

    def _announce_presence(self, live: LiveGame, seat: int, kind: str) -> None:
        """A presence event (``joined``, ``left``, ``back``) in the table's events, not a
        change of the game (no new version)."""
        msgid = {"joined": N_("{name} joined"), "left": N_("{name} left"),
                 "back": N_("{name} is back")}[kind]
        live.table._event(kind, live.table._words(msgid, name=seat), seat)  # each reader's words

    def _came(self, live: LiveGame, seat: int | None) -> bool:
        """A socket of ``seat`` came: cancel its pending "left"; answers whether to tell."""
        if seat is None or live.hotseat or live.records[seat].kind == "computer":
            return False
        pending = live.leaving.pop(seat, None)
        if pending is not None:
            pending.cancel()
        if self.cluster is not None:  # decided once for every process (server.presence)
            self.cluster.presence.came(live, seat)
            return False
        state = live.seen.get(seat)
        if state == "in":
            return False
        self._announce_presence(live, seat, "back" if state == "left" else "joined")
        live.seen[seat] = "in"
        return True

    def _went(self, live: LiveGame, seat: int | None) -> None:
        """The last socket of ``seat`` went: tell the others after :data:`PRESENCE_GRACE`."""
        if seat is None or live.hotseat or seat in live.sockets.values():
            return
        if self.cluster is not None and not self._closed:  # told once for every process
            self.cluster.presence.went(live, seat)
            return
        if seat in live.leaving or live.seen.get(seat) != "in":
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        live.leaving[seat] = loop.create_task(self._leave_later(live, seat))

    async def _leave_later(self, live: LiveGame, seat: int) -> None:
        await self.clock.sleep(PRESENCE_GRACE)
        live.leaving.pop(seat, None)
        if seat in live.sockets.values() or self._closed:
            return
        async with live.lock:
            self._announce_presence(live, seat, "left")
            live.seen[seat] = "left"
        await self.broadcast(live)

    async def mine(self, games: Any) -> dict[str, Any]:
        """``POST /api/games/mine``: the games this browser sits at (``{"id", "token"}`` each,
        at most :data:`MAX_MINE`), each as the lobby lists it; unknown ids and bad tokens are
        left out."""
        if not isinstance(games, list) or len(games) > MAX_MINE:
            raise ApiError(400, "malformed", _("games is a list of at most {n} entries")
                           .format(n=MAX_MINE))
        out: list[dict[str, Any]] = []
        seen: set[str] = set()
        for item in games:
            if not isinstance(item, dict):
                continue
            gid, token = item.get("id"), item.get("token")
            if not isinstance(gid, str) or not gid.isalnum() or len(gid) > 32 or gid in seen \
                    or not (token is None or isinstance(token, str)):
                continue
            try:
                live = await self.live(gid)
                seat = live.seat_of(token or None)
            except ApiError:
                continue
            seen.add(gid)  # the first entry of a game that answers counts
            table = live.table
            to_move = table.to_move()
            words = self.result_words(live) if table.over() else {}
            out.append({
                "id": gid, "game": live.entry.id, "title": live.entry.title, "you": seat,
                "seat_name": live.entry.seat_name(seat) if seat is not None else None,
                "to_move": to_move,
                "your_turn": seat is not None and to_move == seat,
                "over": table.over(), "result_line": words.get("text"),
                "ply": len(table.game.history), "updated_at": table.updated,
            })
        return {"games": out}

    # --- sockets -------------------------------------------------------------------------------
    async def attach(self, live: LiveGame, ws: Any, seat: int | None) -> dict[str, Any]:
        """Register a socket for a seat, in the language of the current context (its
        ``?lang=``); answers the payload to send first. A seat's first socket, or one after it
        was told gone, is announced to the others (``joined``, ``back``)."""
        async with live.lock:
            tell = self._came(live, seat)
            live.sockets[ws] = seat
            live.langs[ws] = language()
            first = self.payload(live, seat)
        if tell:
            asyncio.get_running_loop().create_task(self.broadcast(live))
        return first

    def detach(self, live: LiveGame, ws: Any) -> None:
        """Forget a socket; a seat without sockets is told gone after a grace period."""
        if ws not in live.sockets:
            return
        seat = live.sockets.pop(ws, None)
        live.langs.pop(ws, None)
        self._went(live, seat)

    async def broadcast(self, live: LiveGame) -> None:
        """Send every socket its own seat's payload (built from that seat's view only, in the
        socket's language)."""
        self._arm_clock(live)
        async with live.lock:
            if not live.sockets:
                return
            by_seat: dict[tuple[int | None, str], dict[str, Any]] = {}
            targets = [(ws, (seat, live.langs.get(ws, "en")))
                       for ws, seat in live.sockets.items()]
            for _ws, key in targets:
                if key not in by_seat:
                    with use_language(key[1]):
                        by_seat[key] = {"type": "state", **self.payload(live, key[0])}
        sends: list[Awaitable[Any]] = [
            _send(ws, by_seat[key]) for ws, key in targets
        ]
        results = await asyncio.gather(*sends, return_exceptions=True)
        for (ws, _key), res in zip(targets, results, strict=True):
            if isinstance(res, BaseException):
                self.detach(live, ws)


def stop_workers(pool: ProcessPoolExecutor) -> None:
    """Stop a pool's worker processes now, even in the middle of a search (a stopping server
    must not leave them thinking), and wait for them, so that nothing is leaked."""
    procs = list(getattr(pool, "_processes", {}).values())  # the pool has no public way
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in procs:
        with contextlib.suppress(Exception):
            proc.terminate()
    for proc in procs:
        with contextlib.suppress(Exception):
            proc.join(5)
            if proc.is_alive():
                proc.kill()
                proc.join(2)
    with contextlib.suppress(Exception):
        pool.shutdown(wait=True)


def warm_job(hold: float) -> None:
    """Run in a worker process at start: import every game and agent, then hold the worker a
    moment (so that the pool starts a process for each of the warming jobs)."""
    for gid in game_ids():
        game_entry(gid).cls.new({"seed": "1"})
        agent_entries(gid)
    time.sleep(hold)


def think_job(spec: str, game_id: str, state: dict[str, Any]) -> str:
    """Run in a worker process: rebuild the table's game from its state and let the agent of
    ``spec`` choose; answers the move's text. An agent's error propagates (no replacement)."""
    n = new_game(game_id, dict(state["options"])).num_players
    table = Table.from_json(state, [Seat.remote()] * n)
    return str(AgentSpec.parse(spec).make(game_id).choose(table.game))


async def _send(ws: Any, data: dict[str, Any]) -> None:
    with contextlib.suppress(asyncio.CancelledError):
        await asyncio.wait_for(ws.send_json(data), timeout=10)


def _rules_error(e: RuleboxError, text: str) -> ApiError:
    """The rules' refusal of move text as an API error."""
    if isinstance(e, GameOverError):
        return ApiError(409, "game_over", str(e))
    if isinstance(e, IllegalMoveError):
        return ApiError(422, "illegal", str(e), rule=e.rule, reason=e.reason)
    if isinstance(e, AmbiguousMoveError):
        return ApiError(400, "ambiguous", str(e))
    if isinstance(e, InvalidMoveError | StateError):
        return ApiError(400, "malformed", str(e))
    return ApiError(400, "malformed", str(e) or f"{text[:40]!r} is not a move of this game")
