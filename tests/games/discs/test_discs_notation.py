"""Discs notation (PROTOCOL.md), the text drawing and ``explain``."""

from __future__ import annotations

import pytest

from rulebox.core.errors import InvalidMoveError
from rulebox.core.registry import game_entry
from rulebox.games.discs.moves import ARRANGEMENTS, DiscsMove, parse_discs_move
from tests.games.discs.discs_helpers import drawn, start


@pytest.mark.parametrize(("text", "canonical"), [
    ("arrange rgb gbr brg", "arrange RGBGBRBRG"),
    ("ARRANGE RGBGBRBRG", "arrange RGBGBRBRG"),
    ("choose Silver a1c3", "choose silver a1c3"),
    ("choose black c1a3", "choose black a3c1"),
    ("B2.NE - C3.SW", "b2.ne-c3.sw"),
    ("c3.sw-b2.ne", "c3.sw-b2.ne"),  # a pin move goes from the first hole to the second
    ("b2.c-b2.ne", "b2.c-b2.ne"),
    ("B2 +", "b2+"),
    ("a1-", "a1-"),
    (" pass ", "pass"),
    ("lock  B2.NE", "lock b2.ne"),
    ("unlock", "unlock"),
    ("bar c3.sw-b2.ne", "bar b2.ne-c3.sw"),  # a line is written in string order
    ("unbar", "unbar"),
    ("END", "end"),
])
def test_parse_is_forgiving_and_prints_canonically(text: str, canonical: str) -> None:
    move = parse_discs_move(text)
    assert str(move) == canonical
    assert parse_discs_move(canonical) == move
    assert eval(repr(move), {"DiscsMove": DiscsMove}) == move


@pytest.mark.parametrize("text", [
    "", "arrange RGB", "arrange RGBGBRBRX", "choose gold a1c3", "choose silver a1b2",
    "choose silver", "d1.c-a1.c", "a1.up-a1.c", "a1.c", "a1.c-", "lock", "lock a9.c",
    "bar a1.c", "d2+", "b2*", "pass now", "end turn", "x" * 500,
])
def test_malformed_actions_are_refused(text: str) -> None:
    with pytest.raises(InvalidMoveError):
        parse_discs_move(text)


def test_every_legal_move_parses_back_to_itself() -> None:
    game = start()
    game.apply("a3.se-b2.nw")
    for move in game.legal_moves():
        assert parse_discs_move(str(move)) == move
    assert parse_discs_move(str(ARRANGEMENTS[77])) == ARRANGEMENTS[77]


def test_render_reads_without_colour() -> None:
    entry = game_entry("discs")
    game = drawn("""
    0.0 ... 1.1
    .0. ... .1.
    0.0 ... ..1

    ... 1.0 ...
    ... ... ...
    ... ... ...

    1.1 ... 0..
    .1. ... .0.
    1.1 ... 0.0
""", locks=["b2.ne", None], barriers=[None, "a1.ne-b1.nw"], tokens=["G", ""])
    text = entry.render(game, None).plain
    lines = text.splitlines()
    assert lines[0].split() == ["K", "b", "K", "───", "·", "r", "·", "───", "S", "g", "S"]
    assert lines[1].split() == ["3", "b", "K", "b", "r", "·", "r", "g", "S", "g"]
    assert "S  b [K]" in lines[4]  # player 1's b2.nw (silver), player 0 locks b2.ne (black)
    assert "###" in lines[8]  # player 1's barrier between a1.ne and b1.nw
    assert "first (black): tokens G (green)" in text
    assert "starting discs earning nothing: a3 c1" in text
    assert "barrier a1.ne-b1.nw" in text and "lock b2.ne" in text
    assert "first (black) to move: main action" in text
    game.apply("b2.ne-b2.c")
    text = entry.render(game, None).plain
    assert "blocking actions (lock/unlock, bar/unbar, end)" in text
    game.apply("bar a2.ne-b2.nw")
    assert "blocking actions (lock/unlock, end)" in entry.render(game, None).plain


def test_render_before_the_set_up() -> None:
    entry = game_entry("discs")
    game = entry.cls.new({"seed": "1"})
    text = entry.render(game, None).plain
    assert "first arranges the discs" in text and " ? " in text


def test_explain_lists_the_actions_of_a_disc_or_a_hole() -> None:
    entry = game_entry("discs")
    assert entry.explain is not None
    game = start()
    text = entry.explain(game, "c1.nw")
    assert "c1.nw-b1.ne: move the pin from c1.nw to b1.ne along the line" in text
    assert "c1.nw-b2.se" in text and "c1+" in text  # turning c1 moves the pin in c1.nw
    assert "c1+" not in entry.explain(game, "c1.c")  # but not the centre pin
    text = entry.explain(game, "a3")
    assert "a3+: turn a3 a quarter turn clockwise" in text
    assert "no legal action" in entry.explain(game, "b2.c")
    assert "explain a disc" in entry.explain(game, "zz")
