"""Count Red: one or more tests per rule ID (CR-1..CR-15 of RULINGS.md).

Positions are drawn as boards, row 4 at the top, and loaded through the game's diagram. A cell is
``.`` (empty), a piece (``r2`` red 2, ``b3`` black 3), or a stack written top over bottom with
its former (``r3/b2@0``: red 3 on black 2, formed by player 0); ``#`` marks a locked field.
Unless a test says otherwise, player 0 moves on even counts and player 1 on odd counts.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from rulebox.core.errors import IllegalMoveError, InvalidMoveError, StateError
from rulebox.core.game import TERMINAL, Outcome
from rulebox.core.registry import game_entry
from rulebox.games.countred.match import rematch_options
from rulebox.games.countred.moves import CLAIM, MOVES
from rulebox.games.countred.rules import CountRed, position_text
from tests.outcomes import ended

FIELD = {c + r: (int(r) - 1) * 4 + "ABCD".index(c) for c in "ABCD" for r in "1234"}


def drawn(
    picture: str,
    to_move: int = 0,
    *,
    fifty: int = 0,
    seen: dict[str, int] | None = None,
    even: int = 0,
    stack_lift: str = "seed",
) -> CountRed:
    """A game in the drawn position (see the module docstring), loaded through the game's
    diagram (``CountRed.from_diagram``), or through the JSON state when ``seen`` gives a
    repetition table (a diagram holds only the current position's count)."""
    fields: dict[str, list[str]] = {}
    formed: dict[str, int] = {}
    locked: list[str] = []
    rows: dict[str, str] = {}
    for line in picture.strip().splitlines():
        label, _, cells = line.partition("|")
        row = []
        for col, cell in zip("ABCD", cells.split(), strict=True):
            name = col + label.strip()
            lock = cell.endswith("#")
            if lock:
                locked.append(name)
                cell = cell[:-1]
            cell, _, who = cell.partition("@")
            fields[name] = [] if cell == "." else cell.split("/")[::-1]
            if who:
                formed[name] = int(who)
            row.append(("".join(fields[name]) or ".") + (f":{who}" if who else "")
                       + ("#" if lock else ""))
        rows[label.strip()] = ",".join(row)
    options = {"seed": "1", "first": "0", "even": str(even), "stack_lift": stack_lift}
    if seen is None:
        return CountRed.from_diagram(
            f"{'/'.join(rows[r] for r in '4321')} {to_move} e{even} {fifty} 1", options)
    position: dict[str, Any] = {
        "to_move": to_move, "fields": fields, "formed_by": formed, "locked": locked,
        "fifty": fifty, "seen": seen,
    }
    return CountRed.from_json(
        {"game": "countred", "options": options, "history": [], "position": position}
    )


def start(first: int = 0, even: int = 0, **opts: str) -> CountRed:
    return CountRed.new({"seed": "1", "first": str(first), "even": str(even), **opts})


def legal(game: CountRed) -> set[str]:
    return {str(m) for m in game.legal_moves()}


def refused(game: CountRed, move: str) -> IllegalMoveError:
    """The error ``move`` is refused with; the position must not change."""
    before = game.to_json()
    with pytest.raises(IllegalMoveError) as info:
        game.apply(move)
    assert game.to_json() == before
    assert str(game.parse_move(move)) not in legal(game)
    return info.value


def locked(game: CountRed) -> list[str]:
    return game.position_json()["locked"]


# Two positions with stacks (player 0 even): PA's stacks fit their formers' parity; in PB the
# stack on C2 holds one red piece but was "formed" by the even player, which play never gives.
PA = """
4 | r0       b0       r0       b0
3 | b1       r1       b1       r1
2 | .        b2       r3/r2@0  r2/b2@1
1 | b3       .        b3       r3
"""
PB = """
4 | r0       b0       r0       b0
3 | b1       r1       b1       r1
2 | .        r2       r3/b2@0  r2/b2@1
1 | b3       .        r3       b3
"""
# Column C holds a locked red three (C2's bottom is red); B1's red 3 can make the four on C1.
FOUR = """
4 | .        b2/b0@0#  r0#      r1/b0@1
3 | .        b1#       r1#      .
2 | .        r2/b2@1#  b1/r2@1# .
1 | r0/b3@1  r3        .        r3/b3@1
"""
# Player 1 (even here) can make two threes in a row: C1-C2 (black, column C), A2-D2 (red, D).
CHAIN = """
4 | .        r0       r0       b0
3 | b1       .        r1/b1@0  b0/r1@0
2 | r2/r2@1  b2       .        .
1 | b3       r3       b2/b3@1  r3
"""


# --- CR-1 -----------------------------------------------------------------------------------------
def test_CR_1_full_board_in_a_checkerboard_numbered_with_the_field_values() -> None:
    game = start()
    expected = drawn("""
        4 | r0 b0 r0 b0
        3 | b1 r1 b1 r1
        2 | r2 b2 r2 b2
        1 | b3 r3 b3 r3
        """)
    assert game.position_json() == expected.position_json()
    fields = game.position_json()["fields"]
    assert (fields["A1"], fields["B1"], fields["A2"], fields["A4"], fields["D4"]) == (
        ["b3"], ["r3"], ["r2"], ["r0"], ["b0"]
    )
    assert game.position_json()["formed_by"] == {} and locked(game) == []


# --- CR-2 -----------------------------------------------------------------------------------------
def test_CR_2_options_fix_who_moves_first_and_who_is_even() -> None:
    game = start(first=1, even=0)
    assert game.current_player() == 1
    assert (game.parity(0), game.parity(1)) == (0, 1)
    game = start(first=0, even=1)
    assert game.current_player() == 0
    assert (game.parity(0), game.parity(1)) == (1, 0)


def test_CR_2_by_default_both_are_drawn_from_the_seed_and_echoed() -> None:
    drawn_values = set()
    for seed in range(40):
        opts = CountRed.new({"seed": str(seed)}).options()
        assert set(opts) == {"even", "first", "seed", "stack_lift"}
        assert CountRed.new({"seed": str(seed)}).options() == opts  # the same seed, the same draw
        game = CountRed.new({"seed": str(seed)})
        assert game.current_player() == int(opts["first"])
        assert game.parity(int(opts["even"])) == 0
        drawn_values.add((opts["first"], opts["even"]))
    assert drawn_values == {("0", "0"), ("0", "1"), ("1", "0"), ("1", "1")}


def test_CR_2_the_parity_decides_who_may_make_a_move() -> None:
    # B2's black 2: 4 red pieces around it; on black 3 the stack holds no red: even, even.
    assert "B2-A1" in legal(start(first=0, even=0))
    err = refused(start(first=0, even=1), "B2-A1")
    assert err.rule == "CR-4"
    assert "counts 4 red pieces" in err.reason and "you move on odd counts" in err.reason


# --- CR-3 -----------------------------------------------------------------------------------------
def test_CR_3_a_piece_goes_any_distance_onto_a_single_piece() -> None:
    game = start()
    game.apply("A1-D4")  # black 3 across the board onto the black 0
    pos = game.position_json()
    assert pos["fields"]["A1"] == [] and pos["fields"]["D4"] == ["b0", "b3"]
    assert pos["formed_by"] == {"D4": 0}


def test_CR_3_at_most_two_pieces_on_a_field() -> None:
    game = start()
    game.apply("A1-D4")
    err = refused(game, "C3-D4")
    assert err.rule == "CR-3" and "D4 already holds two pieces" in err.reason
    assert not any(str(m).endswith("-D4") for m in game.legal_moves())


def test_CR_3_a_move_to_the_same_field_is_not_a_move() -> None:
    game = start()
    assert refused(game, "B2-B2").rule == "CR-3"
    assert refused(game, "b2 - b2").rule == "CR-3"


def test_CR_3_there_must_be_a_piece_to_lift() -> None:
    err = refused(drawn(PA), "A2-A1")
    assert err.rule == "CR-3" and "no piece on A2" in err.reason


# --- CR-4 -----------------------------------------------------------------------------------------
def test_CR_4_a_red_piece_counts_itself() -> None:
    # A2's red 2: B1 and B3 are red around it, + itself = 3: odd.
    err = refused(start(first=0), "A2-B1")
    assert err.rule == "CR-4"
    assert err.reason == (
        "lifting the red 2 from A2 counts 3 red pieces (2 on the neighbouring fields + the piece "
        "itself): odd, but you move on even counts"
    )
    assert "A2-A1" in legal(start(first=1))  # the odd player may: 3 to lift, 1 in the stack


def test_CR_4_every_red_piece_of_a_neighbouring_stack_counts() -> None:
    # C1's black 3: D1 1 + the stack C2 2 + the stack D2 1 = 4 (counting stacks once gives 3).
    game = drawn(PA)
    assert game.lift_count(FIELD["C1"])[0] == 4
    game.apply("C1-B1")  # set on B1: 2 red around it (the stack on C2): even
    assert game.position_json()["fields"]["B1"] == ["b3"]
    err = refused(drawn(PA, to_move=1), "C1-B1")
    assert err.rule == "CR-4" and "counts 4 red pieces" in err.reason


def test_CR_4_a_single_piece_on_a_locked_field_cannot_be_lifted() -> None:
    # B3's black 1 would count 4 and fit D3 (4 red around it), but B3 is locked.
    game = drawn(FOUR)
    assert game.lift_count(FIELD["B3"])[0] == 4
    assert game.set_count(FIELD["B3"], FIELD["D3"])[0] == 4
    err = refused(game, "B3-D3")
    assert err.rule == "CR-4" and "B3 is locked" in err.reason
    assert not any(str(m).startswith(("B3-", "C3-", "C4-")) for m in game.legal_moves())


# --- CR-5 -----------------------------------------------------------------------------------------
def test_CR_5_only_the_former_may_lift_the_top_of_a_stack() -> None:
    err = refused(drawn(PA, to_move=1), "C2-B1")
    assert err.rule == "CR-5"
    assert "only the player who formed the stack on C2 (first)" in err.reason
    assert "C2-B1" in legal(drawn(PA, to_move=0))


def test_CR_5_lifting_from_a_stack_counts_only_the_stack() -> None:
    # D2's red 2 on black 2, formed by player 1 (odd): 1 red in the stack; the 3 red pieces
    # around D2 must not count (1 + 3 = 4 would be even).
    game = drawn(PB, to_move=1)
    assert "D2-A2" in legal(game)
    game.apply("D2-A2")
    assert game.position_json()["fields"]["D2"] == ["b2"]
    assert game.position_json()["fields"]["A2"] == ["r2"]


def test_CR_5_stack_lift_seed_checks_the_parity_and_free_does_not() -> None:
    # PB's C2 holds one red piece and is the even player's: a drawn position, since stacking
    # (CR-7) always gives the former's parity and a stack's content never changes in play.
    err = refused(drawn(PB, stack_lift="seed"), "C2-B2")
    assert err.rule == "CR-5"
    assert "counts 1 red piece (the stack itself, no neighbours): odd" in err.reason
    free = drawn(PB, stack_lift="free")
    assert "C2-B2" in legal(free)
    free.apply("C2-B2")  # red 3 on red 2: 2 red in the new stack: even
    assert free.position_json()["fields"]["B2"] == ["r2", "r3"]
    assert refused(drawn(PB, to_move=1, stack_lift="free"), "C2-B2").rule == "CR-5"


# --- CR-6 -----------------------------------------------------------------------------------------
def test_CR_6_on_an_empty_field_the_number_must_match_its_value() -> None:
    game = drawn(PA, to_move=1)  # B2's black 2 counts 3 to lift (the odd player's)
    err = refused(game, "B2-B1")
    assert err.rule == "CR-6"
    assert err.reason == "the black 2 may only be set on an empty field worth 2; B1 is worth 3"
    assert "B2-A2" in legal(game)


def test_CR_6_a_red_stack_bottom_left_on_the_source_counts() -> None:
    # C2's red 3 to B1: around B1 after the move only C2's red 2 is red (1), + itself = 2.
    game = drawn(PA)
    n, _ = game.set_count(FIELD["C2"], FIELD["B1"])
    assert n == 2
    game.apply("C2-B1")
    assert game.position_json()["fields"]["C2"] == ["r2"]
    assert game.position_json()["fields"]["B1"] == ["r3"]


def test_CR_6_the_moved_piece_no_longer_counts_on_its_source() -> None:
    # B2's red 2 next door to A2: around A2 after the move only B3 is red (1), + itself = 2.
    game = drawn(PB)
    assert game.set_count(FIELD["B2"], FIELD["A2"])[0] == 2
    game.apply("B2-A2")
    assert game.position_json()["fields"]["A2"] == ["r2"]


def test_CR_6_the_count_around_the_target_must_have_the_movers_parity() -> None:
    # PA, player 1: D2's red 2 to A2: around A2 only B3 is red, + itself = 2: even.
    err = refused(drawn(PA, to_move=1), "D2-A2")
    assert err.rule == "CR-6"
    assert err.reason.startswith("setting the red 2 on A2 counts 2 red pieces")
    assert err.reason.endswith("even, but you move on odd counts")


# --- CR-7 -----------------------------------------------------------------------------------------
def test_CR_7_stacking_counts_the_new_stack_and_ignores_numbers() -> None:
    game = start()
    assert "B2-A1" in legal(game)  # black 2 on black 3: 0 red, even; the numbers differ
    assert "A4-B1" in legal(game)  # red 0 on red 3: 2 red
    err = refused(game, "B2-C2")  # black 2 on red 2: 1 red
    assert err.rule == "CR-7"
    assert err.reason.startswith("stacking the black 2 on the red 2 at C2 counts 1 red piece")


def test_CR_7_the_stack_records_who_formed_it() -> None:
    game = start(first=1)
    game.apply("A2-A1")  # player 1 (odd): red 2 on black 3
    assert game.former(FIELD["A1"]) == 1
    assert game.position_json()["formed_by"] == {"A1": 1}
    assert "(1)" in game_entry("countred").render(game, None).plain


def test_CR_7_stacking_onto_a_locked_field_is_allowed() -> None:
    game = drawn(FOUR)
    assert {"B1-C3", "B4-B3"} <= legal(game)
    game.apply("B1-C3")  # red 3 on the locked red 1: 2 red
    assert game.position_json()["fields"]["C3"] == ["r1", "r3"]
    assert "C3" in locked(game)


# --- CR-8 -----------------------------------------------------------------------------------------
def test_CR_8_both_the_lift_and_the_setting_must_be_legal() -> None:
    game = start()
    assert "B2-A1" in legal(game)  # lift 4, stack 0
    assert refused(game, "B2-C2").rule == "CR-7"  # lift 4 (fine), stack 1 (odd)
    assert refused(game, "A2-B1").rule == "CR-4"  # lift 3 (odd), stack 2 (fine)


# --- CR-9 -----------------------------------------------------------------------------------------
def test_CR_9_four_bottom_pieces_win_for_the_mover() -> None:
    # Column C: red bottoms on C2 (under a black 1), C3, C4; B1's red 3 to C1 makes four.
    game = drawn(FOUR)
    game.apply("B1-C1")
    assert game.current_player() == TERMINAL
    outcome = game.outcome()
    assert outcome is not None and outcome.winners == (0,) and outcome.scores is None
    assert "CR-9" in outcome.reason and "column C" in outcome.reason
    assert game.returns() == [1.0, -1.0]
    assert game.legal_moves() == []


# A recorded game (seed 16, first=0, even=0): player 1 makes the red three C2-C3-C4 with its
# 14th move, player 0 adds the red 3 on C1 with the last.
GAME_16 = """C3-B2 B4-A4 B2-D4 C2-C1 B3-A2 C1-A3 D3-C3 A1-B1 C4-D1 A3-B2 D1-C4 D1-C1 A2-B3 B2-C2
A2-B2 B3-C3 C1-A1 D4-C1 D4-C2 A3-B3 A1-D2 C1-B3 D2-A1 B3-A3 B1-D1 B1-A1 C2-D4 A3-D4 D2-C4 C3-D3
B3-C2 C1-D1 A4-C3 D1-C1 A4-D1 A1-B1 C3-A1 D3-B1 C2-A3 D4-C1 A3-C3 B1-D3 D4-C2 D3-A3 A1-B4 C1-B4
D1-C1 A3-D3 C4-A1 D3-C4 B1-D1 C4-A3 A1-C4 A3-D3 C2-D3 A1-C2 C4-A2 B4-A2 C1-B4 A2-B3 C2-C4 C1-A1
C4-C2 B4-A1 A2-B3 D3-D4 B3-B4 D3-D4 C2-B1 C3-C2 B1-C1""".split()


def test_CR_9_the_mover_wins_whoever_built_the_three() -> None:
    game = CountRed.new({"seed": "16", "first": "0", "even": "0"})
    for move in GAME_16[:13]:
        game.apply(move)
    assert game.current_player() == 1
    game.apply(GAME_16[13])
    assert locked(game) == ["C2", "C3", "C4"]
    for move in GAME_16[14:-1]:
        game.apply(move)
    assert game.current_player() == 0 and game.outcome() is None
    game.apply(GAME_16[-1])
    assert game.outcome() == Outcome((0,), None, "first made four red in column C [CR-9]", "CR-9")
    assert game.returns() == [1.0, -1.0]


def test_CR_9_only_bottom_pieces_make_a_four() -> None:
    # C1 holds a red 3 on a black 3: four red pieces are seen in column C, but not four bottoms.
    game = drawn("""
        4 | .        b2/b0@0#  r0#      r1/b0@1
        3 | .        b1#       r1#      .
        2 | .        r2/b2@1#  b1/r2@1# .
        1 | r0/b3@1  .        r3/b3@1  r3
        """)
    assert game.outcome() is None and game.legal_moves()


# --- CR-10 ----------------------------------------------------------------------------------------
def test_CR_10_a_three_locks_its_fields_and_gives_a_bonus_move_that_can_chain() -> None:
    game = drawn(CHAIN, to_move=1, even=1, fifty=13)
    game.apply("C1-C2")  # black 3, 2, 1 as bottoms of C1, C2, C3
    assert locked(game) == ["C1", "C2", "C3"]
    assert game.current_player() == 1
    assert game.moves_without_three() == 0
    game.apply("A2-D2")  # the bonus move: red 3, 2, 1 in column D
    assert locked(game) == ["C1", "D1", "C2", "D2", "C3", "D3"]
    assert game.current_player() == 1


def test_CR_10_a_move_that_makes_no_new_three_gives_no_bonus() -> None:
    game = drawn(CHAIN, to_move=1, even=1)
    game.apply("C1-C2")
    game.apply("B2-A3")  # the locked three in column C stays; nothing new
    assert locked(game) == ["C1", "C2", "C3"]
    assert game.current_player() == 0
    assert game.moves_without_three() == 1


def test_CR_10_a_three_that_was_locked_before_gives_no_bonus() -> None:
    # C2-C3-C4 are a locked red three; a black 3 on C1 leaves it a three, but not a new one.
    game = drawn("""
        4 | .        b2/b0@0#  r0#      b3/b0@0
        3 | .        b1#       r1#      r1
        2 | .        r2/b2@1#  b1/r2@1# .
        1 | r0/b3@1  r3        .        r3
        """)
    game.apply("D4-C1")
    assert game.outcome() is None
    assert game.current_player() == 1
    assert locked(game) == ["B2", "C2", "B3", "C3", "B4", "C4"]


def test_CR_10_stacking_and_unstacking_stay_allowed_on_locked_fields() -> None:
    game = drawn(FOUR)
    game.apply("B4-B3")  # the black 2 off the locked B4, onto the locked B3
    pos = game.position_json()
    assert pos["fields"]["B4"] == ["b0"] and pos["fields"]["B3"] == ["b1", "b2"]
    assert {"B3", "B4"} <= set(pos["locked"])
    assert game.current_player() == 1


# --- CR-11 ----------------------------------------------------------------------------------------
SKIP = """
4 | r0/r0@0  b1/b0@0  b0       .
3 | b3/b1@0  .        r1       r1
2 | r2/r2@0  b2       .        .
1 | r3       r3       b2/b3@0  .
"""


def test_CR_11_a_player_with_no_legal_move_is_skipped() -> None:
    game = drawn(SKIP, fifty=42)
    game.apply("C3-D3")  # red 1 on red 1; now every stack is player 0's and no single fits 1
    assert not [
        (s, t) for s in range(16) for t in range(16) if game.why_illegal(1, s, t) is None
    ]
    assert game.current_player() == 0
    assert game.outcome() is None
    assert game.moves_without_three() == 43  # the skip is no move (CR-13)


def test_CR_11_a_bonus_move_with_no_legal_move_passes_to_the_other_player() -> None:
    game = drawn("""
        4 | .        r3/b0@0  b1/b0@1  r1/r0@1
        3 | .        .        b1       .
        2 | .        r2/b2@0  r1/r2@1  r0/b2@0
        1 | .        .        b3       r3/b3@0
        """, to_move=1, even=1)
    game.apply("C4-B3")  # black 2, 1, 0 in column B: a three for player 1
    assert locked(game) == ["B2", "B3", "B4"]
    assert game.current_player() == 0


def test_CR_11_when_neither_player_can_move_the_game_is_drawn() -> None:
    # Drawn stacks whose red count does not fit their former; A2-B2 makes a black three in
    # column B, and then no stack can be lifted and no single is free.
    game = drawn("""
        4 | r3/r0@0  r2/b0@0  b3/r0@0  r3/b0@0
        3 | b2/b1@1  b1       r2/r1@1  b3/r1@0
        2 | b2       .        .        .
        1 | .        .        .        .
        """)
    game.apply("A2-B2")
    outcome = game.outcome()
    assert outcome is not None and outcome.winners == () and "CR-11" in outcome.reason
    assert game.returns() == [0.0, 0.0]
    game.undo()
    assert game.outcome() is None and "A2-B2" in legal(game)


def test_CR_11_there_is_no_pass() -> None:
    with pytest.raises(InvalidMoveError):
        start().apply("pass")


# --- CR-12 ----------------------------------------------------------------------------------------
CYCLE = ["A1-C1", "B1-B2", "C1-A1", "B2-B1"]  # from the start and back (first=0, even=0)


def test_CR_12_a_draw_may_be_claimed_at_the_third_occurrence() -> None:
    game = start()
    for move in CYCLE:
        game.apply(move)
    assert game.occurrences() == 2
    err = refused(game, "claim")
    assert err.rule == "CR-12" and "occurred twice" in err.reason
    for move in CYCLE:
        game.apply(move)
    assert game.occurrences() == 3
    assert CLAIM in game.legal_moves()
    game.apply("claim")
    outcome = game.outcome()
    assert outcome is not None and outcome.winners == () and "CR-12" in outcome.reason
    assert game.current_player() == TERMINAL  # a right, not an offer: nothing to decline
    game.undo()
    assert game.outcome() is None and game.occurrences() == 3


def test_CR_12_the_fifth_occurrence_draws_at_once() -> None:
    game = start()
    for _ in range(3):
        for move in CYCLE:
            game.apply(move)
    assert game.occurrences() == 4 and CLAIM in game.legal_moves()
    for move in CYCLE[:-1]:
        game.apply(move)
    assert game.outcome() is None
    game.apply(CYCLE[-1])
    outcome = game.outcome()
    assert outcome is not None and outcome.winners == () and "fifth" in outcome.reason
    assert game.legal_moves() == []


def test_CR_12_the_position_includes_the_player_to_move_but_not_the_former() -> None:
    picture = PA.replace("r2/b2@1", "r2/b2@0")  # the same pieces, another former
    key = position_text(drawn(PA)._full_key())
    assert position_text(drawn(picture)._full_key()) == key
    assert position_text(drawn(PA, to_move=1)._full_key()) != key
    game = drawn(picture, seen={key: 2})
    assert game.occurrences() == 2


# --- CR-13 ----------------------------------------------------------------------------------------
def test_CR_13_fifty_moves_without_a_new_three_draw() -> None:
    game = drawn(PA, fifty=48)
    game.apply("C1-B1")
    assert game.outcome() is None and game.moves_without_three() == 49
    game = drawn(PA, fifty=49)
    game.apply("C1-B1")
    outcome = game.outcome()
    assert outcome is not None and outcome.winners == () and "CR-13" in outcome.reason


def test_CR_13_a_four_on_the_fiftieth_move_still_wins() -> None:
    game = drawn(FOUR, fifty=49)
    game.apply("B1-C1")
    assert ended(game).winners == (0,)


def test_CR_13_a_new_three_starts_the_count_again_and_bonus_moves_count() -> None:
    game = drawn(CHAIN, to_move=1, even=1, fifty=49)
    game.apply("C1-C2")  # the fiftieth move makes a three
    assert game.outcome() is None and game.moves_without_three() == 0
    game.apply("B2-A3")  # the bonus move counts
    assert game.moves_without_three() == 1


# --- CR-14 ----------------------------------------------------------------------------------------
def test_CR_14_the_rules_engine_has_no_draw_offer() -> None:
    game = start()
    for text in ("draw", "offer", "offer draw", "agree", "accept", "decline"):
        with pytest.raises(InvalidMoveError):
            game.parse(text)
    rnd = random.Random(14)
    while not game.is_terminal():
        assert all("-" in str(m) or m == CLAIM for m in game.legal_moves())
        moves = game.legal_moves()
        game.apply(moves[rnd.randrange(len(moves))])


def test_CR_14_an_agreed_draw_feeds_the_rematch_like_any_draw() -> None:
    prev = {"seed": "9", "first": "1", "even": "0", "stack_lift": "seed"}
    agreed = rematch_options(prev, None)  # the match layer ends the game; the engine has no result
    assert (agreed["first"], agreed["even"]) == ("0", "1")
    assert agreed == rematch_options(prev, Outcome((), None, "agreed"))


# --- CR-15 ----------------------------------------------------------------------------------------
def test_CR_15_the_loser_starts_the_rematch_and_the_parity_swaps() -> None:
    prev = {"seed": "5", "first": "0", "even": "0", "stack_lift": "free"}
    after_0_wins = rematch_options(prev, Outcome((0,), None, "four"))
    after_1_wins = rematch_options(prev, Outcome((1,), None, "four"))
    assert (after_0_wins["first"], after_0_wins["even"]) == ("1", "1")
    assert (after_1_wins["first"], after_1_wins["even"]) == ("0", "1")
    assert after_0_wins["stack_lift"] == "free"
    assert CountRed.new(after_0_wins).options() == after_0_wins


def test_CR_15_after_a_draw_the_first_player_alternates() -> None:
    for first in (0, 1):
        for even in (0, 1):
            prev = {"seed": "3", "first": str(first), "even": str(even)}
            nxt = rematch_options(prev, Outcome((), None, "fifty"))
            assert (nxt["first"], nxt["even"]) == (str(1 - first), str(1 - even))


def test_CR_15_the_seed_is_derived_and_a_match_repeats() -> None:
    prev = {"seed": "5", "first": "0", "even": "1"}
    a = rematch_options(prev, Outcome((1,), None, "four"))
    b = rematch_options(prev, Outcome((1,), None, "four"))
    assert a == b and a["seed"] != "5"
    # first and even left out are drawn from the seed, as the game itself drew them
    implicit = rematch_options({"seed": "5"}, None)
    game = CountRed.new({"seed": "5"})
    assert implicit["first"] == str(1 - int(game.options()["first"]))
    assert implicit["even"] == str(1 - int(game.options()["even"]))


def test_CR_15_the_rematch_hook_is_registered_and_a_match_alternates() -> None:
    hook = game_entry("countred").extra["rematch"]
    assert hook is rematch_options
    options = CountRed.new({"seed": "11"}).options()
    rnd = random.Random(15)
    evens = []
    for _ in range(4):
        game = CountRed.new(options)
        evens.append(options["even"])
        while not game.is_terminal():
            moves = game.legal_moves()
            game.apply_unchecked(moves[rnd.randrange(len(moves))])
        outcome = game.outcome()
        nxt = hook(options, outcome)
        if outcome is not None and outcome.winners:
            assert nxt["first"] == str(1 - outcome.winners[0])
        else:
            assert nxt["first"] == str(1 - int(options["first"]))
        options = nxt
    assert evens in (["0", "1", "0", "1"], ["1", "0", "1", "0"])


# --- notation -------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["B2-A1", "b2-a1", "b2 - a1", "b2a1", " B2A1 ", "B 2 - A 1"])
def test_notation_is_forgiving_about_case_and_spaces(text: str) -> None:
    game = start()
    assert str(game.parse(text)) == "B2-A1"
    assert game.parse_move(text) == MOVES[FIELD["B2"]][FIELD["A1"]]


@pytest.mark.parametrize("text", ["", "B2", "B2-", "E5-A1", "A0-A1", "B2-C2-D2", "claims", "x"])
def test_notation_refuses_what_is_not_a_move(text: str) -> None:
    with pytest.raises(InvalidMoveError):
        start().parse_move(text)


def test_notation_claim_and_canonical_text() -> None:
    game = start()
    assert game.parse_move(" CLAIM ") == CLAIM and str(CLAIM) == "claim"
    assert all(str(m) == str(m).upper() for m in game.legal_moves())


# --- the fast generator agrees with the rule-by-rule checker ---------------------------------
@pytest.mark.parametrize("stack_lift", ["seed", "free"])
def test_legal_moves_are_exactly_the_moves_check_move_accepts(stack_lift: str) -> None:
    for seed in range(6):
        game = CountRed.new({"seed": str(seed), "stack_lift": stack_lift})
        rnd = random.Random(seed)
        while not game.is_terminal():
            p = game.current_player()
            checked = {
                MOVES[s][t] for s in range(16) for t in range(16)
                if game.why_illegal(p, s, t) is None
            }
            moves = game.legal_moves()
            assert {m for m in moves if m != CLAIM} == checked
            assert (CLAIM in moves) == (game.occurrences() >= 3)
            game.apply(moves[rnd.randrange(len(moves))])


def test_the_state_of_a_drawn_position_round_trips() -> None:
    game = drawn(CHAIN, to_move=1, even=1, fifty=13)
    game.apply("C1-C2")
    text = json.dumps(game.to_json())
    again = CountRed.from_json(json.loads(text))
    assert again.to_json() == game.to_json()
    with pytest.raises(StateError):
        drawn(CHAIN.replace("b2/b3@1", "b2/b3"), to_move=1, even=1)  # a stack without former
