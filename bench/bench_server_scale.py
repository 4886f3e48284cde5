"""The server on 1, 2 and 4 processes over PostgreSQL (issue 20): moves/s and p50/p99 latency for
N concurrent games between people, each seat on a keep-alive connection of its own, playing
random legal moves through the JSON API as fast as the server answers.

    python bench/bench_server_scale.py --db postgresql://postgres@127.0.0.1:55432/rulebox_test \\
        [--games 100] [--seconds 20] [--processes 1,2,4] [--game columns]

For each process count it makes a fresh schema, starts ``rulebox serve --workers N`` (N
processes on one port with SO_REUSEPORT; the kernel spreads the connections, so the two seats
of a game usually talk to different processes and every move crosses processes: the version
read before a request, the version-checked write and the notification), waits until every
process answers ``/readyz``, loads it, and drops the schema. Reads (``GET`` before each move,
for the legal moves) are timed apart. The load generator is one Python process on the same
machine: its own CPU time is printed, since on a small machine it competes with the servers and
PostgreSQL for the same cores.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_server_load import Conn, pct
from rulebox.core.registry import game_entry
from rulebox.server.testing import ServerProcess, drop_schema, fresh_schema

IDLE = 4.0
"""Seconds after which a connection is opened anew before its next request: Uvicorn closes a
keep-alive connection idle for 5 s, and a seat's connection idles while the other seat plays
(longer than that when the machine is overloaded)."""


class FreshConn(Conn):
    """A :class:`Conn` that reconnects when it was idle for :data:`IDLE` seconds."""

    used = 0.0

    async def request(self, method: str, path: str, body: object = None,
                      token: str | None = None) -> tuple[int, dict]:
        if self.writer is not None and time.monotonic() - self.used > IDLE:
            self.close()
            self.writer = None
        try:
            return await super().request(method, path, body, token)
        finally:
            self.used = time.monotonic()


@dataclass
class Tally:
    """What one run measured."""

    move_lat: list[float] = field(default_factory=list)
    get_lat: list[float] = field(default_factory=list)
    finished: int = 0
    refused: int = 0
    errors: int = 0
    """Requests that failed on the connection (reset, closed) all the same: counted, then
    reconnected."""


async def one_game(host: str, port: int, game: str, seed: int, deadline: float,
                   tally: Tally) -> None:
    """Games one after another until the deadline; each seat on its own connection."""
    n = game_entry(game).cls.player_counts[0]
    conns = [FreshConn(host, port) for _ in range(n)]
    rng = random.Random(seed)
    try:
        while time.monotonic() < deadline:
            status, g = await conns[0].request("POST", "/api/games", {
                "game": game, "seats": ["human"] * n, "options": {"seed": str(seed)}})
            if status != 200:
                raise RuntimeError(f"cannot create a game: {g}")
            tokens = [s["token"] for s in g["seats"]]
            to_move = 0
            while time.monotonic() < deadline:
                conn = conns[to_move]
                t0 = time.perf_counter()
                try:
                    _, st = await conn.request("GET", f"/api/games/{g['id']}",
                                               token=tokens[to_move])
                except (ConnectionError, asyncio.IncompleteReadError, IndexError):
                    tally.errors += 1
                    conn.close()
                    conn.writer = None
                    continue
                tally.get_lat.append(time.perf_counter() - t0)
                if st["over"]:
                    tally.finished += 1
                    break
                if st["to_move"] != to_move:
                    to_move = st["to_move"]
                    continue
                t0 = time.perf_counter()
                try:
                    status, answer = await conn.request(
                        "POST", f"/api/games/{g['id']}/moves",
                        {"move": rng.choice(st["legal"]), "version": st["version"]},
                        token=tokens[to_move])
                except (ConnectionError, asyncio.IncompleteReadError, IndexError):
                    tally.errors += 1  # the move may or may not have been made: look again
                    conn.close()
                    conn.writer = None
                    continue
                tally.move_lat.append(time.perf_counter() - t0)
                if status == 409:  # can only be a race of this bench's own; counted
                    tally.refused += 1
                    continue
                if status != 200:
                    raise RuntimeError(f"move refused: {answer}")
                if answer["over"]:
                    tally.finished += 1
                    break
                to_move = answer["to_move"]
            seed += 1000
    finally:
        for c in conns:
            c.close()


async def load(url: str, games: int, seconds: float, game: str) -> tuple[Tally, float]:
    host, _, port = url.split("://", 1)[1].rstrip("/").partition(":")
    tally = Tally()
    start = time.monotonic()
    deadline = start + seconds
    await asyncio.gather(*(one_game(host, int(port), game, 5000 + i, deadline, tally)
                           for i in range(games)))
    return tally, time.monotonic() - start


def wait_all_ready(url: str, n: int, timeout: float = 180.0) -> None:
    """Wait until ``n`` different processes answered ``/readyz`` (each on a new connection:
    the kernel picks the process), so that no process is still starting (and taking CPU)
    while the load runs."""
    import httpx

    ready: set[int] = set()
    deadline = time.monotonic() + timeout
    while len(ready) < n:
        if time.monotonic() > deadline:
            raise RuntimeError(f"only {len(ready)} of {n} processes became ready")
        try:
            r = httpx.get(url + "/readyz", timeout=10)
            if r.status_code == 200:
                ready.add(r.json()["pid"])
            else:
                time.sleep(0.2)
        except httpx.HTTPError:
            time.sleep(0.2)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", default=os.environ.get("RULEBOX_TEST_POSTGRES_URL"),
                    help="PostgreSQL URL (default $RULEBOX_TEST_POSTGRES_URL); each run uses "
                    "a fresh schema in it")
    ap.add_argument("--games", type=int, default=100, help="concurrent games (default 100)")
    ap.add_argument("--seconds", type=float, default=20.0, help="seconds a run (default 20)")
    ap.add_argument("--processes", default="1,2,4", help="process counts (default 1,2,4)")
    ap.add_argument("--game", default="columns", help="game id (default columns)")
    ap.add_argument("--logs", default=None, metavar="DIR",
                    help="keep the servers' logs here (default: a temporary folder)")
    ap.add_argument("--think-workers", type=int, default=1,
                    help="think workers per server process (default 1; no computer plays)")
    args = ap.parse_args(argv)
    if not args.db or not args.db.startswith(("postgresql://", "postgres://")):
        print("give --db postgresql://... (or set RULEBOX_TEST_POSTGRES_URL)", file=sys.stderr)
        return 2
    console = Console(width=150)
    counts = [int(x) for x in args.processes.split(",") if x.strip()]
    table = Table(title=f"{args.games} concurrent {args.game} games, {args.seconds:g} s a run, "
                  f"PostgreSQL, {os.cpu_count()} CPUs on this machine")
    for col in ("processes", "moves", "moves/s", "move p50 ms", "move p99 ms", "get p50 ms",
                "get p99 ms", "409", "conn errors", "games done", "client CPU s"):
        table.add_column(col, justify="right")
    for n in counts:
        schema = fresh_schema(args.db, "rbbench")
        try:
            with tempfile.TemporaryDirectory() as tmp:
                logs = Path(args.logs or tmp)
                logs.mkdir(parents=True, exist_ok=True)
                srv = ServerProcess(schema, log=logs / f"server-{n}.log", args=[
                    "--workers", str(n), "--think-workers", str(args.think_workers),
                    "--create-per-minute", "0", "--moves-per-second", "0"])
                srv.start(timeout=180)
                try:
                    wait_all_ready(srv.url, n)  # not only the first process to answer
                    cpu = time.process_time()
                    tally, wall = asyncio.run(load(srv.url, args.games, args.seconds,
                                                   args.game))
                    cpu = time.process_time() - cpu
                finally:
                    srv.stop()
        finally:
            drop_schema(schema)
        moves = len(tally.move_lat)
        row = (str(n), str(moves), f"{moves / wall:.1f}", f"{pct(tally.move_lat, .5):.1f}",
               f"{pct(tally.move_lat, .99):.1f}", f"{pct(tally.get_lat, .5):.1f}",
               f"{pct(tally.get_lat, .99):.1f}", str(tally.refused), str(tally.errors),
               str(tally.finished), f"{cpu:.1f}")
        table.add_row(*row)
        print(f"processes={n} moves={moves} seconds={wall:.1f} moves/s={moves / wall:.1f} "
              f"move_p50_ms={row[3]} move_p99_ms={row[4]} get_p50_ms={row[5]} "
              f"get_p99_ms={row[6]} refused_409={tally.refused} "
              f"connection_errors={tally.errors} finished={tally.finished} "
              f"client_cpu_s={cpu:.1f}", flush=True)
    console.print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
