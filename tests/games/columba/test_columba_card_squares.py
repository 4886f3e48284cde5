"""Issue 36: a square counts as a card's if a card was ever laid on it, whatever lies on it now
(a tile, a dovecote, a falcon); a tile laid on a bare square of the table is a pigeon, not a
card's field. So a card that covers nothing must dock with another card (CB-2), a dovecote
stands on a card's field (CB-6), and a tile on a bare square still extends the estate it
touches (CB-7).

Every position is drawn in Columba's text diagram (``rulebox.games.columba.diagram``); the
mark ``x,y=bare`` is a tile (or, after another mark, ``^g+bare``, a falcon over a tile) on a
square no card was ever laid on. Unmarked tiles and falcons lie on a card. The territory of
most tests, card C10 (KK/GG) laid at the start on 0,0::

       0 1 2 3
    0  K K . .
    1  G G g .      g on 2,1: red's green tile, laid on turn 1 on the bare table
"""

from __future__ import annotations

import pytest

from rulebox.core.errors import IllegalMoveError, StateError
from rulebox.games.columba.cards import key
from rulebox.games.columba.render import explain, render
from rulebox.games.columba.rules import Columba

PLAYERS = "S1:WGKB/{r0}/-/0{role0} S2:WGBK/-/-/0{role1}"


def diagram(marks: str, *, phase: str = "0p C18", reserve: str = "-", pond: bool = False,
            roles: tuple[str, str] | None = None, grid: str = "KK./GGg aa./aa0",
            turns: str = "1", deck: str = "C03,C01") -> Columba:
    """The territory above (or ``grid``: the grid and whose fields) in turn 3."""
    role0, role1 = ("/" + roles[0], "/" + roles[1]) if roles else ("", "")
    players = PLAYERS.format(r0=reserve, role0=role0, role1=role1)
    head = "2+pond" if pond else "2"
    return Columba.from_diagram(
        f"{head} 0,0 {grid} a=C10@-1 {turns} {marks} t3 {phase} - {players} {deck}")


def legal(g: Columba) -> set[str]:
    return {str(m) for m in g.legal_moves()}


def refused(g: Columba, move: str, rule: str) -> str:
    with pytest.raises(IllegalMoveError) as err:
        g.apply(move)
    assert err.value.rule == rule, str(err.value)
    assert move not in legal(g)
    return err.value.reason


# --- CB-2: a card that covers nothing docks with another card ------------------------------------
def test_cb2_card_may_not_dock_only_with_a_tile_on_the_bare_table() -> None:
    g = diagram("2,1=bare")
    # C18 on 3,0 covers nothing; its only neighbour is the tile on 2,1, which is no card
    reason = refused(g, "place 3,0 r0", "CB-2")
    assert "2,1" in reason and "bare table" in reason
    assert not any(m.startswith("place 3,") for m in legal(g))
    # on 2,-1 it touches the card's field 1,0 as well: docked
    g.apply("place 2,-1 r0")


def test_cb2_a_tile_on_a_cards_field_still_counts_as_the_card() -> None:
    # the tile on 1,0 covers the card's K field: the square is the card's, so C18 on 1,-2
    # docks with it (its only neighbour); the bare tile on 2,1 does not count for 3,0
    g = diagram("2,1=bare", grid="Kg./GGg a0./aa0", turns="1,1", reserve="-")
    assert "place 1,-2 r0" in legal(g)
    refused(g, "place 3,0 r0", "CB-2")
    g.apply("place 1,-2 r0")


def test_cb2_a_falcon_over_a_bare_tile_is_no_card_either() -> None:
    # a falcon of purple over the bare tile on 2,1 (^g+bare); a falcon over a card's field
    # (1,0) counts as the card
    g = diagram("1,0=^k;2,1=^g+bare", grid="KF./GGF a1./aa1", turns="2,2")
    refused(g, "place 3,0 r0", "CB-2")
    assert "place 1,-2 r0" in legal(g)


def test_cb2_covering_a_bare_tile_makes_its_square_a_cards() -> None:
    # red's own tile, laid a round ago in his estate, may be captured (CB-3 a); once the card
    # lies on 2,1 the square is a card's for good
    g = diagram("0,1=S0;2,1=bare")
    g.apply("place 2,1 r0")
    assert g.objective(0)[1][1] is True  # the green slot of S1
    assert g.bare() == frozenset()
    assert "bare" not in g.position_json()
    assert "bare" not in g.diagram()


def test_cb14_the_pond_docks_with_a_card_too() -> None:
    g = diagram("2,1=bare", pond=True, phase="0p P", deck="C03,C01")
    refused(g, "place 3,0 r0", "CB-2")
    g.apply("place 2,-1 r0")


