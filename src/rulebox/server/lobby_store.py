"""The tables of players, sessions, open games, ratings, pairing and chat (issue 27).

They live in the server's database next to the games (:mod:`rulebox.server.store`) and are
made by :func:`create_tables`. Every statement here is plain SQLAlchemy that runs on SQLite and
PostgreSQL alike; the few that must hold between processes (joining a seat, pairing, rating a
game once) rely on a row lock (``SELECT ... FOR UPDATE``, a no-op under SQLite's single writer)
or a primary key. Times are epoch seconds from the caller (the server's clock), never read
here.
"""

from __future__ import annotations

from sqlalchemy import Boolean, Float, Index, Integer, String, Text
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class LobbyBase(DeclarativeBase):
    """Declarative base of issue 27's tables."""


class PlayerRow(LobbyBase):
    """A name: an account (with its argon2id hash) or a guest (no password)."""

    __tablename__ = "rulebox_players"

    key: Mapped[str] = mapped_column(String(80), primary_key=True)  # NFKC case fold
    name: Mapped[str] = mapped_column(String(80))
    guest: Mapped[bool] = mapped_column(Boolean, default=False)
    password: Mapped[str | None] = mapped_column(Text, nullable=True)
    created_at: Mapped[float] = mapped_column(Float)


class SessionRow(LobbyBase):
    """A session: its token's hash and whose it is."""

    __tablename__ = "rulebox_sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    player: Mapped[str] = mapped_column(String(80), index=True)
    expires_at: Mapped[float] = mapped_column(Float)


class LoginFailureRow(LobbyBase):
    """A failed login (kept 15 minutes) by name key and client address."""

    __tablename__ = "rulebox_login_failures"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name_key: Mapped[str] = mapped_column(String(200), index=True)
    client: Mapped[str] = mapped_column(String(100), index=True)
    at: Mapped[float] = mapped_column(Float, index=True)


class LobbyGameRow(LobbyBase):
    """What the lobby knows of a game with named seats: rated, open, its creator."""

    __tablename__ = "rulebox_lobby"

    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    options: Mapped[str] = mapped_column(Text, default="{}")
    clock: Mapped[str | None] = mapped_column(String(20), nullable=True)
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    listed: Mapped[bool] = mapped_column(Boolean, default=False, index=True)
    """An open game with a free seat, not cancelled (``GET /api/games?open=1``)."""
    creator: Mapped[str | None] = mapped_column(String(80), nullable=True)
    created_at: Mapped[float] = mapped_column(Float)
    changed_at: Mapped[float] = mapped_column(Float)


class SeatRow(LobbyBase):
    """A named seat of a game: who sat there, and how the game went for them."""

    __tablename__ = "rulebox_seats"

    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player: Mapped[str] = mapped_column(String(80), index=True)  # name key or computer label
    name: Mapped[str] = mapped_column(String(80))
    game: Mapped[str] = mapped_column(String(32))
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    over: Mapped[bool] = mapped_column(Boolean, default=False)
    result: Mapped[str | None] = mapped_column(String(8), nullable=True)  # win, loss, draw
    how: Mapped[str | None] = mapped_column(String(20), nullable=True)
    before: Mapped[float | None] = mapped_column(Float, nullable=True)
    after: Mapped[float | None] = mapped_column(Float, nullable=True)
    score: Mapped[float | None] = mapped_column(Float, nullable=True)
    joined_at: Mapped[float] = mapped_column(Float)
    ended_at: Mapped[float | None] = mapped_column(Float, nullable=True)


Index("rulebox_seats_player_ended", SeatRow.player, SeatRow.ended_at)


class RatingRow(LobbyBase):
    """A player's (or a computer level's) rating in one pool (a game, or ``columba-multi``)."""

    __tablename__ = "rulebox_ratings"

    player: Mapped[str] = mapped_column(String(80), primary_key=True)
    pool: Mapped[str] = mapped_column(String(40), primary_key=True)
    system: Mapped[str] = mapped_column(String(10))  # glicko2 | openskill
    value: Mapped[float] = mapped_column(Float)  # Glicko-2 rating, or mu
    deviation: Mapped[float] = mapped_column(Float)  # RD, or sigma
    volatility: Mapped[float] = mapped_column(Float, default=0.06)
    games: Mapped[int] = mapped_column(Integer, default=0)


class RatingHistoryRow(LobbyBase):
    """A rating after a rated game (the player page's chart)."""

    __tablename__ = "rulebox_rating_history"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    player: Mapped[str] = mapped_column(String(80), index=True)
    pool: Mapped[str] = mapped_column(String(40))
    at: Mapped[float] = mapped_column(Float)
    value: Mapped[float] = mapped_column(Float)
    game_id: Mapped[str] = mapped_column(String(32))


class RatedRow(LobbyBase):
    """A game whose ending was counted (its primary key makes that happen once)."""

    __tablename__ = "rulebox_rated"

    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    at: Mapped[float] = mapped_column(Float)


class PairingRow(LobbyBase):
    """A person in a quick-pairing queue, and once paired their game and seat token."""

    __tablename__ = "rulebox_pairing"

    player: Mapped[str] = mapped_column(String(80), primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    queue: Mapped[str] = mapped_column(String(80), index=True)  # game|clock|rated
    rating: Mapped[float] = mapped_column(Float)
    since: Mapped[float] = mapped_column(Float)
    seen: Mapped[float] = mapped_column(Float)
    """When its owner last asked (an entry not asked about for a minute is dropped)."""
    game_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    token: Mapped[str | None] = mapped_column(String(80), nullable=True)
    paired_at: Mapped[float | None] = mapped_column(Float, nullable=True)


class ChatRow(LobbyBase):
    """A chat message of a game, in the players' or the spectators' channel."""

    __tablename__ = "rulebox_chat"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(String(32), index=True)
    channel: Mapped[str] = mapped_column(String(12))
    author: Mapped[str] = mapped_column(String(80))  # name key (rate limit, mutes)
    name: Mapped[str] = mapped_column(String(80))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    text: Mapped[str] = mapped_column(Text)
    at: Mapped[float] = mapped_column(Float)


class MuteRow(LobbyBase):
    """A seat that does not want another's messages in a game."""

    __tablename__ = "rulebox_mutes"

    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    muted: Mapped[str] = mapped_column(String(80), primary_key=True)  # a name key
    name: Mapped[str] = mapped_column(String(80))


class GoneRow(LobbyBase):
    """Since when a seat has had no socket on any process (abandonment)."""

    __tablename__ = "rulebox_gone"

    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    since: Mapped[float] = mapped_column(Float)


class WatchRow(LobbyBase):
    """How many spectators' sockets a process holds for a game (until ``alive_until``)."""

    __tablename__ = "rulebox_watchers"

    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    owner: Mapped[str] = mapped_column(String(120), primary_key=True)
    count: Mapped[int] = mapped_column(Integer)
    alive_until: Mapped[float] = mapped_column(Float)


def create_tables(engine: Engine) -> None:
    """Make the tables that are missing (several processes at once: each ``CREATE`` is
    guarded by the store's schema lock on PostgreSQL)."""
    from sqlalchemy import text

    from rulebox.server.store import SCHEMA_LOCK

    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": SCHEMA_LOCK})
        LobbyBase.metadata.create_all(conn)
