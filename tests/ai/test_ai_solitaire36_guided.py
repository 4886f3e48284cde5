"""36 to 1: the evaluation's features on drawn grids, and the guided playouts of ``best``.

Grids are drawn rank 6 first (top), files a-f left to right; a letter is a cube of that colour
(R, Y, G, B, K, W), ``.`` an empty cell. Cards are numbered ``6 * colour + symbol index``
(R1 = 0, W6 = 35), as in :mod:`rulebox.games.solitaire36.board`.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from rulebox.ai import make_agent
from rulebox.ai.heuristics.solitaire36 import (
    DEFAULT_WEIGHTS,
    FEATURES,
    features,
    guided_move,
    plan_features,
    playout_move,
    splits,
    values,
)
from rulebox.core import new_game
from rulebox.games.solitaire36.board import CARD_COLOUR, CARD_FILE_MASK, COLOURS
from rulebox.games.solitaire36.moves import S36Move


def card(code: str) -> int:
    """``W6`` -> 35."""
    return 6 * COLOURS.index(code[0]) + int(code[1]) - 1


def drawn(*rows: str) -> tuple[int, list[int], dict[int, int]]:
    """(all cubes, cubes per colour, colour of each cell) of a drawn grid."""
    occ = 0
    masks = [0] * 6
    colour: dict[int, int] = {}
    for i, row in enumerate(reversed(rows)):
        for f, ch in enumerate(row):
            if ch != ".":
                cell = 6 * i + f
                occ |= 1 << cell
                masks[COLOURS.index(ch)] |= 1 << cell
                colour[cell] = COLOURS.index(ch)
    return occ, masks, colour


class Drawn:
    """Just what the evaluation and the playout policy read of a 36 to 1 game."""

    def __init__(self, rows: tuple[str, ...], faceup: list[str], unseen: list[str]) -> None:
        self.occ, self.masks, self.colour = drawn(*rows)
        self._faceup = [card(c) for c in faceup]
        self._unseen = [card(c) for c in unseen]

    def occupied(self) -> int:
        return self.occ

    def cube(self, cell: int) -> int:
        return self.colour.get(cell, -1)

    def faceup(self) -> list[int]:
        return list(self._faceup)

    def unseen(self) -> list[int]:
        return list(self._unseen)

    def matches(self, c: int) -> int:
        return self.occ & (self.masks[CARD_COLOUR[c]] | CARD_FILE_MASK[c])

    def moves(self) -> list[S36Move]:
        out = []
        for c in self._faceup:
            m = self.matches(c)
            for cell in range(36):
                if m >> cell & 1:
                    out.append(S36Move(c, cell))
        return out


ROW = ("......", "......", "......", "......", "......", "WKR...")
"""Three cubes on a1 (white), b1 (black), c1 (red): b1 holds them together."""


def as_game(drawn_game: Drawn) -> Any:
    """A :class:`Drawn` where a 36 to 1 game is expected: it holds just what the evaluation and
    the playout policy read (duck-typed, so typed as ``Any``)."""
    return drawn_game


def f(game: Any, name: str) -> float:
    return features(game)[FEATURES.index(name)]


def test_features_count_what_the_unseen_cards_allow() -> None:
    # W6 can take only a1, R3 only c1; unseen K2 only b1, R5 only c1
    game = Drawn(ROW, ["W6", "R3"], ["K2", "R5"])
    assert f(game, "lost") == 0
    assert f(game, "cubes") == pytest.approx(2 / 3.5)
    assert f(game, "spare") == 2  # 4 cards for 2 removals
    assert f(game, "single") == 2  # a1 (W6 alone) and b1 (K2 alone); c1 has two cards
    assert f(game, "cut") == 0.5  # b1
    assert f(game, "safe") == pytest.approx(2 / 4)  # a1 and c1 can go
    assert f(game, "options") == pytest.approx(2 / 4)  # W6 on a1, R3 on c1
    assert f(game, "dead_held") == 0
    # without K2 nothing is lost yet: two removals, and the cards take two distinct cubes
    assert f(Drawn(ROW, ["W6", "R3"], ["R5"]), "lost") == 0
    # but with only cards for c1 the matching fails (a1 and b1 would both stay)
    assert f(Drawn(ROW, ["R3", "R5"], ["R4"]), "lost") == 1
    assert values(as_game(Drawn(ROW, ["R3", "R5"], ["R4"]))) == [-1.0]


def test_features_see_a_split_and_a_dead_card() -> None:
    split = ("......", "......", "......", "......", "......", "W.R...")
    assert plan_features(*drawn(*split)[:2], [card("W6"), card("R3")])[-1] == 1.0
    # Y2 takes nothing on this grid (no yellow cube, nothing on file b... b1 is black: K)
    game = Drawn(("......", "......", "......", "......", "......", "W.R..."), ["Y4"], [])
    assert f(game, "dead_held") == 1


def test_default_weights_name_every_feature() -> None:
    assert set(DEFAULT_WEIGHTS) == set(FEATURES)
    # more spare cards are better, a proven loss is worst of all
    assert DEFAULT_WEIGHTS["spare"] > 0 > DEFAULT_WEIGHTS["single"] > DEFAULT_WEIGHTS["lost"]


def test_splits_agrees_with_the_group_count() -> None:
    occ, _masks, _colour = drawn(*ROW)
    assert splits(occ, 1)  # b1 holds a1 and c1 together
    assert not splits(occ, 0) and not splits(occ, 2)
    square = drawn("......", "......", "......", "......", "WW....", "WW....")[0]
    assert not any(splits(square, c) for c in (0, 1, 6, 7))


@pytest.mark.parametrize("seed", range(8))
def test_guided_move_spends_the_only_card_of_a_scarce_cube(seed: int) -> None:
    # a1 can be taken by W6 alone (no other white card or file-a card is left); c1 by R3 and
    # R5: the guided playout takes a1 while W6 is in hand, never splits on b1
    game = Drawn(ROW, ["W6", "R3"], ["K2", "R5"])
    move = guided_move(as_game(game), game.moves(), random.Random(seed))
    assert (move.card, move.cell) == (card("W6"), 0)


@pytest.mark.parametrize("seed", range(4))
def test_guided_move_keeps_a_card_that_can_still_play(seed: int) -> None:
    # b1 black, c1 and d1 red: c1 holds the group. R3 can take d1 (red), Y4 only d1 (file d).
    # Taking d1 with R3 would leave Y4 with nothing to take (a dead card: the one spare card
    # wasted on a discard); taking it with Y4 keeps R3 for c1
    rows = ("......", "......", "......", "......", "......", ".KRR..")
    game = Drawn(rows, ["R3", "Y4"], ["K1", "K2", "R1"])
    move = guided_move(as_game(game), game.moves(), random.Random(seed))
    assert (move.card, move.cell) == (card("Y4"), 3)


def _policy_wins(policy: Any, deals: range) -> int:
    won = 0
    for d in deals:
        game = new_game("36to1", {"seed": str(d)})
        rand = random.Random(d)
        while not game.is_terminal():
            game.apply_unchecked(policy(game, game.legal_moves(), rand))
        won += game.cubes_left() == 1  # type: ignore[attr-defined]
    return won


def test_guided_playouts_win_where_keep_together_playouts_do_not() -> None:
    """Played alone from the deal, the guided policy won 9 of deals 1000..1019 (the plain
    keep-together playouts none): it is what makes ``best``'s playouts informative."""
    deals = range(1000, 1020)
    assert _policy_wins(guided_move, deals) >= 6
    assert _policy_wins(playout_move, deals) <= 1


def test_guide_1_plays_guided_playouts_and_best_the_keep_together_ones() -> None:
    guided = make_agent("mcts", "36to1", {"iterations": "10", "seed": "1", "guide": "1"})
    best = make_agent("best", "36to1", {"iterations": "10", "seed": "1"})
    assert guided.config.guide == 1.0  # type: ignore[attr-defined]
    inner: Any = best.inner  # type: ignore[attr-defined]
    assert inner.config.guide == 0.0 and inner.config.grow == 0


def test_guided_agent_wins_a_deal() -> None:
    """The ``guided`` agent (the policy among the moves not proven lost, no search) wins deal 0,
    as in bench/results/s36_guided.json."""
    game = new_game("36to1", {"seed": "0"})
    agent = make_agent("guided", "36to1", {"seed": "0"})
    while not game.is_terminal():
        game.apply(agent.choose(game))
    assert game.cubes_left() == 1  # type: ignore[attr-defined]
