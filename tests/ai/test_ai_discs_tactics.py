"""Discs tactics and the evaluation's features, on positions drawn as diagrams.

A diagram shows the 3 x 3 discs, rank 3 at the top, each disc as three rows of three cells:

    nw  x  ne
     x  c  x
    sw  x  se

where a hole shows ``0`` or ``1`` (a pin of that player) or ``.`` (empty) and the four other
cells show the disc's colour (``r``, ``g``, ``b``). Tokens, starting discs, locks and barriers
are given beside the diagram. The colours are always ``RGBGBRBRG`` (a1 R, b1 G, c1 B, a2 G,
b2 B, c2 R, a3 B, b3 R, c3 G); player 0 started on a3 and c1, player 1 on a1 and c3, and both
have left their starting discs (so every disc counts, DSC-5).

The hybrid (``hard`` and ``best``) must take a win in one, stop a win that a barrier cannot
stop, and never play a move that hands the opponent a win on his next main action while
another move does not; agents run on fixed iterations and seeds, so every test repeats.
"""

from __future__ import annotations

from typing import Any

import pytest

from rulebox.ai import make_agent
from rulebox.ai.heuristics import discs as evaluation
from rulebox.core.game import Game
from rulebox.games.discs.geometry import FILES, HOLE_INDEX, LINE_NAMES
from rulebox.games.discs.rules import Discs

_CELLS = (("nw", None, "ne"), (None, "c", None), ("sw", None, "se"))


def _hole(name: str) -> int:
    return HOLE_INDEX[name]


def _line(name: str) -> int:
    return LINE_NAMES.index(name)


def drawn(
    diagram: str,
    to_move: int = 0,
    tokens: tuple[str, str] = ("", ""),
    locks: tuple[str | None, str | None] = (None, None),
    barriers: tuple[str | None, str | None] = (None, None),
) -> Discs:
    """The position of a diagram (see the module docstring) at the start of a turn."""
    rows = [line.split()[-3:] for line in diagram.strip("\n").splitlines()[1:] if line.strip()]
    assert len(rows) == 9, "three rows of cells for each of the three ranks"
    pins: list[list[str]] = [[], []]
    for i, row in enumerate(rows):
        rank = 3 - i // 3
        for f, cell in zip(FILES, row, strict=True):
            assert len(cell) == 3, cell
            for kind, ch in zip(_CELLS[i % 3], cell, strict=True):
                if kind is not None and ch in "01":
                    pins[int(ch)].append(f"{f}{rank}.{kind}")
    position = {
        "phase": "main", "to_move": to_move, "discs": "RGBGBRBRG", "silver": 1,
        "pins": pins, "start": [["a3", "c1"], ["a1", "c3"]], "home": [[], []],
        "locks": list(locks), "barriers": list(barriers), "tokens": list(tokens),
        "turn": {"lock": False, "bar": False, "token": False}, "passes": 0, "quiet_turns": 0,
        "seen": {},
    }
    return Discs.from_json({"game": "discs", "position": position})


def wins_at_once(game: Game) -> list[str]:
    """The main actions that win the game on the spot for the player to move."""
    p = game.current_player()
    out = []
    for move in game.legal_moves():
        child = game.clone()
        child.apply(move)
        outcome = child.outcome()
        if outcome is not None and p in outcome.winners:
            out.append(str(move))
    return out


def play_turn(game: Game, agent: str, settings: dict[str, str]) -> list[str]:
    """The agent's whole turn (main action and blocking actions), played on ``game``."""
    me = game.current_player()
    player = make_agent(agent, "discs", {**settings, "seed": "3"})
    played = []
    while game.current_player() == me:
        move = player.choose(game)
        played.append(str(move))
        game.apply(move)
    return played


# Player 0 (tokens R and G) has two pins on the blue disc b2; c2.sw-b2.se puts the third there.
WIN_IN_ONE = """
      a    b    c
3    .b.  .r1  0g0
     b1b  r0r  g0g
     1b.  1r.  .g.
2    .g1  .b.  .r.
     g1g  b0b  r.r
     .g.  0b.  0r.
1    0r.  .g.  .b.
     r0r  g1g  b1b
     .r0  1g.  .b1
"""

# Player 1 (tokens R and G) has two pins on b2 and two lines into its free hole b2.se (from
# b1.ne and c2.sw): one barrier cannot stop both, so player 0 must fill b2.se himself (from
# b2.ne or b2.sw, which also earns him blue) or turn b2.
TWO_LINE_THREAT = """
      a    b    c
3    0b.  0r.  .g1
     b0b  r0r  g1g
     .b.  .r.  .g1
2    .g0  1b0  .r.
     g1g  b1b  r.r
     .g.  0b.  1r.
1    .r.  .g1  .b.
     r1r  g0g  b0b
     1r.  .g.  0b.
"""

