"""The starvation attack of issue 19, replayed: while someone asks for all-computer games with
30 s searches, how long does a person wait for ``computer:easy``'s reply?

    python bench/bench_server_starvation.py [--attacks 2] [--moves 3] [--db URL]

Starts ``rulebox serve`` in a child process (SQLite in a temporary folder unless ``--db``),
sends ``POST /api/games {"game": "columns", "seats": ["mcts:time=30", "mcts:time=30"]}``
``--attacks`` times (printing what the server answered: a refusal, or the game it started), then
plays ``--moves`` moves of Columns against ``computer:easy`` and prints, for each, the seconds
from the person's move until the computer's reply is stored (polled every 20 ms).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import httpx

from rulebox.server.testing import ServerProcess


def attack(client: httpx.Client, attacks: int, spec: str, fallback: str) -> None:
    """Ask for the all-computer games and say what the server answered; when refused, start
    the longest searches the server still allows: a game against ``fallback`` whose person
    moves once (the computer then searches its whole time)."""
    for i in range(attacks):
        r = client.post("/api/games", json={"game": "columns", "seats": [spec, spec]})
        body = r.json()
        what = body.get("error", {}).get("code") if r.status_code != 200 else body.get("id")
        print(f"attack {i}: POST /api/games seats=[{spec!r}]*2 -> {r.status_code} {what}")
        if r.status_code == 200:
            continue
        g = client.post("/api/games", json={"game": "columns",
                                            "seats": ["human", fallback]}).json()
        head = {"Authorization": f"Bearer {g['seats'][0]['token']}"}
        st = client.get(f"/api/games/{g['id']}", headers=head).json()
        r = client.post(f"/api/games/{g['id']}/moves", headers=head,
                        json={"move": st["legal"][0]})
        print(f"attack {i}: instead human vs {fallback!r}, one move -> {r.status_code}")


def easy_replies(client: httpx.Client, moves: int) -> list[float]:
    """Seconds the easy computer took to answer each of ``moves`` moves of the person."""
    g = client.post("/api/games", json={"game": "columns", "options": {"seed": "7"},
                                        "seats": ["human", "computer:easy"]}).json()
    gid, token = g["id"], g["seats"][0]["token"]
    head = {"Authorization": f"Bearer {token}"}
    waits: list[float] = []
    for _ in range(moves):
        st = client.get(f"/api/games/{gid}", headers=head).json()
        if st["over"] or not st["legal"]:
            break
        r = client.post(f"/api/games/{gid}/moves", headers=head,
                        json={"move": st["legal"][0], "version": st["version"]})
        r.raise_for_status()
        t0 = time.monotonic()
        while True:
            st = client.get(f"/api/games/{gid}", headers=head).json()
            if st["over"] or st["to_move"] == 0:
                break
            if time.monotonic() - t0 > 120:
                raise RuntimeError("no reply in 120 s")
            time.sleep(0.02)
        waits.append(time.monotonic() - t0)
        if st["over"]:
            break
    return waits


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--attacks", type=int, default=2, help="all-computer games asked (2)")
    ap.add_argument("--spec", default="mcts:time=30", help="their agents (mcts:time=30)")
    ap.add_argument("--fallback", default="mcts:time=5",
                    help="when all-computer games are refused: games against this agent, "
                    "the longest search the server allows (mcts:time=5)")
    ap.add_argument("--moves", type=int, default=3, help="moves against computer:easy (3)")
    ap.add_argument("--warm", action="store_true",
                    help="play one move against easy first (the think workers are started)")
    ap.add_argument("--db", default=None, help="database URL (default: SQLite in a temp folder)")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or f"sqlite:///{Path(tmp) / 'bench.db'}"
        with ServerProcess(db, log=Path(tmp) / "server.log") as srv, \
                httpx.Client(base_url=srv.url, timeout=150) as client:
            print(f"server: {srv.url} storage: {db.split('@')[-1]}")
            if args.warm:
                print("warm-up easy reply seconds: " + " ".join(
                    f"{w:.2f}" for w in easy_replies(client, 1)))
            attack(client, args.attacks, args.spec, args.fallback)
            time.sleep(0.5)  # the searches are under way
            waits = easy_replies(client, args.moves)
            print("easy reply seconds: " + " ".join(f"{w:.2f}" for w in waits))
            if waits:
                print(f"easy reply max={max(waits):.2f}s mean={sum(waits) / len(waits):.2f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
