"""Discs geometry: the board computed from the grid (RULINGS.md, section Discs)."""

from __future__ import annotations

from collections import Counter

import pytest

from rulebox.games.discs.geometry import (
    ANTICLOCKWISE_DIR,
    CLOCKWISE,
    CLOCKWISE_DIR,
    DISC_NAMES,
    HOLE_INDEX,
    HOLE_NAMES,
    INNER_NEIGHBOURS,
    LINE_NAMES,
    LINES,
    NUM_HOLES,
    OFFSET,
    TURN_MAPS,
    hole_xy,
    line_between,
)


def test_45_holes_in_string_order() -> None:
    assert len(HOLE_NAMES) == 45
    assert list(HOLE_NAMES) == sorted(HOLE_NAMES)
    assert HOLE_NAMES[:5] == ("a1.c", "a1.ne", "a1.nw", "a1.se", "a1.sw")


def test_32_lines_each_in_string_order() -> None:
    assert len(LINES) == 32 and len(set(LINES)) == 32
    for name in LINE_NAMES:
        a, b = name.split("-")
        assert a < b
    # 12 pairs of orthogonal neighbours with two lines each, 8 diagonal pairs with one each
    pairs = Counter(tuple(sorted({h.split(".")[0] for h in n.split("-")})) for n in LINE_NAMES)
    assert sorted(Counter(pairs.values()).items()) == [(1, 8), (2, 12)]


@pytest.mark.parametrize(("a", "b"), [("b2.ne", "c2.nw"), ("b2.se", "c2.sw"), ("b2.ne", "b3.se"),
                                      ("b2.nw", "b3.sw"), ("b2.ne", "c3.sw"), ("a1.ne", "b2.sw")])
def test_the_lines_named_in_the_rulings_exist(a: str, b: str) -> None:
    assert line_between(HOLE_INDEX[a], HOLE_INDEX[b]) >= 0
    assert line_between(HOLE_INDEX[b], HOLE_INDEX[a]) >= 0


@pytest.mark.parametrize(("a", "b"), [("b2.ne", "c2.sw"), ("b2.ne", "b2.nw"), ("b2.c", "c2.c"),
                                      ("a1.ne", "c3.sw"), ("a1.nw", "a2.se")])
def test_no_line_where_holes_do_not_face(a: str, b: str) -> None:
    assert line_between(HOLE_INDEX[a], HOLE_INDEX[b]) == -1


def test_lines_join_outer_holes_of_neighbouring_discs_only() -> None:
    for p, q in LINES:
        assert p % 5 and q % 5 and p // 5 != q // 5
        (xp, yp), (xq, yq) = hole_xy(p), hole_xy(q)
        assert max(abs(xp - xq), abs(yp - yq)) == 2


def test_inside_a_disc_the_centre_touches_all_and_the_rim_its_two_neighbours() -> None:
    names = lambda hs: sorted(HOLE_NAMES[h] for h in hs)  # noqa: E731
    assert names(INNER_NEIGHBOURS[HOLE_INDEX["b2.c"]]) == ["b2.ne", "b2.nw", "b2.se", "b2.sw"]
    assert names(INNER_NEIGHBOURS[HOLE_INDEX["b2.ne"]]) == ["b2.c", "b2.nw", "b2.se"]
    assert names(INNER_NEIGHBOURS[HOLE_INDEX["b2.sw"]]) == ["b2.c", "b2.nw", "b2.se"]


def test_clockwise_is_a_quarter_turn_of_the_offsets() -> None:
    # (x, y) -> (y, -x) turns a quarter clockwise with north up
    for hole, (x, y) in OFFSET.items():
        assert OFFSET[CLOCKWISE[hole]] == (y, -x)
    assert CLOCKWISE["ne"] == "se" and CLOCKWISE["se"] == "sw"
    assert CLOCKWISE["sw"] == "nw" and CLOCKWISE["nw"] == "ne" and CLOCKWISE["c"] == "c"


@pytest.mark.parametrize("direction", [CLOCKWISE_DIR, ANTICLOCKWISE_DIR])
@pytest.mark.parametrize("disc", range(len(DISC_NAMES)))
def test_four_quarter_turns_are_the_identity(disc: int, direction: int) -> None:
    where = TURN_MAPS[direction][disc]
    holes = list(range(NUM_HOLES))
    once = [where[h] for h in holes]
    assert once != holes  # a quarter turn moves the outer holes ...
    assert sorted(once) == holes  # ... onto holes ...
    assert all(once[h] == h for h in holes if h // 5 != disc or h % 5 == 0)  # ... of its disc
    for _ in range(4):
        holes = [where[h] for h in holes]
    assert holes == list(range(NUM_HOLES))


def test_clockwise_then_anticlockwise_is_the_identity() -> None:
    for disc in range(len(DISC_NAMES)):
        cw, acw = TURN_MAPS[CLOCKWISE_DIR][disc], TURN_MAPS[ANTICLOCKWISE_DIR][disc]
        assert [acw[cw[h]] for h in range(NUM_HOLES)] == list(range(NUM_HOLES))

