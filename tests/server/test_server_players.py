"""Issue 27 through the real API, in process with an injected clock: names, sessions, the
login limit, open games, ratings, chat, takebacks, abandonment, spectators and pairing, on
SQLite and PostgreSQL (docs/SERVER.md, "Players, open games, pairing, ratings and chat")."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

import httpx
from fastapi.testclient import TestClient

from rulebox.server.app import create_app
from rulebox.server.limits import Limits
from rulebox.server.players import Passwords
from rulebox.server.testing import drop_schema, fresh_schema, postgres_reachable

PG = os.environ.get("RULEBOX_TEST_POSTGRES_URL")
ORIGIN = {"Origin": "http://localhost"}


@dataclass
class FakeClock:
    """The lobby's clock: epoch seconds that move only when a test says so."""

    t: float = 1_700_000_000.0

    def __call__(self) -> float:
        return self.t


@dataclass
class Site:
    client: TestClient
    clock: FakeClock
    app: Any

    @property
    def lobby(self) -> Any:
        return self.app.state.lobby

    def account(self, name: str, password: str = "secret-pw") -> str:
        r = self.client.post("/api/players", json={"name": name, "password": password})
        assert r.status_code == 201, r.text
        self.client.cookies.clear()
        return str(r.json()["session"])

    def guest(self, name: str) -> str:
        r = self.client.post("/api/guests", json={"name": name})
        assert r.status_code == 201, r.text
        self.client.cookies.clear()
        return str(r.json()["session"])

    def post(self, url: str, session: str | None = None, token: str | None = None,
             **kw: Any) -> httpx.Response:
        headers: dict[str, str] = {}
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
            if session is not None:
                headers["X-Rulebox-Session"] = session
        elif session is not None:
            headers["Authorization"] = f"Bearer {session}"
        return self.client.post(url, headers=headers, **kw)

    def get(self, url: str, token: str | None = None) -> httpx.Response:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return self.client.get(url, headers=headers)

    def tick(self) -> None:
        self.client.portal.call(self.lobby.tick)  # type: ignore[union-attr]


def _backends() -> list[Any]:
    return ["sqlite", pytest.param("postgres", marks=pytest.mark.skipif(
        not postgres_reachable(PG), reason="RULEBOX_TEST_POSTGRES_URL is not set or not up"))]


@pytest.fixture(params=_backends())
def site(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Site]:
    url = (f"sqlite:///{tmp_path / 'rulebox.db'}" if request.param == "sqlite"
           else fresh_schema(str(PG), "rbplayers"))
    clock = FakeClock()
    app = create_app(url, limits=Limits(create_per_minute=0, moves_per_second=0,
                                   trusted_hosts=("localhost", "testserver")),
                     think_workers=1, lobby_options={"clock": clock, "tick_seconds": 0,
                                                     "passwords": Passwords.fast()})
    try:
        with TestClient(app, base_url="http://localhost") as client:
            yield Site(client, clock, app)
    finally:
        if request.param == "postgres":
            drop_schema(url)


def open_game(site: Site, session: str, game: str = "columns", seats: int = 2,
              rated: bool = False, **extra: Any) -> tuple[str, str]:
    r = site.post("/api/games", session, json={"game": game, "seats": ["human"] * seats,
                                               "open": True, "rated": rated, **extra})
    assert r.status_code == 200, r.text
    body = r.json()
    return body["id"], body["seats"][body.get("seat", 0)]["token"] or next(
        s["token"] for s in body["seats"] if s["token"])


def error(r: httpx.Response) -> str:
    return str(r.json()["error"]["code"])


def play_one(site: Site, gid: str, tokens: dict[int, str]) -> dict[str, Any]:
    """Play the first legal move of whoever is to move; answers the payload."""
    state = site.get(f"/api/games/{gid}", tokens[0]).json()
    seat = state["to_move"]
    legal = site.get(f"/api/games/{gid}", tokens[seat]).json()["legal"]
    move = "end" if "end" in legal else legal[0]
    r = site.post(f"/api/games/{gid}/moves", token=tokens[seat], json={"move": move})
    assert r.status_code == 200, r.text
    return dict(r.json())


