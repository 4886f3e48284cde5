"""36 to 1: one or more tests per rule S36-1..S36-5 and S36-7..S36-10 of RULINGS.md (S36-6, the
end of the pile, has its own file). Positions are drawn with rank 6 on top."""

from __future__ import annotations

import random

import pytest

from rulebox.core.errors import IllegalMoveError, InvalidMoveError, OptionError
from rulebox.core.game import TERMINAL
from rulebox.games.solitaire36.rules import Solitaire36
from tests.games.solitaire36.s36_helpers import STANDARD_DECK, deal, drawn, moves_text
from tests.outcomes import ended


def illegal(game: Solitaire36, text: str) -> IllegalMoveError:
    with pytest.raises(IllegalMoveError) as info:
        game.apply(text)
    return info.value


# --- S36-1 removing a cube ---------------------------------------------------------------------
def test_S36_1_card_takes_its_colour_or_its_symbol_column() -> None:
    game = deal(["Y4", "R1"])
    y4 = [m for m in moves_text(game) if m.startswith("Y4:")]
    # row 2 is yellow; column d is bricks (4)
    assert y4 == sorted(["Y4:a2", "Y4:b2", "Y4:c2", "Y4:d2", "Y4:e2", "Y4:f2",
                         "Y4:d1", "Y4:d3", "Y4:d4", "Y4:d5", "Y4:d6"])


def test_S36_1_cube_of_another_colour_and_column_is_refused() -> None:
    game = deal(["Y4", "R1"])
    err = illegal(game, "Y4:a1")
    assert err.rule == "S36-1"
    assert "red" in err.reason and "drop" in err.reason


def test_S36_1_played_card_is_discarded_and_replaced_from_the_pile() -> None:
    game = deal(["Y4", "R1", "W6", "K2"])
    game.apply("Y4:c2")
    pos = game.position_json()
    assert pos["grid"][1] == "YY.YYY"
    assert pos["faceup"] == ["W6", "R1"]  # the drawn card takes Y4's place
    assert pos["discard"] == ["Y4"]
    assert pos["pile"][0] == "K2" and len(pos["pile"]) == 33


def test_S36_1_only_a_face_up_card_may_be_used() -> None:
    game = deal(["Y4", "R1"])
    err = illegal(game, "W6:f6")
    assert err.rule == "S36-1" and "not face up" in err.reason


def test_S36_1_an_empty_cell_has_no_cube_to_remove() -> None:
    game = deal(["Y4", "Y3", "R1"])
    game.apply("Y4:c2")
    err = illegal(game, "Y3:c2")
    assert err.rule == "S36-1" and "no cube on c2" in err.reason


# --- S36-2 adjacency --------------------------------------------------------------------------
ISOLATED = """
W . . . . .
. . . . . .
. . B . . .
. . . B . .
. . . B . .
R R . . . .
"""


def test_S36_2_isolated_cube_cannot_be_removed() -> None:
    game = drawn(ISOLATED, ["W5", "B3"], ["R1", "R2"])
    # W5: white a6 is isolated, nothing in column e. B3: c4 touches d3 only diagonally.
    err = illegal(game, "W5:a6")
    assert err.rule == "S36-2"
    err = illegal(game, "B3:c4")
    assert err.rule == "S36-2" and "adjacent" in err.reason
    assert "B3:c4" not in moves_text(game)


def test_S36_2_cube_with_an_orthogonal_neighbour_can_be_removed() -> None:
    game = drawn(ISOLATED, ["B4", "R6"], ["R1", "R2"])
    assert moves_text(game) == ["B4:d2", "B4:d3", "R6:a1", "R6:b1"]


# --- S36-3 discarding -------------------------------------------------------------------------
def test_S36_3_usable_card_may_not_be_discarded() -> None:
    game = deal(["Y4", "R1"])
    err = illegal(game, "Y4:x")
    assert err.rule == "S36-3" and "may not be discarded" in err.reason


def test_S36_3_card_with_only_isolated_cubes_may_be_discarded() -> None:
    # W5 matches only white a6, which is isolated; K6 matches nothing at all.
    game = drawn(ISOLATED, ["W5", "K6"], ["R1", "R2"])
    assert moves_text(game) == ["K6:x", "W5:x"]
    game.apply("W5:x")
    assert game.position_json()["faceup"] == ["R1", "K6"]  # the next card of the pile


def test_S36_3_no_discard_once_the_pile_is_empty() -> None:
    game = drawn(ISOLATED, ["W5", "B4"], [])
    assert moves_text(game) == ["B4:d2", "B4:d3"]
    err = illegal(game, "W5:x")
    assert err.rule == "S36-3" and "pile is empty" in err.reason


