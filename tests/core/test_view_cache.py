"""The move texts of views and states are kept incrementally (``Game._move_texts``): appended as
moves are played, dropped on undo, started afresh on a load or a copy. Every view and state must
stay exactly what rebuilding the texts from the history gives."""

from __future__ import annotations

import random

import pytest

from rulebox.core import Game, game_ids, new_game


def _texts(game: Game) -> list[str]:
    return [str(m) for m in game.history]


def _check(game: Game) -> None:
    want = _texts(game)
    for seat in (None, *range(game.num_players)):
        view = game.view(seat)
        assert view["history"] == want
        view["history"].append("not a move")  # a caller's copy: the cache is untouched
    assert game.to_json()["history"] == want
    assert game.view(None)["history"] == want


@pytest.mark.parametrize("game_id", sorted(game_ids()))
def test_views_follow_play_undo_clone_and_load(game_id: str) -> None:
    rng = random.Random(5)
    game = new_game(game_id, {"seed": "5"})
    _check(game)
    for _ in range(60):
        if game.is_terminal():
            break
        moves = game.legal_moves()
        game.apply(moves[rng.randrange(len(moves))])
        _check(game)
        if rng.random() < 0.3:
            game.undo()
            _check(game)
            moves = game.legal_moves()
            game.apply(moves[-1])  # another move in its place: its text, not the old one
            _check(game)
        if rng.random() < 0.1:
            copy = game.clone()
            _check(copy)
            copy.undo()
            _check(copy)
            _check(game)
    again = type(game).from_json(game.to_json())
    _check(again)
    drawn = type(game).from_diagram(game.diagram(), game.options())
    assert drawn.view(None)["history"] == []
    _check(drawn)


def test_a_copy_made_without_bare_copy_still_has_exact_views() -> None:
    """A game whose own ``clone`` copies its fields by hand (leaving the cache out, or sharing
    it) still gets the texts of its own history."""
    game = new_game("countred", {"seed": "2"})
    for _ in range(6):
        game.apply(game.legal_moves()[0])
    _check(game)
    bare = object.__new__(type(game))
    bare.__dict__.update({k: v for k, v in game.__dict__.items()
                          if k not in ("_texts", "_texts_of")})
    bare._history = list(game._history)
    _check(bare)
    game._move_texts()
    shared = game.clone()
    shared._texts, shared._texts_of = game._texts, game._texts_of  # the original's cache
    shared.undo()  # leaves the original's cache alone
    assert game._texts == _texts(game)
    _check(shared)
    _check(game)
