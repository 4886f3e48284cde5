"""Columns, rule by rule (COL-1..COL-10). Positions are drawn as pin -> units (bottom first):
``0R`` a light roundel, ``1S`` a dark single, ``0D7`` a unit of light double no. 7, ``1T9`` a unit
of dark triple no. 9 (units with the same number are one piece)."""

from __future__ import annotations

import pytest

from rulebox.core import Game, IllegalMoveError, InvalidMoveError, StateError
from rulebox.games.columns import Columns
from rulebox.games.columns.moves import Kind
from tests.outcomes import ended


def position(to_move: int = 0, **pins: list[str]) -> Columns:
    """A drawn position, loaded through the JSON state."""
    return Columns.from_json({
        "game": "columns",
        "options": {"seed": "0", "first": "0"},
        "history": [],
        "position": {"to_move": to_move, "pins": pins},
    })


def legal(game: Game) -> set[str]:
    return {str(m) for m in game.legal_moves()}


def refused(game: Game, move: str) -> str:
    before = game.to_json()
    with pytest.raises(IllegalMoveError) as err:
        game.apply(move)
    assert game.to_json() == before
    return err.value.rule


# --- COL-1 pieces and one piece per turn ------------------------------------------------------

def test_COL_1_each_player_starts_with_12_R_3_S_3_D_3_T() -> None:
    g = Columns.new(seed=1)
    for p in (0, 1):
        assert [g.pieces_left(p)[k] for k in sorted(g.pieces_left(p))] == [12, 3, 3, 3]


def test_COL_1_a_used_up_kind_cannot_be_placed() -> None:
    g = position(0, a1=["0S", "1R", "0S", "1R", "0S"])  # light has used its 3 singles
    assert not any(m.startswith("S") for m in legal(g))
    assert refused(g, "Sb1") == "COL-1"


def test_COL_1_turns_alternate_one_piece_each() -> None:
    g = Columns.new(seed=1)
    g.apply("Ra1")
    assert g.current_player() == 1
    g.apply("Rb1")
    assert g.current_player() == 0
    assert g.position_json()["pins"]["a1"] == ["0R"]


# --- COL-2 no gaps ------------------------------------------------------------------------------

def test_COL_2_double_over_uneven_stacks_is_a_gap() -> None:
    g = position(0, a1=["1R"])
    assert "Da1b1" not in legal(g)
    assert refused(g, "Da1b1") == "COL-2"


def test_COL_2_triple_needs_matching_heights() -> None:
    g = position(0, a1=["1R"], b1=["1S", "0R"])
    # thick a1 (1) thin b1 (2): only thick end down fits
    assert "Ta1b1v" in legal(g)
    assert refused(g, "Ta1b1^") == "COL-2"
    # thick b1 (2) thin a1 (1): neither orientation fits
    assert refused(g, "Tb1a1^") == "COL-2"
    assert refused(g, "Tb1a1v") == "COL-2"


# --- COL-3 height limit -------------------------------------------------------------------------

def test_COL_3_nothing_above_level_5() -> None:
    g = position(0, a1=["0R", "1R", "0R", "1R", "0R"], b1=["1R", "0R", "1R", "0R", "1R"])
    assert not any("a1" in m for m in legal(g))
    assert refused(g, "Ra1") == "COL-3"
    assert refused(g, "Sa1") == "COL-3"
    assert refused(g, "Da1b1") == "COL-3"


def test_COL_3_triple_thick_end_may_not_reach_level_6() -> None:
    g = position(0, a1=["0R", "1R", "0R", "1R"], b1=["1R", "0R", "1R", "0R"])
    assert "Da1b1" in legal(g)  # level 5 is fine for a double
    assert refused(g, "Ta1b1^") == "COL-3"


# --- COL-4 roundels -----------------------------------------------------------------------------

@pytest.mark.parametrize("blocker", [["1S"], ["1D3"], ["1T4", "1T4"]])
def test_COL_4_roundel_not_on_opponent_blocker(blocker: list[str]) -> None:
    pins = {"a1": blocker}
    if blocker[0].startswith("1D"):
        pins["b1"] = ["1D3"]
    if blocker[0].startswith("1T"):
        pins["b1"] = ["1T4"]
    g = position(0, **pins)
    assert "Ra1" not in legal(g)
    assert refused(g, "Ra1") == "COL-4"


def test_COL_4_roundel_on_own_blocker_roundel_or_board_is_fine() -> None:
    g = position(0, a1=["0S"], a2=["1R"], a3=["0R"])
    assert {"Ra1", "Ra2", "Ra3", "Rb1"} <= legal(g)


