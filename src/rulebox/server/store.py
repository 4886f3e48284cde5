"""Durable storage of online games through SQLAlchemy: SQLite by default, PostgreSQL on request.

Two tables: ``games`` (one row per game: its seats, the token hashes, the complete state of
the table, :meth:`rulebox.match.table.Table.to_json`, and a version counter) and ``moves``
(one row per ply, for the move list with times). A move is stored in one transaction that
appends its row and replaces the state; the server acknowledges a move only after that
transaction has committed.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Boolean,
    DateTime,
    Integer,
    String,
    Table,
    Text,
    bindparam,
    create_engine,
    delete,
    event,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker


class Base(DeclarativeBase):
    """Declarative base of the server's tables."""


class GameRow(Base):
    """One game: who sits where and the full state."""

    __tablename__ = "rulebox_games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    seats: Mapped[str] = mapped_column(Text)  # JSON list of seat records (token hashes, agents)
    hotseat: Mapped[bool] = mapped_column(Boolean, default=False)
    state: Mapped[str] = mapped_column(Text)  # Game.to_json() as text
    ply: Mapped[int] = mapped_column(Integer, default=0)
    over: Mapped[bool] = mapped_column(Boolean, default=False)
    version: Mapped[int] = mapped_column(Integer, default=0)
    agreed: Mapped[str | None] = mapped_column(Text, nullable=True)  # e.g. a draw by agreement
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class MoveRow(Base):
    """One ply of a game."""

    __tablename__ = "rulebox_moves"

    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    ply: Mapped[int] = mapped_column(Integer, primary_key=True)
    player: Mapped[int] = mapped_column(Integer)
    move: Mapped[str] = mapped_column(Text)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


_GAMES: Table = GameRow.__table__  # type: ignore[assignment]
_MOVES: Table = MoveRow.__table__  # type: ignore[assignment]


@dataclass
class StoredGame:
    """A game as read back from storage."""

    id: str
    game: str
    seats: list[dict[str, Any]]
    hotseat: bool
    state: dict[str, Any]
    version: int
    created_at: datetime
    agreed: str | None = None


def default_db_url() -> str:
    """SQLite in the user's data directory (``$XDG_DATA_HOME/rulebox`` or
    ``~/.local/share/rulebox``; ``%APPDATA%\\rulebox`` on Windows), created when missing."""
    if os.name == "nt":
        base = Path(os.environ.get("APPDATA", Path.home() / "AppData" / "Roaming"))
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    folder = base / "rulebox"
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'rulebox.db'}"


