"""``rulebox serve`` with several processes (issue 20): refused on SQLite with a clear message,
``--workers N`` on PostgreSQL answering from N processes on one port (SO_REUSEPORT)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from rulebox.server.store import Store
from rulebox.server.testing import (
    ServerProcess,
    drop_schema,
    free_port,
    fresh_schema,
    postgres_reachable,
)

PG = os.environ.get("RULEBOX_TEST_POSTGRES_URL")


def serve(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rulebox.cli.serve", "--port",
                           str(free_port()), *args], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("extra", [["--workers", "2"], ["--pubsub", "redis://127.0.0.1:1"]])
def test_several_processes_on_sqlite_are_refused(tmp_path: Path, extra: list[str]) -> None:
    r = serve("--db", f"sqlite:///{tmp_path / 'db.sqlite'}", *extra)
    assert r.returncode == 2
    assert "PostgreSQL" in r.stderr and "SQLite allows one process" in r.stderr


def test_an_unknown_pubsub_is_refused(tmp_path: Path) -> None:
    r = serve("--db", f"sqlite:///{tmp_path / 'db.sqlite'}", "--pubsub", "nats://x")
    assert r.returncode == 2 and "--pubsub is redis://... or postgres" in r.stderr


def test_a_second_server_on_the_same_sqlite_file_is_warned_about(tmp_path: Path) -> None:
    """Not refused (a restart may overlap the old process; tests share a file with a server
    they stop later), but said plainly; once the first is gone, nothing is said."""
    db = f"sqlite:///{tmp_path / 'db.sqlite'}"
    with ServerProcess(db, log=tmp_path / "a.log"), \
            ServerProcess(db, log=tmp_path / "b.log") as second:
        assert httpx.get(second.url + "/healthz").status_code == 200
    warning = "another rulebox serve uses this SQLite database"
    assert warning not in (tmp_path / "a.log").read_text()
    assert warning in (tmp_path / "b.log").read_text()
    with ServerProcess(db, log=tmp_path / "c.log"):  # the lock went with the processes
        pass
    assert warning not in (tmp_path / "c.log").read_text()


@pytest.fixture
def schema() -> Iterator[str]:
    assert PG is not None
    url = fresh_schema(PG)
    yield url
    drop_schema(url)


@pytest.mark.skipif(not postgres_reachable(PG),
                    reason="no PostgreSQL at RULEBOX_TEST_POSTGRES_URL")
def test_workers_share_one_port_and_one_game(schema: str, tmp_path: Path) -> None:
    srv = ServerProcess(schema, log=tmp_path / "w.log",
                        args=["--workers", "2", "--think-workers", "1",
                              "--create-per-minute", "0", "--moves-per-second", "0"])
    srv.start(timeout=90)
    try:
        pids: set[int] = set()
        deadline = time.monotonic() + 60
        while len(pids) < 2 and time.monotonic() < deadline:
            with httpx.Client(base_url=srv.url, timeout=30) as c:  # a new connection each
                r = c.get("/healthz")
                if r.status_code == 200:
                    pids.add(r.json()["pid"])
        assert len(pids) == 2 and srv.pid not in pids  # two children answer on one port
        g = httpx.post(srv.url + "/api/games", json={"game": "columns",
                                                      "seats": ["human", "human"]}).json()
        tokens = [s["token"] for s in g["seats"]]
        for i in range(6):  # each request on a new connection: any process, one game
            h = {"Authorization": f"Bearer {tokens[i % 2]}"}
            st = httpx.get(f"{srv.url}/api/games/{g['id']}", headers=h).json()
            assert st["ply"] == i
            r = httpx.post(f"{srv.url}/api/games/{g['id']}/moves", headers=h,
                           json={"move": st["legal"][0], "version": st["version"]})
            assert r.status_code == 200, r.text
        stored = Store(schema)
        try:
            assert len(stored.move_times(g["id"])) == 6
        finally:
            stored.close()
    finally:
        srv.stop()
    for pid in pids:  # no process outlives the supervisor
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.1)
        else:
            raise AssertionError(f"server process {pid} still runs")
