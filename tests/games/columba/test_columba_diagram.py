"""Columba's text diagram (``rulebox.games.columba.diagram``): an exact round trip for every
variant without any option given (the diagram says the players and the variant), malformed
diagrams refused with ``StateError``, the documented example, and positions of rule tests
written as diagrams."""

from __future__ import annotations

import random

import pytest

from rulebox.core.errors import IllegalMoveError, StateError
from rulebox.core.load import load_any
from rulebox.games.columba import diagram as diagram_module
from rulebox.games.columba.cards import key
from rulebox.games.columba.rules import Columba

VARIANTS = [
    {}, {"players": "3"}, {"players": "4"}, {"variant": "kids"},
    {"variant": "kids", "players": "4", "pond": "1"}, {"pond": "1"},
    {"officia": "1"}, {"officia": "1", "players": "3", "pond": "1"},
    {"officia": "1", "players": "4"},
]
IMPLIED = ("players", "variant", "pond", "officia", "roles")


def _playout(options: dict[str, str], seed: int, plies: int) -> Columba:
    game = Columba.new({**options, "seed": str(seed)})
    rng = random.Random(seed)
    for _ in range(plies):
        if game.is_terminal():
            break
        moves = game.legal_moves()
        game.apply(moves[rng.randrange(len(moves))])
    return game


@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: ",".join(map("=".join, o.items())))
def test_round_trip_without_options_for_every_variant(options: dict[str, str]) -> None:
    for seed in range(3):
        game = _playout(options, seed, 0)
        rng = random.Random(seed)
        while True:
            text = game.diagram()
            again = Columba.from_diagram(text)  # no options: the diagram says them
            assert again.diagram() == text
            assert again.position_json() == game.position_json()
            assert {k: again.options().get(k) for k in IMPLIED} == {
                k: game.options().get(k) for k in IMPLIED}
            assert again.outcome() == game.outcome()
            if game.is_terminal():
                break
            for _ in range(rng.randrange(1, 12)):  # every few plies
                if game.is_terminal():
                    break
                moves = game.legal_moves()
                game.apply(moves[rng.randrange(len(moves))])
    assert game.is_terminal()


def test_the_documented_example_is_real() -> None:
    g = Columba.new({"seed": "0", "deck": "C17,C18,C03,C01,C28,C06,C26"})
    for move in ("place -2,-1 r0", "cote small 0,1", "end", "place 2,-1 r0", "cote large -2,0",
                 "end", "place 2,-1 r0", "nogoal", "place -4,-1 r90", "tile G 3,0"):
        g.apply(move)
    text = ("2 -4,-1 KWWK..WB/BGKWWKKg/....WW.. ddbb..cc/ddbbaac0/....aa.. "
            "a=C17@-1,b=C18@0,c=C01@2,d=S1@2 2 -2,0=L1;0,1=S0 "
            "t2 0a - t=3,0 -/wbk/-/0 S2:WGBK/-/-/0 C28,C06,C26")
    assert g.diagram() == text
    assert text in " ".join((diagram_module.__doc__ or "").split())
    start = Columba.new({"seed": "3"}).diagram()
    assert start.startswith("2 0,0 WK/WW aa/aa a=C17@-1 - - t0 0p C18 - S1:WGKB/-/-/0 "
                            "S2:WGBK/-/-/0 C03,")


def test_a_wrapped_diagram_reads_the_same() -> None:
    game = _playout({"officia": "1"}, 4, 40)
    wrapped = "\n".join(game.diagram().split(" "))
    assert Columba.from_diagram(wrapped).position_json() == game.position_json()


def test_options_that_contradict_the_diagram_are_refused() -> None:
    text = Columba.new({"seed": "1", "players": "3"}).diagram()
    with pytest.raises(StateError, match="players"):
        Columba.from_diagram(text, {"players": "2"})
    with pytest.raises(StateError, match="variant"):
        Columba.from_diagram(text, {"variant": "kids"})


START = "2 0,0 WK/WW aa/aa a=C17@-1 - - t0 0p C18 - S1:WGKB/-/-/0 S2:WGBK/-/-/0 C03,C01"


