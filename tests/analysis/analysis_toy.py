"""Stones (tests/ai/ai_toy_game.py) copied through ``Game._bare_copy``, so that every shared
field of the base class (such as the move texts it keeps) is copied with the position."""

from __future__ import annotations

from typing import Self

from tests.ai.ai_toy_game import Stones


class ToyStones(Stones):
    """Stones whose copies start from :meth:`Game._bare_copy`."""

    def clone(self) -> Self:
        g = self._bare_copy()
        g.pile, g.to_move, g.step = self.pile, self.to_move, self.step
        g.undo_log = list(self.undo_log)
        return g
