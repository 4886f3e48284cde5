"""Columba's cards and the grid they lie on.

The deck lives in ``deck.json`` (one data file): the printed faces are not known, so the project
defines its own 30 cards (120 fields, 30 of each pigeon colour, every card at least 2 colours),
4 starting objectives and the Pond card (each of those shows the 4 colours once).

Colours are numbered 0-3 and written with one letter: ``W`` white, ``G`` grey, ``B`` brown,
``K`` black (the rulebook only says "4 colours"; the names are ours).

Grid squares ``x,y`` (x east, y south) are packed into one int key, so that the neighbours of a
square are ``k - 1`` (north), ``k + 1`` (south), ``k - STRIDE`` (west) and ``k + STRIDE`` (east).
A card lies on its top-left square ``k`` and covers ``k + OFFSETS[i]`` for i = 0..3 (top-left,
top-right, bottom-left, bottom-right). A rotation is one mapping over those four positions
(:data:`ROTATE_CW`), applied as often as needed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources

COLOURS = "WGBK"
"""Pigeon colour letters, by colour number."""
COLOUR_NAMES = ("white", "grey", "brown", "black")
COLOUR_INDEX = {c: i for i, c in enumerate(COLOURS)}

STRIDE = 1024
ORIGIN = 512
"""Squares ``x,y`` with -512 <= x, y < 512 can be keyed (more than 35 cards and 60 tiles reach)."""


def key(x: int, y: int) -> int:
    """The int key of square ``x,y``."""
    return (x + ORIGIN) * STRIDE + (y + ORIGIN)


def xy(k: int) -> tuple[int, int]:
    """The ``(x, y)`` of a key."""
    return k // STRIDE - ORIGIN, k % STRIDE - ORIGIN


def sq_text(k: int) -> str:
    """``x,y`` text of a key."""
    x, y = xy(k)
    return f"{x},{y}"


NEIGHBOURS = (-1, 1, -STRIDE, STRIDE)
OFFSETS = (0, STRIDE, 1, STRIDE + 1)
"""Keys of a card's fields relative to its top-left: top-left, top-right, bottom-left,
bottom-right."""

# A quarter turn clockwise: the new top-left is the old bottom-left, new top-right the old
# top-left, new bottom-right the old top-right, new bottom-left the old bottom-right.
ROTATE_CW = (2, 0, 3, 1)
"""``new[i] = old[ROTATE_CW[i]]`` for positions in :data:`OFFSETS` order."""

EDGE_NEIGHBOURS = (
    -1, STRIDE - 1, -STRIDE, 2 * STRIDE, -STRIDE + 1, 2 * STRIDE + 1, 2, STRIDE + 2,
)
"""The 8 squares that share an edge with a card lying on top-left 0."""


@dataclass(frozen=True)
class Card:
    """One card: ``fields`` are the colours at top-left, top-right, bottom-left, bottom-right."""

    id: str
    fields: tuple[int, int, int, int]

    def rotated(self, quarter_turns: int) -> tuple[int, int, int, int]:
        """The colours in :data:`OFFSETS` order after ``quarter_turns`` clockwise turns."""
        f = self.fields
        for _ in range(quarter_turns % 4):
            f = tuple(f[ROTATE_CW[i]] for i in range(4))  # type: ignore[assignment]
        return f

    @property
    def rows(self) -> tuple[str, str]:
        f = self.fields
        return COLOURS[f[0]] + COLOURS[f[1]], COLOURS[f[2]] + COLOURS[f[3]]


def _card(entry: dict[str, object]) -> Card:
    rows = entry["rows"]
    assert isinstance(rows, list)  # our own data file
    text = rows[0] + rows[1]
    return Card(str(entry["id"]), tuple(COLOUR_INDEX[c] for c in text))  # type: ignore[arg-type]


def _load() -> tuple[dict[str, Card], tuple[str, ...], tuple[str, ...], str, str]:
    raw = json.loads(resources.files(__package__).joinpath("deck.json").read_text("utf-8"))
    cards = [_card(e) for e in raw["cards"]]
    starting = [_card(e) for e in raw["starting"]]
    pond = _card(raw["pond"])
    by_id = {c.id: c for c in (*cards, *starting, pond)}
    return by_id, tuple(c.id for c in cards), tuple(c.id for c in starting), pond.id, raw["note"]


CARDS, DECK_IDS, STARTING_IDS, POND_ID, DECK_NOTE = _load()
"""Every card by id; the 30 deck cards; the 4 starting objectives; the Pond; the deck's note."""

ROTATIONS: dict[str, tuple[tuple[int, int, int, int], ...]] = {
    cid: tuple(card.rotated(r) for r in range(4)) for cid, card in CARDS.items()
}
"""Each card's colours in :data:`OFFSETS` order, for 0, 90, 180 and 270 degrees clockwise."""


def canonical_rotations(card: str) -> tuple[int, ...]:
    """For each rotation of ``card``, the lowest rotation that lays the same colours (a card
    such as BG/GB reads the same turned 180 degrees: one placement, two spellings)."""
    rots = ROTATIONS[card]
    return tuple(rots.index(rots[r]) for r in range(4))


CANONICAL: dict[str, tuple[int, ...]] = {cid: canonical_rotations(cid) for cid in CARDS}
"""Each card's lowest rotation laying the same colours, for each of its 4 rotations."""
