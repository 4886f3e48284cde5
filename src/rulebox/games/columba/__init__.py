"""Columba (Laurent Escoffier, Ludocom 2012): 2-4 players lay cards of wild pigeons, capture
pigeons for their objectives and build estates around dovecotes."""

from rulebox.core.registry import GameEntry, register_game
from rulebox.games.columba.pieces import SEATS
from rulebox.games.columba.render import explain, render
from rulebox.games.columba.rules import Columba
from rulebox.i18n import N_

NOTATION = N_("""\
Squares are x,y (the first territory card's top-left field is 0,0; x east, y south).
Pigeon colours: W white, G grey, B brown, K black. One action per move:
  place 2,0 r90     lay the card in hand on 2..3, 0..1, turned 90 degrees clockwise
  goal / nogoal     after completing an objective: take a new one from the deck, or not
  cote small 1,1    a dovecote (small or large) on square 1,1
  tile W 3,1        a white domesticated pigeon from your reserve onto 3,1
  buy WK / raise GB a falcon chick for 2 reserve tiles (here white and black) / raise it (a
                    later turn) for 2 more; the bare word only where every way to pay is the same
  falcon 4,0        an adult falcon onto 4,0 (a pigeon of an opponent's estate)
  end               end the turn (the next player draws the next card)
Officia (officia=1), powers named after the roles:
  architect 0,0 2,1 / architect 0,0 large    farmerswife W    marshal K 1,2 (before the card)
  peasant 0,0    thief 1 B    (the falconer pays 1 tile: buy W, raise K; 2nd buy XY an adult)
Options: players=2|3|4, deck=C07,C03,..., variant=kids, pond=1, officia=1, roles=thief,...""")

register_game(
    GameEntry(
        cls=Columba,  # type: ignore[type-abstract]
        render=render,  # type: ignore[arg-type]
        package=__name__,
        notation_help=NOTATION,
        seat_names=SEATS,
        explain=explain,  # type: ignore[arg-type]
    )
)

__all__ = ["Columba"]
