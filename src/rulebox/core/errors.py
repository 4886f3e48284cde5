"""The error hierarchy: every error a player or a program can cause is a ``ValueError``.

Messages are written for a person: they name the input and, for a broken rule, the rule ID
from RULINGS.md, in the form ``illegal: <reason> [<RULE-ID>]``. The reason is in the language
of the context that raises it (:mod:`rulebox.i18n`; games mark it with ``_()``); ``illegal:``
and the rule ID are the protocol's and never translated.

Why a move is illegal (one convention for every game): a game says it in one place,
``Game.illegal_reason(move)``, which returns ``None`` for a legal move and otherwise an
:class:`Illegal` (the reason in a player's words and the rule ID), without raising. The base
``Game.check_move`` raises :class:`GameOverError` once the game is over (for any move), and
otherwise turns the :class:`Illegal` into an :class:`IllegalMoveError`. Games do not override
``check_move``; helpers that explain one part of a move (Count Red's ``lift_problem``) return an
:class:`Illegal` too, so that a renderer can show a reason without catching an exception.
"""

from __future__ import annotations

from typing import NamedTuple

from rulebox.i18n import _


class RuleboxError(ValueError):
    """Base of every error rulebox raises on bad input."""


class InvalidMoveError(RuleboxError):
    """The text is not a move in this game's notation (a syntax error)."""

    def __init__(self, text: str, why: str = "") -> None:
        shown = text if len(text) <= 40 else text[:37] + "..."
        msg = _("malformed move {text!r}").format(text=shown)
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


class Illegal(NamedTuple):
    """Why a move is illegal: ``reason`` in a player's words and the ``rule`` ID it breaks."""

    reason: str
    rule: str

    def error(self) -> IllegalMoveError:
        """The :class:`IllegalMoveError` that reports this."""
        return IllegalMoveError(self.reason, self.rule)


class AmbiguousMoveError(RuleboxError):
    """The text matches more than one legal move."""


class GameOverError(IllegalMoveError):
    """A move was given after the game ended (``illegal: the game is over: <how it ended>``)."""

    def __init__(self, how: str = "") -> None:
        reason = _("the game is over")
        RuleboxError.__init__(self, "illegal: " + reason + (f": {how}" if how else ""))
        self.reason = reason
        self.rule = ""


class NothingToUndoError(RuleboxError):
    """``undo`` with no move to take back."""


class OptionError(RuleboxError):
    """An unknown option, or a value the option does not accept."""


class StateError(RuleboxError):
    """A saved state or record that is corrupt or breaks the rules."""


class UnknownNameError(RuleboxError):
    """An unknown game, agent or player name."""