def test_COL_4_dark_is_refused_on_light_blockers_too() -> None:
    g = position(1, a1=["0S"], a2=["1S"])
    assert "Ra1" not in legal(g)
    assert "Ra2" in legal(g)


# --- COL-5 singles ------------------------------------------------------------------------------

def test_COL_5_single_goes_anywhere_below_the_top() -> None:
    g = position(0, a1=["1S"], a2=["1D1"], b2=["1D1"], a3=["1R"])
    assert {"Sa1", "Sa2", "Sa3", "Sb2", "Sd3"} <= legal(g)
    assert len([m for m in legal(g) if m.startswith("S")]) == 12


# --- COL-6 doubles ------------------------------------------------------------------------------

def test_COL_6_back_to_back_double_is_refused() -> None:
    g = position(0, a1=["1D2"], b1=["1D2"])
    assert "Da1b1" not in legal(g)
    assert refused(g, "Da1b1") == "COL-6"


def test_COL_6_double_on_two_different_pieces_of_one_height() -> None:
    g = position(0, a1=["1D2"], b1=["1D2"], c1=["0S"])
    assert "Db1c1" in legal(g)  # rests on the double and the single
    g.apply("Db1c1")
    assert g.position_json()["pins"]["b1"][-1] == g.position_json()["pins"]["c1"][-1]


def test_COL_6_pins_must_be_orthogonally_adjacent() -> None:
    g = Columns.new(seed=1)
    assert refused(g, "Da1b2") == "COL-6"  # a diagonal
    assert refused(g, "Da1c1") == "COL-6"
    assert len([m for m in legal(g) if m.startswith("D")]) == 17


def test_COL_6_double_pins_in_either_order_mean_the_same_move() -> None:
    g = Columns.new(seed=1)
    assert str(g.apply("db1a1")) == "Da1b1"


# --- COL-7 triples ------------------------------------------------------------------------------

def test_COL_7_thick_end_up_occupies_thick_two_thin_one() -> None:
    g = position(0, a1=["1R"], b1=["1S"])
    g.apply("Ta1b1^")
    pins = g.position_json()["pins"]
    assert pins["a1"][1:] == [pins["a1"][1]] * 2 and len(pins["a1"]) == 3
    assert len(pins["b1"]) == 2 and pins["b1"][1] == pins["a1"][1]


def test_COL_7_thick_end_down_rests_on_board_and_a_piece() -> None:
    g = position(0, b1=["1R"])
    assert "Ta1b1v" in legal(g)
    g.apply("Ta1b1v")
    pins = g.position_json()["pins"]
    assert len(pins["a1"]) == 2 and len(pins["b1"]) == 2
    assert pins["a1"][0] == pins["a1"][1] == pins["b1"][1]


def test_COL_7_triple_flat_on_the_board() -> None:
    g = Columns.new(seed=1)
    triples = [m for m in legal(g) if m.startswith("T")]
    assert len(triples) == 34 and all(m.endswith("^") for m in triples)


def test_COL_7_back_to_back_triple_is_refused() -> None:
    # a dark ^ triple: thick a1 (levels 1-2), thin b1 (level 1); heights a1=2, b1=1
    g = position(0, a1=["1T5", "1T5"], b1=["1T5"])
    # thick b1 (h=1) down onto thin a1 (h=2): both ends would rest on triple 5
    assert refused(g, "Tb1a1v") == "COL-7"
    g2 = position(0, a1=["1T5", "1T5"], b1=["1T5", "0R"])
    assert "Ta1b1^" in legal(g2)  # supports: triple 5 and a roundel


def test_COL_7_triple_down_support_on_two_pieces_at_different_levels() -> None:
    g = position(0, a1=["1S"], b1=["1R", "0S"])
    assert "Ta1b1v" in legal(g)


# --- COL-8 immediate end ------------------------------------------------------------------------

# A real game (seeded random play): after these 38 moves light is to move and holds two doubles,
# but no double fits; dark still holds two roundels that would fit.
COL_8_GAME = (
    "Ta3b3^ Tc3b3v Td2d3^ Db1c1 Ra2 Sc3 Tc2c1v Tc2d2^ Sc2 Tb3a3^ Rc1 Sc3 Sc3 Sd3 Sd3 Rb1 Rb1 "
    "Rb2 Rb1 Ra2 Rc1 Rd2 Rb1 Rb3 Ra1 Rd1 Ra1 Rd1 Da1a2 Rd2 Ra1 Rb2 Rc1 Rb2 Rd3 Da2a3 Rb2 Da2b2"
).split()


