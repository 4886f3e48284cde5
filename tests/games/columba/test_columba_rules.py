"""Columba rule tests: one or more per rule ID of RULINGS.md (CB-1..CB-12, CB-16).

Positions are drawn as text and loaded through the JSON state. A drawing's top-left token is
square 0,0 (x east, y south). Tokens: ``.`` empty; ``W G B K`` a wild pigeon of an old card;
``W*`` one of a card laid this turn; ``w0`` a domesticated tile laid by player 0 on an earlier
turn, ``w0*`` one laid this turn, ``w1!`` one that a falcon cut off from every estate (wild again,
CB-3 c); ``Wp`` a field of the Pond; ``F1`` a falcon laid by player 1.
Dovecotes are given apart as ``{"x,y": (player, "small" | "large")}``.
"""

from __future__ import annotations

from typing import Any

import pytest

from rulebox.core.errors import IllegalMoveError, OptionError
from rulebox.games.columba.cards import CARDS, COLOURS, POND_ID, ROTATIONS, key
from rulebox.games.columba.rules import COTES, Columba

TURN = 6  # the drawn positions are in turn 6; "earlier" tiles were laid on turn 2


def drawn(
    rows: list[str],
    *,
    players: int = 2,
    to_move: int = 0,
    phase: str = "place",
    hand: str | None = "C01",
    deck: tuple[str, ...] = ("C02", "C03", "C04"),
    cotes: dict[str, tuple[int, str]] | None = None,
    objectives: dict[int, str | None] | None = None,
    slots: dict[int, list[bool]] | None = None,
    reserve: dict[int, str] | None = None,
    chicks: dict[int, list[int]] | None = None,
    adults: dict[int, int] | None = None,
    this_turn: dict[str, Any] | None = None,
    supply: dict[str, int] | None = None,
    falcons: int | None = None,
    card: str = "C30",
    options: dict[str, str] | None = None,
    roles: list[str] | None = None,
) -> Columba:
    """A game in the drawn position (see the module docstring)."""
    squares: dict[str, list[Any]] = {}
    tiles = dict.fromkeys(COLOURS, 0)
    on_board_falcons = 0
    for y, row in enumerate(rows):
        for x, tok in enumerate(row.split()):
            if tok == ".":
                continue
            now = tok.endswith("*")
            freed = tok.endswith("!")
            tok = tok.rstrip("*!")
            if tok[0] in COLOURS:
                cid = POND_ID if tok[1:] == "p" else card
                squares[f"{x},{y}"] = ["field", tok[0], cid, TURN if now else -1]
            elif tok[0].upper() in COLOURS:
                tiles[tok[0].upper()] += 1
                squares[f"{x},{y}"] = ["tile", tok[0].upper(), int(tok[1]), TURN if now else 2,
                                       *(["wild"] if freed else [])]
            elif tok[0] == "F":
                on_board_falcons += 1
                squares[f"{x},{y}"] = ["falcon", int(tok[1]), 2, None]
            else:
                raise ValueError(tok)
    options = dict(options or {})
    if roles:
        options["officia"] = "1"
    kids = options.get("variant") == "kids"
    objectives = objectives or ({p: None for p in range(players)} if kids else {})
    slots = slots or {}
    reserve = reserve or {}
    chicks = chicks or {}
    adults = adults or {}
    cotes = cotes or {}
    placed = [[0, 0] for _ in range(players)]
    for p, size in cotes.values():
        placed[p][size == "large"] += 1
    small0, large0 = COTES[players]
    plist = []
    for p in range(players):
        obj = objectives.get(p, f"S{p + 1}")
        sl = slots.get(p, [False] * 4)
        res = dict.fromkeys(COLOURS, 0)
        for c in reserve.get(p, ""):
            res[c] += 1
        for c in COLOURS:
            tiles[c] += res[c]
        if obj is not None:
            for colour, filled in zip(CARDS[obj].fields, sl, strict=True):
                if filled:
                    tiles[COLOURS[colour]] += 1
        plist.append({
            "objective": obj, "slots": sl, "reserve": res,
            "cotes": {"small": small0 - placed[p][0], "large": large0 - placed[p][1]},
            "chicks": chicks.get(p, []), "adults": adults.get(p, 0),
        })
    used_falcons = on_board_falcons + sum(len(c) for c in chicks.values()) + sum(adults.values())
    position = {
        "to_move": to_move,
        "phase": phase,
        "turn": TURN,
        "hand": hand,
        "deck": list(deck),
        "squares": squares,
        "cotes": {sq: [p, size] for sq, (p, size) in cotes.items()},
        "players": plist,
        "supply": supply or {c: 15 - tiles[c] for c in COLOURS},
        "falcons": 12 - used_falcons if falcons is None else falcons,
        "this_turn": this_turn or {"cote": False, "falcon": 0, "tiles": []},
        "roles": roles or [],
    }
    return Columba.from_json({
        "format": 1, "game": "columba",
        "options": {"players": str(players), "seed": "1", **options},
        "history": [], "position": position,
    })


