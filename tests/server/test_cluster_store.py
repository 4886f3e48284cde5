"""The storage side of several server processes on PostgreSQL (issue 20): version-checked
writes, notifications sent only on commit, and the jobs table (one taker, leases). A schema of
their own per module; skipped only when ``RULEBOX_TEST_POSTGRES_URL``'s server does not answer.
The parts that need no database (message parsing, route labels, dead holders) run always."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

pytest.importorskip("sqlalchemy")

from rulebox.server.metrics import route_of
from rulebox.server.processes import pid_gone
from rulebox.server.pubsub import CHANNEL, parse
from rulebox.server.store import StaleWrite, Store
from rulebox.server.testing import drop_schema, fresh_schema, postgres_reachable

PG = os.environ.get("RULEBOX_TEST_POSTGRES_URL")
needs_pg = pytest.mark.skipif(not postgres_reachable(PG),
                              reason="no PostgreSQL at RULEBOX_TEST_POSTGRES_URL")


@pytest.fixture(scope="module")
def store() -> Iterator[Store]:
    assert PG is not None
    url = fresh_schema(PG)
    s = Store(url)
    yield s
    s.close()
    drop_schema(url)


def state(version: int, history: list[str] | None = None) -> dict[str, Any]:
    return {"version": version, "history": history or []}


def new_game(store: Store, gid: str) -> None:
    store.create_game(gid, "columns", [], False, state(0))


def test_messages_and_route_labels() -> None:
    assert parse("abc123:7") == ("abc123", 7)
    for bad in ("abc", ":7", "abc:", "abc:x", "a" * 40 + ":1"):
        assert parse(bad) is None
    assert route_of("/api/games/Xy12/moves") == "/api/games/{id}/moves"
    assert route_of("/api/games/Xy12") == "/api/games/{id}"
    assert route_of("/static/boards/discs.js") == "/static"
    assert route_of("/metrics") == "/metrics"
    assert route_of("/wp-admin/../etc") == "other"  # no label per odd path


def test_a_dead_holder_of_this_host_is_recognised() -> None:
    import subprocess
    import sys

    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    assert pid_gone(f"thishost:{proc.pid}:ab", "thishost")
    assert not pid_gone(f"thishost:{os.getpid()}:ab", "thishost")  # alive (this one)
    assert not pid_gone(f"otherhost:{proc.pid}:ab", "thishost")  # not ours to judge
    assert not pid_gone("garbage", "thishost")


@needs_pg
def test_a_write_on_an_old_version_is_refused_and_changes_nothing(store: Store) -> None:
    new_game(store, "g1")
    store.record_moves("g1", 0, [(0, "Ra1")], state(1, ["Ra1"]), False, 1, expected=0)
    with pytest.raises(StaleWrite):  # another process, still on version 0
        store.record_moves("g1", 0, [(0, "Rb2")], state(1, ["Rb2"]), False, 1, expected=0)
    with pytest.raises(StaleWrite):
        store.save_state("g1", 0, state(2), False, 2, None, expected=0)
    loaded = store.load("g1")
    assert loaded is not None and loaded.version == 1 and loaded.state["history"] == ["Ra1"]
    assert [m[2] for m in store.move_times("g1")] == ["Ra1"]
    # one stale item fails its whole batch; the others are written alone afterwards
    new_game(store, "g2")
    with pytest.raises(StaleWrite):
        store.record_batch([("g2", 0, [(0, "Ra1")], state(1, ["Ra1"]), False, 1, 0),
                            ("g1", 1, [(1, "Rc3")], state(2), False, 2, 0)])
    assert store.version_of("g2") == 0 and store.version_of("g1") == 1
    store.record_batch([("g2", 0, [(0, "Ra1")], state(1, ["Ra1"]), False, 1, 0)])
    assert store.version_of("g2") == 1


@needs_pg
def test_notifications_are_sent_on_commit_only(store: Store) -> None:
    import psycopg

    assert PG is not None
    store.notify_channel = CHANNEL + "_test"
    try:
        with psycopg.connect(PG, autocommit=True) as conn:
            conn.execute(f"LISTEN {store.notify_channel}")
            new_game(store, "g3")
            store.record_moves("g3", 0, [(0, "Ra1")], state(1), False, 1, expected=0)
            with pytest.raises(StaleWrite):
                store.record_moves("g3", 0, [(0, "Rb2")], state(1), False, 1, expected=0)
            store.save_state("g3", 1, state(2), False, 2, None, expected=1)
            got = [n.payload for n in conn.notifies(timeout=1.0)]
    finally:
        store.notify_channel = None
    assert got == ["g3:1", "g3:2"]  # the refused write said nothing


@needs_pg
def test_a_job_is_queued_once_per_version_and_a_newer_one_replaces_it(store: Store) -> None:
    store.enqueue_job("j1", 4)
    store.enqueue_job("j1", 4)
    job = store.take_job("p1", 30)
    assert job is not None and job[:2] == ("j1", 4)
    store.enqueue_job("j1", 4)  # asked again on the same version: the holder keeps it
    assert store.take_job("p2", 30) is None
    store.enqueue_job("j1", 6)  # the game moved on: a new job, free for anyone
    job = store.take_job("p2", 30)
    assert job is not None and job[:2] == ("j1", 6)
    store.finish_job("j1", 4)  # the old holder finishing does not remove the new job
    assert store.held_jobs("p2") == [("j1", "p2")]
    store.finish_job("j1", 6)
    assert store.take_job("p3", 30) is None and store.waiting_jobs() == 0


@needs_pg
def test_a_job_whose_lease_ran_out_is_taken_again(store: Store) -> None:
    store.enqueue_job("j2", 1)
    assert store.take_job("otherhost:123:aa", 0.5) is not None  # then that process dies
    assert store.take_job("p4", 30) is None  # leased
    time.sleep(0.7)
    job = store.take_job("p4", 30)
    assert job is not None and job[:2] == ("j2", 1)
    assert not store.renew_job("j2", "otherhost:123:aa", 30)  # the old holder lost it
    assert store.renew_job("j2", "p4", 30)
    store.release_job("j2", "p4")
    job = store.take_job("p5", 30)
    assert job is not None and job[0] == "j2"
    store.finish_job("j2", 1)


@needs_pg
def test_concurrent_takers_never_get_the_same_job(store: Store) -> None:
    for i in range(6):
        store.enqueue_job(f"k{i}", 1)
    with ThreadPoolExecutor(8) as pool:
        taken = list(pool.map(lambda i: store.take_job(f"t{i}", 30), range(8)))
    games = [t[0] for t in taken if t is not None]
    assert sorted(games) == [f"k{i}" for i in range(6)]  # each once; two takers got none
    for i in range(6):
        store.finish_job(f"k{i}", 1)