# --- S36-4 the discard pile -------------------------------------------------------------------
def test_S36_4_discard_pile_is_public_and_no_card_comes_back() -> None:
    game = deal(["Y4", "R1", "W6"])
    game.apply("Y4:c2")
    assert game.view(0)["discard"] == ["Y4"]
    err = illegal(game, "Y4:d2")
    assert err.rule == "S36-4"


def test_S36_4_every_card_is_played_at_most_once() -> None:
    chooser = random.Random(4)
    for seed in range(30):
        game = Solitaire36.new({"seed": str(seed), "green": str(seed % 4)})
        while not game.is_terminal():
            before = game.discards()
            game.apply_unchecked(chooser.choice(game.legal_moves()))
            after = game.discards()
            assert after[:-1] == before  # the pile only grows, on top
            assert after[-1] not in before
            assert not set(after) & set(game.faceup()) and not set(after) & set(game.unseen())


# --- S36-5 win and loss -----------------------------------------------------------------------
def test_S36_5_one_cube_left_wins() -> None:
    game = drawn(
        """
        . . . . . .
        . . . . . .
        . . . . . .
        . . . . . .
        . . . . . .
        R Y . . . .
        """,
        ["Y2", "K6"], [],
    )
    game.apply("Y2:b1")
    assert game.current_player() == TERMINAL
    assert game.legal_moves() == []
    out = game.outcome()
    assert out is not None and out.winners == (0,) and out.scores == (1,)
    assert game.returns() == [1.0]


def test_S36_5_one_cube_left_wins_at_once_even_while_the_pile_lasts() -> None:
    game = drawn(
        """
        . . . . . .
        . . . . . .
        . . . . . .
        . . . . . .
        . . . . . .
        R Y . . . .
        """,
        ["Y2", "K6"], ["R2g", "Y3g", "G4g"], green="1",
    )
    game.apply("Y2:b1")
    assert game.pile_size() == 2
    assert game.current_player() == TERMINAL and game.legal_moves() == []
    assert ended(game).winners == (0,)


def test_S36_5_stuck_with_empty_pile_loses() -> None:
    game = drawn(ISOLATED, ["W5", "K6"], [])
    assert game.current_player() == TERMINAL
    out = game.outcome()
    assert out is not None and out.winners == () and out.scores == (6,)


def test_S36_5_not_lost_while_a_discard_can_bring_a_new_card() -> None:
    all_isolated = """
    R . R . R .
    . . . . . .
    R . R . . .
    . . . . . .
    . . . . . .
    . . . . . .
    """
    game = drawn(all_isolated, ["R1", "R2"], ["R3"])
    assert game.current_player() == 0 and moves_text(game) == ["R1:x", "R2:x"]
    game.apply("R1:x")
    assert game.current_player() == TERMINAL
    assert ended(game).scores == (5,)


# --- S36-7 green sets --------------------------------------------------------------------------
@pytest.mark.parametrize("green", [0, 1, 2, 3])
def test_S36_7_green_sets_join_the_deck(green: int) -> None:
    game = Solitaire36.new({"seed": "3", "green": str(green)})
    pos = game.position_json()
    cards = pos["faceup"] + pos["pile"]
    assert len(cards) == 36 + 6 * green and len(pos["pile"]) == 34 + 6 * green
    greens = sorted(c for c in cards if c.endswith("g"))
    want = sorted(
        "RYGBKW"[i] + str((i + k) % 6 + 1) + "g" for k in range(1, green + 1) for i in range(6)
    )
    assert greens == want


def test_S36_7_pairing_of_the_green_sets() -> None:
    game = Solitaire36.new({"seed": "3", "green": "3"})
    greens = {c for c in game.position_json()["pile"] + game.position_json()["faceup"]
              if c.endswith("g")}
    assert {"R2g", "Y3g", "G4g", "B5g", "K6g", "W1g"} <= greens  # set 1
    assert {"R3g", "Y4g", "G5g", "B6g", "K1g", "W2g"} <= greens  # set 2
    assert {"R4g", "Y5g", "G6g", "B1g", "K2g", "W3g"} <= greens  # set 3
    with pytest.raises(InvalidMoveError):
        game.parse_move("Y2g:c2")  # set 0 does not exist: no green yellow drop


def test_S36_7_green_card_works_like_its_standard_twin() -> None:
    deck = ["Y5g", "R1"] + [c for c in STANDARD_DECK if c != "R1"] + [
        "R2g", "Y3g", "G4g", "B5g", "K6g", "W1g", "R3g", "Y4g", "G5g", "B6g", "K1g", "W2g",
        "R4g", "G6g", "B1g", "K2g", "W3g"]
    game = Solitaire36.new({"seed": "0", "green": "3", "deck": ",".join(deck)})
    assert [m[4:] for m in moves_text(game) if m.startswith("Y5g:")] == sorted(
        ["a2", "b2", "c2", "d2", "e2", "f2", "e1", "e3", "e4", "e5", "e6"])
    game.apply("y5G : C2")
    assert game.discards() == [game.parse_move("Y5g:x").card]


