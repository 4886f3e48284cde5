"""Chat at the table (issue 27): a players' channel and a spectators' channel per game.

Messages are stored with the game (``rulebox_chat``) as plain text (NFC, control characters
removed; clients show them as text, never as HTML), at most :data:`MAX_CHARS` characters.
Players read the players' channel, spectators the spectators'; once the game is over everyone
reads both. A person may send :data:`BURST` messages at once, then one every
:data:`EVERY` seconds per game (counted in the table itself, so every process agrees). A seat
may mute a name for the game. There are no system messages: nothing here can tell a hidden
card. A message is pushed at once to the sockets of the process that took it, and by the next
round of :meth:`Chat.tick` (half a second) to those of the other processes.
"""

from __future__ import annotations

import unicodedata
from typing import TYPE_CHECKING, Any

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from rulebox.i18n import _
from rulebox.server.lobby_store import ChatRow, MuteRow
from rulebox.server.players import name_key

if TYPE_CHECKING:
    from rulebox.server.live import LiveGame
    from rulebox.server.lobby import Lobby

MAX_CHARS = 500
BURST = 5
EVERY = 2.0
"""After :data:`BURST` messages, one every this many seconds (per person and game)."""
RECENT_WINDOW = 30.0
"""Seconds back a round looks for messages made on other processes."""


def clean(text: str) -> str:
    """NFC, control characters (but line breaks) removed, outer spaces stripped."""
    text = unicodedata.normalize("NFC", text)
    return "".join(ch for ch in text
                   if ch == "\n" or unicodedata.category(ch)[0] != "C").strip()


def message_json(row: ChatRow) -> dict[str, Any]:
    return {"id": row.id, "channel": row.channel, "name": row.name, "seat": row.seat,
            "text": row.text, "at": int(row.at * 1000)}


def may_read(channel: str, seat: int | None, over: bool) -> bool:
    """Whether a reader at ``seat`` (``None``: a spectator) reads ``channel`` now."""
    if over:
        return True
    return (channel == "players") == (seat is not None)


