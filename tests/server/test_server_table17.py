"""Issue 17 on the server: a loss on time enforced by the server with nobody sending anything,
presence notices when a seat's socket goes and comes back (a reload says nothing), the games a
browser sits at (``POST /api/games/mine``), the move log in words and the last turn, undo after
the end refused, the computer's thinking shown, and each socket in its own language."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from rulebox.core.registry import new_game
from rulebox.i18n import language, use_language
from rulebox.server.testing import ServerProcess

ws_sync = pytest.importorskip("websockets.sync.client")

PRESENCE = ("joined", "left", "back")


def auth(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def create(client: httpx.Client, game: str, seats: list[str], **extra: Any) -> dict[str, Any]:
    r = client.post("/api/games", json={"game": game, "seats": seats, **extra})
    assert r.status_code == 200, r.text
    return dict(r.json())


def get(client: httpx.Client, gid: str, token: str | None = None) -> dict[str, Any]:
    r = client.get(f"/api/games/{gid}", headers=auth(token))
    assert r.status_code == 200, r.text
    return dict(r.json())


def play(client: httpx.Client, gid: str, token: str | None, text: str) -> dict[str, Any]:
    r = client.post(f"/api/games/{gid}/moves", json={"move": text}, headers=auth(token))
    assert r.status_code == 200, r.text
    return dict(r.json())


@contextlib.contextmanager
def open_ws(server: ServerProcess, gid: str, token: str | None, lang: str | None = None
            ) -> Iterator[Any]:
    """A socket on a game, the token as the first message."""
    url = server.url.replace("http://", "ws://") + f"/api/games/{gid}/ws?auth=first"
    if lang:
        url += f"&lang={lang}"
    with ws_sync.connect(url) as w:
        w.send(json.dumps({"type": "auth", "token": token}))
        yield w


def wait_for(ws: Any, want: Callable[[dict[str, Any]], bool], timeout: float = 30.0
             ) -> dict[str, Any]:
    """The first message that ``want`` accepts; fails after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError("no such message in time")
        try:
            msg = json.loads(ws.recv(timeout=left))
        except TimeoutError:
            raise AssertionError("no such message in time") from None
        if want(msg):
            return dict(msg)


def presence_events(msg: dict[str, Any], after: int = -1) -> list[tuple[str, int]]:
    return [(e["kind"], e["player"]) for e in msg.get("events", [])
            if e["kind"] in PRESENCE and e["index"] > after]


# --- clocks ---------------------------------------------------------------------------------------
def test_the_server_ends_a_game_on_time_with_nobody_sending_anything(
    server: ServerProcess, client: httpx.Client
) -> None:
    g = create(client, "columns", ["human", "human"], clock="0.05+0")  # three seconds
    gid, t0, t1 = g["id"], g["seats"][0]["token"], g["seats"][1]["token"]
    st = get(client, gid, t0)
    assert st["clock"]["control"] == "0.05+0" and st["clock"]["base"] == 3.0
    assert st["clock"]["running"] is None  # the first turn is not timed
    after = play(client, gid, t0, st["legal"][0])
    moved = time.monotonic()
    assert after["clock"]["running"] == 1 and after["clock"]["remaining"][1] <= 3.0
    assert abs(after["clock"]["server_time"] / 1000 - time.time()) < 5
    with open_ws(server, gid, t0) as w0:  # only listens
        end = wait_for(w0, lambda m: m.get("type") == "state" and m["over"], timeout=30)
    assert time.monotonic() - moved >= 2.5  # not before the time ran out
    assert end["result"]["how"] == "time" and end["result"]["winners"] == [0]
    assert end["clock"]["running"] is None and end["clock"]["remaining"][1] == 0.0
    assert any(e["kind"] == "flag" and e["player"] == 1 for e in end["events"])
    assert end["result"]["text"] and end["result"]["rule"] is None
    r = client.post(f"/api/games/{gid}/moves", json={"move": end["history"][0]},
                    headers=auth(t1))
    assert r.status_code == 409 and r.json()["error"]["code"] == "game_over"


