"""Determinization never depends on the hidden order: two games that differ only in the order of
cards nobody has seen give the same determinized copy for the same random draws. (Otherwise an
agent with a fixed seed would choose differently depending on the hidden deck.)"""

from __future__ import annotations

import random

from rulebox.games.columba.rules import Columba
from rulebox.games.solitaire36.rules import Solitaire36

CARDS_36 = [f"{c}{s}" for c in "RYGBKW" for s in range(1, 7)]


def test_36to1_determinize_ignores_the_hidden_pile_order() -> None:
    deck = list(CARDS_36)
    other = deck[:2] + list(reversed(deck[2:]))  # the same face-up cards, another pile order
    a = Solitaire36.new({"deck": ",".join(deck)})
    b = Solitaire36.new({"deck": ",".join(other)})
    assert a.view(0) == b.view(0)
    da = a.determinize(0, random.Random(7)).position_json()
    db = b.determinize(0, random.Random(7)).position_json()
    assert da == db


def test_columba_determinize_ignores_the_hidden_deck_order() -> None:
    g = Columba.new({"seed": "3"})
    deck = g.position_json()["deck"]
    state = g.to_json()
    state["position"]["deck"] = list(reversed(deck))
    h = Columba.from_json(state)
    assert g.view(0) == h.view(0) and g.view(1) == h.view(1)
    dg = g.determinize(0, random.Random(11)).position_json()
    dh = h.determinize(0, random.Random(11)).position_json()
    assert dg == dh
