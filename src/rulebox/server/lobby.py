"""Players meet (issue 27): named seats, open games, rating a game when it ends, profiles.

One :class:`Lobby` per server process, hooked to the :class:`GameService` (``svc.lobby``): the
service asks it for the payload's fields (:meth:`Lobby.table_fields`) and tells it of every
stored change (:meth:`Lobby.stored`; a game that ended is rated once for the cluster). Open
games are ordinary games whose free seats are ``open`` seat records: joining one writes the
seat (with its token's hash) in the game's row under the version check, so of two people who
take one seat at once, on one process or two, one gets it and the other 409 ``seat_taken``.
The clock is injected (``clock``, epoch seconds); the loop of :meth:`Lobby.tick` (chat,
spectators, abandonment, pairing, the lobby sockets) runs every ``tick`` seconds and tests
call it directly. See docs/SERVER.md.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sqlalchemy import select, text, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from rulebox.core.registry import game_entry
from rulebox.i18n import _
from rulebox.match.agents import AgentSpec
from rulebox.server.accounts import Accounts, Person
from rulebox.server.lobby_store import (
    LobbyGameRow,
    RatedRow,
    RatingHistoryRow,
    RatingRow,
    SeatRow,
    create_tables,
)
from rulebox.server.players import Passwords, name_key
from rulebox.server.ratings import MULTI_POOL, Rating, counts, pool_of, rate
from rulebox.server.store import GameRow, StaleWrite

if TYPE_CHECKING:
    from rulebox.server.live import LiveGame
    from rulebox.server.seats import SeatRecord
    from rulebox.server.service import GameService

log = logging.getLogger(__name__)

OPEN_LISTED = 200
"""Open games listed at most."""
RECENT = 50
"""Finished games on a profile."""
RATING_CACHE_SECONDS = 30.0


def _api_error(status: int, code: str, message: str, **extra: Any) -> Exception:
    from rulebox.server.errors import ApiError

    return ApiError(status, code, message, **extra)


@dataclass
class GameMeta:
    """What the lobby keeps of a game (``rulebox_lobby``): rated, who made it, its clock."""

    rated: bool
    creator: str | None
    clock: str | None
    created_at: float


def computer_key(agent: str | None) -> str:
    """The rating name of a computer seat: ``computer:<agent name>`` (``computer:easy``)."""
    try:
        name = AgentSpec.parse(agent or "computer").name
    except Exception:
        name = "computer"
    return f"computer:{name}"


def player_key(record: SeatRecord) -> str | None:
    """Whose a seat is for ratings and profiles: a name's key, a computer level, or ``None``."""
    if record.kind == "computer":
        return computer_key(record.agent)
    if record.name is not None:
        return name_key(record.name)
    return None


def is_teams(live: LiveGame) -> bool:
    """Whether a four-seat table plays as teams (seats 0+2 against 1+3)."""
    return live.game.num_players == 4 and bool(getattr(live.game, "teams", True))


def team_of(live: LiveGame, seat: int) -> int | None:
    return seat % 2 if is_teams(live) else None


