"""Quick pairing (issue 27): a queue per game, clock and rated flag, in the shared database.

``POST /api/pairing`` writes the asker's entry (one per person) and looks at once for the
waiting entry of the same queue nearest in rating, within ``100 + 10 x`` the longer wait in
seconds (at most 800). The two entries are taken in one transaction with ``SELECT ... FOR
UPDATE SKIP LOCKED`` and marked with a game id reserved for them, so that no process gives a
waiting person two games and two people asking on two processes are paired with each other;
then the game is made under that id (the one who waited longer has seat 0) and both entries get
their seat's token. The one who waited learns it from ``GET /api/pairing`` or the lobby
socket. Each process also pairs its queue every round (ranges widen while people wait). An
entry nobody asked about for :data:`STALE` seconds is dropped (its person left); a paired one is
kept :data:`KEEP_PAIRED` seconds for its owner to read.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from sqlalchemy import delete, or_, select, update
from sqlalchemy.orm import Session

from rulebox.core.registry import game_entry, game_ids
from rulebox.i18n import _
from rulebox.server.accounts import Person
from rulebox.server.lobby_store import PairingRow
from rulebox.server.ratings import pool_of

if TYPE_CHECKING:
    from rulebox.server.lobby import Lobby

log = logging.getLogger(__name__)

BASE_RANGE = 100.0
WIDEN_PER_SECOND = 10.0
MAX_RANGE = 800.0
STALE = 60.0
KEEP_PAIRED = 600.0
NO_PAIRING = ("36to1",)
"""Solitaires: nobody to pair with."""


def window(waited: float) -> float:
    """The rating difference accepted after ``waited`` seconds."""
    return min(MAX_RANGE, BASE_RANGE + WIDEN_PER_SECOND * max(0.0, waited))


class Pairing:
    """The pairing queue as one process sees it."""

    def __init__(self, lobby: Lobby) -> None:
        self.lobby = lobby

    def _error(self, status: int, code: str, message: str) -> Exception:
        from rulebox.server.errors import ApiError

        return ApiError(status, code, message)

    async def enter(self, person: Person | None, game: Any, clock: Any, rated: Any
                    ) -> tuple[int, dict[str, Any]]:
        """``POST /api/pairing``: (status code, answer)."""
        if person is None:
            raise self._error(401, "no_session", _("sign in or choose a guest name first"))
        if not isinstance(game, str) or game not in game_ids():
            raise self._error(400, "unknown_game", _("game must be one of {games}")
                              .format(games=", ".join(game_ids())))
        if game in NO_PAIRING:
            raise self._error(400, "no_pairing", _("a solitaire has no one to pair with"))
        self.lobby.svc._time_control(clock)  # 400 bad_clock
        if rated and person.guest:
            raise self._error(403, "guests_casual", _("guests play casual games only"))
        pool, system = pool_of(game, 2)
        rating = self.lobby.rating_of(person.key, pool, system)
        value = rating.shown_value() if rating is not None else 1500.0
        queue = f"{game}|{clock or '-'}|{int(bool(rated))}"
        now = self.lobby.now()
        await self.lobby.db(self._write, person, queue, value, now)
        paired = await self.match(person.key)
        if paired is not None:
            return 200, paired
        return 202, {"status": "waiting", "since": int(now * 1000)}

    def _write(self, person: Person, queue: str, rating: float, now: float) -> None:
        with Session(self.lobby.engine) as s, s.begin():
            s.execute(delete(PairingRow).where(PairingRow.player == person.key))
            s.add(PairingRow(player=person.key, name=person.name, queue=queue, rating=rating,
                             since=now, seen=now))

    async def status(self, person: Person | None) -> dict[str, Any]:
        """``GET /api/pairing``: waiting (``since``), paired (game, seat, token) or none."""
        if person is None:
            raise self._error(401, "no_session", _("sign in or choose a guest name first"))
        row = await self.lobby.db(self._seen, person.key, self.lobby.now())
        if row is None:
            return {"status": "none"}
        if row.token is not None:
            return {"status": "paired", "id": row.game_id, "seat": row.seat, "token": row.token}
        return {"status": "waiting", "since": int(row.since * 1000)}

    async def paired_for(self, person: Person) -> dict[str, Any] | None:
        found = await self.status(person)
        return found if found["status"] == "paired" else None

    def _seen(self, key: str, now: float) -> PairingRow | None:
        with Session(self.lobby.engine) as s, s.begin():
            row = s.get(PairingRow, key)
            if row is not None:
                row.seen = now
                s.flush()
                s.expunge(row)
            return row

    async def leave(self, person: Person | None) -> dict[str, Any]:
        if person is None:
            raise self._error(401, "no_session", _("sign in or choose a guest name first"))
        gone = await self.lobby.db(self._leave, person.key)
        return {"status": "left" if gone else "none"}

    def _leave(self, key: str) -> bool:
        with Session(self.lobby.engine) as s, s.begin():
            done = s.execute(delete(PairingRow).where(PairingRow.player == key,
                                                      PairingRow.game_id.is_(None)))
            return bool(getattr(done, "rowcount", 0))

    # --- pairing --------------------------------------------------------------------------------
    async def match(self, key: str) -> dict[str, Any] | None:
        """Pair ``key``'s waiting entry if someone fits; answers its pairing (or ``None``)."""
        from rulebox.server.live import new_id as _new_id

        gid = _new_id()
        pair = await self.lobby.db(self._reserve, key, gid, self.lobby.now())
        if pair is None:
            return None
        first, second = pair
        tokens = await self._make(gid, first, second)
        await self.lobby.watch.send_lobby()
        seat = 0 if first.player == key else 1
        return {"status": "paired", "id": gid, "seat": seat, "token": tokens[seat]}

    async def _make(self, gid: str, first: PairingRow, second: PairingRow) -> dict[int, str]:
        """Make the game of a reserved pairing and give both entries their tokens (on a
        failure the entries wait again)."""
        game, clock, _rated = first.queue.split("|")
        rated = first.queue.endswith("|1")
        people = {0: Person(first.player, first.name, False),
                  1: Person(second.player, second.name, False)}
        options = {"players": "2"} if "players" in {
            o.name for o in game_entry(game).cls.option_specs} else {}
        try:
            created = await self.lobby.create(
                {"game": game, "options": options, "seats": ["human", "human"],
                 "clock": None if clock == "-" else clock, "rated": rated}, None,
                people=await self._guests(people), game_id=gid)
        except Exception:
            await self.lobby.db(self._release, gid)
            raise
        tokens = {s["player"]: s["token"] for s in created["seats"]}
        await self.lobby.db(self._tokens, gid, first.player, second.player, tokens)
        return tokens

    async def _guests(self, people: dict[int, Person]) -> dict[int, Person]:
        out = {}
        for seat, p in people.items():
            row = await self.lobby.db(self.lobby.accounts.find, p.key)
            out[seat] = Person(p.key, p.name, bool(row.guest) if row is not None else True)
        return out

    def _reserve(self, key: str, gid: str, now: float
                 ) -> tuple[PairingRow, PairingRow] | None:
        with Session(self.lobby.engine) as s, s.begin():
            me = s.execute(select(PairingRow).where(PairingRow.player == key,
                                                    PairingRow.game_id.is_(None))
                           .with_for_update(skip_locked=True)).scalar_one_or_none()
            if me is None:
                return None
            others = s.execute(
                select(PairingRow).where(PairingRow.queue == me.queue,
                                         PairingRow.game_id.is_(None),
                                         PairingRow.player != key,
                                         PairingRow.seen > now - STALE)
                .order_by(PairingRow.since).limit(200)
                .with_for_update(skip_locked=True)).scalars().all()
            best = None
            for o in others:
                gap = abs(o.rating - me.rating)
                if gap <= window(now - min(o.since, me.since)) and (
                        best is None or gap < abs(best.rating - me.rating)):
                    best = o
            if best is None:
                return None
            first, second = sorted([me, best], key=lambda r: (r.since, r.player))
            for seat, row in enumerate((first, second)):
                row.game_id, row.seat, row.paired_at = gid, seat, now
            s.flush()
            s.expunge_all()
            return first, second

    def _release(self, gid: str) -> None:
        with Session(self.lobby.engine) as s, s.begin():
            s.execute(update(PairingRow).where(PairingRow.game_id == gid)
                      .values(game_id=None, seat=None, paired_at=None))

    def _tokens(self, gid: str, first: str, second: str, tokens: dict[int, str]) -> None:
        with Session(self.lobby.engine) as s, s.begin():
            for seat, key in ((0, first), (1, second)):
                s.execute(update(PairingRow).where(PairingRow.player == key,
                                                   PairingRow.game_id == gid)
                          .values(token=tokens[seat]))

    async def tick(self) -> int:
        """Pair whoever now fits (ranges widen with waiting) and drop stale entries: the
        waiting entries are taken at once (``FOR UPDATE SKIP LOCKED``), sorted by queue and
        rating, and neighbours within range are paired (one transaction); then their games
        are made. Answers how many pairings this round made."""
        from rulebox.server.live import new_id as _new_id

        pairs = await self.lobby.db(self._reserve_all, self.lobby.now(), _new_id)
        made = 0
        for gid, first, second in pairs:
            try:
                await self._make(gid, first, second)
                made += 1
            except Exception as e:
                log.warning("rulebox: the game of a pairing could not be made: %s", e)
        if made:
            await self.lobby.watch.send_lobby()
        return made

    def _reserve_all(self, now: float, new_id: Any
                     ) -> list[tuple[str, PairingRow, PairingRow]]:
        with Session(self.lobby.engine) as s, s.begin():
            s.execute(delete(PairingRow).where(or_(
                PairingRow.game_id.is_(None) & (PairingRow.seen < now - STALE),
                PairingRow.paired_at < now - KEEP_PAIRED)))
            rows = s.execute(select(PairingRow).where(PairingRow.game_id.is_(None))
                             .order_by(PairingRow.queue, PairingRow.rating)
                             .limit(5000).with_for_update(skip_locked=True)).scalars().all()
            pairs: list[tuple[str, PairingRow, PairingRow]] = []
            i = 0
            while i + 1 < len(rows):
                a, b = rows[i], rows[i + 1]
                if a.queue == b.queue and abs(a.rating - b.rating) <= window(
                        now - min(a.since, b.since)):
                    first, second = sorted([a, b], key=lambda r: (r.since, r.player))
                    gid = new_id()
                    for seat, row in enumerate((first, second)):
                        row.game_id, row.seat, row.paired_at = gid, seat, now
                    pairs.append((gid, first, second))
                    i += 2
                else:
                    i += 1
            s.flush()
            s.expunge_all()
        return pairs
