"""Presence across two real ``rulebox serve`` processes on one PostgreSQL database (issue 20):
a seat whose socket is on one process is online on the other, its leaving is told once, the same
on both, and a process killed with SIGKILL stops counting within the bound
(``rulebox.server.presence``: TTL + heartbeat).

Skipped only when ``RULEBOX_TEST_POSTGRES_URL``'s server does not answer.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from rulebox.server.store import Store
from rulebox.server.testing import (
    ServerProcess,
    drop_schema,
    fresh_schema,
    postgres_reachable,
    redis_server,
)

ws_sync = pytest.importorskip("websockets.sync.client")
pytest.importorskip("psycopg")

PG = os.environ.get("RULEBOX_TEST_POSTGRES_URL")
pytestmark = pytest.mark.skipif(not postgres_reachable(PG),
                                reason="no PostgreSQL at RULEBOX_TEST_POSTGRES_URL")

ARGS = ["--create-per-minute", "0", "--moves-per-second", "0", "--think-workers", "1"]
PRESENCE = ("joined", "left", "back")
TTL = 3.0
"""The presence rows' lifetime in these tests (RULEBOX_PRESENCE_TTL; the heartbeat is a third)."""


def auth(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def get(server: ServerProcess, gid: str, token: str | None = None) -> dict[str, Any]:
    r = httpx.get(f"{server.url}/api/games/{gid}", headers=auth(token), timeout=30)
    assert r.status_code == 200, r.text
    return dict(r.json())


def create(server: ServerProcess) -> tuple[str, list[str]]:
    r = httpx.post(f"{server.url}/api/games", json={"game": "columns",
                                                    "seats": ["human", "human"]}, timeout=30)
    assert r.status_code == 200, r.text
    return r.json()["id"], [s["token"] for s in r.json()["seats"]]


@contextlib.contextmanager
def seat_socket(server: ServerProcess, gid: str, token: str) -> Iterator[Any]:
    url = server.url.replace("http://", "ws://") + f"/api/games/{gid}/ws?auth=first"
    opened = ws_sync.connect(url, close_timeout=2)
    ws = opened.__enter__()
    try:
        ws.send(json.dumps({"type": "auth", "token": token}))
        yield ws
    finally:
        with contextlib.suppress(Exception):  # its server may be dead
            opened.__exit__(None, None, None)


def notices(payload: dict[str, Any]) -> list[tuple[str, int]]:
    return [(e["kind"], e["player"]) for e in payload["events"] if e["kind"] in PRESENCE]


def wait_msg(ws: Any, want: Callable[[dict[str, Any]], bool], timeout: float) -> dict[str, Any]:
    """The first state message ``want`` accepts within ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError("no such message in time")
        try:
            msg = json.loads(ws.recv(timeout=left))
        except TimeoutError:
            raise AssertionError("no such message in time") from None
        if msg.get("type") == "state" and want(msg):
            return msg


def wait_ready(*servers: ServerProcess) -> None:
    deadline = time.monotonic() + 60
    while not all(httpx.get(s.url + "/readyz", timeout=10).status_code == 200
                  for s in servers):
        assert time.monotonic() < deadline, "not ready"
        time.sleep(0.2)


@pytest.fixture
def schema() -> Iterator[str]:
    assert PG is not None
    url = fresh_schema(PG)
    Store(url).close()
    yield url
    drop_schema(url)


@pytest.fixture(params=["postgres", "redis"])
def bus(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[list[str]]:
    """The bus of the processes: PostgreSQL's LISTEN/NOTIFY, or Redis (skipped without
    ``redis-server``)."""
    if request.param == "postgres":
        yield []
        return
    if shutil.which("redis-server") is None:
        pytest.skip("no redis-server")
    pytest.importorskip("redis")
    with redis_server(tmp_path) as url:
        yield ["--pubsub", url]


@pytest.fixture
def pair(schema: str, bus: list[str], tmp_path: Path
         ) -> Iterator[tuple[ServerProcess, ServerProcess]]:
    """Two processes on one database, presence rows living ``TTL`` seconds."""
    env = {"RULEBOX_PRESENCE_TTL": str(TTL)}
    a = ServerProcess(schema, log=tmp_path / "a.log", args=ARGS + bus, env=env).start()
    try:
        b = ServerProcess(schema, log=tmp_path / "b.log", args=ARGS + bus, env=env).start()
    except BaseException:
        a.stop()
        raise
    wait_ready(a, b)
    yield a, b
    a.stop()
    b.stop()


def test_a_seat_on_one_process_is_online_on_the_other_and_its_leaving_told_once(
        pair: tuple[ServerProcess, ServerProcess]) -> None:
    from rulebox.server.service import PRESENCE_GRACE

    a, b = pair
    gid, tokens = create(a)
    assert get(b, gid)["presence"] == [False, False]
    with seat_socket(b, gid, tokens[1]) as wb:
        wait_msg(wb, lambda m: m["presence"] == [False, True], 20)
        with seat_socket(a, gid, tokens[0]) as wa:
            wait_msg(wa, lambda m: True, 20)
            # B's socket hears of seat 0 on A: online, and joined once
            seen = wait_msg(wb, lambda m: m["presence"] == [True, True]
                            and ("joined", 0) in notices(m), 20)
            assert notices(seen).count(("joined", 0)) == 1
            for server in (a, b):  # a request to either process says the same
                assert get(server, gid)["presence"] == [True, True]
            metrics = httpx.get(b.url + "/metrics", timeout=30).text
            assert "rulebox_presence_remote_seats 1.0" in metrics  # seat 0, on A
        gone = time.monotonic()
        left = wait_msg(wb, lambda m: ("left", 0) in notices(m), PRESENCE_GRACE + 20)
        assert time.monotonic() - gone >= PRESENCE_GRACE - 0.5  # after the grace period
        assert left["presence"] == [False, True]
        time.sleep(PRESENCE_GRACE + TTL)  # nothing more comes: told once, not twice
        last = get(b, gid, tokens[1])
        assert notices(last).count(("left", 0)) == 1
        assert last["presence"] == [False, True]
        on_a = get(a, gid, tokens[1])
        assert notices(on_a) == notices(last)  # the same notices on both processes
        assert on_a["presence"] == [False, True]
        assert [e["index"] for e in on_a["events"]] == [e["index"] for e in last["events"]]
        # back; then a reload onto the other process says nothing (no "left", no "back")
        with seat_socket(a, gid, tokens[0]):
            back = wait_msg(wb, lambda m: ("back", 0) in notices(m), 20)
            assert back["presence"] == [True, True]
        with seat_socket(b, gid, tokens[0]) as moved:  # seat 0 reloads onto B at once
            wait_msg(moved, lambda m: True, 20)
            time.sleep(PRESENCE_GRACE + 1.0)
            for server in (a, b):
                st = get(server, gid)
                assert notices(st)[-1] == ("back", 0)
                assert notices(st).count(("left", 0)) == 1
                assert st["presence"] == [True, True]


def test_a_process_killed_with_its_socket_open_stops_counting_within_the_bound(
        pair: tuple[ServerProcess, ServerProcess]) -> None:
    from rulebox.server.service import PRESENCE_GRACE

    a, b = pair
    gid, tokens = create(a)
    with seat_socket(b, gid, tokens[1]) as wb, seat_socket(a, gid, tokens[0]) as wa:
        wait_msg(wa, lambda m: True, 20)
        wait_msg(wb, lambda m: m["presence"] == [True, True], 20)
        a.stop(hard=True)  # kill -9: no code of A runs any more
        killed = time.monotonic()
        wait_msg(wb, lambda m: m["presence"] == [False, True], TTL + 20)
        took = time.monotonic() - killed
        assert took <= TTL + TTL / 3 + 2.0  # the bound: TTL + heartbeat (+ load)
        assert get(b, gid)["presence"] == [False, True]
        told = wait_msg(wb, lambda m: ("left", 0) in notices(m), PRESENCE_GRACE + 20)
        assert notices(told).count(("left", 0)) == 1
        assert time.monotonic() - killed <= TTL + TTL / 3 + PRESENCE_GRACE + 4.0


def test_a_process_of_another_host_that_stops_renewing_stops_counting(
        pair: tuple[ServerProcess, ServerProcess], schema: str) -> None:
    """The general bound (no pid to look at on another host): a row nobody renews stops
    counting after ``TTL``; B then shows the seat offline and tells ``left`` once."""
    import psycopg

    from rulebox.server.service import PRESENCE_GRACE

    _a, b = pair
    gid, tokens = create(b)
    name = schema.partition("search_path%3D")[2]
    with seat_socket(b, gid, tokens[1]) as wb:
        wait_msg(wb, lambda m: m["presence"] == [False, True], 20)
        assert PG is not None
        with psycopg.connect(PG, autocommit=True) as conn:  # seat 0 on a far process
            conn.execute(f"INSERT INTO {name}.rulebox_presence VALUES "
                         f"(%s, 0, 'far-host:1:x', now() + interval '{TTL} seconds')", (gid,))
            conn.execute(f"INSERT INTO {name}.rulebox_presence_told VALUES (%s, 0, 'in')",
                         (gid,))
        start = time.monotonic()
        wait_msg(wb, lambda m: m["presence"] == [True, True], TTL + 10)  # B's next look
        assert get(b, gid)["presence"] == [True, True]
        wait_msg(wb, lambda m: m["presence"] == [False, True], TTL + 20)
        assert time.monotonic() - start <= TTL + TTL / 3 + 3.0
        told = wait_msg(wb, lambda m: ("left", 0) in notices(m), PRESENCE_GRACE + 20)
        assert notices(told).count(("left", 0)) == 1


def test_the_notices_outlive_a_change_made_through_a_process_that_had_not_loaded_the_game(
        pair: tuple[ServerProcess, ServerProcess]) -> None:
    """A notice is kept in the stored table too (not a change of the game: same version), so
    a process that loads the game afterwards and stores a move does not drop it."""
    from rulebox.server.service import PRESENCE_GRACE

    a, b = pair
    gid, tokens = create(a)
    with seat_socket(a, gid, tokens[0]) as wa:
        wait_msg(wa, lambda m: True, 20)
        with seat_socket(a, gid, tokens[1]):
            wait_msg(wa, lambda m: ("joined", 1) in notices(m), 20)
        told = wait_msg(wa, lambda m: ("left", 1) in notices(m), PRESENCE_GRACE + 20)
        before = notices(told)
        # B has not loaded the game: it loads it now, and the move it stores keeps the notices
        st = get(b, gid, tokens[0])
        assert notices(st) == before and st["presence"] == [True, False]
        r = httpx.post(f"{b.url}/api/games/{gid}/moves", timeout=30,
                       json={"move": st["legal"][0], "version": st["version"]},
                       headers=auth(tokens[0]))
        assert r.status_code == 200, r.text
        moved = wait_msg(wa, lambda m: m["ply"] == 1, 20)  # A reloads B's write
        assert notices(moved) == before
        assert notices(get(a, gid)) == notices(get(b, gid)) == before