# --- names ------------------------------------------------------------------------------------
@pytest.mark.parametrize(("name", "reason"), [
    ("ab", "length"), ("a" * 21, "length"), ("an na", "characters"), ("anna!", "characters"),
    ("<b>x</b>", "characters"), ("\u0430nna", "mixed_script"), ("Ἀnna", "mixed_script"),
    ("computer", "reserved"), ("Computer2", "reserved"), ("ADMIN", "reserved"),
    ("easy", "reserved"), ("mcts", "reserved"), ("123", "characters"),
])
def test_names_are_refused_by_the_rules(site: Site, name: str, reason: str) -> None:
    r = site.client.post("/api/players", json={"name": name, "password": "secret-pw"})
    assert r.status_code == 400 and error(r) == "bad_name"
    assert r.json()["error"]["reason"] == reason
    g = site.client.post("/api/guests", json={"name": name})
    assert g.status_code == 400 and g.json()["error"]["reason"] == reason


def test_names_are_one_after_nfkc_case_folding_for_accounts_and_guests(site: Site) -> None:
    site.account("Anna")
    for same in ("anna", "ANNA", "\uff21\uff4e\uff4e\uff41"):  # full-width Ａｎｎａ
        r = site.client.post("/api/players", json={"name": same, "password": "secret-pw"})
        assert r.status_code == 409 and error(r) == "name_taken", same
        assert error(site.client.post("/api/guests", json={"name": same})) == "name_taken"
    site.guest("Boris")
    assert error(site.client.post("/api/players", json={"name": "boris",
                                                        "password": "secret-pw"})) == "name_taken"
    # one script is fine, whichever it is
    assert site.client.post("/api/guests", json={"name": "\u0410\u043d\u043d\u0430"}
                            ).status_code == 201  # Анна, all Cyrillic


def test_a_password_needs_eight_characters(site: Site) -> None:
    r = site.client.post("/api/players", json={"name": "Anna", "password": "short"})
    assert r.status_code == 400 and error(r) == "bad_password"
    assert "short" not in r.text


# --- sessions ---------------------------------------------------------------------------------
def test_login_logout_and_the_cookie(site: Site) -> None:
    site.account("Anna", "right-password")
    r = site.client.post("/api/session", json={"name": "ANNA", "password": "right-password"})
    assert r.status_code == 200 and r.json()["name"] == "Anna"
    cookie = r.headers["set-cookie"]
    assert "HttpOnly" in cookie and "samesite=lax" in cookie.lower() and "Path=/" in cookie
    assert site.client.get("/api/session").json() == {"name": "Anna", "guest": False}
    assert site.client.delete("/api/session", headers=ORIGIN).json() == {"ok": True}
    site.client.cookies.clear()
    r = site.client.get("/api/session", headers={"Authorization": f"Bearer {r.json()['session']}"})
    assert r.status_code == 401 and error(r) == "no_session"


def test_a_changing_request_with_the_cookie_needs_this_sites_origin(site: Site) -> None:
    r = site.client.post("/api/players", json={"name": "Anna", "password": "secret-pw"})
    assert r.status_code == 201  # the client now holds the cookie
    body = {"game": "columns", "seats": ["human", "human"], "open": True}
    for headers in ({}, {"Origin": "http://evil.example"}, {"Origin": "null"}):
        r = site.client.post("/api/games", json=body, headers=headers)
        assert r.status_code == 403 and error(r) == "bad_origin", headers
    r = site.client.post("/api/games", json=body, headers=ORIGIN)
    assert r.status_code == 200 and r.json()["seats"][1]["kind"] == "open"
    # reading needs no Origin
    assert site.client.get("/api/session").status_code == 200


def test_a_wrong_login_answers_the_same_for_an_unknown_name_and_does_the_same_work(
        site: Site) -> None:
    site.account("Anna", "right-password")
    verified: list[str] = []
    passwords = site.lobby.accounts.passwords

    class Counting(type(passwords.hasher)):  # type: ignore[misc]
        def verify(self, stored: str | bytes, password: str | bytes) -> bool:
            verified.append(str(stored))
            return bool(super().verify(stored, password))

    passwords.hasher = Counting(time_cost=1, memory_cost=8 * 1024, parallelism=1)
    wrong = site.client.post("/api/session", json={"name": "Anna", "password": "wrong-one"})
    unknown = site.client.post("/api/session", json={"name": "Nobody", "password": "wrong-one"})
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json()
    assert error(wrong) == "bad_login"
    # one argon2id verification each: the unknown name is checked against a dummy hash
    assert len(verified) == 2 and all(h.startswith("$argon2id$") for h in verified)


