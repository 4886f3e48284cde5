"""36 to 1 agents: the group and matching arithmetic on drawn grids, the baseline never splits
the cubes when it need not, and the counter never looks at the order of the draw pile."""

from __future__ import annotations

import pytest

from rulebox.ai import make_agent
from rulebox.ai.heuristics.solitaire36 import (
    LOST,
    articulation,
    groups,
    masks_of,
    max_matching,
    plan_value,
)
from rulebox.core import game_ids, new_game
from rulebox.core.rng import rng

pytestmark = pytest.mark.skipif("36to1" not in game_ids(), reason="36to1 is not registered")


def grid(*rows: str) -> int:
    """A mask from rows drawn rank 6 first (top), files a-f left to right; ``#`` is a cube."""
    mask = 0
    for i, row in enumerate(reversed(rows)):
        for f, ch in enumerate(row):
            if ch == "#":
                mask |= 1 << (6 * i + f)
    return mask


def test_groups_and_articulation_points() -> None:
    line = grid(
        "......",
        "......",
        "......",
        "......",
        "......",
        "###...",
    )
    assert groups(line) == 1
    assert articulation(line) == grid("......", "......", "......", "......", "......", ".#....")
    two = grid(
        "......",
        "......",
        "......",
        "#.....",
        "......",
        "##....",
    )
    assert groups(two) == 2
    square = grid("......", "......", "......", "......", "##....", "##....")
    assert articulation(square) == 0


def test_max_matching_counts_distinct_cubes() -> None:
    a, b, c = 1, 2, 4
    assert max_matching([a | b, a | b, a | b]) == 2  # three cards, two cubes
    assert max_matching([a, a, b | c]) == 2
    assert max_matching([a | b, b | c, c]) == 3
    assert max_matching([]) == 0


def test_plan_value_loses_a_split_and_a_shortage_of_cards() -> None:
    two = grid("......", "......", "......", "#.....", "......", "##....")
    colour_masks = [two, 0, 0, 0, 0, 0]  # all red
    assert plan_value(two, colour_masks, [0, 1, 2, 3]) == LOST
    pair = grid("......", "......", "......", "......", "......", "##....")
    red = [pair, 0, 0, 0, 0, 0]
    assert plan_value(pair, red, []) == LOST  # no card for the second-last cube
    # a yellow card with symbol 6 (Y6 = 6 * 1 + 5 = 11) matches neither a1 nor b1 (red)
    assert plan_value(pair, red, [11]) == LOST
    assert plan_value(pair, red, [0]) > LOST  # R1 can take one of them
    one = grid("......", "......", "......", "......", "......", "#.....")
    assert plan_value(one, [one, 0, 0, 0, 0, 0], []) == 1.0


def test_connected_never_splits_when_it_need_not() -> None:
    for seed in range(6):
        game = new_game("36to1", {"seed": str(seed)})
        agent = make_agent("connected", "36to1", {"seed": str(seed)})
        while not game.is_terminal():
            occ, _ = masks_of(game)
            could_keep = groups(occ) == 1 and any(
                m.is_discard or groups(occ & ~(1 << m.cell)) == 1 for m in game.legal_moves()
            )
            game.apply(agent.choose(game))
            after, _ = masks_of(game)
            if could_keep:
                assert groups(after) <= 1


@pytest.mark.parametrize("agent", ["counter", "connected", "medium"])
def test_choice_does_not_depend_on_the_hidden_order_of_the_pile(agent: str) -> None:
    game = new_game("36to1", {"seed": "4"})
    r = rng(0, "play")
    for _ in range(8):
        moves = sorted(game.legal_moves(), key=str)
        game.apply(moves[r.randrange(len(moves))])
    settings = {"seed": "2", "lookahead": "0"} if agent != "connected" else {"seed": "2"}
    want = make_agent(agent, "36to1", settings).choose(game)
    for k in range(3):
        other = game.determinize(0, rng(k, "reshuffle"))  # same public view, another pile order
        assert other.view(0) == game.view(0)
        assert make_agent(agent, "36to1", settings).choose(other) == want
