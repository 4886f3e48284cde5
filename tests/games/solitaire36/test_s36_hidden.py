"""36 to 1 hides the order of the draw pile and nothing else: the views of two games whose
piles differ only in the order of unseen cards are identical (S36-4: the discard pile is public;
S36-10: the deck option is not shown)."""

from __future__ import annotations

import json
import random

from s36_helpers import STANDARD_DECK

from rulebox.games.solitaire36.rules import Solitaire36


def game_with(deck: list[str], **options: str) -> Solitaire36:
    return Solitaire36.new({"seed": "1", **options, "deck": ",".join(deck)})


def test_S36_10_views_hide_the_pile_order_and_the_deck_option() -> None:
    chooser = random.Random(3)
    for trial in range(20):
        deck = list(STANDARD_DECK)
        chooser.shuffle(deck)
        a = game_with(deck)
        b_deck = deck[:2] + chooser.sample(deck[2:], 34)
        b = game_with(b_deck, seed=str(trial + 100))
        assert a.view(0) == b.view(0)
        assert a.view(None) == b.view(0)
        text = json.dumps(a.view(0))
        assert "seed" not in a.view(0)["options"] and "deck" not in a.view(0)["options"]
        assert ",".join(deck[2:5]) not in text


def test_S36_4_views_stay_identical_while_the_same_cards_come() -> None:
    """Two decks that share the first 12 cards and hold the rest in different orders: the same
    moves give the same views as long as the drawn cards are the same."""
    chooser = random.Random(8)
    deck = list(STANDARD_DECK)
    chooser.shuffle(deck)
    other = deck[:12] + list(reversed(deck[12:]))
    a, b = game_with(deck), game_with(other)
    for _ in range(10):  # 10 moves draw cards 3-12
        move = chooser.choice(a.legal_moves())
        a.apply(move)
        b.apply(str(move))
        assert a.view(0) == b.view(0)
    view = a.view(0)
    assert view["discard"] == [str(m).split(":")[0] for m in a.history]
    assert view["pile_count"] == 24
    assert view["unseen"] == sorted(deck[12:], key=STANDARD_DECK.index)
    assert a.position_json()["pile"] != b.position_json()["pile"]


def test_S36_10_view_lists_unseen_cards_as_a_sorted_set() -> None:
    game = Solitaire36.new({"seed": "4", "green": "2"})
    view = game.view(0)
    pile = game.position_json()["pile"]
    assert sorted(view["unseen"]) == sorted(pile)
    assert view["unseen"] != pile
    colours = ["RYGBKW".index(c[0]) for c in view["unseen"]]
    assert colours == sorted(colours)


def test_determinize_reshuffles_only_the_pile() -> None:
    game = Solitaire36.new({"seed": "5"})
    for _ in range(6):
        game.apply(game.legal_moves()[0])
    before = game.position_json()
    orders = set()
    for i in range(5):
        d = game.determinize(0, random.Random(i))
        assert d.view(0) == game.view(0)
        pos = d.position_json()
        assert sorted(pos["pile"]) == sorted(before["pile"])
        assert {k: v for k, v in pos.items() if k != "pile"} == {
            k: v for k, v in before.items() if k != "pile"}
        orders.add(tuple(pos["pile"]))
        d.apply_unchecked(d.legal_moves()[0])
        d.undo()
        assert d.position_json() == pos
    assert len(orders) == 5
    assert game.position_json() == before