def test_ten_failures_per_name_or_per_client_then_429_for_fifteen_minutes(site: Site) -> None:
    site.account("Anna", "right-password")
    for _i in range(10):
        r = site.client.post("/api/session", json={"name": "Anna", "password": "wrong-one"})
        assert r.status_code == 401
    r = site.client.post("/api/session", json={"name": "Anna", "password": "right-password"})
    assert r.status_code == 429 and error(r) == "too_many_failures"
    assert 0 < r.json()["error"]["retry_after"] <= 900 and "Retry-After" in r.headers
    site.clock.t += 15 * 60 + 1
    r = site.client.post("/api/session", json={"name": "Anna", "password": "right-password"})
    assert r.status_code == 200
    # per client: ten different unknown names from one address
    for i in range(10):
        assert site.client.post("/api/session", json={"name": f"ghost{i}", "password": "x" * 8}
                                ).status_code == 401
    assert error(site.client.post("/api/session", json={"name": "Anna",
                                                        "password": "right-password"})
                 ) == "too_many_failures"


# --- open games -------------------------------------------------------------------------------
def test_open_game_is_listed_joined_and_starts_when_full(site: Site) -> None:
    anna, boris = site.account("Anna"), site.account("Boris")
    gid, ta = open_game(site, anna, rated=True, clock="5+3")
    listed = site.client.get("/api/games?open=1").json()["games"]
    entry = next(g for g in listed if g["id"] == gid)
    assert entry["rated"] and entry["clock"] == "5+3" and entry["free"] == [1]
    assert entry["seats"][0]["name"] == "Anna"
    assert entry["seats"][0]["rating"] == {"value": 1500, "deviation": 350, "games": 0,
                                           "system": "glicko2"}
    # nobody moves before the last seat is taken
    legal = site.get(f"/api/games/{gid}", ta).json()["legal"]
    r = site.post(f"/api/games/{gid}/moves", token=ta, json={"move": legal[0]})
    assert r.status_code == 409 and error(r) == "not_started"
    r = site.post(f"/api/games/{gid}/join", boris, json={"seat": 1})
    assert r.status_code == 200 and r.json()["seat"] == 1
    tb = r.json()["token"]
    assert gid not in [g["id"] for g in site.client.get("/api/games?open=1").json()["games"]]
    state = site.get(f"/api/games/{gid}", tb).json()
    assert [p["name"] for p in state["players"]] == ["Anna", "Boris"]
    assert state["you"] == 1 and state["rated"] and not state["open"]
    assert site.post(f"/api/games/{gid}/moves", token=ta, json={"move": legal[0]}
                     ).status_code == 200
    # full now
    carl = site.account("Carl")
    r = site.post(f"/api/games/{gid}/join", carl, json={})
    assert r.status_code == 409 and error(r) == "game_full"


def test_join_refusals(site: Site) -> None:
    anna, boris = site.account("Anna"), site.account("Boris")
    gid, _ta = open_game(site, anna, rated=True)
    assert error(site.post(f"/api/games/{gid}/join", json={})) == "no_session"
    assert error(site.post(f"/api/games/{gid}/join", anna, json={})) == "already_seated"
    r = site.post(f"/api/games/{gid}/join", boris, json={"seat": 0})
    assert r.status_code == 409 and error(r) == "seat_taken"
    assert error(site.post(f"/api/games/{gid}/join", boris, json={"seat": 5})) == "bad_seat"
    assert error(site.post(f"/api/games/{gid}/join", boris, json={"seat": "x"})) == "malformed"
    guest = site.guest("Gus")
    r = site.post(f"/api/games/{gid}/join", guest, json={})
    assert r.status_code == 403 and error(r) == "guests_casual"
    r = site.post("/api/games", guest, json={"game": "columns", "seats": ["human", "human"],
                                             "open": True, "rated": True})
    assert r.status_code == 403 and error(r) == "guests_casual"
    assert error(site.post("/api/games/nosuchgame/join", boris, json={})) == "no_such_game"


def test_a_seat_taken_twice_at_the_same_moment_gives_one_200_and_one_409(site: Site) -> None:
    anna, boris, carl = site.account("Anna"), site.account("Boris"), site.account("Carl")
    gid, _ta = open_game(site, anna)

    async def both() -> list[int]:
        transport = httpx.ASGITransport(app=site.app)
        async with httpx.AsyncClient(transport=transport, base_url="http://localhost") as c:
            answers = await asyncio.gather(*[
                c.post(f"/api/games/{gid}/join", json={"seat": 1},
                       headers={"Authorization": f"Bearer {s}"}) for s in (boris, carl)])
        return sorted(a.status_code for a in answers)

    assert asyncio.run(both()) == [200, 409]
    names = [p["name"] for p in site.client.get(f"/api/games/{gid}").json()["players"]]
    assert names[0] == "Anna" and names[1] in ("Boris", "Carl")


