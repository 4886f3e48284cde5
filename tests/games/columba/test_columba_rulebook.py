"""Columba exactly by the rulebook (issue 14): the seven faults found by checking the engine
against the Russian text, scenario by scenario, and their siblings.

Positions are drawn as rows from y=0 down (see ``test_columba_rules``): ``.`` empty, upper case a
wild pigeon, ``w1`` a domesticated tile laid by player 1 on an earlier turn, ``w1!`` one that a
falcon has cut off from every estate (wild again, CB-3 c), ``F0`` a falcon.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from rulebox.core.errors import AmbiguousMoveError, IllegalMoveError, StateError
from rulebox.core.registry import game_entry
from rulebox.games.columba.cards import CARDS, ROTATIONS, key
from rulebox.games.columba.rules import Columba
from tests.games.columba.test_columba_rules import drawn, refused

POND = {"pond": "1"}


def pos(rows: list[str], **kw: Any) -> Columba:
    """``drawn`` with a deck that holds none of the cards the tests put in hand."""
    kw.setdefault("deck", ("C10", "C11", "C12"))
    return drawn(rows, **kw)


def legal(g: Columba) -> set[str]:
    return {str(m) for m in g.legal_moves()}


# --- CB-9 decided on the regions after the placement ---------------------------------------------
JOIN_ROWS = ["K W W W",
             "W . . W",
             "K . . W",
             "B B W K"]


def test_cb9_card_may_not_join_two_estates_through_outside_region() -> None:
    # red's estate is 0,1 alone, purple's 2,3 alone; the white region 1,0..3,2 belongs to none.
    # C04 = WG/GW on 1,1: its white 1,1 touches red's 0,1 and the outside region, its white 2,2
    # touches the same outside region and purple's 2,3: all one region after the card.
    g = pos(JOIN_ROWS, hand="C04", cotes={"0,1": (0, "small"), "2,3": (1, "small")})
    assert "place 1,1 r0" not in legal(g)
    err = refused(g, "place 1,1 r0", "CB-9")
    assert "join" in err.reason
    g.apply("place 1,1 r90")  # GW/WG: no white field touches red's estate
    assert g.estate_owner(key(1, 1)) == -1


def test_cb9_card_joining_nothing_after_it_is_legal_though_it_touched_two_estates() -> None:
    # red's white estate 0,0..2,2 (through 1,1), purple's white 3,1 alone. C02 = WW/BG turned
    # r90 reads BW/GW: it covers (captures) red's white 1,1, so 1,2 and 2,2 leave red's estate;
    # its whites 2,0 and 2,1 then join purple's 3,1 with 2,2 and 1,2. No region has two
    # dovecotes after the card.
    g = pos(["W . . K",
               "W W . W",
               "K W W K",
               "K K K K"], hand="C02", cotes={"0,0": (0, "small"), "3,1": (1, "small")})
    assert "place 1,0 r90" in legal(g)
    g.apply("place 1,0 r90")
    assert g.estate_owner(key(2, 2)) == 1 and g.estate_owner(key(1, 2)) == 1
    assert g.estate_owner(key(0, 1)) == 0
    assert g.objective(0)[1][0] is True  # the white pigeon on 1,1 was captured
    # the saved state of the game loads again (the loader checks CB-9 too)
    again = Columba.from_json(json.loads(json.dumps(g.to_json())))
    assert again.position_json() == g.position_json()


def test_cb9_kids_card_may_not_join_two_estates_through_outside_region() -> None:
    g = pos(JOIN_ROWS, hand="C04", options={"variant": "kids"},
              cotes={"0,1": (0, "small"), "2,3": (1, "small")})
    assert "place 1,1 r0" not in legal(g)
    refused(g, "place 1,1 r0", "CB-9")


def test_cb9_teams_card_may_not_join_partners_estates_either() -> None:
    # players 0 and 2 are partners: their estates still stay apart (CB-9 knows no teams)
    g = pos(JOIN_ROWS, players=4, hand="C04", cotes={"0,1": (0, "small"), "2,3": (2, "small")})
    refused(g, "place 1,1 r0", "CB-9")


def test_cb9_generator_matches_a_full_recount_of_the_regions() -> None:
    # every placement the generator lists leaves at most one dovecote per region, and every
    # placement it leaves out for CB-9 would put two in one
    g = pos(JOIN_ROWS, hand="C04", cotes={"0,1": (0, "small"), "2,3": (1, "small")})
    listed = legal(g)
    for x in range(-2, 5):
        for y in range(-2, 5):
            for r in range(4):
                text = f"place {x},{y} r{90 * r}"
                h = g.clone()
                try:
                    h.apply(text)
                except IllegalMoveError:
                    assert text not in listed
                    continue
                label, _regs, _owner = h._regions()
                assert len({label[k] for k in h.cotes()}) == len(h.cotes()), text
                assert text in listed or str(h.history[-1]) in listed


# --- CB-3 c: only a falcon makes a cut-off tile wild ---------------------------------------------
def test_cb3_tile_cut_off_by_a_card_stays_domesticated() -> None:
    # purple's tile on 2,0 lost its estate to the card on 1,0, not to a falcon
    g = pos(["W K w1",
               "B B B"], cotes={"0,0": (1, "small")})
    assert g.estate_owner(key(2, 0)) == -1
    assert "place 2,-1 r0" not in legal(g)
    err = refused(g, "place 2,-1 r0", "CB-3")
    assert "falcon" in err.reason


def test_cb3_tile_cut_off_by_a_falcon_is_wild_and_may_be_captured() -> None:
    # red's falcon on 1,0 cuts purple's tile on 2,0 off; two turns later red captures it
    g = pos(["W W w1",
               "K K K"], phase="actions", hand=None, adults={0: 1},
              cotes={"0,0": (1, "small")}, deck=("C02", "C03", "C04"))
    g.apply("falcon 1,0")
    assert g.estate_owner(key(2, 0)) == -1
    assert g.position_json()["squares"]["2,0"] == ["tile", "W", 1, 2, "wild"]
    g.apply("end")
    g.apply("place 0,2 r0")  # purple lays C02 below
    g.apply("end")
    assert g.hand == "C03"
    g.apply("place 2,-1 r0")  # red covers the freed tile for the white slot of S1
    assert g.objective(0)[1][0] is True


def test_cb3_own_tile_cut_off_by_a_card_is_not_captured_either() -> None:
    g = pos(["W K w0",
               "B B B"], cotes={"0,0": (0, "small")})
    refused(g, "place 2,-1 r0", "CB-3")


def test_cb3_freed_tile_back_in_an_estate_is_domesticated_again() -> None:
    # a freed tile that a dovecote takes into an estate is an estate's tile again; the freedom
    # is not kept for later
    g = pos(["W F0 w1!",
               "K K   K"], phase="actions", hand=None, cotes={"0,0": (1, "small")})
    assert g.position_json()["squares"]["2,0"][-1] == "wild"
    g.apply("cote small 2,0")
    assert g.estate_owner(key(2, 0)) == 0
    assert g.position_json()["squares"]["2,0"] == ["tile", "W", 1, 2]


def test_cb3_marshal_may_not_cover_a_tile_cut_off_by_a_card() -> None:
    g = pos(["W K w1",
               "B B B"], roles=["marshal", "thief"], reserve={0: "K"},
              cotes={"0,0": (1, "small")})
    refused(g, "marshal K 2,0", "CB-15")


def test_cb3_loader_refuses_a_wild_tile_inside_an_estate() -> None:
    with pytest.raises(StateError, match="CB-3"):
        pos(["W w1!", "B B"], cotes={"0,0": (1, "small")})


# --- CB-7: a tile may extend anyone's estate -----------------------------------------------------
def test_cb7_tile_may_extend_an_opponents_estate() -> None:
    g = pos(["W K",
               "B G"], phase="actions", hand=None, reserve={0: "W"},
              cotes={"0,0": (1, "small")})
    assert "tile W -1,0" in legal(g)
    before = g.scores()[1]
    g.apply("tile W -1,0")
    assert g.estate_owner(key(-1, 0)) == 1 and g.scores()[1] == before + 1
    g.apply("end")


def test_cb7_tile_may_extend_an_opponents_estate_with_four_players() -> None:
    # four players in two teams (0 and 2, 1 and 3): red's tile joins player 3's estate
    g = pos(["W K",
               "B G"], players=4, phase="actions", hand=None, reserve={0: "W"},
              cotes={"0,0": (3, "small")})
    assert "tile W -1,0" in legal(g)
    before = g.scores()
    g.apply("tile W -1,0")
    assert g.estate_owner(key(-1, 0)) == 3
    assert g.scores()[3] == before[3] + 1 and g.scores()[0] == before[0]
    g.apply("end")
    assert g.current_player() == 1


def test_cb7_tile_still_may_not_cover_an_opponents_pigeon() -> None:
    g = pos(["W W",
               "B G"], phase="actions", hand=None, reserve={0: "G"},
              cotes={"0,0": (1, "small")})
    refused(g, "tile G 1,0", "CB-7")


def test_cb7_tile_outside_every_estate_still_refused_at_end() -> None:
    g = pos(["W K",
               "B G"], phase="actions", hand=None, reserve={0: "G"},
              cotes={"0,0": (1, "small")}, this_turn={"cote": True, "falcon": 0, "tiles": []})
    refused(g, "tile G 2,0", "CB-7")  # in no estate, and no dovecote may follow this turn


def test_cb7_own_falcon_may_not_cut_off_the_tile_laid_this_turn() -> None:
    # red extends purple's estate with 1,-1, then his falcon on 1,0 would cut it off again
    g = pos(["W W K",
               "B G G"], phase="actions", hand=None, reserve={0: "W"}, adults={0: 1},
              cotes={"0,0": (1, "small")}, this_turn={"cote": True, "falcon": 0, "tiles": []})
    assert "falcon 1,0" in legal(g)
    g.apply("tile W 1,-1")
    assert "falcon 1,0" not in legal(g)
    refused(g, "falcon 1,0", "CB-7")
    g.apply("end")


# --- CB-8: the player names the colours paid -----------------------------------------------------
def test_cb8_buy_names_the_colours_paid() -> None:
    g = pos(["W W", "G G"], phase="actions", hand=None, reserve={0: "WWGK"})
    buys = sorted(m for m in legal(g) if m.startswith("buy"))
    assert buys == ["buy GK", "buy WG", "buy WK", "buy WW"]  # each distinct choice once
    with pytest.raises(AmbiguousMoveError) as err:
        g.apply("buy")
    assert all(b in str(err.value) for b in buys) and "CB-8" in str(err.value)
    assert g.reserve(0) == [2, 1, 0, 1]  # nothing paid
    g.apply("buy k w")  # forgiving about case, spaces and order
    assert g.history[-1] == g.parse_move("buy WK") and str(g.history[-1]) == "buy WK"
    assert g.reserve(0) == [1, 1, 0, 0] and g.falcons_of(0) == (1, 0)


def test_cb8_bare_word_is_accepted_when_every_way_to_pay_is_the_same() -> None:
    g = pos(["W W", "G G"], phase="actions", hand=None, reserve={0: "KKK"})
    assert [m for m in legal(g) if m.startswith("buy")] == ["buy KK"]
    g.apply("buy")
    assert str(g.history[-1]) == "buy KK" and g.reserve(0) == [0, 0, 0, 1]


def test_cb8_payment_must_be_in_the_reserve_and_of_the_right_size() -> None:
    g = pos(["W W", "G G"], phase="actions", hand=None, reserve={0: "WGK"}, chicks={0: [2]})
    refused(g, "raise WW", "CB-8")  # one white tile only
    refused(g, "raise W", "CB-8")  # a falcon costs two tiles
    refused(g, "buy BB", "CB-8")


def test_cb8_rulebook_end_example_red_keeps_his_white_tile() -> None:
    # the rulebook's end: red raises a chick with 2 of his 3 tiles (white, grey, brown) and lays
    # the last one. Paying grey and brown keeps the white tile that extends his white estate.
    g = pos(["W W K",
               "G G K"], phase="actions", hand=None, deck=(), reserve={0: "WGB"},
              chicks={0: [2]}, objectives={0: None, 1: None},
              cotes={"0,0": (0, "large"), "0,1": (1, "small")})
    with pytest.raises(AmbiguousMoveError):
        g.apply("raise")
    assert {"raise WG", "raise WB", "raise GB"} <= legal(g)
    g.apply("raise GB")
    g.apply("tile W -1,0")
    g.apply("end")
    out = g.outcome()
    assert out is not None and out.scores == (6, 2)


def test_cb8_falconer_pays_one_tile_and_names_it() -> None:
    g = pos(["W W", "G G"], phase="actions", hand=None, roles=["falconer", "thief"],
              reserve={0: "WK"})
    assert sorted(m for m in legal(g) if m.startswith("buy")) == ["buy K", "buy W"]
    refused(g, "buy WK", "CB-15")  # the falconer's first falcon costs one tile
    g.apply("buy K")
    assert g.reserve(0) == [1, 0, 0, 0]


# --- CB-14: the Pond may capture -----------------------------------------------------------------
def test_cb14_pond_may_capture_by_covering() -> None:
    g = pos(["W B",
               "K G"], options=POND, hand="P")
    assert "place -1,-1 r0" in legal(g)
    g.apply("place -1,-1 r0")  # covers the white pigeon on 0,0 for S1's white slot
    assert g.objective(0)[1] == [True, False, False, False]
    assert g.squares()[key(0, 0)][4] == "P"


def test_cb14_marshal_may_lay_the_pond_over_his_square() -> None:
    g = pos(["W B",
               "K G"], options=POND, hand="P", roles=["marshal", "thief"], reserve={0: "B"})
    g.apply("marshal B 1,0")
    g.apply("place 0,-1 r0")  # covers 1,0 uncaptured and 0,0 (white) captured
    assert g.objective(0)[1] == [True, False, False, False]


def test_cb14_nothing_covers_the_pond_once_laid() -> None:
    g = pos(["W Wp Gp", "K Bp Kp"], options=POND)
    refused(g, "place 1,-1 r0", "CB-14")


# --- CB-15: the falconer's second falcon ---------------------------------------------------------
def test_cb15_falconer_second_buy_is_an_adult_at_once() -> None:
    g = pos(["W W", "G G"], phase="actions", hand=None, roles=["falconer", "thief"],
              reserve={0: "WGK"}, cotes={"0,0": (1, "small")})
    g.apply("buy W")
    assert g.falcons_of(0) == (1, 0)
    assert "buy GK" in legal(g) and "buy G" not in legal(g)
    refused(g, "buy G", "CB-15")  # the second costs 1 + 1
    g.apply("buy GK")
    assert g.falcons_of(0) == (1, 1) and g.reserve(0) == [0, 0, 0, 0]
    assert "falcon 1,0" in legal(g)
    g.apply("falcon 1,0")
    g.apply("end")
    assert g.falcons_of(0) == (1, 0)  # the chick stays, the adult flew


def test_cb15_falconer_second_falcon_is_lost_unless_placed() -> None:
    g = pos(["W W", "G G"], phase="actions", hand=None, roles=["falconer", "thief"],
              reserve={0: "WGK"})
    supply = g.falcon_supply()
    g.apply("buy W")
    g.apply("buy GK")
    assert g.falcon_supply() == supply - 2
    g.apply("end")
    assert g.falcons_of(0) == (1, 0) and g.falcon_supply() == supply - 1


# --- canonical placements ------------------------------------------------------------------------
def test_cb2_symmetric_card_lists_each_placement_once() -> None:
    assert ROTATIONS["C23"][0] == ROTATIONS["C23"][2]  # BG/GB
    g = pos(["W W", "W W"], hand="C23", objectives={0: None})
    places = legal(g)
    assert "place 2,0 r0" in places and "place 2,0 r180" not in places
    assert "place 2,0 r90" in places and "place 2,0 r270" not in places
    assert len(places) == (25 - 4 - 9) * 2
    move = g.apply("place 2,0 r180")  # the other spelling is the same move
    assert str(move) == "place 2,0 r0" and str(g.history[-1]) == "place 2,0 r0"


def test_cb2_asymmetric_card_keeps_four_rotations() -> None:
    g = pos(["W W", "W W"], hand="C14", objectives={0: None})
    assert {f"place 2,0 r{r}" for r in (0, 90, 180, 270)} <= legal(g)


def test_cb2_every_listed_placement_is_a_distinct_layout() -> None:
    g = pos(JOIN_ROWS, hand="C04", cotes={"0,1": (0, "small"), "2,3": (1, "small")})
    layouts = set()
    for m in g.legal_moves():
        if m.verb == "place":
            layouts.add((m.sq, ROTATIONS["C04"][m.arg]))
    assert len(layouts) == sum(1 for m in g.legal_moves() if m.verb == "place")
    assert len({f for f in (CARDS["C04"].rotated(r) for r in range(4))}) == 2


# --- reshuffle_unseen ----------------------------------------------------------------------------
def _played(seed: int, plies: int) -> Columba:
    g = Columba.new({"seed": str(seed), "players": "3"})
    rng = random.Random(seed)
    for _ in range(plies):
        g.apply(rng.choice(sorted(g.legal_moves(), key=str)))
    return g


def test_reshuffle_unseen_changes_only_the_deck_order() -> None:
    g = _played(4, 40)
    before = {p: g.view(p) for p in (None, 0, 1, 2)}
    pos = g.position_json()
    legal_before = sorted(map(str, g.legal_moves()))
    orders = set()
    for s in range(6):
        h = g.clone()
        h.reshuffle_unseen(random.Random(s))
        assert {p: h.view(p) for p in (None, 0, 1, 2)} == before
        after = h.position_json()
        assert sorted(after.pop("deck")) == sorted(pos["deck"])
        assert after == {k: v for k, v in pos.items() if k != "deck"}
        assert sorted(map(str, h.legal_moves())) == legal_before
        assert h.history == g.history
        orders.add(tuple(h.position_json()["deck"]))
    assert len(orders) > 1


def test_reshuffle_unseen_keeps_the_state_loadable_and_undoable() -> None:
    g = _played(5, 30)
    while g.history[-1] != g.parse_move("end"):
        g.undo()
    g.undo()  # the card drawn by that end goes back into the pile...
    g.reshuffle_unseen(random.Random(3))  # ...and its place there is drawn again
    g.apply("end")
    again = Columba.from_json(json.loads(json.dumps(g.to_json())))
    assert again.position_json() == g.position_json()
    while g.history:
        g.undo()
    assert len(g.position_json()["deck"]) == 30 - 2
    start = Columba.from_json(json.loads(json.dumps(g.to_json())))
    assert start.position_json() == g.position_json()


def test_cb3_rules_text_says_only_a_falcon_frees_a_tile() -> None:
    text = " ".join(game_entry("columba").rules_text().split())
    assert "(c) a falcon has cut it off from every estate" in text
    assert "or a card, has cut it off" not in text
    assert "whether a falcon or a covering card" not in text
    assert "A tile cut off by a card stays domesticated" in text


def test_cb15_loader_refuses_a_pending_second_falcon_that_is_not_an_adult() -> None:
    with pytest.raises(StateError, match="CB-15"):
        pos(["W W", "G G"], phase="actions", hand=None, roles=["falconer", "thief"],
            chicks={0: [6]}, this_turn={"cote": False, "falcon": 2, "tiles": [],
                                        "second": "buy"})
    g = pos(["W W", "G G"], phase="actions", hand=None, roles=["falconer", "thief"],
            chicks={0: [6]}, adults={0: 1},
            this_turn={"cote": False, "falcon": 2, "tiles": [], "second": "buy"})
    g.apply("end")
    assert g.falcons_of(0) == (1, 0)
