"""Discs: tests per rule DSC-1..DSC-7 of RULINGS.md. Positions are drawn (rank 3 on top, see
discs_helpers) and loaded through the JSON state, or played from the fixed set-up.

Colours of the fixed set-up (arrange RGBGBRBRG):   a3 B   b3 R   c3 G
                                                   a2 G   b2 B   c2 R
                                                   a1 R   b1 G   c1 B
"""

from __future__ import annotations

import pytest

from rulebox.core.errors import GameOverError, IllegalMoveError
from rulebox.core.game import TERMINAL
from rulebox.games.discs.rules import Discs, Phase
from tests.games.discs.discs_helpers import START, drawn, moves_text, read_board, start


def illegal(game: Discs, text: str) -> IllegalMoveError:
    """Play ``text``, expect a refusal, and check that nothing changed."""
    before = game.to_json()
    with pytest.raises(IllegalMoveError) as info:
        game.apply(text)
    assert game.to_json() == before
    return info.value


def phase(game: Discs) -> Phase:
    """The game's phase, read afresh (a checker would keep the phase an earlier test of the
    same attribute narrowed it to, as if no move had changed it)."""
    return game.phase


def play(game: Discs, *texts: str) -> None:
    for text in texts:
        game.apply(text)


# --- DSC-1 set-up ------------------------------------------------------------------------------
def test_DSC_1_player_0_arranges_three_discs_of_each_colour() -> None:
    game = Discs.new({"seed": "1"})
    assert game.current_player() == 0 and game.phase is Phase.ARRANGE
    assert len(game.legal_moves()) == 1680  # 9! / (3! 3! 3!)
    assert illegal(game, "arrange RRRRGGBBB").rule == "DSC-1"
    assert illegal(game, "choose silver a1c3").rule == "DSC-1"
    assert illegal(game, "a1.ne-b1.nw").rule == "DSC-1"
    game.apply("arrange rgb gbr brg")
    assert [game.disc_colour(d) for d in range(9)] == list("RGBGBRBRG"[i] for i in
                                                          (0, 3, 6, 1, 4, 7, 2, 5, 8))
    assert game.current_player() == 1 and phase(game) is Phase.CHOOSE


@pytest.mark.parametrize(("choice", "p1", "p0"), [
    ("choose silver a1c3", ("a1", "c3"), ("a3", "c1")),
    ("choose black a3c1", ("a3", "c1"), ("a1", "c3")),
])
def test_DSC_1_player_1_chooses_pins_and_corners_then_player_0_moves_first(
    choice: str, p1: tuple[str, str], p0: tuple[str, str]
) -> None:
    game = Discs.new({"seed": "1"})
    game.apply("arrange RGBGBRBRG")
    assert moves_text(game) == ["choose black a1c3", "choose black a3c1",
                                "choose silver a1c3", "choose silver a3c1"]
    assert illegal(game, "arrange RGBGBRBRG").rule == "DSC-1"
    game.apply(choice)
    pins = game.position_json()["pins"]
    holes = ("c", "ne", "nw", "se", "sw")
    assert pins[1] == sorted(f"{d}.{h}" for d in p1 for h in holes)
    assert pins[0] == sorted(f"{d}.{h}" for d in p0 for h in holes)
    assert len(pins[0]) == len(pins[1]) == 10
    colour = choice.split()[1]
    assert game.pin_colour(1) == colour
    assert game.pin_colour(0) == ("black" if colour == "silver" else "silver")
    assert game.current_player() == 0 and game.phase is Phase.MAIN
    assert illegal(game, "choose silver a1c3").rule == "DSC-1"


def test_DSC_1_the_fixed_set_up_draws_as_the_start_board() -> None:
    assert start().position_json()["pins"] == read_board(START)


# --- DSC-2 main actions ------------------------------------------------------------------------
def test_DSC_2_first_moves_are_line_moves_and_quarter_turns_of_own_discs() -> None:
    # full discs leave no room inside; every pin in an outer hole with a line to an empty hole
    # may go; only the own discs a3 and c1 may turn.
    assert moves_text(start()) == sorted([
        "a3.ne-b3.nw", "a3.se-a2.ne", "a3.se-b2.nw", "a3.se-b3.sw", "a3.sw-a2.nw",
        "c1.ne-c2.se", "c1.nw-b1.ne", "c1.nw-b2.se", "c1.nw-c2.sw", "c1.sw-b1.se",
        "a3+", "a3-", "c1+", "c1-",
    ])