def test_the_creator_cancels_an_open_game_and_nobody_joins_it_then(site: Site) -> None:
    anna, boris = site.account("Anna"), site.account("Boris")
    gid, ta = open_game(site, anna)
    r = site.post(f"/api/games/{gid}/cancel", boris)
    assert r.status_code == 403 and error(r) == "not_creator"
    assert site.post(f"/api/games/{gid}/cancel", anna).json() == {"id": gid, "cancelled": True}
    assert gid not in [g["id"] for g in site.client.get("/api/games?open=1").json()["games"]]
    r = site.post(f"/api/games/{gid}/join", boris, json={})
    assert r.status_code == 409 and error(r) == "cancelled"
    assert site.get(f"/api/games/{gid}", ta).json()["result"]["how"] == "cancelled"
    # a started game cannot be cancelled
    gid2, _t = open_game(site, anna)
    site.post(f"/api/games/{gid2}/join", boris, json={})
    r = site.post(f"/api/games/{gid2}/cancel", anna)
    assert r.status_code == 409 and error(r) == "started"


def test_four_people_fill_a_columba_team_game_and_it_is_rated_by_teams(site: Site) -> None:
    names = ["Anna", "Boris", "Carl", "Dora"]
    sessions = [site.account(n) for n in names]
    gid, t0 = open_game(site, sessions[0], game="columba", seats=4, rated=True)
    entry = next(g for g in site.client.get("/api/games?open=1").json()["games"]
                 if g["id"] == gid)
    assert entry["teams"] and [s["team"] for s in entry["seats"]] == [0, 1, 0, 1]
    assert entry["free"] == [1, 2, 3]
    assert entry["seats"][0]["rating"]["system"] == "openskill"
    tokens = {0: t0}
    for s in sessions[1:]:
        got = site.post(f"/api/games/{gid}/join", s, json={}).json()
        tokens[got["seat"]] = got["token"]
    assert sorted(tokens) == [0, 1, 2, 3]
    state = play_one(site, gid, tokens)
    assert state["teams"] and [p["team"] for p in state["players"]] == [0, 1, 0, 1]
    r = site.post(f"/api/games/{gid}/resign", token=tokens[1])
    assert r.status_code == 200 and r.json()["result"]["winners"] == [0, 2]
    after = {n: site.client.get(f"/api/players/{n}").json()["ratings"]["columba-multi"]
             for n in names}
    assert after["Anna"]["value"] > 1500 and after["Carl"]["value"] > 1500
    assert after["Boris"]["value"] < 1500 and after["Dora"]["value"] < 1500
    assert all(a["games"] == 1 for a in after.values())


# --- ratings and profiles ------------------------------------------------------------------------
def _rated_game(site: Site, a: str, b: str) -> tuple[str, dict[int, str]]:
    gid, ta = open_game(site, a, rated=True)
    tb = site.post(f"/api/games/{gid}/join", b, json={}).json()["token"]
    return gid, {0: ta, 1: tb}


def test_a_resigned_rated_game_is_a_loss_and_profiles_show_it(site: Site) -> None:
    anna, boris = site.account("Anna"), site.account("Boris")
    gid, tokens = _rated_game(site, anna, boris)
    play_one(site, gid, tokens)
    assert site.post(f"/api/games/{gid}/resign", token=tokens[1]).status_code == 200
    pa = site.client.get("/api/players/anna").json()
    pb = site.client.get("/api/players/BORIS").json()
    assert pa["ratings"]["columns"]["value"] > 1500 > pb["ratings"]["columns"]["value"]
    assert pa["ratings"]["columns"]["games"] == 1
    game = pa["recent"][0]
    assert game["id"] == gid and game["result"] == "win" and game["how"] == "resigned"
    assert game["opponents"] == ["Boris"] and game["rated"] and game["before"] == 1500
    assert pb["recent"][0]["result"] == "loss"
    assert [h["game"] for h in pa["history"]["columns"]] == [gid]
    change = site.get(f"/api/games/{gid}", tokens[0]).json()["rating_change"]
    assert change[0]["before"] == 1500 and change[0]["after"] > 1500
    # a second game: the ratings move on from there
    gid2, tokens2 = _rated_game(site, anna, boris)
    play_one(site, gid2, tokens2)
    site.post(f"/api/games/{gid2}/resign", token=tokens2[0])
    assert site.client.get("/api/players/anna").json()["ratings"]["columns"]["games"] == 2
    assert error(site.client.get("/api/players/nobody")) == "no_such_player"


