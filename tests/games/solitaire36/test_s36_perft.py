"""36 to 1 perft: legal-move counts from fixed deals, depth 1-3, kept in ``perft.json``
(``rulebox.core.perft``: a finished game counts as a leaf; draws follow the fixed deck).

At every node up to depth 2 the generated moves are also compared with a naive reading of the
rules written here from the position's JSON, so the counts do not only repeat themselves.
Regenerate (after a deliberate rules change) with
``/work/venv/bin/python tests/games/solitaire36/test_s36_perft.py``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rulebox.core.perft import perft
from rulebox.games.solitaire36.rules import Solitaire36

DATA = Path(__file__).with_name("perft.json")
START = [
    {"seed": "1"},
    {"seed": "2"},
    {"seed": "3", "grid": "random"},
    {"seed": "4", "green": "2"},
    {"seed": "5", "grid": "random", "green": "3", "end": "literal"},
]
LATE: list[tuple[dict[str, str], int]] = [
    ({"seed": "6"}, 31),
    ({"seed": "7", "end": "literal"}, 32),
]
"""Deals played some moves on (the first legal move each time): within depth 3 the pile runs out
(and, with end=literal, the game ends: those leaves count once)."""


def naive_legal(game: Solitaire36) -> set[str]:
    """The legal moves worked out from the position's JSON, straight from the rule texts and
    independently of the game's bit masks: S36-1 (colour or column), S36-2 (an orthogonal
    neighbour), S36-3 (discard only an unusable card, while the pile lasts), S36-5 (one cube
    left ends the game), S36-6 (end=literal: nothing once the pile is empty)."""
    pos = game.position_json()
    grid = {(f, r): pos["grid"][r][f] for r in range(6) for f in range(6)
            if pos["grid"][r][f] != "."}
    if len(grid) == 1 or (not pos["pile"] and game.options()["end"] == "literal"):
        return set()
    legal = set()
    for card in pos["faceup"]:
        colour, column = card[0], int(card[1]) - 1
        usable = False
        for (f, r), cube in grid.items():
            near = any((f + df, r + dr) in grid for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)))
            if (cube == colour or f == column) and near:
                legal.add(f"{card}:{'abcdef'[f]}{r + 1}")
                usable = True
        if not usable and pos["pile"]:
            legal.add(f"{card}:x")
    return legal


def late_game(options: dict[str, str], moves: int) -> Solitaire36:
    game = Solitaire36.new(options)
    for _ in range(moves):
        game.apply(game.legal_moves()[0])
    return game


def _name(options: dict[str, str]) -> str:
    return " ".join(f"{k}={v}" for k, v in options.items())


def positions() -> list[tuple[str, Solitaire36]]:
    out = [(_name(o), Solitaire36.new(o)) for o in START]
    out += [(f"{_name(o)} after {n} moves", late_game(o, n)) for o, n in LATE]
    return out


def compute() -> list[dict[str, Any]]:
    return [
        {"position": name, "counts": [perft(game, d) for d in (1, 2, 3)]}
        for name, game in positions()
    ]


CASES = json.loads(DATA.read_text(encoding="utf-8")) if DATA.exists() else []


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["position"])
def test_S36_1_perft_counts(case: dict[str, Any]) -> None:
    game = dict(positions())[case["position"]]
    before = game.position_json()
    assert [perft(game, d) for d in (1, 2, 3)] == case["counts"]
    assert game.position_json() == before


@pytest.mark.parametrize("name", [name for name, _ in positions()])
def test_S36_2_S36_3_generated_moves_match_a_naive_reading(name: str) -> None:
    game = dict(positions())[name]
    assert {str(m) for m in game.legal_moves()} == naive_legal(game)
    for move in game.legal_moves():
        game.apply_unchecked(move)
        assert {str(m) for m in game.legal_moves()} == naive_legal(game)
        for second in game.legal_moves():
            game.apply_unchecked(second)
            assert {str(m) for m in game.legal_moves()} == naive_legal(game)
            game.undo()
        game.undo()


def test_perft_data_covers_every_position() -> None:
    assert [c["position"] for c in CASES] == [name for name, _ in positions()]


if __name__ == "__main__":
    DATA.write_text(json.dumps(compute(), indent=1) + "\n", encoding="utf-8")
    print(DATA.read_text(encoding="utf-8"))
