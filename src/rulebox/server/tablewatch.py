"""What the lobby watches at the tables (issue 27): spectators, gone seats, the lobby sockets.

Each round (:meth:`TableWatch.tick`) looks at the games with sockets on this process:

* **spectators**: each process writes how many spectators' sockets it holds per game to
  ``rulebox_watchers`` (alive for 15 s, renewed every round) and reads the sum, so everyone at
  the table sees the cluster's count; a change is pushed as a new ``state``;
* **gone seats**: a person's seat with no socket on any process (the presence of
  :mod:`rulebox.server.presence`) is written to ``rulebox_gone`` with the time it was first
  seen gone (kept while it stays gone, removed when it is back); when every opponent of a seat
  has been gone longer than the grace period, that seat may claim the game (``claim`` in the
  payload; ``POST /api/games/{id}/claim``);
* **the lobby sockets** get the list of open games when it changed, and their pairing.
"""

from __future__ import annotations

import contextlib
import json
from typing import TYPE_CHECKING, Any

from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from rulebox.server.accounts import Person
from rulebox.server.lobby_store import GoneRow, WatchRow

if TYPE_CHECKING:
    from rulebox.server.live import LiveGame
    from rulebox.server.lobby import Lobby

WATCH_TTL = 15.0


_NOTHING_SHOWN = (0, "")
"""What a game's seats saw before any round: no spectators (the claims always differ, so the
first round that watches a game sends its state once)."""