def test_an_aborted_game_is_not_rated_and_a_casual_one_neither(site: Site) -> None:
    anna, boris = site.account("Anna"), site.account("Boris")
    gid, tokens = _rated_game(site, anna, boris)
    site.post(f"/api/games/{gid}/resign", token=tokens[1])  # no move made: aborted
    gid2, ta = open_game(site, anna, rated=False)
    tb = site.post(f"/api/games/{gid2}/join", boris, json={}).json()["token"]
    play_one(site, gid2, {0: ta, 1: tb})
    site.post(f"/api/games/{gid2}/resign", token=tb)
    profile = site.client.get("/api/players/anna").json()
    assert profile["ratings"] == {}
    by_id = {g["id"]: g for g in profile["recent"]}
    assert by_id[gid]["how"] == "aborted" and by_id[gid]["result"] is None
    assert by_id[gid2]["result"] == "win" and not by_id[gid2]["rated"]


def test_a_computer_level_has_its_own_rating(site: Site) -> None:
    anna = site.account("Anna")
    r = site.post("/api/games", anna, json={"game": "columns", "seats": [
        "human", "computer:easy"], "rated": True})
    assert r.status_code == 200, r.text
    gid, ta = r.json()["id"], r.json()["seats"][0]["token"]
    legal = site.get(f"/api/games/{gid}", ta).json()["legal"]
    site.post(f"/api/games/{gid}/moves", token=ta, json={"move": legal[0]})
    site.post(f"/api/games/{gid}/resign", token=ta)
    level = site.client.get("/api/players/computer:easy").json()
    assert level["ratings"]["columns"]["value"] > 1500
    assert site.client.get("/api/players/anna").json()["ratings"]["columns"]["value"] < 1500


# --- chat ----------------------------------------------------------------------------------------
def test_chat_channels_limits_and_mutes(site: Site) -> None:
    anna, boris, sam = site.account("Anna"), site.account("Boris"), site.account("Sam")
    gid, tokens = _rated_game(site, anna, boris)
    r = site.post(f"/api/games/{gid}/chat", token=tokens[0], json={"text": " <b>hi</b> "})
    assert r.status_code == 201
    assert r.json()["message"] | {"id": 0, "at": 0} == {
        "id": 0, "at": 0, "channel": "players", "name": "Anna", "seat": 0,
        "text": "<b>hi</b>"}
    r = site.post(f"/api/games/{gid}/chat", sam, json={"text": "go Boris"})
    assert r.status_code == 201 and r.json()["message"]["channel"] == "spectators"
    assert error(site.post(f"/api/games/{gid}/chat", json={"text": "anonymous"})
                 ) == "no_session"
    # players do not read the spectators during the game, spectators not the players
    players = [m["text"] for m in site.get(f"/api/games/{gid}/chat", tokens[1]).json()[
        "messages"]]
    watchers = [m["text"] for m in site.get(f"/api/games/{gid}/chat").json()["messages"]]
    assert players == ["<b>hi</b>"] and watchers == ["go Boris"]
    r = site.post(f"/api/games/{gid}/chat", token=tokens[0], json={"text": "x" * 501})
    assert r.status_code == 400 and error(r) == "chat_too_long"
    assert site.post(f"/api/games/{gid}/chat", token=tokens[0], json={"text": "x" * 500}
                     ).status_code == 201
    assert error(site.post(f"/api/games/{gid}/chat", token=tokens[0],
                           json={"text": " \u0000\n "})) == "chat_empty"
    assert error(site.post(f"/api/games/{gid}/chat", token=tokens[0], json={"text": 5})
                 ) == "malformed"
    for _i in range(3):
        assert site.post(f"/api/games/{gid}/chat", token=tokens[0],
                         json={"text": "again"}).status_code == 201
    r = site.post(f"/api/games/{gid}/chat", token=tokens[0], json={"text": "too fast"})
    assert r.status_code == 429 and error(r) == "chat_too_fast"
    site.clock.t += 11
    assert site.post(f"/api/games/{gid}/chat", token=tokens[0], json={"text": "later"}
                     ).status_code == 201
    # Boris mutes Anna: her messages no longer reach him
    r = site.post(f"/api/games/{gid}/mute", token=tokens[1], json={"name": "anna"})
    assert r.json() == {"muted": ["anna"]}
    assert site.get(f"/api/games/{gid}/chat", tokens[1]).json()["messages"] == []
    # after the game everyone reads both channels
    play_one(site, gid, tokens)
    site.post(f"/api/games/{gid}/resign", token=tokens[0])
    texts = [m["text"] for m in site.get(f"/api/games/{gid}/chat").json()["messages"]]
    assert "<b>hi</b>" in texts and "go Boris" in texts