def test_S36_7_green_card_outside_the_deck_in_force_is_refused() -> None:
    game = Solitaire36.new({"seed": "0"})
    err = illegal(game, "Y5g:c2")
    assert err.rule == "S36-7"
    with pytest.raises(OptionError):
        Solitaire36.new({"deck": ",".join([*STANDARD_DECK[:-1], "Y5g"])})


# --- S36-8 random grid ----------------------------------------------------------------------------
def test_S36_8_random_grid_holds_six_cubes_of_each_colour_in_random_order() -> None:
    grids = set()
    for seed in range(5):
        game = Solitaire36.new({"seed": str(seed), "grid": "random"})
        rows = "".join(game.position_json()["grid"])
        assert sorted(rows) == sorted("RYGBKW" * 6)
        grids.add(rows)
        again = Solitaire36.new({"seed": str(seed), "grid": "random"})
        assert "".join(again.position_json()["grid"]) == rows
    assert len(grids) == 5
    assert "RRRRRRYYYYYYGGGGGGBBBBBBKKKKKKWWWWWW" not in grids


def test_S36_8_card_colour_means_that_colour_anywhere() -> None:
    game = Solitaire36.new({"seed": "11", "grid": "random"})
    card = game.position_json()["faceup"][0]
    colour, symbol = card[0], int(card[1])
    rows = game.position_json()["grid"]
    want = sorted(
        f"{card}:{'abcdef'[f]}{r + 1}"
        for r in range(6) for f in range(6)
        if rows[r][f] == colour or f == symbol - 1
    )
    assert [m for m in moves_text(game) if m.startswith(card + ":")] == want
    home = "RYGBKW".index(colour)  # the rank this colour fills in the standard grid
    assert any(rows[r][f] == colour for r in range(6) for f in range(6) if r != home)


# --- S36-9 result -------------------------------------------------------------------------------
def test_S36_9_result_reports_win_or_loss_with_cubes_left() -> None:
    won = drawn(". . . . . .\n" * 5 + "R Y . . . .", ["Y2", "K6"], [])
    won.apply("Y2:b1")
    assert ended(won).result_line() == "over winner=0 score=1"
    lost = drawn(ISOLATED, ["W5", "K6"], [])
    assert ended(lost).result_line() == "over winner=none score=6"
    assert "6 cubes left" in ended(lost).reason
    assert lost.returns() == [pytest.approx(-5 / 35)]
    assert Solitaire36.new({"seed": "1"}).outcome() is None


# --- S36-10 fixed deck ------------------------------------------------------------------------
def test_S36_10_deck_fixes_face_up_cards_and_draw_order() -> None:
    order = list(reversed(STANDARD_DECK))
    game = Solitaire36.new({"seed": "5", "deck": ",".join(order)})
    pos = game.position_json()
    assert pos["faceup"] == order[:2] and pos["pile"] == order[2:]
    game.apply("W6:f6")
    assert game.faceup()[0] == game.parse_move(order[2] + ":x").card  # the third card is next
    other_seed = Solitaire36.new({"seed": "6", "deck": ",".join(order)})
    assert other_seed.position_json() == pos
    assert game.options()["deck"] == ",".join(order)


@pytest.mark.parametrize(
    ("deck", "why"),
    [
        (",".join(STANDARD_DECK[:-1]), "missing W6"),
        (",".join([*STANDARD_DECK, "R2g"]), "not in this deck R2g"),
        (",".join([*STANDARD_DECK[:-1], "R1"]), "twice"),
        (",".join([*STANDARD_DECK[:-1], "Q7"]), "not a card"),
        ("", "missing R1"),
    ],
)
def test_S36_10_deck_must_be_exactly_the_deck_in_force(deck: str, why: str) -> None:
    with pytest.raises(OptionError) as info:
        Solitaire36.new({"deck": deck})
    assert why in str(info.value)


def test_S36_10_deck_is_forgiving_about_case_and_spaces() -> None:
    text = ", ".join(c.lower() for c in STANDARD_DECK)
    game = Solitaire36.new({"deck": text})
    assert game.options()["deck"] == ",".join(STANDARD_DECK)


def test_S36_10_seed_decides_the_order_otherwise() -> None:
    a = Solitaire36.new({"seed": "8"}).position_json()
    b = Solitaire36.new({"seed": "8"}).position_json()
    c = Solitaire36.new({"seed": "9"}).position_json()
    assert a == b and a["pile"] != c["pile"]