class TableWatch:
    """See the module text."""

    def __init__(self, lobby: Lobby) -> None:
        from rulebox.server.cluster import owner_id

        self.lobby = lobby
        self.owner = owner_id()
        self.counts: dict[str, int] = {}
        """The cluster's spectators per game at the last round."""
        self.gone: dict[str, dict[int, float]] = {}
        """Per game: the seats gone, since when (epoch seconds)."""
        self.sockets: dict[Any, Person | None] = {}
        """The lobby sockets and whose session each has."""
        self._list = ""
        self._written: set[str] = set()
        self._told: set[tuple[int, str]] = set()
        self._shown: dict[str, tuple[int, str]] = {}
        """Per watched game: the spectator count and claims at the last round."""

    # --- reading ---------------------------------------------------------------------------------
    def spectators(self, live: LiveGame) -> int:
        here = sum(1 for s in live.sockets.values() if s is None)
        if self.lobby.svc.cluster is None:
            return here
        return max(here, self.counts.get(live.id, here))

    def grace(self, live: LiveGame) -> float:
        clock = live.table.clock
        if clock is not None and clock.control.per_move:
            return self.lobby.abandon_grace_correspondence
        return self.lobby.abandon_grace

    def gone_opponents(self, live: LiveGame, seat: int) -> list[int] | None:
        """The opponents of ``seat`` when every one of them is a person's seat (``None``
        otherwise: a computer never leaves)."""
        opponents = live.table.opponents(seat)
        if not opponents or any(live.records[q].kind != "human" for q in opponents):
            return None
        return opponents

    def claim_info(self, live: LiveGame, seat: int | None) -> dict[str, Any] | None:
        """The payload's ``claim`` for ``seat``: ``None`` unless every opponent is gone."""
        if seat is None or live.over() or live.hotseat:
            return None
        opponents = self.gone_opponents(live, seat)
        gone = self.gone.get(live.id, {})
        if opponents is None or not all(q in gone for q in opponents):
            return None
        since = max(gone[q] for q in opponents)
        at = since + self.grace(live)
        return {"gone": opponents, "since": int(since * 1000), "at": int(at * 1000),
                "can_claim": self.lobby.now() >= at}

    # --- the round -----------------------------------------------------------------------------
    async def tick(self) -> None:
        svc = self.lobby.svc
        games = [g for g in list(svc.games) if g.sockets]
        if games:
            if svc.cluster is not None:
                await self.count_spectators(games)
            for g in games:
                await self.look_gone(g)
            for g in games:
                # compared with what the last round saw, not with a reading taken in this
                # round: a spectator's socket that came between two rounds is already in the
                # first reading, so a before/after pair of this round never saw it change
                shown = (self.spectators(g), json.dumps(
                    [self.claim_info(g, s) for s in range(len(g.records))]))
                if shown != self._shown.get(g.id, _NOTHING_SHOWN):
                    await svc.broadcast(g)
                self._shown[g.id] = shown
            await self.lobby.chat.tick(games)
        watched = {g.id for g in games}
        for gid in [gid for gid in self._shown if gid not in watched]:
            del self._shown[gid]
        await self.send_lobby()

    async def count_spectators(self, games: list[LiveGame]) -> None:
        here = {g.id: sum(1 for s in g.sockets.values() if s is None) for g in games}
        here.update({gid: 0 for gid in self._written if gid not in here})
        self.counts = await self.lobby.db(self._count, here, self.lobby.now())
        self._written = {gid for gid, n in here.items() if n}

    def _count(self, here: dict[str, int], now: float) -> dict[str, int]:
        with Session(self.lobby.engine) as s, s.begin():
            for gid, n in here.items():
                s.execute(delete(WatchRow).where(WatchRow.game_id == gid,
                                                 WatchRow.owner == self.owner))
                if n:
                    s.add(WatchRow(game_id=gid, owner=self.owner, count=n,
                                   alive_until=now + WATCH_TTL))
            s.flush()
            rows = s.execute(select(WatchRow.game_id, func.sum(WatchRow.count))
                             .where(WatchRow.game_id.in_(list(here)),
                                    WatchRow.alive_until > now)
                             .group_by(WatchRow.game_id)).all()
        return {gid: int(n or 0) for gid, n in rows}

    async def look_gone(self, live: LiveGame) -> None:
        """Note which people's seats of ``live`` are gone, and since when (the cluster's
        earliest note)."""
        if live.hotseat or live.over():
            self.gone.pop(live.id, None)
            return
        from rulebox.server.views import presence

        present = presence(live, self.lobby.svc._elsewhere(live))
        people = [i for i, r in enumerate(live.records) if r.kind == "human"]
        away = [i for i in people if not present[i]]
        back = [i for i in people if present[i]]
        self.gone[live.id] = await self.lobby.db(self._gone, live.id, away, back,
                                                 self.lobby.now())

    def _gone(self, gid: str, away: list[int], back: list[int], now: float
              ) -> dict[int, float]:
        with Session(self.lobby.engine) as s, s.begin():
            if back:
                s.execute(delete(GoneRow).where(GoneRow.game_id == gid,
                                                GoneRow.seat.in_(back)))
            known = {seat: since for seat, since in s.execute(
                select(GoneRow.seat, GoneRow.since).where(GoneRow.game_id == gid)).all()}
        for seat in away:
            if seat not in known:
                with contextlib.suppress(IntegrityError), Session(self.lobby.engine) as s, \
                        s.begin():
                    s.add(GoneRow(game_id=gid, seat=seat, since=now))
                known.setdefault(seat, now)
        return {seat: since for seat, since in known.items() if seat in away}

    # --- the lobby sockets ----------------------------------------------------------------------
    async def send_lobby(self, force: Any = None) -> None:
        """Send the open games to the lobby sockets when the list changed (``force``: to that
        socket in any case), and each waiting person's pairing once it is made."""
        if not self.sockets:
            return
        games = await self.lobby.db(self.lobby.open_games)
        text = json.dumps(games, sort_keys=True)
        changed = text != self._list
        self._list = text
        for ws, person in list(self.sockets.items()):
            try:
                if changed or ws is force:
                    await ws.send_json({"type": "lobby", "games": games})
                if person is not None:
                    paired = await self.lobby.pairing.paired_for(person)
                    if paired is not None and (id(ws), paired["id"]) not in self._told:
                        self._told.add((id(ws), paired["id"]))
                        await ws.send_json({"type": "paired", **paired})
            except Exception:
                self.sockets.pop(ws, None)

    async def close(self) -> None:
        if self._written:
            with contextlib.suppress(Exception):
                await self.lobby.db(self._count, {gid: 0 for gid in self._written},
                                    self.lobby.now())