def test_chat_arrives_on_the_sockets_that_may_read_it(site: Site) -> None:
    anna, boris, sam = site.account("Anna"), site.account("Boris"), site.account("Sam")
    gid, tokens = _rated_game(site, anna, boris)
    with site.client.websocket_connect(f"/api/games/{gid}/ws?auth=first") as wb, \
            site.client.websocket_connect(f"/api/games/{gid}/ws") as ws_watch:
        wb.send_json({"type": "auth", "token": tokens[1]})
        assert wb.receive_json()["type"] == "state"
        first = ws_watch.receive_json()
        assert first["type"] == "state" and first["spectators"] == 1
        site.post(f"/api/games/{gid}/chat", sam, json={"text": "spectating"})
        site.post(f"/api/games/{gid}/chat", token=tokens[0], json={"text": "hello <i>"})
        got = wb.receive_json()
        while got["type"] != "chat":
            got = wb.receive_json()
        assert got["message"]["text"] == "hello <i>"  # not the spectators' message
        seen = ws_watch.receive_json()
        while seen["type"] != "chat":
            seen = ws_watch.receive_json()
        assert seen["message"]["text"] == "spectating"
    # the spectator count is in every seat's payload
    assert site.get(f"/api/games/{gid}", tokens[0]).json()["spectators"] == 0


# --- takebacks -----------------------------------------------------------------------------------
def test_takeback_asked_and_accepted_or_declined(site: Site) -> None:
    anna, boris = site.account("Anna"), site.account("Boris")
    gid, tokens = _rated_game(site, anna, boris)
    state = play_one(site, gid, tokens)
    mover = 1 - state["to_move"]
    other = 1 - mover
    r = site.post(f"/api/games/{gid}/takeback", token=tokens[other], json={"action": "ask"})
    assert r.status_code == 409 and error(r) == "no_takeback"  # nothing of theirs yet
    r = site.post(f"/api/games/{gid}/takeback", token=tokens[mover], json={"action": "ask"})
    assert r.status_code == 200 and r.json()["takeback"] == {"asked_by": mover}
    assert error(site.post(f"/api/games/{gid}/takeback", token=tokens[mover],
                           json={"action": "accept"})) == "no_request"
    r = site.post(f"/api/games/{gid}/takeback", token=tokens[other], json={"action": "decline"})
    assert r.status_code == 200 and r.json()["takeback"] is None and r.json()["ply"] == 1
    site.post(f"/api/games/{gid}/takeback", token=tokens[mover], json={"action": "ask"})
    r = site.post(f"/api/games/{gid}/takeback", token=tokens[other], json={"action": "accept"})
    assert r.status_code == 200 and r.json()["ply"] == 0 and r.json()["to_move"] == mover
    assert error(site.post(f"/api/games/{gid}/takeback", token=tokens[other],
                           json={"action": "accept"})) == "no_request"


def test_no_takeback_across_a_hidden_draw(site: Site) -> None:
    anna, boris = site.account("Anna"), site.account("Boris")
    gid, ta = open_game(site, anna, game="columba")
    tb = site.post(f"/api/games/{gid}/join", boris, json={}).json()["token"]
    tokens = {0: ta, 1: tb}
    state = site.get(f"/api/games/{gid}", ta).json()
    seat = state["to_move"]
    legal = site.get(f"/api/games/{gid}", tokens[seat]).json()["legal"]
    place = next(m for m in legal if m != "end")
    site.post(f"/api/games/{gid}/moves", token=tokens[seat], json={"move": place})
    # a card laid, nothing drawn yet: the takeback may be asked
    r = site.post(f"/api/games/{gid}/takeback", token=tokens[seat], json={"action": "ask"})
    assert r.status_code == 200, r.text
    site.post(f"/api/games/{gid}/takeback", token=tokens[seat], json={"action": "withdraw"})
    # ending the turn draws a card from the hidden deck
    r = site.post(f"/api/games/{gid}/moves", token=tokens[seat], json={"move": "end"})
    assert r.status_code == 200, r.text
    r = site.post(f"/api/games/{gid}/takeback", token=tokens[seat], json={"action": "ask"})
    assert r.status_code == 409 and error(r) == "hidden_draw"