LONE = """
    0.0 ... 1.1
    .0. ... .1.
    0.0 ... ..1

    ... 1.0 ...
    ... ... ...
    ... ... ...

    1.1 ... 0..
    .1. ... .0.
    1.1 ... 0.0
"""
"""Player 0: a3 full, a pin on b2.ne, four on c1; player 1: a1 full, b2.nw, four on c3."""


def test_DSC_2_a_pin_moves_to_neighbouring_holes_of_its_disc_and_along_lines() -> None:
    game = drawn(LONE)
    from_b2ne = [m for m in moves_text(game) if m.startswith("b2.ne-")]
    # inside b2: the centre and the two rim neighbours, not the opposite b2.sw; along the three
    # lines from b2.ne: to b3.se, c2.nw and (diagonally) c3.sw.
    assert from_b2ne == ["b2.ne-b2.c", "b2.ne-b2.se", "b2.ne-b3.se", "b2.ne-c2.nw",
                         "b2.ne-c3.sw"]
    err = illegal(game, "b2.ne-b2.sw")
    assert err.rule == "DSC-2" and "two moves" in err.reason
    assert illegal(game, "b2.ne-a2.nw").rule == "DSC-2"  # no line joins them
    game.apply("b2.ne-c3.sw")
    assert "c3.sw" in game.position_json()["pins"][0]


def test_DSC_2_pins_only_move_to_empty_holes() -> None:
    game = drawn(LONE)
    moves = moves_text(game)
    assert "b2.ne-b2.nw" not in moves  # the opponent's pin: nothing is captured
    assert "a3.ne-a3.c" not in moves  # an own pin
    assert illegal(game, "b2.ne-b2.nw").rule == "DSC-2"
    assert illegal(game, "a3.ne-a3.c").rule == "DSC-2"
    assert illegal(game, "b2.nw-b2.c").rule == "DSC-2"  # not player 0's pin


TURNING = """
    0.0 ... 1.1
    .0. ... .1.
    0.0 ... 1..

    ... 1.0 ...
    ... .0. ...
    ... ..1 ...

    1.1 ... 0..
    ... ... .0.
    1.1 ... ..0
"""


def test_DSC_2_turning_needs_an_own_pin_in_an_outer_hole_and_turns_every_pin() -> None:
    game = drawn(TURNING)
    turns = [m for m in moves_text(game) if m[-1] in "+-"]
    assert turns == ["a3+", "a3-", "b2+", "b2-", "c1+", "c1-"]  # not a1, c3: no pin of 0
    assert illegal(game, "a1+").rule == "DSC-2"
    assert illegal(game, "c3-").rule == "DSC-2"
    game.apply("b2+")  # clockwise: ne -> se -> sw -> nw -> ne, the centre stays
    pins = game.position_json()["pins"]
    assert [h for h in pins[0] if h.startswith("b2")] == ["b2.c", "b2.se"]
    assert [h for h in pins[1] if h.startswith("b2")] == ["b2.ne", "b2.sw"]
    game.undo()
    game.apply("b2-")  # anticlockwise: ne -> nw, nw -> sw, se -> ne
    pins = game.position_json()["pins"]
    assert [h for h in pins[0] if h.startswith("b2")] == ["b2.c", "b2.nw"]
    assert [h for h in pins[1] if h.startswith("b2")] == ["b2.ne", "b2.sw"]


def test_DSC_2_a_centre_pin_alone_does_not_allow_a_turn() -> None:
    game = drawn("""
    0.0 ... 1.1
    .0. ... ...
    0.0 ... 1.1

    ... 1.. ...
    ... .0. ...
    ... ... ...

    1.1 ... 0.0
    .1. ... ...
    1.1 ... 0.0
""")
    assert [m for m in moves_text(game) if m.startswith("b2")] == [
        "b2.c-b2.ne", "b2.c-b2.se", "b2.c-b2.sw"]
    assert illegal(game, "b2-").rule == "DSC-2"


def test_DSC_2_one_main_action_then_blocking_actions_then_end() -> None:
    game = start()
    assert illegal(game, "end").rule == "DSC-2"
    assert illegal(game, "bar a2.ne-a3.se").rule == "DSC-2"
    game.apply("a3.se-b2.nw")
    assert game.current_player() == 0 and game.phase is Phase.BLOCK
    assert illegal(game, "c1.nw-b1.ne").rule == "DSC-2"
    assert illegal(game, "c1+").rule == "DSC-2"
    assert illegal(game, "pass").rule == "DSC-2"
    game.apply("end")
    assert game.current_player() == 1 and phase(game) is Phase.MAIN