# --- CB-6: a dovecote stands on a card's field ---------------------------------------------------
def test_cb6_no_dovecote_on_a_tile_on_the_bare_table() -> None:
    g = diagram("2,1=bare", phase="0a -")
    reason = refused(g, "cote small 2,1", "CB-6")
    assert "bare table" in reason
    assert "cote small 1,1" in legal(g)
    g.apply("cote small 1,1")
    # the bare tile is a pigeon of the estate all the same (CB-7)
    assert g.estate_owner(key(2, 1)) == 0
    assert g.scores()[0] == 3 - 4  # three pigeons, the open objective's penalty


def test_cb6_a_dovecote_may_stand_on_a_tile_that_covers_a_cards_field() -> None:
    g = diagram("2,1=bare", grid="Kg./GGg a0./aa0", turns="1,1", phase="0a -")
    assert "cote small 1,0" in legal(g)
    g.apply("cote small 1,0")


def test_cb15_architect_may_not_move_a_dovecote_onto_a_bare_tile() -> None:
    g = diagram("0,1=S0;2,1=bare", phase="0a -", roles=("architect", "thief"))
    reason = refused(g, "architect 0,1 2,1", "CB-6")
    assert "bare table" in reason
    g.apply("architect 0,1 1,1")


# --- CB-7: a tile on the bare table extends an estate, and must belong to one -------------------
def test_cb7_a_lone_tile_on_the_bare_table_could_never_join_an_estate() -> None:
    # blue on 3,1 touches no blue: its region is the tile alone, and no dovecote may stand on it
    g = diagram("2,1=bare", phase="0a -", reserve="gb")
    reason = refused(g, "tile B 3,1", "CB-7")
    assert "bare table" in reason
    # on the card's K field 0,0 a lone blue tile may still take a dovecote
    assert "tile B 0,0" in legal(g)


def test_cb7_a_bare_tile_joining_a_free_region_takes_the_dovecote_on_a_field() -> None:
    g = diagram("2,1=bare", phase="0a -", reserve="gb")
    g.apply("tile G 3,1")
    assert g.bare() == frozenset({key(2, 1), key(3, 1)})
    refused(g, "end", "CB-7")
    refused(g, "cote small 3,1", "CB-6")
    g.apply("cote small 0,1")
    assert g.estate_owner(key(3, 1)) == 0
    g.apply("end")


def test_cb7_a_bare_tile_extends_an_opponents_estate() -> None:
    g = diagram("0,1=S1;2,1=bare", phase="0a -", reserve="g")
    before = g.scores()[1]
    g.apply("tile G 2,2")
    assert g.scores()[1] == before + 1
    g.apply("end")


# --- the state: loader, diagram, undo, render ----------------------------------------------------
def test_bare_squares_round_trip_and_undo() -> None:
    g = diagram("2,1=bare", phase="0a -", reserve="g")
    text = g.diagram()
    assert "2,1=bare" in text
    assert Columba.from_diagram(text, g.options()).diagram() == text
    g.apply("tile G 3,1")
    assert "3,1=bare" in g.diagram()
    again = Columba.from_json(g.to_json())
    assert again.bare() == g.bare()
    g.undo()
    assert g.bare() == frozenset({key(2, 1)})
    assert g.diagram() == text


def test_loader_refuses_a_dovecote_on_a_bare_tile() -> None:
    with pytest.raises(StateError, match="CB-6"):
        diagram("2,1=S0+bare")


def test_loader_refuses_a_field_marked_bare() -> None:
    with pytest.raises(StateError, match="never bare"):
        diagram("0,0=bare")
    g = diagram("2,1=bare")
    position = {**g.position_json(), "bare": ["0,0"]}
    data = {"format": 1, "game": "columba", "options": {"seed": "1"}, "history": [],
            "position": position}
    with pytest.raises(StateError, match="CB-2"):
        Columba.from_json(data)


def test_loader_refuses_a_cards_hidden_field_under_a_bare_tile() -> None:
    # C10's field 1,0 lies under a tile: a card lies there, the square cannot be bare
    with pytest.raises(StateError, match="bare table"):
        diagram("1,0=bare", grid="Kg./GGg a0./aa0", turns="1,1")


def test_render_and_explain_show_the_bare_tile() -> None:
    g = diagram("2,1=bare")
    text = render(g).plain
    assert "g._" in text and "_ a tile on the bare table" in text
    assert "bare table" in explain(g, "2,1")
    assert "bare table" not in render(diagram("-", grid="Kg/GG a0/aa")).plain
