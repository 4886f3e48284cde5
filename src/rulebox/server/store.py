"""Durable storage of online games through SQLAlchemy: SQLite by default, PostgreSQL on request.

Three tables: ``games`` (one row per game: its seats, the token hashes, the complete state of
the table, :meth:`rulebox.match.table.Table.to_json`, and a version counter), ``moves`` (one
row per ply, for the move list with times) and ``jobs`` (computer turns waiting for a server
process, PostgreSQL only: :mod:`rulebox.server.cluster`). A move is stored in one transaction
that appends its row and replaces the state; the server acknowledges a move only after that
transaction has committed.

Optimistic concurrency: a write names the version the change was made on (``expected``) and
replaces the row only if storage is not ahead of it (``UPDATE ... WHERE id = :id AND version <=
:expected``, in the same transaction as the moves); otherwise it raises :class:`StaleWrite` and
changes nothing. So several server processes on one database never both apply a change to the
same position (docs/SERVER.md, "Many processes").
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Boolean,
    DateTime,
    Float,
    Integer,
    String,
    Table,
    Text,
    create_engine,
    delete,
    event,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection, Engine
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
    rematch: Mapped[str | None] = mapped_column(String(32), nullable=True)  # the next game's id
    flag_at: Mapped[float | None] = mapped_column(Float, nullable=True, index=True)
    """When the running clock's flag falls (epoch seconds; ``None``: no clock runs)."""
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


class JobRow(Base):
    """A computer's turn waiting for a server process (PostgreSQL): the game, the version the
    computer is to move on, and the lease of the process thinking about it."""

    __tablename__ = "rulebox_jobs"

    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    version: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    taken_by: Mapped[str | None] = mapped_column(String(120), nullable=True)
    lease_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


_GAMES: Table = GameRow.__table__  # type: ignore[assignment]
_MOVES: Table = MoveRow.__table__  # type: ignore[assignment]


class StaleWrite(Exception):
    """Storage holds a newer version of the game than the change was made on (another server
    process changed it first); nothing was written."""

    def __init__(self, game_id: str) -> None:
        super().__init__(game_id)
        self.game_id = game_id


SCHEMA_LOCK = 0x72B0C5
"""The PostgreSQL advisory lock held while a process makes or upgrades the tables."""

Change = tuple[str, int, int]
"""What a committed write changed: (game id, new version, moves appended)."""


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
    rematch: str | None = None


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