@pytest.mark.parametrize("text", [
    START.replace("2 0,0", "5 0,0"),  # players
    START.replace("2 0,0", "2+kidz 0,0"),
    START.replace(" C03,C01", ""),  # a field missing
    START.replace("0,0 WK", "0;0 WK"),  # the origin
    START.replace("WK/WW", "WK/W"),  # rows of unequal length
    START.replace("WK/WW aa", "WK/WX aa"),  # an unknown item
    START.replace("aa/aa", "ab/aa"),  # a letter of no card
    START.replace("a=C17@-1", "a=C17@-1,b=C18@0"),  # a card with no field
    START.replace("a=C17@-1", "b=C17@-1"),  # cards lettered from a
    START.replace("a=C17@-1", "a=C99@-1"),
    START.replace("WK/WW aa/aa", "Wk/WW a0/aa"),  # a tile without its turn
    START.replace("WK/WW aa/aa a=C17@-1 -", "Wk/WW a0/aa a=C17@-1 1,2"),  # a turn too many
    START.replace("WK/WW aa/aa a=C17@-1 -", "Wk/WW a7/aa a=C17@-1 0"),  # no player 7
    START.replace("- - t0", "- 0,0=S5 t0"),  # no player 5
    START.replace("- - t0", "- 9,9=S0 t0"),  # a mark on an empty square
    START.replace("- - t0", "- 0,0=wild t0"),  # wild marks a tile only
    START.replace("- - t0", "- 1,0=S0;0,0=S1 t0"),  # marks in grid order
    START.replace("t0", "turn0"),
    START.replace("0p", "0x"),
    START.replace("0p C18", "0p C99"),
    START.replace("0p C18", "0a C18"),  # a card in hand outside the place phase
    START.replace("C18 -", "C18 q"),  # this turn's flags
    START.replace("C18 -", "C18 p+c"),  # flags in order
    START.replace("S1:WGKB", "S1:WGBK"),  # S1's fields are W G K B
    START.replace("S1:WGKB/-", "S1:WGKB/kw"),  # the reserve in order w g b k
    START.replace("S1:WGKB/-/-/0", "S1:WGKB/-/-/0/thief"),  # roles for some players only
    START.replace("S1:WGKB/-/-/0 S2:WGBK/-/-/0", "S1:WGKB/-/-/0/thief S2:WGBK/-/-/0/thief"),
    START.replace("S1:WGKB/-/-/0", "S1:WGKB/-/-/13"),  # more falcons than there are
    START.replace("S1:WGKB/-", "S1:WGKB/" + "w" * 16),  # more tiles than there are
    START.replace("S1:WGKB/-/-", "S1:WGKB/-/3,1"),  # chicks' turns in order
    START.replace("C03,C01", "C03,C17"),  # a card in two places
    START.replace("C03,C01", "P"),  # the Pond without pond
    START + " extra",
    "", "2", "{}",
])
def test_malformed_diagrams_are_refused(text: str) -> None:
    with pytest.raises(StateError):
        Columba.from_diagram(text)
    with pytest.raises(StateError):
        load_any("columba " + text)


def test_every_edit_of_a_diagram_loads_or_is_refused() -> None:
    """Any one-character change of real diagrams: a ``StateError`` or a game whose diagram
    round-trips; never another exception."""
    rng = random.Random(3)
    texts = [_playout(options, seed, 30 + 20 * seed).diagram()
             for seed, options in enumerate(VARIANTS)]
    alphabet = "0123456789,.;:/=+-@abcWGBKwgbkFSLPCt ^"
    loaded = 0
    for _ in range(1500):
        text = texts[rng.randrange(len(texts))]
        at = rng.randrange(len(text))
        edited = text[:at] + rng.choice(alphabet) + text[at + rng.randrange(2):]
        try:
            game = Columba.from_diagram(edited)
        except StateError:
            continue
        loaded += 1
        assert Columba.from_diagram(game.diagram()).diagram() == game.diagram()
    assert loaded > 0


# --- rule tests on drawn positions (CB-3 c) ------------------------------------------------------
# purple's (player 1's) dovecote on the white 0,0; purple's white tile on 2,0 laid on turn 2;
# red (player 0) to move on turn 6
CUT_BY_A_CARD = ("2 0,0 WKw/BBB aa1/aaa a=C30@-1 2 0,0=S1 t6 0p C01 - "
                 "S1:WGKB/-/-/0 S2:WGBK/-/-/0 C02,C03,C04")
CUT_BY_A_FALCON = ("2 0,0 WWw/KKK aa1/aaa a=C30@-1 2 0,0=S1 t6 0a - - "
                   "S1:WGKB/-/-/1 S2:WGBK/-/-/0 C02,C03,C04")


def test_CB_3_tile_cut_off_by_a_card_stays_domesticated() -> None:
    g = Columba.from_diagram(CUT_BY_A_CARD)
    assert g.estate_owner(key(2, 0)) == -1 and g.freed() == frozenset()
    with pytest.raises(IllegalMoveError) as err:
        g.apply("place 2,-1 r0")
    assert err.value.rule == "CB-3" and "falcon" in err.value.reason


def test_CB_3_tile_cut_off_by_a_falcon_is_wild_and_captured_later() -> None:
    g = Columba.from_diagram(CUT_BY_A_FALCON)
    g.apply("falcon 1,0")
    # the falcon (red's, turn 6) splits the white region; the tile on 2,0 is marked wild
    assert g.diagram() == ("2 0,0 WFw/KKK a01/aaa a=C30@-1 6,2 0,0=S1;2,0=wild t6 0a - - "
                           "S1:WGKB/-/-/0 S2:WGBK/-/-/0 C02,C03,C04")
    g.apply("end")
    g.apply("place 0,2 r0")  # purple lays C02 below
    g.apply("end")
    g.apply("place 2,-1 r0")  # red covers the freed tile with C03 for S1's white slot
    text = g.diagram()
    assert "2,0=wild" not in text and " S1:wGKB/" in text  # a white slot filled
    assert text.split()[2] == "..KB/WFGW/KKK./WW../BG.."
