"""Count Red: the JSON state round trip, refusal of corrupt positions, the board and ``explain``."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from rulebox.core.errors import NothingToUndoError, StateError
from rulebox.core.registry import game_entry
from rulebox.games.countred.rules import CountRed, parse_position_text, position_text

OPTIONS = {"seed": "1", "first": "0", "even": "0", "stack_lift": "seed"}


def played(plies: int, seed: int = 3) -> CountRed:
    game = CountRed.new({"seed": str(seed)})
    rnd = random.Random(seed)
    for _ in range(plies):
        if game.is_terminal():
            break
        moves = game.legal_moves()
        game.apply(moves[rnd.randrange(len(moves))])
    return game


def state_with(position: dict[str, Any]) -> dict[str, Any]:
    return {"format": 1, "game": "countred", "options": OPTIONS, "history": [],
            "position": position}


# A position with two stacks, a locked three (column A) and a game in progress.
GOOD: dict[str, Any] = {
    "to_move": 0,
    "fields": {
        "A1": ["b3"], "B1": [], "C1": ["r3", "b1"], "D1": ["r3"],
        "A2": ["b2"], "B2": ["r2"], "C2": ["r2"], "D2": ["b2"],
        "A3": ["b1"], "B3": ["r1"], "C3": [], "D3": ["r1"],
        "A4": ["r0"], "B4": ["b0", "b3"], "C4": ["r0"], "D4": ["b0"],
    },
    "formed_by": {"C1": 1, "B4": 0},
    "locked": ["A1", "A2", "A3"],
    "fifty": 7,
}


def test_a_drawn_position_loads_and_round_trips() -> None:
    game = CountRed.from_json(state_with(GOOD))
    assert game.is_locked(0) and game.moves_without_three() == 7
    state = game.to_json()
    again = CountRed.from_json(json.loads(json.dumps(state)))
    assert again.to_json() == state
    with pytest.raises(NothingToUndoError):
        again.undo()


def test_a_played_game_round_trips_with_its_history_and_undo() -> None:
    game = played(30)
    state = game.to_json()
    again = CountRed.from_json(json.loads(json.dumps(state)))
    assert again.to_json() == state
    assert again.history == game.history
    again.undo()
    game.undo()
    assert again.to_json() == game.to_json()


def test_repetition_counts_and_the_result_survive_the_round_trip() -> None:
    game = CountRed.new(OPTIONS)
    for move in ["A1-C1", "B1-B2", "C1-A1", "B2-B1"] * 2:
        game.apply(move)
    game.apply("claim")
    state = json.loads(json.dumps(game.to_json()))
    drawn = dict(state, history=[])  # no history: the position is taken as it is drawn
    again = CountRed.from_json(drawn)
    assert again.outcome() == game.outcome() and again.legal_moves() == []
    mid = CountRed.new(OPTIONS)
    for move in ["A1-C1", "B1-B2", "C1-A1", "B2-B1"] * 2:
        mid.apply(move)
    loaded = CountRed.from_json(dict(mid.to_json(), history=[]))
    assert loaded.occurrences() == 3 and "claim" in map(str, loaded.legal_moves())


def test_position_text_round_trips() -> None:
    game = CountRed.from_json(state_with(GOOD))
    key = game._full_key()
    text = position_text(key)
    assert text == "b3#,,r3b1,r3/b2#,r2,r2,b2/b1#,r1,,r1/r0,b0b3,r0,b0 0"
    assert parse_position_text(text) == key


def corrupt(**changes: Any) -> dict[str, Any]:
    position = copy.deepcopy(GOOD)
    for key, value in changes.items():
        if value is None:
            position.pop(key)
        else:
            position[key] = value
    return position


def with_fields(**fields: list[Any]) -> dict[str, Any]:
    return corrupt(fields={**GOOD["fields"], **fields})


BAD = {
    "not an object": [],
    "unknown key": corrupt(colour="red"),
    "to_move 2": corrupt(to_move=2),
    "to_move true": corrupt(to_move=True),
    "fields not an object": corrupt(fields=["A1"]),
    "unknown field": corrupt(fields={**GOOD["fields"], "E5": []}),
    "three pieces on a field": with_fields(B1=["r3", "b1", "r2"]),
    "a bad piece": with_fields(B1=["g3"]),
    "a piece not as text": with_fields(B1=[3]),
    "a missing piece": with_fields(D4=[]),
    "a third red 3": with_fields(D4=["b0", "r3"], B4=["b0"]),
    "a bottom of the wrong value": with_fields(B1=["b2"], A2=[], D2=["b2", "b3"]),
    "a stack without former": corrupt(formed_by={"C1": 1}),
    "a former of no stack": corrupt(formed_by={"C1": 1, "B4": 0, "A1": 0}),
    "a former 2": corrupt(formed_by={"C1": 2, "B4": 0}),
    "locked not a list": corrupt(locked="A1"),
    "locked field unknown": corrupt(locked=["A1", "A2", "Z9"]),
    "a lock in no three": corrupt(locked=["A1", "A2", "A3", "D4"]),
    "an unlocked three": corrupt(locked=[]),
    "an empty locked field": corrupt(locked=["A1", "A2", "A3", "B1"]),
    "fifty too big": corrupt(fifty=51),
    "fifty negative": corrupt(fifty=-1),
    "fifty 50 while going on": corrupt(fifty=50),
    "seen not an object": corrupt(seen=[1]),
    "seen bad text": corrupt(seen={"nonsense": 1}),
    "seen bad count": corrupt(seen={position_text(0): 9}),
    "seen misses the position": corrupt(seen={position_text(0): 1}),
    "a winner without a four": corrupt(over={"winners": [0], "reason": "?"}),
    "over of the wrong shape": corrupt(over={"winners": [0, 1], "reason": "?"}),
    "a four while going on": with_fields(
        A4=["b0"], D4=["r0"], B4=["b0", "b3"]
    ),
}


@pytest.mark.parametrize("position", BAD.values(), ids=BAD.keys())
def test_corrupt_positions_are_refused(position: Any) -> None:
    with pytest.raises(StateError):
        CountRed.from_json(state_with(position))


def test_a_player_to_move_without_a_legal_move_is_refused() -> None:
    # Player 1 has no move here (the CR-11 skip position after C3-D3).
    position = {
        "to_move": 1,
        "fields": {"A1": ["r3"], "B1": ["r3"], "C1": ["b3", "b2"], "D1": [], "A2": ["r2", "r2"],
                   "B2": ["b2"], "C2": [], "D2": [], "A3": ["b1", "b3"], "B3": [], "C3": [],
                   "D3": ["r1", "r1"], "A4": ["r0", "r0"], "B4": ["b0", "b1"], "C4": ["b0"],
                   "D4": []},
        "formed_by": {"C1": 0, "A2": 0, "A3": 0, "A4": 0, "B4": 0, "D3": 0},
        "locked": [],
    }
    with pytest.raises(StateError, match="CR-11"):
        CountRed.from_json(state_with(position))
    position["to_move"] = 0
    assert CountRed.from_json(state_with(position)).current_player() == 0


# --- the board and explain ---------------------------------------------------------------------
def test_the_board_reads_without_colour() -> None:
    game = CountRed.from_json(state_with(GOOD))
    text = game_entry("countred").render(game, None).plain
    for needle in ("b1 (1)", "r3", "b3 (0)", "#", "first: moves on even counts",
                   "second: moves on odd counts", "To move: first (even counts)", "7 of 50"):
        assert needle in text, needle
    lines = text.splitlines()
    assert lines[0].split() == ["A", "B", "C", "D"]
    row4 = next(i for i, line in enumerate(lines) if line.startswith("  4 "))
    row1 = next(i for i, line in enumerate(lines) if line.startswith("  1 "))
    assert row4 < row1  # row 4 at the top
    assert "b1 (1)" in lines[row1] and "r3" in lines[row1 + 1]  # C1: the black 1 over the red 3


def test_the_board_shows_the_result() -> None:
    game = CountRed.new(OPTIONS)
    for move in ["A1-C1", "B1-B2", "C1-A1", "B2-B1"] * 2:
        game.apply(move)
    text = game_entry("countred").render(game, None).plain
    assert "occurred 3 times" in text and "claim" in text
    game.apply("claim")
    assert "Game over: a draw" in game_entry("countred").render(game, None).plain


def test_explain_a_field_shows_the_counts_and_the_targets() -> None:
    explain = game_entry("countred").explain
    assert explain is not None
    text = explain(CountRed.new(OPTIONS), "b2")
    assert "counts 4" in text and "B1 1, A2 1, C2 1, B3 1" in text
    assert "first (to move), on even counts, may lift it." in text
    assert "second, on odd counts, may not lift it" in text and "[CR-4]" in text
    assert "  A1: yes, 0 (the new stack, no neighbours): even" in text
    assert "  C2: no, 1 (the new stack, no neighbours): odd" in text


def test_explain_a_move_says_why() -> None:
    explain = game_entry("countred").explain
    assert explain is not None
    game = CountRed.new(OPTIONS)
    text = explain(game, "B2-C2")
    assert "lift:  4" in text and "set:   1" in text and "[CR-7]" in text
    assert "legal" in explain(game, "B2-A1")
    assert "explain a field" in explain(game, "nonsense")
    assert "empty" in explain(CountRed.from_json(state_with(GOOD)), "B1")
    assert "occurred 1 time" in explain(game, "claim")