def test_a_bad_clock_is_refused(client: httpx.Client) -> None:
    for bad in ("fast", "0+0", "5+9999", "99d"):
        r = client.post("/api/games", json={"game": "columns", "seats": ["human", "human"],
                                            "clock": bad})
        assert r.status_code == 400 and r.json()["error"]["code"] == "bad_clock", bad
    g = create(client, "columns", ["human", "human"], clock="3d")
    st = get(client, g["id"])
    assert st["clock"]["days"] == 3 and st["clock"]["remaining"] == [3 * 86400.0] * 2
    assert get(client, create(client, "columns", ["human", "human"])["id"])["clock"] is None


def _service(tmp_path: Path) -> Any:
    """An in-process service without worker processes (computers think in threads)."""
    from rulebox.server.service import GameService
    from rulebox.server.store import Store

    return GameService(Store(f"sqlite:///{tmp_path / 's.db'}"), think_workers=1,
                       think_in_processes=False)


def test_a_request_that_finds_a_fallen_flag_ends_the_game_first_and_stores_it(
    tmp_path: Path
) -> None:
    """Another process (or a timer that never ran) left the flag fallen: the next request
    ends the game before anything else, and the ending is stored like any change."""
    from rulebox.server.service import GameService
    from rulebox.server.store import Store

    async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
        svc = _service(tmp_path)
        g = await svc.create("columns", {"seed": "2"}, ["human", "human"], clock="1+0")
        gid, t0 = g["id"], g["seats"][0]["token"]
        await svc.play(gid, t0, "Ra1")
        live = await svc.live(gid)
        assert live.clock_task is not None  # the timer is armed
        live.clock_task.cancel()
        live.clock_task = None
        clock = live.table.clock
        clock.since -= 120  # two minutes have passed for player 1
        seen = svc.payload(await svc.live(gid), 0)
        await svc.close()
        again = GameService(Store(f"sqlite:///{tmp_path / 's.db'}"), think_workers=1)
        try:
            stored = again.payload(await again.live(gid), None)
        finally:
            await again.close()
        return seen, stored

    seen, stored = asyncio.run(scenario())
    for st in (seen, stored):
        assert st["over"] and st["result"]["how"] == "time" and st["result"]["winners"] == [0]
        assert st["history"] == ["Ra1"]


# --- presence -------------------------------------------------------------------------------------
def test_presence_tells_the_others_when_a_seat_leaves_and_comes_back_but_not_on_a_reload(
    server: ServerProcess, client: httpx.Client
) -> None:
    from rulebox.server.service import PRESENCE_GRACE

    g = create(client, "columns", ["human", "human"])
    gid, t0, t1 = g["id"], g["seats"][0]["token"], g["seats"][1]["token"]
    assert get(client, gid)["presence"] == [False, False]
    with open_ws(server, gid, t0) as w0:
        first = wait_for(w0, lambda m: m.get("type") == "state")
        assert first["presence"] == [True, False]
        mark = max([e["index"] for e in first["events"]], default=-1)
        with open_ws(server, gid, t1):
            joined = wait_for(w0, lambda m: ("joined", 1) in presence_events(m, mark))
            assert joined["presence"] == [True, True]
        mark = max(e["index"] for e in joined["events"])
        gone = time.monotonic()
        left = wait_for(w0, lambda m: ("left", 1) in presence_events(m, mark),
                        timeout=PRESENCE_GRACE + 20)
        assert time.monotonic() - gone >= PRESENCE_GRACE - 0.5  # debounced
        assert left["presence"] == [True, False]
        assert [e["text"] for e in left["events"] if e["kind"] == "left"]
        mark = max(e["index"] for e in left["events"])
        with open_ws(server, gid, t1):
            back = wait_for(w0, lambda m: ("back", 1) in presence_events(m, mark))
            assert back["presence"] == [True, True]
        mark = max(e["index"] for e in back["events"])
        with open_ws(server, gid, t1) as again:  # a reload: the socket went, a new one came
            wait_for(again, lambda m: m.get("type") == "state")
            time.sleep(PRESENCE_GRACE + 1.5)
            st = get(client, gid, t0)
            assert presence_events(st, mark) == []  # said nothing
            assert st["presence"] == [True, True]