def refused(game: Columba, move: str, rule: str) -> IllegalMoveError:
    with pytest.raises(IllegalMoveError) as err:
        game.apply(move)
    assert err.value.rule == rule, str(err.value)
    return err.value


def top(game: Columba, x: int, y: int) -> tuple[Any, ...] | None:
    return game.squares().get(key(x, y))


def item(game: Columba, x: int, y: int) -> tuple[Any, ...]:
    """What lies on the square at x, y (the test fails if nothing does)."""
    s = top(game, x, y)
    assert s is not None, f"nothing on {x},{y}"
    return s


def colour_at(game: Columba, x: int, y: int) -> str:
    s = top(game, x, y)
    assert s is not None
    return COLOURS[s[1]]


# --- CB-1 set-up ---------------------------------------------------------------------------------
@pytest.mark.parametrize(("players", "small", "large"), [(2, 3, 1), (3, 2, 1), (4, 1, 1)])
def test_CB_1_dovecotes_objectives_and_first_card(players: int, small: int, large: int) -> None:
    g = Columba.new({"players": str(players), "seed": "5"})
    assert g.num_players == players
    for p in range(players):
        assert g.cotes_left(p) == (small, large)
        assert g.objective(p) == (f"S{p + 1}", [False] * 4)
        assert g.reserve(p) == [0, 0, 0, 0]
    assert len(g.squares()) == 4  # the top card starts the territory at 0,0
    assert {key(0, 0), key(1, 0), key(0, 1), key(1, 1)} == set(g.squares())
    assert g.cards_left() == 28  # 30 - the territory card - the card in hand
    assert g.current_player() == 0 and g.hand is not None


def test_CB_1_four_players_sit_crosswise_in_two_teams() -> None:
    g = Columba.new({"players": "4", "seed": "5"})
    assert [g.partner(p) for p in range(4)] == [2, 3, 0, 1]
    assert g.sides() == [(0, 2), (1, 3)]
    assert Columba.new({"players": "3", "seed": "5"}).partner(0) is None


def test_CB_1_turns_go_round_in_seat_order() -> None:
    g = Columba.new({"players": "3", "deck": "C01,C02,C03,C04,C05", "seed": "1"})
    seen = []
    for _ in range(3):
        seen.append(g.current_player())
        g.apply(next(m for m in g.legal_moves() if m.verb == "place"))
        g.apply("end")
    assert seen == [0, 1, 2] and g.current_player() == 0


# --- CB-2 the card in hand -----------------------------------------------------------------------
def test_CB_2_card_touching_the_territory_in_any_rotation() -> None:
    g = drawn(["W W", "W W"], hand="C14")  # C14 is WG/BK
    g.apply("place 2,0 r90")
    # a quarter turn clockwise: BW/KG
    assert [colour_at(g, x, y) for y in (0, 1) for x in (2, 3)] == ["B", "W", "K", "G"]
    assert g.phase == "actions"
    assert ROTATIONS["C14"][1] == tuple("WGBK".index(c) for c in "BWKG")


def test_CB_2_card_must_touch_along_an_edge() -> None:
    g = drawn(["W W", "W W"])
    err = refused(g, "place 2,2 r0", "CB-2")  # only a corner touches
    assert "touch" in err.reason
    refused(g, "place 5,0 r0", "CB-2")


def test_CB_2_every_placement_is_generated() -> None:
    g = drawn(["W W", "W W"], objectives={0: None})
    places = [m for m in g.legal_moves() if m.verb == "place"]
    # no objective: only touching placements: top-lefts around a 2x2 block that share an edge
    # (x in -2..2, y in -2..2 without the 4 corners and without the 9 covering ones) x 4 turns
    assert len(places) == (25 - 4 - 9) * 4
    assert all(str(m).startswith("place ") for m in places)


