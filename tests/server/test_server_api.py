"""The JSON API against a real server: creating games, moves, refusals, computers, undo,
replay (a restart: tests/server/test_cluster_restart.py). Each test runs on SQLite and
(when configured) on PostgreSQL."""

from __future__ import annotations

import random
from typing import Any

import httpx
import pytest

from rulebox.core.registry import game_entry, game_ids, new_game
from tests.server.api_helpers import auth, create, get, move, wait_turn


def columns_pair(client: httpx.Client) -> tuple[str, str, str]:
    g = create(client, "columns", ["human", "human"], seed="5")
    return g["id"], g["seats"][0]["token"], g["seats"][1]["token"]


def test_create_answers_id_and_a_token_per_human_seat(client: httpx.Client) -> None:
    g = create(client, "columns", ["human", "computer"])
    assert g["id"] and g["game"] == "columns"
    assert [s["player"] for s in g["seats"]] == [0, 1]
    assert isinstance(g["seats"][0]["token"], str) and len(g["seats"][0]["token"]) >= 20
    assert g["seats"][1]["token"] is None


def test_get_shows_legal_moves_only_to_the_seat_to_move(client: httpx.Client) -> None:
    gid, t0, t1 = columns_pair(client)
    me = get(client, gid, t0)
    assert me["you"] == 0 and me["to_move"] == 0
    assert "Ra1" in me["legal"] and len(me["legal"]) == 75
    other = get(client, gid, t1)
    assert other["you"] == 1 and other["legal"] == []
    spectator = get(client, gid)
    assert spectator["you"] is None and spectator["legal"] == []
    assert spectator["view"] == new_game("columns", {"seed": "5"}).view(None)
    assert me["history"] == [] and me["result"] is None and me["ply"] == 0


def test_move_is_played_and_answers_the_new_position(client: httpx.Client) -> None:
    gid, t0, t1 = columns_pair(client)
    r = move(client, gid, t0, "  ra1 ")
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["move"] == "Ra1" and body["history"] == ["Ra1"] and body["to_move"] == 1
    assert body["view"]["position"]["pins"]["a1"] == ["0R"]
    assert get(client, gid, t1)["legal"]


def _unchanged(client: httpx.Client, gid: str, before: dict[str, Any]) -> None:
    after = get(client, gid)
    assert after["history"] == before["history"] and after["version"] == before["version"]
    assert after["view"] == before["view"]


def test_move_out_of_turn_is_refused_and_changes_nothing(client: httpx.Client) -> None:
    gid, _t0, t1 = columns_pair(client)
    before = get(client, gid)
    r = move(client, gid, t1, "Ra1")
    assert r.status_code == 409
    assert r.json()["error"]["code"] == "not_your_turn"
    _unchanged(client, gid, before)


def test_move_for_another_seat_is_refused(client: httpx.Client) -> None:
    gid, t0, _ = columns_pair(client)
    before = get(client, gid)
    r = move(client, gid, t0, "Ra1", player=1)
    assert r.status_code == 403 and r.json()["error"]["code"] == "wrong_seat"
    _unchanged(client, gid, before)


def test_illegal_move_is_refused_with_rule_and_reason(client: httpx.Client) -> None:
    gid, t0, t1 = columns_pair(client)
    assert move(client, gid, t0, "Sa1").status_code == 200
    before = get(client, gid)
    r = move(client, gid, t1, "Ra1")
    assert r.status_code == 422
    err = r.json()["error"]
    assert err["code"] == "illegal" and err["rule"] == "COL-4"
    assert "opponent's blocker" in err["reason"]
    assert err["message"].startswith("illegal:") and "[COL-4]" in err["message"]
    _unchanged(client, gid, before)


@pytest.mark.parametrize("text", ["Rz9", "hello", "", "T a1 b1", "D a1"])
def test_malformed_move_is_refused(client: httpx.Client, text: str) -> None:
    gid, t0, _ = columns_pair(client)
    before = get(client, gid)
    r = move(client, gid, t0, text)
    assert r.status_code == 400, r.text
    assert r.json()["error"]["code"] in ("malformed", "ambiguous")
    _unchanged(client, gid, before)


