"""What the cluster's presence and shared rate limits cost per move (issue 20), on PostgreSQL.

    python bench/bench_cluster_overhead.py \\
        --db postgresql://postgres@127.0.0.1:55432/rulebox_test [--calls 2000] [--moves 400]

Per move a process of a cluster does two things more than before: the check before a request
reads the others' presence with the version (one statement instead of one; rulebox.server
.presence), and a limited request (a move) takes a token from the shared bucket (one UPSERT on
an unlogged table; rulebox.server.limits.PostgresBuckets). The heartbeat (one UPDATE per process
every 5 s) and a socket's coming and going (one transaction each) are not per move.

1. **Statements**: each statement timed alone from one thread, ``--calls`` times, in
   alternating blocks (so that a change of the machine's load hits both alike), on a schema
   with 100 games and 200 presence rows of other processes.
2. **Moves**: two ``rulebox serve`` processes on fresh schemas, one with rate limits off
   (``--moves-per-second 0``), one with them on (shared buckets), a client playing Columns
   moves alternately on each (``--moves`` in all), each ``POST .../moves`` timed.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

from rulebox.server.limits import PostgresBuckets
from rulebox.server.presence import PresenceStore
from rulebox.server.store import Store
from rulebox.server.testing import ServerProcess, drop_schema, fresh_schema


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100 * len(xs)))]


def statements(url: str, calls: int) -> dict[str, list[float]]:
    """Seconds per call of the version read before and after (with presence), and of a
    shared bucket's step."""
    store = Store(url)
    presence = PresenceStore(store.engine)
    presence.create()
    buckets = PostgresBuckets(store.engine, None)
    buckets.create()
    state = {"table": 0, "history": [], "version": 0}
    gids = [f"g{i:05d}" for i in range(100)]
    for gid in gids:
        store.create_game(gid, "columns", [], False, state)
        for seat in (0, 1):
            presence.sync(gid, seat, f"otherhost:{seat + 1}:x", True, 3600, None)
    runs: dict[str, Callable[[int], Any]] = {
        "version read (before)": lambda i: store.version_of(gids[i % 100]),
        "version + presence read": lambda i: presence.version_and_seats(gids[i % 100], "me"),
        "shared bucket step": lambda i: buckets._take(f"moves:10.0.{i % 50}.1", 1000.0, 1e6),
    }
    out: dict[str, list[float]] = {k: [] for k in runs}
    block = 100
    for start in range(0, calls, block):
        for name, run in runs.items():
            for i in range(start, start + block):
                t = time.perf_counter()
                run(i)
                out[name].append(time.perf_counter() - t)
    store.close()
    return out


def moves(db: str, total: int, folder: Path) -> dict[str, list[float]]:
    """Seconds per move on a server without and with the shared rate limit."""
    configs = {"limits off": ["--moves-per-second", "0"],
               "limits on (shared)": ["--moves-per-second", "1000", "--moves-burst", "100000"]}
    schemas = {name: fresh_schema(db) for name in configs}
    servers: dict[str, ServerProcess] = {}
    out: dict[str, list[float]] = {name: [] for name in configs}
    try:
        for name, args in configs.items():
            Store(schemas[name]).close()
            servers[name] = ServerProcess(
                schemas[name], log=folder / f"{name.split()[1]}.log",
                args=["--think-workers", "1", "--create-per-minute", "0", *args]).start()
        clients = {name: httpx.Client(base_url=s.url, timeout=60) for name, s in servers.items()}
        games: dict[str, tuple[str, list[str]]] = {}
        done = 0
        while done < total:
            for name, c in clients.items():
                if name not in games:
                    g = c.post("/api/games", json={"game": "columns",
                                                   "seats": ["human", "human"]}).json()
                    games[name] = (g["id"], [s["token"] for s in g["seats"]])
                gid, tokens = games[name]
                st = c.get(f"/api/games/{gid}").json()
                if st["over"] or not st["ply"] < 40:
                    del games[name]
                    continue
                token = tokens[st["to_move"]]
                st = c.get(f"/api/games/{gid}", headers={"Authorization": f"Bearer {token}"}
                           ).json()
                move = st["legal"][done % len(st["legal"])]
                t = time.perf_counter()
                r = c.post(f"/api/games/{gid}/moves", json={"move": move,
                                                            "version": st["version"]},
                           headers={"Authorization": f"Bearer {token}"})
                out[name].append(time.perf_counter() - t)
                assert r.status_code == 200, r.text
                done += 1
        for c in clients.values():
            c.close()
    finally:
        for s in servers.values():
            s.stop()
        for url in schemas.values():
            drop_schema(url)
    return out


def show(title: str, data: dict[str, list[float]]) -> None:
    print(f"\n{title}")
    print(f"  {'':28} {'n':>6} {'mean ms':>9} {'p50 ms':>8} {'p99 ms':>8}")
    for name, xs in data.items():
        print(f"  {name:28} {len(xs):6d} {statistics.fmean(xs) * 1000:9.3f} "
              f"{pct(xs, 50) * 1000:8.3f} {pct(xs, 99) * 1000:8.3f}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--db", required=True, help="a PostgreSQL URL (fresh schemas are used)")
    ap.add_argument("--calls", type=int, default=2000)
    ap.add_argument("--moves", type=int, default=400)
    args = ap.parse_args()
    url = fresh_schema(args.db)
    try:
        show("statements (one thread, one connection at a time)", statements(url, args.calls))
    finally:
        drop_schema(url)
    with tempfile.TemporaryDirectory() as folder:
        show("moves through one server process each (POST .../moves)",
             moves(args.db, args.moves, Path(folder)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
