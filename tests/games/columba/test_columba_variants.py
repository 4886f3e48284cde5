"""Columba variants: the children's game (CB-13) and the Pond (CB-14)."""

from __future__ import annotations

import pytest
from test_columba_rules import drawn, refused, top

from rulebox.core.errors import OptionError
from rulebox.games.columba.cards import POND_ID, key
from rulebox.games.columba.rules import Columba

KIDS = {"variant": "kids"}
POND = {"pond": "1"}


# --- CB-13 the children's game -----------------------------------------------------------------
def test_CB_13_kids_setup_has_no_objectives() -> None:
    g = Columba.new({"variant": "kids", "players": "3", "seed": "2"})
    assert [g.objective(p)[0] for p in range(3)] == [None, None, None]
    assert g.cotes_left(0) == (2, 1)
    assert g.cards_left() == 28


def test_CB_13_kids_card_covers_any_fields_outside_opponents_estates() -> None:
    g = drawn(["W W", "W W"], options=KIDS)
    g.apply("place 0,0 r0")  # covers four white pigeons: no objective needed, nothing captured
    assert top(g, 0, 0)[4] == "C01"
    assert g.reserve(0) == [0, 0, 0, 0] and g.supply() == [15, 15, 15, 15]
    assert g.phase == "actions"


def test_CB_13_kids_no_cover_in_an_opponents_estate_or_of_a_dovecote() -> None:
    g = drawn(["W W G", "K K G"], options=KIDS, cotes={"1,0": (1, "small"), "2,0": (0, "small")})
    err = refused(g, "place -1,-1 r0", "CB-13")
    assert "purple" in err.reason
    refused(g, "place 2,-1 r0", "CB-13")  # red's own dovecote
    g.apply("place 1,1 r0")  # 1,1 (K, no estate) and 2,1 (red's estate)


def test_CB_13_kids_only_dovecotes_after_the_card() -> None:
    g = drawn(["W W", "G G"], options=KIDS, phase="actions", hand=None)
    assert {m.verb for m in g.legal_moves()} == {"cote", "end"}
    refused(g, "buy", "CB-13")
    refused(g, "tile W 2,0", "CB-13")


def test_CB_13_kids_scoring_has_no_penalty() -> None:
    g = drawn(["W W W", "G G K"], options=KIDS, phase="actions", hand=None, deck=(),
              cotes={"0,0": (0, "large"), "0,1": (1, "small")})
    g.apply("end")
    out = g.outcome()
    assert out is not None and out.scores == (6, 2) and out.winners == (0,)


# --- CB-14 the Pond ------------------------------------------------------------------------------
def test_CB_14_pond_is_shuffled_into_the_deck() -> None:
    g = Columba.new({"pond": "1", "seed": "3"})
    cards = set(g.position_json()["deck"]) | {g.hand} | {
        top(g, x, y)[4] for x in (0, 1) for y in (0, 1)}
    assert POND_ID in cards and g.cards_left() == 29
    assert POND_ID not in Columba.new({"seed": "3"}).position_json()["deck"]


def test_CB_14_pond_is_laid_without_covering() -> None:
    g = drawn(["W G", "K K"], options=POND, hand=POND_ID)
    err = refused(g, "place -1,-1 r0", "CB-14")
    assert "Pond" in err.reason
    assert all(not any(m.sq + o in g.squares() for o in (0, 1024, 1, 1025))
               for m in g.legal_moves())
    g.apply("place 2,0 r0")
    assert top(g, 2, 0)[4] == POND_ID


def test_CB_14_nothing_covers_the_pond() -> None:
    g = drawn(["W Wp Gp", "K Bp Kp"], options=POND)
    refused(g, "place 1,-1 r0", "CB-14")
    h = drawn(["W Wp Gp", "K Bp Kp", "W W W"], options=POND, phase="actions", hand=None,
              reserve={0: "W"}, adults={0: 1}, cotes={"0,0": (1, "small"), "0,2": (0, "small")})
    refused(h, "tile W 1,0", "CB-14")
    refused(h, "falcon 1,0", "CB-14")


def test_CB_14_pond_fields_join_estates() -> None:
    g = drawn(["W Wp Gp", "K Bp Kp"], options=POND, phase="actions", hand=None)
    g.apply("cote small 0,0")
    assert g.estate_owner(key(1, 0)) == 0
    assert g.scores()[0] == 2 - 4


def test_CB_14_deck_option_lists_the_pond_only_with_pond_on() -> None:
    with pytest.raises(OptionError):
        Columba.new({"deck": "C01,P,C02"})
    g = Columba.new({"deck": "C01,P,C02", "pond": "1"})
    assert g.hand == POND_ID
