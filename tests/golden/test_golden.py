"""Golden transcripts: a fixed set of seeded games of every game (Columba with 2, 3 and 4
players) played through the engine protocol (PROTOCOL.md), through the table into saved records,
and through the real web API on SQLite; every output is compared byte for byte with the data
files under ``tests/golden/data/`` that were written on the code before issue 31's refactoring.
Behaviour must not change: a failing comparison means that it did.

What varies from run to run is normalised before the comparison, and only that:

- the server's game ids and seat tokens (``secrets``): replaced by ``<id0>``, ``<id1>``, ... and
  ``<token0>``, ... in the order they first appear, also inside text such as a request's path
  (so that a payload that names the wrong game or seat still differs);
- times: ``started``, ``finished``, ``updated``, ``updated_at`` (the wall clock) become
  ``<time>``;
- the fairness commitment and its reveal (a fresh secret key per game, docs/FAIRNESS.md) become
  ``<commitment>`` and ``<reveal>``;
- a record's ``rulebox`` version becomes ``<version>``.

To keep the files small, the server's answer to most moves is kept as the SHA-256 of its
normalised JSON text (every twentieth whole): still a byte-for-byte comparison.

The server games have people at every seat and a fixed ``seed=`` (an arranged deal): a computer
seat's seed and the reshuffle after an undo come from fresh randomness on the server, so the
server games take back moves only in games without hidden cards; the table and the engine cover
computers and reshuffles with fixed seeds.

To write the files anew (only on purpose, on code whose behaviour is known to be right):
``RULEBOX_GOLDEN_WRITE=1 pytest tests/golden``.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rulebox.engine import Engine
from rulebox.match.table import Seat, Table

DATA = Path(__file__).parent / "data"
WRITE = os.environ.get("RULEBOX_GOLDEN_WRITE") == "1"

GAMES: list[tuple[str, dict[str, str]]] = [
    ("columns", {"seed": "11"}),
    ("countred", {"seed": "12"}),
    ("discs", {"seed": "13"}),
    ("36to1", {"seed": "14"}),
    ("columba", {"seed": "15", "players": "2"}),
    ("columba", {"seed": "16", "players": "3"}),
    ("columba", {"seed": "17", "players": "4"}),
]
"""The fixed set: every game, Columba with 2, 3 and 4 players."""

MAX_PLIES = 150
"""A game played by random moves stops here if it has not ended (Discs does not)."""


def _name(game: str, options: dict[str, str]) -> str:
    return f"{game}-" + "-".join(f"{k}{v}" for k, v in sorted(options.items()))


def _compare(name: str, text: str) -> None:
    path = DATA / name
    if WRITE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return
    assert path.exists(), f"{path} is missing: write it with RULEBOX_GOLDEN_WRITE=1"
    expected = path.read_text(encoding="utf-8")
    if text != expected:  # the first differing line, for a readable failure
        for i, (a, b) in enumerate(zip(expected.splitlines(), text.splitlines(), strict=False)):
            assert a == b, f"{name}: line {i + 1} differs"
        assert text == expected, f"{name}: the lengths differ"


TIME_KEYS = {"started", "finished", "updated", "updated_at"}


class Normaliser:
    """Replaces what varies between runs (see the module text), in one JSON document tree."""

    def __init__(self) -> None:
        self.names: dict[str, str] = {}

    def alias(self, kind: str, value: str) -> str:
        if value not in self.names:
            n = sum(1 for v in self.names.values() if v.startswith(f"<{kind}"))
            self.names[value] = f"<{kind}{n}>"
        return self.names[value]

    def __call__(self, data: Any) -> Any:
        if isinstance(data, dict):
            out: dict[str, Any] = {}
            for k, v in data.items():
                if k in TIME_KEYS and isinstance(v, str):
                    out[k] = "<time>"
                elif k == "token" and isinstance(v, str):
                    out[k] = self.alias("token", v)
                elif k in ("id", "rematch") and isinstance(v, str) and v in self.names:
                    out[k] = self.names[v]
                elif k == "commitment" and isinstance(v, str):
                    out[k] = "<commitment>"
                elif k == "reveal" and isinstance(v, str):
                    out[k] = "<reveal>"
                elif k == "rulebox" and isinstance(v, str):
                    out[k] = "<version>"
                else:
                    out[k] = self(v)
            return out
        if isinstance(data, list):
            return [self(x) for x in data]
        if isinstance(data, str):
            for value, alias in self.names.items():  # in a path: /api/games/<id0>/moves
                data = data.replace(value, alias)
        return data


def _dump(data: Any) -> str:
    return json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


# --- the engine ------------------------------------------------------------------------------
def engine_session(game: str, options: dict[str, str]) -> str:
    """One session of the engine (its ``handle``, as ``rulebox engine`` answers each line): a
    game of seeded random moves (chosen from ``legal``), undos, the position drawn and read, bad
    input, and computer moves of agents with fixed seeds; answers the whole transcript, each
    command followed by its response (``legal`` shown every tenth ply)."""
    rng = random.Random(_name(game, options))
    opts = " ".join(f"{k}={v}" for k, v in sorted(options.items()))
    engine = Engine()
    transcript: list[str] = []

    def ask(line: str, shown: bool = True) -> str:
        answer = engine.handle(line)
        assert answer is not None
        if shown:
            transcript.append(f"> {line}\n{answer}")
        return answer

    for line in ("play a1", f"new {game} {opts}", "turn", "show", "result", "play zz9",
                 "undo", "view 9", "new nosuchgame"):
        ask(line)
    ask(f"new {game} {opts}")
    for ply in range(MAX_PLIES):
        if ask("turn") == "= over\n\n":
            break
        legal = ask("legal", ply % 10 == 0)[2:].strip().split("\n")
        move = legal[rng.randrange(len(legal))]
        assert ask(f"play {move}").startswith("=")
        if ply in (3, 17):
            ask("undo")
            ask("history")
        if ply % 30 == 7:
            ask("show")
            ask("view 0")
        if ply == 22:
            ask("state")
    for line in ("result", "show", "history", "state", "view 0", "play zz9", "genmove random"):
        ask(line)
    # computers with fixed seeds from the start
    for line in (f"new {game} {opts}", "genmove random seed=3",
                 "genmove mcts iterations=30 seed=4", "genmove greedy seed=5", "history",
                 "genmove nosuchagent", "state"):
        ask(line)
    return "".join(transcript)


@pytest.mark.parametrize(("game", "options"), GAMES, ids=[_name(*g) for g in GAMES])
def test_engine_transcript(game: str, options: dict[str, str]) -> None:
    _compare(f"engine/{_name(game, options)}.txt", engine_session(game, options))


# --- the table and its records ---------------------------------------------------------------
def table_games(game: str, options: dict[str, str]) -> Iterator[tuple[str, Any]]:
    """Tables with fixed seeds: computers (random and greedy agents with seeds) play a whole
    game; a person and the computer with takebacks (reshuffles in hidden-card games); a
    resignation; a draw offer; each as its record, its stored table and its end in words."""
    n = len(_seats(game, options, "random"))
    # 1: computers to the end
    t = Table.new(game, options, _seats(game, options, "random:seed=9"), seed=101)
    t.play_computers(stop_at_person=False, limit=MAX_PLIES)
    yield "computers", t
    # 2: a person (seat 0) against the computer, with takebacks
    rng = random.Random(7)
    seats = [Seat.person()] + [Seat.computer("random:seed=2")] * (n - 1)
    t = Table.new(game, options, seats, seed=202)
    for i in range(60):
        t.play_computers()
        if t.over():
            break
        moves = sorted(str(m) for m in t.game.legal_moves())
        t.play(0, moves[rng.randrange(len(moves))], version=t.version)
        if i in (4, 9) and t.can_undo(0):
            t.undo(0)
    yield "takebacks", t
    # 3: people only; seat 0 offers a draw, the next declines; then seat 0 resigns
    t = Table.new(game, options, [Seat.person()] * n, seed=303)
    for _i in range(6):
        moves = sorted(str(m) for m in t.game.legal_moves())
        if t.over():
            break
        t.play(None, moves[rng.randrange(len(moves))])
    if n > 1 and not t.over():
        t.offer_draw(0)
        t.answer_draw(1, False)
    if not t.over():
        t.resign(0)
    yield "resigned", t


def _seats(game: str, options: dict[str, str], spec: str) -> list[Seat]:
    from rulebox.match.fairness import new_game

    return [Seat.computer(spec)] * new_game(game, options).num_players


@pytest.mark.parametrize(("game", "options"), GAMES, ids=[_name(*g) for g in GAMES])
def test_table_records(game: str, options: dict[str, str]) -> None:
    norm = Normaliser()
    out: dict[str, Any] = {}
    for label, table in table_games(game, options):
        out[label] = {
            "record": norm(table.record().to_json()),
            "table": norm(table.to_json()),
            "end": table.describe_end(),
            "result_line": table.ending.result_line() if table.ending else None,
            "events": [e.to_json() for e in table.events],
        }
    _compare(f"table/{_name(game, options)}.json", _dump(out))


# --- the web API -----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from rulebox.server.app import create_app
    from rulebox.server.limits import Limits

    db = tmp_path_factory.mktemp("golden") / "rulebox.db"
    app = create_app(f"sqlite:///{db}", Limits(create_per_minute=0, moves_per_second=0),
                     think_workers=1)
    with TestClient(app, base_url="http://localhost") as client:
        yield client


def _auth(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


@pytest.mark.parametrize(("game", "options"), GAMES, ids=[_name(*g) for g in GAMES])
def test_server_payloads(api: Any, game: str, options: dict[str, str]) -> None:
    norm = Normaliser()
    rng = random.Random(_name(game, options) + "server")
    exchanges: list[Any] = []

    def call(method: str, path: str, token: str | None = None, body: Any = None,
             whole: bool = True) -> Any:
        r = api.request(method, path, json=body, headers=_auth(token))
        data = r.json()
        shown = norm(data)
        exchanges.append({"request": [method, norm(path), norm(body)],
                          "status": r.status_code,
                          "body" if whole else "sha256": shown if whole else hashlib.sha256(
                              _dump(shown).encode()).hexdigest()})
        return data

    from rulebox.match.fairness import new_game

    n = new_game(game, options).num_players
    hidden = new_game(game, options).has_hidden_information
    created = api.post("/api/games", json={"game": game, "options": options,
                                           "seats": ["human"] * n, "hotseat": not hidden})
    assert created.status_code == 200, created.text
    body = created.json()
    norm.alias("id", body["id"])
    exchanges.append({"request": ["POST", "/api/games"], "status": 200, "body": norm(body)})
    gid = body["id"]
    tokens = [s["token"] for s in body["seats"]]
    call("GET", "/api/catalog") if game == "columns" else None
    call("GET", f"/api/games/{gid}")
    for seat in range(n):
        call("GET", f"/api/games/{gid}", tokens[seat])
    state = call("GET", f"/api/games/{gid}", tokens[0])
    call("POST", f"/api/games/{gid}/moves", tokens[0], {"move": "zz9"})
    call("POST", f"/api/games/{gid}/moves", tokens[-1] if n > 1 else None,
         {"move": "zz9"})
    for ply in range(MAX_PLIES):
        if state["over"]:
            break
        p = state["to_move"]
        view = api.get(f"/api/games/{gid}", headers=_auth(tokens[p])).json()
        legal = view["legal"]
        move = legal[rng.randrange(len(legal))]
        state = call("POST", f"/api/games/{gid}/moves", tokens[p],
                     {"move": move, "version": view["version"]}, whole=ply % 20 == 0)
        if ply == 2 and n > 1:
            call("POST", f"/api/games/{gid}/draw", tokens[0], {"action": "offer"})
            call("POST", f"/api/games/{gid}/draw", tokens[1], {"action": "decline"})
            state = call("GET", f"/api/games/{gid}", tokens[p])
        if ply in (5, 12) and not hidden and not state["over"]:
            state = call("POST", f"/api/games/{gid}/undo", tokens[state["to_move"]], {})
        if game == "columba" and ply == 40 and options["players"] == "3":
            state = call("POST", f"/api/games/{gid}/resign", tokens[state["to_move"]])
        if ply == 30 and game == "countred":
            call("GET", f"/api/games/{gid}/explain?q=a1", tokens[0])
    for seat in [None, *range(n)]:
        call("GET", f"/api/games/{gid}", tokens[seat] if seat is not None else None)
    ply = state["ply"]
    for k in sorted({0, 1, ply // 2, ply}):
        call("GET", f"/api/games/{gid}/replay?ply={k}", tokens[0])
    call("POST", "/api/games/mine", None, {"games": [{"id": gid, "token": tokens[0]}]})
    call("POST", f"/api/games/{gid}/undo", tokens[0], {})
    _compare(f"server/{_name(game, options)}.json", _dump(exchanges))
