"""Columba variants: the children's game (CB-13) and the Pond (CB-14)."""

from __future__ import annotations

import pytest

from rulebox.core.errors import OptionError
from rulebox.games.columba.cards import POND_ID, key
from rulebox.games.columba.rules import ROLES, Columba
from tests.games.columba.test_columba_rules import drawn, item, refused

KIDS = {"variant": "kids"}
POND = {"pond": "1"}


# --- CB-13 the children's game -------------------------------------------------------------------
def test_CB_13_kids_setup_has_no_objectives() -> None:
    g = Columba.new({"variant": "kids", "players": "3", "seed": "2"})
    assert [g.objective(p)[0] for p in range(3)] == [None, None, None]
    assert g.cotes_left(0) == (2, 1)
    assert g.cards_left() == 28


def test_CB_13_kids_card_covers_any_fields_outside_opponents_estates() -> None:
    g = drawn(["W W", "W W"], options=KIDS)
    g.apply("place 0,0 r0")  # covers four white pigeons: no objective needed, nothing captured
    assert item(g, 0, 0)[4] == "C01"
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
        item(g, x, y)[4] for x in (0, 1) for y in (0, 1)}
    assert POND_ID in cards and g.cards_left() == 29
    assert POND_ID not in Columba.new({"seed": "3"}).position_json()["deck"]


def test_CB_14_pond_is_laid_by_the_standard_card_rules() -> None:
    # it may capture (CB-3) or touch the territory (CB-2), like any card
    g = drawn(["W G", "K K"], options=POND, hand=POND_ID)
    refused(g, "place 0,1 r0", "CB-3")  # two black pigeons, one black slot
    assert any(any(m.sq + o in g.squares() for o in (0, 1024, 1, 1025))
               for m in g.legal_moves())
    g.apply("place 2,0 r0")
    assert item(g, 2, 0)[4] == POND_ID


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


# --- CB-15 Officia -------------------------------------------------------------------------------
def test_CB_15_roles_are_dealt_once_each_or_fixed_by_the_option() -> None:
    g = Columba.new({"officia": "1", "players": "4", "seed": "8"})
    roles = [g.role(p) for p in range(4)]
    assert len(set(roles)) == 4 and all(r in ROLES for r in roles)
    assert roles == [Columba.new({"officia": "1", "players": "4", "seed": "8"}).role(p)
                     for p in range(4)]
    h = Columba.new({"officia": "1", "roles": "thief,Falconer", "seed": "1"})
    assert [h.role(0), h.role(1)] == ["thief", "falconer"]
    assert h.view(1)["position"]["roles"] == ["thief", "falconer"]
    assert Columba.new({"seed": "1"}).role(0) is None


@pytest.mark.parametrize("options", [
    {"roles": "thief,marshal"},  # roles without officia
    {"officia": "1", "roles": "thief"},  # one role for two players
    {"officia": "1", "roles": "thief,thief"},
    {"officia": "1", "roles": "thief,baker"},
    {"officia": "1", "variant": "kids"},
])
def test_CB_15_bad_role_options(options: dict[str, str]) -> None:
    with pytest.raises(OptionError):
        Columba.new(options)


def test_CB_15_a_power_belongs_to_its_role_and_is_used_once_a_turn() -> None:
    g = drawn(["W W K", "G G G"], phase="actions", hand=None, roles=["peasant", "thief"],
              reserve={0: "WW"}, cotes={"0,0": (0, "small")})
    err = refused(g, "thief 1 W", "CB-15")
    assert "peasant" in err.reason
    g.apply("peasant 0,0")
    err = refused(g, "peasant 0,0", "CB-15")
    assert "once per turn" in err.reason


def test_CB_15_architect_moves_a_dovecote() -> None:
    g = drawn(["W W K", "G G G"], phase="actions", hand=None, roles=["architect", "thief"],
              cotes={"0,0": (0, "small"), "2,0": (1, "small")})
    refused(g, "architect 0,0 2,0", "CB-6")  # a dovecote stands there
    refused(g, "architect 2,0 0,1", "CB-15")  # not the architect's own
    g.apply("architect 0,0 1,1")
    assert g.estate_owner(key(0, 0)) == -1 and g.estate_owner(key(2, 1)) == 0
    assert g.scores()[0] == 3 - 4  # the grey estate of 3


def test_CB_15_architect_swaps_small_for_large() -> None:
    g = drawn(["W W", "G G"], phase="actions", hand=None, roles=["architect", "thief"],
              cotes={"0,0": (0, "small")})
    g.apply("architect 0,0 large")
    assert g.cotes()[key(0, 0)] == (0, True) and g.cotes_left(0) == (3, 0)
    assert g.scores()[0] == 4 - 4


def test_CB_15_farmerswife_moves_a_reserve_tile_onto_the_objective() -> None:
    g = drawn(["W W", "G G"], phase="actions", hand=None, roles=["farmerswife", "thief"],
              reserve={0: "WK"}, slots={0: [False, True, True, True]})  # S1: W free
    refused(g, "farmerswife K", "CB-15")  # the K slot is filled
    g.apply("farmerswife W")
    assert g.phase == "goal" and g.reserve(0) == [1, 1, 1, 2]  # the objective's 4 + K
    g.apply("nogoal")
    g.apply("place 2,0 r0")  # the old objective S1 is laid
    assert g.phase == "actions"


