"""Count Red's board and notation: 16 fields ``A1``-``D4``, the moves ``B2-C2`` and ``claim``.

Fields are numbered ``row * 4 + column`` from 0 (A1=0, B1=1, ..., D1=3, A2=4, ..., D4=15). Row 1
is worth 3, row 2 is worth 2, row 3 is worth 1, row 4 is worth 0. The neighbourhood of a field
is computed once from the coordinates (the up to 8 fields around it).

Pieces are small integers: 0 is "no piece", ``1 + number + 4 * red`` otherwise, so black 0..3
are 1..4 and red 0..3 are 5..8. :data:`RED` and :data:`NUMBER` read them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rulebox.core.errors import InvalidMoveError
from rulebox.i18n import Noun, _, noun

COLUMNS = "ABCD"
ROWS = "1234"
NUM_FIELDS = 16

FIELD_NAMES: tuple[str, ...] = tuple(c + r for r in ROWS for c in COLUMNS)
FIELD_INDEX: dict[str, int] = {name: i for i, name in enumerate(FIELD_NAMES)}


def field_xy(field: int) -> tuple[int, int]:
    """(column index 0..3, row index 0..3) of a field; row index 0 is row 1."""
    return field & 3, field >> 2


def field_value(field: int) -> int:
    """The points printed on a field: row 1 = 3, row 2 = 2, row 3 = 1, row 4 = 0."""
    return 3 - (field >> 2)


VALUE: tuple[int, ...] = tuple(field_value(f) for f in range(NUM_FIELDS))

def _king_distance(f: int, g: int) -> int:
    (cf, rf), (cg, rg) = field_xy(f), field_xy(g)
    return max(abs(cf - cg), abs(rf - rg))


NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(g for g in range(NUM_FIELDS) if _king_distance(f, g) == 1) for f in range(NUM_FIELDS)
)
"""The up to 8 fields around each field (orthogonal and diagonal)."""

COLUMN_FIELDS: tuple[tuple[int, ...], ...] = tuple(
    tuple(row * 4 + col for row in range(4)) for col in range(4)
)
"""Each column's fields from row 1 to row 4."""

ROW_FIELDS: tuple[tuple[int, ...], ...] = tuple(
    tuple(row * 4 + col for col in range(4)) for row in range(4)
)

FIELDS_OF_VALUE: tuple[tuple[int, ...], ...] = tuple(ROW_FIELDS[3 - v] for v in range(4))
"""The four fields worth 0, 1, 2, 3 (an empty field takes only a piece of its own number)."""

# --- pieces --------------------------------------------------------------------------------
BLACK, RED_COLOUR = 0, 1


def piece_code(red: int, number: int) -> int:
    """The piece of that colour (1 red, 0 black) and number."""
    return 1 + number + 4 * red


RED: tuple[int, ...] = (0, 0, 0, 0, 0, 1, 1, 1, 1)
"""1 for a red piece, 0 for a black piece or none."""
NUMBER: tuple[int, ...] = (-1, 0, 1, 2, 3, 0, 1, 2, 3)


def piece_text(piece: int) -> str:
    """``r2`` (red 2), ``b3`` (black 3)."""
    return ("r" if RED[piece] else "b") + str(NUMBER[piece])


def piece_words(piece: int) -> Noun:
    """``red 2``, ``black 3``: a noun phrase, declined by the sentence it is put into
    (``{piece:acc}``; docs/LANGUAGES.md)."""
    if RED[piece]:
        return noun("noun: piece", "red {number}", number=NUMBER[piece])
    return noun("noun: piece", "black {number}", number=NUMBER[piece])


PIECE_BY_TEXT: dict[str, int] = {piece_text(p): p for p in range(1, 9)}


def start_piece(field: int) -> int:
    """The piece a field holds at the start (CR-1): a checkerboard, red where column index +
    row number is even (A = 0, so A1 is black and B1 red), numbered with the field's value."""
    col, row = field_xy(field)
    return piece_code(1 if (col + row + 1) % 2 == 0 else 0, field_value(field))


# --- moves ---------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class CountRedMove:
    """Lift the top piece of ``src`` and set it on ``dst``; ``src == dst == -1`` is ``claim``."""

    src: int
    dst: int

    def __str__(self) -> str:
        if self.src < 0:
            return "claim"
        return f"{FIELD_NAMES[self.src]}-{FIELD_NAMES[self.dst]}"

    def __repr__(self) -> str:
        return f"parse_countred_move({str(self)!r})"

    @property
    def is_claim(self) -> bool:
        """Whether this is the repetition claim (CR-12)."""
        return self.src < 0


CLAIM = CountRedMove(-1, -1)
"""Claim a draw by repetition (CR-12)."""

MOVES: tuple[tuple[CountRedMove, ...], ...] = tuple(
    tuple(CountRedMove(s, t) for t in range(NUM_FIELDS)) for s in range(NUM_FIELDS)
)
"""``MOVES[src][dst]``: every move made once (a move to the same field is never legal)."""

_SYNTAX = re.compile(r"^([a-z])(\d{1,2})-?([a-z])(\d{1,2})$")


def parse_field(text: str) -> int:
    """A field's index from its name (case does not matter); ``ValueError`` if there is none."""
    key = text.strip().upper()
    if key not in FIELD_INDEX:
        raise ValueError(_("there is no field {name!r} (fields are A1 to D4)").format(
            name=text.strip()[:10]))
    return FIELD_INDEX[key]


def parse_countred_move(text: str) -> CountRedMove:
    """Read ``B2-C2`` (or ``b2 - c2``, ``b2c2``) or ``claim``. Syntax only: whether the move is
    legal is for the rules to say."""
    key = "".join(text.split()).lower()
    if key == "claim":
        return CLAIM
    m = _SYNTAX.match(key)
    if not m:
        raise InvalidMoveError(
            text, _("write a move as <from>-<to> with fields A1 to D4 (e.g. B2-C2), or claim")
        )
    c1, r1, c2, r2 = m.groups()
    fields = []
    for name in (c1 + r1, c2 + r2):
        try:
            fields.append(parse_field(name))
        except ValueError as e:
            raise InvalidMoveError(text, str(e)) from None
    return MOVES[fields[0]][fields[1]]
