"""Integer actions: the bijection with the notation, legal-action masks, Columba's window."""

from __future__ import annotations

import random

import pytest

from rulebox.core import new_game
from rulebox.env.actions import (
    ARCHITECT_REACH,
    COLUMBA_WINDOW,
    Window,
    action_space,
    check_options,
    space_key,
    supported_games,
)

np = pytest.importorskip("numpy", reason="rulebox.env needs numpy (the rl extra)")

GAMES = ("columns", "36to1", "countred", "discs", "columba")

SIZES = {"columns": 109, "36to1": 54 * 37, "countred": 16 * 15 + 1,
         "discs": 1680 + 4 + 208 + 18 + 1 + 36 + 1 + 32 + 1 + 1}
"""The documented sizes (docs/RESEARCH.md); Columba's depends on the window and the notation."""


def test_the_five_games_have_action_spaces() -> None:
    assert sorted(supported_games()) == sorted(GAMES)


@pytest.mark.parametrize("game_id", GAMES)
def test_ids_and_texts_are_a_bijection(game_id: str) -> None:
    space = action_space(game_id)
    assert len(set(space.texts)) == space.n
    for a in range(space.n):
        assert space.action(space.text(a)) == a
    with pytest.raises(ValueError):
        space.text(space.n)
    with pytest.raises(ValueError):
        space.action("no such move")


@pytest.mark.parametrize("game_id", sorted(SIZES))
def test_sizes_are_the_documented_ones(game_id: str) -> None:
    assert action_space(game_id).n == SIZES[game_id]


def test_discs_steps_are_every_step_between_neighbouring_holes() -> None:
    from rulebox.games.discs.moves import STEP_MOVES

    space = action_space("discs")
    steps = [t for t in space.texts if "." in t and "-" in t and " " not in t]
    assert len(steps) == len(STEP_MOVES) == 208
    assert "a1.c-a1.ne" in steps and "a1.ne-a1.c" in steps


@pytest.mark.parametrize("game_id", GAMES)
def test_legal_moves_and_masks_agree_in_random_games(game_id: str) -> None:
    """Every legal move has an id whose text is its notation; the mask marks exactly them."""
    space = action_space(game_id)
    for seed in range(3):
        game = new_game(game_id, {"seed": str(seed)})
        chooser = random.Random(seed)
        plies = 0
        while not game.is_terminal() and plies < 400:
            moves = game.legal_moves()
            legal = space.legal(game)
            assert legal.outside == 0
            assert sorted(str(m) for m in moves) == sorted(space.text(a) for a in legal.ids)
            assert all(str(legal.moves[a]) == space.text(a) for a in legal.ids)
            mask = space.mask(legal)
            assert mask.dtype == np.int8 and int(mask.sum()) == len(moves)
            assert set(np.flatnonzero(mask)) == set(legal.ids)
            game.apply_unchecked(legal.moves[chooser.choice(legal.ids)])
            plies += 1


def test_columba_texts_are_what_the_notation_reads_back() -> None:
    """The space is derived from the notation: every text parses to a move printing as it."""
    from rulebox.games.columba.moves import parse_columba_move

    space = action_space("columba")
    for text in space.texts:
        assert str(parse_columba_move(text)) == text
    assert "end" in space.texts and "goal" in space.texts
    assert "place -28,-28 r0" in space.texts and "place 26,26 r270" in space.texts
    assert "place 27,0 r0" not in space.texts  # its right half would leave the window
    assert "falcon 27,27" in space.texts and "falcon 28,0" not in space.texts


OFFICIA_EXTRA = 4 + 16 + 4 * 3136 + 3136 + 3136 + 231_120
"""The Officia verbs' ids after Columba's own (docs/RESEARCH.md): farmerswife C, thief P C,
marshal C x,y, peasant x,y, architect x,y large, architect x,y x2,y2 within the reach."""


