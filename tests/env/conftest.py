"""Shared helpers of the rulebox.env tests: two worlds that differ only in what nobody saw."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

Worlds = Callable[[str], tuple[dict[str, str], dict[str, str]]]


def _two_decks(game_id: str, shared: int, seed: int) -> tuple[str, str]:
    """Two deck orders with the same first ``shared`` cards and the rest in other orders."""
    if game_id == "36to1":
        from rulebox.games.solitaire36.board import CARD_CODES, NUM_STANDARD_CARDS

        cards = list(CARD_CODES[:NUM_STANDARD_CARDS])
    else:
        from rulebox.games.columba.cards import DECK_IDS

        cards = list(DECK_IDS)
    rng = random.Random(seed)
    rng.shuffle(cards)
    head, tail = cards[:shared], cards[shared:]
    other = list(tail)
    while other == tail:
        rng.shuffle(other)
    return ",".join(head + tail), ",".join(head + other)


def worlds(game_id: str) -> tuple[dict[str, str], dict[str, str]]:
    """Options of two worlds that differ only in what nobody has seen: for a dealt game two
    deck orders with the same first 12 cards, else two seeds (nothing else differs)."""
    if game_id in ("36to1", "columba"):
        a, b = _two_decks(game_id, 12, 7)
        return {"deck": a, "seed": "1"}, {"deck": b, "seed": "2"}
    if game_id == "countred":
        return {"seed": "1", "first": "0", "even": "1"}, {"seed": "2", "first": "0", "even": "1"}
    return {"seed": "1"}, {"seed": "2"}


@pytest.fixture
def two_worlds() -> Worlds:
    """:func:`worlds`, for the tests."""
    return worlds
