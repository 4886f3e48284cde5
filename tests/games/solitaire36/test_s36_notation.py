"""36 to 1 notation, terminal drawing and ``explain``."""

from __future__ import annotations

import pytest

from rulebox.core.errors import InvalidMoveError
from rulebox.core.registry import game_entry
from rulebox.games.solitaire36.moves import parse_s36_move
from rulebox.games.solitaire36.render import explain, render
from tests.games.solitaire36.s36_helpers import deal, drawn


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("Y4:c2", "Y4:c2"),
        ("y4:C2", "Y4:c2"),
        (" Y 4 : c 2 ", "Y4:c2"),
        ("Y4c2", "Y4:c2"),
        ("Y4-c2", "Y4:c2"),
        ("Y4:x", "Y4:x"),
        ("y4 X", "Y4:x"),
        ("Y5g:c2", "Y5g:c2"),
        ("y5G:C2", "Y5g:c2"),
        ("W1g:f6", "W1g:f6"),
    ],
)
def test_S36_1_notation_is_forgiving_and_canonical(text: str, canonical: str) -> None:
    move = parse_s36_move(text)
    assert str(move) == canonical
    assert eval(repr(move), {"parse_s36_move": parse_s36_move}) == move


@pytest.mark.parametrize(
    "text", ["", "Y4", "Y4:", "Y7:c2", "Q4:c2", "Y4:g1", "Y4:c7", "Y4:c2:d3", "Y2g:c2", "x"]
)
def test_malformed_moves(text: str) -> None:
    with pytest.raises(InvalidMoveError):
        parse_s36_move(text)


def test_registered_with_render_and_explain() -> None:
    entry = game_entry("36to1")
    assert entry.cls.id == "36to1" and entry.cls.player_counts == (1,)
    assert entry.cls.has_hidden_information
    assert entry.explain is explain
    assert "S36-6" in entry.rules_text() and "S36-10" in entry.rules_text()


def test_render_reads_without_colour() -> None:
    game = deal(["Y4", "R1", "W6"])
    game.apply("Y4:c2")
    text = render(game, 0)
    plain = text.plain
    for heading in ("1 drop", "2 hammers", "3 circles", "4 bricks", "5 wheel", "6 arrow"):
        assert heading in plain
    lines = plain.splitlines()
    rank2 = next(line for line in lines if line.startswith("  2 "))
    assert rank2.split()[1:7] == ["Y", "Y", "·", "Y", "Y", "Y"]
    assert "[W6]" in plain and "[R1]" in plain
    assert "draw pile: 33" in plain
    assert any(span.style for span in text.spans)  # and in colour
    assert "K2" not in plain  # the next card of the pile is not shown


def test_render_shows_the_result() -> None:
    game = drawn(". . . . . .\n" * 5 + "R Y . . . .", ["Y2", "K6"], [])
    game.apply("Y2:b1")
    assert "Game over: won: one cube left" in render(game, 0).plain


def test_explain_card_marks_the_cubes_it_can_take() -> None:
    game = drawn(
        """
        W . . . . .
        . . . . . .
        . . B . . .
        . . . B . .
        . . . B . .
        R R . . . .
        """,
        ["B4", "W5"], ["R1", "R2"],
    )
    text = explain(game, "b4")
    assert "d2 (blue), d3 (blue)" in text
    assert "c4" in text and "no neighbour" in text
    assert text.count(">B<") == 2
    assert "face up" in text
    assert "can remove no cube" in explain(game, "W5")


def test_explain_discards_lists_the_discard_pile_and_unseen_cards() -> None:
    game = deal(["Y4", "R1", "W6", "K2"])
    game.apply("Y4:c2")
    text = explain(game, "discards")
    assert "Discard pile (1, first discarded first): Y4" in text
    assert "Unseen (33" in text and "K2" in text
    assert "explain" in explain(game, "what?")


def test_render_says_when_no_cube_can_be_removed_again() -> None:
    game = drawn(". . . . . .\n" * 4 + "R . R . . .\n. R . . . .", ["R1", "R2"], ["R3"])
    assert "none can be removed again" in render(game, 0).plain
    assert game.legal_moves()  # discards go on (S36-5)
