"""A server stopped hard (a crash) and started again on the same database loses nothing: the
game goes on, the computer answers the turn it owed. On SQLite and (when configured) PostgreSQL."""

from __future__ import annotations

import os
from pathlib import Path

import httpx

from rulebox.server.testing import ServerProcess, drop_schema, fresh_schema
from tests.server.api_helpers import auth, create, move, wait_turn


def test_restart_loses_nothing_and_the_game_goes_on(backend: str, tmp_path: Path) -> None:
    if backend == "postgres":
        # a schema of its own: the session's server on the same database is another process
        # of one cluster, which may take this game's computer turn (its job) and so make the
        # undo below meet a newer stored version (409 stale, as a cluster must answer)
        db_url = fresh_schema(os.environ["RULEBOX_TEST_POSTGRES_URL"])
    else:
        db_url = f"sqlite:///{tmp_path / 'db.sqlite'}"
    srv = ServerProcess(db_url, log=tmp_path / "a.log").start()
    try:
        with httpx.Client(base_url=srv.url, timeout=30) as c:
            g = create(c, "columns", ["human", "computer:easy"], seed="9")
            gid, token = g["id"], g["seats"][0]["token"]
            for text in ("Ra1", "Rb2", "Rc3"):
                st = wait_turn(c, gid, token, 0)
                legal = st["legal"]
                r = move(c, gid, token, text if text in legal else legal[0])
                assert r.status_code == 200
            before = r.json()["history"]
    finally:
        srv.stop(hard=True)  # a crash: nothing gets a chance to flush
    srv = ServerProcess(db_url, log=tmp_path / "b.log").start()
    try:
        with httpx.Client(base_url=srv.url, timeout=30) as c:
            st = wait_turn(c, gid, token, 0)
            assert st["history"][: len(before)] == before
            assert len(st["history"]) == len(before) + 1  # the computer answered after restart
            r = move(c, gid, token, st["legal"][0])
            assert r.status_code == 200
            r = c.post(f"/api/games/{gid}/undo", headers=auth(token))
            assert r.status_code == 200, r.text
            assert r.json()["history"] == st["history"]
    finally:
        srv.stop()
        if "search_path" in db_url:
            drop_schema(db_url)