def flag_at(state: dict[str, Any], over: bool) -> float | None:
    """When the flag of a stored table's running clock falls (epoch seconds), or ``None``."""
    data = state.get("clock") if not over else None
    if not data:
        return None
    from rulebox.match.clock import Clock

    try:
        return Clock.from_json(data).falls_at()
    except Exception:  # a clock it cannot read has no deadline to watch (the table refuses it)
        return None


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
        self.notify_channel: str | None = None
        """PostgreSQL: ``pg_notify`` this channel with ``<game id>:<version>`` in the
        transaction of every write (delivered when it commits)."""
        self.listeners: list[Callable[[list[Change]], None]] = []
        """Called after every committed write, in the writing thread."""
        with self.engine.begin() as conn:
            if not self.is_sqlite:  # several processes starting at once make the tables once
                conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": SCHEMA_LOCK})
            Base.metadata.create_all(conn)
            self._upgrade(conn)

    def _upgrade(self, conn: Connection) -> None:
        """Add the columns that later versions introduced to tables made by earlier ones."""
        cols = {c["name"] for c in inspect(conn).get_columns(GameRow.__tablename__)}
        if "agreed" not in cols:
            conn.execute(text(f"ALTER TABLE {GameRow.__tablename__} ADD COLUMN agreed TEXT"))
        if "flag_at" not in cols:
            conn.execute(text(f"ALTER TABLE {GameRow.__tablename__} ADD COLUMN flag_at FLOAT"))
        if "rematch" not in cols:
            conn.execute(text(f"ALTER TABLE {GameRow.__tablename__} "
                              "ADD COLUMN rematch VARCHAR(32)"))

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

    def _notify(self, s: Session, changes: list[Change]) -> None:
        """Queue the notifications of ``changes`` in the write's transaction."""
        if self.notify_channel is not None:
            for gid, version, _n in changes:
                s.execute(text("SELECT pg_notify(:c, :p)"),
                          {"c": self.notify_channel, "p": f"{gid}:{version}"})

    def _committed(self, changes: list[Change]) -> None:
        for listener in self.listeners:
            listener(changes)

    def _replace(self, s: Session, game_id: str, expected: int | None, **values: Any) -> None:
        """Replace a game's row, only if storage is not ahead of ``expected`` (``None``: no
        check); :class:`StaleWrite` otherwise (or when there is no such game)."""
        stmt = update(_GAMES).where(_GAMES.c.id == game_id)
        if expected is not None:
            stmt = stmt.where(_GAMES.c.version <= expected)
        if s.execute(stmt.values(**values)).rowcount != 1:  # type: ignore[attr-defined]
            if expected is None:
                raise KeyError(game_id)
            raise StaleWrite(game_id)

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
                version=int(state.get("version", 0)), created_at=now, updated_at=now,
                flag_at=flag_at(state, False),
            ))

    def record_moves(
        self, game_id: str, first_ply: int, moves: list[tuple[int, str]],
        state: dict[str, Any], over: bool, version: int, expected: int | None = None,
    ) -> None:
        """Append moves (``(player, text)`` from ply ``first_ply`` on) and the new state, in one
        transaction (committed on return); made on version ``expected``
        (:class:`StaleWrite` when storage is ahead of it)."""
        self.record_batch([(game_id, first_ply, moves, state, over, version, expected)])

    def record_batch(self, items: list[tuple[Any, ...]]) -> None:
        """Several :meth:`record_moves` (``(game_id, first_ply, moves, state, over, version)``,
        optionally followed by the version ``expected`` they were made on) in one transaction:
        one commit (one disk flush) for many games' moves. One stale item
        (:class:`StaleWrite`) fails the whole transaction."""
        now = _now()
        changes: list[Change] = []
        with self._write() as s:
            rows = []
            for item in items:
                gid, first, moves, state, over, version = item[:6]
                expected = item[6] if len(item) > 6 else None
                self._replace(s, gid, expected, state=json.dumps(state),
                              ply=first + len(moves), over=over, version=version,
                              updated_at=now, flag_at=flag_at(state, over))
                rows += [{"game_id": gid, "ply": first + i, "player": player, "move": text,
                          "at": now} for i, (player, text) in enumerate(moves)]
                changes.append((gid, version, len(moves)))
            if rows:
                s.connection().execute(_MOVES.insert(), rows)
            self._notify(s, changes)
        self._committed(changes)

    def truncate(self, game_id: str, ply: int, state: dict[str, Any], version: int,
                 expected: int | None = None) -> None:
        """Forget the moves from ``ply`` on (an undo) and store the new state."""
        self.save_state(game_id, ply, state, False, version, None, expected=expected)

    def save_state(self, game_id: str, ply: int, state: dict[str, Any], over: bool,
                   version: int, agreed: str | None, expected: int | None = None) -> None:
        """Store the table after a change that is not a move (an undo: the moves from ``ply``
        on are forgotten; a draw offer or answer; a resignation, whose ``agreed`` text says
        how the game ended at the table), made on version ``expected``
        (:class:`StaleWrite` when storage is ahead of it)."""
        with self._write() as s:
            self._replace(s, game_id, expected, state=json.dumps(state), ply=ply, over=over,
                          agreed=agreed, version=version, updated_at=_now(),
                          flag_at=flag_at(state, over))
            s.execute(delete(MoveRow).where(MoveRow.game_id == game_id, MoveRow.ply >= ply))
            self._notify(s, [(game_id, version, 0)])
        self._committed([(game_id, version, 0)])

    def set_agreed(self, game_id: str, reason: str, version: int,
                   expected: int | None = None) -> None:
        """Record a result the players agreed on (the game ends there)."""
        with self._write() as s:
            self._replace(s, game_id, expected, agreed=reason, over=True, version=version,
                          updated_at=_now())
            self._notify(s, [(game_id, version, 0)])
        self._committed([(game_id, version, 0)])

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
                agreed=row.agreed, rematch=row.rematch,
            )

    def claim_rematch(self, game_id: str, new_id: str) -> str | None:
        """Name ``new_id`` the rematch of ``game_id`` unless it has one already (one
        conditional update: of two processes asked at once, one wins). Answers the rematch's id
        (``new_id`` or the one named first); ``None`` for an unknown game."""
        with self._write() as s:
            done = s.execute(update(GameRow).where(GameRow.id == game_id,
                                                   GameRow.rematch.is_(None))
                             .values(rematch=new_id))
            if getattr(done, "rowcount", 0) == 1:
                return new_id
            return s.execute(select(GameRow.rematch).where(GameRow.id == game_id)
                             ).scalar_one_or_none()

    def release_rematch(self, game_id: str, new_id: str) -> None:
        """Forget a claimed rematch whose game could not be stored."""
        with self._write() as s:
            s.execute(update(GameRow).where(GameRow.id == game_id, GameRow.rematch == new_id)
                      .values(rematch=None))

    def version_of(self, game_id: str) -> int | None:
        """The stored version of a game (one indexed read), or ``None``."""
        with self._sessions() as s:
            return s.execute(select(GameRow.version).where(GameRow.id == game_id)
                             ).scalar_one_or_none()

    def ping(self) -> None:
        """Raise unless the database answers."""
        with self.engine.connect() as conn:
            conn.execute(text("SELECT 1"))

    def move_times(self, game_id: str) -> list[tuple[int, int, str, datetime]]:
        """(ply, player, move, time) of every stored move."""
        with self._sessions() as s:
            rows = s.execute(
                select(MoveRow.ply, MoveRow.player, MoveRow.move, MoveRow.at)
                .where(MoveRow.game_id == game_id).order_by(MoveRow.ply)
            ).all()
            return [tuple(r) for r in rows]  # type: ignore[misc]

    def recent(self, limit: int = 20, played: bool = False) -> list[dict[str, Any]]:
        """The most recently changed games (only those with a move when ``played``): id,
        game, ply, over, whether the creator arranged the deal, and each seat's kind and label
        (never a token's hash), for the lobby's "Watch a game"."""
        with self._sessions() as s:
            query = select(GameRow.id, GameRow.game, GameRow.ply, GameRow.over,
                           GameRow.updated_at, GameRow.state, GameRow.seats)
            if played:
                query = query.where(GameRow.ply > 0)
            rows = s.execute(query.order_by(GameRow.updated_at.desc()).limit(limit)).all()
            return [
                {"id": r[0], "game": r[1], "ply": r[2], "over": r[3],
                 "updated": r[4].isoformat() if r[4] else None,
                 "arranged": _arranged(r[5]), "seats": _seat_labels(r[6])}
                for r in rows
            ]

    def flags_fallen(self, now: float, limit: int = 200) -> list[str]:
        """Ids of unfinished games whose running clock's flag fell by ``now`` (epoch seconds),
        earliest first: a timer that a restart or another process's death lost."""
        with self._sessions() as s:
            rows = s.execute(
                select(GameRow.id).where(GameRow.over.is_(False), GameRow.flag_at.is_not(None),
                                         GameRow.flag_at <= now)
                .order_by(GameRow.flag_at).limit(limit)
            ).all()
            return [r[0] for r in rows]

    def stale_unfinished(self, seconds: float, limit: int = 200) -> list[str]:
        """Ids of unfinished games not changed for ``seconds`` (oldest first)."""
        cutoff = _now() - timedelta(seconds=seconds)
        with self._sessions() as s:
            rows = s.execute(
                select(GameRow.id).where(GameRow.over.is_(False), GameRow.updated_at < cutoff)
                .order_by(GameRow.updated_at).limit(limit)
            ).all()
            return [r[0] for r in rows]


    # --- computer turns as jobs (PostgreSQL) ---------------------------------------------------
    def enqueue_job(self, game_id: str, version: int) -> None:
        """A computer is to move in ``game_id`` on ``version``: add the job (a job for an older
        version is replaced and its lease dropped; one for this version is left alone)."""
        with self._write() as s:
            s.execute(text(
                "INSERT INTO rulebox_jobs (game_id, version, created_at) VALUES (:g, :v, now()) "
                "ON CONFLICT (game_id) DO UPDATE SET version = EXCLUDED.version, "
                "created_at = EXCLUDED.created_at, taken_by = NULL, lease_until = NULL "
                "WHERE rulebox_jobs.version < EXCLUDED.version"), {"g": game_id, "v": version})
            self._notify(s, [(game_id, version, 0)])
        self._committed([(game_id, version, 0)])

    def take_job(self, owner: str, lease: float) -> tuple[str, int, float] | None:
        """Take the oldest job nobody holds (or whose lease ran out) for ``lease`` seconds:
        ``(game id, version, seconds it waited)``, or ``None``. ``FOR UPDATE SKIP LOCKED``: two
        processes asking at once never get the same job."""
        with self._write() as s:
            row = s.execute(text(
                "UPDATE rulebox_jobs SET taken_by = :o, "
                "lease_until = now() + :l * interval '1 second' "
                "WHERE game_id = (SELECT game_id FROM rulebox_jobs "
                "WHERE lease_until IS NULL OR lease_until < now() "
                "ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED) "
                "RETURNING game_id, version, extract(epoch FROM now() - created_at)"),
                {"o": owner, "l": lease}).first()
        return None if row is None else (str(row[0]), int(row[1]), max(0.0, float(row[2])))

    def renew_job(self, game_id: str, owner: str, lease: float) -> bool:
        """Extend ``owner``'s lease of a job; ``False`` when it holds it no longer."""
        with self._write() as s:
            res = s.execute(text(
                "UPDATE rulebox_jobs SET lease_until = now() + :l * interval '1 second' "
                "WHERE game_id = :g AND taken_by = :o"), {"g": game_id, "o": owner, "l": lease})
            return bool(res.rowcount)  # type: ignore[attr-defined]

    def finish_job(self, game_id: str, version: int) -> None:
        """The job of ``version`` is done (or overtaken): remove it (a newer one stays)."""
        with self._write() as s:
            s.execute(text("DELETE FROM rulebox_jobs WHERE game_id = :g AND version <= :v"),
                      {"g": game_id, "v": version})

    def release_job(self, game_id: str, owner: str) -> None:
        """Give a job back at once (for another process, or this one, to take)."""
        with self._write() as s:
            s.execute(text("UPDATE rulebox_jobs SET taken_by = NULL, lease_until = NULL "
                           "WHERE game_id = :g AND taken_by = :o"), {"g": game_id, "o": owner})

    def held_jobs(self, prefix: str) -> list[tuple[str, str]]:
        """(game id, holder) of the leased jobs whose holder starts with ``prefix``."""
        with self._sessions() as s:
            rows = s.execute(text(
                "SELECT game_id, taken_by FROM rulebox_jobs WHERE taken_by LIKE :p "
                "AND lease_until >= now()"), {"p": prefix + "%"}).all()
            return [(str(r[0]), str(r[1])) for r in rows]

    def waiting_jobs(self) -> int:
        """Jobs nobody holds."""
        with self._sessions() as s:
            return int(s.execute(text(
                "SELECT count(*) FROM rulebox_jobs WHERE lease_until IS NULL "
                "OR lease_until < now()")).scalar_one())


def _seat_labels(seats: str) -> list[dict[str, str]]:
    """Each stored seat's kind and label ("human", "computer (hard)"), nothing secret."""
    try:
        data = json.loads(seats)
        return [{"kind": str(x.get("kind", "")), "label": str(x.get("label", x.get("kind", "")))}
                for x in data]
    except (ValueError, TypeError, AttributeError):
        return []


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
