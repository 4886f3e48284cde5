"""Perft counts for Columns, kept as data in perft.json (the start position to depth 3)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulebox.core.perft import perft
from rulebox.games.columns import Columns

DATA = json.loads((Path(__file__).parent / "perft.json").read_text())


def test_perft_data_covers_the_start_to_depth_3() -> None:
    start = DATA["positions"][0]
    assert start["moves"] == [] and start["counts"][:3] == [75, 4746, 264908]


@pytest.mark.parametrize("case", DATA["positions"], ids=lambda c: c["name"])
def test_perft_counts(case: dict) -> None:
    game = Columns.new(dict(case["options"], seed="0"))
    for move in case["moves"]:
        game.apply(move)
    counts = [perft(game, d) for d in range(1, len(case["counts"]) + 1)]
    assert counts == case["counts"]
