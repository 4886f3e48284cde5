"""Issue 19's high finding: no one can starve the server. Caps on the computer's settings,
all-computer games refused or held to a quota, the fair think queue (a person facing ``easy``
is not behind long searches), per-client rate limits with a clear 429, and abandoned games
ended after a configurable time."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from rulebox.core.errors import OptionError
from rulebox.match.agents import AgentSpec
from rulebox.server.limits import Limits, RateLimiter, ThinkQueue
from rulebox.server.testing import ServerProcess


def auth(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


@pytest.fixture
def make_server(tmp_path: Path) -> Iterator[Any]:
    """Start servers of their own with some options; all are stopped after the test."""
    started: list[ServerProcess] = []

    def start(*args: str) -> ServerProcess:
        n = len(started)
        srv = ServerProcess(f"sqlite:///{tmp_path / f'db{n}.sqlite'}",
                            log=tmp_path / f"server{n}.log", args=list(args)).start()
        started.append(srv)
        return srv

    yield start
    for srv in started:
        srv.stop()


def _error(r: httpx.Response, status: int, code: str) -> dict[str, Any]:
    assert r.status_code == status, (r.status_code, r.text[:300])
    err = r.json()["error"]
    assert err["code"] == code and err["message"], err
    return err


# --- caps ---------------------------------------------------------------------------------------

def test_agent_settings_are_capped(client: httpx.Client) -> None:
    for spec, word in (("mcts:time=30", "time"), ("mcts:time=3600", "time"),
                       ("mcts:iterations=10000000", "iterations"),
                       ("mcts:iterations=¹", "iterations"),  # a superscript: refused, not a 500
                       ("computer:hard,time=60", "time")):
        r = client.post("/api/games", json={"game": "columns", "seats": ["human", spec]})
        assert word in _error(r, 400, "bad_seat")["message"], spec
    r = client.post("/api/games", json={"game": "columns", "seats": ["human", "mcts:time=5"]})
    assert r.status_code == 200


def test_every_computer_seat_gets_a_time_within_the_cap() -> None:
    lim = Limits(max_time=5, max_iterations=1000)
    assert lim.cap(AgentSpec.parse("mcts:iterations=500"), strict=True).get("time") == "5"
    assert lim.cap(AgentSpec.parse("mcts:time=0.3"), strict=True).get("time") == "0.3"
    with pytest.raises(OptionError):
        lim.cap(AgentSpec.parse("mcts:time=6"), strict=True)
    with pytest.raises(OptionError):
        lim.cap(AgentSpec.parse("mcts:time=nan"), strict=True)
    old = lim.cap(AgentSpec.parse("mcts:time=30,iterations=9999999"), strict=False)
    assert old.get("time") == "5" and old.get("iterations") == "1000"  # a game stored before


def test_all_computer_games_are_refused_by_default(client: httpx.Client) -> None:
    for seats in (["random", "random"], ["mcts:time=1", "computer:easy"]):
        r = client.post("/api/games", json={"game": "columns", "seats": seats})
        _error(r, 400, "all_computer")


def test_all_computer_games_within_a_quota(make_server: Any) -> None:
    srv = make_server("--all-computer", "low", "--quota", "1", "--create-per-minute", "0")
    with httpx.Client(base_url=srv.url, timeout=30) as c:
        r = c.post("/api/games", json={"game": "columns", "seats": ["mcts:time=1"] * 2})
        assert r.status_code == 200, r.text
        r = c.post("/api/games", json={"game": "columns", "seats": ["mcts:time=1"] * 2})
        assert _error(r, 429, "quota")["retry_after"] > 0
        r = c.post("/api/games", json={"game": "columns", "seats": ["human", "computer:easy"]})
        assert r.status_code == 200


# --- the fair think queue -----------------------------------------------------------------------

def test_the_think_queue_keeps_a_worker_for_short_decisions() -> None:
    async def scenario() -> list[str]:
        q = ThinkQueue(2, short=1.0)
        order: list[str] = []

        def job(name: str, seconds: float) -> Any:
            async def run() -> str:
                order.append(f"start {name}")
                await asyncio.sleep(seconds)
                order.append(f"end {name}")
                return name

            return run

        long1 = asyncio.create_task(q.run(5, False, job("long1", 0.3)))
        long2 = asyncio.create_task(q.run(5, False, job("long2", 0.3)))
        await asyncio.sleep(0.01)
        easy = asyncio.create_task(q.run(0.3, False, job("easy", 0.01)))
        await asyncio.gather(long1, long2, easy)
        return order

    order = asyncio.run(scenario())
    # easy starts at once on the kept worker; the second long search waits for the first
    assert order.index("start easy") < order.index("end long1")
    assert order.index("start long2") > order.index("end long1")


def test_the_think_queue_is_shortest_first_and_people_first() -> None:
    async def scenario() -> list[str]:
        q = ThinkQueue(1, short=1.0)
        order: list[str] = []

        def job(name: str) -> Any:
            async def run() -> str:
                order.append(name)
                await asyncio.sleep(0.01)
                return name

            return run

        first = asyncio.create_task(q.run(0.5, False, job("first")))
        await asyncio.sleep(0)
        waiting = [asyncio.create_task(q.run(s, low, job(n))) for n, s, low in (
            ("bots", 0.1, True), ("long", 5, False), ("easy", 0.3, False), ("mid", 1, False))]
        await asyncio.gather(first, *waiting)
        return order

    assert asyncio.run(scenario()) == ["first", "easy", "mid", "long", "bots"]


def test_easy_is_not_behind_long_searches(make_server: Any) -> None:
    """The attack of issue 19: two long searches asked, then a move against computer:easy."""
    srv = make_server("--max-time", "10")
    with httpx.Client(base_url=srv.url, timeout=60) as c:
        assert _easy_reply(c) < 60  # the server is up and its think workers have started
        for _ in range(2):  # two games whose computer searches 10 s a turn
            g = c.post("/api/games", json={"game": "columns", "seats": ["human", "mcts:time=10"]}
                       ).json()
            head = auth(g["seats"][0]["token"])
            st = c.get(f"/api/games/{g['id']}", headers=head).json()
            assert c.post(f"/api/games/{g['id']}/moves", headers=head,
                          json={"move": st["legal"][0]}).status_code == 200
        time.sleep(0.5)
        assert _easy_reply(c) < 4, "easy waited behind the long searches"


def _easy_reply(c: httpx.Client) -> float:
    """Seconds from a person's move until computer:easy's reply is there."""
    g = c.post("/api/games", json={"game": "columns", "seats": ["human", "computer:easy"]}
               ).json()
    head = auth(g["seats"][0]["token"])
    st = c.get(f"/api/games/{g['id']}", headers=head).json()
    assert c.post(f"/api/games/{g['id']}/moves", headers=head,
                  json={"move": st["legal"][0]}).status_code == 200
    t0 = time.monotonic()
    while c.get(f"/api/games/{g['id']}", headers=head).json()["to_move"] != 0:
        if time.monotonic() - t0 > 60:
            break
        time.sleep(0.05)
    return time.monotonic() - t0


# --- rate limits --------------------------------------------------------------------------------

def test_rate_limits_per_client(make_server: Any) -> None:
    srv = make_server("--create-per-minute", "6", "--create-burst", "3",
                      "--moves-per-second", "1", "--moves-burst", "4")
    with httpx.Client(base_url=srv.url, timeout=30) as c:
        games = [c.post("/api/games", json={"game": "columns", "seats": ["human", "human"]})
                 for _ in range(3)]
        assert all(r.status_code == 200 for r in games)
        r = c.post("/api/games", json={"game": "columns", "seats": ["human", "human"]})
        err = _error(r, 429, "rate_limited")
        assert 0 < err["retry_after"] <= 10 and int(r.headers["retry-after"]) >= 1
        g = games[0].json()
        head = auth(g["seats"][0]["token"])
        codes = [c.post(f"/api/games/{g['id']}/moves", headers=head,
                        json={"move": "zz"}).status_code for _ in range(5)]
        assert codes[:4] == [400] * 4 and codes[4] == 429
        assert c.get(f"/api/games/{g['id']}", headers=head).status_code == 200  # reads go on


def test_a_rate_limiter_refills() -> None:
    lim = RateLimiter(rate=1000.0, burst=2)
    assert lim.check("a") == 0 and lim.check("a") == 0 and lim.check("a") > 0
    assert lim.check("b") == 0  # per client
    time.sleep(0.01)
    assert lim.check("a") == 0
    assert RateLimiter(rate=0, burst=0).check("a") == 0  # 0: no limit


# --- abandoned games ----------------------------------------------------------------------------

def test_abandoned_games_expire(make_server: Any) -> None:
    srv = make_server("--expire-hours", "0.0005")  # 1.8 s
    with httpx.Client(base_url=srv.url, timeout=30) as c:
        g = c.post("/api/games", json={"game": "columns", "seats": ["human", "human"]}).json()
        head = auth(g["seats"][0]["token"])
        deadline = time.monotonic() + 15
        st = c.get(f"/api/games/{g['id']}", headers=head).json()
        assert not st["over"]
        while not st["over"] and time.monotonic() < deadline:
            time.sleep(0.3)
            st = c.get(f"/api/games/{g['id']}", headers=head).json()
        assert st["over"] and st["result"]["how"] == "expired"
        r = c.post(f"/api/games/{g['id']}/moves", headers=head, json={"move": st["legal"][:1]
                                                                      or "Sb2"})
        assert r.status_code in (400, 409)
