"""Columba: the JSON state round-trips, corrupt positions are refused, views hide the deck."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from rulebox.core.errors import InvalidMoveError, StateError
from rulebox.core.registry import game_entry
from rulebox.games.columba.rules import Columba


def played(options: dict[str, str], plies: int, seed: int = 0) -> Columba:
    g = Columba.new(options)
    rng = random.Random(seed)
    for _ in range(plies):
        if g.is_terminal():
            break
        moves = g.legal_moves()
        g.apply(moves[rng.randrange(len(moves))])
    return g


@pytest.mark.parametrize("players", ["2", "3", "4"])
def test_state_round_trip_with_history(players: str) -> None:
    g = played({"players": players, "seed": "11"}, 60)
    state = json.loads(json.dumps(g.to_json()))
    again = Columba.from_json(state)
    assert again.to_json() == g.to_json()
    assert sorted(map(str, again.legal_moves())) == sorted(map(str, g.legal_moves()))
    again.undo()  # the history replays, so undo works


def test_state_round_trip_of_a_drawn_position() -> None:
    g = played({"players": "4", "seed": "3"}, 80)
    state = g.to_json()
    state["history"] = []
    again = Columba.from_json(state)
    assert again.position_json() == g.position_json()
    assert sorted(map(str, again.legal_moves())) == sorted(map(str, g.legal_moves()))


def _corrupt(mutate: Any) -> dict[str, Any]:
    g = played({"seed": "4"}, 30)
    state = json.loads(json.dumps(g.to_json()))
    state["history"] = []
    mutate(state["position"])
    return state


CORRUPTIONS = {
    "unknown phase": lambda p: p.update(phase="lunch"),
    "no hand in place phase": lambda p: p.update(phase="place", hand=None),
    "unknown card in deck": lambda p: p["deck"].append("C99"),
    "card twice": lambda p: p["deck"].append(p["hand"]),
    "bad colour": lambda p: p["squares"].update({"0,0": ["field", "Q", "C01", 0]}),
    "bad square": lambda p: p["squares"].update({"a,b": ["field", "W", "C01", 0]}),
    "detached square": lambda p: p["squares"].update({"90,90": ["field", "W", "C01", -1]}),
    "extra tile in reserve": lambda p: p["players"][0]["reserve"].update(W=5),
    "dovecote on nothing": lambda p: p["cotes"].update({"99,99": [0, "small"]}),
    "too many dovecotes": lambda p: p["players"][0]["cotes"].update(small=3, large=1)
    if p["cotes"] else p["players"][0]["cotes"].update(small=4),
    "falcon count": lambda p: p["players"][1].update(adults=3),
    "to_move out of range": lambda p: p.update(to_move=7),
    "full objective": lambda p: p["players"][0].update(slots=[True] * 4),
    "players missing": lambda p: p["players"].pop(),
    "tile laid this turn elsewhere": lambda p: p["this_turn"].update(tiles=["0,0"]),
}


@pytest.mark.parametrize("name", list(CORRUPTIONS))
def test_corrupt_positions_raise_state_error(name: str) -> None:
    with pytest.raises(StateError):
        Columba.from_json(_corrupt(CORRUPTIONS[name]))


def test_two_dovecotes_in_one_region_are_corrupt() -> None:
    # one card, W W over K K; red's and purple's dovecotes on the white pair
    with pytest.raises(StateError, match="CB-9"):
        Columba.from_diagram("2 0,0 WW/KK aa/aa a=C01@-1 - 0,0=S0;1,0=S1 t0 0p C02 - "
                             "S1:WGKB/-/-/0 S2:WGBK/-/-/0 C03")
    # apart they are two estates (a real card this time, C12 printed GW/KK: the check of the
    # layout comes after CB-9's)
    game = Columba.from_diagram("2 0,0 GW/KK aa/aa a=C12@-1 - 0,0=S0;1,1=S1 t0 0p C02 - "
                                "S1:WGKB/-/-/0 S2:WGBK/-/-/0 C03")
    assert game.cotes_left(0) == (2, 1) and len(game.estates()) == 2


# --- hidden information --------------------------------------------------------------------------
DECK_A = "C05,C11,C20,C02,C17,C30,C01,C09,C14,C22,C03,C27"
DECK_B = "C05,C11,C20,C02,C17,C30,C01,C09,C22,C14,C27,C03"  # the same but the last 4 reordered


def test_views_do_not_depend_on_cards_nobody_has_seen() -> None:
    a = Columba.new({"deck": DECK_A, "seed": "1", "players": "3"})
    b = Columba.new({"deck": DECK_B, "seed": "2", "players": "3"})
    rng = random.Random(8)
    for _ in range(40):
        for p in [None, 0, 1, 2]:
            assert a.view(p) == b.view(p)
        assert a.hand == b.hand
        moves = a.legal_moves()
        assert sorted(map(str, moves)) == sorted(map(str, b.legal_moves()))
        if a.cards_left() <= 4 and a.phase == "goal":
            break
        m = moves[rng.randrange(len(moves))]
        if m.verb == "end" and a.cards_left() <= 4:
            break  # the next draw would reveal a card in which the decks differ
        a.apply(str(m))
        b.apply(str(m))
    assert a.position_json() != b.position_json()  # the deck orders do differ


def test_view_names_no_deck_order_and_no_seed() -> None:
    g = Columba.new({"seed": "5"})
    view = json.dumps(g.view(0))
    assert '"deck"' not in view and "seed" not in g.view(1)["options"]
    assert g.view(None)["position"]["cards_left"] == 28
    for cid in g.position_json()["deck"]:
        assert cid not in view


def test_determinize_reshuffles_only_the_unseen_cards() -> None:
    g = played({"seed": "6", "players": "2"}, 25)
    d = g.determinize(0, random.Random(1))
    assert d.view(0) == g.view(0)
    assert sorted(d.position_json()["deck"]) == sorted(g.position_json()["deck"])
    orders = {tuple(g.determinize(0, random.Random(s)).position_json()["deck"]) for s in range(5)}
    assert len(orders) > 1


# --- notation ------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["place", "place 1 r90", "place 1,2 r45", "tile X 1,2",
                                  "cote medium 1,1", "falcon", "hop", "tile W 900,1"])
def test_malformed_actions(text: str) -> None:
    with pytest.raises(InvalidMoveError):
        Columba.new({"seed": "1"}).parse_move(text)


def test_notation_is_forgiving_and_canonical() -> None:
    g = Columba.new({"seed": "1"})
    assert str(g.parse_move("  PLACE  -1 , 2   R90 ")) == "place -1,2 r90"
    assert str(g.parse_move("Cote Large 3,-4")) == "cote large 3,-4"
    assert str(g.parse_move("tile k 0,5")) == "tile K 0,5"
    for m in g.legal_moves():
        assert g.parse_move(str(m)) == m


def test_render_and_explain() -> None:
    entry = game_entry("columba")
    g = played({"seed": "2", "players": "4"}, 70)
    text = entry.render(g, 1).plain
    assert "red" in text and "green" in text and "cards left" in text
    assert entry.explain is not None
    g2 = Columba.new({"seed": "2"})
    assert "may go to" in entry.explain(g2, "card")
    assert "0,0" in entry.explain(g2, "0,0")
    officia = Columba.new({"officia": "1", "roles": "thief,peasant"})
    assert "thief" in entry.explain(officia, "roles")
    assert "estates" in entry.explain(g2, "nonsense")


def test_clones_and_undo_stay_independent() -> None:
    g = played({"seed": "12", "players": "3"}, 40)
    c = g.clone()
    g.undo()
    c.undo()  # both come back to the same recorded position
    back = c.to_json()
    assert g.to_json() == back
    for m in g.legal_moves()[:5]:
        g.apply(m)
        assert c.to_json() == back  # playing on the original leaves the clone alone
        g.undo()
    c.apply(c.legal_moves()[-1])
    assert g.to_json() == back


def test_a_drawn_start_survives_clone_and_round_trip() -> None:
    g = played({"seed": "13"}, 20)
    state = g.to_json()
    state["history"] = []
    drawn = Columba.from_json(state)  # a drawn position: no history, taken as given
    drawn.apply(drawn.legal_moves()[0])
    copy = drawn.clone()
    again = Columba.from_json(copy.to_json())
    assert again.to_json() == drawn.to_json()
    again.undo()
    assert again.position_json() == g.position_json()