@dataclass
class Lobby:
    """One process's lobby: see the module text."""

    svc: GameService
    clock: Callable[[], float] = time.time
    passwords: Passwords = field(default_factory=Passwords.default)
    tick_seconds: float = 0.5
    abandon_grace: float = 60.0
    """Seconds every opponent must be gone before a claim (untimed and timed games)."""
    abandon_grace_correspondence: float = 86400.0
    """The same for a correspondence clock (days per move)."""
    meta: dict[str, GameMeta | None] = field(default_factory=dict)
    ratings_cache: dict[tuple[str, str], tuple[float, Rating | None]] = field(
        default_factory=dict)
    changes: dict[str, list[dict[str, Any] | None]] = field(default_factory=dict)
    """Per rated game that ended: each seat's ``{"before", "after"}``."""
    ended: set[str] = field(default_factory=set)
    _tasks: set[asyncio.Task[Any]] = field(default_factory=set)
    _loop: asyncio.Task[None] | None = None

    def __post_init__(self) -> None:
        create_tables(self.svc.store.engine)
        self.svc.storage.on_stored.append(self.stored)
        self.accounts = Accounts(self.svc.store.engine, self.passwords)
        from rulebox.server.chat import Chat
        from rulebox.server.pairing import Pairing
        from rulebox.server.tablewatch import TableWatch

        self.chat = Chat(self)
        self.pairing = Pairing(self)
        self.watch = TableWatch(self)

    @property
    def engine(self) -> Any:
        return self.svc.store.engine

    def now(self) -> float:
        return self.clock()

    async def db(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await self.svc.in_db(fn, *args)

    def spawn(self, coro: Any) -> None:
        try:
            task = asyncio.get_running_loop().create_task(coro)
        except RuntimeError:
            coro.close()
            return
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # --- the loop -------------------------------------------------------------------------------
    def start(self) -> None:
        """Start :meth:`tick` every :attr:`tick_seconds` (``rulebox serve``; tests call
        :meth:`tick` themselves)."""
        if self._loop is None and self.tick_seconds > 0:
            self._loop = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.tick_seconds)
            try:
                await self.tick()
            except asyncio.CancelledError:
                raise
            except Exception as e:
                log.warning("rulebox: the lobby's round failed: %s", e)

    async def tick(self) -> None:
        """One round: new chat, spectators and gone seats of the games with sockets here,
        the pairing queue, the lobby sockets."""
        await self.watch.tick()
        await self.pairing.tick()

    async def close(self) -> None:
        if self._loop is not None:
            self._loop.cancel()
        for task in list(self._tasks):
            task.cancel()
        await self.watch.close()

    # --- who asks -------------------------------------------------------------------------------
    async def person(self, session: str | None) -> Person | None:
        """Whose session ``session`` is (``None`` for none or an expired one)."""
        if not session:
            return None
        result: Person | None = await self.db(self.accounts.person, session, self.now())
        return result

    # --- what the lobby knows of a game -----------------------------------------------------------
    def meta_of(self, gid: str) -> GameMeta | None:
        """The game's lobby row (read once, then kept: it does not change)."""
        if gid not in self.meta:
            with Session(self.engine) as s:
                row = s.get(LobbyGameRow, gid)
            self.meta[gid] = (GameMeta(row.rated, row.creator, row.clock, row.created_at)
                              if row is not None else None)
            if len(self.meta) > 20_000:
                self.meta.clear()
        return self.meta[gid]

    def rating_of(self, player: str, pool: str, system: str) -> Rating | None:
        """A rating from the cache (read when missing or older than 30 s)."""
        hit = self.ratings_cache.get((player, pool))
        now = time.monotonic()
        if hit is not None and now - hit[0] < RATING_CACHE_SECONDS:
            return hit[1]
        with Session(self.engine) as s:
            row = s.get(RatingRow, (player, pool))
        rating = (Rating(row.system, row.value, row.deviation, row.volatility, row.games)
                  if row is not None else None)
        if len(self.ratings_cache) > 50_000:
            self.ratings_cache.clear()
        self.ratings_cache[(player, pool)] = (now, rating)
        return rating

    def seat_entry(self, live: LiveGame, i: int) -> dict[str, Any]:
        """A seat as the lobby and the payload show it."""
        r = live.records[i]
        pool, system = pool_of(live.entry.id, live.game.num_players)
        key = player_key(r)
        rating = None
        if key is not None and (r.kind == "computer" or not r.guest):
            got = self.rating_of(key, pool, system)
            rating = (got or Rating.start(system)).shown()
        kind = {"open": "open", "computer": "computer"}.get(r.kind, "player")
        return {"seat": i, "kind": kind, "name": r.name, "guest": r.guest, "label": r.label,
                "team": team_of(live, i), "rating": rating}

    def table_fields(self, live: LiveGame, seat: int | None) -> dict[str, Any]:
        """The payload's fields of issue 27 (docs/SERVER.md)."""
        meta = self.meta_of(live.id)
        free = [i for i, r in enumerate(live.records) if r.kind == "open"]
        return {
            "players": [self.seat_entry(live, i) for i in range(len(live.records))],
            "rated": bool(meta and meta.rated),
            "open": bool(free),
            "free": free,
            "teams": is_teams(live),
            "spectators": self.watch.spectators(live),
            "takeback": ({"asked_by": live.table.takeback_offer}
                         if live.table.takeback_offer is not None else None),
            "claim": self.watch.claim_info(live, seat),
            "rating_change": self.changes.get(live.id),
        }

    # --- creating and joining ---------------------------------------------------------------------
    async def create(self, body: dict[str, Any], person: Person | None,
                     people: dict[int, Person] | None = None, game_id: str | None = None
                     ) -> dict[str, Any]:
        """``POST /api/games`` with the lobby's fields: ``open``, ``rated``, ``seat``
        (``person`` sits there); a pairing names every seat (``people``) and the id."""
        is_open = bool(body.get("open"))
        rated = bool(body.get("rated"))
        if (is_open or rated) and person is None and not people:
            raise _api_error(401, "no_session", _("sign in or choose a guest name first"))
        if rated and any(p.guest for p in [person, *(people or {}).values()]
                         if p is not None):
            raise _api_error(403, "guests_casual", _("guests play casual games only"))
        if rated and body.get("hotseat"):
            raise _api_error(400, "bad_seats", _("a rated game is played at two screens"))
        mine = body.get("seat")

        def setup(records: list[SeatRecord]) -> None:
            humans = [i for i, r in enumerate(records) if r.kind == "human"]
            if not humans:
                raise _api_error(400, "bad_seats", _("a named game needs a person's seat"))
            named = dict(people or {})
            if person is not None:
                at = humans[0] if mine is None else mine
                if not isinstance(at, int) or isinstance(at, bool) or at not in humans:
                    raise _api_error(400, "bad_seat", _("seat must be one of the people's "
                                                        "seats"))
                named[at] = person
            for i, who in named.items():
                records[i].name, records[i].guest = who.name, who.guest
            if is_open:
                for i in humans:
                    if i not in named:
                        records[i].kind = "open"

        named_game = person is not None or bool(people)
        created: dict[str, Any] = await self.svc.create(
            body["game"], body.get("options") or {}, body["seats"], bool(body.get("hotseat")),
            clock=body.get("clock"), seat_setup=setup if named_game else None,
            new_id=game_id)
        if named_game:
            live = await self.svc.live(created["id"])
            creator = person.key if person is not None else None
            await self.db(self._store_created, live.id, live.entry.id,
                          json.dumps(live.game.public_options()), body.get("clock"), rated,
                          is_open and any(r.kind == "open" for r in live.records), creator,
                          self._seat_rows(live, rated))
            for seat in created["seats"]:
                seat["kind"] = live.records[seat["player"]].kind
                seat["name"] = live.records[seat["player"]].name
        created["rated"] = rated
        return created

    def _seat_rows(self, live: LiveGame, rated: bool) -> list[SeatRow]:
        now = self.now()
        rows = []
        for i, r in enumerate(live.records):
            key = player_key(r)
            if key is None or r.kind == "open":
                continue
            rows.append(SeatRow(game_id=live.id, seat=i, player=key, name=r.name or key,
                                game=live.entry.id, rated=rated, joined_at=now))
        return rows

    def _store_created(self, gid: str, game: str, options: str, clock: str | None, rated: bool,
                       listed: bool, creator: str | None, seats: list[SeatRow]) -> None:
        now = self.now()
        with Session(self.engine) as s, s.begin():
            s.add(LobbyGameRow(game_id=gid, game=game, options=options, clock=clock,
                               rated=rated, listed=listed, creator=creator, created_at=now,
                               changed_at=now))
            s.add_all(seats)
        self.meta[gid] = GameMeta(rated, creator, clock, now)

    async def join(self, gid: str, seat: Any, person: Person | None) -> dict[str, Any]:
        """``POST /api/games/{id}/join``: take a free seat (docs/SERVER.md)."""
        from rulebox.server.errors import ApiError
        from rulebox.server.seats import hash_token

        if person is None:
            raise _api_error(401, "no_session", _("sign in or choose a guest name first"))
        live = await self.svc.live(gid)
        meta = await self.db(self.meta_of, gid)
        async with live.lock:
            table = live.table
            if table.ending is not None and table.ending.how == "cancelled":
                raise _api_error(409, "cancelled", _("this game was cancelled"))
            free = [i for i, r in enumerate(live.records) if r.kind == "open"]
            if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)
                                     or not 0 <= seat < len(live.records)):
                raise _api_error(400, "bad_seat", _("there is no such seat"))
            if meta is not None and seat is not None and seat not in free \
                    and live.records[seat].kind != "computer":
                raise _api_error(409, "seat_taken", _("someone else took that seat"))
            if meta is None or not free:
                raise _api_error(409, "game_full", _("every seat of this game is taken"))
            if meta.rated and person.guest:
                raise _api_error(403, "guests_casual", _("guests play casual games only"))
            if any(r.name is not None and name_key(r.name) == person.key
                   for r in live.records):
                raise _api_error(409, "already_seated", _("you sit at this table already"))
            at = free[0] if seat is None else seat
            if at not in free:
                raise _api_error(409, "seat_taken", _("someone else took that seat"))
            token = secrets.token_urlsafe(18)
            records = [dataclasses.replace(r) for r in live.records]
            records[at] = dataclasses.replace(records[at], kind="human",
                                              token_hash=hash_token(token),
                                              name=person.name, guest=person.guest)
            version = live.version + 1
            still_open = any(r.kind == "open" for r in records)
            row = SeatRow(game_id=gid, seat=at, player=person.key, name=person.name,
                          game=live.entry.id, rated=meta.rated, joined_at=self.now())
            try:
                await self.db(self._store_join, gid, [r.to_record() for r in records],
                              live.version, version, row, still_open)
            except (StaleWrite, IntegrityError):
                await self.svc.storage.overtaken(live)
                raise _api_error(409, "seat_taken", _("someone else took that seat")) \
                    from None
            except ApiError:
                raise
            live.records = records
            live.table.version = version
            if not still_open:
                self.svc.computers.kick(live)
        await self.svc.broadcast(live)
        return {"id": gid, "seat": at, "token": token}

    def _store_join(self, gid: str, seats: list[dict[str, Any]], expected: int, version: int,
                    row: SeatRow, still_open: bool) -> None:
        store = self.svc.store
        with Session(self.engine) as s, s.begin():
            done = s.execute(update(GameRow).where(GameRow.id == gid,
                                                   GameRow.version <= expected)
                             .values(seats=json.dumps(seats), version=version))
            if getattr(done, "rowcount", 0) != 1:
                raise StaleWrite(gid)
            s.add(row)
            s.execute(update(LobbyGameRow).where(LobbyGameRow.game_id == gid)
                      .values(listed=still_open, changed_at=self.now()))
            if store.notify_channel is not None:
                s.execute(text("SELECT pg_notify(:c, :p)"),
                          {"c": store.notify_channel, "p": f"{gid}:{version}"})

    async def cancel(self, gid: str, person: Person | None, seat: int | None
                     ) -> dict[str, Any]:
        """``POST /api/games/{id}/cancel``: the creator ends an open game before it starts."""
        live = await self.svc.live(gid)
        meta = await self.db(self.meta_of, gid)
        creator_seat = None
        if meta is not None:
            creator_seat = next((i for i, r in enumerate(live.records)
                                 if r.name is not None and name_key(r.name) == meta.creator),
                                None)
        if meta is None or not ((person is not None and person.key == meta.creator)
                                or (seat is not None and seat == creator_seat)):
            raise _api_error(403, "not_creator", _("only the one who opened the game may "
                                                   "cancel it"))
        async with live.lock:
            if live.table.ending is not None and live.table.ending.how == "cancelled":
                return {"id": gid, "cancelled": True}
            if not any(r.kind == "open" for r in live.records):
                raise _api_error(409, "started", _("the game has started"))
            before = self.svc.storage.snapshot(live)
            live.table.cancel()
            await self.svc.storage.store_state(live, before)
            await self.db(self._unlist, gid)
        await self.svc.broadcast(live)
        return {"id": gid, "cancelled": True}

    def _unlist(self, gid: str) -> None:
        with Session(self.engine) as s, s.begin():
            s.execute(update(LobbyGameRow).where(LobbyGameRow.game_id == gid)
                      .values(listed=False, changed_at=self.now()))

    # --- the list of open games -------------------------------------------------------------------
    def open_games(self) -> list[dict[str, Any]]:
        """``GET /api/games?open=1`` (synchronous: a database thread calls it)."""
        with Session(self.engine) as s:
            rows = s.execute(
                select(LobbyGameRow, GameRow.seats, GameRow.over)
                .join(GameRow, GameRow.id == LobbyGameRow.game_id)
                .where(LobbyGameRow.listed.is_(True))
                .order_by(LobbyGameRow.created_at.desc()).limit(OPEN_LISTED)).all()
            out = []
            keys: set[tuple[str, str]] = set()
            listed = []
            for lob, seats_text, over in rows:
                if over:
                    continue
                seats = json.loads(seats_text)
                listed.append((lob, seats))
                n = len(seats)
                pool, _system = pool_of(lob.game, n)
                for r in seats:
                    if r.get("name") and not r.get("guest"):
                        keys.add((name_key(r["name"]), pool))
                    elif r.get("kind") == "computer":
                        keys.add((computer_key(r.get("agent")), pool))
            found: dict[tuple[str, str], RatingRow] = {}
            if keys:
                players = {k for k, _p in keys}
                for row in s.execute(select(RatingRow).where(RatingRow.player.in_(players))
                                     ).scalars():
                    found[(row.player, row.pool)] = row
        for lob, seats in listed:
            n = len(seats)
            pool, system = pool_of(lob.game, n)
            teams = n == 4  # four seats play as two teams, 0+2 against 1+3
            entries = []
            for i, r in enumerate(seats):
                kind = {"open": "open", "computer": "computer"}.get(r.get("kind"), "player")
                key = (computer_key(r.get("agent")) if kind == "computer"
                       else name_key(r["name"]) if r.get("name") else None)
                rating = None
                if key is not None and not r.get("guest"):
                    got = found.get((key, pool))
                    rating = (Rating(got.system, got.value, got.deviation, got.volatility,
                                     got.games) if got is not None
                              else Rating.start(system)).shown()
                entries.append({"seat": i, "kind": kind, "name": r.get("name"),
                                "guest": bool(r.get("guest")), "label": r.get("label"),
                                "team": (i % 2) if teams else None, "rating": rating})
            try:
                title = game_entry(lob.game).title
            except Exception:
                title = lob.game
            out.append({"id": lob.game_id, "game": lob.game, "title": title,
                        "options": json.loads(lob.options or "{}"), "clock": lob.clock,
                        "rated": lob.rated, "created_by": next(
                            (e["name"] for e in entries if e["kind"] == "player"), None),
                        "created_at": int(lob.created_at * 1000), "teams": teams,
                        "free": [e["seat"] for e in entries if e["kind"] == "open"],
                        "seats": entries})
        return out

    # --- a game ended: rate it ----------------------------------------------------------------
    async def stored(self, live: LiveGame) -> None:
        """A change of ``live`` was stored (the service's hook, with the game's lock held): a
        game that ended is counted and rated now, so the answer to the change that ended it
        already shows the new ratings. A failure here is logged, never the change's."""
        if live.over() and live.id not in self.ended:
            self.ended.add(live.id)
            if len(self.ended) > 50_000:
                self.ended.clear()
            try:
                await self.game_over(live)
            except Exception as e:
                self.ended.discard(live.id)
                log.warning("rulebox: the end of %s could not be counted: %s", live.id, e)

    async def game_over(self, live: LiveGame) -> None:
        """Count the end of a game with named seats once for the cluster: the seats' results
        and, for a rated game, the new ratings (one transaction; the caller pushes)."""
        meta = await self.db(self.meta_of, live.id)
        if meta is None:
            return
        table = live.table
        ending = table.ending
        if ending is None:
            return
        winners = tuple(ending.winners)
        plies = len(table.game.history)
        scores = ending.outcome.scores if ending.outcome is not None else None
        args = (live.id, live.entry.id, [player_key(r) for r in live.records],
                [r.kind for r in live.records], winners, ending.how,
                meta.rated and counts(ending.how, plies), is_teams(live), scores, plies)
        try:
            changes = await self.db(self._count_end, *args)
        except IntegrityError:  # another process counted it first
            return
        if changes is not None:
            self.changes[live.id] = changes
            for key in [player_key(r) for r in live.records]:
                if key is not None:
                    self.ratings_cache.pop((key, pool_of(live.entry.id, len(live.records))[0]),
                                           None)

    def _count_end(self, gid: str, game: str, keys: list[str | None], kinds: list[str],
                   winners: tuple[int, ...], how: str, rated: bool, teams: bool,
                   scores: Any, plies: int) -> list[dict[str, Any] | None] | None:
        now = self.now()
        n = len(keys)
        pool, system = pool_of(game, n)
        with Session(self.engine) as s, s.begin():
            s.add(RatedRow(game_id=gid, at=now))
            s.flush()  # IntegrityError: counted already
            aborted = not counts(how, plies)
            results = [None if aborted else "draw" if not winners
                       else "win" if p in winners else "loss" for p in range(n)]
            before: list[Rating] = []
            rows: list[RatingRow | None] = []
            if rated and all(k is not None for k in keys):
                for k in keys:
                    row = s.execute(select(RatingRow).where(RatingRow.player == k,
                                                            RatingRow.pool == pool)
                                    .with_for_update()).scalar_one_or_none()
                    rows.append(row)
                    before.append(Rating(row.system, row.value, row.deviation,
                                         row.volatility, row.games)
                                  if row is not None else Rating.start(system))
                after = rate(before, winners, teams)
            else:
                rated = False
                after = []
            changes: list[dict[str, Any] | None] = []
            for p in range(n):
                values: dict[str, Any] = {"over": True, "result": results[p],
                                          "how": "aborted" if aborted and how != "cancelled"
                                          else how,
                                          "ended_at": now, "rated": rated}
                if scores is not None:
                    values["score"] = float(scores[p])
                if rated:
                    values.update(before=before[p].shown_value(), after=after[p].shown_value())
                    key = keys[p]
                    assert key is not None
                    row = rows[p]
                    if row is None:
                        s.add(RatingRow(player=key, pool=pool, system=system,
                                        value=after[p].value, deviation=after[p].deviation,
                                        volatility=after[p].volatility, games=after[p].games))
                    else:
                        row.value, row.deviation = after[p].value, after[p].deviation
                        row.volatility, row.games = after[p].volatility, after[p].games
                    s.add(RatingHistoryRow(player=key, pool=pool, at=now,
                                           value=after[p].shown_value(), game_id=gid))
                    changes.append({"before": before[p].shown_value(),
                                    "after": after[p].shown_value()})
                else:
                    changes.append(None)
                s.execute(update(SeatRow).where(SeatRow.game_id == gid, SeatRow.seat == p)
                          .values(**values))
            s.execute(update(LobbyGameRow).where(LobbyGameRow.game_id == gid)
                      .values(listed=False, changed_at=now))
        return changes if rated else None

    # --- profiles -------------------------------------------------------------------------------
    def profile(self, name: str) -> dict[str, Any] | None:
        """``GET /api/players/{name}`` (synchronous)."""
        computer = name.startswith("computer:")
        key = name if computer else name_key(name)
        with Session(self.engine) as s:
            shown, guest, created = key, False, None
            if not computer:
                player = self.accounts.find(key)
                if player is None:
                    return None
                shown, guest, created = player.name, player.guest, player.created_at
            ratings = {r.pool: Rating(r.system, r.value, r.deviation, r.volatility,
                                      r.games).shown()
                       for r in s.execute(select(RatingRow).where(RatingRow.player == key))
                       .scalars()}
            if computer and not ratings:
                return None
            history: dict[str, list[dict[str, Any]]] = {}
            for h in s.execute(select(RatingHistoryRow).where(RatingHistoryRow.player == key)
                               .order_by(RatingHistoryRow.at, RatingHistoryRow.id)).scalars():
                history.setdefault(h.pool, []).append(
                    {"at": int(h.at * 1000), "value": h.value, "game": h.game_id})
            recent: list[dict[str, Any]] = []
            running: list[dict[str, Any]] = []
            if not computer:
                mine = s.execute(select(SeatRow).where(SeatRow.player == key,
                                                       SeatRow.over.is_(True))
                                 .order_by(SeatRow.ended_at.desc()).limit(RECENT)).scalars()
                ended = list(mine)
                live_rows = list(s.execute(select(SeatRow).where(SeatRow.player == key,
                                                                 SeatRow.over.is_(False))
                                           .order_by(SeatRow.joined_at.desc()).limit(50))
                                 .scalars())
                ids = {r.game_id for r in ended} | {r.game_id for r in live_rows}
                others: dict[str, list[SeatRow]] = {}
                if ids:
                    for o in s.execute(select(SeatRow).where(SeatRow.game_id.in_(ids))
                                       ).scalars():
                        others.setdefault(o.game_id, []).append(o)
                for r in ended:
                    recent.append({
                        "id": r.game_id, "game": r.game, "seat": r.seat,
                        "ended_at": int((r.ended_at or 0) * 1000), "result": r.result,
                        "how": r.how, "rated": r.rated, "before": r.before, "after": r.after,
                        "score": r.score,
                        "opponents": [o.name for o in sorted(others.get(r.game_id, []),
                                                             key=lambda o: o.seat)
                                      if o.seat != r.seat]})
                for r in live_rows:
                    running.append({"id": r.game_id, "game": r.game, "seat": r.seat,
                                    "opponents": [o.name for o in sorted(
                                        others.get(r.game_id, []), key=lambda o: o.seat)
                                        if o.seat != r.seat]})
        return {"name": shown, "guest": guest, "created_at": created, "ratings": ratings,
                "history": history, "recent": recent, "running": running}

    def best_scores(self, game: str, limit: int = 20) -> list[dict[str, Any]]:
        """The best finished scores of a solitaire (36 to 1), best first."""
        with Session(self.engine) as s:
            rows = s.execute(select(SeatRow).where(SeatRow.game == game,
                                                   SeatRow.over.is_(True),
                                                   SeatRow.score.is_not(None))
                             .order_by(SeatRow.score.desc(), SeatRow.ended_at)
                             .limit(limit)).scalars()
            return [{"name": r.name, "score": r.score, "game": r.game_id,
                     "at": int((r.ended_at or 0) * 1000)} for r in rows]


__all__ = ["MULTI_POOL", "GameMeta", "Lobby", "computer_key", "player_key"]
