"""Observation tensors: layouts, ranges, and the two-worlds tests (what is unseen never shows)."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from rulebox.core import new_game
from rulebox.env.actions import action_space
from rulebox.env.observations import observer

GAMES = ("columns", "36to1", "countred", "discs", "columba")


@pytest.mark.parametrize("game_id", GAMES)
def test_values_stay_in_range_and_names_match_the_layout(game_id: str) -> None:
    ob = observer(game_id)
    assert ob.size == len(ob.planes) * ob.height * ob.width + len(ob.scalars)
    assert len(set(ob.planes)) == len(ob.planes) and len(set(ob.scalars)) == len(ob.scalars)
    space = action_space(game_id)
    game = new_game(game_id, {"seed": "5"})
    chooser = random.Random(5)
    seen_nonzero_scalars = np.zeros(len(ob.scalars), dtype=bool)
    plies = 0
    while not game.is_terminal() and plies < 300:
        for seat in range(game.num_players):
            obs = ob.encode(game.view(seat), seat)
            assert obs.dtype == np.float32 and obs.shape == (ob.size,)
            assert obs.min() >= -1.0 and obs.max() <= 1.0
            seen_nonzero_scalars |= ob.split(obs)[1] != 0
        legal = space.legal(game)
        game.apply_unchecked(legal.moves[chooser.choice(legal.ids)])
        plies += 1
    assert seen_nonzero_scalars.any()


def _planes(game_id: str, view_seat: int, game: object) -> dict[str, np.ndarray]:
    ob = observer(game_id)
    planes, scalars = ob.split(ob.encode(game.view(view_seat), view_seat))  # type: ignore[attr-defined]
    out = {name: planes[i] for i, name in enumerate(ob.planes)}
    out.update({name: scalars[i] for i, name in enumerate(ob.scalars)})
    return out


def test_columns_layout_from_each_side() -> None:
    game = new_game("columns", {"seed": "1"})
    game.apply("Ra1")  # light (0) puts a roundel on a1: file a, rank 1
    game.apply("Db1c1")  # dark (1) a double blocker on b1 and c1
    light, dark = _planes("columns", 0, game), _planes("columns", 1, game)
    assert light["level0_own_R"][0, 0] == 1 and dark["level0_opp_R"][0, 0] == 1
    assert light["level0_opp_D"][0, 1] == 1 and light["level0_opp_D"][0, 2] == 1
    assert light["level0_joined_east"][0, 1] == 1 and light["level0_joined_east"][0, 2] == 0
    assert light["own_left_R"] == pytest.approx(11 / 12) and light["opp_left_D"] == 2 / 3
    assert light["to_move_is_me"] == 1 and dark["to_move_is_me"] == 0


def test_36to1_layout() -> None:
    game = new_game("36to1", {"seed": "3"})  # face up: G1, Y1 (see the engine's show)
    view = game.view(0)
    p = _planes("36to1", 0, game)
    assert p["cube_R"][0].sum() == 6 and p["cube_W"][5].sum() == 6  # row 1 red, row 6 white
    assert view["faceup"] == ["G1", "Y1"]
    assert p["faceup_slot0"][2, 0] == 1 and p["faceup_slot1"][1, 0] == 1  # colour row, symbol
    assert p["unseen_standard"].sum() == 34 and p["unseen_standard"][2, 0] == 0
    assert p["pile_count"] == pytest.approx(34 / 54)


def test_countred_layout() -> None:
    game = new_game("countred", {"seed": "3", "first": "1", "even": "0"})
    p1 = _planes("countred", 1, game)
    assert p1["bottom_b3"][0, 0] == 1 and p1["bottom_r3"][0, 1] == 1  # A1 black 3, B1 red 3
    assert p1["i_move_on_even"] == 0 and p1["i_moved_first"] == 1 and p1["to_move_is_me"] == 1


def test_discs_layout() -> None:
    game = new_game("discs", {"seed": "3"})
    p = _planes("discs", 0, game)
    assert p["hole"].sum() == 45 and p["phase_arrange"] == 1
    assert p["disc_R"].sum() == 0  # nothing arranged yet
    game.apply("arrange RGBRGBRGB")
    p = _planes("discs", 1, game)
    assert p["disc_R"].sum() == 15 and p["phase_choose"] == 1 and p["to_move_is_me"] == 1


def test_columba_layout() -> None:
    from rulebox.env.actions import COLUMBA_WINDOW as W

    game = new_game("columba", {"seed": "3"})
    p = _planes("columba", 0, game)
    # the first card lies on 0,0..1,1: W W / K W (view: 0,0 W, 0,1 W, 1,0 K, 1,1 W)
    row, col = 0 - W.y0, 0 - W.x0
    assert p["field_W"][row, col] == 1 and p["field_K"][row, col + 1] == 1
    assert p["occupied"].sum() == 4 and p["phase_place"] == 1 and p["players_2"] == 1
    assert p["seat+0_cotes_small"] == pytest.approx(3 / 4)


# --- two worlds -----------------------------------------------------------------------------
def _revealed(game: object, game_id: str) -> int:
    view = game.view(0)  # type: ignore[attr-defined]
    if game_id == "36to1":
        return 36 - view["pile_count"]
    if game_id == "columba":
        return 30 - view["position"]["cards_left"]
    return 0


@pytest.mark.parametrize("game_id", GAMES)
def test_two_worlds_look_the_same_to_every_seat(game_id: str, two_worlds: Any) -> None:
    """Play the same actions in two worlds that differ only in unseen cards (or only in the
    seed): every seat's observation is identical at every step while no differing card is
    revealed, and the worlds did differ."""
    opts_a, opts_b = two_worlds(game_id)
    a, b = new_game(game_id, opts_a), new_game(game_id, opts_b)
    space, ob = action_space(game_id), observer(game_id)
    chooser = random.Random(3)
    steps = 0
    while not a.is_terminal() and steps < 200:
        if game_id in ("36to1", "columba") and _revealed(a, game_id) >= 12:
            break
        for seat in range(a.num_players):
            assert np.array_equal(ob.encode(a.view(seat), seat), ob.encode(b.view(seat), seat))
        legal_a, legal_b = space.legal(a), space.legal(b)
        assert legal_a.ids == legal_b.ids
        act = chooser.choice(legal_a.ids)
        a.apply_unchecked(legal_a.moves[act])
        b.apply_unchecked(legal_b.moves[act])
        steps += 1
    assert steps >= 5
    assert a.position_json() != b.position_json() or game_id not in ("36to1", "columba")
