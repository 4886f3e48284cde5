"""Whether a drawn 36 to 1 position could have been reached: the checks behind ``load``.

A loaded position (the engine's ``load``, ``from_json`` of a bare position, ``from_diagram``)
must be one that some shuffle of the deck and some legal play lead to. Checking that exactly is
a search; what is checked here are conditions every reachable position meets, so that no
reachable position is ever refused (random playouts in the tests load every position they
reach):

* every card on the discard pile was played once, in order: either it removed one cube
  (S36-1) or it was discarded unused (S36-3); so exactly ``36 - cubes standing`` of them
  removed a cube;
* a card may be discarded unused only while the draw pile lasts (S36-3): the cards played
  after the pile ran out removed a cube;
* a card may be discarded unused only when it can remove no cube; cubes only ever leave the
  grid (S36-4), so a cube that still stands with a standing neighbour and matches a discarded
  card (its colour, or its symbol column) stood, with that neighbour, when the card was
  played: such a card removed a cube;
* the game stops at one cube (S36-5): with one cube left, the last card played removed a cube;
* the cubes gone and the cards that removed them pair off one to one, each card matching its
  cube (S36-1): a bipartite matching that must cover every card that removed a cube. With
  ``grid=random`` the colours of the cubes gone are unknown, only how many of each colour;
  a card then takes a cube of its column (any colour) or one of the missing cubes of its colour.

(The order of the face-up cards is never a constraint: any order of plays is dealt by laying
the discards in order, then the face-up cards, then the pile.)
"""

from __future__ import annotations

from collections.abc import Sequence

from rulebox.games.solitaire36.board import (
    CARD_CODES,
    CARD_COLOUR,
    CARD_FILE_MASK,
    CARD_SYMBOL,
    CELL_NAMES,
    COLOUR_NAMES,
    NUM_CELLS,
    SIZE,
    bits,
    cell_file,
    with_neighbour,
)

EMPTY = -1


def impossibility(
    colours: Sequence[int],
    standard: Sequence[int] | None,
    faceup: Sequence[int],
    pile: Sequence[int],
    discard: Sequence[int],
    literal: bool,
) -> str | None:
    """Why no play can reach this position, in plain words with the rule broken, or ``None``.

    ``colours`` is the grid (a colour 0-5 per cell, ``EMPTY`` for none); ``standard`` the
    colour of every cell at the start when it is known (the standard grid, S36-8), else
    ``None``; ``pile`` next card first, ``discard`` first played first. The counts (each card
    once, at most two face up, no more cubes gone than cards played) are checked by the caller.
    """
    deck_size = len(faceup) + len(pile) + len(discard)
    if literal and len(faceup) < 2:
        return ("with end=literal the game ends when the last card is drawn, so two cards "
                "always lie face up [S36-6]")
    occ = 0
    masks = [0] * 6
    for cell, colour in enumerate(colours):
        if colour != EMPTY:
            occ |= 1 << cell
            masks[colour] |= 1 << cell
    gone = NUM_CELLS - occ.bit_count()
    near = with_neighbour(occ)
    # the cards that cannot have been discarded unused, with the reason for the first of each
    forced: dict[int, str] = {}
    last_with_pile = deck_size - 2  # the plays 1..deck_size-2 each drew a card
    for i, card in enumerate(discard, start=1):
        if i > last_with_pile:
            forced[i - 1] = "was played after the draw pile ran out [S36-3]"
            continue
        hit = near & (masks[CARD_COLOUR[card]] | CARD_FILE_MASK[card])
        if hit:
            cell = bits(hit)[0]
            forced[i - 1] = (f"could still remove the cube on {CELL_NAMES[cell]}, which has a "
                             "neighbour, so it was never discarded unused [S36-3]")
    if discard and occ.bit_count() == 1 and (len(discard) - 1) not in forced:
        forced[len(discard) - 1] = ("was the last card played and the game stops at one cube, "
                                    "so it removed a cube [S36-5]")
    if len(forced) > gone:
        shown = ", ".join(CARD_CODES[discard[i]] for i in sorted(forced)[:8])
        first = min(forced)
        return (f"{len(forced)} of the discarded cards ({shown}) must each have removed a cube, "
                f"but only {gone} cubes are gone: {CARD_CODES[discard[first]]} "
                f"{forced[first]}")
    # the pairing of cards that removed a cube with the cubes gone (S36-1)
    empty = [c for c in range(NUM_CELLS) if not occ >> c & 1]
    right: list[tuple[int, int]] = []  # (cell, -1) a cell; (-1, colour) a cube of a colour
    if standard is not None:
        right = [(c, -1) for c in empty]
    else:
        right = [(c, -1) for c in empty]
        for colour in range(6):
            right += [(-1, colour)] * (SIZE - masks[colour].bit_count())

    def fits(card: int, node: tuple[int, int]) -> bool:
        cell, colour = node
        if cell >= 0:
            if cell_file(cell) == CARD_SYMBOL[card]:
                return True
            return standard is not None and standard[cell] == CARD_COLOUR[card]
        return colour == CARD_COLOUR[card]

    edges = [[j for j, node in enumerate(right) if fits(card, node)] for card in discard]
    owner: list[int] = [-1] * len(right)

    def augment(i: int, seen: list[bool]) -> bool:
        for j in edges[i]:
            if not seen[j]:
                seen[j] = True
                if owner[j] < 0 or augment(owner[j], seen):
                    owner[j] = i
                    return True
        return False

    for i in sorted(forced):
        if not augment(i, [False] * len(right)):
            card = discard[i]
            return (f"the cards that must have removed a cube cannot each have removed a "
                    f"different missing cube of their colour or column: "
                    f"{CARD_CODES[card]} ({COLOUR_NAMES[CARD_COLOUR[card]]}, column "
                    f"{'abcdef'[CARD_SYMBOL[card]]}) {forced[i]}, and no missing cube is left "
                    "for it [S36-1]")
    matched = len(forced)
    for i in range(len(discard)):
        if i not in forced and matched < gone and augment(i, [False] * len(right)):
            matched += 1
    if matched < gone:
        return (f"{gone} cubes are gone, but the discarded cards can have removed at most "
                f"{matched} of them: each cube is removed by a different card of its colour or "
                "its column [S36-1]")
    return None
