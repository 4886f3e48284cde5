"""Discs state: the JSON round trip, drawn positions, and corrupt positions refused."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from rulebox.core.errors import NothingToUndoError, StateError
from rulebox.games.discs.rules import Discs
from tests.games.discs.discs_helpers import START, drawn, start


def _played(seed: int, plies: int) -> Discs:
    game = start()
    rng = random.Random(seed)
    for _ in range(plies):
        if game.is_terminal():
            break
        game.apply(rng.choice(game.legal_moves()))
    return game


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_state_round_trip_replays_the_history(seed: int) -> None:
    game = _played(seed, 150)
    state = json.loads(json.dumps(game.to_json()))
    again = Discs.from_json(state)
    assert again.to_json() == game.to_json()
    assert sorted(map(str, again.legal_moves())) == sorted(map(str, game.legal_moves()))
    assert again.undo() == game.history[-1]  # the history came back whole


def test_a_drawn_position_round_trips_but_cannot_be_undone() -> None:
    game = drawn(START, locks=["a3.ne", None], barriers=[None, "a2.ne-b3.sw"], tokens=["G", "RB"],
                 quiet_turns=12, passes=1)
    state = json.loads(json.dumps(game.to_json()))
    again = Discs.from_json(state)
    assert again.position_json() == game.position_json()
    assert again.tokens(1) == "RB" and again.lock_hole(0) >= 0
    with pytest.raises(NothingToUndoError):
        again.undo()


def test_undo_restores_every_action_back_to_the_start() -> None:
    game = _played(4, 300)
    states = []
    replay = Discs.new({"seed": "1"})
    for move in game.history:
        states.append(replay.to_json())
        replay.apply(move)
    while game.history:
        game.undo()
        assert game.to_json() == states[len(game.history)]


def _state(**changes: Any) -> dict[str, Any]:
    position = start().position_json()
    position["seen"] = {}
    position.update(changes)
    return {"format": 1, "game": "discs", "options": {"seed": "1"}, "history": [],
            "position": position}


PINS = start().position_json()["pins"]


@pytest.mark.parametrize(("changes", "why"), [
    ({"phase": "middle"}, "phase"),
    ({"to_move": 2}, "to_move"),
    ({"to_move": True}, "to_move"),
    ({"discs": "RRRRGGBBB"}, "three each"),
    ({"discs": 7}, "three each"),
    ({"pins": [PINS[0][:9], PINS[1]]}, "10 pins"),
    ({"pins": [PINS[0], [*PINS[1][:9], PINS[0][0]]]}, "two pins"),
    ({"pins": [PINS[0], [*PINS[1][:9], "d4.c"]]}, "no hole"),
    ({"pins": "a1.c"}, "two lists"),
    ({"start": [["a1", "c3"], ["a1", "c3"]], "home": [[], []]}, "different"),
    ({"start": [["a1", "b2"], ["a3", "c1"]]}, "opposite corners"),
    ({"home": [["a1"], []]}, "not a starting disc"),
    ({"locks": ["a3.c", None]}, "outer hole"),
    ({"locks": ["a1.ne", None]}, "outer hole"),  # player 1's pin
    ({"locks": [None]}, "two holes"),
    ({"barriers": ["a1.c-a2.c", None]}, "line"),
    ({"barriers": ["a1.ne-b1.nw", "a1.ne-b1.nw"]}, "one barrier"),
    ({"tokens": ["RR", ""]}, "distinct"),
    ({"tokens": ["RGB", ""]}, "won"),
    ({"tokens": ["X", ""]}, "distinct"),
    ({"result": {"winners": [0], "reason": "x"}}, "winner holds"),
    ({"result": {"winners": [3], "reason": "x"}}, "winners"),
    ({"turn": {"lock": True, "bar": False, "token": False}}, "before the main action"),
    ({"turn": None}, "turn"),
    ({"passes": 2}, "passes"),
    ({"quiet_turns": 100}, "end the game"),
    ({"quiet_turns": -1}, "quiet_turns"),
    ({"seen": {"x": 3}}, "three times"),
    ({"seen": {"x": 0}}, "counts"),
    ({"silver": None}, "silver"),
])
def test_corrupt_positions_are_refused(changes: dict[str, Any], why: str) -> None:
    with pytest.raises(StateError) as info:
        Discs.from_json(_state(**changes))
    assert why in str(info.value)


def test_a_home_disc_must_still_hold_a_pin() -> None:
    # player 0 has left c1 entirely, so c1 cannot still earn nothing
    board = START.replace("    1.1 ... 0.0\n    .1. ... .0.\n    1.1 ... 0.0",
                          "    1.1 0.0 ...\n    .1. .0. ...\n    1.1 0.0 ...")
    with pytest.raises(StateError, match="left c1"):
        drawn(board, home=[["a3", "c1"], ["a1", "c3"]])


def test_set_up_phases_hold_no_pins() -> None:
    state = Discs.new({"seed": "1"}).to_json()
    state["history"] = []
    state["position"]["pins"] = PINS
    with pytest.raises(StateError, match="no pins"):
        Discs.from_json(state)
    state["position"]["pins"] = [[], []]
    state["position"]["discs"] = "RGBGBRBRG"
    with pytest.raises(StateError, match="arranged"):
        Discs.from_json(state)