# --- DSC-3 rotation lock ----------------------------------------------------------------------
def test_DSC_3_a_lock_stops_both_players_turning_the_disc() -> None:
    game = drawn(LONE)
    play(game, "b2.ne-b2.se")
    unlocked = game.clone()
    unlocked.apply("end")
    assert "b2+" in moves_text(unlocked)  # player 1's pin in b2.nw may turn b2 ...
    play(game, "lock b2.se", "end")
    assert game.position_json()["locks"] == ["b2.se", None]
    assert "b2+" not in moves_text(game) and "b2-" not in moves_text(game)
    err = illegal(game, "b2+")  # ... but not once player 0 has locked it
    assert err.rule == "DSC-3" and "locked" in err.reason
    play(game, "c3.nw-b3.ne", "end")
    assert illegal(game, "b2-").rule == "DSC-3"  # nor may the locker turn it


def test_DSC_3_both_players_may_lock_the_same_disc() -> None:
    game = drawn(LONE)
    play(game, "b2.ne-b2.se", "lock b2.se", "end", "c3.nw-b3.ne", "lock b2.nw", "end")
    assert game.position_json()["locks"] == ["b2.se", "b2.nw"]
    play(game, "c1.c-c1.ne", "unlock", "end")
    assert game.position_json()["locks"] == [None, "b2.nw"]
    assert illegal(game, "b2+").rule == "DSC-3"  # still locked by player 1


def test_DSC_3_one_lock_per_player_and_one_lock_action_per_turn() -> None:
    game = drawn(LONE)
    play(game, "c1.c-c1.ne", "lock a3.ne", "end", "c3.nw-b3.ne", "end")
    assert illegal(game, "a3+").rule == "DSC-3"
    play(game, "b2.ne-b2.c", "lock c1.ne")  # a new lock releases the old one
    assert game.position_json()["locks"] == ["c1.ne", None]
    assert illegal(game, "unlock").rule == "DSC-3"  # one lock action per turn
    assert illegal(game, "lock c1.nw").rule == "DSC-3"
    play(game, "end", "b3.ne-c3.nw", "end")
    assert "a3+" in moves_text(game) and "c1+" not in moves_text(game)


def test_DSC_3_only_an_own_pin_in_an_outer_hole_locks() -> None:
    game = drawn(LONE)
    game.apply("b2.ne-b2.se")
    assert illegal(game, "lock b2.nw").rule == "DSC-3"  # player 1's pin
    assert illegal(game, "lock a3.c").rule == "DSC-3"  # a centre
    assert illegal(game, "lock b2.ne").rule == "DSC-3"  # empty now
    assert illegal(game, "unlock").rule == "DSC-3"  # no lock to release
    play(game, "lock b2.se", "end", "c3.nw-b3.ne", "end", "a3.se-a2.ne")
    err = illegal(game, "lock b2.se")  # the same pin locks already
    assert err.rule == "DSC-3" and "already" in err.reason


def test_DSC_3_moving_the_locking_pin_releases_the_lock() -> None:
    game = drawn(LONE, locks=["b2.ne", None])
    assert "b2.ne-c2.nw" in moves_text(game)  # the locking pin still moves
    game.apply("b2.ne-c2.nw")
    assert game.position_json()["locks"] == [None, None]
    play(game, "end")
    assert "b2+" in moves_text(game)


TOKEN = """
    0.0 ... 1.1
    .0. ... .1.
    0.0 ... ..1

    ... 0.1 ...
    ... .0. ...
    ... ... ...

    1.1 ... 0..
    .1. ... .0.
    1.1 ... ..0
"""
"""Player 0 has b2.nw and b2.c on blue b2 and c1.nw one line away from b2.se."""


def test_DSC_3_the_locking_pin_still_counts_for_a_token() -> None:
    game = drawn(TOKEN, locks=["b2.nw", None])
    game.apply("c1.nw-b2.se")
    assert game.tokens(0) == "B"


