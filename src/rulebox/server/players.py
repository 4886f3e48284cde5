"""Players' names and passwords (issue 27): the name rules, argon2id hashing, session tokens.

Names are compared by their key, the Unicode NFKC case fold (``Anna``, ``ANNA`` and the
full-width ``Ａｎｎａ`` are one name). A name is 3 to 20 characters, each a letter, an ASCII
digit, ``_`` or ``-``, all its letters of one script (the script read from each character's
Unicode name: ``аnna`` with a Cyrillic ``а`` is refused), and not reserved (the computer's and
the agents' names, the levels, ``admin``). Passwords are stored only as argon2id hashes
(``argon2-cffi``); an unknown name is checked against a dummy hash, so that a wrong login takes
about as long whether the name exists or not. Sessions are random tokens stored as SHA-256
hashes. Nothing here logs a password.
"""

from __future__ import annotations

import functools
import hashlib
import secrets
import unicodedata
from dataclasses import dataclass

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

NAME_MIN, NAME_MAX = 3, 20
PASSWORD_MIN, PASSWORD_MAX = 8, 200
SESSION_PREFIX = "rbs_"
"""Session tokens begin so, which tells them from seat tokens in ``Authorization``."""

RESERVED_PREFIXES = ("computer",)
"""No name begins with these (``computer``, ``computer-easy``, ...)."""

SCRIPT_GROUPS = {"HIRAGANA": "JAPANESE", "KATAKANA": "JAPANESE", "CJK": "JAPANESE"}
"""Scripts written together in one language count as one (Japanese mixes three)."""


class NameError_(ValueError):
    """A name the rules refuse; ``reason`` is ``length``, ``characters``, ``mixed_script`` or
    ``reserved``."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


def name_key(name: str) -> str:
    """The name as compared: NFKC, case-folded, NFKC again (folding may denormalise)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


@functools.cache
def reserved_names() -> frozenset[str]:
    """The keys no player may take: the agents' names, the levels, the seat words, ``admin``."""
    from rulebox.ai.base import agent_entries
    from rulebox.match.agents import COMPUTER, LOBBY_TIMES, PERSON_NAMES

    names = {COMPUTER, "admin", "administrator", "guest", "open", "system", "rulebox",
             "moderator", "anonymous", "spectator", *PERSON_NAMES, *LOBBY_TIMES}
    names.update(e.name for e in agent_entries())
    return frozenset(name_key(n) for n in names)


def _script(ch: str) -> str | None:
    """The script of a letter, from its Unicode name (``LATIN SMALL LETTER A`` -> LATIN)."""
    try:
        word = unicodedata.name(ch).split()[0]
    except ValueError:
        return "UNKNOWN"
    return SCRIPT_GROUPS.get(word, word)


def check_name(name: object) -> str:
    """The name as it will be shown (NFKC of the text given), or :class:`NameError_`."""
    if not isinstance(name, str):
        raise NameError_("characters", "a name is text")
    shown = unicodedata.normalize("NFKC", name.strip())
    if not NAME_MIN <= len(shown) <= NAME_MAX:
        raise NameError_("length", f"a name has {NAME_MIN} to {NAME_MAX} characters")
    scripts: set[str | None] = set()
    for ch in shown:
        if ch in "_-" or ch in "0123456789":
            continue
        if not unicodedata.category(ch).startswith("L"):
            raise NameError_("characters", "a name has only letters, digits, _ and -")
        scripts.add(_script(ch))
    if not scripts:
        raise NameError_("characters", "a name needs at least one letter")
    if len(scripts) > 1:
        raise NameError_("mixed_script", "a name's letters are all of one script (no Latin "
                                         "and Cyrillic letters mixed, for instance)")
    key = name_key(shown)
    if key in reserved_names() or key.startswith(RESERVED_PREFIXES):
        raise NameError_("reserved", "that name is reserved")
    return shown


def check_password(password: object) -> str:
    """The password if long enough, else ``ValueError`` (never echoing it)."""
    if not isinstance(password, str) or not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise ValueError(f"a password has {PASSWORD_MIN} to {PASSWORD_MAX} characters")
    return password


@dataclass
class Passwords:
    """argon2id hashing (the library's defaults unless a test asks for cheaper ones)."""

    hasher: PasswordHasher
    _dummy: str | None = None

    @property
    def dummy(self) -> str:
        """A hash of a random password, made once (checked when a name is unknown)."""
        if self._dummy is None:
            self._dummy = self.hasher.hash(secrets.token_urlsafe(16))
        return self._dummy

    @classmethod
    def default(cls) -> Passwords:
        return cls(PasswordHasher())

    @classmethod
    def fast(cls) -> Passwords:
        """Cheap parameters for tests (still argon2id)."""
        return cls(PasswordHasher(time_cost=1, memory_cost=8 * 1024, parallelism=1))

    def hash(self, password: str) -> str:
        return self.hasher.hash(password)

    def verify(self, stored: str | None, password: str) -> bool:
        """Whether ``password`` matches ``stored``; with no stored hash the dummy is checked
        (and ``False`` answered), so both cases cost one verification."""
        try:
            ok = self.hasher.verify(stored or self.dummy, password)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False
        return ok and stored is not None


def new_session() -> str:
    """A fresh session token."""
    return SESSION_PREFIX + secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    """What is stored of a session token."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()
