"""A real ``rulebox serve`` in a child process on a free loopback port, for tests and benchmarks."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path
from types import TracebackType
from urllib.parse import quote


def free_port() -> int:
    """A TCP port on 127.0.0.1 that is free right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerProcess:
    """``python -m rulebox.cli.serve`` on ``db_url`` (``args``: more options of ``rulebox
    serve``, e.g. limits; ``strict_csp``: the production Content-Security-Policy, without the
    browser tests' ``'unsafe-eval'``; ``env``: more environment variables, e.g.
    ``RULEBOX_PRESENCE_TTL``); ``start`` waits until it answers."""

    def __init__(self, db_url: str, port: int | None = None, log: Path | None = None,
                 args: list[str] | None = None, strict_csp: bool = False,
                 env: dict[str, str] | None = None) -> None:
        self.db_url = db_url
        # Playwright's wait_for_function evaluates strings in the page: unless strict_csp, the
        # test server's Content-Security-Policy allows that ('unsafe-eval'); a real one never
        self.args = ([] if strict_csp else ["--csp-script-extra", "'unsafe-eval'"]) + list(
            args or [])
        self.port = port or free_port()
        self.log = log
        self.env = dict(env or {})
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int | None:
        """The server's process id while it runs."""
        return self.proc.pid if self.proc is not None else None

    def start(self, timeout: float = 120.0) -> ServerProcess:
        """Start the server and wait for ``/api/catalog`` to answer (a bound, not a wait: on
        two cores shared with other work a start took 12 s, and more than 30 s beside a
        browser and a second test worker)."""
        out = open(self.log, "ab") if self.log else subprocess.DEVNULL  # noqa: SIM115
        env = dict(os.environ, PYTHONUNBUFFERED="1", **self.env)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "rulebox.cli.serve", "--host", "127.0.0.1",
             "--port", str(self.port), "--db", self.db_url, "--log-level", "warning",
             *self.args],
            stdout=out, stderr=out, env=env,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"rulebox serve exited with status {self.proc.returncode}")
            try:
                with urllib.request.urlopen(self.url + "/api/catalog", timeout=2) as r:
                    if r.status == 200:
                        return self
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(0.1)
        self.stop()
        raise RuntimeError("rulebox serve did not answer in time")

    def stop(self, hard: bool = False) -> None:
        """Stop the server: SIGTERM (or SIGKILL when ``hard``), then wait."""
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGKILL if hard else signal.SIGTERM)
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=5)

    def __enter__(self) -> ServerProcess:
        return self.start()

    def __exit__(self, *exc: tuple[type[BaseException] | None, BaseException | None,
                                    TracebackType | None]) -> None:
        self.stop()


@contextlib.contextmanager
def redis_server(folder: Path, timeout: float = 20.0) -> Iterator[str]:
    """A ``redis-server`` of its own on a free loopback port (no persistence), while the
    ``with`` lasts; yields its URL. Raises ``FileNotFoundError`` without ``redis-server``."""
    import redis

    port = free_port()
    proc = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1",
                             "--save", "", "--appendonly", "no", "--dir", str(folder)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        client = redis.Redis(port=port)
        deadline = time.monotonic() + timeout
        while True:
            try:
                client.ping()
                break
            except redis.ConnectionError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        client.close()
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.terminate()
        proc.wait(10)


def postgres_reachable(url: str | None, timeout: float = 3.0) -> bool:
    """Whether a PostgreSQL server answers at ``url`` (and psycopg is installed)."""
    if not url:
        return False
    try:
        import psycopg

        with psycopg.connect(_plain(url), connect_timeout=max(1, int(timeout))) as conn:
            conn.execute("SELECT 1")
    except Exception:
        return False
    return True


def fresh_schema(url: str, prefix: str = "rbtest") -> str:
    """A new, empty schema in the PostgreSQL database at ``url``; answers a URL whose
    connections use it (``options=-csearch_path=...``), so that concurrent test runs never
    share a table. :func:`drop_schema` removes it."""
    import psycopg

    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(_plain(url), autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {name}")
    sep = "&" if "?" in url else "?"
    return f"{url}{sep}options={quote(f'-csearch_path={name}')}"


def drop_schema(url: str) -> None:
    """Drop the schema a :func:`fresh_schema` URL uses, with its tables."""
    import psycopg

    base, _, query = url.partition("?")
    name = ""
    for part in query.split("&"):
        key, _, value = part.partition("=")
        if key == "options":
            name = urllib.parse.unquote(value).partition("search_path=")[2]
    if not name.isidentifier():
        raise ValueError(f"no schema in {url!r}")
    with psycopg.connect(_plain(base), autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA IF EXISTS {name} CASCADE")


def _plain(url: str) -> str:
    """A libpq URL from an SQLAlchemy one (no ``+driver``)."""
    scheme, sep, rest = url.partition("://")
    scheme = scheme.split("+", 1)[0]
    return ("postgresql" if scheme == "postgres" else scheme) + sep + rest