# Player 0's pin on b2.se keeps player 1 (tokens R and G, two pins on b2) from b2.se, where
# lines from b1.ne and c2.sw (both player 1's) end. b2.se-c1.nw would earn player 0 blue (two
# pins on c1 already) but opens b2.se to two lines at once: player 1 wins next turn.
TEMPTING_BLUE = """
      a    b    c
3    .b.  0r0  .g.
     b0b  r0r  g1g
     .b.  .r.  .g1
2    1g0  1b.  .r.
     g1g  b1b  r.r
     .g.  0b0  1r.
1    .r.  .g1  .b.
     r1r  g.g  b0b
     1r0  .g.  0b.
"""

HYBRIDS = {"hard": {"iterations": "400"}, "best": {"iterations": "400"},
           "hybrid": {"iterations": "400"}}


def test_positions_are_what_they_say() -> None:
    game = drawn(WIN_IN_ONE, tokens=("RG", ""))
    assert wins_at_once(game) == ["c2.sw-b2.se"]
    threat = drawn(TWO_LINE_THREAT, tokens=("", "RG"))
    ended = threat.clone()
    ended.apply("a3.c-a3.se")
    ended.apply("end")
    assert sorted(wins_at_once(ended)) == ["b1.ne-b2.se", "c2.sw-b2.se"]
    tempting = drawn(TEMPTING_BLUE, tokens=("R", "RG"))
    tempting.apply("b2.se-c1.nw")
    assert tempting.tokens(0) == "RB"
    tempting.apply("bar b1.ne-b2.se")
    tempting.apply("end")
    assert wins_at_once(tempting) == ["c2.sw-b2.se"]


@pytest.mark.parametrize("agent", sorted(HYBRIDS))
def test_takes_the_third_token(agent: str) -> None:
    game = drawn(WIN_IN_ONE, tokens=("RG", ""))
    assert play_turn(game, agent, HYBRIDS[agent]) == ["c2.sw-b2.se"]
    outcome = game.outcome()
    assert outcome is not None and outcome.winners == (0,)


@pytest.mark.parametrize("agent", sorted(HYBRIDS))
def test_stops_a_threat_no_barrier_can_stop(agent: str) -> None:
    game = drawn(TWO_LINE_THREAT, tokens=("", "RG"))
    play_turn(game, agent, HYBRIDS[agent])
    assert not game.is_terminal()
    assert wins_at_once(game) == []


@pytest.mark.parametrize("agent", sorted(HYBRIDS))
def test_does_not_hand_over_a_win_for_a_token(agent: str) -> None:
    game = drawn(TEMPTING_BLUE, tokens=("R", "RG"))
    player = make_agent(agent, "discs", {**HYBRIDS[agent], "seed": "3"})
    first = player.choose(game)
    hybrid: Any = getattr(player, "inner", player)
    assert "b2.se-c1.nw" in {str(m) for m in hybrid.filtered}  # left out before any search
    assert str(first) != "b2.se-c1.nw"
    game.apply(first)
    while game.current_player() == 0:
        game.apply(player.choose(game))
    assert wins_at_once(game) == []


def _lost_turn_by_brute_force(game: Game, move: str) -> bool:
    """Whether every way to finish the turn after ``move`` (every lock, barrier and ``end``
    in every order) leaves the opponent a win at once."""
    me = game.current_player()
    game = game.clone()
    game.apply(move)

    def lost(g: Game) -> bool:
        if g.is_terminal():
            return g.returns()[me] < 0
        if g.current_player() != me:
            return bool(wins_at_once(g))
        for m in g.legal_moves():
            child = g.clone()
            child.apply(m)
            if not lost(child):
                return False
        return True

    return lost(game)


@pytest.mark.parametrize(("diagram", "tokens", "bar", "moves"), [
    (TEMPTING_BLUE, ("R", "RG"), None, ["b2.se-c1.nw", "b2.se-b2.ne", "b2+", "b3.c-b3.se"]),
    (TWO_LINE_THREAT, ("", "RG"), None, ["b2.ne-b2.se", "b2-", "a2.ne-b3.sw", "c1.c-c1.nw"]),
    # player 0's barrier stops one of the two lines already: moving it to the other would
    # open this one (one barrier each, DSC-4), so a quiet move still loses
    (TWO_LINE_THREAT, ("", "RG"), "b1.ne-b2.se", ["a2.ne-b3.sw", "b2.sw-b2.se", "c1.c-c1.nw"]),
    # the same barrier on the tempting position: the token step opens only c2.sw, which the
    # barrier moved there would stop, but then b1.ne is open again
    (TEMPTING_BLUE, ("R", "RG"), "b1.ne-b2.se", ["b2.se-c1.nw", "b3.c-b3.se"]),
])
def test_hands_win_agrees_with_brute_force(
    diagram: str, tokens: tuple[str, str], bar: str | None, moves: list[str]
) -> None:
    game = drawn(diagram, tokens=tokens, barriers=(bar, None))
    before = game.to_json()
    verdicts = {m: evaluation.hands_win(game, game.find_move(m)) for m in moves}
    assert game.to_json() == before
    assert verdicts == {m: _lost_turn_by_brute_force(game, m) for m in moves}
    assert any(verdicts.values()) and not all(verdicts.values())


