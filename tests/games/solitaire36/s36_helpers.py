"""Helpers for the 36 to 1 tests: positions drawn as pictures, and short ways to play."""

from __future__ import annotations

from rulebox.games.solitaire36.rules import Solitaire36

STANDARD_DECK = [c + s for c in "RYGBKW" for s in "123456"]


def drawn(
    picture: str,
    faceup: list[str],
    pile: list[str],
    discard: list[str] | None = None,
    **options: str,
) -> Solitaire36:
    """A game in a drawn position, loaded through the game's diagram. ``picture`` is the grid
    with rank 6 on top, one line per rank, cells separated by spaces (``.`` empty). Cards not in
    ``faceup`` or ``pile`` are put on the discard pile unless ``discard`` is given. Options
    default to ``grid=random`` so that any colour may stand anywhere (the standard grid only
    allows a rank's own colour)."""
    rows = [line.split() for line in picture.strip().splitlines()]
    grid = ["".join(row) for row in reversed(rows)]
    opts = {"seed": "0", "grid": "random", **options}
    game = Solitaire36.new(opts)
    if discard is None:
        used = set(faceup) | set(pile)
        discard = [c for c in (*game.position_json()["faceup"], *game.position_json()["pile"])
                   if c not in used]
        discard.sort()
    def cards(codes: list[str]) -> str:
        return ",".join(codes) or "-"

    diagram = " ".join(("/".join(reversed(grid)), cards(faceup), cards(pile), cards(discard)))
    return Solitaire36.from_diagram(diagram, game.options())


def deal(first: list[str], **options: str) -> Solitaire36:
    """A standard-grid game whose deck starts with ``first`` (the rest in card order)."""
    rest = [c for c in STANDARD_DECK if c not in first]
    return Solitaire36.new({"seed": "0", **options, "deck": ",".join([*first, *rest])})


def moves_text(game: Solitaire36) -> list[str]:
    """The legal moves as sorted text."""
    return sorted(str(m) for m in game.legal_moves())