def test_a_computer_seat_is_always_present(client: httpx.Client) -> None:
    g = create(client, "columns", ["human", "computer:easy"])
    st = get(client, g["id"])
    assert st["presence"] == [False, True] and st["spectator"] is True and st["you"] is None


# --- your games -----------------------------------------------------------------------------------
def test_mine_lists_the_games_of_this_browser_and_leaves_out_the_bad_ones(
    client: httpx.Client
) -> None:
    a = create(client, "columns", ["human", "human"])
    b = create(client, "countred", ["human", "human"])
    ta, tb = a["seats"][0]["token"], b["seats"][1]["token"]
    st = get(client, a["id"], ta)
    play(client, a["id"], ta, st["legal"][0])
    body = {"games": [{"id": a["id"], "token": ta}, {"id": "nosuchgame", "token": None},
                      {"id": b["id"], "token": "forged"}, {"id": "../x", "token": ta},
                      {"id": b["id"], "token": tb}, {"id": a["id"], "token": None}]}
    r = client.post("/api/games/mine", json=body)
    assert r.status_code == 200, r.text
    games = {x["id"]: x for x in r.json()["games"]}
    assert set(games) == {a["id"], b["id"]}
    ga, gb = games[a["id"]], games[b["id"]]
    assert (ga["game"], ga["title"], ga["you"], ga["seat_name"]) == ("columns", "Columns", 0,
                                                                     "light")
    assert ga["to_move"] == 1 and ga["your_turn"] is False and ga["ply"] == 1
    assert ga["over"] is False and ga["result_line"] is None and ga["updated_at"]
    bst = get(client, b["id"], tb)
    assert gb["you"] == 1 and gb["your_turn"] == (bst["to_move"] == 1) and gb["ply"] == 0
    client.post(f"/api/games/{a['id']}/resign", headers=auth(ta))
    r = client.post("/api/games/mine", json={"games": [{"id": a["id"], "token": ta}]})
    (ga,) = r.json()["games"]
    assert ga["over"] and ga["result_line"] and ga["to_move"] is None
    assert ga["your_turn"] is False
    watching = client.post("/api/games/mine", json={"games": [{"id": b["id"], "token": None}]})
    assert watching.json()["games"][0]["you"] is None
    many = {"games": [{"id": a["id"], "token": ta}] * 51}
    r = client.post("/api/games/mine", json=many)
    assert r.status_code == 400 and r.json()["error"]["code"] == "malformed"


# --- the move log ---------------------------------------------------------------------------------
def test_the_log_describes_every_move_in_words_on_the_position_before_it(
    client: httpx.Client
) -> None:
    g = create(client, "columns", ["human", "human"], options={"seed": "9"})
    gid = g["id"]
    tokens = [s["token"] for s in g["seats"]]
    local = new_game("columns", {"seed": "9"})
    texts = []
    rng = random.Random(3)
    for _i in range(5):
        st = get(client, gid, tokens[local.current_player()])
        text = st["legal"][rng.randrange(len(st["legal"]))]
        move = local.parse(text)
        texts.append(local.describe(move))
        local.apply(move)
        play(client, gid, tokens[st["to_move"]], text)
    for token in (tokens[0], None):
        st = get(client, gid, token)
        log = st["log"]
        assert [e["turn"] for e in log] == [1, 2, 3, 4, 5]
        assert [e["player"] for e in log] == [0, 1, 0, 1, 0]
        assert [e["seat"] for e in log] == ["light", "dark", "light", "dark", "light"]
        assert [t for e in log for t in e["texts"]] == texts
        assert [m for e in log for m in e["moves"]] == st["history"]
        assert [(e["from_ply"], e["to_ply"]) for e in log] == [(i, i) for i in range(1, 6)]
        assert st["last"] == log[-1]
    assert get(client, gid, None)["spectator"] is True
    fresh = get(client, create(client, "columns", ["human", "human"])["id"])
    assert fresh["log"] == [] and fresh["last"] is None


