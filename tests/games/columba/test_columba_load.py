"""``load`` refuses Columba positions no play reaches (issue 19): a field whose colour
contradicts its card, every field labelled as one card, cards that are not in the game, a
covered or lost Pond, more cards left than the turn allows; through the JSON state and the
diagram alike. Every position random play reaches, in every variant, loads."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from rulebox.core.errors import StateError
from rulebox.core.load import diagram_line, load_any
from rulebox.games.columba.cards import OFFSETS
from rulebox.games.columba.rules import Columba
from rulebox.games.columba.state import unchecked_layout

VARIANTS: list[dict[str, str]] = [
    {}, {"players": "3"}, {"players": "4"}, {"variant": "kids"}, {"pond": "1"},
    {"officia": "1"}, {"players": "4", "pond": "1", "officia": "1"},
    {"variant": "kids", "players": "3", "pond": "1"},
    {"deck": "C05,C11,C20,C02,C17,C30,C01,C09,C14,C22"},
]


def _play(game: Columba, r: random.Random, plies: int | None = None,
          each: Callable[[Columba], None] | None = None) -> Columba:
    """Random play that covers fields whenever it can (4 times in 5), so that cards lie
    partly and wholly covered."""
    n = 0
    while plies is None or n < plies:
        if each is not None:
            each(game)
        moves = game.legal_moves()
        if not moves:
            break
        cover = [m for m in moves
                 if m.verb == "place" and any(m.sq + o in game._sq for o in OFFSETS)]
        game.apply(r.choice(cover) if cover and r.random() < 0.8 else r.choice(moves))
        n += 1
    return game


def _lines(game: Columba, edit: Callable[[dict[str, Any]], None]) -> tuple[str, str]:
    """``game``'s position edited by ``edit``, as a JSON state and as a diagram line (the
    diagram written from the same position loaded with the layout check off)."""
    state: dict[str, Any] = {"game": "columba", "options": game.options(),
                             "position": copy.deepcopy(game.position_json())}
    edit(state["position"])
    with unchecked_layout():
        bad = Columba.from_json(json.loads(json.dumps(state)))
    return json.dumps(state), diagram_line(bad)


def _refused(lines: tuple[str, str], match: str) -> None:
    for line in lines:
        with pytest.raises(StateError, match=match):
            load_any(line)


def _fields(pos: dict[str, Any]) -> dict[str, list[Any]]:
    return {k: v for k, v in pos["squares"].items() if v[0] == "field"}


def test_a_field_whose_colour_contradicts_its_card_is_refused() -> None:
    game = Columba.new({"seed": "3"})  # the start: C17 printed WK/WW on 0,0
    assert game.position_json()["squares"]["0,0"] == ["field", "W", "C17", -1]

    def recolour(pos: dict[str, Any]) -> None:
        pos["squares"]["0,0"][1] = "B"  # C17 shows no brown pigeon at all

    _refused(_lines(game, recolour), r"not card C17 \(printed WK/WW\).*CB-2")

    def swap(pos: dict[str, Any]) -> None:  # the right colours in the wrong places
        pos["squares"]["0,0"][1], pos["squares"]["1,0"][1] = "K", "W"
        pos["squares"]["0,1"][1], pos["squares"]["1,1"][1] = "W", "K"

    _refused(_lines(game, swap), r"not card C17.*CB-2")


def test_every_field_labelled_as_one_card_is_refused() -> None:
    game = _play(Columba.new({"seed": "4"}), random.Random(4), plies=30)
    assert len({v[2] for v in _fields(game.position_json()).values()}) > 3

    def relabel(pos: dict[str, Any]) -> None:
        for v in _fields(pos).values():
            v[2] = "C30"
            v[3] = -1
        pos["deck"] = [c for c in pos["deck"] if c != "C30"]
        if pos["hand"] == "C30":
            pos["hand"] = pos["deck"].pop()

    _refused(_lines(game, relabel), r"labelled C30 .*but a card has 4 fields \[CB-2\]")


def test_a_card_laid_over_a_square_that_was_empty_is_refused() -> None:
    # a card seen in one field, whose other three squares are empty: it lay on them once, and
    # nothing leaves the territory
    game = Columba.new({"seed": "3"})

    def lone(pos: dict[str, Any]) -> None:
        pos["squares"]["2,0"] = ["field", "B", "C01", 0]  # C01 is WB/KK
        pos["turn"] = 1
        if "C01" in pos["deck"]:
            pos["deck"].remove("C01")

    lines = _lines(game, lone)
    _refused(lines, r"C01.*CB-2")


def test_cards_not_in_the_game_are_refused() -> None:
    game = Columba.new({"seed": "3"})

    def third_seat(pos: dict[str, Any]) -> None:  # two players: S3 was never dealt
        for k in ("0,0", "1,0", "0,1", "1,1"):
            pos["squares"][k][2] = "S3"
        pos["squares"]["0,0"][1], pos["squares"]["1,0"][1] = "W", "G"
        pos["squares"]["0,1"][1], pos["squares"]["1,1"][1] = "B", "K"
        pos["deck"].append("C17")

    json_line, _diagram = _lines(game, third_seat)
    with pytest.raises(StateError, match=r"S3 is not in this game.*CB-1"):
        load_any(json_line)


def test_the_pond_can_neither_vanish_nor_be_covered() -> None:
    game = Columba.new({"seed": "5", "pond": "1"})
    assert "P" in game.position_json()["deck"] or game.position_json()["hand"] == "P"

    def lose(pos: dict[str, Any]) -> None:
        if pos["hand"] == "P":
            pos["hand"] = pos["deck"].pop()
        pos["deck"].remove("P")

    _refused(_lines(game, lose), r"the Pond is nowhere.*CB-14")


def test_more_cards_left_than_the_turn_allows_is_refused() -> None:
    game = Columba.new({"seed": "3"})

    def late(pos: dict[str, Any]) -> None:
        pos["turn"] = 5  # 28 cards left after 5 turns: at least 7 were drawn, so 23 at most

    _refused(_lines(game, late), r"28 cards are left to draw, but on turn 5.*CB-2")


def test_an_objective_in_the_childrens_game_is_refused() -> None:
    game = Columba.new({"seed": "3", "variant": "kids"})

    def goal(pos: dict[str, Any]) -> None:
        pos["players"][0]["objective"] = pos["deck"].pop()

    json_line, _diagram = _lines(game, goal)
    with pytest.raises(StateError, match="CB-13"):
        load_any(json_line)


def test_a_played_position_with_wholly_covered_cards_loads() -> None:
    # the children's game covers freely: some cards end up wholly hidden, and still the
    # position loads (a missing card is no error)
    found = False
    for seed in range(6):
        game = _play(Columba.new({"seed": str(seed), "variant": "kids"}), random.Random(seed))
        pos = game.position_json()
        seen = {v[2] for v in _fields(pos).values()} | set(pos["deck"])
        if len(seen) < 30:
            found = True
            assert load_any(diagram_line(game)).position_json() == pos
    assert found


def _loads(game: Columba) -> None:
    state = {"game": "columba", "options": game.options(), "position": game.position_json()}
    assert load_any(json.dumps(state)).position_json() == game.position_json()
    assert load_any(diagram_line(game)).position_json() == game.position_json()


@pytest.mark.parametrize("options", VARIANTS, ids=[str(v) for v in VARIANTS])
def test_every_position_random_play_reaches_loads(options: dict[str, str]) -> None:
    for seed in range(2):
        game = Columba.new({"seed": str(seed), **options})
        _play(game, random.Random(seed), each=_loads)
        assert game.is_terminal()