def test_CB_2_the_card_comes_first() -> None:
    g = drawn(["W W", "W W"])
    refused(g, "end", "CB-2")
    refused(g, "buy", "CB-2")


# --- CB-3 capture --------------------------------------------------------------------------------
def test_CB_3_capture_fills_a_slot_from_the_supply() -> None:
    g = drawn(["W G", "K K"])  # player 0: S1 = WG/KB
    before = g.supply()
    g.apply("place -1,-1 r0")  # covers 0,0 only (W)
    assert g.objective(0)[1] == [True, False, False, False]
    assert g.supply()[COLOURS.index("W")] == before[COLOURS.index("W")] - 1
    assert colour_at(g, 0, 0) == COLOURS[ROTATIONS["C01"][0][3]]


def test_CB_3_covered_fields_need_distinct_free_slots_of_their_colour() -> None:
    g = drawn(["W G", "K K"])
    err = refused(g, "place 0,1 r0", "CB-3")  # covers K K: S1 has one K slot
    assert "black" in err.reason
    g2 = drawn(["W G", "K K"], slots={0: [True, False, False, False]})
    refused(g2, "place -1,-1 r0", "CB-3")  # the W slot is already filled
    refused(g2, "place 0,-1 r0", "CB-3")  # W and G: the G slot is free, the W one is not


def test_CB_3_covering_two_colours_at_once() -> None:
    g = drawn(["W G", "K K"])
    g.apply("place 0,-1 r0")  # covers 0,0 W and 1,0 G
    assert g.objective(0)[1] == [True, True, False, False]


def test_CB_3_no_cover_of_a_dovecote_or_a_falcon() -> None:
    g = drawn(["W G F1", "K B K"], cotes={"0,0": (0, "small")})
    refused(g, "place -1,-1 r0", "CB-3")
    refused(g, "place 2,-1 r0", "CB-3")


def test_CB_3_a_own_tile_laid_a_round_ago_may_be_captured() -> None:
    g = drawn(["W w0 G"], cotes={"0,0": (0, "small")})
    white = g.supply()[0]
    g.apply("place 1,-1 r0")  # covers the tile on 1,0 (laid on turn 2) and the G on 2,0
    assert g.objective(0)[1] == [True, True, False, False]
    assert g.supply()[0] == white  # the captured tile came off the territory, not the supply


def test_CB_3_a_tile_laid_by_another_in_the_own_estate_is_not_captured() -> None:
    g = drawn(["W w1 G"], cotes={"0,0": (0, "small")})
    err = refused(g, "place 1,-1 r0", "CB-3")
    assert "laid by" in err.reason


def test_CB_3_a_tile_in_the_partner_estate_may_be_captured() -> None:
    g = drawn(["W w2 G"], players=4, cotes={"0,0": (2, "small")})
    g.apply("place 1,-1 r0")
    assert g.objective(0)[1][0] is True


def test_CB_3_a_tile_cut_off_by_a_falcon_is_wild_again() -> None:
    g = drawn(["W F0 w1! G"], cotes={"0,0": (1, "small")})
    g.apply("place 2,-1 r0")  # the tile on 2,0 belongs to no estate any more
    assert g.objective(0)[1][0] is True


def test_CB_3_wild_pigeons_of_the_own_estate_may_be_captured() -> None:
    g = drawn(["W W G"], cotes={"0,0": (0, "small")})
    g.apply("place 1,-1 r0")
    assert g.objective(0)[1][0] is True


# --- CB-4 a full objective -----------------------------------------------------------------------
def test_CB_4_goal_then_the_old_objective_is_laid_and_may_capture_again() -> None:
    # S1 = WG/KB with W, G, B filled: the K on 0,1 completes it
    g = drawn(["W G", "K W"], slots={0: [True, True, False, True]}, deck=("C05", "C06"))
    g.apply("place -1,1 r0")  # covers 0,1 (K) only
    assert g.phase == "goal"
    assert g.reserve(0) == [1, 1, 1, 1]  # W G B K: the objective's four tiles
    assert set(m.verb for m in g.legal_moves()) == {"goal", "nogoal"}
    refused(g, "end", "CB-4")
    g.apply("goal")
    assert g.objective(0) == ("C05", [False] * 4)  # the top card of the deck
    assert g.hand == "S1" and g.phase == "place" and g.cards_left() == 1
    # C05 = KB/GB: the old objective card may capture for it at once
    g.apply("place 1,-1 r0")  # covers 1,0 (G)
    assert g.objective(0)[1] == [False, False, True, False]


