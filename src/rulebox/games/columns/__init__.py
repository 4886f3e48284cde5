"""Columns (David Ward): 2 players stack roundels and blockers on 12 pins."""

from rulebox.core.registry import GameEntry, register_game
from rulebox.games.columns.render import SEATS, render
from rulebox.games.columns.rules import Columns
from rulebox.i18n import N_

NOTATION = N_("""\
Pins are a1..d3 (files a-d, ranks 1-3). One piece per move:
  Ra1      roundel on a1          Sa1      single blocker on a1
  Da1b1    double blocker over a1 and b1 (two adjacent pins of equal height)
  Tb1a1^   triple blocker, thick pin b1 first, thick end up (flat bottom)
  Tb1a1v   triple blocker, thick end down (the thin pin's stack one higher)""")

register_game(
    GameEntry(
        cls=Columns,  # type: ignore[type-abstract]
        render=render,  # type: ignore[arg-type]
        package=__name__,
        notation_help=NOTATION,
        seat_names=SEATS,
    )
)

__all__ = ["Columns"]