def test_COL_8_game_ends_when_the_player_to_move_cannot_place() -> None:
    g = Columns.new(seed=0)
    for move in COL_8_GAME[:-1]:
        g.apply(move)
    assert not g.is_terminal()
    g.apply(COL_8_GAME[-1])
    assert g.is_terminal() and g.legal_moves() == []
    assert g.pieces_left(0)[Kind.DOUBLE] == 2  # light still holds pieces, none fits
    with pytest.raises(IllegalMoveError):
        g.apply("Rd3")  # the other player does not go on


def test_COL_8_ends_even_if_the_other_player_could_still_place() -> None:
    g = Columns.new(seed=0)
    for move in COL_8_GAME:
        g.apply(move)
    state = g.to_json()
    state["history"] = []
    state["position"]["to_move"] = 1
    dark_to_move = Columns.from_json(state)
    assert not dark_to_move.is_terminal()
    assert {str(m) for m in dark_to_move.legal_moves()} == {"Ra1", "Ra3", "Rd1", "Rd3"}


# --- COL-9 scoring ------------------------------------------------------------------------------

def _finished(**pins: list[str]) -> Columns:
    """A position where the player to move (light) has nothing left to place."""
    g = position(0, **pins)
    g._left[0] = [0, 0, 0, 0]
    g._legal = g._generate()
    return g


def test_COL_9_more_roundels_on_level_5_wins() -> None:
    g = _finished(a1=["0R", "1R", "0R", "1R", "1R"], b1=["1R", "0R", "1R", "0R", "0R"],
                  c1=["0R", "1R", "0R", "1R", "1R"])
    out = g.outcome()
    assert out is not None and out.winners == (1,) and out.scores == (1, 2)
    assert g.returns() == [-1.0, 1.0]


def test_COL_9_blockers_never_score() -> None:
    g = _finished(a1=["1R", "0R", "1R", "0S", "1S"], b1=["1R", "0R", "1R", "0S", "0R"])
    out = g.outcome()
    assert out is not None and out.winners == (0,)


def test_COL_9_tie_on_level_5_is_broken_on_level_4() -> None:
    g = _finished(a1=["1R", "1R", "1R", "1R", "0R"], b1=["1R", "1R", "1R", "0R", "1R"],
                  c1=["1R", "1R", "1R", "0R", "0S"])
    out = g.outcome()
    assert out is not None and out.winners == (0,), out
    assert "level 4" in out.reason


def test_COL_9_tie_down_to_level_1_and_full_tie_is_a_draw() -> None:
    g = _finished(a1=["0R"], b1=["1R"], c1=["0R"])
    assert ended(g).winners == (0,)
    g2 = _finished(a1=["0R"], b1=["1R"])
    out = g2.outcome()
    assert out is not None and out.winners == () and g2.returns() == [0.0, 0.0]
    assert out.result_line() == "over winner=none score=0,0"


# --- COL-10 who starts --------------------------------------------------------------------------

def test_COL_10_first_option_decides_who_places_first() -> None:
    assert Columns.new(seed=1).current_player() == 0
    assert Columns.new({"first": "1", "seed": "1"}).current_player() == 1
    assert Columns.new(seed=1).options() == {"first": "0", "seed": "1"}


# --- notation and state -------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["X", "Ra", "Ra1b1", "Da1", "Ta1b1", "Re1", "Ra4", "Sa1^"])
def test_malformed_moves_are_explained(text: str) -> None:
    with pytest.raises(InvalidMoveError):
        Columns.new(seed=1).apply(text)


def test_forgiving_case_and_spaces() -> None:
    g = Columns.new(seed=1)
    assert str(g.apply(" t b1 a1 ^ ")) == "Tb1a1^"


def test_corrupt_positions_are_refused() -> None:
    with pytest.raises(StateError):
        position(0, a1=["0D1"])  # half a double
    with pytest.raises(StateError):
        position(0, a1=["0R"] * 6)
    with pytest.raises(StateError):
        position(0, a1=["0S", "0S", "0S", "0S"])  # four singles
    with pytest.raises(StateError):
        position(2)
    with pytest.raises(StateError):
        position(0, e9=["0R"])


def test_state_round_trip_keeps_undo() -> None:
    g = Columns.new(seed=4)
    for m in ["Ra1", "Da2b2", "Ta3b3^", "Sc1"]:
        g.apply(m)
    again = Columns.from_json(g.to_json())
    assert again.to_json() == g.to_json()
    assert str(again.undo()) == "Sc1"
