"""The authoritative game service behind the web API: live tables, tokens, computer players.

The server never trusts a client. A seat is identified by a secret token (only its SHA-256 is
stored); a move is text that the game's own ``parse`` resolves against the rules; every message
about a game is built from ``view(seat)`` (``view(None)`` for spectators), so no seat ever
receives another's hidden cards or the deck order. Each accepted change is committed to storage
before it is acknowledged or pushed to anyone.

Everything around the rules (turns, versions, the computer's turn and its failure policy, undo,
draws, resignation, rematch, announcements) is the table's (:class:`rulebox.match.table.Table`);
this module translates HTTP to table calls, table errors to HTTP, and holds the rooms that do
the rest, each with one job:

- :mod:`rulebox.server.live`: the live games in memory and their seats' sockets;
- :mod:`rulebox.server.storage`: committing and reloading tables;
- :mod:`rulebox.server.views`: what a reader sees (payloads, result and move log in words);
- :mod:`rulebox.server.computers`: computer turns in think workers;
- :mod:`rulebox.server.timers`: clocks whose flag falls, abandoned games;
- :mod:`rulebox.server.attendance`: presence notices.

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
import dataclasses
import secrets
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from rulebox.core.errors import RuleboxError
from rulebox.core.registry import GameEntry, game_entry, new_game
from rulebox.i18n import _, language, ngettext, use_language
from rulebox.match.clock import Clock, ClockError, TimeControl
from rulebox.match.ending import TableError
from rulebox.match.fairness import arranged, seal, server_deal, server_seed
from rulebox.match.replay import position_at
from rulebox.match.table import Table
from rulebox.server import views
from rulebox.server.attendance import PRESENCE_GRACE, Attendance
from rulebox.server.clock import Clock as ServerClock
from rulebox.server.clock import SystemClock
from rulebox.server.computers import Computers
from rulebox.server.errors import ApiError, rules_error, table_error
from rulebox.server.limits import Limits
from rulebox.server.live import ClusterLink, LiveGame, LiveGames, new_id
from rulebox.server.seats import SeatRecord, hash_token, resolve_seat
from rulebox.server.storage import Storage
from rulebox.server.store import Store
from rulebox.server.timers import Timers

if TYPE_CHECKING:
    from rulebox.server.lobby import Lobby

__all__ = ["PRESENCE_GRACE", "ApiError", "GameService", "LiveGame"]

MAX_MOVE_CHARS = 200
"""Longer move text is refused as oversized (no notation comes close)."""

MAX_MINE = 50
"""Entries of ``POST /api/games/mine`` at most."""


class GameService:
    """Creates, loads and plays games; pushes every change to the seats' sockets."""

    def __init__(self, store: Store, *, think_workers: int = 2,
                 limits: Limits | None = None, think_in_processes: bool = True,
                 clock: ServerClock | None = None) -> None:
        self.store = store
        self.limits = limits or Limits()
        self.clock: ServerClock = clock or SystemClock()
        """The one clock of the app (:mod:`rulebox.server.clock`), read by every room."""
        self.games = LiveGames()
        """The games held in memory."""
        self.storage = Storage(store, self.limits, self.clock)
        self.computers = Computers(self.storage, self.limits, think_workers, self.broadcast,
                                   processes=think_in_processes)
        self.timers = Timers(self.storage, self.limits, self.live, self.broadcast, self.clock)
        self.attendance = Attendance(self.broadcast, clock=self.clock)
        self._cluster: ClusterLink | None = None
        self.lobby: Lobby | None = None
        """Players, open games, ratings, chat (:mod:`rulebox.server.lobby`; set by
        ``create_app``): the payload's fields of issue 27."""
        self._loading: dict[str, asyncio.Lock] = {}
        self._closed = False

    @property
    def cluster(self) -> ClusterLink | None:
        """Several processes on one PostgreSQL database (:mod:`rulebox.server.cluster`; set by
        ``create_app``): tables are refreshed from storage, computer turns are jobs there."""
        return self._cluster

    @cluster.setter
    def cluster(self, cluster: ClusterLink | None) -> None:
        self._cluster = cluster
        self.computers.cluster = cluster
        self.attendance.cluster = cluster

    @property
    def queue(self) -> Any:
        """The fair think queue (:class:`rulebox.server.limits.ThinkQueue`)."""
        return self.computers.queue

    async def warm(self) -> None:
        """Start the sweeps and every think worker now (so that no person's first computer
        reply waits for a process to start)."""
        self.timers.start_sweepers()  # abandoned games expire even if no game is created
        await self.computers.warm()

    def start_sweepers(self) -> None:
        """Look in storage for fallen flags and abandoned games from now on."""
        self.timers.start_sweepers()

    async def close(self) -> None:
        """Stop computer players and release threads and connections."""
        self._closed = True
        self.storage.stop()
        self.timers.close()
        self.attendance.close()
        for live in self.games:
            live.stop_computer()
            for task in [live.clock_task, *live.leaving.values()]:
                if task is not None:
                    task.cancel()
        self.computers.close()
        self.storage.close()

    async def in_db(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run a call of the store in the database's threads."""
        return await self.storage.in_db(fn, *args)

    async def recent(self, n: int, played: bool = False) -> list[dict[str, Any]]:
        """The ``n`` most recently played games (to spectate; only those with a move when
        ``played``)."""
        result: list[dict[str, Any]] = await self.storage.in_db(self.store.recent, n, played)
        return result

    async def expire_abandoned(self) -> int:
        """End every unfinished game nobody moved in for ``expire_after``; answers how many."""
        return await self.timers.expire_abandoned()

    async def end_fallen_flags(self) -> int:
        """End the games whose stored clock says their flag fell; answers how many it saw."""
        return await self.timers.end_fallen_flags()

    async def settle_time(self, live: LiveGame) -> bool:
        """End the game when the running seat's flag has fallen; answers whether it did now."""
        return await self.timers.settle_time(live)

    # --- the catalogue -------------------------------------------------------------------------
    def catalog(self) -> dict[str, Any]:
        """Every game with its options, seats and the agents that play it."""
        return views.catalog()

    def rules(self, game_id: str) -> dict[str, Any]:
        """The rules text of a game (its ``rules.md``) and its notation."""
        return views.rules(game_id)

    # --- creating and loading ------------------------------------------------------------------
    async def create(
        self, game_id: Any, options: Any, seat_specs: Any, hotseat: bool = False,
        clock: Any = None, seat_setup: Callable[[list[SeatRecord]], None] | None = None,
        new_id: str | None = None,
    ) -> dict[str, Any]:
        """Start a game; answers its id and one token per human seat. ``clock`` is a time
        control (``"5+3"``, ``"3d"``, :mod:`rulebox.match.clock`) or ``None``.
        ``seat_setup`` may name seats and leave some open (the lobby, issue 27) before the
        tokens are made; ``new_id`` is the id a pairing reserved (else a new one)."""
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
        if seat_setup is not None:
            seat_setup(records)
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
        live = await self._start(entry, table, records, bool(hotseat), new_id)
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
        running = sum(1 for g in self.games if g.all_computer and not g.over())
        if running >= self.limits.quota:
            raise ApiError(429, "quota", _("at most {quota} games between computers at "
                                           "once on this server; try again later").format(
                                             quota=self.limits.quota), retry_after=60)

    async def _start(self, entry: GameEntry, table: Table, records: list[SeatRecord],
                     hotseat: bool, gid: str | None = None) -> LiveGame:
        """Store a new table (under ``gid``, else a new id) and hold it live."""
        self.timers.start_sweepers()
        gid = gid or new_id()
        await self.storage.create(gid, entry, table, records, hotseat)
        live = LiveGame(gid, entry, table, records, hotseat, used=self.clock.monotonic())
        self.games.add(live)
        async with live.lock:
            self.computers.kick(live)
        return live

    def held(self, gid: str) -> LiveGame | None:
        """The game ``gid`` if this process holds it in memory (storage is not asked)."""
        return self.games.get(gid)

    async def live(self, gid: str) -> LiveGame:
        """The live game of an id, loaded from storage when needed (404 when unknown)."""
        live = self.games.get(gid)
        if live is not None:
            live.used = self.clock.monotonic()
            if self.cluster is not None:  # another process may have changed it
                await self.cluster.refresh(live)
            self.computers.kick(live)  # e.g. after a storage failure stopped the computer
            await self.timers.settle_time(live)
            return live
        lock = self._loading.setdefault(gid, asyncio.Lock())
        async with lock:
            found = self.games.get(gid)
            if found is not None:
                return found
            try:
                loaded = await self.storage.load(gid)
            finally:
                self._loading.pop(gid, None)
            if loaded is None:
                raise ApiError(404, "no_such_game", _("there is no game with this id"))
            live = loaded
            self.games.add(live)
        if self.cluster is not None:  # the seats with sockets on other processes
            await self.cluster.refresh(live)
        async with live.lock:
            self.computers.kick(live)
        await self.timers.settle_time(live)
        return live

    # --- what a seat sees ----------------------------------------------------------------------
    def payload(self, live: LiveGame, seat: int | None) -> dict[str, Any]:
        """The game as ``seat`` may see it (:func:`rulebox.server.views.payload`)."""
        body = views.payload(live, seat, self._elsewhere(live))
        if self.lobby is not None:  # names, ratings, chat's and the lobby's fields (issue 27)
            body.update(self.lobby.table_fields(live, seat))
        return body

    def _elsewhere(self, live: LiveGame) -> frozenset[int]:
        """The seats of ``live`` with sockets on other processes of the cluster."""
        return self.cluster.presence.seats(live) if self.cluster is not None else frozenset()

    def result_words(self, live: LiveGame) -> dict[str, Any]:
        """The result in the reader's words (:func:`rulebox.server.views.result_words`)."""
        return views.result_words(live)

    # --- playing --------------------------------------------------------------------------------
    async def _seat(self, gid: str, token: str | None) -> tuple[LiveGame, int]:
        live = await self.live(gid)
        seat = live.seat_of(token)
        if seat is None:
            raise ApiError(401, "no_token", _("send the seat's token: Authorization: "
                                              "Bearer <token>"))
        if live.waiting:
            raise ApiError(409, "not_started", _("the game starts when every seat is taken"))
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
            before = self.storage.snapshot(live)
            try:
                move = live.table.play(seat, text, version=version)
            except TableError as e:
                await self.timers.store_flag(live, before)
                raise table_error(e) from None
            except RuleboxError as e:
                raise rules_error(e, text) from None
            await self.storage.commit(live, before)
            self.computers.kick(live)
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
            before = self.storage.snapshot(live)
            try:
                change(live.table)
            except TableError as e:
                raise table_error(e) from None
            await self.storage.store_state(live, before)
            self.computers.kick(live)
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
                raise table_error(e) from None
            records = [dataclasses.replace(r) for r in live.records]
            if live.all_computer:
                self._check_all_computer()
            if not same_deal:  # dealt anew by the operating system's randomness
                table.game = server_deal(live.entry.id, table.game.options())
            table.deal = seal(table.game)
            # named in storage first, so that of two processes asked at once only one starts it
            new = new_id()
            claimed = await self.storage.in_db(self.store.claim_rematch, live.id, new)
            if claimed is None or claimed != new:
                live.rematch = claimed
                if claimed is None:
                    raise ApiError(404, "no_such_game", _("there is no game with this id"))
                return {"id": claimed}
            try:
                fresh = await self._start(live.entry, table, records, live.hotseat, new)
            except BaseException:
                with contextlib.suppress(Exception):
                    await self.storage.in_db(self.store.release_rematch, live.id, new)
                raise
            live.rematch = fresh.id
        await self.broadcast(live)
        return {"id": fresh.id}

    async def decide(self, live: LiveGame, decision: Any, state: dict[str, Any],
                     snapshot: Any) -> bool:
        """Think about a computer's ``decision`` and play it (:meth:`Computers.decide`)."""
        return await self.computers.decide(live, decision, state, snapshot)

    # --- lists ---------------------------------------------------------------------------------
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
            words = views.result_words(live) if table.over() else {}
            out.append({
                "id": gid, "game": live.entry.id, "title": live.entry.title, "you": seat,
                "seat_name": live.entry.seat_name(seat) if seat is not None else None,
                "to_move": to_move,
                "your_turn": seat is not None and to_move == seat,
                "over": table.over(), "result_line": words.get("text"),
                "ply": len(table.game.history), "updated_at": table.updated,
            })
        return {"games": out}

    # --- explanations and replay ---------------------------------------------------------------
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

    # --- sockets -------------------------------------------------------------------------------
    async def attach(self, live: LiveGame, ws: Any, seat: int | None) -> dict[str, Any]:
        """Register a socket for a seat, in the language of the current context (its
        ``?lang=``); answers the payload to send first. A seat's first socket, or one after it
        was told gone, is announced to the others (``joined``, ``back``)."""
        async with live.lock:
            tell = self.attendance.came(live, seat)
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
        self.attendance.went(live, seat)

    async def broadcast(self, live: LiveGame) -> None:
        """Send every socket its own seat's payload (built from that seat's view only, in the
        socket's language)."""
        self.timers.arm(live)
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


async def _send(ws: Any, data: dict[str, Any]) -> None:
    with contextlib.suppress(asyncio.CancelledError):
        await asyncio.wait_for(ws.send_json(data), timeout=10)
