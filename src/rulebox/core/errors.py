"""The error hierarchy: every error a player or a program can cause is a ``ValueError``.

Messages are written for a person: they name the input and, for a broken rule, the rule ID
from RULINGS.md, in the form ``illegal: <reason> [<RULE-ID>]``.
"""

from __future__ import annotations


class RuleboxError(ValueError):
    """Base of every error rulebox raises on bad input."""


class InvalidMoveError(RuleboxError):
    """The text is not a move in this game's notation (a syntax error)."""

    def __init__(self, text: str, why: str = "") -> None:
        shown = text if len(text) <= 40 else text[:37] + "..."
        msg = f"malformed move {shown!r}"
        if why:
            msg += f": {why}"
        super().__init__(msg)
        self.text = text


class IllegalMoveError(RuleboxError):
    """A well-formed move that the rules forbid in this position."""

    def __init__(self, reason: str, rule: str) -> None:
        super().__init__(f"illegal: {reason} [{rule}]")
        self.reason = reason
        self.rule = rule


class AmbiguousMoveError(RuleboxError):
    """The text matches more than one legal move."""


class GameOverError(IllegalMoveError):
    """A move was given after the game ended (``illegal: the game is over: <how it ended>``)."""

    def __init__(self, how: str = "") -> None:
        RuleboxError.__init__(self, "illegal: the game is over" + (f": {how}" if how else ""))
        self.reason = "the game is over"
        self.rule = ""


class NothingToUndoError(RuleboxError):
    """``undo`` with no move to take back."""


class OptionError(RuleboxError):
    """An unknown option, or a value the option does not accept."""


class StateError(RuleboxError):
    """A saved state or record that is corrupt or breaks the rules."""


class UnknownNameError(RuleboxError):
    """An unknown game, agent or player name."""
