"""The shared parts of the protocol: options, outcomes, records, errors."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulebox.core import (
    Game,
    GameOverError,
    IllegalMoveError,
    NothingToUndoError,
    OptionError,
    Outcome,
    StateError,
    game_entry,
    new_game,
)
from rulebox.core.errors import Illegal
from rulebox.core.options import parse_options
from rulebox.games.columns import Columns
from rulebox.match.records import Record


def test_illegal_move_error_reads_as_the_protocol_says() -> None:
    e = IllegalMoveError("a roundel may not sit directly on an opponent's blocker", "COL-4")
    assert str(e) == "illegal: a roundel may not sit directly on an opponent's blocker [COL-4]"
    assert isinstance(e, ValueError) and e.rule == "COL-4"


def test_outcome_result_lines() -> None:
    assert Outcome((1,), (3, 4), "").result_line() == "over winner=1 score=3,4"
    assert Outcome((), None, "").result_line() == "over winner=none"
    assert Outcome((0, 2), (10.5, 3, 10.5, 3), "").result_line() == (
        "over winner=0,2 score=10.5,3,10.5,3")


def test_options_unknown_key_and_bad_value_are_refused() -> None:
    with pytest.raises(OptionError, match="no option 'colour'"):
        Columns.new({"colour": "red"})
    with pytest.raises(OptionError, match="first must be from 0 to 1"):
        Columns.new({"first": "5"})
    with pytest.raises(OptionError):
        Columns.new({"seed": "abc"})


def test_seed_is_drawn_when_missing_and_kept() -> None:
    opts = parse_options("columns", Columns.option_specs, {})
    assert isinstance(opts["seed"], int)
    g = Columns.new()
    assert Columns.new({"seed": g.options()["seed"]}).options() == g.options()


def test_move_after_the_end_is_refused() -> None:
    g = Columns.new(seed=0)
    g._legal = []  # a finished position
    with pytest.raises(GameOverError):
        g.apply("Ra1")


def test_nothing_to_undo() -> None:
    with pytest.raises(NothingToUndoError):
        Columns.new(seed=0).undo()


def test_a_state_whose_history_does_not_lead_to_its_position_is_refused() -> None:
    g = Columns.new(seed=0)
    g.apply("Ra1")
    state = g.to_json()
    state["position"]["pins"]["b1"] = ["1R"]  # not what the history gives
    with pytest.raises(StateError, match="does not lead to its position"):
        Columns.from_json(state)
    state = g.to_json()
    state["history"] = ["Sa1"]
    with pytest.raises(StateError, match="does not lead"):
        Columns.from_json(state)
    state["history"] = ["Ra1", "Sa1"]
    with pytest.raises(StateError, match="move 2"):
        Columns.from_json(dict(state, history=["Ra1", "Zz9"]))


def test_a_drawn_position_keeps_its_start_and_undoes_back_to_it() -> None:
    drawn = {"game": "columns", "options": {"seed": "0"}, "history": [],
             "position": {"to_move": 1, "pins": {"a1": ["0S"]}}}
    g = Columns.from_json(drawn)
    g.apply("Rb1")
    g.apply("Rc1")
    state = g.to_json()
    assert state["start"]["pins"]["a1"] == ["0S"]
    again = Columns.from_json(state)
    assert again.to_json() == state
    assert str(again.undo()) == "Rc1" and str(again.undo()) == "Rb1"
    with pytest.raises(NothingToUndoError):
        again.undo()
    assert again.position_json() == g.clone().to_json()["start"]


def test_registry_knows_games_by_name() -> None:
    assert game_entry("COLUMNS").cls is Columns
    assert new_game("columns", {"seed": "1"}).options() == {"first": "0", "seed": "1"}


def test_record_round_trip_and_refusals() -> None:
    g = Columns.new(seed=9)
    g.apply("Ra1")
    rec = Record.of(g, ["human", "random"])
    again = Record.from_json(rec.to_json())
    assert again.moves == ["Ra1"] and again.replay().to_json() == g.to_json()
    for bad in [[], {"format": "x"}, dict(rec.to_json(), moves="Ra1"),
                dict(rec.to_json(), options={"seed": 1}), dict(rec.to_json(), game=None)]:
        with pytest.raises(StateError):
            Record.from_json(bad)
    wrong = dict(rec.to_json(), result="over winner=0")
    with pytest.raises(StateError, match="the record says the result"):
        Record.from_json(wrong).replay()


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=10_000), min_size=1, max_size=42))
def test_property_clone_undo_and_state_round_trip(choices: list[int]) -> None:
    g = Columns.new(seed=1)
    states = [g.to_json()]
    for c in choices:
        moves = g.legal_moves()
        if not moves:
            break
        g.apply(moves[c % len(moves)])
        states.append(g.to_json())
        assert Columns.from_json(g.to_json()).to_json() == g.to_json()
    clone = g.clone()
    while g.history:
        g.undo()
        states.pop()
        assert g.to_json() == states[-1]
    assert clone.to_json() != g.to_json() or not clone.history


def test_reshuffle_unseen_is_a_no_op_for_games_without_hidden_cards() -> None:
    import random as _random

    for gid in ("columns", "countred", "discs"):
        game = new_game(gid, {"seed": "3"})
        for move in game.legal_moves()[:1]:
            game.apply(move)
        before = game.to_json()
        game.reshuffle_unseen(_random.Random(1))
        assert game.to_json() == before


def _finished(game_id: str, seed: int) -> tuple[Game, list[Any]]:
    """A seeded random game of ``game_id`` played to its end, and the moves that were legal one
    move before the end."""
    import random as _random

    game = new_game(game_id, {"seed": str(seed)})
    rng = _random.Random(seed)
    before: list[Any] = []
    while not game.is_terminal():
        before = game.legal_moves()
        game.apply(before[rng.randrange(len(before))])
    return game, before


@pytest.mark.parametrize("game_id", ["columns", "countred", "discs", "36to1", "columba"])
def test_check_move_on_a_finished_game_raises_game_over(game_id: str) -> None:
    """One convention: ``check_move`` on a finished game raises ``GameOverError`` (an
    ``IllegalMoveError``) naming how the game ended, for any move, never a ``TypeError`` and
    never silence (36 to 1 raised ``TypeError`` here; Count Red let a legal-looking move pass)."""
    for seed in (1, 2):
        game, moves = _finished(game_id, seed)
        outcome = game.outcome()
        assert outcome is not None
        for move in moves:
            with pytest.raises(GameOverError) as info:
                game.check_move(move)
            assert str(info.value) == f"illegal: the game is over: {outcome.reason}"
            with pytest.raises(GameOverError):
                game.apply(move)
            with pytest.raises(GameOverError):
                game.parse(str(move))


@pytest.mark.parametrize("game_id", ["columns", "countred", "discs", "36to1", "columba"])
def test_illegal_reason_and_check_move_agree_with_the_legal_moves(game_id: str) -> None:
    """``illegal_reason(move)`` is the one place a game says why a move is illegal: ``None``
    exactly for the legal moves, else ``Illegal(reason, rule)`` with a rule ID, which
    ``check_move`` raises as ``IllegalMoveError``."""
    import random as _random

    game = new_game(game_id, {"seed": "4"})
    rng = _random.Random(4)
    seen_illegal = 0
    for _ in range(30):
        if game.is_terminal():
            break
        legal = game.legal_moves()
        legal_texts = {str(m) for m in legal}
        for move in legal[:100]:  # (Discs' set-up has 1680)
            assert game.illegal_reason(move) is None
            game.check_move(move)
        # moves legal one ply later, or earlier, are mostly illegal now
        probe = game.clone()
        probe.apply(legal[0])
        for move in (probe.legal_moves() if not probe.is_terminal() else [])[:100]:
            if str(move) in legal_texts:
                continue
            why = game.illegal_reason(move)
            assert isinstance(why, Illegal) and why.rule and why.reason
            with pytest.raises(IllegalMoveError) as info:
                game.check_move(move)
            assert (info.value.reason, info.value.rule) == (why.reason, why.rule)
            seen_illegal += 1
        game.apply(legal[rng.randrange(len(legal))])
    assert seen_illegal > 0
    why = game.illegal_reason("not a move")
    assert isinstance(why, Illegal) and why.rule
