"""Issue 19's medium findings through the API: hidden orders dealt from OS randomness (a
creator's ``seed=`` still repeats a game exactly), an arranged deal announced to
every seat and in the lobby, and the fair-deal commitment of 36 to 1 and Columba revealed at
the end, checked by ``rulebox verify``."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from rulebox.core.registry import new_game
from rulebox.match.fairness import FairnessError, deal_order, verify
from rulebox.server.store import Store
from tests.server.api_helpers import auth, create, get


def _play(client: httpx.Client, gid: str, token: str, moves: int) -> None:
    for _ in range(moves):
        st = get(client, gid, token)
        if st["over"] or not st["legal"]:
            return
        r = client.post(f"/api/games/{gid}/moves", headers=auth(token),
                        json={"move": st["legal"][len(st["legal"]) // 2],
                              "version": st["version"]})
        assert r.status_code == 200, r.text


def test_server_deals_do_not_follow_from_a_seed(client: httpx.Client, db_url: str) -> None:
    """The hidden order comes from the OS's randomness, not from the game's seed (which was
    31 bits): dealing by the stored seed gives another order than the stored deck."""
    ids = [create(client, game, seats)["id"] for game, seats in (
        ("36to1", ["human"]), ("36to1", ["human"]), ("columba", ["human", "human"]))]
    store = Store(db_url)
    try:
        stored = [store.load(gid) for gid in ids]
    finally:
        store.close()
    decks = []
    for st in stored:
        assert st is not None
        options = st.state["options"]
        assert "deck" in options
        by_seed = new_game(st.game, {k: v for k, v in options.items() if k != "deck"})
        assert deal_order(by_seed) != options["deck"].split(","), "the deck follows the seed"
        decks.append(options["deck"])
    assert len(set(decks)) == 3


def test_a_creators_seed_repeats_the_game(client: httpx.Client) -> None:
    for game, seats in (("36to1", ["human"]), ("columba", ["human", "human"])):
        a, b = (create(client, game, seats, seed="77") for _ in range(2))
        va = get(client, a["id"], a["seats"][0]["token"])["view"]
        vb = get(client, b["id"], b["seats"][0]["token"])["view"]
        assert va == vb
        local = new_game(game, {"seed": "77"})
        assert va == local.view(0)


def test_an_arranged_deal_is_announced_to_every_seat_and_in_the_lobby(
        client: httpx.Client) -> None:
    g = create(client, "columba", ["human", "human"], seed="5")
    fresh = create(client, "columba", ["human", "human"])
    for tok in (g["seats"][0]["token"], g["seats"][1]["token"], None):
        st = get(client, g["id"], tok)
        assert st["arranged"] is True and st["fairness"]["arranged"] is True
    st = get(client, fresh["id"], fresh["seats"][1]["token"])
    assert st["arranged"] is False and st["fairness"]["arranged"] is False
    deck = create(client, "columns", ["human", "human"], seed="3")
    assert get(client, deck["id"])["arranged"] is True
    lobby = {x["id"]: x for x in client.get("/api/games").json()["games"]}
    assert lobby[g["id"]]["arranged"] is True and lobby[fresh["id"]]["arranged"] is False


@pytest.mark.parametrize(("game", "seats"), [("36to1", ["human"]),
                                              ("columba", ["human", "human"])])
def test_the_deal_is_committed_then_revealed_and_verifies(
        client: httpx.Client, tmp_path: Path, game: str, seats: list[str]) -> None:
    g = create(client, game, seats)
    gid, token = g["id"], g["seats"][0]["token"]
    first = get(client, gid, token)
    commitment = first["fairness"]["commitment"]
    assert len(commitment) == 64 and int(commitment, 16) >= 0
    assert "reveal" not in first["fairness"] and "log" not in first["fairness"]
    _play(client, gid, token, 6)
    assert get(client, gid, token)["fairness"]["commitment"] == commitment  # never changes
    assert client.post(f"/api/games/{gid}/resign", headers=auth(token)).status_code == 200
    end = get(client, gid, token)
    fair = end["fairness"]
    assert fair["commitment"] == commitment and end["over"]
    assert hashlib.sha256(fair["reveal"].encode()).hexdigest() == commitment
    verify(commitment, fair["reveal"], fair["options"], fair["log"], end["view"], 0)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(end))
    out = subprocess.run([sys.executable, "-m", "rulebox.cli.verify", str(path)],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and out.stdout.startswith("fair:"), out
    forged = dict(end, fairness=dict(fair, reveal=fair["reveal"].replace("salt ", "salt 0")))
    path.write_text(json.dumps(forged))
    out = subprocess.run([sys.executable, "-m", "rulebox.cli.verify", str(path)],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 1 and "NOT FAIR" in out.stdout


def test_takebacks_reshuffle_from_the_committed_key(client: httpx.Client) -> None:
    g = create(client, "36to1", ["human"])
    gid, token = g["id"], g["seats"][0]["token"]
    _play(client, gid, token, 3)
    st = get(client, gid, token)
    r = client.post(f"/api/games/{gid}/undo", headers=auth(token),
                    json={"version": st["version"]})
    assert r.status_code == 200, r.text
    _play(client, gid, token, 2)
    assert client.post(f"/api/games/{gid}/resign", headers=auth(token)).status_code == 200
    end = get(client, gid, token)
    fair = end["fairness"]
    assert any(s.startswith("!reshuffle ") for s in fair["log"])
    verify(fair["commitment"], fair["reveal"], fair["options"], fair["log"], end["view"], 0)
    bad = [s if not s.startswith("!reshuffle ") else "!reshuffle 12345" for s in fair["log"]]
    with pytest.raises(FairnessError):
        verify(fair["commitment"], fair["reveal"], fair["options"], bad)


def test_a_fresh_rematch_is_dealt_anew_and_committed(client: httpx.Client) -> None:
    g = create(client, "36to1", ["human"], deck=",".join(_order()))
    token = g["seats"][0]["token"]
    assert get(client, g["id"], token)["arranged"] is True
    client.post(f"/api/games/{g['id']}/resign", headers=auth(token))
    new = client.post(f"/api/games/{g['id']}/rematch", headers=auth(token)).json()["id"]
    st = get(client, new, token)
    assert st["arranged"] is False and st["fairness"]["commitment"]
    assert st["view"]["faceup"] != get(client, g["id"], token)["view"]["faceup"] or \
        st["fairness"]["commitment"] != get(client, g["id"], token)["fairness"]["commitment"]


def _order() -> list[str]:
    return deal_order(new_game("36to1", {"seed": "11"}))
