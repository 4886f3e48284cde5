"""Count Red (Walter Rehm, first published 1998 as Gembel): 2 players, 16 numbered pieces in two
colours that belong to no one; each player moves on even or on odd counts of red pieces."""

from rulebox.core.registry import GameEntry, register_game
from rulebox.games.countred.match import rematch_options
from rulebox.games.countred.render import SEATS, announce, explain, render
from rulebox.games.countred.rules import CountRed
from rulebox.i18n import N_

NOTATION = N_("""\
Fields are A1..D4 (columns A-D, rows 1-4; row 1 is worth 3, row 4 is worth 0).
  B2-C2    lift the top piece of B2 and set it on C2 (an empty field or a single piece)
  claim    claim a draw when the position has occurred for the third time (CR-12)
Case and spaces do not matter: b2 - c2 and b2c2 are B2-C2. Try `explain B2` or `explain B2-C2`.""")

register_game(
    GameEntry(
        cls=CountRed,  # type: ignore[type-abstract]
        render=render,  # type: ignore[arg-type]
        package=__name__,
        notation_help=NOTATION,
        seat_names=SEATS,
        explain=explain,  # type: ignore[arg-type]
        extra={"rematch": rematch_options, "announce": announce},
    )
)

__all__ = ["CountRed", "rematch_options"]
