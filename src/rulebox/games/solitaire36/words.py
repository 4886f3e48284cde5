"""36 to 1 in words (issue 17): each move as the player says it, and the cubes left at the end.

``describe`` is called on the position before the move: ``player plays Y4 on the yellow cube on
c2 (34 cubes left)``, ``player discards W1 (it can take no cube) and draws a new card``. It names
only the face-up card played and the grid: never the card drawn to replace it (before the move
that card is still in the pile, whose order is hidden; the view shows it once it lies face up).
``highlights`` names the cells of the cubes left in a finished game: the last cube of a win,
the cubes that could not be taken in a loss.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulebox.games.solitaire36.board import CARD_CODES, CELL_NAMES, bits
from rulebox.games.solitaire36.moves import S36Move
from rulebox.i18n import N_, Noun, _, ngettext, noun_noop, pgettext

if TYPE_CHECKING:
    from rulebox.games.solitaire36.rules import Solitaire36

SEAT_NAMES: tuple[str, ...] = (N_("player"),)
"""The one seat of the solitaire."""

CUBE_WORDS: tuple[str, ...] = (
    noun_noop("noun: cube", "the red cube on {cell}"),
    noun_noop("noun: cube", "the yellow cube on {cell}"),
    noun_noop("noun: cube", "the green cube on {cell}"),
    noun_noop("noun: cube", "the blue cube on {cell}"),
    noun_noop("noun: cube", "the black cube on {cell}"),
    noun_noop("noun: cube", "the white cube on {cell}"),
)
"""A cube by colour (the order of ``board.COLOURS``): noun phrases, declined where shown
(:func:`cube_words`)."""


def cube_words(colour: int, cell: str) -> Noun:
    """The cube of ``colour`` (``board.COLOURS`` order) on ``cell``, to be declined by the
    sentence it goes into (``{cube:acc}``)."""
    return Noun("noun: cube", CUBE_WORDS[colour], cell=cell)

SYMBOL_HEADINGS: tuple[str, ...] = (
    N_("1 drop"), N_("2 hammers"), N_("3 circles"), N_("4 bricks"), N_("5 wheel"), N_("6 arrow"),
)
"""Each symbol with its number, as a column's heading and a card name it (``3 circles``: in
Russian the noun agrees with the number, ``3 круга``), translated where shown."""


def symbol_word(s: int) -> str:
    """The name of symbol ``s`` (0-5, ``board.SYMBOL_NAMES``) alone in the current language
    (``context`` ``symbol``: the English words have other meanings elsewhere)."""
    return (pgettext("symbol", "drop"), pgettext("symbol", "hammers"),
            pgettext("symbol", "circles"), pgettext("symbol", "bricks"),
            pgettext("symbol", "wheel"), pgettext("symbol", "arrow"))[s]


def symbol_heading(s: int) -> str:
    """Symbol ``s`` (0-5) with its number in the current language: ``3 circles``, ``3 Kreise``,
    ``3 круга``."""
    return _(SYMBOL_HEADINGS[s])


def describe(game: Solitaire36, move: S36Move) -> str:
    """``move`` (legal in ``game``) in words: the card played and the cube it takes, or the
    discard."""
    seat = game.seat_name(0)
    card = CARD_CODES[move.card]
    if move.is_discard:
        return _("{seat} discards {card} (it can take no cube) and draws a new card").format(
            seat=seat, card=card)
    cube = cube_words(game.cube(move.cell), CELL_NAMES[move.cell])
    left = game.cubes_left() - 1
    return ngettext("{seat} plays {card} on {cube:acc} ({n} cube left)",
                    "{seat} plays {card} on {cube:acc} ({n} cubes left)", left).format(
        seat=seat, card=card, cube=cube, n=left)


def highlights(game: Solitaire36) -> list[str]:
    """The cells of the cubes left in a finished game (one for a win), rank 1 first; ``[]``
    while it goes on."""
    if game.outcome() is None:
        return []
    return [CELL_NAMES[c] for c in bits(game.occupied())]
