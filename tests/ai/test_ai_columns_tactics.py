"""Columns tactics and the evaluation's features, on positions drawn as diagrams.

Each diagram shows the 12 pins as columns (``a1`` ... ``d3``) and the levels as rows, level 5 at
the top; light (player 0) pieces are upper case, dark (player 1) lower case: ``R`` roundel, ``S``
single, ``D<n>``/``T<n>`` a double or triple blocker (units with the same number are one
piece). The pieces in hand are what the board leaves of each player's stock (COL-1).

The tactical positions come from seeded games played to a few pieces from the end; each right
move was checked by exact search to the end of the game (``test_the_right_move_is_exact``).
Agents run on fixed node budgets (``iterations=``) and seeds, so every test repeats exactly.
"""

from __future__ import annotations

import random

import pytest

from rulebox.ai import make_agent
from rulebox.ai.alphabeta import AlphaBetaSearch
from rulebox.ai.budget import Budget
from rulebox.ai.heuristics import columns as evaluation
from rulebox.ai.heuristics import heuristic
from rulebox.core.game import TERMINAL
from rulebox.games.columns.moves import Kind
from rulebox.games.columns.rules import Columns


def drawn(diagram: str, to_move: int = 0) -> Columns:
    """The position of a diagram (see the module docstring), ``to_move`` to play."""
    rows = [line.split() for line in diagram.strip("\n").splitlines() if line.strip()]
    names = rows[0]
    pins: dict[str, list[str]] = {name: [] for name in names}
    for row in reversed(rows[1:]):  # level 1 first
        for name, cell in zip(names, row[1:], strict=True):
            if cell != ".":
                owner = "0" if cell[0].isupper() else "1"
                pins[name].append(owner + cell[0].upper() + cell[1:])
    return Columns.from_json(
        {"game": "columns", "position": {"to_move": to_move, "pins": pins}}
    )


# Light to move: Ra2 caps a2 and leaves dark without a placement (every open pin is topped
# by a light blocker, and dark's double fits nowhere), so the game ends 2 caps to 1 (COL-8).
WIN_IN_ONE = """
      a1  a2  a3  b1  b2  b3  c1  c2  c3  d1  d2  d3
  5    .   .   .   . T31   r   .   .   s   R T25   s
  4    .   r   .   . T31   R   . T31   S   r T25 T25
  3    . d30   S D27 d30   r D27 T19   r   r T19   s
  2  D21 D21 t10   r  t4 t10   R  t4  t2   R T19   r
  1  d12   R   R d12  t4 t10   S   R  t2  D5  D5  t2
"""

# Light to move: a2 and b2 are both at height 3. Da2b2 puts a light blocker on level 4 of
# both (two seals at once, COL-4), and dark has no single left to kill either: light caps both.
DOUBLE_SEAL = """
      a1  a2  a3  b1  b2  b3  c1  c2  c3  d1  d2  d3
  5    R   .   .   r   .   r   R   R   .   .   S   r
  4    r   .   .   s   .   r D15 D15   .   .   S   R
  3  t12 d32 d32  t8   r   r  t8  T7   .   .  T7   r
  2  t12 t12   R  T3   R  t6  t8  T7 d16   R  T1 d16
  1    s D11 D11  T3  T3  t6   s   S  t6   R  T1  T1
"""

TACTICS = [
    pytest.param(WIN_IN_ONE, 0, {"Ra2"}, id="win-in-one"),
    pytest.param(DOUBLE_SEAL, 0, {"Da2b2"}, id="double-seal"),
    # the same with dark to move: light threatens Da2b2, which wins. Dark stops it by sealing
    # the pair himself or by raising a2 or b2 to height 4 (no double fits on unequal stacks,
    # COL-6); Ra3, Rc3 or Rd1 lose to light's double
    pytest.param(DOUBLE_SEAL, 1, {"Ra2", "Rb2", "Da2b2"}, id="stop-the-double-seal"),
]

AGENTS = {"best": {"iterations": "3000"}, "hard": {"iterations": "3000"},
          "alphabeta": {"iterations": "3000"}}


def _exact_values(game: Columns) -> dict[str, int]:
    """Each move's result for the player to move with best play: +1, 0 or -1."""
    h = heuristic("columns")
    p = game.current_player()
    out = {}
    for move in game.legal_moves():
        child = game.clone()
        child.apply(move)
        q = child.current_player()
        if q == TERMINAL:
            out[str(move)] = int(child.returns()[p])
            continue
        result = AlphaBetaSearch(h, Budget(None, 10**6)).search(child, child.legal_moves())
        assert result.exact
        v = result.value if q == p else -result.value
        out[str(move)] = 1 if v > 0.5 else (-1 if v < -0.5 else 0)
    return out


@pytest.mark.parametrize(("diagram", "to_move", "right"), TACTICS)
def test_the_right_move_is_exact(diagram: str, to_move: int, right: set[str]) -> None:
    values = _exact_values(drawn(diagram, to_move))
    assert {m for m, v in values.items() if v > 0} == right
    assert any(v < 0 for v in values.values())  # and a wrong move loses


@pytest.mark.parametrize("agent", sorted(AGENTS))
@pytest.mark.parametrize(("diagram", "to_move", "right"), TACTICS)
def test_agent_finds_the_right_move(
    diagram: str, to_move: int, right: set[str], agent: str
) -> None:
    game = drawn(diagram, to_move)
    before = game.to_json()
    chosen = make_agent(agent, "columns", {**AGENTS[agent], "seed": "5"}).choose(game)
    assert str(chosen) in right
    assert game.to_json() == before


