"""Quick pairing and the lobby under load (issue 27).

    python bench/bench_pairing.py --db postgresql://postgres@127.0.0.1:55432/rulebox_test \\
        [--players 1000] [--moves 200] [--open 200] [--waiting 100] [--seed 1]

1. **Pairing 1,000 queued players**, in process on a fresh schema (or a temporary SQLite
   file without ``--db``): ``--players`` guests (no password: no hashing in the figure) with
   ratings drawn around 1500 (sd 250, seeded), all written to the queue of one game and clock
   with waits of 0 to 60 s; then rounds of ``Pairing.tick`` (the clock, injected, moves on one
   second a round, so the ranges widen) until everyone is paired (or 80 rounds pair nobody
   more). Reported:
   rounds, games made, seconds of wall time in all, and per pairing. Then the same players
   arriving one after another (``Pairing.enter`` each, one rating): the time of each arrival.
2. **Move latency of a rated game under the lobby's load**: a ``rulebox serve`` process on
   another fresh schema, two accounts playing a rated Columns game (``--moves`` moves, each
   ``POST .../moves`` timed), first alone, then while ``--open`` open games are listed (a
   lobby socket connected, so every round lists them) and ``--waiting`` people wait in the
   pairing queue whose ratings are too far apart to pair (every round tries each of them).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from rulebox.server.accounts import Person
from rulebox.server.lobby import Lobby
from rulebox.server.lobby_store import PairingRow
from rulebox.server.service import GameService
from rulebox.server.store import Store
from rulebox.server.testing import ServerProcess, drop_schema, fresh_schema


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100 * len(xs)))]


def fresh(db: str | None, folder: Path, name: str) -> str:
    if db is None:
        return f"sqlite:///{folder / (name + '.db')}"
    return fresh_schema(db, "rbbench")


class Clock:
    def __init__(self) -> None:
        self.t = 1_700_000_000.0

    def __call__(self) -> float:
        return self.t


async def pairing_rounds(url: str, players: int, seed: int) -> dict[str, Any]:
    from sqlalchemy.orm import Session

    rng = random.Random(seed)
    clock = Clock()
    svc = GameService(Store(url), think_workers=1, think_in_processes=False)
    lobby = Lobby(svc, clock=clock, tick_seconds=0)
    svc.lobby = lobby
    try:
        people = [lobby.accounts.register(f"p{i:04d}", None, clock())[0] for i in range(players)]
        with Session(svc.store.engine) as s, s.begin():
            for p in people:
                waited = rng.uniform(0, 60)
                s.add(PairingRow(player=p.key, name=p.name, queue="columns|5+3|0",
                                 rating=rng.gauss(1500, 250), since=clock() - waited,
                                 seen=clock()))
        start = time.perf_counter()
        rounds = made = 0
        while True:
            rounds += 1
            got = await lobby.pairing.tick()
            made += got
            clock.t += 1
            if 2 * made >= players - 1 or (got == 0 and rounds > 80):  # widest after 70 s
                break
        seconds = time.perf_counter() - start
        left = players - 2 * made
        # arrivals: each enters and is paired at once with the one waiting
        arrivals: list[float] = []
        more = [lobby.accounts.register(f"q{i:04d}", None, clock())[0]
                for i in range(players)]
        for p in more:
            t0 = time.perf_counter()
            await lobby.pairing.enter(Person(p.key, p.name, True), "columns", "5+3", False)
            arrivals.append(time.perf_counter() - t0)
            clock.t += 0.01
        return {"players": players, "rounds": rounds, "games": made, "left_unpaired": left,
                "seconds": round(seconds, 2),
                "ms_per_pairing": round(1000 * seconds / max(1, made), 2),
                "arrival_ms_p50": round(1000 * pct(arrivals, 50), 2),
                "arrival_ms_p95": round(1000 * pct(arrivals, 95), 2),
                "arrivals_seconds": round(sum(arrivals), 2)}
    finally:
        await lobby.close()
        await svc.close()


def play_moves(base: str, moves: int, a: str, b: str) -> list[float]:
    """Rated Columns games between the sessions ``a`` and ``b``; each move timed."""
    times: list[float] = []
    with httpx.Client(base_url=base, timeout=60) as c:
        while len(times) < moves:
            r = c.post("/api/games", json={"game": "columns", "seats": ["human", "human"],
                                           "open": True, "rated": True},
                       headers={"Authorization": f"Bearer {a}"})
            gid, ta = r.json()["id"], r.json()["seats"][0]["token"]
            tb = c.post(f"/api/games/{gid}/join", json={},
                        headers={"Authorization": f"Bearer {b}"}).json()["token"]
            tokens = [ta, tb]
            state = c.get(f"/api/games/{gid}", headers={"Authorization": f"Bearer {ta}"}).json()
            while not state["over"] and len(times) < moves:
                seat = state["to_move"]
                legal = c.get(f"/api/games/{gid}", headers={
                    "Authorization": f"Bearer {tokens[seat]}"}).json()["legal"]
                t0 = time.perf_counter()
                r = c.post(f"/api/games/{gid}/moves", json={"move": legal[0],
                                                           "version": state["version"]},
                           headers={"Authorization": f"Bearer {tokens[seat]}"})
                times.append(time.perf_counter() - t0)
                if r.status_code != 200:
                    raise SystemExit(f"move refused: {r.text}")
                state = r.json()
    return times


def lobby_socket(base: str, stop: threading.Event, counts: list[int]) -> None:
    import websockets.sync.client as ws_client

    url = base.replace("http://", "ws://") + "/api/lobby/ws"
    with ws_client.connect(url) as ws:
        while not stop.is_set():
            try:
                msg = json.loads(ws.recv(timeout=0.5))
            except TimeoutError:
                continue
            if msg.get("type") == "lobby":
                counts.append(len(msg["games"]))


def under_load(url: str, folder: Path, moves: int, open_games: int, waiting: int
               ) -> dict[str, Any]:
    from sqlalchemy import create_engine
    from sqlalchemy.orm import Session

    srv = ServerProcess(url, log=folder / "serve.log",
                        args=["--create-per-minute", "0", "--moves-per-second", "0",
                              "--think-workers", "1"]).start(timeout=180)
    try:
        def account(c: httpx.Client, name: str) -> str:
            r = c.post("/api/guests" if name.startswith("w") else "/api/players",
                       json={"name": name, "password": "secret-pw"}
                       if not name.startswith("w") else {"name": name})
            if r.status_code != 201:
                raise SystemExit(r.text)
            return str(r.json()["session"])

        with httpx.Client(base_url=srv.url, timeout=60) as c:
            a, b = account(c, "Alpha"), account(c, "Bravo")
            quiet = play_moves(srv.url, moves, a, b)
            makers = [account(c, f"maker{i:03d}") for i in range(open_games)]
            for i, s in enumerate(makers):
                r = c.post("/api/games", json={"game": ["columns", "discs", "countred"][i % 3],
                                               "seats": ["human", "human"], "open": True,
                                               "rated": True},
                           headers={"Authorization": f"Bearer {s}"})
                assert r.status_code == 200, r.text
            waiters = [account(c, f"w{i:03d}") for i in range(waiting)]
            for s in waiters:
                r = c.post("/api/pairing", json={"game": "columns", "clock": "5+3"},
                           headers={"Authorization": f"Bearer {s}"})
                assert r.status_code in (200, 202), r.text
        # spread the waiters' ratings so far apart that nobody pairs (each is tried every round)
        engine = create_engine(url)
        with Session(engine) as db, db.begin():
            for i, row in enumerate(db.query(PairingRow).order_by(PairingRow.player)):
                row.rating = 1500.0 + 1000.0 * i
                row.game_id = None
        stop = threading.Event()
        counts: list[int] = []
        listener = threading.Thread(target=lobby_socket, args=(srv.url, stop, counts))
        listener.start()
        keep = threading.Event()

        def keep_waiting() -> None:  # the waiters ask now and then, as a browser would
            with httpx.Client(base_url=srv.url, timeout=60) as c2:
                while not keep.wait(10):
                    for s2 in waiters:
                        c2.get("/api/pairing", headers={"Authorization": f"Bearer {s2}"})

        asker = threading.Thread(target=keep_waiting)
        asker.start()
        try:
            time.sleep(2)  # a few rounds first
            loaded = play_moves(srv.url, moves, a, b)
        finally:
            stop.set()
            keep.set()
            listener.join()
            asker.join()
        engine.dispose()
        return {
            "moves": moves,
            "alone_ms_p50": round(1000 * pct(quiet, 50), 1),
            "alone_ms_p95": round(1000 * pct(quiet, 95), 1),
            "alone_ms_mean": round(1000 * statistics.mean(quiet), 1),
            "loaded_ms_p50": round(1000 * pct(loaded, 50), 1),
            "loaded_ms_p95": round(1000 * pct(loaded, 95), 1),
            "loaded_ms_mean": round(1000 * statistics.mean(loaded), 1),
            "open_games_listed": max(counts) if counts else None,
            "waiting": waiting,
        }
    finally:
        srv.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", help="a PostgreSQL URL (fresh schemas are made in it); "
                        "SQLite in a temporary folder without it")
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--open", type=int, default=200)
    parser.add_argument("--waiting", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--skip-pairing", action="store_true")
    parser.add_argument("--skip-moves", action="store_true")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        if not args.skip_pairing:
            url = fresh(args.db, folder, "pairing")
            try:
                print("pairing:", json.dumps(asyncio.run(
                    pairing_rounds(url, args.players, args.seed))), flush=True)
            finally:
                if args.db:
                    drop_schema(url)
        if not args.skip_moves:
            url = fresh(args.db, folder, "moves")
            try:
                print("moves:", json.dumps(under_load(url, folder, args.moves, args.open,
                                                      args.waiting)), flush=True)
            finally:
                if args.db:
                    drop_schema(url)
    return 0


if __name__ == "__main__":
    sys.exit(main())