@pytest.mark.parametrize("payload", [{"move": 17}, {"move": None}, {"nomove": "Ra1"}, [1, 2],
                                     "text"])
def test_move_of_the_wrong_shape_is_refused(client: httpx.Client, payload: Any) -> None:
    gid, t0, _ = columns_pair(client)
    before = get(client, gid)
    r = client.post(f"/api/games/{gid}/moves", json=payload, headers=auth(t0))
    assert 400 <= r.status_code < 500 and "error" in r.json()
    _unchanged(client, gid, before)


def test_oversized_moves_and_bodies_are_refused(client: httpx.Client) -> None:
    gid, t0, _ = columns_pair(client)
    before = get(client, gid)
    r = move(client, gid, t0, "R" * 5000)
    assert r.status_code == 413 and r.json()["error"]["code"] == "oversized"
    r = client.post(f"/api/games/{gid}/moves", content=b'{"move": "' + b"a" * 200_000 + b'"}',
                    headers={**auth(t0), "Content-Type": "application/json"})
    assert r.status_code == 413
    _unchanged(client, gid, before)


def test_bad_tokens_are_refused(client: httpx.Client) -> None:
    gid, _t0, _ = columns_pair(client)
    _other, o0, _ = columns_pair(client)
    before = get(client, gid)
    for headers in ({"Authorization": "Bearer nonsense"}, {"Authorization": "Basic abc"},
                    auth(o0), {}):
        r = client.post(f"/api/games/{gid}/moves", json={"move": "Ra1"}, headers=headers)
        assert r.status_code == 401, (headers, r.text)
        assert "error" in r.json()
    assert client.get(f"/api/games/{gid}", headers=auth("wrong")).status_code == 401
    _unchanged(client, gid, before)


def test_unknown_games_and_bad_requests(client: httpx.Client) -> None:
    assert client.get("/api/games/doesnotexist").status_code == 404
    assert client.get("/api/games/../etc").status_code == 404
    assert move(client, "nope", "x", "Ra1").status_code in (401, 404)
    for body in ({"game": "chess", "seats": ["human", "human"]},
                 {"game": "columns", "seats": ["human"]},
                 {"game": "columns", "seats": ["human", "deep-thought"]},
                 {"game": "columns", "seats": ["human", "human"], "options": {"first": "7"}},
                 {"game": "columns", "seats": ["human", "human"], "options": {"zzz": "1"}},
                 {"game": "columns"}):
        r = client.post("/api/games", json=body)
        assert r.status_code == 400, (body, r.text)
        assert r.json()["error"]["message"]


def test_a_whole_game_to_the_end_then_replay(client: httpx.Client) -> None:
    gid, t0, t1 = columns_pair(client)
    tokens = [t0, t1]
    rng = random.Random(1)
    st = get(client, gid, t0)
    while not st["over"]:
        token = tokens[st["to_move"]]
        legal = get(client, gid, token)["legal"]
        r = move(client, gid, token, rng.choice(legal))
        assert r.status_code == 200, r.text
        st = r.json()
    assert st["result"]["line"].startswith("over winner=")
    assert move(client, gid, t0, "Ra1").status_code == 409
    local = new_game("columns", {"seed": "5"})
    for ply in (0, 1, len(st["history"])):
        r = client.get(f"/api/games/{gid}/replay", params={"ply": ply})
        assert r.status_code == 200
        body = r.json()
        assert body["ply"] == ply and body["plies"] == len(st["history"])
        replayed = local.clone()
        for text in st["history"][:ply]:
            replayed.apply(text)
        assert body["view"] == replayed.view(None)
    assert client.get(f"/api/games/{gid}/replay", params={"ply": 999}).status_code == 404


def test_computer_seat_moves_by_itself_and_undo_takes_back_to_my_turn(
    client: httpx.Client,
) -> None:
    g = create(client, "columns", ["human", "computer:easy"], seed="2")
    gid, token = g["id"], g["seats"][0]["token"]
    assert move(client, gid, token, "Ra1").status_code == 200
    st = wait_turn(client, gid, token, 0)
    assert len(st["history"]) == 2 and st["can_undo"]
    r = client.post(f"/api/games/{gid}/undo", headers=auth(token))
    assert r.status_code == 200, r.text
    assert r.json()["history"] == [] and r.json()["to_move"] == 0
    assert get(client, gid)["history"] == []


