"""What the adapters share: one table (a game, its action space and observer), seeds, text."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from rulebox.core import Game, RuleboxError, game_entry, new_game
from rulebox.env.actions import (
    ActionSpace,
    LegalActions,
    action_space,
    check_options,
    space_key,
)
from rulebox.env.observations import Observer, observer

OBS_LOW, OBS_HIGH = -1.0, 1.0
"""Every observation value lies in this range."""

SEED_SPAN = 2**63
"""Game seeds are ``0 <= seed < SEED_SPAN`` (rulebox's ``seed=`` option)."""

ILLEGAL_MODES = ("raise", "lose")


def game_seed(seed: int | np.integer[Any]) -> int:
    """A reset seed as a rulebox game seed (negative seeds are refused)."""
    s = int(seed)
    if not 0 <= s < SEED_SPAN:
        raise ValueError(f"seed must be 0 <= seed < 2**63, not {s}")
    return s


class Table:
    """A game being played through an adapter, with the legal actions of its position cached."""

    def __init__(self, game_id: str, options: Mapping[str, Any] | None = None) -> None:
        self.game_id = game_id
        self.options = dict(options or {})
        if "seed" in self.options:
            raise ValueError("give the seed to reset(seed=...), not as a game option")
        probe = new_game(game_id, {**self.options, "seed": "0"})
        check_options(probe)
        self.space: ActionSpace = action_space(space_key(probe))
        self.observer: Observer = observer(space_key(probe))
        self.num_players = probe.num_players
        self.return_bounds = type(probe).return_bounds
        self.game: Game = probe
        self._legal: LegalActions | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> Table:
        """A copy with its own game (``Game.clone``, never a deep copy of the game's internals;
        OpenSpiel clones Python states with ``copy.deepcopy``)."""
        new = object.__new__(Table)
        new.__dict__.update(self.__dict__)
        new.options = dict(self.options)
        new.game = self.game.clone()
        return new

    def reset(self, seed: int) -> None:
        """A new game with this rulebox seed."""
        self.game = new_game(self.game_id, {**self.options, "seed": str(game_seed(seed))})
        self._legal = None

    @property
    def legal(self) -> LegalActions:
        """The legal actions of the player to move."""
        if self._legal is None:
            self._legal = self.space.legal(self.game)
        return self._legal

    def play(self, action: int) -> None:
        """Play a legal action id (``ValueError`` for an illegal one).

        When the legal actions are not already known, the action's text is parsed and checked
        by the game (``check_move``) instead of generating every legal move: replaying a
        history (OpenSpiel's resampling, deserialization) then costs one check per action."""
        if self._legal is not None:
            move = self._legal.moves.get(int(action))
            if move is None:
                raise ValueError(self.illegal_reason(action))
        else:
            try:
                move = self.game.parse_move(self.space.text(int(action)))
                if self.game.is_terminal():
                    raise ValueError("the game is over")
                self.game.check_move(move)
            except (RuleboxError, ValueError) as e:
                raise ValueError(f"{self.illegal_reason(action)}: {e}") from None
        self.game.apply_unchecked(move)
        self._legal = None

    def play_move(self, move: Any) -> None:
        """Play a legal move value (an agent's choice)."""
        self.game.apply(move)
        self._legal = None

    def illegal_reason(self, action: Any) -> str:
        """Why an action id is not legal here, in words."""
        try:
            text = self.space.text(int(action))
        except (TypeError, ValueError):
            return f"action {action!r} is not an action id of {self.game_id}"
        return f"action {int(action)} ({text}) is not legal here"

    def observe(self, seat: int) -> np.ndarray:
        """The observation tensor of ``seat``."""
        return self.observer.encode(self.game.view(seat), seat)

    def mask(self, seat: int) -> np.ndarray:
        """The legal-action mask of ``seat`` (all zeros when another seat is to move)."""
        if self.game.current_player() != seat:
            return np.zeros(self.space.n, dtype=np.int8)
        return self.space.mask(self.legal)

    def text(self, seat: int | None = None) -> str:
        """The terminal's board as plain text, as ``seat`` sees it (``None``: a spectator)."""
        return game_entry(self.game_id).render(self.game, seat).plain
