"""36 to 1 moves: a face-up card and either the cell of the cube it removes or ``x`` (discard).

Every possible move is made once (:data:`MOVES`), so that move generation only looks values up.
Canonical text: ``Y4:c2`` (card Y4 removes the cube on c2), ``Y4:x`` (discard Y4), ``Y5g:c2``
(a green card, S36-7).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rulebox.core.errors import InvalidMoveError
from rulebox.games.solitaire36.board import (
    CARD_CODES,
    CARD_INDEX,
    CELL_INDEX,
    CELL_NAMES,
    NUM_CARDS,
    NUM_CELLS,
)
from rulebox.i18n import _

DISCARD = NUM_CELLS
"""The ``cell`` of a discard move."""


@dataclass(frozen=True, slots=True)
class S36Move:
    """Use face-up card ``card`` on cell ``cell`` (0-35), or discard it (``cell == DISCARD``)."""

    card: int
    cell: int

    @property
    def is_discard(self) -> bool:
        """Whether the move discards the card instead of removing a cube (S36-3)."""
        return self.cell == DISCARD

    def __str__(self) -> str:
        return MOVE_TEXT[self.card][self.cell]

    def __repr__(self) -> str:
        return f"parse_s36_move({str(self)!r})"


MOVE_TEXT: tuple[tuple[str, ...], ...] = tuple(
    tuple(f"{CARD_CODES[card]}:{name}" for name in (*CELL_NAMES, "x")) for card in range(NUM_CARDS)
)
MOVES: tuple[tuple[S36Move, ...], ...] = tuple(
    tuple(S36Move(card, cell) for cell in range(NUM_CELLS + 1)) for card in range(NUM_CARDS)
)
"""``MOVES[card][cell]``: every move value, made once."""

RANK_MOVES: tuple[tuple[tuple[tuple[S36Move, ...], ...], ...], ...] = tuple(
    tuple(
        tuple(
            tuple(MOVES[card][6 * rank + f] for f in range(6) if chunk >> f & 1)
            for chunk in range(64)
        )
        for rank in range(6)
    )
    for card in range(NUM_CARDS)
)
"""``RANK_MOVES[card][rank][bits]``: the removals of ``card`` on the cells of one rank that the
6-bit mask ``bits`` names (file a = bit 0), so that a target mask turns into moves one rank at a
time instead of one cell at a time."""

_SYNTAX = re.compile(r"^([rygbkw])([1-6])(g?)[:\-]?([a-f][1-6]|x)$")


def parse_s36_move(text: str) -> S36Move:
    """Read a move (case and spaces do not matter; the colon may be left out or be ``-``).

    The card must exist (a green card's colour and symbol must match a green set, S36-7);
    whether it is face up and the move legal is for the rules to say.
    """
    key = "".join(text.split()).lower()
    m = _SYNTAX.match(key)
    if not m:
        raise InvalidMoveError(
            text,
            _("write <card>:<cell> to remove a cube (Y4:c2) or <card>:x to discard "
              "(Y4:x); cards are a colour R Y G B K W and a symbol 1-6, green cards "
              "end in g (Y5g)"),
        )
    colour, symbol, green, target = m.groups()
    code = colour.upper() + symbol + green
    card = CARD_INDEX.get(code)
    if card is None:
        raise InvalidMoveError(
            text,
            _("there is no green card {code}: green set k pairs colour R,Y,G,B,K,W "
              "(0-5) number i with symbol ((i + k) mod 6) + 1").format(code=code),
        )
    cell = DISCARD if target == "x" else CELL_INDEX[target]
    return MOVES[card][cell]
