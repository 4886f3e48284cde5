"""36 to 1 (Daniel Bernsen, Green Box of Games): solitaire, remove 35 of 36 cubes with cards.

The game id is ``36to1``; a Python package name cannot start with a digit, hence ``solitaire36``.
"""

from rulebox.core.registry import GameEntry, register_game
from rulebox.games.solitaire36.render import SEATS, explain, render
from rulebox.games.solitaire36.rules import Solitaire36
from rulebox.i18n import N_

NOTATION = N_("""\
Cells are a1..f6: the file is the symbol column (a 1 drop, b 2 hammers,
c 3 circles, d 4 bricks, e 5 wheel, f 6 arrow), the rank is the row (1 at the
bottom). Cards: a colour letter (R red, Y yellow, G green, B blue, K black,
W white) and a symbol 1-6; green cards end in g.
  Y4:c2    card Y4 removes the cube on c2 (any yellow cube, or one in column d)
  Y4:x     discard Y4 (only if it can remove no cube, while the pile lasts)
  Y5g:c2   the same with a green card
explain Y4: the cubes Y4 can take; explain discards: discards and unseen cards.""")

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
