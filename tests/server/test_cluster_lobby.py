"""Issue 27 on two real server processes sharing one PostgreSQL database: two people asking for
a game on two processes are paired with each other; a seat asked for on both at once is given
once; a rated game ended through one process is rated once and seen on the other."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

httpx = pytest.importorskip("httpx")

from rulebox.server.testing import (  # noqa: E402
    ServerProcess,
    drop_schema,
    fresh_schema,
    postgres_reachable,
)

PG = os.environ.get("RULEBOX_TEST_POSTGRES_URL")

pytestmark = pytest.mark.skipif(not postgres_reachable(PG),
                                reason="no PostgreSQL at RULEBOX_TEST_POSTGRES_URL")


@pytest.fixture(scope="module")
def two(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    assert PG is not None
    url = fresh_schema(PG, "rblobby")
    folder = Path(tmp_path_factory.mktemp("lobby"))
    args = ["--create-per-minute", "0", "--moves-per-second", "0", "--think-workers", "1"]
    first = ServerProcess(url, log=folder / "a.log", args=args).start(timeout=120)
    second = ServerProcess(url, log=folder / "b.log", args=args).start(timeout=120)
    try:
        yield first.url, second.url
    finally:
        first.stop()
        second.stop()
        drop_schema(url)


def account(base: str, name: str) -> str:
    r = httpx.post(f"{base}/api/players", json={"name": name, "password": "secret-pw"},
                   timeout=60)
    assert r.status_code == 201, r.text
    return str(r.json()["session"])


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_two_people_on_two_processes_are_paired_with_each_other(two: tuple[str, str]) -> None:
    a, b = two
    anna, boris = account(a, "Anna"), account(b, "Boris")
    r = httpx.post(f"{a}/api/pairing", json={"game": "columns", "clock": "5+3", "rated": True},
                   headers=auth(anna), timeout=60)
    assert r.status_code == 202, r.text
    r = httpx.post(f"{b}/api/pairing", json={"game": "columns", "clock": "5+3", "rated": True},
                   headers=auth(boris), timeout=60)
    assert r.status_code == 200, r.text
    paired_b = r.json()
    paired_a = httpx.get(f"{a}/api/pairing", headers=auth(anna), timeout=60).json()
    assert paired_a["status"] == "paired" and paired_a["id"] == paired_b["id"]
    assert (paired_a["seat"], paired_b["seat"]) == (0, 1)
    gid = paired_a["id"]
    # each plays through their own process
    state = httpx.get(f"{a}/api/games/{gid}", headers=auth(paired_a["token"]), timeout=60).json()
    assert [p["name"] for p in state["players"]] == ["Anna", "Boris"] and state["rated"]
    move = state["legal"][0]
    assert httpx.post(f"{a}/api/games/{gid}/moves", json={"move": move},
                      headers=auth(paired_a["token"]), timeout=60).status_code == 200
    r = httpx.post(f"{b}/api/games/{gid}/resign", headers=auth(paired_b["token"]), timeout=60)
    assert r.status_code == 200 and r.json()["result"]["winners"] == [0]
    profile = httpx.get(f"{a}/api/players/anna", timeout=60).json()
    assert profile["ratings"]["columns"]["games"] == 1
    assert profile["ratings"]["columns"]["value"] > 1500
    assert profile["recent"][0]["id"] == gid and profile["recent"][0]["result"] == "win"


def test_one_seat_asked_on_two_processes_at_once_is_given_once(two: tuple[str, str]) -> None:
    a, b = two
    opener, p, q = account(a, "Opener"), account(a, "Petra"), account(b, "Quentin")
    outcomes = []
    for _round in range(3):
        r = httpx.post(f"{a}/api/games", json={"game": "discs", "seats": ["human", "human"],
                                                "open": True}, headers=auth(opener), timeout=60)
        assert r.status_code == 200, r.text
        gid = r.json()["id"]
        # both processes hold the game before the race
        for base in two:
            assert httpx.get(f"{base}/api/games/{gid}", timeout=60).status_code == 200
        answers: dict[str, Any] = {}
        go = threading.Barrier(2)

        def join(base: str, session: str, who: str, gid: str = gid,
                 go: threading.Barrier = go, answers: dict[str, Any] = answers) -> None:
            go.wait()
            answers[who] = httpx.post(f"{base}/api/games/{gid}/join", json={"seat": 1},
                                      headers=auth(session), timeout=60)

        threads = [threading.Thread(target=join, args=(a, p, "p")),
                   threading.Thread(target=join, args=(b, q, "q"))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        codes = sorted(x.status_code for x in answers.values())
        assert codes == [200, 409], {k: v.text for k, v in answers.items()}
        loser = next(v for v in answers.values() if v.status_code == 409)
        assert loser.json()["error"]["code"] == "seat_taken"
        winner = next(k for k, v in answers.items() if v.status_code == 200)
        names = {base: [s["name"] for s in httpx.get(f"{base}/api/games/{gid}", timeout=60)
                        .json()["players"]] for base in two}
        expected = ["Opener", "Petra" if winner == "p" else "Quentin"]
        assert names == {a: expected, b: expected}
        outcomes.append(winner)
    assert len(outcomes) == 3
