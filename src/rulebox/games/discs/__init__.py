"""Discs: 2 players move pins over 9 rotating drilled discs to earn a token of each colour."""

from rulebox.core.registry import GameEntry, register_game
from rulebox.games.discs.explain import explain
from rulebox.games.discs.render import SEATS, render
from rulebox.games.discs.rules import Discs
from rulebox.i18n import N_

NOTATION = N_("""\
Discs a1..c3 (files a-c, ranks 1-3, rank 3 north); holes disc.c, disc.ne, .nw, .se, .sw.
Set-up (one move each):
  arrange RGBGBRBRG    player 0: colours of a1, b1, c1, a2, b2, c2, a3, b3, c3 (3 of each)
  choose silver a1c3   player 1: pin colour (silver|black) and corner pair (a1c3|a3c1)
A turn, one action per move: first a main action
  b2.ne-c3.sw          a pin along a line or to a neighbouring hole of its disc
  b2+ / b2-            turn disc b2 a quarter turn clockwise / anticlockwise
  pass                 only when no pin move and no turn is possible
then at most one of   lock b2.ne / unlock      and at most one of   bar b2.ne-c3.sw / unbar
(a line is its two holes in string order), then
  end                  the other player's turn begins""")

register_game(
    GameEntry(
        cls=Discs,
        render=render,  # type: ignore[arg-type]
        package=__name__,
        notation_help=NOTATION,
        seat_names=SEATS,
        explain=explain,
    )
)

__all__ = ["Discs"]