def test_CB_4_nogoal_leaves_no_objective_and_no_more_captures() -> None:
    g = drawn(["W G", "K W"], slots={0: [True, True, False, True]})
    g.apply("place -1,1 r0")
    g.apply("nogoal")
    assert g.objective(0) == (None, [False] * 4) and g.hand == "S1"
    err = refused(g, "place 1,-1 r0", "CB-4")
    assert "no objective" in err.reason
    g.apply("place 2,0 r0")
    assert g.phase == "actions"


def test_CB_4_chain_within_one_turn() -> None:
    # complete S1, take C05 (KB/GB), complete it with S1 itself covering K B G B... in steps
    g = drawn(["W G", "K W"], slots={0: [True, True, False, True]}, deck=("C09", "C06"))
    g.apply("place -1,1 r0")
    g.apply("goal")  # C09 = GW/WG
    assert g.objective(0)[0] == "C09"
    g.apply("place 0,-1 r0")  # S1 covers 0,0 W and 1,0 G
    assert g.objective(0)[1] == [True, True, False, False]
    assert g.phase == "actions"


# --- CB-5 optional actions after the card --------------------------------------------------------
def test_CB_5_actions_after_the_card_in_any_order_then_end() -> None:
    g = drawn(["W W", "G G"], reserve={0: "WWKK"})
    refused(g, "cote small 0,0", "CB-2")
    g.apply("place 2,0 r0")
    g.apply("buy KK")
    g.apply("cote small 0,0")
    g.apply("tile W 0,-1")
    g.apply("end")
    assert g.current_player() == 1 and g.phase == "place"


# --- CB-6 dovecotes ------------------------------------------------------------------------------
def test_CB_6_one_dovecote_per_turn() -> None:
    g = drawn(["W W", "G G"], phase="actions", hand=None)
    g.apply("cote small 0,0")
    assert g.estate_owner(key(1, 0)) == 0
    err = refused(g, "cote large 0,1", "CB-6")
    assert "already" in err.reason


def test_CB_6_not_on_a_card_laid_this_turn() -> None:
    g = drawn(["W W G*", "G G G*"], phase="actions", hand=None)
    refused(g, "cote small 2,0", "CB-6")
    g.apply("cote small 1,1")  # the same group, on an old field


def test_CB_6_not_in_another_players_estate() -> None:
    g = drawn(["W W", "G G"], phase="actions", hand=None, cotes={"0,0": (1, "small")})
    err = refused(g, "cote large 1,0", "CB-6")
    assert "purple" in err.reason


def test_CB_6_small_scores_one_large_two_per_pigeon() -> None:
    g = drawn(["W W W", "G G K"], phase="actions", hand=None,
              cotes={"0,0": (0, "small"), "0,1": (1, "large")})
    assert g.scores() == [3 - 4, 4 - 4]  # S1 and S2 are unfinished: -4 each (CB-11)


def test_CB_6_no_dovecote_left() -> None:
    g = drawn(["W W", "G G", "B B"], phase="actions", hand=None, players=4,
              cotes={"0,2": (0, "large")})
    err = refused(g, "cote large 0,0", "CB-1")
    assert "no large dovecote" in err.reason
    g.apply("cote small 0,0")


# --- CB-7 domesticated tiles ---------------------------------------------------------------------
def test_CB_7_tile_next_to_the_territory_extends_an_estate() -> None:
    g = drawn(["W W", "G G"], phase="actions", hand=None, reserve={0: "W"},
              cotes={"0,0": (0, "small")})
    g.apply("tile W 2,0")
    assert g.estate_owner(key(2, 0)) == 0
    assert g.scores()[0] == 3 - 4
    g.apply("end")


def test_CB_7_tile_on_a_wild_pigeon_changes_its_colour() -> None:
    g = drawn(["W W K", "G G G"], phase="actions", hand=None, reserve={0: "W"},
              cotes={"0,0": (0, "small")})
    g.apply("tile W 2,0")
    assert colour_at(g, 2, 0) == "W" and item(g, 2, 0)[0] == 1  # a tile
    assert g.estate_owner(key(2, 0)) == 0