# --- DSC-4 barrier -----------------------------------------------------------------------------
def test_DSC_4_a_barrier_blocks_both_players_and_only_its_line() -> None:
    game = drawn(LONE)
    play(game, "c1.c-c1.ne")
    other = game.clone()
    other.apply("end")
    assert "b2.nw-b3.sw" in moves_text(other)
    play(game, "bar b3.sw-b2.nw", "end")  # either order of the holes
    assert game.position_json()["barriers"] == ["b2.nw-b3.sw", None]
    assert "b2.nw-b3.sw" not in moves_text(game)
    err = illegal(game, "b2.nw-b3.sw")
    assert err.rule == "DSC-4" and "barrier" in err.reason
    assert "b2.nw-b2.c" in moves_text(game)  # moves inside a disc cross no line
    assert illegal(game, "bar b2.nw-b3.sw").rule == "DSC-2"  # main action first
    play(game, "c3.c-c3.sw", "bar b2.ne-b3.se", "end")
    assert "b2.ne-b3.se" not in moves_text(game)  # player 1's barrier stops player 0
    assert illegal(game, "b2.ne-b3.se").rule == "DSC-4"
    assert "b2.ne-c2.nw" in moves_text(game)


def test_DSC_4_one_barrier_each_moved_or_removed_one_action_per_turn() -> None:
    game = drawn(LONE)
    game.apply("c1.c-c1.ne")
    assert illegal(game, "unbar").rule == "DSC-4"  # not on the board yet
    assert illegal(game, "bar a1.c-b2.c").rule == "DSC-4"  # not a line
    game.apply("bar b2.nw-b3.sw")
    assert illegal(game, "unbar").rule == "DSC-4"  # one barrier action per turn
    assert illegal(game, "bar a2.ne-b2.nw").rule == "DSC-4"
    play(game, "end", "c3.c-c3.sw")
    err = illegal(game, "bar b2.nw-b3.sw")  # the line holds player 0's barrier
    assert err.rule == "DSC-4" and "already" in err.reason
    play(game, "end", "c1.ne-c1.c", "bar b2.ne-b3.se")  # placing it elsewhere moves it
    assert game.position_json()["barriers"] == ["b2.ne-b3.se", None]
    play(game, "end", "c3.sw-c3.c", "end", "c1.c-c1.ne", "unbar")
    assert game.position_json()["barriers"] == [None, None]


# --- DSC-5 tokens ------------------------------------------------------------------------------
def test_DSC_5_three_own_pins_on_a_disc_earn_its_colour_and_it_is_kept() -> None:
    game = drawn(TOKEN)
    assert game.tokens(0) == ""
    game.apply("c1.nw-b2.se")  # b2 is blue; player 1's pin on b2.ne does not matter
    assert game.tokens(0) == "B" and game.tokens(1) == ""
    assert game.position_json()["turn"]["token"] is True
    play(game, "end", "c3.c-c3.sw", "end", "b2.se-c1.nw")  # the pins need not stay
    assert game.tokens(0) == "B"


HOME = """
    0.0 0.0 1.1
    .0. ... .1.
    0.0 ... 1.1

    ... ... ...
    ... ... ...
    ... ... ...

    1.1 ... 0..
    .1. ... .0.
    1.1 ..0 ...
"""
"""Player 0 has c1.nw and c1.c on its starting disc c1 (blue) and b1.se one line from c1.sw."""


@pytest.mark.parametrize(("home", "earns"), [(["a3", "c1"], ""), (["a3"], "B")])
def test_DSC_5_own_starting_disc_earns_only_after_being_left(home: list[str], earns: str) -> None:
    game = drawn(HOME, home=[home, ["a1", "c3"]])
    game.apply("b1.se-c1.sw")
    assert game.tokens(0) == earns


def test_DSC_5_a_starting_disc_counts_once_every_own_pin_has_left_it() -> None:
    game = drawn(HOME)
    assert game.position_json()["home"][0] == ["a3", "c1"]
    play(game, "c1.nw-b1.ne", "end", "a1.ne-b2.sw", "end", "c1.c-c1.nw", "end",
         "b2.sw-a1.ne", "end")
    assert game.position_json()["home"][0] == ["a3", "c1"]  # one pin is still on c1
    game.apply("c1.nw-b2.se")
    assert game.position_json()["home"][0] == ["a3"]
    play(game, "end", "a1.ne-b2.sw", "end", "b2.se-c1.nw", "end", "b2.sw-a1.ne", "end",
         "c1.nw-c1.c", "end", "a1.ne-b2.sw", "end", "b1.ne-c1.nw")
    assert game.tokens(0) == ""  # two pins back on c1
    play(game, "end", "b2.sw-a1.ne", "end", "b1.se-c1.sw")
    assert game.tokens(0) == "B"  # three: c1 counts like any other disc now


