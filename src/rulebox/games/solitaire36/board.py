"""The 36 to 1 grid and cards, written once as tables.

Cells are numbered row by row from a1: ``cell = 6 * rank_index + file_index`` (a1=0, b1=1, ...,
f1=5, a2=6, ..., f6=35). A set of cells is an ``int`` bit mask (bit ``cell``), so that "cubes of
this colour or in this column that have a neighbour" is a handful of integer operations.

Files ``a``-``f`` are the symbol columns (1 drop ... 6 arrow); ranks ``1``-``6`` are the rows.
Colours are numbered R, Y, G, B, K, W = 0-5 (S36-7 uses these numbers).

Cards are numbered too: the 36 standard cards are ``6 * colour + symbol_index`` (R1=0, R2=1, ...,
W6=35); green card ``(set k, colour i)`` is ``36 + 6 * (k - 1) + i`` (S36-7).
"""

from __future__ import annotations

SIZE = 6
NUM_CELLS = SIZE * SIZE
FILES = "abcdef"
RANKS = "123456"

COLOURS = "RYGBKW"
COLOUR_NAMES = ("red", "yellow", "green", "blue", "black", "white")
SYMBOL_NAMES = ("drop", "hammers", "circles", "bricks", "wheel", "arrow")
"""Symbols 1-6 in order: symbol ``s`` heads file ``FILES[s - 1]``."""

CELL_NAMES: tuple[str, ...] = tuple(f + r for r in RANKS for f in FILES)
CELL_INDEX: dict[str, int] = {name: i for i, name in enumerate(CELL_NAMES)}

FULL = (1 << NUM_CELLS) - 1
FILE_MASKS: tuple[int, ...] = tuple(
    sum(1 << (SIZE * r + f) for r in range(SIZE)) for f in range(SIZE)
)
"""The cells of each file (symbol column), file a first."""
NOT_FILE_A = FULL & ~FILE_MASKS[0]
NOT_FILE_F = FULL & ~FILE_MASKS[SIZE - 1]


def cell_file(cell: int) -> int:
    """The file (symbol column) index 0-5 of a cell."""
    return cell % SIZE


def cell_rank(cell: int) -> int:
    """The rank (row) index 0-5 of a cell."""
    return cell // SIZE


def with_neighbour(occ: int) -> int:
    """The occupied cells of ``occ`` that have at least one orthogonally adjacent occupied cell
    (S36-2). Left/right shifts are masked so that rows do not wrap."""
    near = ((occ << 1) & NOT_FILE_A) | ((occ >> 1) & NOT_FILE_F) | (occ << SIZE) | (occ >> SIZE)
    return occ & near


def bits(mask: int) -> list[int]:
    """The cell numbers set in ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


STANDARD_GRID: tuple[int, ...] = tuple(cell_rank(c) for c in range(NUM_CELLS))
"""The standard setup: row 1 red, 2 yellow, 3 green, 4 blue, 5 black, 6 white."""

# --- cards -------------------------------------------------------------------------------------
GREEN_SETS = 3
NUM_STANDARD_CARDS = 36
NUM_CARDS = NUM_STANDARD_CARDS + 6 * GREEN_SETS


def green_symbol(k: int, colour: int) -> int:
    """The symbol (1-6) that green set ``k`` (1-3) pairs with colour ``colour`` (0-5): S36-7."""
    return (colour + k) % 6 + 1


CARD_COLOUR: list[int] = []
CARD_SYMBOL: list[int] = []
"""Symbol index 0-5 of each card (symbol 1 is index 0, the file ``a``)."""
CARD_GREEN_SET: list[int] = []
"""0 for a standard card, else the green set 1-3."""
for _c in range(6):
    for _s in range(6):
        CARD_COLOUR.append(_c)
        CARD_SYMBOL.append(_s)
        CARD_GREEN_SET.append(0)
for _k in range(1, GREEN_SETS + 1):
    for _c in range(6):
        CARD_COLOUR.append(_c)
        CARD_SYMBOL.append(green_symbol(_k, _c) - 1)
        CARD_GREEN_SET.append(_k)

CARD_CODES: tuple[str, ...] = tuple(
    COLOURS[c] + str(s + 1) + ("g" if k else "")
    for c, s, k in zip(CARD_COLOUR, CARD_SYMBOL, CARD_GREEN_SET, strict=True)
)
CARD_INDEX: dict[str, int] = {code: i for i, code in enumerate(CARD_CODES)}
CARD_SORT_KEY: tuple[tuple[int, int, int], ...] = tuple(
    (c, s, k) for c, s, k in zip(CARD_COLOUR, CARD_SYMBOL, CARD_GREEN_SET, strict=True)
)
"""Cards sort by colour (R..W), then symbol, then standard before green."""
CARD_FILE_MASK: tuple[int, ...] = tuple(FILE_MASKS[s] for s in CARD_SYMBOL)


def deck_cards(green: int) -> list[int]:
    """The cards of the deck with ``green`` green sets shuffled in (S36-7), in card order."""
    return list(range(NUM_STANDARD_CARDS + 6 * green))


def card_phrase(card: int) -> str:
    """A card in words: ``Y4 (yellow border, 4 bricks)``."""
    s = CARD_SYMBOL[card]
    green = ", green back" if CARD_GREEN_SET[card] else ""
    return f"{CARD_CODES[card]} ({COLOUR_NAMES[CARD_COLOUR[card]]} border, {s + 1} " \
           f"{SYMBOL_NAMES[s]}{green})"


def sort_cards(cards: list[int] | set[int] | tuple[int, ...]) -> list[int]:
    """Cards in the order R..W, symbol 1..6, standard before green."""
    return sorted(cards, key=CARD_SORT_KEY.__getitem__)
