"""A real server (``rulebox serve`` in a child process on a free loopback port) per backend:
SQLite always, PostgreSQL when ``RULEBOX_TEST_POSTGRES_URL`` is set.

Each pytest-xdist worker has its own servers, on a SQLite file in its own temporary folder and
on a PostgreSQL schema of its own (named after the worker), so workers never share a table."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")
pytest.importorskip("sqlalchemy")

from rulebox.server.testing import ServerProcess, drop_schema, fresh_schema


def _backends() -> list[object]:
    pg = os.environ.get("RULEBOX_TEST_POSTGRES_URL")
    try:
        import psycopg  # noqa: F401
    except ImportError:
        driver = False
    else:
        driver = True
    return [
        "sqlite",
        pytest.param("postgres", marks=pytest.mark.skipif(
            not pg or not driver,
            reason="RULEBOX_TEST_POSTGRES_URL is not set" if not pg else "psycopg is missing")),
    ]


@pytest.fixture(scope="session", params=_backends())
def backend(request: pytest.FixtureRequest) -> str:
    """``sqlite`` or ``postgres``: the tests that use it run once on each."""
    return str(request.param)


@pytest.fixture(scope="session")
def db_url(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The database URL of the session's server on that backend: a fresh SQLite file, or a
    fresh PostgreSQL schema named after the pytest-xdist worker (dropped at the end)."""
    if backend == "postgres":
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        url = fresh_schema(os.environ["RULEBOX_TEST_POSTGRES_URL"], prefix=f"rbtest_{worker}")
        yield url
        drop_schema(url)
    else:
        yield f"sqlite:///{tmp_path_factory.mktemp('db') / 'rulebox.db'}"


@pytest.fixture(scope="session")
def server(db_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A running server on that backend, shared by the session's tests (without rate limits:
    the tests create many games from one address; tests/server/test_server_limits.py checks
    the limits on servers of their own)."""
    log = Path(tmp_path_factory.mktemp("log")) / "server.log"
    srv = ServerProcess(db_url, log=log, strict_csp=True,
                        args=["--create-per-minute", "0", "--moves-per-second", "0"]).start()
    yield srv
    srv.stop()


@pytest.fixture
def client(server: ServerProcess) -> Iterator[httpx.Client]:
    """An HTTP client for the server."""
    with httpx.Client(base_url=server.url, timeout=30) as c:
        yield c