def test_a_turn_of_several_actions_is_one_log_entry(client: httpx.Client) -> None:
    g = create(client, "columba", ["human", "human"])
    gid = g["id"]
    tokens = [s["token"] for s in g["seats"]]
    st = get(client, gid, tokens[0])
    first = st["to_move"]
    played = []
    while st["to_move"] == first:
        moves = [m for m in st["legal"] if m != "end"] or st["legal"]
        st = play(client, gid, tokens[first], moves[0])
        played.append(moves[0])
    assert len(played) >= 1
    st = get(client, gid, tokens[0])
    if st["history"] is None:
        assert st["log"] is None and st["last"] is None
        return
    (entry,) = st["log"]
    assert entry["player"] == first and entry["moves"] == played
    assert (entry["from_ply"], entry["to_ply"]) == (1, len(played))
    assert len(entry["texts"]) == len(played) and all(entry["texts"])
    assert st["last"] == entry


def test_the_result_says_who_won_in_words_without_rule_ids(client: httpx.Client) -> None:
    g = create(client, "countred", ["human", "human"], hotseat=True)
    gid = g["id"]
    tokens = [s["token"] for s in g["seats"]]
    rng = random.Random(8)
    st = get(client, gid, None)
    while not st["over"]:
        st = get(client, gid, tokens[st["to_move"]])
        st = play(client, gid, tokens[st["to_move"]],
                  st["legal"][rng.randrange(len(st["legal"]))])
    res = st["result"]
    assert res["how"] == "rules" and res["text"]
    assert "[" not in res["text"] and "CR-" not in res["text"]
    if "CR-" in res["reason"]:
        assert res["rule"] is not None and res["rule"].startswith("CR-")
    assert isinstance(res["highlight"], list)
    # undo after the end of the game is refused, even at a shared screen
    r = client.post(f"/api/games/{gid}/undo", headers=auth(tokens[0]))
    assert r.status_code == 409 and r.json()["error"]["code"] == "game_over"
    assert get(client, gid, None)["history"] == st["history"]


# --- the computer ---------------------------------------------------------------------------------
def test_the_payload_says_when_the_computer_is_thinking(client: httpx.Client) -> None:
    g = create(client, "columns", ["human", "computer:easy"])
    gid, t0 = g["id"], g["seats"][0]["token"]
    st = get(client, gid, t0)
    assert st["thinking"] is None
    after = play(client, gid, t0, st["legal"][0])
    assert after["thinking"] == 1 and after["to_move"] == 1
    deadline = time.monotonic() + 60
    st = after
    while st["to_move"] != 0 and time.monotonic() < deadline:
        time.sleep(0.1)
        st = get(client, gid, t0)
    assert st["to_move"] == 0 and st["thinking"] is None
    assert st["last"]["player"] == 1 and st["last"]["texts"]


# --- sockets --------------------------------------------------------------------------------------
def test_a_socket_answers_a_ping(server: ServerProcess, client: httpx.Client) -> None:
    g = create(client, "columns", ["human", "human"])
    with open_ws(server, g["id"], g["seats"][0]["token"]) as w:
        w.send(json.dumps({"type": "ping"}))
        pong = wait_for(w, lambda m: m.get("type") == "pong", timeout=10)
    assert abs(pong["server_time"] / 1000 - time.time()) < 5