def test_columba_officia_has_ids_for_its_verbs() -> None:
    """Officia (CB-15) is no longer refused: Columba's ids come first, unchanged, then the
    Officia verbs'; an architect's move reaches ARCHITECT_REACH squares along x and y."""
    from rulebox.games.columba.moves import parse_columba_move

    game = new_game("columba", {"seed": "1", "officia": "1"})
    check_options(game)  # no UnsupportedOptionsError
    assert space_key(game) == "columba+officia" and space_key(new_game("columba")) == "columba"
    plain, officia = action_space("columba"), action_space("columba+officia")
    assert officia.texts[:plain.n] == plain.texts
    assert officia.n == plain.n + OFFICIA_EXTRA
    assert len(set(officia.texts)) == officia.n
    for a in range(0, officia.n, 7):
        assert officia.action(officia.text(a)) == a
    for text in officia.texts[plain.n:plain.n + 4 + 16 + 2 * 3136 + 50]:
        assert str(parse_columba_move(text)) == text
    for text in officia.texts[plain.n::97]:
        assert str(parse_columba_move(text)) == text
    for text in ("farmerswife K", "thief 3 W", "marshal B 27,-28", "peasant 0,0",
                 "architect -28,-28 large", f"architect 0,0 {ARCHITECT_REACH},-{ARCHITECT_REACH}",
                 "architect 27,27 23,23"):
        assert text in officia.index, text
    for text in (f"architect 0,0 {ARCHITECT_REACH + 1},0", "architect 27,27 28,27",
                 "architect 0,0 0,0", "thief 4 W"):
        assert text not in officia.index, text


@pytest.mark.parametrize("players", [2, 3, 4])
def test_columba_officia_legal_moves_and_masks_in_random_games(players: int) -> None:
    """Every legal move of random Officia games has an id, except architect moves further than
    ARCHITECT_REACH, which are counted as outside; the mask marks exactly the others."""
    from rulebox.games.columba.cards import xy
    from rulebox.games.columba.officia import ROLES

    space = action_space("columba+officia")
    verbs_seen: set[str] = set()
    for seed in range(2):
        roles = ROLES[seed * 2:] + ROLES[:seed * 2]
        game = new_game("columba", {"seed": str(seed), "officia": "1", "players": str(players),
                                    "roles": ",".join(roles[:players])})
        chooser = random.Random(seed)
        while not game.is_terminal():
            moves = game.legal_moves()
            legal = space.legal(game)
            far = []
            for m in moves:
                if str(m) not in space.index:
                    (x, y), (x2, y2) = xy(m.sq), xy(m.sq2)
                    assert m.verb == "architect" and m.arg == 1, str(m)
                    assert max(abs(x2 - x), abs(y2 - y)) > ARCHITECT_REACH
                    far.append(m)
            assert legal.outside == len(far)
            assert sorted(str(m) for m in moves if m not in far) == sorted(
                space.text(a) for a in legal.ids)
            assert int(space.mask(legal).sum()) == len(moves) - len(far)
            move = legal.moves[chooser.choice(legal.ids)]
            verbs_seen.add(move.verb)
            game.apply_unchecked(move)
    assert verbs_seen & {"architect", "farmerswife", "marshal", "peasant", "thief"}


def test_window_holds() -> None:
    w = Window(-2, -3, 5)
    assert w.holds(-2, -3) and w.holds(2, 1) and not w.holds(3, 0) and not w.holds(0, 2)
    assert w.holds(1, 0, 2, 1) and not w.holds(2, 0, 3, 1)
    assert len(list(w.squares())) == 25


LONGEST_RANDOM_GAMES = (2461, 2833, 4440)
"""The longest of the seeded random Columba games that ``bench/bench_env.py window`` played
(86, 84 and 84 plies; docs/RESEARCH.md has the figures)."""

FURTHEST_RANDOM_GAMES = (4705, 5143, 4105, 8789)
"""The games whose legal moves reached furthest west, north and south in the second run (x -23,
y -22, y 23) and east in the third (x 22)."""


@pytest.mark.parametrize("seed", LONGEST_RANDOM_GAMES + FURTHEST_RANDOM_GAMES)
def test_columba_window_holds_every_legal_move_of_random_games(seed: int) -> None:
    from rulebox.games.columba.cards import xy

    game = new_game("columba", {"seed": str(seed)})
    chooser = random.Random(seed)  # the same games as bench/bench_env.py window
    while not game.is_terminal():
        moves = game.legal_moves()
        for m in moves:
            if m.verb in ("place", "cote", "tile", "falcon"):
                x, y = xy(m.sq)
                far = (x + 1, y + 1) if m.verb == "place" else (x, y)
                assert COLUMBA_WINDOW.holds(x, y, *far), str(m)
        game.apply_unchecked(chooser.choice(moves))
