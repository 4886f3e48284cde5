"""The outcome of a game a test has played to its end."""

from __future__ import annotations

from rulebox.core.game import Game, Outcome


def ended(game: Game) -> Outcome:
    """``game``'s outcome; the test fails when the game is not over."""
    outcome = game.outcome()
    assert outcome is not None, f"the game is not over: {game.diagram()}"
    return outcome
