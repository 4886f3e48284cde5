"""Two services on one database (issue 20), in one test process: abandoned games expire past a
copy that is behind; a rematch asked of two processes at once (or after a restart) is one game.
"""

from __future__ import annotations

import asyncio
import os
import time

import pytest

pytest.importorskip("sqlalchemy")

from rulebox.server.limits import Limits
from rulebox.server.service import GameService
from rulebox.server.store import Store
from rulebox.server.testing import drop_schema, fresh_schema, postgres_reachable

PG = os.environ.get("RULEBOX_TEST_POSTGRES_URL")


def service(url: str, expire_after: float) -> GameService:
    # no computer seats here: no think workers
    return GameService(Store(url), think_workers=1, limits=Limits(expire_after=expire_after),
                       think_in_processes=False)


@pytest.mark.skipif(not postgres_reachable(PG), reason="no PostgreSQL at RULEBOX_TEST_POSTGRES_URL")
def test_a_stale_copy_does_not_stop_the_round_of_expiry() -> None:
    assert PG is not None
    url = fresh_schema(PG)

    async def scenario() -> tuple[int, bool, bool]:
        a, b = service(url, 3600.0), service(url, 0.5)
        try:
            g1 = await a.create("columns", {"seed": "1"}, ["human", "human"])
            await b.live(g1["id"])  # b holds g1 at version 0
            await a.play(g1["id"], g1["seats"][0]["token"], "Ra1")  # a moves it on
            g2 = await a.create("columns", {"seed": "2"}, ["human", "human"])
            await b.live(g2["id"])
            await asyncio.sleep(1.0)
            done = await b.expire_abandoned()  # g1 first (oldest): b's copy is behind
            fresh = service(url, 3600.0)
            try:
                over1 = (await fresh.live(g1["id"])).over()
                over2 = (await fresh.live(g2["id"])).over()
            finally:
                await fresh.close()
            return done, over1, over2
        finally:
            await a.close()
            await b.close()

    try:
        done, over1, over2 = asyncio.run(scenario())
    finally:
        drop_schema(url)
    assert over2 and done == 1  # the round went on past the game b held on an old version
    assert not over1  # refused on its old version (the next round expires it, reloaded)


def rematch_race(url: str) -> tuple[str, str, str, int]:
    async def scenario() -> tuple[str, str, str, int]:
        a, b = service(url, 3600.0), service(url, 3600.0)
        try:
            g = await a.create("columns", {"seed": "3"}, ["human", "human"])
            tok = g["seats"][0]["token"]
            await a.resign(g["id"], tok)
            await b.live(g["id"])
            one, two = await asyncio.gather(a.rematch(g["id"], tok),
                                            b.rematch(g["id"], g["seats"][1]["token"]))
            later = service(url, 3600.0)  # a restarted process
            try:
                three = await later.rematch(g["id"], tok)
                shown = later.payload(await later.live(g["id"]), 0)["rematch"]
            finally:
                await later.close()
            assert shown == three["id"]
            games = len(await a.recent(50))
            return one["id"], two["id"], three["id"], games
        finally:
            await a.close()
            await b.close()

    return asyncio.run(scenario())


@pytest.mark.skipif(not postgres_reachable(PG), reason="no PostgreSQL at RULEBOX_TEST_POSTGRES_URL")
def test_a_rematch_asked_of_two_processes_at_once_is_one_game() -> None:
    assert PG is not None
    url = fresh_schema(PG)
    try:
        one, two, three, games = rematch_race(url)
    finally:
        drop_schema(url)
    assert one == two == three
    assert games == 2  # the game and its one rematch


def test_the_rematch_link_outlives_a_restart(tmp_path: object) -> None:
    one, two, three, games = rematch_race(f"sqlite:///{tmp_path}/r.db")
    assert one == two == three and games == 2


def test_a_flag_that_fell_while_no_process_watched_ends_the_game(tmp_path: object,
                                                                  monkeypatch: pytest.MonkeyPatch
                                                                  ) -> None:
    """A restart loses the timers: the stored deadline (``flag_at``) is found by the next
    process without any request for that game."""
    import rulebox.server.timers as timers_module

    url = f"sqlite:///{tmp_path}/f.db"
    monkeypatch.setattr(timers_module, "FLAG_SWEEP", 0.2)

    async def scenario() -> tuple[bool, bool, bool, str | None]:
        a = service(url, 3600.0)
        g = await a.create("columns", {"seed": "5"}, ["human", "human"], clock="0.02+0")
        await a.play(g["id"], g["seats"][0]["token"], "Ra1")  # light's 1.2 s now run
        await a.close()  # the process goes: its timer with it
        await asyncio.sleep(1.6)
        b = service(url, 3600.0)
        try:
            before = b.store.load(g["id"])
            assert before is not None
            was_over = bool(before.state.get("ending"))
            b.start_sweepers()  # what a starting server does; nobody asks for the game
            deadline = time.monotonic() + 10
            stored_over = False
            while time.monotonic() < deadline and not stored_over:
                stored = b.store.load(g["id"])
                stored_over = stored is not None and bool(stored.state.get("ending"))
                await asyncio.sleep(0.1)
            live = await b.live(g["id"])
            ending = live.table.ending
            return was_over, stored_over, live.over(), ending.how if ending is not None else None
        finally:
            await b.close()

    was_over, stored_over, over, how = asyncio.run(scenario())
    assert not was_over and stored_over  # ended in storage with no request for the game
    assert over and how == "time"