class Chat:
    """The chat of every game this process serves."""

    def __init__(self, lobby: Lobby) -> None:
        self.lobby = lobby
        self.pushed: dict[str, set[int]] = {}
        """Per game: the message ids its sockets here were sent."""
        self.mutes: dict[str, dict[int, set[str]]] = {}

    def _error(self, status: int, code: str, message: str, **extra: Any) -> Exception:
        from rulebox.server.errors import ApiError

        return ApiError(status, code, message, **extra)

    async def post(self, live: LiveGame, seat: int | None, person_name: str | None,
                   text: Any) -> dict[str, Any]:
        """Take a message from ``seat`` (players' channel) or a spectator with a name."""
        if not isinstance(text, str):
            raise self._error(400, "malformed", _("text is the message"))
        body = clean(text)
        if not body:
            raise self._error(400, "chat_empty", _("the message is empty"))
        if len(body) > MAX_CHARS:
            raise self._error(400, "chat_too_long", _("a message is at most {n} characters")
                              .format(n=MAX_CHARS), max=MAX_CHARS)
        if seat is not None:
            name = live.records[seat].name or person_name or live.records[seat].label
            channel = "players"
        elif person_name is not None:
            name, channel = person_name, "spectators"
        else:
            raise self._error(401, "no_session", _("sign in or choose a guest name to chat "
                                                   "as a spectator"))
        author = name_key(name) if seat is None or live.records[seat].name else f"seat:{seat}"
        row, wait = await self.lobby.db(self._store, live.id, channel, author, name, seat,
                                        body, self.lobby.now())
        if row is None:
            raise self._error(429, "chat_too_fast", _("too many messages; wait a moment"),
                              retry_after=round(wait, 1))
        message = message_json(row)
        await self.push(live, [message])
        return message

    def _store(self, gid: str, channel: str, author: str, name: str, seat: int | None,
               body: str, now: float) -> tuple[ChatRow | None, float]:
        window = BURST * EVERY
        with Session(self.lobby.engine) as s, s.begin():
            times = sorted(t for (t,) in s.execute(
                select(ChatRow.at).where(ChatRow.game_id == gid, ChatRow.author == author,
                                         ChatRow.at > now - window)).all())
            if len(times) >= BURST:
                return None, max(0.1, times[-BURST] + window - now)
            row = ChatRow(game_id=gid, channel=channel, author=author, name=name, seat=seat,
                          text=body, at=now)
            s.add(row)
            s.flush()
            s.expunge(row)
        return row, 0.0

    def muted_by(self, gid: str) -> dict[int, set[str]]:
        if gid not in self.mutes:
            with Session(self.lobby.engine) as s:
                found: dict[int, set[str]] = {}
                for seat, muted in s.execute(select(MuteRow.seat, MuteRow.muted)
                                             .where(MuteRow.game_id == gid)).all():
                    found.setdefault(seat, set()).add(muted)
            self.mutes[gid] = found
        return self.mutes[gid]

    def readable(self, live: LiveGame, seat: int | None, message: dict[str, Any]) -> bool:
        if not may_read(message["channel"], seat, live.over()):
            return False
        if seat is not None:
            muted = self.muted_by(live.id).get(seat, set())
            if muted and name_key(message["name"]) in muted:
                return False
        return True

    async def push(self, live: LiveGame, messages: list[dict[str, Any]]) -> None:
        seen = self.pushed.setdefault(live.id, set())
        fresh = [m for m in messages if m["id"] not in seen]
        seen.update(m["id"] for m in fresh)
        if len(seen) > 1000:
            self.pushed[live.id] = set(sorted(seen)[-500:])
        for ws, seat in list(live.sockets.items()):
            for m in fresh:
                if self.readable(live, seat, m):
                    try:
                        await ws.send_json({"type": "chat", "message": m})
                    except Exception:
                        break

    async def read(self, live: LiveGame, seat: int | None) -> list[dict[str, Any]]:
        rows = await self.lobby.db(self._read, live.id)
        return [m for m in rows if self.readable(live, seat, m)]

    def _read(self, gid: str) -> list[dict[str, Any]]:
        with Session(self.lobby.engine) as s:
            return [message_json(r) for r in s.execute(
                select(ChatRow).where(ChatRow.game_id == gid).order_by(ChatRow.id)
                .limit(2000)).scalars()]

    async def mute(self, live: LiveGame, seat: int, name: Any, muted: bool) -> list[str]:
        if not isinstance(name, str) or not name.strip() or len(name) > 80:
            raise self._error(400, "malformed", _("name is the player to mute"))
        key = name_key(name.strip())
        await self.lobby.db(self._mute, live.id, seat, key, name.strip(), muted)
        self.mutes.pop(live.id, None)
        return sorted(await self.lobby.db(self._muted, live.id, seat))

    def _mute(self, gid: str, seat: int, key: str, name: str, muted: bool) -> None:
        with Session(self.lobby.engine) as s, s.begin():
            s.execute(delete(MuteRow).where(MuteRow.game_id == gid, MuteRow.seat == seat,
                                            MuteRow.muted == key))
            if muted:
                s.add(MuteRow(game_id=gid, seat=seat, muted=key, name=name))

    def _muted(self, gid: str, seat: int) -> list[str]:
        with Session(self.lobby.engine) as s:
            return [n for (n,) in s.execute(select(MuteRow.name).where(
                MuteRow.game_id == gid, MuteRow.seat == seat)).all()]

    async def tick(self, games: list[LiveGame]) -> None:
        """Push the messages other processes took (for the games with sockets here)."""
        if self.lobby.svc.cluster is None:
            return
        ids = [g.id for g in games]
        rows = await self.lobby.db(self._recent, ids, self.lobby.now() - RECENT_WINDOW)
        by_game: dict[str, list[dict[str, Any]]] = {}
        for m in rows:
            by_game.setdefault(m.pop("game_id"), []).append(m)
        for g in games:
            if by_game.get(g.id):
                self.mutes.pop(g.id, None)  # a mute may have come through another process
                await self.push(g, by_game[g.id])

    def _recent(self, ids: list[str], since: float) -> list[dict[str, Any]]:
        with Session(self.lobby.engine) as s:
            return [{**message_json(r), "game_id": r.game_id} for r in s.execute(
                select(ChatRow).where(ChatRow.game_id.in_(ids), ChatRow.at > since)
                .order_by(ChatRow.id)).scalars()]