def normalize_db_url(url: str) -> str:
    """Pick the psycopg (version 3) driver for plain ``postgresql://`` URLs."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def _now() -> datetime:
    return datetime.now(UTC)


class Store:
    """Synchronous storage; the server calls it from worker threads.

    SQLite allows one writer at a time, so its writes are serialised here by a lock (readers
    are not blocked thanks to the write-ahead log).
    """

    def __init__(self, url: str | None = None) -> None:
        self.url = normalize_db_url(url or default_db_url())
        self.is_sqlite = self.url.startswith("sqlite")
        kwargs: dict[str, Any] = {"future": True}
        if self.is_sqlite:
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
        else:
            kwargs.update(pool_size=10, max_overflow=20, pool_pre_ping=True)
        if self.is_sqlite:
            _private_file(self.url)
        self.engine: Engine = create_engine(self.url, **kwargs)
        if self.is_sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas)
        self._write_lock = threading.Lock() if self.is_sqlite else None
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        Base.metadata.create_all(self.engine)
        self._upgrade()

    def _upgrade(self) -> None:
        """Add the columns that later versions introduced to tables made by earlier ones."""
        cols = {c["name"] for c in inspect(self.engine).get_columns(GameRow.__tablename__)}
        if "agreed" not in cols:
            with self.engine.begin() as conn:
                conn.execute(text(f"ALTER TABLE {GameRow.__tablename__} ADD COLUMN agreed TEXT"))

    def close(self) -> None:
        """Release every connection."""
        self.engine.dispose()

    @contextmanager
    def _write(self) -> Iterator[Session]:
        if self._write_lock is not None:
            with self._write_lock, self._sessions.begin() as session:
                yield session
        else:
            with self._sessions.begin() as session:
                yield session

    # --- writes ------------------------------------------------------------------------------
    def create_game(
        self, game_id: str, game: str, seats: list[dict[str, Any]], hotseat: bool,
        state: dict[str, Any],
    ) -> None:
        """Store a new game (committed on return)."""
        now = _now()
        with self._write() as s:
            s.add(GameRow(
                id=game_id, game=game, seats=json.dumps(seats), hotseat=hotseat,
                state=json.dumps(state), ply=len(state.get("history", [])), over=False,
                version=0, created_at=now, updated_at=now,
            ))

    def record_moves(
        self, game_id: str, first_ply: int, moves: list[tuple[int, str]],
        state: dict[str, Any], over: bool, version: int,
    ) -> None:
        """Append moves (``(player, text)`` from ply ``first_ply`` on) and the new state, in one
        transaction (committed on return)."""
        now = _now()
        with self._write() as s:
            for i, (player, text) in enumerate(moves):
                s.add(MoveRow(game_id=game_id, ply=first_ply + i, player=player, move=text, at=now))
            row = s.get(GameRow, game_id)
            if row is None:
                raise KeyError(game_id)
            row.state = json.dumps(state)
            row.ply = first_ply + len(moves)
            row.over = over
            row.version = version
            row.updated_at = now

    def record_batch(
        self, items: list[tuple[str, int, list[tuple[int, str]], dict[str, Any], bool, int]]
    ) -> None:
        """Several :meth:`record_moves` (``(game_id, first_ply, moves, state, over, version)``)
        in one transaction: one commit (one disk flush) for many games' moves."""
        now = _now()
        with self._write() as s:
            rows = [
                {"game_id": gid, "ply": first + i, "player": player, "move": text, "at": now}
                for gid, first, moves, _state, _over, _version in items
                for i, (player, text) in enumerate(moves)
            ]
            if rows:
                s.connection().execute(_MOVES.insert(), rows)
            s.connection().execute(
                update(_GAMES).where(_GAMES.c.id == bindparam("gid")),
                [{"gid": gid, "state": json.dumps(state), "ply": first + len(moves),
                  "over": over, "version": version, "updated_at": now}
                 for gid, first, moves, state, over, version in items],
            )

    def truncate(self, game_id: str, ply: int, state: dict[str, Any], version: int) -> None:
        """Forget the moves from ``ply`` on (an undo) and store the new state."""
        with self._write() as s:
            s.execute(delete(MoveRow).where(MoveRow.game_id == game_id, MoveRow.ply >= ply))
            row = s.get(GameRow, game_id)
            if row is None:
                raise KeyError(game_id)
            row.state = json.dumps(state)
            row.ply = ply
            row.over = False
            row.version = version
            row.updated_at = _now()

    def save_state(self, game_id: str, ply: int, state: dict[str, Any], over: bool,
                   version: int, agreed: str | None) -> None:
        """Store the table after a change that is not a move (an undo: the moves from ``ply``
        on are forgotten; a draw offer or answer; a resignation, whose ``agreed`` text says
        how the game ended at the table)."""
        with self._write() as s:
            s.execute(delete(MoveRow).where(MoveRow.game_id == game_id, MoveRow.ply >= ply))
            row = s.get(GameRow, game_id)
            if row is None:
                raise KeyError(game_id)
            row.state = json.dumps(state)
            row.ply = ply
            row.over = over
            row.agreed = agreed
            row.version = version
            row.updated_at = _now()

    def set_agreed(self, game_id: str, reason: str, version: int) -> None:
        """Record a result the players agreed on (the game ends there)."""
        with self._write() as s:
            row = s.get(GameRow, game_id)
            if row is None:
                raise KeyError(game_id)
            row.agreed = reason
            row.over = True
            row.version = version
            row.updated_at = _now()

    # --- reads -------------------------------------------------------------------------------
    def load(self, game_id: str) -> StoredGame | None:
        """A game by id, or ``None``."""
        with self._sessions() as s:
            row = s.get(GameRow, game_id)
            if row is None:
                return None
            return StoredGame(
                id=row.id, game=row.game, seats=json.loads(row.seats), hotseat=row.hotseat,
                state=json.loads(row.state), version=row.version, created_at=row.created_at,
                agreed=row.agreed,
            )

    def move_times(self, game_id: str) -> list[tuple[int, int, str, datetime]]:
        """(ply, player, move, time) of every stored move."""
        with self._sessions() as s:
            rows = s.execute(
                select(MoveRow.ply, MoveRow.player, MoveRow.move, MoveRow.at)
                .where(MoveRow.game_id == game_id).order_by(MoveRow.ply)
            ).all()
            return [tuple(r) for r in rows]  # type: ignore[misc]

    def recent(self, limit: int = 20) -> list[dict[str, Any]]:
        """The most recently changed games (id, game, ply, over, whether the creator arranged
        the deal), for the lobby."""
        with self._sessions() as s:
            rows = s.execute(
                select(GameRow.id, GameRow.game, GameRow.ply, GameRow.over, GameRow.updated_at,
                       GameRow.state)
                .order_by(GameRow.updated_at.desc()).limit(limit)
            ).all()
            return [
                {"id": r[0], "game": r[1], "ply": r[2], "over": r[3],
                 "updated": r[4].isoformat() if r[4] else None,
                 "arranged": _arranged(r[5])}
                for r in rows
            ]

    def stale_unfinished(self, seconds: float, limit: int = 200) -> list[str]:
        """Ids of unfinished games not changed for ``seconds`` (oldest first)."""
        cutoff = _now() - timedelta(seconds=seconds)
        with self._sessions() as s:
            rows = s.execute(
                select(GameRow.id).where(GameRow.over.is_(False), GameRow.updated_at < cutoff)
                .order_by(GameRow.updated_at).limit(limit)
            ).all()
            return [r[0] for r in rows]


def _arranged(state: str) -> bool:
    """Whether a stored table says its deal was arranged (cheap: no full parse needed)."""
    return '"arranged": true' in state[-400:] or '"arranged":true' in state[-400:]


def _private_file(url: str) -> None:
    """Create the SQLite file (and its WAL companions) readable by its owner only: it holds
    every game's seed and deck."""
    path = url.split("///", 1)[1] if "///" in url else ""
    if not path or path.startswith(":memory:") or "?" in path or path.startswith("file:"):
        return
    old = os.umask(0o077)
    try:
        for name in (path, path + "-wal", path + "-shm"):
            if os.path.exists(name):
                os.chmod(name, 0o600)
        if not os.path.exists(path):
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(path, os.O_CREAT | os.O_WRONLY, 0o600)
            os.close(fd)
    finally:
        os.umask(old)


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=FULL")  # a committed move survives a power cut
    cur.close()
