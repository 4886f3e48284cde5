"""Two real ``rulebox serve`` processes on loopback sharing one PostgreSQL database (issue 20):
a game played alternately through both, live updates across them, a move sent to both at
once applied once, ``kill -9`` of one mid-game (and mid-think) losing nothing.

Each module run uses a schema of its own (``rulebox.server.testing.fresh_schema``), so parallel
runs never share a table. Skipped only when ``RULEBOX_TEST_POSTGRES_URL``'s server does not
answer.
"""

from __future__ import annotations

import json
import os
import re
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

from rulebox.server.store import Store
from rulebox.server.testing import ServerProcess, drop_schema, fresh_schema, postgres_reachable

ws_sync = pytest.importorskip("websockets.sync.client")
psycopg = pytest.importorskip("psycopg")

PG = os.environ.get("RULEBOX_TEST_POSTGRES_URL")
pytestmark = pytest.mark.skipif(not postgres_reachable(PG),
                                reason="no PostgreSQL at RULEBOX_TEST_POSTGRES_URL")

ARGS = ["--create-per-minute", "0", "--moves-per-second", "0", "--think-workers", "1",
        "--job-lease", "2"]


def auth(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def get(client: httpx.Client, gid: str, token: str | None = None) -> dict[str, Any]:
    r = client.get(f"/api/games/{gid}", headers=auth(token))
    assert r.status_code == 200, r.text
    return r.json()


def create(client: httpx.Client, seats: list[str], game: str = "columns") -> dict[str, Any]:
    r = client.post("/api/games", json={"game": game, "seats": seats})
    assert r.status_code == 200, r.text
    return r.json()


def move(client: httpx.Client, gid: str, token: str, text: str, version: int | None
         ) -> httpx.Response:
    body: dict[str, Any] = {"move": text}
    if version is not None:
        body["version"] = version
    return client.post(f"/api/games/{gid}/moves", json=body, headers=auth(token))


def schema_of(url: str) -> str:
    return re.search(r"search_path%3D(\w+)", url).group(1)  # type: ignore[union-attr]


def jobs(url: str) -> list[tuple[str, int, str | None]]:
    """The jobs table: (game id, version, holder)."""
    base = url.partition("?")[0]
    with psycopg.connect(base) as conn:
        rows = conn.execute(f"SELECT game_id, version, taken_by FROM {schema_of(url)}.rulebox_jobs"
                            ).fetchall()
    return [(r[0], r[1], r[2]) for r in rows]


def stored(url: str, gid: str) -> tuple[int, list[str]]:
    """(version, moves) of a game as PostgreSQL has it."""
    base = url.partition("?")[0]
    with psycopg.connect(base) as conn:
        version = conn.execute(f"SELECT version FROM {schema_of(url)}.rulebox_games "
                               "WHERE id = %s", (gid,)).fetchone()[0]
        moves = [r[0] for r in conn.execute(
            f"SELECT move FROM {schema_of(url)}.rulebox_moves WHERE game_id = %s ORDER BY ply",
            (gid,)).fetchall()]
    return version, moves


@pytest.fixture(scope="module")
def schema() -> Iterator[str]:
    """A fresh schema with the server's tables (made once, before the processes start)."""
    assert PG is not None
    url = fresh_schema(PG)
    Store(url).close()
    yield url
    drop_schema(url)


@pytest.fixture(scope="module")
def pair(schema: str, tmp_path_factory: pytest.TempPathFactory
         ) -> Iterator[tuple[ServerProcess, ServerProcess]]:
    """Two server processes on the same database."""
    logs = tmp_path_factory.mktemp("cluster")
    a = ServerProcess(schema, log=logs / "a.log", args=ARGS).start()
    try:
        b = ServerProcess(schema, log=logs / "b.log", args=ARGS).start()
    except BaseException:
        a.stop()
        raise
    yield a, b
    a.stop()
    b.stop()


@pytest.fixture
def clients(pair: tuple[ServerProcess, ServerProcess]) -> Iterator[list[httpx.Client]]:
    with httpx.Client(base_url=pair[0].url, timeout=30) as ca, \
            httpx.Client(base_url=pair[1].url, timeout=30) as cb:
        yield [ca, cb]


def wait_until(check: Any, timeout: float = 30.0, every: float = 0.05) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(every)
    raise AssertionError("timed out")


def wait_turn(client: httpx.Client, gid: str, token: str, timeout: float = 60) -> dict[str, Any]:
    """Poll until seat 0 (the person) is to move or the game is over."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        st = get(client, gid, token)
        if st["over"] or st["to_move"] == 0:
            return st
        time.sleep(0.1)
    raise AssertionError("the computer did not move")


def wait_ready(client: httpx.Client, timeout: float = 30) -> httpx.Response:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        r = client.get("/readyz")
        if r.status_code == 200:
            return r
        time.sleep(0.2)
    raise AssertionError(f"not ready: {r.text}")


def test_a_game_played_alternately_through_both_processes(clients: list[httpx.Client],
                                                          schema: str) -> None:
    g = create(clients[0], ["human", "human"])
    gid, tokens = g["id"], [s["token"] for s in g["seats"]]
    played: list[str] = []
    for i in range(16):
        c = clients[i % 2]  # every move through the other process than the last one
        st = get(c, gid, tokens[i % 2])
        assert st["history"] == played  # each process sees the other's moves at once
        if st["over"]:
            break
        assert st["to_move"] == i % 2
        text = st["legal"][(i * 7) % len(st["legal"])]
        r = move(c, gid, tokens[i % 2], text, st["version"])
        assert r.status_code == 200, r.text
        played.append(text)
    for c in clients:
        assert get(c, gid)["history"] == played
    version, moves = stored(schema, gid)
    assert moves == played
    assert version == get(clients[0], gid)["version"] == get(clients[1], gid)["version"]


def test_a_socket_on_one_process_sees_moves_made_through_the_other(
        pair: tuple[ServerProcess, ServerProcess], clients: list[httpx.Client]) -> None:
    g = create(clients[0], ["human", "human"])
    gid, tokens = g["id"], [s["token"] for s in g["seats"]]
    url = pair[1].url.replace("http://", "ws://") + f"/api/games/{gid}/ws?auth=first"
    with ws_sync.connect(url) as ws:  # on B, as the second seat
        ws.send(json.dumps({"type": "auth", "token": tokens[1]}))
        first = json.loads(ws.recv(timeout=20))
        assert first["type"] == "state" and first["you"] == 1 and first["ply"] == 0
        st = get(clients[0], gid, tokens[0])
        r = move(clients[0], gid, tokens[0], st["legal"][0], st["version"])  # through A
        assert r.status_code == 200, r.text
        started = time.monotonic()
        while True:
            msg = json.loads(ws.recv(timeout=10))
            if msg.get("type") == "state" and msg["ply"] == 1:
                break
        assert time.monotonic() - started < 10
        assert msg["history"] == [st["legal"][0]]
        assert msg["to_move"] == 1 and msg["legal"]  # B's payload for B's seat
        assert msg["version"] == r.json()["version"]


def at_once(barrier: threading.Barrier, client: httpx.Client, gid: str, token: str, text: str,
            version: int) -> httpx.Response:
    barrier.wait()
    return move(client, gid, token, text, version)


def test_the_same_move_sent_to_both_at_once_is_applied_once(clients: list[httpx.Client],
                                                            schema: str) -> None:
    g = create(clients[0], ["human", "human"])
    gid, tokens = g["id"], [s["token"] for s in g["seats"]]
    for ply in range(6):
        seat = ply % 2
        states = [get(c, gid, tokens[seat]) for c in clients]  # both are current
        st = states[0]
        assert states[1]["version"] == st["version"]
        text = st["legal"][0]
        barrier = threading.Barrier(2)
        with ThreadPoolExecutor(2) as pool:
            futures = [pool.submit(at_once, barrier, c, gid, tokens[seat], text,
                                   st["version"]) for c in clients]
            answers = [f.result() for f in futures]
        codes = sorted(a.status_code for a in answers)
        assert codes == [200, 409], [a.text for a in answers]
        refused = next(a for a in answers if a.status_code == 409).json()
        assert refused["error"]["code"] in ("stale", "not_your_turn")
        _version, moves = stored(schema, gid)
        assert len(moves) == ply + 1  # applied once
        for c in clients:
            assert get(c, gid)["ply"] == ply + 1


def test_health_readiness_and_metrics(pair: tuple[ServerProcess, ServerProcess],
                                      clients: list[httpx.Client]) -> None:
    for srv, c in zip(pair, clients, strict=True):
        h = c.get("/healthz")
        assert h.status_code == 200 and h.json()["pid"] == srv.pid
        r = wait_ready(c)
        assert r.json()["checks"] == {"warm": True, "database": True, "bus": True}
    text = clients[0].get("/metrics").text
    before = _sample(text, "rulebox_moves_total")
    g = create(clients[0], ["human", "human"])
    st = get(clients[0], g["id"], g["seats"][0]["token"])
    r = move(clients[0], g["id"], g["seats"][0]["token"], st["legal"][0], st["version"])
    assert r.status_code == 200
    text = clients[0].get("/metrics").text
    assert _sample(text, "rulebox_moves_total") == before + 1
    for name in ("rulebox_think_queue_length", "rulebox_jobs_waiting",
                 "rulebox_websocket_clients", "rulebox_think_wait_seconds_count",
                 "rulebox_job_wait_seconds_count"):
        assert _sample(text, name) >= 0
    assert re.search(r'rulebox_request_seconds_count\{method="POST",'
                     r'route="/api/games/\{id\}/moves",status="200"\} [1-9]', text)


def _sample(text: str, name: str) -> float:
    m = re.search(rf"^{re.escape(name)}(?:\{{[^}}]*\}})? (\S+)$", text, re.MULTILINE)
    assert m is not None, name
    return float(m.group(1))


@pytest.fixture
def own_schema() -> Iterator[str]:
    """A fresh schema for one test (no other process takes its jobs)."""
    assert PG is not None
    url = fresh_schema(PG)
    Store(url).close()
    yield url
    drop_schema(url)


def test_kill_9_of_one_process_mid_think_loses_nothing(own_schema: str, tmp_path: Path
                                                       ) -> None:
    """The process thinking about the computer's turn is killed with SIGKILL: every move made
    through it is there, the other takes the turn over (when the lease expires; here at once:
    the holder is a dead process of this host), and the game goes on; the computer's move is
    made once."""
    schema = own_schema
    servers = [ServerProcess(schema, log=tmp_path / f"{n}.log", args=ARGS).start()
               for n in "cd"]
    cs: list[httpx.Client] = []
    try:
        cs = [httpx.Client(base_url=s.url, timeout=30) for s in servers]
        g = create(cs[0], ["human", "human"])  # people first: moves through both
        gid, tokens = g["id"], [s["token"] for s in g["seats"]]
        for i in range(4):
            st = get(cs[i % 2], gid, tokens[i % 2])
            assert move(cs[i % 2], gid, tokens[i % 2], st["legal"][0],
                        st["version"]).status_code == 200
        g = create(cs[0], ["human", "mcts:time=3"])  # and a computer that thinks 3 s
        gid, token = g["id"], g["seats"][0]["token"]
        played: list[str] = []
        for i in range(2):  # a move through each; the computer answers the first
            st = wait_turn(cs[i], gid, token)
            r = move(cs[i], gid, token, st["legal"][0], st["version"])
            assert r.status_code == 200, r.text
            played = r.json()["history"]
        holder = wait_until(lambda: next((h for j, _v, h in jobs(schema)
                                          if j == gid and h), None), timeout=20)
        pid = int(holder.split(":")[1])
        victim = next(i for i, s in enumerate(servers) if s.pid == pid)
        time.sleep(1.0)  # well into the 3 s think
        _version, moves = stored(schema, gid)
        assert moves == played  # the computer has not moved yet
        servers[victim].stop(hard=True)
        other = cs[1 - victim]
        st = get(other, gid, token)
        assert st["history"] == played  # nothing lost
        st = wait_turn(other, gid, token)
        assert st["history"][:len(played)] == played
        assert len(st["history"]) == len(played) + 1  # the computer moved, once
        r = move(other, gid, token, st["legal"][0], st["version"])  # and the game goes on
        assert r.status_code == 200, r.text
        st = wait_turn(other, gid, token)
        _version, moves = stored(schema, gid)
        assert moves == st["history"] and len(moves) == len(played) + 3
        assert not [j for j in jobs(schema) if j[0] == gid and j[2] is not None
                    and j[2].split(":")[1] == str(pid)]
    finally:
        for c in cs:
            c.close()
        for s in servers:
            s.stop()
