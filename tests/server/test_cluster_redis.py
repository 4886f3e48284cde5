"""Live updates between two server processes over Redis pub/sub (``--pubsub redis://...``,
issue 20) instead of PostgreSQL's LISTEN/NOTIFY. Starts a ``redis-server`` of its own on a
free port; skipped when there is no ``redis-server`` or PostgreSQL does not answer."""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from rulebox.server.pubsub import CHANNEL
from rulebox.server.store import Store
from rulebox.server.testing import (
    ServerProcess,
    drop_schema,
    fresh_schema,
    postgres_reachable,
    redis_server,
)

ws_sync = pytest.importorskip("websockets.sync.client")
pytest.importorskip("redis")

PG = os.environ.get("RULEBOX_TEST_POSTGRES_URL")
pytestmark = [
    pytest.mark.skipif(not postgres_reachable(PG),
                       reason="no PostgreSQL at RULEBOX_TEST_POSTGRES_URL"),
    pytest.mark.skipif(shutil.which("redis-server") is None, reason="no redis-server"),
]


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    with redis_server(tmp_path) as url:
        yield url


def test_a_move_through_one_process_reaches_a_socket_on_the_other_over_redis(
        redis_url: str, tmp_path: Path) -> None:
    assert PG is not None
    schema = fresh_schema(PG)
    Store(schema).close()
    args = ["--create-per-minute", "0", "--moves-per-second", "0", "--think-workers", "1",
            "--pubsub", redis_url]
    servers: list[ServerProcess] = []
    try:
        servers = [ServerProcess(schema, log=tmp_path / f"{n}.log", args=args).start()
                   for n in "ab"]
        a, b = servers
        with httpx.Client(base_url=a.url, timeout=30) as ca:
            deadline = time.monotonic() + 30  # both subscribed
            while not all(httpx.get(s.url + "/readyz").status_code == 200 for s in servers):
                assert time.monotonic() < deadline
                time.sleep(0.2)
            g = ca.post("/api/games", json={"game": "columns", "seats": ["human", "human"]}
                        ).json()
            gid, tokens = g["id"], [s["token"] for s in g["seats"]]
            url = b.url.replace("http://", "ws://") + f"/api/games/{gid}/ws"
            import redis

            watch = redis.Redis.from_url(redis_url).pubsub(ignore_subscribe_messages=True)
            watch.subscribe(CHANNEL)
            with ws_sync.connect(url) as ws:  # a spectator on B
                first = json.loads(ws.recv(timeout=20))
                assert first["type"] == "state" and first["ply"] == 0
                st = ca.get(f"/api/games/{gid}",
                            headers={"Authorization": f"Bearer {tokens[0]}"}).json()
                r = ca.post(f"/api/games/{gid}/moves", json={"move": st["legal"][0],
                                                              "version": st["version"]},
                            headers={"Authorization": f"Bearer {tokens[0]}"})
                assert r.status_code == 200, r.text
                while True:
                    msg = json.loads(ws.recv(timeout=10))
                    if msg.get("type") == "state":
                        break
                assert msg["ply"] == 1 and msg["history"] == [st["legal"][0]]
            # the change was published on Redis (PostgreSQL's NOTIFY is not used then)
            seen: list[bytes] = []
            deadline = time.monotonic() + 10
            while f"{gid}:{msg['version']}".encode() not in seen:
                assert time.monotonic() < deadline, seen
                m = watch.get_message(timeout=1.0)
                if m is not None:
                    seen.append(m["data"])
            watch.close()
    finally:
        for s in servers:
            s.stop()
        drop_schema(schema)
