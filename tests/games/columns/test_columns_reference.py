"""An independent, deliberately plain reading of COL-1..COL-7, used to cross-check the fast move
generator on every position of many random games (and so the perft data)."""

from __future__ import annotations

import random

import pytest

from rulebox.games.columns import Columns
from rulebox.games.columns.geometry import PIN_NAMES

FILES, RANKS = "abcd", "123"
STOCK = {"R": 12, "S": 3, "D": 3, "T": 3}


def neighbours(a: str, b: str) -> bool:
    df = abs(FILES.index(a[0]) - FILES.index(b[0]))
    dr = abs(RANKS.index(a[1]) - RANKS.index(b[1]))
    return df + dr == 1


def reference_legal(pins: dict[str, list[str]], me: int) -> set[str]:
    """Every placement the text allows; units are '<owner><kind>[number]' as in the JSON state."""
    used = {k: 0 for k in STOCK}
    seen = set()
    for units in pins.values():
        for u in units:
            if int(u[0]) == me and u not in seen:
                used[u[1]] += 1
                if u[1] in "DT":
                    seen.add(u)
    left = {k: STOCK[k] - used[k] for k in STOCK}
    height = {p: len(pins[p]) for p in PIN_NAMES}

    def top(p: str) -> str | None:
        return pins[p][-1] if pins[p] else None

    def different(x: str | None, y: str | None) -> bool:
        if x is None or y is None:
            return True  # the board is no piece
        if x[1] in "DT" or y[1] in "DT":
            return x != y
        return True  # two single-unit pieces on two pins are different pieces

    out = set()
    for p in PIN_NAMES:
        if height[p] < 5:
            t = top(p)
            if left["R"] and not (t and int(t[0]) != me and t[1] in "SDT"):
                out.add("R" + p)
            if left["S"]:
                out.add("S" + p)
    for a in PIN_NAMES:
        for b in PIN_NAMES:
            if not neighbours(a, b):
                continue
            if left["D"] and a < b and height[a] == height[b] < 5 and different(top(a), top(b)):
                out.add(f"D{a}{b}")
            if left["T"]:
                h = height[a]
                if h + 2 <= 5 and different(top(a), top(b)):
                    if height[b] == h:
                        out.add(f"T{a}{b}^")
                    if height[b] == h + 1:
                        out.add(f"T{a}{b}v")
    return out


@pytest.mark.parametrize("seed", range(40))
def test_generator_matches_the_reference_reading(seed: int) -> None:
    game = Columns.new(seed=seed)
    rng = random.Random(seed)
    while True:
        position = game.position_json()
        expected = reference_legal(position["pins"], position["to_move"])
        assert {str(m) for m in game.legal_moves()} == expected
        if not expected:
            assert game.is_terminal()
            break
        game.apply(rng.choice(sorted(expected)))
