"""Time injected (issue 30): the app in this process on a :class:`MockClock`, moved on by the
test. A 20 s ping interval and a 10 s answer time, the presence grace and the rate limits' buckets
are checked in milliseconds, without sleeping; the real-time end-to-end checks are in
test_server_pings.py (marked ``slow``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from rulebox.server.app import create_app
from rulebox.server.clock import MockClock, SystemClock
from rulebox.server.limits import Limits, RateLimiter
from rulebox.server.service import PRESENCE_GRACE

PING, TIMEOUT = 20.0, 10.0
"""The server's ping interval and answer time here: a real server's values, not shortened."""


@pytest.fixture
def clock() -> MockClock:
    return MockClock()


@pytest.fixture
def client(tmp_path: Path, clock: MockClock) -> Iterator[TestClient]:
    limits = Limits(ws_ping=PING, ws_timeout=TIMEOUT, create_per_minute=0, moves_per_second=0)
    app = create_app(f"sqlite:///{tmp_path / 'db.sqlite'}", limits=limits, clock=clock)
    with TestClient(app, base_url="http://127.0.0.1") as c:
        yield c


def new_game(client: TestClient) -> tuple[str, list[str]]:
    r = client.post("/api/games", json={"game": "columns", "seats": ["human", "human"]})
    assert r.status_code == 200, r.text
    return r.json()["id"], [s["token"] for s in r.json()["seats"]]


def receive_until(ws: Any, kind: str) -> dict[str, Any]:
    """The next message of type ``kind`` (states before it are passed over)."""
    while True:
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] == kind:
            return msg
        assert msg["type"] == "state", msg


def presence(client: TestClient, gid: str) -> list[bool]:
    return list(client.get(f"/api/games/{gid}").json()["presence"])


def test_a_silent_client_is_pinged_after_20_s_and_closed_10_s_later(
        client: TestClient, clock: MockClock) -> None:
    gid, tokens = new_game(client)
    with client.websocket_connect(f"ws://127.0.0.1/api/games/{gid}/ws?auth=first") as ws:
        ws.send_json({"type": "auth", "token": tokens[0]})
        assert receive_until(ws, "state")["presence"][0] is True
        clock.advance(PING - 1)
        assert presence(client, gid)[0] is True
        clock.advance(1)
        ping = receive_until(ws, "ping")
        assert ping["server_time"] == int(clock.time() * 1000)  # sent at 20 s, not before
        clock.advance(TIMEOUT - 1)
        assert presence(client, gid)[0] is True  # still within the answer time
        clock.advance(1)
        with pytest.raises(WebSocketDisconnect) as closed:
            receive_until(ws, "never")
        assert closed.value.code == 4408
    assert presence(client, gid)[0] is False
    assert "rulebox_websocket_timeouts_total" in client.get("/metrics").text


def test_a_client_that_answers_stays_through_many_intervals(
        client: TestClient, clock: MockClock) -> None:
    gid, tokens = new_game(client)
    with client.websocket_connect(f"ws://127.0.0.1/api/games/{gid}/ws?auth=first") as ws:
        ws.send_json({"type": "auth", "token": tokens[0]})
        receive_until(ws, "state")
        for _ in range(6):  # two minutes of pings, each answered at once
            clock.advance(PING)
            receive_until(ws, "ping")
            ws.send_json({"type": "pong"})
            # the client's own ping, answered with the clock's time: the server has read the
            # pong before it (one socket, in order)
            ws.send_json({"type": "ping"})
            assert receive_until(ws, "pong")["server_time"] == int(clock.time() * 1000)
            clock.advance(TIMEOUT + 1)  # an answered ping is not followed by a close
            assert presence(client, gid)[0] is True


def test_the_others_are_told_who_left_after_the_grace_period(
        client: TestClient, clock: MockClock) -> None:
    gid, tokens = new_game(client)
    with client.websocket_connect(f"ws://127.0.0.1/api/games/{gid}/ws?auth=first") as stays:
        stays.send_json({"type": "auth", "token": tokens[1]})
        receive_until(stays, "state")
        with client.websocket_connect(f"ws://127.0.0.1/api/games/{gid}/ws?auth=first") as goes:
            goes.send_json({"type": "auth", "token": tokens[0]})
            receive_until(goes, "state")
            while receive_until(stays, "state")["presence"] != [True, True]:
                pass
        # gone (its socket closed: the server notes it at once; each request goes through
        # the server's loop after the note, and so after the grace period's wait began)
        for _ in range(1000):
            if presence(client, gid) == [False, True]:
                break
        else:
            raise AssertionError("the closed socket's seat is still present")
        # told only after the grace period, which the test moves through at once
        clock.advance(PRESENCE_GRACE)
        while True:
            st = receive_until(stays, "state")
            if any(e["kind"] == "left" and e["player"] == 0 for e in st["events"]):
                break
        assert st["presence"] == [False, True]


def test_rate_limit_buckets_fill_on_the_clock() -> None:
    clock = MockClock()
    moves = RateLimiter(2.0, 3, name="moves", clock=clock)  # 2 a second, 3 at once
    assert [moves.check("a") for _ in range(3)] == [0.0, 0.0, 0.0]
    assert moves.check("a") == pytest.approx(0.5)  # the 4th: half a second to wait
    assert moves.check("b") == 0.0  # each address its own bucket
    clock.advance(0.5)
    assert moves.check("a") == 0.0
    assert moves.check("a") == pytest.approx(0.5)


def test_the_mock_clock_moves_only_when_told_and_wakes_sleepers_in_order() -> None:
    import asyncio

    clock = MockClock(wall=1000.0)
    assert (clock.monotonic(), clock.time()) == (0.0, 1000.0)
    woke: list[str] = []

    async def sleeper(name: str, seconds: float) -> None:
        await clock.sleep(seconds)
        woke.append(name)

    async def main() -> None:
        tasks = [asyncio.ensure_future(sleeper(n, s)) for n, s in (("b", 2), ("a", 1), ("c", 3))]
        await asyncio.sleep(0)
        assert clock.sleepers == 3
        clock.advance(2.5)
        await asyncio.sleep(0.01)  # (the loop runs the woken; no clock time passes)
        assert woke == ["a", "b"]
        with pytest.raises(TimeoutError):
            await clock.wait_for(asyncio.Event().wait(), 0)
        clock.advance(0.5)
        await asyncio.gather(*tasks)
        assert woke == ["a", "b", "c"] and clock.monotonic() == 3.0
        assert await clock.wait_for(asyncio.sleep(0, "done"), 10) == "done"

    asyncio.run(main())
    with pytest.raises(ValueError):
        clock.advance(-1)
    system = SystemClock()
    assert system.monotonic() <= system.monotonic()
