"""Count Red in words (issue 17): each move as a player says it, and the column that decided a
finished game.

The seats are ``first`` (player 0) and ``second`` (player 1), as in Discs; who moves first in a
game is the option ``first`` (CR-2), so seat ``second`` may well make the first move.

``describe`` is called on the position before the move and plays it on a copy to tell what it
made: ``first moves red 2 from B2 to C3``, ``second stacks black 1 from A2 onto red 0 on A3``,
``first moves red 3 from the stack on B1 to D1``, then ``and makes four red in
column C`` (CR-9), ``and makes three black in column A and moves again`` (CR-10), or ``; second
cannot move and is skipped`` (CR-11); ``first claims a draw by repetition`` (CR-12). Everything
on the board is public. ``highlights`` names the four fields of the winning column.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulebox.games.countred.moves import (
    COLUMN_FIELDS,
    COLUMNS,
    FIELD_NAMES,
    RED,
    CountRedMove,
    piece_words,
)
from rulebox.i18n import N_, _

if TYPE_CHECKING:
    from rulebox.games.countred.rules import CountRed

SEAT_NAMES: tuple[str, ...] = (N_("first"), N_("second"))
"""The seats as RULINGS.md and the issue name them: player 0 is ``first``, player 1 ``second``."""




def four_column(game: CountRed) -> int | None:
    """The column (0-3) holding four base pieces of one colour, or ``None`` (CR-9)."""
    for col, fields in enumerate(COLUMN_FIELDS):
        bases = [game.pieces(f)[:1] for f in fields]
        if all(bases) and len({RED[b[0]] for b in bases}) == 1:
            return col
    return None


def describe(game: CountRed, move: CountRedMove) -> str:
    """``move`` (legal in ``game``) in words, with who makes it and what it makes."""
    p = game.current_player()
    seat = game.seat_name(p)
    if move.is_claim:
        return _("{seat} claims a draw by repetition").format(seat=seat)
    src, dst = move.src, move.dst
    lifted = game.pieces(src)
    piece = lifted[-1]
    under = game.pieces(dst)
    words = {"seat": seat, "piece": piece_words(piece), "src": FIELD_NAMES[src],
             "dst": FIELD_NAMES[dst]}
    if len(lifted) == 2 and under:
        text = _("{seat} moves {piece:acc} from the stack on {src} onto {below:acc} on "
                 "{dst}").format(below=piece_words(under[0]), **words)
    elif len(lifted) == 2:
        text = _("{seat} moves {piece:acc} from the stack on {src} to {dst}").format(**words)
    elif under:
        text = _("{seat} stacks {piece:acc} from {src} onto {below:acc} on {dst}").format(
            below=piece_words(under[0]), **words)
    else:
        text = _("{seat} moves {piece:acc} from {src} to {dst}").format(**words)
    after = game.clone()
    after.apply_unchecked(move)
    column = COLUMNS[dst & 3]
    red = RED[piece]
    outcome = after.outcome()
    nxt = after.current_player()
    # a colour with a number agrees with it (vier rote Figuren, четыре красные фигуры): one
    # sentence per colour
    if outcome is not None and outcome.winners:
        return (_("{move} and makes four red in column {column}") if red else
                _("{move} and makes four black in column {column}")).format(
            move=text, column=column)
    if _locks(after) != _locks(game):
        if nxt == p:
            return (_("{move} and makes three red in column {column} and moves again") if red
                    else _("{move} and makes three black in column {column} and moves again")
                    ).format(move=text, column=column)
        return (_("{move} and makes three red in column {column}") if red else
                _("{move} and makes three black in column {column}")).format(
            move=text, column=column)
    if nxt == p:
        return _("{move}; {other} cannot move and is skipped").format(
            move=text, other=game.seat_name(1 - p))
    return text


def _locks(game: CountRed) -> int:
    return sum(1 for f in range(len(FIELD_NAMES)) if game.is_locked(f))


def highlights(game: CountRed) -> list[str]:
    """The four fields of the column the winner completed (CR-9), row 1 first; ``[]`` for a
    draw or a game that goes on."""
    outcome = game.outcome()
    if outcome is None or not outcome.winners:
        return []
    col = four_column(game)
    return [] if col is None else [FIELD_NAMES[f] for f in COLUMN_FIELDS[col]]
