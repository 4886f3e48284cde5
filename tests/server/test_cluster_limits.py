"""Rate limits that hold across the processes of a cluster (issue 20): a client sending to two
processes gets the limit once, not twice; the buckets are in PostgreSQL, or in Redis with
``--pubsub redis://...``. Skipped only when PostgreSQL (or ``redis-server``, for its case) is
absent."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

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

pytest.importorskip("psycopg")

PG = os.environ.get("RULEBOX_TEST_POSTGRES_URL")
pytestmark = pytest.mark.skipif(not postgres_reachable(PG),
                                reason="no PostgreSQL at RULEBOX_TEST_POSTGRES_URL")

BURST_CREATE, BURST_MOVES = 3, 4
ARGS = ["--think-workers", "1",
        "--create-per-minute", "0.5", "--create-burst", str(BURST_CREATE),
        "--moves-per-second", "0.01", "--moves-burst", str(BURST_MOVES)]
"""Limits whose buckets refill far slower than the test runs (one token in 100 s or more)."""


@pytest.fixture
def schema() -> Iterator[str]:
    assert PG is not None
    url = fresh_schema(PG)
    Store(url).close()
    yield url
    drop_schema(url)


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    if shutil.which("redis-server") is None:
        pytest.skip("no redis-server")
    pytest.importorskip("redis")
    with redis_server(tmp_path) as url:
        yield url


def two_servers(schema: str, tmp_path: Path, extra: list[str]) -> list[ServerProcess]:
    servers: list[ServerProcess] = []
    try:
        for n in "ab":
            servers.append(ServerProcess(schema, log=tmp_path / f"{n}.log",
                                         args=ARGS + extra).start())
    except BaseException:
        for s in servers:
            s.stop()
        raise
    return servers


def check_limits_hold_across(servers: list[ServerProcess]) -> None:
    """Games and moves sent alternately to both processes: the bursts hold for the two
    together (without sharing, each process would allow its own burst)."""
    clients = [httpx.Client(base_url=s.url, timeout=30) for s in servers]
    try:
        answers = []
        for i in range(2 * BURST_CREATE):
            answers.append(clients[i % 2].post("/api/games", json={
                "game": "columns", "seats": ["human", "human"]}))
        codes = [r.status_code for r in answers]
        assert codes.count(200) == BURST_CREATE, codes
        assert codes[:BURST_CREATE] == [200] * BURST_CREATE  # the first ones, then refused
        refused = answers[-1]
        assert refused.json()["error"]["code"] == "rate_limited"
        assert int(refused.headers["Retry-After"]) >= 1
        game = answers[0].json()
        gid, token = game["id"], game["seats"][0]["token"]
        moves = []
        for i in range(2 * BURST_MOVES):  # refused by the rules or not: each is counted
            moves.append(clients[i % 2].post(f"/api/games/{gid}/moves", json={"move": "zz"},
                                             headers={"Authorization": f"Bearer {token}"}))
        limited = [r.status_code == 429 for r in moves]
        assert limited == [False] * BURST_MOVES + [True] * BURST_MOVES, \
            [r.status_code for r in moves]
        assert moves[-1].json()["error"]["retry_after"] > 1
        # reads are not limited, on either process
        for c in clients:
            assert c.get(f"/api/games/{gid}").status_code == 200
    finally:
        for c in clients:
            c.close()


def test_rate_limits_hold_across_two_processes_on_postgresql(schema: str,
                                                            tmp_path: Path) -> None:
    servers = two_servers(schema, tmp_path, [])
    try:
        check_limits_hold_across(servers)
        assert PG is not None
        import psycopg

        name = schema.partition("search_path%3D")[2]
        with psycopg.connect(PG) as conn:  # the buckets are in the shared database
            keys = [r[0] for r in conn.execute(f"SELECT key FROM {name}.rulebox_rate")]
        assert any(k.startswith("moves:") for k in keys)
        assert any(k.startswith("create:") for k in keys)
    finally:
        for s in servers:
            s.stop()


def test_rate_limits_hold_across_two_processes_on_redis(schema: str, tmp_path: Path,
                                                       redis_url: str) -> None:
    servers = two_servers(schema, tmp_path, ["--pubsub", redis_url])
    try:
        check_limits_hold_across(servers)
        import redis

        client = redis.Redis.from_url(redis_url)
        keys = [k.decode() if isinstance(k, bytes) else k for k in client.keys("rulebox:rate:*")]
        client.close()
        assert any(k.startswith("rulebox:rate:moves:") for k in keys), keys
    finally:
        for s in servers:
            s.stop()