def test_win_in_one_ends_the_game() -> None:
    game = drawn(WIN_IN_ONE)
    game.apply("Ra2")
    outcome = game.outcome()
    assert outcome is not None and outcome.winners == (0,) and outcome.scores == (2, 1)


# --- features -----------------------------------------------------------------------------------
def _f(game: Columns, player: int = 0) -> dict[str, float]:
    return dict(zip(evaluation.FEATURES, evaluation.features(game, player), strict=True))


def test_roundels_that_can_no_longer_reach_level_5() -> None:
    # dark holds 4 roundels, but a2 is the only pin where one can still rise to level 5: c2 is
    # sealed by light's triple on level 4, and a1, a3, b1, c1 are topped by light blockers
    # that dark, without a single left, cannot cover. Light holds 5 roundels and may use
    # every open pin (6), so light's 5 count and dark's 1.
    game = drawn(WIN_IN_ONE)
    assert game.pieces_left(1)[Kind.ROUNDEL] == 4 and game.pieces_left(0)[Kind.ROUNDEL] == 5
    assert _f(game)["reach5"] == 5 - 1
    assert _f(game, 1)["reach5"] == -(5 - 1)


def test_caps_and_tie_break_levels() -> None:
    f = _f(drawn(WIN_IN_ONE))
    assert f["caps"] == 1 - 1  # level 5: light's roundel on d1, dark's on b3 (singles: none)
    assert f["level4"] == 1 - 2  # level 4: light b3; dark a2 and d1
    game = drawn(WIN_IN_ONE)
    game.apply("Ra2")
    assert _f(game)["caps"] == 2 - 1


def test_sealed_pins_count_for_the_blocker_owner() -> None:
    # c2: light's triple on level 4 (sealed for light); d2's triple reaches level 5 (full)
    f = _f(drawn(WIN_IN_ONE))
    assert f["sealed"] == 1
    assert f["sealed_safe"] == 1  # dark has no single to kill it


def test_lower_pins_topped_by_own_blockers() -> None:
    # a1, a3, b1 and c1 end in a light blocker below level 4; no pin ends so in dark's
    assert _f(drawn(WIN_IN_ONE))["tops"] == 4 - 0


def test_parity_of_the_slots_below_level_4() -> None:
    # WIN_IN_ONE: one slot left below level 4 (a1, height 2): the player to move takes it
    assert _f(drawn(WIN_IN_ONE))["parity"] == 1
    assert _f(drawn(WIN_IN_ONE, to_move=1))["parity"] == -1 and _f(
        drawn(WIN_IN_ONE, to_move=1), 1)["parity"] == 1
    # DOUBLE_SEAL: two (c3 and d1, height 2): the other player takes the last one
    assert _f(drawn(DOUBLE_SEAL))["parity"] == -1


def test_open_height_4_pins_favour_the_player_to_move() -> None:
    game = drawn(WIN_IN_ONE)  # a2 is the one height-4 pin with a roundel on top
    assert _f(game)["open4"] == 1 and _f(game)["mover"] == 1
    dark = drawn(WIN_IN_ONE, to_move=1)
    assert _f(dark)["open4"] == -1 and _f(dark, 1)["open4"] == 1


def test_a_double_on_level_4_seals_two_pins_nobody_can_kill() -> None:
    game = drawn(DOUBLE_SEAL)
    # a2 and b2 at height 3: each player's last double could seal both (a3 is the same piece
    # as a2's top, so a double there would rest on one piece at both ends, COL-6)
    assert game.pieces_left(0)[Kind.DOUBLE] == 1 and game.pieces_left(1)[Kind.DOUBLE] == 1
    before = _f(game)
    assert before["seal_moves"] == 0 and before["sealed"] == 0
    game.apply("Da2b2")
    after = _f(game)
    assert after["sealed"] == 2 and after["sealed_safe"] == 2  # dark holds no single
    assert after["seal_moves"] == 0  # nothing left at height 3 next to another
    assert evaluation.values(game)[0] > evaluation.values(drawn(DOUBLE_SEAL))[0]


def test_features_are_opposite_for_the_two_players() -> None:
    for diagram in (WIN_IN_ONE, DOUBLE_SEAL):
        game = drawn(diagram)
        assert evaluation.features(game, 1) == [-x for x in evaluation.features(game, 0)]
        v = evaluation.values(game)
        assert v[0] == -v[1] and -1.0 < v[0] < 1.0


def test_winning_moves_is_exact() -> None:
    assert [str(m) for m in evaluation.winning_moves(drawn(WIN_IN_ONE))] == ["Ra2"]
    assert evaluation.winning_moves(drawn(DOUBLE_SEAL)) == []
    rand = random.Random(7)
    for _ in range(15):  # every position of 15 random games against brute force
        game = Columns.new()
        while not game.is_terminal():
            p = game.current_player()
            brute = []
            for move in game.legal_moves():
                child = game.clone()
                child.apply(move)
                if child.is_terminal() and child.returns()[p] > 0:
                    brute.append(move)
            assert evaluation.winning_moves(game) == brute
            game.apply(rand.choice(game.legal_moves()))