def test_no_takeback_against_the_computer(site: Site) -> None:
    anna = site.account("Anna")
    r = site.post("/api/games", anna, json={"game": "columns", "seats": ["human", "computer"]})
    gid, ta = r.json()["id"], r.json()["seats"][0]["token"]
    r = site.post(f"/api/games/{gid}/takeback", token=ta, json={"action": "ask"})
    assert r.status_code == 409 and error(r) == "no_takeback"


# --- abandonment ---------------------------------------------------------------------------------
def test_an_abandoned_game_may_be_claimed_after_the_grace_period(site: Site) -> None:
    anna, boris = site.account("Anna"), site.account("Boris")
    gid, tokens = _rated_game(site, anna, boris)
    play_one(site, gid, tokens)
    with site.client.websocket_connect(f"/api/games/{gid}/ws?auth=first") as wa:
        wa.send_json({"type": "auth", "token": tokens[0]})
        wa.receive_json()
        site.tick()  # Boris has no socket: gone from now
        r = site.post(f"/api/games/{gid}/claim", token=tokens[0], json={"result": "win"})
        assert r.status_code == 409 and error(r) == "not_abandoned"
        assert r.json()["error"]["at"] == int((site.clock.t + 60) * 1000)
        # Boris comes back in time and plays on
        site.clock.t += 30
        with site.client.websocket_connect(f"/api/games/{gid}/ws?auth=first") as wb:
            wb.send_json({"type": "auth", "token": tokens[1]})
            wb.receive_json()
            site.tick()
            site.clock.t += 100
            r = site.post(f"/api/games/{gid}/claim", token=tokens[0], json={"result": "win"})
            assert r.status_code == 409 and r.json()["error"]["at"] is None
        site.tick()  # gone again, from now
        site.clock.t += 59
        assert site.post(f"/api/games/{gid}/claim", token=tokens[0], json={"result": "win"}
                         ).status_code == 409
        site.clock.t += 2
        state = site.get(f"/api/games/{gid}", tokens[0]).json()
        assert state["claim"]["can_claim"] and state["claim"]["gone"] == [1]
        r = site.post(f"/api/games/{gid}/claim", token=tokens[0], json={"result": "win"})
        assert r.status_code == 200
        assert r.json()["result"]["how"] == "abandoned" and r.json()["result"]["winners"] == [0]
    assert site.client.get("/api/players/boris").json()["recent"][0]["result"] == "loss"


def test_an_abandoned_game_may_be_called_a_draw(site: Site) -> None:
    anna, boris = site.account("Anna"), site.account("Boris")
    gid, tokens = _rated_game(site, anna, boris)
    play_one(site, gid, tokens)
    site.post(f"/api/games/{gid}/claim", token=tokens[1], json={"result": "draw"})
    site.clock.t += 61
    r = site.post(f"/api/games/{gid}/claim", token=tokens[1], json={"result": "draw"})
    assert r.status_code == 200 and r.json()["result"]["winners"] == []
    assert error(site.post(f"/api/games/{gid}/claim", token=tokens[1],
                           json={"result": "win"})) == "game_over"


# --- pairing -------------------------------------------------------------------------------------
def test_quick_pairing_pairs_two_people_of_one_queue(site: Site) -> None:
    anna, boris, carl = site.account("Anna"), site.account("Boris"), site.account("Carl")
    r = site.post("/api/pairing", anna, json={"game": "columns", "clock": "5+3", "rated": True})
    assert r.status_code == 202 and r.json()["status"] == "waiting"
    r = site.post("/api/pairing", carl, json={"game": "discs", "clock": "5+3", "rated": True})
    assert r.status_code == 202  # another queue
    site.clock.t += 1
    r = site.post("/api/pairing", boris, json={"game": "columns", "clock": "5+3", "rated": True})
    assert r.status_code == 200 and r.json()["status"] == "paired" and r.json()["seat"] == 1
    gid, tb = r.json()["id"], r.json()["token"]
    waited = site.get("/api/pairing", anna).json()
    assert waited["status"] == "paired" and waited["id"] == gid and waited["seat"] == 0
    state = site.get(f"/api/games/{gid}", tb).json()
    assert [p["name"] for p in state["players"]] == ["Anna", "Boris"] and state["rated"]
    assert state["clock"]["control"] == "5+3"
    assert site.client.delete("/api/pairing", headers={"Authorization": f"Bearer {carl}"}
                              ).json() == {"status": "left"}
    assert site.get("/api/pairing", carl).json() == {"status": "none"}


