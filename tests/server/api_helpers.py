"""Helpers of the JSON API tests: calls with a client of ``httpx`` and a wait for a turn."""

from __future__ import annotations

import time
from typing import Any

import httpx


def auth(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def create(client: httpx.Client, game: str, seats: list[str], **options: str) -> dict[str, Any]:
    r = client.post("/api/games", json={"game": game, "options": options, "seats": seats})
    assert r.status_code == 200, r.text
    return r.json()


def get(client: httpx.Client, gid: str, token: str | None = None) -> dict[str, Any]:
    r = client.get(f"/api/games/{gid}", headers=auth(token))
    assert r.status_code == 200, r.text
    return r.json()


def move(client: httpx.Client, gid: str, token: str | None, text: Any, **extra: Any
         ) -> httpx.Response:
    return client.post(f"/api/games/{gid}/moves", json={"move": text, **extra},
                       headers=auth(token))


def wait_turn(client: httpx.Client, gid: str, token: str, seat: int, timeout: float = 30
              ) -> dict[str, Any]:
    """Poll until ``seat`` is to move or the game is over."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        st = get(client, gid, token)
        if st["over"] or st["to_move"] == seat:
            return st
        time.sleep(0.05)
    raise AssertionError("the computer did not move")