def test_each_socket_gets_its_payload_built_in_its_own_language(tmp_path: Path) -> None:
    class FakeSocket:
        def __init__(self) -> None:
            self.sent: list[dict[str, Any]] = []

        async def send_json(self, data: dict[str, Any]) -> None:
            self.sent.append(data)

    async def scenario() -> dict[str, list[str]]:
        svc = _service(tmp_path)
        built: list[tuple[int | None, str]] = []
        real = svc.payload

        def spy(live: Any, seat: int | None) -> dict[str, Any]:
            built.append((seat, language()))
            return dict(real(live, seat))

        svc.payload = spy
        g = await svc.create("columns", {}, ["human", "human"])
        live = await svc.live(g["id"])
        de, en = FakeSocket(), FakeSocket()
        with use_language("de"):
            await svc.attach(live, de, None)
        with use_language("en"):
            await svc.attach(live, en, None)
        built.clear()
        with use_language("ru"):  # the mover's language is not the sockets'
            await svc.broadcast(live)
        await svc.close()
        return {"built": [lang for _seat, lang in built],
                "de": [m["type"] for m in de.sent], "en": [m["type"] for m in en.sent]}

    out = asyncio.run(scenario())
    assert sorted(out["built"]) == ["de", "en"]
    assert out["de"] and out["en"]


def test_each_socket_reads_the_log_in_the_language_of_its_url(
    server: ServerProcess, client: httpx.Client
) -> None:
    g = create(client, "columns", ["human", "human"], options={"seed": "2"})
    gid, t0 = g["id"], g["seats"][0]["token"]
    local = new_game("columns", {"seed": "2"})
    first = get(client, gid, t0)["legal"][0]
    want = {}
    for lang in ("en", "de", "ru"):
        with use_language(lang):
            want[lang] = local.describe(local.parse(first))
    assert len(set(want.values())) == 3  # the catalogue translates this move's words
    with open_ws(server, gid, None, "de") as de, open_ws(server, gid, None, "ru") as ru, \
            open_ws(server, gid, None) as en:
        for w in (de, ru, en):
            wait_for(w, lambda m: m.get("type") == "state")
        play(client, gid, t0, first)
        got = {lang: wait_for(w, lambda m: m.get("type") == "state" and m["ply"] == 1)
               for lang, w in (("de", de), ("ru", ru), ("en", en))}
    for lang, msg in got.items():
        assert msg["last"]["texts"] == [want[lang]], lang
    r = client.get(f"/api/games/{gid}?lang=de")
    assert r.json()["log"][0]["texts"] == [want["de"]]


def test_a_declined_draw_offer_is_an_event_of_kind_declined(client: httpx.Client) -> None:
    g = create(client, "columns", ["human", "human"])
    gid, t0, t1 = g["id"], g["seats"][0]["token"], g["seats"][1]["token"]
    r = client.post(f"/api/games/{gid}/draw", json={"action": "offer"}, headers=auth(t0))
    assert r.status_code == 200 and r.json()["draw_offer"] == 0
    r = client.post(f"/api/games/{gid}/draw", json={"action": "decline"}, headers=auth(t1))
    assert r.status_code == 200
    st = get(client, gid, t0)
    declined = [e for e in st["events"] if e["kind"] == "declined"]
    assert len(declined) == 1 and declined[0]["player"] == 1 and declined[0]["text"]
    assert st["draw_offer"] is None and not st["over"]


def test_at_a_hot_seat_table_one_socket_is_there_for_every_person(
    server: ServerProcess, client: httpx.Client
) -> None:
    g = create(client, "columns", ["human", "human"], hotseat=True)
    with open_ws(server, g["id"], g["seats"][0]["token"]) as w:
        st = wait_for(w, lambda m: m.get("type") == "state")
    assert st["presence"] == [True, True]
    assert not presence_events(st)  # people sharing a screen are not announced