def test_DSC_5_the_opponents_starting_discs_always_count() -> None:
    game = drawn("""
    0.0 0.0 1.1
    .0. ... .1.
    0.0 ... 1.1

    ... 1.1 ...
    ... .1. ...
    ..0 ... ...

    0.. ... ...
    .1. ... ...
    0.1 ... ...
""")
    assert game.position_json()["home"][1] == ["a1", "c3"]
    game.apply("a2.se-a1.ne")  # a1 (red) is player 1's starting disc, still occupied
    assert game.tokens(0) == "R"


# --- DSC-6 winning -----------------------------------------------------------------------------
def test_DSC_6_the_third_colour_wins_at_once() -> None:
    """DSC-6: the main action that earns the last colour ends the game; no end follows."""
    game = drawn(TOKEN, tokens=["RG", ""])
    game.apply("c1.nw-b2.se")
    assert game.current_player() == TERMINAL and game.legal_moves() == []
    out = game.outcome()
    assert out is not None and out.winners == (0,) and out.scores == (3, 0)
    assert game.returns() == [1.0, -1.0]
    with pytest.raises(GameOverError):
        game.apply("end")


def test_DSC_6_two_colours_do_not_win() -> None:
    game = drawn(TOKEN, tokens=["R", "RG"])
    game.apply("c1.nw-b2.se")
    assert game.tokens(0) == "RB"
    assert game.current_player() == 0 and game.outcome() is None


# --- DSC-7 pass and draws ----------------------------------------------------------------------
STUCK = """
    0.0 1.1 ...
    .0. .0. ...
    0.0 1.1 ...

    1.1 1.. ...
    ... ... ...
    ... ... 1.1

    ... ... 0.0
    ... ... .0.
    ... ... 1.0
"""
"""Player 0 cannot move: every hole next to its pins is taken or barred, a3 and c1 locked."""
STUCK_FIELDS = {"locks": ["a3.ne", "c1.sw"], "barriers": ["b1.ne-c1.nw", "b2.se-c1.nw"]}


def test_DSC_7_pass_only_when_no_main_action_is_legal() -> None:
    assert illegal(start(), "pass").rule == "DSC-7"
    game = drawn(STUCK, **STUCK_FIELDS)
    assert moves_text(game) == ["pass"]
    game.apply("pass")  # then blocking actions as usual
    assert game.phase is Phase.BLOCK and game.current_player() == 0
    assert {"unbar", "unlock", "end"} <= set(moves_text(game))
    play(game, "unbar", "end")
    assert game.current_player() == 1 and game.outcome() is None


def test_DSC_7_two_passes_in_a_row_draw() -> None:
    game = drawn(STUCK, passes=1, **STUCK_FIELDS)  # player 1 passed last turn
    game.apply("pass")
    out = game.outcome()
    assert out is not None and out.winners == () and "passed" in out.reason
    assert game.returns() == [0.0, 0.0]


def test_DSC_7_the_third_repetition_at_the_start_of_a_turn_draws() -> None:
    game = start()
    # turning a full own disc leaves the position as it was (DSC-2 allows it)
    play(game, "a3+", "end", "a1+", "end", "a3+", "end", "a1+")
    assert game.outcome() is None
    game.apply("end")  # player 0 to move in the start position for the third time
    out = game.outcome()
    assert out is not None and out.winners == () and "third time" in out.reason


def test_DSC_7_repetition_counts_locks_too() -> None:
    game = start()
    play(game, "a3+", "lock a3.ne", "end", "a1+", "end", "c1+", "unlock", "end", "a1+", "end")
    # the start position is back for the second time; had the lock not counted, the two
    # positions with a3 locked would have made it the third
    assert game.outcome() is None
    play(game, "a3+", "end", "a1+", "end")
    out = game.outcome()
    assert out is not None and "third time" in out.reason


@pytest.mark.parametrize(("quiet", "over"), [(98, False), (99, True)])
def test_DSC_7_100_turns_without_a_new_token_draw(quiet: int, over: bool) -> None:
    game = drawn(START, quiet_turns=quiet)
    play(game, "a3.se-b2.nw", "end")
    assert game.quiet_turns == quiet + 1
    out = game.outcome()
    assert (out is not None) == over
    if out is not None:
        assert out.winners == () and "100 turns" in out.reason


def test_DSC_7_a_new_token_starts_the_100_turns_again() -> None:
    game = drawn(TOKEN, quiet_turns=99)
    play(game, "c1.nw-b2.se", "end")
    assert game.outcome() is None and game.quiet_turns == 0
