"""36 to 1 state: JSON round trips, undo and clone, and corrupt positions refused with
``StateError``."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from rulebox.core.errors import NothingToUndoError, StateError
from rulebox.games.solitaire36.rules import Solitaire36
from tests.games.solitaire36.s36_helpers import drawn

OPTION_SETS = [
    {},
    {"green": "2"},
    {"grid": "random", "green": "3"},
    {"end": "literal", "grid": "random"},
]


def played(options: dict[str, str], seed: int, plies: int) -> Solitaire36:
    game = Solitaire36.new({**options, "seed": str(seed)})
    chooser = random.Random(seed)
    for _ in range(plies):
        if game.is_terminal():
            break
        game.apply(chooser.choice(game.legal_moves()))
    return game


@pytest.mark.parametrize("options", OPTION_SETS)
def test_S36_10_state_round_trip_replays_the_history(options: dict[str, str]) -> None:
    for seed, plies in ((1, 0), (2, 10), (3, 34), (4, 60)):
        game = played(options, seed, plies)
        data = json.loads(json.dumps(game.to_json()))
        back = Solitaire36.from_json(data)
        assert back.to_json() == data
        assert back.view(0) == game.view(0)
        assert back.legal_moves() == game.legal_moves()
        while back.history:  # replayed from the options: every move can be undone
            back.undo()
        assert back.position_json() == Solitaire36.new(game.options()).position_json()


def test_drawn_position_round_trip_and_undo_floor() -> None:
    game = drawn(
        """
        W W . . . .
        . K . . . .
        . . . . . .
        . . . . . .
        . . . . . .
        . . . . . R
        """,
        ["W2", "K6"], ["R1", "R2"],
    )
    data = game.to_json()
    back = Solitaire36.from_json(data)
    assert back.position_json() == data["position"]
    back.apply("W2:b6")
    back.undo()
    assert back.position_json() == data["position"]
    with pytest.raises(NothingToUndoError):
        back.undo()


def test_apply_undo_and_clone_are_exact() -> None:
    for i, options in enumerate(OPTION_SETS * 3):
        game = Solitaire36.new({**options, "seed": str(i)})
        chooser = random.Random(i)
        snapshots = []
        while not game.is_terminal():
            snapshots.append((game.position_json(), game.legal_moves(), game.position_key()))
            copy_ = game.clone()
            game.apply_unchecked(chooser.choice(game.legal_moves()))
            assert copy_.position_json() == snapshots[-1][0]  # the clone did not move
            assert copy_.legal_moves() == snapshots[-1][1]
        assert len(game.history) <= Solitaire36.max_moves
        low, high = Solitaire36.return_bounds
        assert low <= game.returns()[0] <= high
        while snapshots:
            game.undo()
            pos, moves, key = snapshots.pop()
            assert game.position_json() == pos
            assert game.legal_moves() == moves
            assert game.position_key() == key


def _state() -> dict[str, Any]:
    game = played({}, 7, 12)
    assert game.cubes_left() == 36 - 12  # twelve removals, no discard
    data = game.to_json()
    data["history"] = []  # a drawn position: the position itself is loaded and checked
    return data


def _set(path: str, value: Any) -> Any:
    def change(data: dict[str, Any]) -> None:
        *keys, last = path.split(".")
        target: Any = data
        for key in keys:
            target = target[int(key)] if key.isdigit() else target[key]
        if last.isdigit():
            target[int(last)] = value
        else:
            target[last] = value
    return change


def _move_card(src: str, dst: str) -> Any:
    def change(data: dict[str, Any]) -> None:
        pos = data["position"]
        pos[dst].append(pos[src].pop())
    return change


CORRUPT = {  # name: (change, words of the reason)
    "position not an object": (_set("position", ["grid"]), "position"),
    "grid missing": (_set("position.grid", None), "6 strings"),
    "grid of 5 ranks": (_set("position.grid", ["RRRRRR"] * 5), "6 strings"),
    "rank too short": (_set("position.grid.0", "RRRRR"), "6 strings"),
    "not a colour": (_set("position.grid.5", "WWWWWQ"), "not a colour"),
    "colour outside its rank": (_set("position.grid.5", "WWWWWR"), "standard grid"),
    "empty grid": (_set("position.grid", ["......"] * 6), "empty"),
    "unknown card": (_set("position.faceup.0", "Q9"), "not a card"),
    "card twice": (
        lambda d: d["position"]["pile"].__setitem__(0, d["position"]["faceup"][0]),
        "exactly once",
    ),
    "card lost": (lambda d: d["position"]["pile"].pop(), "exactly once"),
    "green card in a standard deck": (_set("position.pile.0", "Y5g"), "exactly once"),
    "three face up": (_move_card("pile", "faceup"), "face up"),
    "one face up while the pile lasts": (_move_card("faceup", "discard"), "face up"),
    "more cubes gone than cards used": (_move_card("discard", "pile"), "cubes are gone"),
    "pile not a list": (_set("position.pile", "R1,R2"), "list of card codes"),
    "card not text": (_set("position.discard.0", 7), "list of card codes"),
}


@pytest.mark.parametrize("name", list(CORRUPT))
def test_corrupt_positions_are_refused(name: str) -> None:
    data = copy.deepcopy(_state())
    Solitaire36.from_json(copy.deepcopy(data))  # the untouched state loads
    change, words = CORRUPT[name]
    change(data)
    with pytest.raises(StateError, match=words):
        Solitaire36.from_json(data)


def test_S36_8_random_grid_position_may_hold_any_colour_anywhere() -> None:
    data = _state()
    data["options"]["grid"] = "random"
    # a white cube and a red one change places: the same cells stay empty
    assert data["position"]["grid"][5] == "W.W..."
    data["position"]["grid"][5] = "R.W..."
    data["position"]["grid"][0] = "WRRRRR"
    game = Solitaire36.from_json(data)
    assert game.position_json()["grid"][5] == "R.W..."
    data["position"]["grid"][0] = "RRRRRR"  # now seven red cubes
    with pytest.raises(StateError, match="only 6 red"):
        Solitaire36.from_json(data)