def test_CB_7_tile_not_far_from_the_territory_nor_on_tiles_falcons_or_opponents() -> None:
    g = drawn(["W W w0", "G G F1", "K K K"], phase="actions", hand=None, reserve={0: "WG"},
              cotes={"0,0": (0, "small"), "0,2": (1, "small")})
    refused(g, "tile W 5,5", "CB-7")
    refused(g, "tile W 2,0", "CB-7")  # another tile
    refused(g, "tile W 2,1", "CB-7")  # a falcon
    err = refused(g, "tile W 1,2", "CB-7")  # a pigeon of purple's estate
    assert "purple" in err.reason
    refused(g, "tile K 1,0", "CB-7")  # no black tile in the reserve


def test_CB_7_end_refused_while_a_tile_laid_this_turn_is_outside_the_estate() -> None:
    g = drawn(["W W K w0*", "G G G ."], phase="actions", hand=None,
              this_turn={"cote": False, "falcon": 0, "tiles": ["3,0"]})
    err = refused(g, "end", "CB-7")
    assert "3,0" in err.reason
    g.apply("cote small 3,0")  # the dovecote on the tile makes it an estate
    g.apply("end")


def test_CB_7_a_tile_that_could_not_join_an_estate_by_the_end_is_refused() -> None:
    g = drawn(["W W K", "G G G"], phase="actions", hand=None, reserve={0: "KK"},
              cotes={"0,0": (0, "small")},
              this_turn={"cote": True, "falcon": 0, "tiles": []})
    err = refused(g, "tile K 3,0", "CB-7")  # no dovecote left to place this turn
    assert "end of the turn" in err.reason


# --- CB-8 falcons --------------------------------------------------------------------------------
def test_CB_8_buy_costs_two_tiles_and_raise_waits_a_turn() -> None:
    g = drawn(["W W", "G G"], phase="actions", hand=None, reserve={0: "WWGK"})
    g.apply("buy WW")
    assert g.falcons_of(0) == (1, 0) and g.reserve(0) == [0, 1, 0, 1]  # W W paid
    assert g.falcon_supply() == 11 and g.supply()[0] == 15  # back into the supply
    err = refused(g, "raise", "CB-8")
    assert "already" in err.reason or "later turn" in err.reason


def test_CB_8_raise_then_place_in_an_opponents_estate() -> None:
    g = drawn(["W W W", "G G G"], phase="actions", hand=None, reserve={0: "KK"},
              chicks={0: [2]}, cotes={"0,0": (1, "small")})
    g.apply("raise")  # KK: the only way to pay
    assert g.falcons_of(0) == (0, 1)
    refused(g, "falcon 0,0", "CB-8")  # never on the dovecote
    refused(g, "falcon 0,1", "CB-8")  # not an estate
    assert g.scores()[1] == 3 - 4
    g.apply("falcon 1,0")  # cuts 2,0 off purple's estate
    assert g.scores()[1] == 1 - 4
    assert g.estate_owner(key(2, 0)) == -1
    refused(g, "falcon 2,0", "CB-8")


def test_CB_8_only_one_falcon_a_turn() -> None:
    g = drawn(["W W", "G G"], phase="actions", hand=None, reserve={0: "KKKK"}, chicks={0: [2]})
    g.apply("raise")
    err = refused(g, "buy", "CB-8")
    assert "already" in err.reason


def test_CB_8_not_in_the_partners_or_own_estate_nor_on_a_falcon() -> None:
    g = drawn(["W W F1", "G G G"], players=4, phase="actions", hand=None, adults={0: 1},
              cotes={"0,0": (2, "small"), "0,1": (0, "small")})
    refused(g, "falcon 1,0", "CB-8")
    refused(g, "falcon 1,1", "CB-8")
    refused(g, "falcon 2,0", "CB-8")


# --- CB-9 estates never join ---------------------------------------------------------------------
def test_CB_9_card_may_not_join_two_estates() -> None:
    # W estates of players 0 and 1 at 0,0 and 3,0; C17 = WK/WW
    g = drawn(["W . . W", "G G G G"], hand="C17",
              cotes={"0,0": (0, "small"), "3,0": (1, "small")})
    err = refused(g, "place 1,-1 r0", "CB-9")  # WK/WW: W W on 1,0 and 2,0 join them
    assert "join" in err.reason
    g.apply("place 1,-1 r90")  # WW/WK: the W on 1,0 touches only red's estate
    assert g.estate_owner(key(1, 0)) == 0 and g.estate_owner(key(2, 0)) == -1


