"""Perft counts for Discs, kept as data in perft.json. A ply is one action (one protocol move):
``arrange``, ``choose``, a main action (pin move, quarter turn, ``pass``), ``lock``, ``unlock``,
``bar``, ``unbar`` or ``end``; a finished game counts as a leaf."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulebox.core.perft import perft
from rulebox.games.discs.rules import Discs

DATA = json.loads((Path(__file__).parent / "perft.json").read_text())


def test_perft_from_the_fixed_set_up_counts_by_hand_to_depth_2() -> None:
    case = DATA["positions"][1]
    assert case["moves"] == ["arrange RGBGBRBRG", "choose silver a1c3"]
    # 10 line moves and 4 quarter turns; after each, end + 8 locks (8 own pins in outer holes)
    # + 32 barrier lines
    assert case["counts"][:2] == [14, 14 * (1 + 8 + 32)]


def test_perft_from_the_start_counts_the_set_up() -> None:
    # 1680 arrangements, then 4 choices, then 14 first actions whatever the choice
    assert DATA["positions"][0]["counts"] == [1680, 1680 * 4, 1680 * 4 * 14]


@pytest.mark.parametrize("case", DATA["positions"], ids=lambda c: c["name"])
def test_perft_counts(case: dict) -> None:
    game = Discs.new({"seed": "0"})
    for move in case["moves"]:
        game.apply(move)
    before = game.to_json()
    counts = [perft(game, d) for d in range(1, len(case["counts"]) + 1)]
    assert counts == case["counts"]
    assert game.to_json() == before  # make/unmake leaves the position as it was
