"""WebSockets push every change to every seat, each with its own view only; hidden
information (other hands, the deck order, the seed) never leaves the server."""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from rulebox.core.registry import game_entry, game_ids, new_game
from rulebox.server.testing import ServerProcess

ws_sync = pytest.importorskip("websockets.sync.client")
ws_errors = pytest.importorskip("websockets.exceptions")


@contextlib.contextmanager
def open_ws(server: ServerProcess, gid: str, token: str | None) -> Iterator[Any]:
    """A socket on a game, the token sent as the first message (never in the URL)."""
    url = server.url.replace("http://", "ws://") + f"/api/games/{gid}/ws?auth=first"
    with ws_sync.connect(url) as w:
        w.send(json.dumps({"type": "auth", "token": token}))
        yield w


def recv_state(ws: Any, version: int | None = None) -> dict[str, Any]:
    """The next state message (at ``version`` or later)."""
    while True:
        msg = json.loads(ws.recv(timeout=20))
        if msg.get("type") == "state" and (version is None or msg["version"] >= version):
            return msg


def test_each_socket_gets_its_own_seat_after_every_move(
    server: ServerProcess, client: httpx.Client
) -> None:
    g = client.post("/api/games", json={"game": "columns", "seats": ["human", "human"]}).json()
    t0, t1 = g["seats"][0]["token"], g["seats"][1]["token"]
    gid = g["id"]
    with open_ws(server, gid, t0) as w0, open_ws(server, gid, t1) as w1, \
            open_ws(server, gid, None) as ws:
        first = [recv_state(w) for w in (w0, w1, ws)]
        assert [m["you"] for m in first] == [0, 1, None]
        assert first[0]["legal"] and not first[1]["legal"] and not first[2]["legal"]
        r = client.post(f"/api/games/{gid}/moves", json={"move": "Sb2"},
                        headers={"Authorization": f"Bearer {t0}"})
        assert r.status_code == 200
        after = [recv_state(w, first[0]["version"] + 1) for w in (w0, w1, ws)]
        assert all(m["history"] == ["Sb2"] for m in after)
        assert [m["you"] for m in after] == [0, 1, None]
        assert not after[0]["legal"] and after[1]["legal"] and not after[2]["legal"]


def test_a_socket_with_a_bad_token_is_refused(server: ServerProcess,
                                              client: httpx.Client) -> None:
    g = client.post("/api/games", json={"game": "columns", "seats": ["human", "human"]}).json()
    for gid, token in ((g["id"], "forged"), ("nosuchgame", None)):
        with pytest.raises(ws_errors.WebSocketException), open_ws(server, gid, token) as w:
            w.recv(timeout=5)


HIDDEN = [g for g in game_ids() if game_entry(g).cls.has_hidden_information]


def _secret_strings(game: Any) -> list[str]:
    """Texts that would give away the deck: the seed, and every list in the full position
    that the spectator's view does not show, written as JSON (i.e. in its order)."""
    public = json.dumps(game.view(None))
    out = []
    full = game.position_json()

    def walk(x: Any) -> None:
        if isinstance(x, dict):
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            if len(x) >= 3 and all(isinstance(i, str | int) for i in x):
                text = json.dumps(x)
                if text not in public:
                    out.append(text)
            for v in x:
                walk(v)

    walk(full)
    return out


def test_the_games_with_hidden_information() -> None:
    assert sorted(HIDDEN) == ["36to1", "columba"]


@pytest.mark.parametrize("game_id", HIDDEN)
def test_hidden_information_never_leaves_the_server(
    server: ServerProcess, client: httpx.Client, game_id: str
) -> None:
    entry = game_entry(game_id)
    n = entry.cls.player_counts[0]
    seed = "424242"
    g = client.post("/api/games", json={"game": game_id, "options": {"seed": seed},
                                        "seats": ["human"] * n}).json()
    gid = g["id"]
    tokens = [s["token"] for s in g["seats"]]
    local = new_game(game_id, {"seed": seed})
    if "players" in {s.name for s in entry.cls.option_specs}:
        local = new_game(game_id, {"seed": seed, "players": str(n)})
    assert "seed" not in json.dumps(g)
    seats: list[int | None] = [*range(n), None]
    messages: list[tuple[int | None, dict[str, Any]]] = []
    with contextlib.ExitStack() as stack:
        sockets = [stack.enter_context(open_ws(server, gid, t))
                   for t in [*tokens, None]]
        for w, seat in zip(sockets, seats, strict=True):
            messages.append((seat, recv_state(w)))
        rng = random.Random(5)
        for _ in range(8):
            if local.is_terminal():
                break
            p = local.current_player()
            st = client.get(f"/api/games/{gid}",
                            headers={"Authorization": f"Bearer {tokens[p]}"}).json()
            messages.append((p, st))
            assert st["view"] == local.view(p)
            text = rng.choice(st["legal"])
            r = client.post(f"/api/games/{gid}/moves", json={"move": text},
                            headers={"Authorization": f"Bearer {tokens[p]}"})
            assert r.status_code == 200, r.text
            local.apply(text)
            messages.append((p, r.json()))
            for w, seat in zip(sockets, seats, strict=True):
                messages.append((seat, recv_state(w, r.json()["version"])))
            secrets = _secret_strings(local)
            for seat, msg in messages[-(n + 2):]:
                assert msg["view"] == local.view(seat), "a message is not view(seat)"
                text_msg = json.dumps(msg)
                assert seed not in text_msg
                assert "seed" not in msg["options"] and "deck" not in msg["options"]
                for secret in secrets:
                    assert secret not in text_msg, f"hidden {secret[:60]} leaked to {seat}"
        replay = client.get(f"/api/games/{gid}/replay", params={"ply": 1}).json()
        assert seed not in json.dumps(replay)


def test_the_token_may_come_as_the_first_message(server: ServerProcess,
                                                 client: httpx.Client) -> None:
    g = client.post("/api/games", json={"game": "columns", "seats": ["human", "human"]}).json()
    base = server.url.replace("http://", "ws://") + f"/api/games/{g['id']}/ws?auth=first"
    with ws_sync.connect(base) as w:
        w.send(json.dumps({"type": "auth", "token": g["seats"][1]["token"]}))
        assert recv_state(w)["you"] == 1
    with ws_sync.connect(base) as w:
        w.send(json.dumps({"type": "auth", "token": None}))
        assert recv_state(w)["you"] is None
    with ws_sync.connect(base) as w:
        w.send(json.dumps({"type": "auth", "token": "forged"}))
        with pytest.raises(ws_errors.ConnectionClosed):
            recv_state(w)