def test_CB_9_tile_may_not_join_two_estates() -> None:
    g = drawn(["W . W", "G G G"], phase="actions", hand=None, reserve={0: "W"},
              cotes={"0,0": (0, "small"), "2,0": (1, "small")})
    refused(g, "tile W 1,0", "CB-9")


def test_CB_9_no_second_dovecote_in_the_own_estate() -> None:
    g = drawn(["W W", "G G"], phase="actions", hand=None, cotes={"0,0": (0, "small")})
    refused(g, "cote large 1,0", "CB-9")


# --- CB-10 only the owner benefits, anyone extends -----------------------------------------------
def test_CB_10_no_capture_in_an_opponents_estate() -> None:
    g = drawn(["W W", "G G"], cotes={"1,0": (1, "small")})
    err = refused(g, "place -1,-1 r0", "CB-10")
    assert "purple" in err.reason


def test_CB_10_partner_captures_in_the_partners_estate() -> None:
    g = drawn(["W W", "G G"], players=4, cotes={"1,0": (2, "small")})
    g.apply("place -1,-1 r0")
    assert g.objective(0)[1][0] is True


def test_CB_10_anyone_may_extend_an_opponents_estate() -> None:
    g = drawn(["W W", "G G"], hand="C17", cotes={"0,0": (1, "small")})  # C17 = WK/WW
    g.apply("place 2,-1 r270")  # KW/WW: the W on 2,0 joins purple's W estate
    assert g.estate_owner(key(2, 0)) == 1 and g.estate_owner(key(3, -1)) == 1
    assert g.scores()[1] == 5 - 4


# --- CB-11 the end and the score -----------------------------------------------------------------
def test_CB_11_game_ends_after_the_turn_that_drew_the_last_card() -> None:
    g = Columba.new({"deck": "C01,C02,C03", "seed": "1"})
    g.apply(next(m for m in g.legal_moves() if m.verb == "place"))
    g.apply("end")  # player 1 draws C03, the last card
    assert g.cards_left() == 0 and not g.is_terminal()
    g.apply(next(m for m in g.legal_moves() if m.verb == "place"))
    assert not g.is_terminal()  # the optional actions still follow
    g.apply("end")
    assert g.is_terminal() and g.legal_moves() == []


def test_CB_11_scores_penalty_and_winner() -> None:
    g = drawn(["W W W", "G G K"], phase="actions", hand=None, deck=(),
              objectives={1: None}, cotes={"0,0": (0, "large"), "2,1": (1, "small")})
    g.apply("end")
    out = g.outcome()
    assert out is not None
    assert out.scores == (6 - 4, 1) and out.winners == (0,)
    assert g.returns() == [1.0, -1.0]


def test_CB_11_ties_go_to_the_largest_estate() -> None:
    g = drawn(["W W W W", "G G K K"], phase="actions", hand=None, deck=(),
              objectives={0: None, 1: None},
              cotes={"0,0": (0, "small"), "0,1": (1, "small"), "2,1": (1, "small")})
    g.apply("end")
    out = g.outcome()
    assert out is not None and out.scores == (4, 4)
    assert out.winners == (0,) and "largest estate (4 pigeons) decides" in out.reason


def test_CB_11_a_full_tie_is_a_draw() -> None:
    g = drawn(["W W", "G G"], phase="actions", hand=None, deck=(),
              objectives={0: None, 1: None}, cotes={"0,0": (0, "small"), "0,1": (1, "small")})
    g.apply("end")
    out = g.outcome()
    assert out is not None and out.winners == () and g.returns() == [0.0, 0.0]


def test_CB_11_teams_add_their_scores() -> None:
    g = drawn(["W W W", "G G K", "B B B"], players=4, phase="actions", hand=None, deck=(),
              objectives={0: None, 1: None, 2: None, 3: None},
              cotes={"0,0": (0, "small"), "0,1": (1, "large"), "0,2": (2, "small"),
                     "2,1": (3, "small")})
    g.apply("end")
    out = g.outcome()
    assert out is not None and out.scores == (3, 4, 3, 1)
    assert out.winners == (0, 2)  # 6 against 5
    assert g.returns() == [1.0, -1.0, 1.0, -1.0]


