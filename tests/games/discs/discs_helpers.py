"""Drawn Discs positions for the tests, loaded through the JSON state.

A board is drawn as three rows of discs, rank 3 on top, each disc three characters wide and
three lines high, with the holes where they lie on a die::

    nw . ne        0.1   player 0 in nw, player 1 in ne
    .  c  .        .0.   player 0 in the centre
    sw . se        ...   sw and se empty

``0`` and ``1`` are pins of players 0 and 1, ``.`` an empty hole (the characters between
holes are always ``.``).
"""

from __future__ import annotations

from typing import Any

from rulebox.games.discs.geometry import DISC_NAMES, FILES, RANKS
from rulebox.games.discs.rules import Discs

START = """
    0.0 ... 1.1
    .0. ... .1.
    0.0 ... 1.1

    ... ... ...
    ... ... ...
    ... ... ...

    1.1 ... 0.0
    .1. ... .0.
    1.1 ... 0.0
"""
"""Player 0 on a3 and c1, player 1 on a1 and c3: the fixed set-up ``choose silver a1c3``."""

SETUP = ("arrange RGBGBRBRG", "choose silver a1c3")
"""The fixed set-up of the tests: colours by rank from a1 (a1=R b1=G c1=B / a2=G b2=B c2=R /
a3=B b3=R c3=G); player 1 silver on a1 and c3, player 0 black on a3 and c1."""

_SPOTS = {(0, 0): "nw", (0, 2): "ne", (1, 1): "c", (2, 0): "sw", (2, 2): "se"}


def read_board(drawing: str) -> list[list[str]]:
    """The holes of each player's pins in a drawing (see the module docstring)."""
    rows = [line.split() for line in drawing.strip("\n").splitlines() if line.strip()]
    if len(rows) != 9 or any(len(r) != 3 or any(len(c) != 3 for c in r) for r in rows):
        raise ValueError("a board is 9 lines of 3 discs, 3 characters each")
    pins: list[list[str]] = [[], []]
    for i, row in enumerate(rows):
        rank = RANKS[2 - i // 3]
        for f, cells in zip(FILES, row, strict=True):
            for j, ch in enumerate(cells):
                spot = _SPOTS.get((i % 3, j))
                if ch in "01":
                    if spot is None:
                        raise ValueError(f"no hole at line {i + 1}, disc {f}{rank}, column {j}")
                    pins[int(ch)].append(f"{f}{rank}.{spot}")
    return [sorted(p) for p in pins]


def start() -> Discs:
    """The fixed set-up, played from the beginning."""
    game = Discs.new({"seed": "1"})
    for text in SETUP:
        game.apply(text)
    return game


def drawn(board: str, **fields: Any) -> Discs:
    """A position of the fixed set-up with the pins of ``board`` and any position fields
    overridden (``to_move``, ``phase``, ``locks``, ``barriers``, ``tokens``, ``home``, ...),
    loaded through the JSON state. ``home`` defaults to the starting discs still occupied."""
    position = start().position_json()
    position["pins"] = read_board(board)
    occupied = [{p.split(".")[0] for p in pins} for pins in position["pins"]]
    position["home"] = [[d for d in position["start"][p] if d in occupied[p]] for p in (0, 1)]
    position["seen"] = {}
    position.update(fields)
    state = {"format": 1, "game": "discs", "options": {"seed": "1"}, "history": [],
             "position": position}
    return Discs.from_json(state)


def moves_text(game: Discs) -> list[str]:
    """The legal moves in canonical text, sorted."""
    return sorted(str(m) for m in game.legal_moves())


__all__ = ["DISC_NAMES", "SETUP", "START", "drawn", "moves_text", "read_board", "start"]
