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


def test_columba_agents_choose_alike_whatever_the_hidden_deck_order() -> None:
    """best (MCTS with the prior, widening and the root screen), greedy and the old search
    choose the same move in two games that differ only in the hidden order of the deck."""
    from rulebox.ai import make_agent

    g = Columba.new({"seed": "3"})
    rand = random.Random(1)
    for _ in range(9):  # a few turns in: dovecotes and estates to weigh
        moves = sorted(g.legal_moves(), key=str)
        g.apply(moves[rand.randrange(len(moves))])
    h = g.clone()
    h.reshuffle_unseen(random.Random(5))
    assert h.position_json()["deck"] != g.position_json()["deck"]
    assert g.view(g.current_player()) == h.view(h.current_player())
    for name, settings in (("best", {"iterations": "40", "seed": "2"}),
                           ("greedy", {"seed": "2"}),
                           ("mcts", {"iterations": "40", "seed": "2", "guide": "0"})):
        want = make_agent(name, "columba", settings).choose(g)
        assert make_agent(name, "columba", settings).choose(h) == want, name