# --- CB-12 a finite supply -----------------------------------------------------------------------
def test_CB_12_no_capture_of_a_colour_the_supply_has_run_out_of() -> None:
    g = drawn(["W G", "K K"], reserve={1: "W" * 15})  # every white tile is in purple's reserve
    assert g.supply()[0] == 0
    err = refused(g, "place -1,-1 r0", "CB-12")
    assert "white" in err.reason
    legal = {str(m) for m in g.legal_moves()}
    assert "place -1,-1 r0" not in legal and "place 0,-1 r0" not in legal
    assert "place 1,-1 r0" in legal  # the grey pigeon on 1,0 may still be captured


def test_CB_12_no_falcon_when_the_supply_is_empty() -> None:
    g = drawn(["W W", "G G"], phase="actions", hand=None, reserve={0: "KK"}, falcons=0,
              adults={0: 12})
    refused(g, "buy", "CB-12")


def test_CB_4_goal_needs_a_card_in_the_deck() -> None:
    g = drawn(["W G", "K W"], slots={0: [True, True, False, True]}, deck=())
    g.apply("place -1,1 r0")
    refused(g, "goal", "CB-4")
    assert [str(m) for m in g.legal_moves()] == ["nogoal"]


# --- CB-16 the deck option -----------------------------------------------------------------------
def test_CB_16_deck_option_fixes_the_order() -> None:
    g = Columba.new({"deck": "C07,C03,C12", "seed": "9"})
    assert {item(g, x, y)[4] for x in (0, 1) for y in (0, 1)} == {"C07"}
    assert g.hand == "C03" and g.cards_left() == 1
    assert g.options()["deck"] == "C07,C03,C12"
    assert "deck" not in g.public_options() and "seed" not in g.public_options()


@pytest.mark.parametrize("deck", ["C01,C01,C02", "C01,X9", "C01", "S1,C02"])
def test_CB_16_bad_deck_option(deck: str) -> None:
    with pytest.raises(OptionError):
        Columba.new({"deck": deck})


def test_CB_16_same_seed_same_game() -> None:
    a = Columba.new({"seed": "77"})
    b = Columba.new({"seed": "77"})
    assert a.position_json() == b.position_json()
    assert a.position_json() != Columba.new({"seed": "78"}).position_json()


# A 3-player children's game (seed 10) that ends with players 0 and 2 tied on points and on
# their largest estate, player 1 behind.
TIE3_MOVES = [
    "place 1,0 r90",
    "cote large 0,0",
    "end",
    "place 2,0 r0",
    "cote small 1,1",
    "end",
    "place 2,1 r0",
    "cote small 1,0",
    "end",
    "place 4,1 r180",
    "cote small 2,2",
    "end",
    "place 5,2 r0",
    "end",
    "place 6,3 r180",
    "cote small 5,3",
    "end",
    "place 4,0 r270",
    "cote small 6,2",
    "end",
    "place 6,3 r0",
    "cote large 5,0",
    "end",
    "place 7,3 r0",
    "cote large 0,1",
    "end",
    "place 5,4 r270",
    "end",
    "place 5,5 r0",
    "cote small 5,1",
    "end",
    "place 6,4 r90",
    "end",
    "place 5,6 r90",
    "end",
    "place 2,0 r90",
    "end",
    "place 3,2 r180",
    "end",
    "place 5,7 r90",
    "end",
    "place 3,1 r0",
    "end",
    "place 4,4 r0",
    "end",
    "place 3,-1 r0",
    "end",
    "place 4,6 r180",
    "end",
    "place 5,4 r270",
    "end",
    "place 2,-2 r180",
    "end",
    "place 3,4 r0",
    "end",
    "place 3,6 r90",
    "end",
    "place 6,3 r0",
    "end",
    "place 4,-2 r0",
    "end",
    "place 3,3 r0",
    "end",
    "place 2,-1 r270",
    "end",
    "place 8,4 r270",
    "end",
]


def test_CB_11_sides_still_tied_after_both_tie_breaks_draw() -> None:
    g = Columba.new({"seed": "10", "variant": "kids", "players": "3"})
    for move in TIE3_MOVES:
        g.apply(move)
    out = g.outcome()
    assert out is not None and out.winners == ()
    assert out.result_line() == "over winner=none score=5,4,5"
    assert g.returns() == [0.0, -1.0, 0.0]


def test_CB_16_roles_dealt_from_the_seed_are_in_force_and_echoed() -> None:
    g = Columba.new({"seed": "4", "officia": "1"})
    roles = g.options()["roles"]
    assert len(roles.split(",")) == 2
    again = Columba.new(g.options())
    assert again.options() == g.options() and again.view(0) == g.view(0)
