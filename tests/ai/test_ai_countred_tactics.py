"""Count Red tactics (issue 16): positions drawn as diagrams, each found by the levels that
should find it (``best``, ``hard``) within a fixed budget and seed; the root filter; the
evaluation's analysis against brute force; the search's free plies, quiescence and threat
extension on their own.

A diagram has rows 1 (worth 3) to 4 (worth 0) from the top, columns A to D; a field is ``.``
(empty), a piece (``r2`` red 2, ``b0`` black 0) or a stack bottom first (``b3r1``) with its
former after a colon (``b3r1:0``), and ``#`` when locked (CR-10). Each position came from a
seeded random game (the seed and move count are noted); the right moves were found by brute
force (wins in one, threes then fours, double threats: every line to the end) or, for the deeper
one, by exact alpha-beta proofs of every root move. Each test was checked to fail on the agent
before issue 16 (commit 4fd02cb) at the same budget, or with the part of the search it tests
switched off.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from rulebox.ai import make_agent
from rulebox.ai.alphabeta import WIN, AlphaBetaSearch
from rulebox.ai.budget import Budget
from rulebox.ai.heuristics import countred as cr
from rulebox.ai.heuristics import heuristic
from rulebox.core import new_game
from rulebox.core.errors import StateError
from rulebox.core.game import STATE_FORMAT, TERMINAL, Game
from rulebox.games.countred.rules import CountRed

PROVEN = WIN - 0.5


def board(diagram: str, to_move: int, even: int, fifty: int = 0) -> Game:
    """A Count Red position from a diagram (see the module docstring); ``even`` is the player
    who moves on even counts (CR-2)."""
    fields: dict[str, list[str]] = {}
    formed: dict[str, int] = {}
    locked: list[str] = []
    lines = [line.split() for line in diagram.strip().splitlines()]
    assert lines[0] == ["A", "B", "C", "D"]
    for line in lines[1:]:
        row = line[0]
        for col, cell in zip("ABCD", line[1:], strict=True):
            name = col + row
            if cell.endswith("#"):
                locked.append(name)
                cell = cell[:-1]
            if ":" in cell:
                cell, who = cell.split(":")
                formed[name] = int(who)
            fields[name] = [] if cell == "." else [cell[i : i + 2] for i in range(0, len(cell), 2)]
    position = {"to_move": to_move, "fields": fields, "formed_by": formed, "locked": locked,
                "fifty": fifty}
    return CountRed.from_json({
        "format": STATE_FORMAT, "game": "countred",
        "options": {"seed": "0", "first": str(to_move), "even": str(even)},
        "history": [], "position": position,
    })


# --- the positions ------------------------------------------------------------------------------
# (name, diagram, to move, even player, fifty, the right moves, the budget in nodes)
WIN_IN_ONE = (
    # seed 2001, 12 moves: A1-A3 hold a locked black three; player 0 (odd counts) lifts the
    # black 0 from his stack on C2 and sets it on A4: four black in A
    """
        A       B       C       D
    1   b3#     r3      .       r3
    2   b2#     .       r2b0:0  b2
    3   b1#     r1b3:0  .       r1
    4   .       r0r2:1  r0      b0b1:1
    """,
    0, 1, 3, ["C2-A4"], 5,
)
WIN_IN_ONE_2 = (
    # seed 2001, 11 moves: player 1 (even) completes column B with the red 2 from C4's stack
    """
        A       B       C       D
    1   b3#     r3      .       r3
    2   b2#     .       r2b0:0  b2
    3   b1#     r1b3:0  .       r1
    4   .       r0      r0r2:1  b0b1:1
    """,
    1, 1, 2, ["C4-B2"], 5,
)
STOP_A_WIN = (
    # seed 2001, 34 moves: player 0 (odd) threatens a black 0 on A4 (four black in A); only
    # B2-B3 stops it
    """
        A       B       C       D
    1   b3r0:0# r3b3:0# .       .
    2   b2#     r2r3:1# r2b0:0  b2
    3   b1#     r1#     b1      r1
    4   .       .       r0      b0
    """,
    1, 1, 4, ["B2-B3"], 40,
)
STOP_A_WIN_2 = (
    # seed 2031, 20 moves: player 0 (even) threatens a four; player 1 has two answers
    """
        A       B       C       D
    1   b3b1:0  r3b2:1  .       r3r0:0#
    2   .       b2      r2      r2#
    3   .       r1b3:1  b1      r1#
    4   r0      b0      b0      .
    """,
    1, 0, 6, ["C2-C3", "C2-C4"], 40,
)
DOUBLE_THREAT = (
    # seed 0, 58 moves: A3-C1 makes two fours possible for player 0 next move; player 1
    # cannot stop both (the only such move)
    """
        A       B       C       D
    1   .       r3      .       b3r1:0
    2   .       b2b3:1# r2      b2r1:0
    3   b1r3:0  b1r2:0# .       .
    4   .       b0#     r0r0:1  b0
    """,
    0, 1, 37, ["A3-C1"], 150,
)
THREE_THEN_FOUR = (
    # seed 0, 19 moves: A3-B3 or C3-B3 makes three black in B (rows 2-4), a bonus move
    # (CR-10), then the four on B1 with the black 3 from A4
    """
        A       B       C       D
    1   r3      .       b3r2:0  .
    2   r2r1:1  b2r3:0  .       b2b0:1
    3   b1      .       b1      .
    4   r0b3:0  b0r1:0  .       r0
    """,
    0, 1, 19, ["A3-B3", "C3-B3"], 15,
)
DEEP_BONUS = (
    # seed 1002, 26 moves: only C3-B3 wins: three red in B (rows 1-3), a bonus move, and a
    # winning line the old agent did not find with 8000 nodes
    """
        A       B       C       D
    1   b3      r3b2:1  .       r3b3:1
    2   r2      r2b1:1  .       b2
    3   .       .       r1      r1r0:0
    4   r0      b0      .       b0b1:0
    """,
    0, 0, 26, ["C3-B3"], 1500,
)

POSITIONS = {
    "win-in-one": WIN_IN_ONE,
    "win-in-one-2": WIN_IN_ONE_2,
    "stop-a-win": STOP_A_WIN,
    "stop-a-win-2": STOP_A_WIN_2,
    "double-threat": DOUBLE_THREAT,
    "three-then-four": THREE_THEN_FOUR,
    "deep-bonus": DEEP_BONUS,
}


def _game(name: str) -> tuple[Game, list[str], int]:
    diagram, to_move, even, fifty, right, budget = POSITIONS[name]
    return board(diagram, to_move, even, fifty), right, budget


@pytest.mark.parametrize("level", ["best", "hard"])
@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_level_finds_the_tactic_within_its_budget(name: str, level: str) -> None:
    game, right, budget = _game(name)
    before = game.to_json()
    for seed in (1, 2, 3):
        agent = make_agent(level, "countred", {"iterations": str(budget), "seed": str(seed)})
        chosen = agent.choose(game)
        assert str(chosen) in right, f"{level} (seed {seed}) played {chosen}; right: {right}"
    assert game.to_json() == before  # the agent never changes the game it is given


def test_the_right_moves_are_right() -> None:
    """The diagrams say what the notes say: wins win, the stops are the only moves that do
    not hand a four (brute force over the replies)."""
    for name in ("win-in-one", "win-in-one-2"):
        game, right, _ = _game(name)
        assert sorted(str(m) for m in _wins(game)) == right
    for name in ("stop-a-win", "stop-a-win-2"):
        game, right, _ = _game(name)
        passed = _passed(game)
        assert passed is not None and _wins(passed), "the opponent must threaten a four"
        safe = [str(m) for m in game.legal_moves() if not _hands_a_four(game, m)]
        assert sorted(safe) == sorted(right)
    game, right, _ = _game("three-then-four")
    for text in right:
        child = game.clone()
        child.apply(text)
        assert child.current_player() == game.current_player()  # a bonus move
        assert _wins(child)


# --- the root filter -------------------------------------------------------------------------
@pytest.mark.slow  # the longest of the developer's loop (150 s on a loaded machine)
def test_root_filter_never_hands_an_immediate_four() -> None:
    """From positions of seeded random games, with a budget too small to search the replies,
    the search never plays a move after which the opponent can make a four while another move
    does not allow it; with the filter off it does."""
    h = heuristic("countred")
    rnd = random.Random(5)
    checked = handed_without = 0
    for seed in range(40):
        game = new_game("countred", {"seed": str(seed)})
        while not game.is_terminal() and len(game.history) < 60:
            moves = [m for m in game.legal_moves() if not m.is_claim]
            bad = {m for m in moves if _hands_a_four(game, m)}
            if bad and len(bad) < len(moves) and not _wins(game):
                checked += 1
                on = AlphaBetaSearch(h, Budget(None, 1)).search(game, moves)
                assert on.move not in bad
                off = AlphaBetaSearch(h, Budget(None, 1), root_filter=False).search(game, moves)
                handed_without += off.move in bad
            game.apply_unchecked(moves[rnd.randrange(len(moves))])
    assert checked >= 20
    assert handed_without > 0  # the test sees the filter's work


def test_root_filter_keeps_every_move_when_all_hand_a_four() -> None:
    game, _, _ = _game("stop-a-win")
    search = AlphaBetaSearch(heuristic("countred"), Budget(None, 10**6))
    doomed = [m for m in game.legal_moves() if _hands_a_four(game, m)]
    assert doomed
    assert search.safe_moves(game, doomed) == doomed
    assert search.safe_moves(game, game.legal_moves()) == [game.find_move("B2-B3")]
    assert set(search.filtered) == set(doomed)


# --- the analysis behind the evaluation -------------------------------------------------------
def test_analysis_matches_brute_force_on_random_positions() -> None:
    """Fours and threes of the player to move, as the rules make them (the analysis decodes
    ``position_key``, so this also checks that decoding); ``in_danger`` as a four of the other
    player if it were his turn; features antisymmetric. Both ``stack_lift`` rules (CR-5)."""
    rnd = random.Random(11)
    seen = 0
    for seed in range(25):
        game: Any = new_game("countred", {"seed": str(seed), "stack_lift": "seed" if seed % 2
                                          else "free"})
        while not game.is_terminal():
            a = cr.analyse(game)
            wins, threes = _brute_forcing(game)
            assert set(cr.winning_moves(game)) == wins
            assert set(cr.forcing_moves(game)) == wins | threes
            assert cr.forcing_moves(game)[: len(a.wins)] == cr.winning_moves(game)  # wins first
            passed = _passed(game)
            assert a.danger == (passed is not None and bool(_wins(passed)))
            f0, f1 = cr.features(game, 0), cr.features(game, 1)
            assert f1 == [-x for x in f0] and len(f0) == len(cr.FEATURES)
            seen += 1
            moves = game.legal_moves()
            game.apply_unchecked(moves[rnd.randrange(len(moves))])
    assert seen > 500


def test_features_read_the_tactics() -> None:
    game, _, _ = _game("win-in-one")
    f = dict(zip(cr.FEATURES, cr.features(game, 0), strict=True))
    assert f["win_now"] == 1 and f["tempo"] == 1
    game, _, _ = _game("stop-a-win")  # player 1 to move, player 0 threatens a four
    f = dict(zip(cr.FEATURES, cr.features(game, 0), strict=True))
    assert f["threats"] >= 1 and f["win_now"] == 0
    assert cr.values(game)[0] > 0.3 > -0.3 > cr.values(game)[1]
    game, _, _ = _game("three-then-four")
    f = dict(zip(cr.FEATURES, cr.features(game, 0), strict=True))
    assert f["bonus_now"] >= 1 and f["combo"] >= 1


def test_old_evaluation_stays_reachable() -> None:
    game, _, _ = _game("stop-a-win")
    agent: Any = make_agent("alphabeta", "countred", {"eval": "v1", "iterations": "50"})
    assert agent.h.values is cr.values_v1
    agent.choose(game)


# --- the search's extensions on their own ------------------------------------------------------
def _depth_one(name: str, **switches: Any) -> float:
    game, _, _ = _game(name)
    search = AlphaBetaSearch(heuristic("countred"), Budget(None, 10**6), max_depth=1,
                             **switches)
    return search.search(game, game.legal_moves()).value


def test_a_bonus_move_costs_no_depth() -> None:
    """Three then four is seen at depth 1 with free plies (the bonus move is searched at the
    same depth), not without them and without quiescence."""
    assert _depth_one("three-then-four") >= PROVEN
    assert _depth_one("three-then-four", quiescence=0) >= PROVEN  # free plies alone
    assert _depth_one("three-then-four", free_plies=0) >= PROVEN  # quiescence alone
    assert _depth_one("three-then-four", free_plies=0, quiescence=0) < PROVEN


def test_quiescence_sees_the_win_behind_a_leaf() -> None:
    """At depth 1 every reply of the opponent is a leaf: a move that leaves him a four must
    look lost there (quiescence plays his four), not only after the root filter."""
    game, right, _ = _game("stop-a-win")
    h = heuristic("countred")
    for quiescence, lost in ((6, True), (0, False)):
        search = AlphaBetaSearch(h, Budget(None, 10**6), max_depth=1, root_filter=False,
                                 quiescence=quiescence)
        move = next(m for m in game.legal_moves() if str(m) not in right)  # does not stop it
        game.apply_unchecked(move)
        value = -search.negamax(game, 0, -float("inf"), float("inf"), 1)
        game.undo()
        assert (value <= -PROVEN) == lost


def test_threat_extension_sees_a_double_threat_at_depth_one() -> None:
    assert _depth_one("double-threat") >= PROVEN
    assert _depth_one("double-threat", extensions=0) < PROVEN


def test_free_plies_are_bounded() -> None:
    """With free plies the search still ends: a depth-1 search of every position in a few
    random games visits a bounded number of nodes."""
    h = heuristic("countred")
    rnd = random.Random(3)
    game = new_game("countred", {"seed": "4"})
    while not game.is_terminal():
        search = AlphaBetaSearch(h, Budget(None, 10**6), max_depth=2)
        search.search(game, game.legal_moves())
        assert search.nodes < 10**5
        moves = game.legal_moves()
        game.apply_unchecked(moves[rnd.randrange(len(moves))])


# --- helpers -------------------------------------------------------------------------------------
def _wins(game: Game) -> list[Any]:
    p = game.current_player()
    out = []
    for m in game.legal_moves():
        if m.is_claim:
            continue
        game.apply_unchecked(m)
        if game.current_player() == TERMINAL and game.returns()[p] > 0:
            out.append(m)
        game.undo()
    return out


def _hands_a_four(game: Game, move: Any) -> bool:
    p = game.current_player()
    game.apply_unchecked(move)
    try:
        q = game.current_player()
        return q not in (TERMINAL, p) and bool(_wins(game))
    finally:
        game.undo()


def _brute_forcing(game: Game) -> tuple[set[Any], set[Any]]:
    """(fours, threes) of the player to move, by playing every move."""
    g: Any = game
    p = game.current_player()
    wins, threes = set(), set()
    for m in game.legal_moves():
        if m.is_claim:
            continue
        locked = g.is_locked(m.dst)
        game.apply_unchecked(m)
        if game.current_player() == TERMINAL and game.returns()[p] > 0:
            wins.add(m)
        elif g.is_locked(m.dst) and not locked:
            threes.add(m)
        game.undo()
    return wins, threes


def _passed(game: Game) -> Game | None:
    """The same position with the other player to move (as a drawn position); ``None`` if he
    could not move there."""
    data = game.to_json()
    position = dict(data["position"])
    position["to_move"] = 1 - position["to_move"]
    position.pop("seen", None)
    try:
        return CountRed.from_json({
            "format": STATE_FORMAT, "game": "countred", "options": data["options"],
            "history": [], "position": position,
        })
    except StateError:
        return None
