"""``load`` refuses 36 to 1 positions no play reaches (issue 19), through the JSON state and
the diagram alike, and loads every position that random play reaches."""

from __future__ import annotations

import json
import random

import pytest

from rulebox.core.errors import StateError
from rulebox.core.load import diagram_line, load_any
from rulebox.games.solitaire36.rules import Solitaire36
from tests.games.solitaire36.s36_helpers import STANDARD_DECK

STANDARD_ROWS = ["RRRRRR", "YYYYYY", "GGGGGG", "BBBBBB", "KKKKKK", "WWWWWW"]


def loaded(line: str) -> Solitaire36:
    """The 36 to 1 game a state or a diagram line holds."""
    game = load_any(line)
    assert isinstance(game, Solitaire36)
    return game


def _lines(rows: list[str], faceup: list[str], pile: list[str], discard: list[str],
           **options: str) -> tuple[str, str]:
    """The position as a JSON state and as a diagram line, both for ``load``."""
    opts = {"seed": "1", **options}
    state = {"game": "36to1", "options": opts,
             "position": {"grid": rows, "faceup": faceup, "pile": pile, "discard": discard}}
    cards = [",".join(c) or "-" for c in (faceup, pile, discard)]
    diagram = " ".join(["36to1", *(f"{k}={v}" for k, v in opts.items()),
                        "/".join(reversed(rows)), *cards])
    return json.dumps(state), diagram


def _refused(lines: tuple[str, str], match: str) -> None:
    for line in lines:
        with pytest.raises(StateError, match=match):
            load_any(line)


def test_all_36_cubes_standing_after_5_discards_is_refused() -> None:
    deck = Solitaire36.new({"seed": "1"}).position_json()
    order = deck["faceup"] + deck["pile"]
    lines = _lines(STANDARD_ROWS, order[5:7], order[7:], order[:5])
    _refused(lines, r"5 of the discarded cards .* must each have removed a cube.*S36-3")


def test_a_discard_that_could_still_remove_a_cube_needs_a_cube_gone() -> None:
    # Y2 could remove b2 (yellow, with neighbours) to the end: it removed a cube; the one gone
    # (a1, red, column a) is neither yellow nor in column b
    rows = [".RRRRR", *STANDARD_ROWS[1:]]
    rest = [c for c in STANDARD_DECK if c not in ("Y2", "B6", "K6")]
    _refused(_lines(rows, ["B6", "K6"], rest, ["Y2"]), r"Y2 .*S36-1")
    # R2 matches a1 by colour: loads (and through both forms)
    rest = [c for c in STANDARD_DECK if c not in ("R2", "B6", "K6")]
    for line in _lines(rows, ["B6", "K6"], rest, ["R2"]):
        assert loaded(line).cubes_left() == 35


def test_more_cubes_gone_than_matching_cards_is_refused() -> None:
    # two cubes gone from column a, rank 1 (a1 red) and rank 6 (a6 white); the two cards used
    # are both R2 and R3: red matches a1 only, so a6 has no card that could remove it
    rows = [".RRRRR", *STANDARD_ROWS[1:5], ".WWWWW"]
    rest = [c for c in STANDARD_DECK if c not in ("R2", "R3", "B6", "K6")]
    _refused(_lines(rows, ["B6", "K6"], rest, ["R2", "R3"]), r"S36-1")
    rest = [c for c in STANDARD_DECK if c not in ("R2", "W3", "B6", "K6")]
    for line in _lines(rows, ["B6", "K6"], rest, ["R2", "W3"]):
        assert loaded(line).cubes_left() == 34


def test_random_grid_counts_the_colours_gone() -> None:
    # grid=random: a1's colour is unknown, but the cubes standing say one red cube is gone; a
    # yellow card that is not in column a cannot have removed it
    rows = [".RRRRR", *STANDARD_ROWS[1:]]
    rest = [c for c in STANDARD_DECK if c not in ("Y2", "B6", "K6")]
    _refused(_lines(rows, ["B6", "K6"], rest, ["Y2"], grid="random"), r"S36-1")
    rest = [c for c in STANDARD_DECK if c not in ("Y1", "B6", "K6")]
    for line in _lines(rows, ["B6", "K6"], rest, ["Y1"], grid="random"):
        assert loaded(line).cubes_left() == 35  # Y1: column a


def test_end_literal_always_shows_two_cards() -> None:
    game = Solitaire36.new({"seed": "1"})
    pos = game.position_json()
    order = pos["faceup"] + pos["pile"]
    # 35 cards played, one face up, the pile empty: end=literal stops when the pile runs out
    rows = ["......", "......", "......", "......", "......", ".....W"]
    _refused(_lines(rows, order[35:], [], order[:35], end="literal"), r"S36-6")


def test_a_won_position_loads() -> None:
    # one cube left (f6) after 35 cards, each of which removed one: reachable, and loads
    rows = ["......", "......", "......", "......", "......", ".....W"]
    order = Solitaire36.new({"seed": "1"}).position_json()
    cards = order["faceup"] + order["pile"]
    for line in _lines(rows, cards[35:], [], cards[:35]):
        game = loaded(line)
        assert game.cubes_left() == 1 and game.outcome() is not None


def _play(seed: int, options: dict[str, str], r: random.Random) -> int:
    game = Solitaire36.new({"seed": str(seed), **options})
    seen = 0
    while True:
        state = {"game": "36to1", "options": game.options(), "position": game.position_json()}
        assert load_any(json.dumps(state)).position_json() == game.position_json()
        assert load_any(diagram_line(game)).position_json() == game.position_json()
        seen += 1
        moves = game.legal_moves()
        if not moves:
            return seen
        game.apply(r.choice(moves))


@pytest.mark.parametrize("options", [
    {}, {"grid": "random"}, {"green": "2"}, {"end": "literal"},
    {"green": "3", "grid": "random", "end": "literal"},
])
def test_every_position_random_play_reaches_loads(options: dict[str, str]) -> None:
    r = random.Random(19)
    assert sum(_play(seed, options, r) for seed in range(25)) > 25 * 30
