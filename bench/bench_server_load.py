"""Load on the web server: N concurrent games between people (no computer seats), each
playing random legal moves through the JSON API on loopback, as fast as the server answers.

    python bench/bench_server_load.py --games 100 --seconds 30 [--game columns] [--db URL]

Starts ``rulebox serve`` in a child process (SQLite in a temporary folder unless ``--db``, or
``--url`` to load a server that is already running) and prints moves/s and the p50/p99 latency
of ``POST /api/games/{id}/moves`` (each move is committed to the database before it is
answered). Every game reads its legal moves with ``GET /api/games/{id}`` before each move;
those reads are timed apart.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from rulebox.core.registry import game_entry
from rulebox.server.testing import ServerProcess


class Conn:
    """One keep-alive HTTP/1.1 connection speaking just enough of the protocol for the API
    (a general client such as httpx costs more CPU than the server it measures)."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, body: object = None,
                      token: str | None = None) -> tuple[int, dict]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        assert self.reader is not None
        data = b"" if body is None else json.dumps(body).encode()
        head = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}",
                f"Content-Length: {len(data)}"]
        if body is not None:
            head.append("Content-Type: application/json")
        if token:
            head.append(f"Authorization: Bearer {token}")
        self.writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + data)
        status_line = await self.reader.readline()
        status = int(status_line.split()[1])
        length = 0
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b""):
                break
            name, _, value = line.decode().partition(":")
            if name.strip().lower() == "content-length":
                length = int(value)
        payload = await self.reader.readexactly(length)
        return status, json.loads(payload) if payload else {}

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


async def one_game(url: str, game: str, seed: int, deadline: float,
                   move_lat: list[float], get_lat: list[float], done: list[int]) -> None:
    """Play games one after another until the deadline, on a connection of its own."""
    hostport = url.split("://", 1)[1].rstrip("/")
    host, _, port = hostport.partition(":")
    conn = Conn(host, int(port or 80))
    try:
        await _games(conn, game, seed, deadline, move_lat, get_lat, done)
    finally:
        conn.close()


async def _games(conn: Conn, game: str, seed: int, deadline: float,
                 move_lat: list[float], get_lat: list[float], done: list[int]) -> None:
    rng = random.Random(seed)
    n = game_entry(game).cls.player_counts[0]
    while time.monotonic() < deadline:
        status, g = await conn.request("POST", "/api/games", {
            "game": game, "seats": ["human"] * n, "options": {"seed": str(seed)}})
        if status != 200:
            raise RuntimeError(f"cannot create a game: {g}")
        tokens = [s["token"] for s in g["seats"]]
        gid = g["id"]
        to_move = 0
        while time.monotonic() < deadline:
            t0 = time.perf_counter()
            _, st = await conn.request("GET", f"/api/games/{gid}", token=tokens[to_move])
            get_lat.append(time.perf_counter() - t0)
            if st["over"]:
                done[0] += 1
                break
            if st["to_move"] != to_move:
                to_move = st["to_move"]
                continue
            move = rng.choice(st["legal"])
            t0 = time.perf_counter()
            status, st = await conn.request("POST", f"/api/games/{gid}/moves", {"move": move},
                                            token=tokens[to_move])
            move_lat.append(time.perf_counter() - t0)
            if status != 200:
                raise RuntimeError(f"move {move} refused: {st}")
            if st["over"]:
                done[0] += 1
                break
            to_move = st["to_move"]
        seed += 1000


def pct(xs: list[float], q: float) -> float:
    """The q-quantile of xs in milliseconds."""
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return 1000 * xs[min(len(xs) - 1, int(q * len(xs)))]


async def run(url: str, games: int, seconds: float, game: str) -> None:
    move_lat: list[float] = []
    get_lat: list[float] = []
    done = [0]
    start = time.monotonic()
    deadline = start + seconds
    await asyncio.gather(*(one_game(url, game, 1000 + i, deadline, move_lat, get_lat, done)
                           for i in range(games)))
    wall = time.monotonic() - start
    print(f"game={game} concurrent_games={games} seconds={wall:.1f} moves={len(move_lat)} "
          f"finished_games={done[0]}")
    print(f"moves/s={len(move_lat) / wall:.1f} move_p50_ms={pct(move_lat, .5):.1f} "
          f"move_p99_ms={pct(move_lat, .99):.1f} get_p50_ms={pct(get_lat, .5):.1f} "
          f"get_p99_ms={pct(get_lat, .99):.1f} "
          f"move_mean_ms={1000 * statistics.fmean(move_lat) if move_lat else float('nan'):.1f}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100, help="concurrent games (default 100)")
    ap.add_argument("--seconds", type=float, default=30.0, help="how long to run (default 30)")
    ap.add_argument("--game", default="columns", help="game id (default columns)")
    ap.add_argument("--db", default=None, help="database URL (default: SQLite in a temp folder)")
    ap.add_argument("--url", default=None, help="load this running server instead")
    ap.add_argument("--serve-args", default="--create-per-minute 0 --moves-per-second 0",
                    help="options of the server started (default: no rate limits, since every "
                    "game comes from one address; '' for a server without these options)")
    args = ap.parse_args(argv)
    if args.url:
        asyncio.run(run(args.url, args.games, args.seconds, args.game))
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or f"sqlite:///{Path(tmp) / 'bench.db'}"
        with ServerProcess(db, log=Path(tmp) / "server.log",
                           args=args.serve_args.split()) as srv:
            print(f"server: {srv.url} storage: {db.split('@')[-1]}")
            asyncio.run(run(srv.url, args.games, args.seconds, args.game))
    return 0


if __name__ == "__main__":
    sys.exit(main())
