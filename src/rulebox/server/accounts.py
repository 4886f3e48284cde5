"""Accounts, guests, sessions and the login limit, in storage (issue 27; docs/SERVER.md).

Synchronous: the server calls these from its database threads. The time is the caller's
(``now``, epoch seconds from the server's clock).
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import delete, func, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from rulebox.server.lobby_store import LoginFailureRow, PlayerRow, SessionRow
from rulebox.server.players import Passwords, name_key, new_session, token_hash

SESSION_DAYS = 30
FAILURE_WINDOW = 15 * 60.0
"""Seconds a failed login counts."""
FAILURE_LIMIT = 10
"""Failures per name, or per client address, within the window before logins wait (429)."""


@dataclass(frozen=True)
class Person:
    """Who a session belongs to."""

    key: str
    name: str
    guest: bool


class NameTaken(Exception):
    """The name (its key) belongs to someone already."""


class TooManyFailures(Exception):
    """Too many failed logins for the name or the client; ``retry_after`` seconds."""

    def __init__(self, retry_after: float) -> None:
        super().__init__(retry_after)
        self.retry_after = retry_after


class Accounts:
    """The players' table and the sessions."""

    def __init__(self, engine: Engine, passwords: Passwords) -> None:
        self.engine = engine
        self.passwords = passwords

    def _session(self, person: Person, s: Session, now: float) -> str:
        token = new_session()
        s.add(SessionRow(token_hash=token_hash(token), player=person.key,
                         expires_at=now + SESSION_DAYS * 86400))
        return token

    def register(self, name: str, password: str | None, now: float) -> tuple[Person, str]:
        """A new account (``password``) or guest (``None``) with a session; the name must be
        checked (:func:`rulebox.server.players.check_name`). :class:`NameTaken` when its key is."""
        person = Person(name_key(name), name, password is None)
        stored = self.passwords.hash(password) if password is not None else None
        try:
            with Session(self.engine) as s, s.begin():
                s.add(PlayerRow(key=person.key, name=name, guest=person.guest,
                                password=stored, created_at=now))
                s.flush()
                token = self._session(person, s, now)
        except IntegrityError:
            raise NameTaken(name) from None
        return person, token

    def login(self, name: str, password: str, client: str, now: float) -> tuple[Person, str] | None:
        """A session for the right password; ``None`` (and a failure counted) otherwise, after
        the same work for an unknown name; :class:`TooManyFailures` while over the limit."""
        key = name_key(name)[:200]
        client = client[:100]
        since = now - FAILURE_WINDOW
        with Session(self.engine) as s, s.begin():
            s.execute(delete(LoginFailureRow).where(LoginFailureRow.at < since))
            for column, value in ((LoginFailureRow.name_key, key),
                                  (LoginFailureRow.client, client)):
                count, oldest = s.execute(
                    select(func.count(), func.min(LoginFailureRow.at))
                    .where(column == value, LoginFailureRow.at >= since)).one()
                if count >= FAILURE_LIMIT:
                    raise TooManyFailures(max(1.0, oldest + FAILURE_WINDOW - now))
            row = s.get(PlayerRow, key)
            stored = row.password if row is not None else None
            if not self.passwords.verify(stored, password) or row is None:
                s.add(LoginFailureRow(name_key=key, client=client, at=now))
                return None
            person = Person(row.key, row.name, row.guest)
            return person, self._session(person, s, now)

    def person(self, token: str, now: float) -> Person | None:
        """Whose live session ``token`` is, or ``None``."""
        with Session(self.engine) as s:
            row = s.execute(select(PlayerRow.key, PlayerRow.name, PlayerRow.guest)
                            .join(SessionRow, SessionRow.player == PlayerRow.key)
                            .where(SessionRow.token_hash == token_hash(token),
                                   SessionRow.expires_at > now)).first()
        return Person(row[0], row[1], bool(row[2])) if row is not None else None

    def logout(self, token: str) -> None:
        with Session(self.engine) as s, s.begin():
            s.execute(delete(SessionRow).where(SessionRow.token_hash == token_hash(token)))

    def find(self, key: str) -> PlayerRow | None:
        with Session(self.engine) as s:
            return s.get(PlayerRow, key)
