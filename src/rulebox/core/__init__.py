"""The protocol every game implements, its errors, options, randomness and the registry."""

from rulebox.core.errors import (
    AmbiguousMoveError,
    GameOverError,
    Illegal,
    IllegalMoveError,
    InvalidMoveError,
    NothingToUndoError,
    OptionError,
    RuleboxError,
    StateError,
    UnknownNameError,
)
from rulebox.core.game import CHANCE, TERMINAL, Game, Outcome, Termination
from rulebox.core.options import OptionSpec, choice_option, int_option
from rulebox.core.registry import GameEntry, game_entry, game_ids, new_game, register_game

__all__ = [
    "CHANCE",
    "TERMINAL",
    "AmbiguousMoveError",
    "Game",
    "GameEntry",
    "GameOverError",
    "Illegal",
    "IllegalMoveError",
    "InvalidMoveError",
    "NothingToUndoError",
    "OptionError",
    "OptionSpec",
    "Outcome",
    "RuleboxError",
    "StateError",
    "Termination",
    "UnknownNameError",
    "choice_option",
    "game_entry",
    "game_ids",
    "int_option",
    "new_game",
    "register_game",
]
