"""The table's behaviour through the JSON API: versioned moves, no double application of a
multi-action turn, resign, announcements in the payload, undo that never shows the next card,
the rematch's seed policy, agent specs for seats, and the failure policy of computer seats."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from rulebox.core.registry import new_game


def auth(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def create(client: httpx.Client, game: str, seats: list[str], hotseat: bool = False,
           **options: str) -> dict[str, Any]:
    r = client.post("/api/games", json={"game": game, "options": options, "seats": seats,
                                        "hotseat": hotseat})
    assert r.status_code == 200, r.text
    return r.json()


def get(client: httpx.Client, gid: str, token: str | None = None) -> dict[str, Any]:
    r = client.get(f"/api/games/{gid}", headers=auth(token))
    assert r.status_code == 200, r.text
    return r.json()


def move(client: httpx.Client, gid: str, token: str | None, text: str, **extra: Any
         ) -> httpx.Response:
    return client.post(f"/api/games/{gid}/moves", json={"move": text, **extra},
                       headers=auth(token))


def test_a_stale_version_is_refused_with_409_and_the_current_version(client: httpx.Client
                                                                     ) -> None:
    g = create(client, "columns", ["human", "human"], seed="5")
    t0, t1 = (s["token"] for s in g["seats"])
    v = get(client, g["id"], t0)["version"]
    assert move(client, g["id"], t0, "Ra1", version=v).status_code == 200
    r = move(client, g["id"], t1, "Rb1", version=v)
    assert r.status_code == 409
    err = r.json()["error"]
    assert err["code"] == "stale" and err["version"] == v + 1
    assert get(client, g["id"])["history"] == ["Ra1"]


def test_a_double_click_in_a_discs_turn_is_applied_once(client: httpx.Client) -> None:
    g = create(client, "discs", ["human", "human"], seed="1")
    t0, t1 = (s["token"] for s in g["seats"])
    assert move(client, g["id"], t0, "arrange RGBRGBRGB").status_code == 200
    assert move(client, g["id"], t1, "choose silver a1c3").status_code == 200
    st = get(client, g["id"], t0)
    main = st["legal"][0]
    first = move(client, g["id"], t0, main, version=st["version"])
    again = move(client, g["id"], t0, main, version=st["version"])
    assert first.status_code == 200 and again.status_code == 409
    assert again.json()["error"]["code"] == "stale"
    assert get(client, g["id"])["ply"] == 3


def test_resign_ends_the_game_for_the_other_side(client: httpx.Client) -> None:
    g = create(client, "columns", ["human", "human"], seed="2")
    t0, t1 = (s["token"] for s in g["seats"])
    r = client.post(f"/api/games/{g['id']}/resign", headers=auth(t1))
    assert r.status_code == 200, r.text
    st = r.json()
    assert st["over"] and st["result"]["winners"] == [0] and st["result"]["how"] == "resigned"
    assert any(e["kind"] == "resigned" for e in st["events"])
    assert move(client, g["id"], t0, "Ra1").status_code == 409
    assert client.post(f"/api/games/{g['id']}/resign", headers=auth(t0)).status_code == 409


CR_BONUS = (
    "C3-B4 D2-B1 D4-B2 C1-D1 A1-A3 B1-C4 B4-C3 D1-B1 B2-C3 B4-D1 A4-D3 D1-A2 C2-D1 A2-D4 "
    "C3-B4 A2-D2 "
).split()


def test_countred_announcements_reach_every_seat(client: httpx.Client) -> None:
    """CR-10: the bonus move is announced in the payload (the browser shows it)."""
    g = create(client, "countred", ["human", "human"], hotseat=True, seed="1", even="0",
               first="0", stack_lift="free")
    tokens = [s["token"] for s in g["seats"]]
    st = get(client, g["id"], tokens[0])
    for text in CR_BONUS:
        r = move(client, g["id"], tokens[st["to_move"]], text, version=st["version"])
        assert r.status_code == 200, (text, r.text)
        st = r.json()
    for viewer in (None, tokens[0], tokens[1]):
        events = get(client, g["id"], viewer)["events"]
        bonus = [e for e in events if e["kind"] == "bonus_move"]
        assert bonus and "second earns a bonus move [CR-10]" in bonus[0]["text"]


def test_undo_through_the_api_never_shows_the_next_card(client: httpx.Client) -> None:
    g = create(client, "36to1", ["human"], seed="3")
    gid, token = g["id"], g["seats"][0]["token"]
    before = get(client, gid, token)
    seen = []
    for i in range(5):
        r = move(client, gid, token, "G1:a1")
        assert r.status_code == 200, r.text
        seen.append(tuple(r.json()["view"]["faceup"]))
        u = client.post(f"/api/games/{gid}/undo", headers=auth(token))
        assert u.status_code == 200, u.text
        assert u.json()["view"] == before["view"] and u.json()["takebacks"] == i + 1
    assert len(set(seen)) > 1


def test_a_rematch_is_freshly_shuffled_unless_the_same_deal_is_asked(client: httpx.Client
                                                                    ) -> None:
    start = new_game("36to1", {"seed": "3"}).view(0)
    fresh_views = []
    for same in (True, False, False):
        g = create(client, "36to1", ["human"], seed="3")
        token = g["seats"][0]["token"]
        assert client.post(f"/api/games/{g['id']}/resign", headers=auth(token)).status_code == 200
        r = client.post(f"/api/games/{g['id']}/rematch", json={"same_deal": same},
                        headers=auth(token))
        assert r.status_code == 200, r.text
        view = get(client, r.json()["id"], token)["view"]
        if same:
            assert view["faceup"] == start["faceup"]
        else:
            fresh_views.append(tuple(view["faceup"]))
    assert any(v != tuple(start["faceup"]) for v in fresh_views)


def test_seats_take_agent_specs_and_refuse_bad_ones(client: httpx.Client) -> None:
    g = create(client, "columns", ["human", "mcts:iterations=20,seed=3"], seed="1")
    assert g["seats"][1]["kind"] == "computer" and g["seats"][1]["label"] == "computer (mcts)"
    r = client.post("/api/games", json={"game": "columns", "seats": ["human", "mcts:warp=9"]})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_seat"
    r = client.post("/api/games", json={"game": "columns", "seats": ["human", "computer:genius"]})
    assert r.status_code == 400


def test_a_failing_computer_forfeits_and_says_so(tmp_path: Path) -> None:
    """In-process service (threads, no worker processes): the agent's error is stored and shown;
    no random move is played in its place."""
    from rulebox.ai.base import _AGENTS, AgentEntry, register_agent
    from rulebox.server.service import GameService
    from rulebox.server.store import Store

    class Broken:
        name = "broken"

        def choose(self, game: object) -> object:
            raise RuntimeError("out of ideas")

    register_agent(AgentEntry("broken", "raises", lambda g, s: Broken()))

    async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
        store_url = f"sqlite:///{tmp_path / 'f.db'}"
        svc = GameService(Store(store_url), think_workers=1, think_in_processes=False)
        g = await svc.create("columns", {"seed": "1"}, ["human", "broken"])
        token = g["seats"][0]["token"]
        await svc.play(g["id"], token, "Ra1")
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            live = await svc.live(g["id"])
            if live.over():
                break
            await asyncio.sleep(0.05)
        live = await svc.live(g["id"])
        shown = svc.payload(live, 0)
        await svc.close()
        again = GameService(Store(store_url), think_workers=1)
        try:
            reloaded = again.payload(await again.live(g["id"]), 0)
        finally:
            await again.close()
        return shown, reloaded

    try:
        shown, reloaded = asyncio.run(scenario())
    finally:
        _AGENTS.pop("broken", None)
    for st in (shown, reloaded):
        assert st["over"] and st["result"]["how"] == "forfeit" and st["result"]["winners"] == [0]
        assert st["history"] == ["Ra1"]
    assert any(e["kind"] == "agent_error" and "out of ideas" in e["text"]
               for e in shown["events"])


@pytest.mark.parametrize("seats", [["human", "computer:easy"]])
def test_undo_against_the_computer_sends_the_version(client: httpx.Client,
                                                     seats: list[str]) -> None:
    g = create(client, "columns", seats, seed="4")
    gid, token = g["id"], g["seats"][0]["token"]
    assert move(client, gid, token, "Ra1").status_code == 200
    deadline = time.monotonic() + 30
    st = get(client, gid, token)
    while st["to_move"] != 0 and time.monotonic() < deadline:
        time.sleep(0.05)
        st = get(client, gid, token)
    r = client.post(f"/api/games/{gid}/undo", json={"version": st["version"] - 1},
                    headers=auth(token))
    assert r.status_code == 409 and r.json()["error"]["code"] == "stale"
    r = client.post(f"/api/games/{gid}/undo", json={"version": st["version"]},
                    headers=auth(token))
    assert r.status_code == 200 and r.json()["history"] == []