def test_computer_moves_first_when_it_holds_seat_0(client: httpx.Client) -> None:
    g = create(client, "columns", ["computer:easy", "human"])
    st = wait_turn(client, g["id"], g["seats"][1]["token"], 1)
    assert len(st["history"]) == 1 and st["legal"]


def test_undo_is_refused_between_two_people_online(client: httpx.Client) -> None:
    gid, t0, _t1 = columns_pair(client)
    assert move(client, gid, t0, "Ra1").status_code == 200
    r = client.post(f"/api/games/{gid}/undo", headers=auth(t0))
    assert r.status_code == 403
    assert get(client, gid)["history"] == ["Ra1"]


def test_hotseat_undo_takes_back_one_move(client: httpx.Client) -> None:
    r = client.post("/api/games", json={"game": "columns", "seats": ["human", "human"],
                                        "hotseat": True})
    g = r.json()
    t0, t1 = g["seats"][0]["token"], g["seats"][1]["token"]
    assert move(client, g["id"], t0, "Ra1").status_code == 200
    assert move(client, g["id"], t1, "Rb1").status_code == 200
    r = client.post(f"/api/games/{g['id']}/undo", headers=auth(t0))
    assert r.status_code == 200 and r.json()["history"] == ["Ra1"]


def test_rules_catalog_and_openapi(client: httpx.Client) -> None:
    cat = client.get("/api/catalog").json()
    ids = [g["id"] for g in cat["games"]]
    assert ids == game_ids()
    r = client.get("/api/rules/columns").json()
    assert "COL-4" in r["text"] and r["notation"]
    assert client.get("/api/rules/nosuchgame").status_code == 404
    spec = client.get("/openapi.json").json()
    for path in ("/api/games", "/api/games/{gid}", "/api/games/{gid}/moves"):
        assert path in spec["paths"]


@pytest.mark.parametrize("game_id", game_ids())
def test_every_game_plays_through_the_api(client: httpx.Client, game_id: str) -> None:
    entry = game_entry(game_id)
    n = entry.cls.player_counts[0]
    g = create(client, game_id, ["human"] * n, seed="11")
    tokens = [s["token"] for s in g["seats"]]
    rng = random.Random(3)
    st = get(client, g["id"], tokens[0])
    for _ in range(12):
        if st["over"]:
            break
        token = tokens[st["to_move"]]
        legal = get(client, g["id"], token)["legal"]
        assert legal
        r = move(client, g["id"], token, rng.choice(legal))
        assert r.status_code == 200, r.text
        st = r.json()


@pytest.mark.parametrize("game_id", [g for g in game_ids()
                                     if max(game_entry(g).cls.player_counts) > 1])
def test_every_game_against_the_computer(client: httpx.Client, game_id: str) -> None:
    n = game_entry(game_id).cls.player_counts[0]
    g = create(client, game_id, ["human"] + ["computer:easy"] * (n - 1), seed="21")
    gid, token = g["id"], g["seats"][0]["token"]
    rng = random.Random(4)
    computer_moved = False
    for _ in range(40):
        st = wait_turn(client, gid, token, 0, timeout=60)
        if st["over"]:
            break
        ply = st["ply"]
        r = move(client, gid, token, rng.choice(st["legal"]))
        assert r.status_code == 200, r.text
        if r.json()["to_move"] not in (0, None):
            st = wait_turn(client, gid, token, 0, timeout=60)
            assert st["ply"] > ply + 1
            computer_moved = True
            break
    assert computer_moved or st["over"]
    r = client.post(f"/api/games/{gid}/undo", headers=auth(token))
    assert r.status_code == 200 and r.json()["to_move"] == 0


def test_solitaire_undo_takes_back_a_move_and_its_card(client: httpx.Client) -> None:
    g = create(client, "36to1", ["human"], seed="3")
    gid, token = g["id"], g["seats"][0]["token"]
    before = get(client, gid, token)
    assert move(client, gid, token, before["legal"][0]).status_code == 200
    r = client.post(f"/api/games/{gid}/undo", headers=auth(token))
    assert r.status_code == 200
    assert r.json()["view"] == before["view"] and r.json()["legal"] == before["legal"]


