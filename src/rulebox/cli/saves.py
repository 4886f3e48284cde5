"""Progress kept: every game at the terminal is saved as it goes into a per-user data directory,
and records are read from files carefully.

- :func:`data_dir`: ``$RULEBOX_DATA``, else the platform's user data directory
  (``~/.local/share/rulebox`` on Linux, through ``platformdirs``).
- :class:`Autosave`: after every change the table's record is written to
  ``games/<started>-<game>.json`` and to ``last.json``; ``rulebox play --load last`` continues
  it, and ``rulebox play`` on a terminal offers to.
- :func:`read_record`: a record file, refused unless it is a regular file of at most
  :data:`MAX_BYTES` (``/dev/zero`` would fill the memory, a FIFO would hang the read).
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulebox.core.errors import StateError
from rulebox.i18n import _
from rulebox.match.records import Record, load_record, save_record

MAX_BYTES = 4 << 20
"""The largest record read from a file (a 500-ply game is about 10 kB)."""
LAST = "last"


def data_dir() -> Path:
    """Where the games are saved (created on first use)."""
    env = os.environ.get("RULEBOX_DATA")
    if env:
        return Path(env)
    from platformdirs import user_data_dir

    return Path(user_data_dir("rulebox", appauthor=False))


def last_path() -> Path:
    return data_dir() / "last.json"


def resolve(path: str) -> Path:
    """``last`` is the last game played at this terminal; anything else a file name."""
    if path == LAST:
        p = last_path()
        if not p.exists():
            raise StateError(_("no game saved yet (games are saved as they go to "
                               "{data_dir})").format(data_dir=data_dir()))
        return p
    return Path(path)


def read_record(path: str | Path) -> Record:
    """A record from a file, refusing what is not a regular file or is too large to be one."""
    p = Path(path)
    try:
        st = os.stat(p)
    except OSError as e:
        raise StateError(_("cannot read {path}: {error}").format(path=p, error=e.strerror)) \
            from None
    if not stat.S_ISREG(st.st_mode):
        raise StateError(_("{path} is not a regular file (a record is a JSON file)").format(path=p))
    if st.st_size > MAX_BYTES:
        raise StateError(_("{path} is too large to be a record ({size} bytes; at most "
                           "{most})").format(path=p, size=st.st_size, most=MAX_BYTES))
    return load_record(p)


@dataclass
class Autosave:
    """Writes the table's record after every change; quietly does nothing when the directory
    cannot be written (and says so once)."""

    directory: Path = field(default_factory=data_dir)
    path: Path | None = None
    failed: str | None = None

    def save(self, table: Any) -> Path | None:
        if self.failed is not None:
            return None
        record: Record = table.record()
        try:
            games = self.directory / "games"
            games.mkdir(parents=True, exist_ok=True)
            if self.path is None:
                stamp = re.sub(r"[^0-9T]", "", record.started or "")[:15] or "game"
                self.path = games / f"{stamp}-{record.game}.json"
                n = 1
                while self.path.exists():
                    n += 1
                    self.path = games / f"{stamp}-{record.game}-{n}.json"
            save_record(record, self.path)
            save_record(record, self.directory / "last.json")
        except OSError as e:
            self.failed = f"games are not saved: {self.directory}: {e.strerror}"
            return None
        return self.path


def unfinished_last() -> Record | None:
    """The last game if it was left unfinished (for the "continue?" question)."""
    p = last_path()
    if not p.is_file():
        return None
    try:
        record = read_record(p)
    except StateError:
        return None
    if record.result is not None:
        return None
    return record
