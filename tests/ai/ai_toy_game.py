"""A tiny game for testing search on hand-checked trees: take 1 or 2 stones; whoever takes the
last stone wins. With ``actions=2`` each turn is two actions by the same player (a multi-action
turn, like Discs or Columba), unless the pile runs out first."""

from __future__ import annotations

from typing import Any, Self

from rulebox.core.errors import IllegalMoveError, InvalidMoveError, StateError
from rulebox.core.game import TERMINAL, Game, Outcome
from rulebox.core.options import int_option


class Stones(Game):
    id = "stones"
    title = "Stones"
    player_counts = (2,)
    option_specs = (
        int_option("stones", 7, "stones on the pile", 1, 50),
        int_option("actions", 1, "actions per turn", 1, 3),
    )
    max_moves = 50
    return_bounds = (-1.0, 1.0)

    def _setup(self) -> None:
        self.pile = self.opts["stones"]
        self.to_move = 0
        self.step = 0  # actions taken in this turn
        self.undo_log: list[tuple[int, int]] = []

    def current_player(self) -> int:
        return TERMINAL if self.pile == 0 else self.to_move

    def legal_moves(self) -> list[int]:
        return [k for k in (1, 2) if k <= self.pile]

    def parse_move(self, text: str) -> int:
        if text.strip() not in ("1", "2"):
            raise InvalidMoveError(text, "take 1 or 2")
        return int(text)

    def check_move(self, move: Any) -> None:
        if move not in self.legal_moves():
            raise IllegalMoveError("not that many stones", "T-1")

    def apply_unchecked(self, move: int) -> None:
        self.undo_log.append((self.to_move, self.step))
        self.pile -= move
        self.step += 1
        if self.step >= self.opts["actions"]:
            self.step = 0
            self.to_move = 1 - self.to_move
        self._history.append(move)

    def _undo_last(self) -> None:
        self.pile += self._history[-1]
        self.to_move, self.step = self.undo_log.pop()

    def winner(self) -> int:
        """The player who took the last stone."""
        return self.undo_log[-1][0]

    def outcome(self) -> Outcome | None:
        if self.pile:
            return None
        return Outcome((self.winner(),), None, "took the last stone")

    def returns(self) -> list[float]:
        if self.pile:
            return [0.0, 0.0]
        w = self.winner()
        return [1.0 if p == w else -1.0 for p in (0, 1)]

    def clone(self) -> Self:
        g = object.__new__(type(self))
        g.opts = dict(self.opts)
        g._history = list(self._history)
        g._undo_floor = self._undo_floor
        g.pile, g.to_move, g.step = self.pile, self.to_move, self.step
        g.undo_log = list(self.undo_log)
        return g

    def position_json(self) -> dict[str, Any]:
        return {"pile": self.pile, "to_move": self.to_move, "step": self.step}

    def _load_position(self, data: dict[str, Any]) -> None:
        raise StateError("not needed")

    def position_key(self) -> Any:
        return (self.pile, self.to_move, self.step)


def solve(game: Stones) -> int:
    """Brute force: +1 if the player to move wins with best play, else -1."""
    p = game.current_player()
    best = -1
    for m in game.legal_moves():
        game.apply_unchecked(m)
        q = game.current_player()
        if q == TERMINAL:
            v = 1 if game.returns()[p] > 0 else -1
        elif q == p:
            v = solve(game)
        else:
            v = -solve(game)
        game.undo()
        best = max(best, v)
    return best


def winning_moves(game: Stones) -> list[int]:
    """The moves that keep a won position won (brute force)."""
    p = game.current_player()
    out = []
    for m in game.legal_moves():
        c = game.clone()
        c.apply_unchecked(m)
        q = c.current_player()
        if q == TERMINAL:
            ok = c.returns()[p] > 0
        elif q == p:
            ok = solve(c) > 0
        else:
            ok = solve(c) < 0
        if ok:
            out.append(m)
    return out