def test_pairing_refusals(site: Site) -> None:
    anna, gus = site.account("Anna"), site.guest("Gus")
    assert error(site.post("/api/pairing", json={"game": "columns"})) == "no_session"
    assert error(site.post("/api/pairing", anna, json={"game": "36to1"})) == "no_pairing"
    assert error(site.post("/api/pairing", anna, json={"game": "chess"})) == "unknown_game"
    assert error(site.post("/api/pairing", anna, json={"game": "columns", "clock": "soon"})
                 ) == "bad_clock"
    assert error(site.post("/api/pairing", gus, json={"game": "columns", "rated": True})
                 ) == "guests_casual"
    assert site.post("/api/pairing", gus, json={"game": "columns"}).status_code == 202


def test_pairing_takes_the_nearest_rating_and_widens_with_waiting(site: Site) -> None:
    strong, weak, mid = site.account("Strong"), site.account("Weak"), site.account("Middle")
    site.lobby.ratings_cache.clear()
    # write ratings through the library path: a rated game Strong wins many times is slow;
    # set the stored ratings directly instead
    from sqlalchemy.orm import Session

    from rulebox.server.lobby_store import RatingRow

    with Session(site.app.state.svc.store.engine) as s, s.begin():
        s.add(RatingRow(player="strong", pool="columns", system="glicko2", value=1900,
                        deviation=80, volatility=0.06, games=30))
    assert site.post("/api/pairing", strong, json={"game": "columns"}).status_code == 202
    assert site.post("/api/pairing", weak, json={"game": "columns"}).status_code == 202
    site.tick()
    assert site.get("/api/pairing", weak).json()["status"] == "waiting"  # 400 apart
    site.clock.t += 31  # range 100 + 10 x 31 = 410
    site.get("/api/pairing", strong)
    site.get("/api/pairing", weak)
    site.tick()
    a, b = site.get("/api/pairing", strong).json(), site.get("/api/pairing", weak).json()
    assert a["status"] == b["status"] == "paired" and a["id"] == b["id"]
    assert site.post("/api/pairing", mid, json={"game": "columns"}).status_code == 202


# --- the lobby socket ----------------------------------------------------------------------------
def test_the_lobby_socket_sends_the_open_games_and_the_pairing(site: Site) -> None:
    anna, boris = site.account("Anna"), site.account("Boris")
    with site.client.websocket_connect("/api/lobby/ws?auth=first") as ws:
        ws.send_json({"type": "auth", "session": anna})
        assert ws.receive_json() == {"type": "lobby", "games": []}
        gid, _t = open_game(site, boris)
        site.tick()
        got = ws.receive_json()
        assert got["type"] == "lobby" and [g["id"] for g in got["games"]] == [gid]
        site.post("/api/pairing", anna, json={"game": "discs"})
        site.post("/api/pairing", boris, json={"game": "discs"})
        site.tick()
        got = ws.receive_json()
        while got["type"] != "paired":
            got = ws.receive_json()
        assert got["seat"] == 0 and got["token"]


def test_36to1_has_names_a_history_and_a_best_score_list(site: Site) -> None:
    anna = site.account("Anna")
    r = site.post("/api/games", anna, json={"game": "36to1", "seats": ["human"],
                                            "options": {"seed": "7"}})
    assert r.status_code == 200, r.text
    gid, ta = r.json()["id"], r.json()["seats"][0]["token"]
    state = site.get(f"/api/games/{gid}", ta).json()
    assert state["players"][0]["name"] == "Anna"
    for _i in range(400):
        if state["over"]:
            break
        r = site.post(f"/api/games/{gid}/moves", token=ta, json={"move": state["legal"][0]})
        assert r.status_code == 200, r.text
        state = r.json()
    assert state["over"]
    scores = site.client.get("/api/scores/36to1").json()["scores"]
    assert [(s["name"], s["game"]) for s in scores] == [("Anna", gid)]
    assert scores[0]["score"] == state["result"]["scores"][0]
    assert site.client.get("/api/players/anna").json()["recent"][0]["id"] == gid
