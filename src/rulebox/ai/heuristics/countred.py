"""Count Red: the pieces belong to no one, so a position's value is mostly tempo: who can make
the next four (CR-9). The static evaluation is therefore small: a bonus for the player to move
for every column that holds three base pieces of one colour (a four may be one move away), and
locked threes slightly favour whoever moves next. Search does the real work. Reads only
``pieces`` and ``is_locked``.
"""

from __future__ import annotations

import math
from typing import Any

from rulebox.core.game import Game
from rulebox.games.countred.moves import RED

COLUMNS = 4
ROWS = 4


def values(game: Game) -> list[float]:
    """A small edge to the player to move where a four is near."""
    g: Any = game
    p = g.current_player()
    if p < 0:
        return [0.0, 0.0]
    near = 0
    for col in range(COLUMNS):
        colours: dict[int, int] = {}
        for row in range(ROWS):
            pieces = g.pieces(row * COLUMNS + col)  # field = 4 * row + column
            if pieces:
                key = RED[pieces[0]]
                colours[key] = colours.get(key, 0) + 1
        if colours and max(colours.values()) >= 3:
            near += 1
    v = math.tanh(0.15 * near)
    return [v, -v] if p == 0 else [-v, v]
