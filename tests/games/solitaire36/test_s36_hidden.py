"""36 to 1 hides the order of the draw pile and nothing else: the views of two games whose
piles differ only in the order of unseen cards are identical (S36-4: the discard pile is public;
S36-10: the deck option is not shown)."""

from __future__ import annotations

import json
import random

from rulebox.games.solitaire36.rules import Solitaire36
from tests.games.solitaire36.s36_helpers import STANDARD_DECK


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


def _played(seed: str, plies: int, **options: str) -> Solitaire36:
    game = Solitaire36.new({"seed": seed, **options})
    chooser = random.Random(int(seed))
    for _ in range(plies):
        game.apply(chooser.choice(game.legal_moves()))
    return game


def test_S36_10_reshuffle_unseen_keeps_every_view_and_changes_only_the_pile_order() -> None:
    game = _played("6", 5)
    before = game.position_json()
    views = (game.view(0), game.view(None))
    history = game.history
    game.reshuffle_unseen(random.Random(1))
    after = game.position_json()
    assert (game.view(0), game.view(None)) == views
    assert game.history == history
    assert {k: v for k, v in after.items() if k != "pile"} == {
        k: v for k, v in before.items() if k != "pile"}
    assert sorted(after["pile"]) == sorted(before["pile"])
    assert after["pile"] != before["pile"]


def test_S36_10_reshuffle_unseen_changes_the_next_draw_not_the_present() -> None:
    """The card that an undone move turned up is no longer certain to come again."""
    game = _played("9", 3)
    move = game.legal_moves()[0]
    game.apply(move)
    turned_up = set(game.faceup()) - {m.card for m in game.history[:-1]}
    game.undo()
    draws = set()
    for i in range(12):
        trial = game.clone()
        trial.reshuffle_unseen(random.Random(i))
        assert trial.view(0) == game.view(0)
        assert trial.legal_moves() == game.legal_moves()
        trial.apply(move)
        draws.add(tuple(sorted(set(trial.faceup()) - set(game.faceup()))))
    assert len(draws) > 1
    assert any(set(d) != turned_up for d in draws)


def test_S36_10_reshuffle_unseen_is_repeatable_with_the_same_rng() -> None:
    a, b = _played("4", 7), _played("4", 7)
    b_pile_before = b.position_json()["pile"]
    # the new order depends only on the rng and the unseen set, not on the old order
    b.reshuffle_unseen(random.Random(99))  # scramble b first
    assert b.position_json()["pile"] != b_pile_before
    a.reshuffle_unseen(random.Random(5))
    b.reshuffle_unseen(random.Random(5))
    assert a.position_json() == b.position_json()


def test_S36_10_state_round_trips_after_reshuffle_and_undo_still_works() -> None:
    for options in ({}, {"deck": ",".join(STANDARD_DECK)}, {"green": "1"}):
        game = _played("3", 6, **options)
        game.reshuffle_unseen(random.Random(2))
        restored = Solitaire36.from_json(json.loads(json.dumps(game.to_json())))
        assert restored.position_json() == game.position_json()
        assert restored.history == game.history
        # the pile order after another reshuffle and a few more moves still replays
        game.apply(game.legal_moves()[0])
        game.reshuffle_unseen(random.Random(3))
        game.apply(game.legal_moves()[-1])
        restored = Solitaire36.from_json(game.to_json())
        assert restored.position_json() == game.position_json()
        while game.history:
            game.undo()
        fresh = Solitaire36.new(game.options())
        assert game.view(0) == fresh.view(0)
        assert sorted(game.position_json()["pile"]) == sorted(fresh.position_json()["pile"])


def test_reshuffle_unseen_from_a_drawn_position_round_trips() -> None:
    game = _played("2", 4)
    drawn = Solitaire36.from_json(
        {"format": 1, "game": "36to1", "options": game.options(), "history": [],
         "position": game.position_json()})
    drawn.apply(drawn.legal_moves()[0])
    drawn.reshuffle_unseen(random.Random(8))
    again = Solitaire36.from_json(drawn.to_json())
    assert again.position_json() == drawn.position_json()


def test_reshuffle_unseen_with_nothing_left_to_shuffle_changes_no_state() -> None:
    """With an empty pile (or one card) there is nothing to reshuffle: the state stays exactly
    as it was, with no drawn start."""
    game = Solitaire36.new({"seed": "3", "end": "literal"})
    chooser = random.Random(3)
    while game.pile_size():
        game.apply(chooser.choice(game.legal_moves()))
    before = game.to_json()
    game.reshuffle_unseen(random.Random(1))
    assert game.to_json() == before
    assert Solitaire36.from_json(before).to_json() == before