def test_CB_15_marshal_covers_one_pigeon_without_capturing_it() -> None:
    g = drawn(["W G", "K K"], roles=["marshal", "thief"], reserve={0: "K"})
    black = g.supply()[3]
    refused(g, "place 0,1 r0", "CB-3")  # two black pigeons, one black slot
    refused(g, "marshal K 5,5", "CB-15")
    g.apply("marshal K 0,1")
    refused(g, "place 3,0 r0", "CB-15")  # the card must cover 0,1
    g.apply("place 0,1 r0")
    assert g.objective(0)[1] == [False, False, True, False]  # only 1,1 was captured
    assert g.reserve(0) == [0, 0, 0, 0] and g.supply()[3] == black  # paid 1 K, captured 1 K


def test_CB_15_peasant_slides_tiles_under_a_dovecote_for_two_points() -> None:
    g = drawn(["W W", "G G"], phase="actions", hand=None, roles=["peasant", "thief"],
              reserve={0: "GW"}, cotes={"0,0": (0, "small")})
    before = g.scores()[0]
    g.apply("peasant 0,0")
    assert g.under() == {key(0, 0): [0]} and g.reserve(0) == [0, 1, 0, 0]
    assert " 0,0=S0+w " in g.diagram()  # the diagram's mark: a white tile under the dovecote
    assert g.scores()[0] == before + 2
    again = Columba.from_json(g.to_json())  # replayed from the drawn start
    assert again.scores() == g.scores() and again.under() == g.under()
    again.undo()
    assert again.under() == {}


def test_CB_15_peasant_needs_the_estates_colour() -> None:
    g = drawn(["W W", "G G"], phase="actions", hand=None, roles=["peasant", "thief"],
              reserve={0: "G"}, cotes={"0,0": (0, "small")})
    err = refused(g, "peasant 0,0", "CB-15")
    assert "white" in err.reason


def test_CB_15_thief_steals_onto_the_own_objective() -> None:
    g = drawn(["W W", "G G"], players=3, phase="actions", hand=None,
              roles=["thief", "marshal", "peasant"], reserve={1: "B", 2: "K"})
    refused(g, "thief 0 B", "CB-15")
    refused(g, "thief 1 K", "CB-15")  # purple has no black tile
    g.apply("thief 1 B")
    assert g.reserve(1) == [0, 0, 0, 0] and g.objective(0)[1] == [False, False, False, True]


def test_CB_15_falconer_pays_one_and_may_take_two() -> None:
    g = drawn(["W W", "G G"], phase="actions", hand=None, roles=["falconer", "thief"],
              reserve={0: "WWKK"}, chicks={0: [2]})
    g.apply("raise W")
    assert sum(g.reserve(0)) == 3 and g.falcons_of(0) == (0, 1)
    g.apply("buy WK")  # the second falcon: 1 + 1 tiles, an adult at once
    assert g.reserve(0) == [0, 0, 0, 1] and g.falcons_of(0) == (0, 2)
    err = refused(g, "buy K", "CB-15")
    assert "two" in err.reason
    supply = g.falcon_supply()
    g.apply("end")  # the second falcon was not placed: it is lost
    assert g.falcons_of(0) == (0, 1) and g.falcon_supply() == supply + 1


def test_CB_15_falconer_keeps_a_second_falcon_placed_at_once() -> None:
    g = drawn(["W W", "G G"], phase="actions", hand=None, roles=["falconer", "thief"],
              reserve={0: "WK"}, chicks={0: [2, 3]}, cotes={"0,0": (1, "small")})
    g.apply("raise W")
    g.apply("raise K")
    g.apply("falcon 1,0")
    g.apply("end")
    assert g.falcons_of(0) == (0, 1)


def test_CB_15_CB_7_a_card_after_tiles_may_not_cut_them_off() -> None:
    # tiles, then the farmer's wife completes the objective: the old objective card laid now
    # may not leave this turn's tile outside the estate
    g = drawn(["W W W w0*", "G G G G"], phase="actions", hand=None,
              roles=["farmerswife", "thief"], reserve={0: "W"},
              slots={0: [False, True, True, True]}, cotes={"0,0": (0, "small")},
              this_turn={"cote": True, "falcon": 0, "tiles": ["3,0"]}, deck=("C09", "C06"))
    g.apply("farmerswife W")
    g.apply("goal")  # C09 = GW/WG; S1 is in hand
    err = refused(g, "place 1,-1 r0", "CB-7")  # would capture 1,0 and 2,0
    assert "cut" in err.reason
    refused(g, "place 2,-1 r0", "CB-3")  # the tile laid this turn may not be captured
    assert all(m.verb == "place" for m in g.legal_moves())
    g.apply("place 4,-1 r0")
    g.apply("end")


def test_CB_15_CB_8_even_the_falconer_raises_a_chick_only_a_turn_later() -> None:
    g = drawn(["W W", "G G"], phase="actions", hand=None, roles=["falconer", "thief"],
              reserve={0: "WWK"})
    g.apply("buy W")
    err = refused(g, "raise W", "CB-8")
    assert "later turn" in err.reason
    assert not any(m.verb == "raise" for m in g.legal_moves())
