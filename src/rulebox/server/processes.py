"""The server processes of a cluster as the database names them (``host:pid:random``), and
whether one of this host is gone (so that what it held need not wait for its lease)."""

from __future__ import annotations

import os
import socket
import uuid

from rulebox.core.numerals import plain_digits


def owner_id() -> str:
    """This process, as the jobs and presence tables name a holder: ``host:pid:random``."""
    return f"{socket.gethostname()[:60]}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


def pid_gone(holder: str, host: str) -> bool:
    """Whether ``holder`` was a process of this host that no longer exists."""
    parts = holder.split(":")
    if len(parts) != 3 or parts[0] != host or not plain_digits(parts[1]):
        return False
    pid = int(parts[1])
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:
        return False
    return False