def test_explain_answers_the_games_own_explanation(client: httpx.Client) -> None:
    g = create(client, "countred", ["human", "human"], seed="4")
    r = client.get(f"/api/games/{g['id']}/explain", params={"q": "B2"})
    assert r.status_code == 200 and "CR-4" in r.json()["text"]
    assert client.get(f"/api/games/{g['id']}/explain", params={"q": "x" * 300}).status_code == 400
    c = create(client, "columns", ["human", "human"])
    assert client.get(f"/api/games/{c['id']}/explain", params={"q": "a1"}).status_code == 404


def draw(client: httpx.Client, gid: str, token: str, action: str) -> httpx.Response:
    return client.post(f"/api/games/{gid}/draw", json={"action": action}, headers=auth(token))


def test_draw_by_agreement(client: httpx.Client) -> None:
    gid, t0, t1 = columns_pair(client)
    assert draw(client, gid, t1, "accept").status_code == 409  # nothing offered
    r = draw(client, gid, t0, "offer")
    assert r.status_code == 200 and r.json()["draw_offer"] == 0
    assert draw(client, gid, t0, "accept").status_code == 409  # not one's own offer
    assert draw(client, gid, t1, "decline").json()["draw_offer"] is None
    draw(client, gid, t0, "offer")
    assert move(client, gid, t0, "Ra1").status_code == 200
    assert get(client, gid)["draw_offer"] is None  # a move lets the offer lapse
    draw(client, gid, t1, "offer")
    r = draw(client, gid, t0, "accept")
    assert r.status_code == 200
    st = get(client, gid)
    assert st["over"] and st["result"]["winners"] == [] and "agreement" in st["result"]["reason"]
    assert st["to_move"] is None and get(client, gid, t1)["legal"] == []
    assert move(client, gid, t1, "Rb1").status_code == 409
    assert draw(client, gid, t0, "offer").status_code == 409


def test_the_computer_declines_a_draw(client: httpx.Client) -> None:
    g = create(client, "columns", ["human", "computer:easy"])
    r = draw(client, g["id"], g["seats"][0]["token"], "offer")
    assert r.status_code == 409 and r.json()["error"]["code"] == "declined"


def test_rematch_keeps_the_seats_and_tokens(client: httpx.Client) -> None:
    gid, t0, t1 = columns_pair(client)
    assert client.post(f"/api/games/{gid}/rematch", headers=auth(t0)).status_code == 409
    draw(client, gid, t0, "offer")
    draw(client, gid, t1, "accept")
    r = client.post(f"/api/games/{gid}/rematch", headers=auth(t1))
    assert r.status_code == 200
    new = r.json()["id"]
    assert new != gid and get(client, gid)["rematch"] == new
    assert client.post(f"/api/games/{gid}/rematch", headers=auth(t0)).json()["id"] == new
    st = get(client, new, t0)
    assert st["you"] == 0 and st["ply"] == 0 and st["legal"]
    assert get(client, new, t1)["you"] == 1


def test_countred_rematch_follows_its_rule(client: httpx.Client) -> None:
    g = create(client, "countred", ["human", "human"], seed="4", first="0", even="0")
    t0, t1 = (s["token"] for s in g["seats"])
    draw(client, g["id"], t0, "offer")
    draw(client, g["id"], t1, "accept")
    new = client.post(f"/api/games/{g['id']}/rematch", headers=auth(t0)).json()["id"]
    opts = get(client, new)["options"]
    assert opts["first"] == "1" and opts["even"] == "1"  # CR-15: after a draw both alternate


def test_columba_with_four_players_in_two_teams(client: httpx.Client) -> None:
    g = create(client, "columba", ["human", "computer:easy", "human", "computer:easy"], seed="6")
    assert len(g["seats"]) == 4
    st = get(client, g["id"], g["seats"][0]["token"])
    assert st["options"]["players"] == "4" and len(st["seats"]) == 4 and st["legal"]
    r = client.post("/api/games", json={"game": "columba", "seats": ["human"] * 5})
    assert r.status_code == 400