# --- features -----------------------------------------------------------------------------------
def _f(game: Discs, player: int = 0) -> dict[str, float]:
    return dict(zip(evaluation.FEATURES, evaluation.features(game, player), strict=True))


def test_a_winning_step_for_the_next_mover() -> None:
    game = drawn(WIN_IN_ONE, tokens=("RG", ""))
    f = _f(game)
    assert f["win"] == 1 and f["win_next"] == 1 and f["tokens"] == 2
    assert evaluation.Scan(game).token_steps(0) == [(_hole("c2.sw"), _hole("b2.se"), _line(
        "b2.se-c2.sw"))]
    # the same position with player 1 to move: player 0's step is still a threat (win), but
    # not the next main action's
    other = drawn(WIN_IN_ONE, to_move=1, tokens=("RG", ""))
    g = _f(other)
    assert g["win"] == 1 and g["win_next"] == 0 and g["tempo"] == -1


def test_a_barrier_across_the_winning_line_counts_for_its_owner() -> None:
    open_line = drawn(WIN_IN_ONE, to_move=1, tokens=("RG", ""))
    barred = drawn(WIN_IN_ONE, to_move=1, tokens=("RG", ""), barriers=(None, "b2.se-c2.sw"))
    assert _f(open_line, 1)["bar_cut"] == 0 and _f(barred, 1)["bar_cut"] == 1
    assert _f(barred)["win"] == 0 and evaluation.Scan(barred).token_steps(0) == []
    assert evaluation.values(barred)[1] > evaluation.values(open_line)[1]


def test_pin_moves_needed_per_colour() -> None:
    game = drawn(WIN_IN_ONE, tokens=("RG", ""))
    scan = evaluation.Scan(game)
    assert scan.needs(0) == {"B": 1}  # one step from a third pin on b2; R and G are held
    # player 1 holds no token but two pins on a red (b3), a green (a2) and two blue discs (a3,
    # c1), each with a pin of his one move from it (distances ignore who stands in the way)
    assert scan.needs(1) == {"R": 1, "G": 1, "B": 1}
    f = _f(game)
    assert f["race"] == (3 - 1) / 4 and f["near"] == 1 - 3


def test_a_lock_on_a_disc_the_opponent_would_turn() -> None:
    plain = drawn(TWO_LINE_THREAT, tokens=("", "RG"))
    locked = drawn(TWO_LINE_THREAT, tokens=("", "RG"), locks=("b2.ne", None))
    assert _f(plain)["lock_cut"] == 0 and _f(locked)["lock_cut"] == 1  # player 1 on b2.nw


def test_features_are_opposite_for_the_two_players() -> None:
    for diagram, tokens in ((WIN_IN_ONE, ("RG", "")), (TWO_LINE_THREAT, ("", "RG")),
                            (TEMPTING_BLUE, ("R", "RG"))):
        game = drawn(diagram, tokens=tokens)
        assert evaluation.features(game, 1) == [-x for x in evaluation.features(game, 0)]
        v = evaluation.values(game)
        assert v[0] == -v[1] and -1.0 < v[0] < 1.0


def test_a_threat_the_player_can_still_bar_is_not_yet_a_win() -> None:
    one_line = drawn(WIN_IN_ONE, to_move=1, tokens=("RG", ""))
    one_line.apply("a2.c-a2.nw")  # player 1's main action; his barrier action is still to come
    assert _f(one_line)["win"] == 1 and _f(one_line)["win_next"] == 0
    two_lines = drawn(TWO_LINE_THREAT, tokens=("", "RG"))
    two_lines.apply("a3.c-a3.se")  # player 0 can bar only one of b1.ne and c2.sw
    assert _f(two_lines, 1)["win_next"] == 1


def test_features_of_the_set_up_are_zero() -> None:
    game = Discs.new()
    for move in (None, "arrange RGBGBRBRG"):  # before and after the discs are arranged
        if move is not None:
            game.apply(move)
        assert evaluation.features(game, 0) == [0.0] * len(evaluation.FEATURES)
        assert not evaluation.in_danger(game) and evaluation.winning_moves(game) == []
