"""36 to 1 (Daniel Bernsen, Green Box of Games): solitaire, remove 35 of 36 cubes with cards.

The game id is ``36to1``; a Python package name cannot start with a digit, hence ``solitaire36``.
"""

from rulebox.core.registry import GameEntry, register_game
from rulebox.games.solitaire36.render import SEATS, explain, render
from rulebox.games.solitaire36.rules import Solitaire36

NOTATION = """\
Cells are a1..f6: the file is the symbol column (a drop 1, b hammers 2, c circles 3, d bricks 4,
e wheel 5, f arrow 6), the rank is the row (1 at the bottom). Cards are a colour letter
(R red, Y yellow, G green, B blue, K black, W white) and a symbol 1-6; green cards end in g.
  Y4:c2    use card Y4 to remove the cube on c2 (a yellow cube, or any cube in column d)
  Y4:x     discard Y4 (only if it can remove no cube, and while the draw pile lasts)
  Y5g:c2   the same with a green card
explain Y4 shows the cubes Y4 can take; explain discards shows the discard pile and unseen cards."""

register_game(
    GameEntry(
        cls=Solitaire36,
        render=render,  # type: ignore[arg-type]
        package=__name__,
        notation_help=NOTATION,
        seat_names=SEATS,
        explain=explain,  # type: ignore[arg-type]
    )
)

__all__ = ["Solitaire36"]
