"""Every move in words and the pieces that decided a game (issue 17, the rules side).

``Game.describe(move)`` is called on the position before the move; ``Game.highlights()`` on a
finished game. Each game is checked on fixed positions (its diagram, a seeded game or a golden
transcript) with the exact words, then over seeded random playouts: describe never raises,
never changes the position, and never names a card that is hidden (36 to 1's pile, Columba's
deck).
"""

from __future__ import annotations

import gettext
import json
import random
import re
from pathlib import Path
from typing import Any, ClassVar

import pytest

from rulebox.core.game import Game
from rulebox.core.registry import game_entry, new_game
from rulebox.games.columba.cards import sq_text
from rulebox.games.columba.rules import Columba
from rulebox.games.columns.rules import Columns
from rulebox.games.countred.rules import CountRed
from rulebox.games.discs.rules import Discs
from rulebox.games.solitaire36.board import CARD_CODES
from rulebox.games.solitaire36.rules import Solitaire36
from rulebox.i18n import _cache, use_language

HERE = Path(__file__).parent


def said(game: Game, moves: list[str]) -> list[str]:
    """The description of each move, each made on the position before it; plays them all."""
    out = []
    for text in moves:
        out.append(game.describe(text))
        game.apply(text)
    return out


# --- seat names -----------------------------------------------------------------------------------
def test_seat_names_are_the_rules_names_never_player_numbers() -> None:
    assert [game_entry("columns").seat_name(p) for p in (0, 1)] == ["light", "dark"]
    assert [game_entry("countred").seat_name(p) for p in (0, 1)] == ["first", "second"]
    assert [game_entry("discs").seat_name(p) for p in (0, 1)] == ["first", "second"]
    assert [game_entry("columba").seat_name(p) for p in range(4)] == [
        "red", "purple", "yellow", "green"]
    assert game_entry("36to1").seat_name(0) == "player"
    assert game_entry("columns").seat_name(5) == "player 5"  # no such seat: its number
    assert CountRed.new({"seed": "1"}).seat_name(1) == "second"


def test_the_default_describe_names_the_seat_and_the_move() -> None:
    game = Columns.new()
    assert Game.describe(game, "Ra1") == "light plays Ra1"
    assert Game.highlights(game) == []


# --- Columns --------------------------------------------------------------------------------------
def test_columns_describes_each_piece_with_pins_and_levels() -> None:
    game = Columns.new()
    assert said(game, ["Ra1", "Da2b2", "Tb1c1^", "Ra1", "Sa3", "Tc2c1v"]) == [
        "light places a roundel on a1 (level 1)",
        "dark places a double blocker on a2-b2",
        "light places a triple on b1-c1",
        "dark places a roundel on a1 (level 2)",
        "light places a single blocker on a3",
        "dark places a triple on c2-c1, thick end down",
    ]


COLUMNS_TIE_BREAK = ("SsrRr,t1t1T2T2R,t1rt3t3r,RSRRr/t4t4rrS,t4rRT2,D5Rt3T6R,D5D7T6T6R/rd8rd9,"
                     "D10d8rd9,D10RT11Rr,sD7T11T11s 0")
"""A seeded random game one move from its end (``Rb2``): 4 to 4 on level 5, light wins the
tie-break on level 4 with roundels on a3, c1 and d3 (3 to 1)."""


def test_COL_9_highlights_the_winners_roundels_on_the_deciding_level() -> None:
    game = Columns.from_diagram(COLUMNS_TIE_BREAK)
    assert game.highlights() == []  # the game goes on
    assert game.describe("Rb2") == "light places a roundel on b2 (level 5)"
    game.apply("Rb2")
    outcome = game.outcome()
    assert outcome is not None and outcome.winners == (0,) and "level 4" in outcome.reason
    assert game.highlights() == ["a3", "c1", "d3"]
    for pin in game.highlights():  # each is light's roundel on level 4
        owner, kind, _code = game.stack(["a1", "a2", "a3", "b1", "b2", "b3", "c1", "c2", "c3",
                                         "d1", "d2", "d3"].index(pin))[3]
        assert (owner, kind.letter) == (0, "R")


# --- Count Red ------------------------------------------------------------------------------------
GAME_16 = """C3-B2 B4-A4 B2-D4 C2-C1 B3-A2 C1-A3 D3-C3 A1-B1 C4-D1 A3-B2 D1-C4 D1-C1 A2-B3 B2-C2
A2-B2 B3-C3 C1-A1 D4-C1 D4-C2 A3-B3 A1-D2 C1-B3 D2-A1 B3-A3 B1-D1 B1-A1 C2-D4 A3-D4 D2-C4 C3-D3
B3-C2 C1-D1 A4-C3 D1-C1 A4-D1 A1-B1 C3-A1 D3-B1 C2-A3 D4-C1 A3-C3 B1-D3 D4-C2 D3-A3 A1-B4 C1-B4
D1-C1 A3-D3 C4-A1 D3-C4 B1-D1 C4-A3 A1-C4 A3-D3 C2-D3 A1-C2 C4-A2 B4-A2 C1-B4 A2-B3 C2-C4 C1-A1
C4-C2 B4-A1 A2-B3 D3-D4 B3-B4 D3-D4 C2-B1 C3-C2 B1-C1""".split()
"""The recorded game of test_countred_rules (seed 16, first=0, even=0): second makes the red
three C2-C3-C4 with its 14th move, first the red four in column C with the last."""


def test_CR_9_CR_10_count_red_says_moves_stacks_threes_and_the_four() -> None:
    game = CountRed.new({"seed": "16", "first": "0", "even": "0"})
    texts = said(game, GAME_16)
    assert texts[:3] == [
        "first stacks black 1 from C3 onto black 2 on B2",
        "second stacks black 0 from B4 onto red 0 on A4",
        "first moves black 1 from the stack on B2 onto black 0 on D4",
    ]
    assert texts[13] == ("second moves red 2 from the stack on B2 to C2 and makes three red in "
                         "column C and moves again")
    assert texts[-1] == "first moves red 3 from B1 to C1 and makes four red in column C"
    assert sum("makes three" in t for t in texts) == 2
    assert game.highlights() == ["C1", "C2", "C3", "C4"]
    outcome = game.outcome()
    assert outcome is not None and outcome.reason == "first made four red in column C [CR-9]"


def test_CR_10_a_three_without_a_bonus_move_and_CR_11_a_skip() -> None:
    # seed 14 of a random playout: first makes the black three D2-D3-D4 but has no bonus move
    three = CountRed.from_diagram(
        "r0#,.,.,./r1b0:1#,r1#,.,b1/r2#,r2b1:1#,.,b2b0:0/b3r0:1,r3#,b3,r3b2:1 0 e0 33 1")
    assert three.describe("D2-D4") == (
        "first moves black 0 from the stack on D2 to D4 and makes three black in column D")
    three.apply("D2-D4")
    assert three.current_player() == 1
    # seed 3: after first's move second has no legal move and is skipped (CR-11)
    skip = CountRed.from_diagram(
        "r0b1:0,b0,r0,./.,r1b2:0,b1r3:0,r1b2:0/r2b0:0,.,r2,./b3,.,.,r3b3:0 0 e1 33 1")
    assert skip.describe("C2-B4") == (
        "first stacks red 2 from C2 onto black 0 on B4; second cannot move and is skipped")
    skip.apply("C2-B4")
    assert skip.current_player() == 0


def test_CR_12_a_claim_in_words_and_in_the_ending() -> None:
    game = CountRed.from_diagram("r0,b0,r0,b0/b1,r1,b1,r1/r2,b2,r2,b2/b3,r3,b3,r3 0 e0 0 3")
    assert game.describe("claim") == "first claims a draw by repetition"
    game.apply("claim")
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.reason == "first claimed a draw: the position occurred 3 times [CR-12]"
    assert game.highlights() == []  # a draw decides nothing on the board


# --- Discs ----------------------------------------------------------------------------------------
def test_discs_says_each_action_and_the_tokens_it_takes() -> None:
    data = json.loads((HERE / "discs" / "transcript.json").read_text())
    game = Discs.new(data["options"])
    texts = said(game, data["moves"])
    assert texts[:10] == [
        "first arranges the discs RRGGRBBBG",
        "second takes the black pins on a1 and c3",
        "first turns disc c1 a quarter clockwise",
        "first bars the line a1.ne-b1.nw",
        "first locks disc c1 with the pin in c1.se",
        "first ends the turn",
        "second turns disc a1 a quarter anticlockwise",
        "second bars the line b1.ne-c1.nw",
        "second locks disc a1 with the pin in a1.se",
        "second ends the turn",
    ]
    assert texts[data["moves"].index("bar c1.nw-c2.sw")] == (
        "first moves the barrier to the line c1.nw-c2.sw")
    assert texts[-1] == "first moves a pin from a2.se to b2.sw, takes a red token"
    taken = [t for t in texts if "token" in t]
    assert len(taken) == 3 and all(t.startswith("first ") for t in taken)


def test_DSC_6_highlights_the_discs_of_the_tokens_and_the_winning_pins() -> None:
    data = json.loads((HERE / "discs" / "transcript.json").read_text())
    game = Discs.new(data["options"])
    for move in data["moves"][:-1]:
        game.apply(move)
    assert game.highlights() == []
    game.apply(data["moves"][-1])
    outcome = game.outcome()
    assert outcome is not None and outcome.reason == "first holds a token of each colour"
    marks = game.highlights()
    assert marks == ["c2", "a2", "b2", "b2.ne", "b2.nw", "b2.sw"]
    discs = [m for m in marks if "." not in m]
    names = [f + r for f in "abc" for r in "123"]
    assert {game.disc_colour(names.index(d)) for d in discs} == {"R", "G", "B"}
    assert all(game.pin_at(names.index(h[:2]) * 5 + ["c", "ne", "nw", "se", "sw"].index(h[3:]))
               == 0 for h in marks if "." in h)


# --- 36 to 1 --------------------------------------------------------------------------------------
def test_36to1_says_the_card_and_the_cube_never_the_card_drawn() -> None:
    game = Solitaire36.new({"seed": "3"})
    assert game.faceup() == [CARD_CODES.index("G1"), CARD_CODES.index("Y1")]
    assert said(game, ["G1:c3", "Y1:a3"]) == [
        "player plays G1 on the green cube on c3 (35 cubes left)",
        "player plays Y1 on the green cube on a3 (34 cubes left)",
    ]


def test_S36_3_a_discard_in_words() -> None:
    rng = random.Random(3)
    game = Solitaire36.new({"seed": "3"})
    while not game.is_terminal():
        discards = [m for m in game.legal_moves() if m.is_discard]
        if discards:
            code = CARD_CODES[discards[0].card]
            assert game.describe(discards[0]) == (
                f"player discards {code} (it can take no cube) and draws a new card")
            return
        game.apply(rng.choice(game.legal_moves()))
    pytest.fail("no discard in this deal")  # pragma: no cover


WON_NEXT = ("....../....../.BB.../....../....../...... B4,B5 - R2,R6,W3,G3,W5,G5,Y6,R1,G2,W4,K5,"
            "R4,Y5,R3,K4,K3,K6,G6,B6,W1,K2,Y3,Y1,G1,Y2,W6,K1,B1,B3,W2,R5,Y4,G4,B2")
"""Deal 0 as the guided agent played it, one move from the win: blue cubes on b4 and c4."""


def test_S36_5_highlights_the_last_cube_or_the_cubes_left() -> None:
    game = Solitaire36.from_diagram(WON_NEXT)
    assert game.highlights() == []
    assert game.describe("B4:c4") == "player plays B4 on the blue cube on c4 (1 cube left)"
    game.apply("B4:c4")
    assert game.highlights() == ["b4"]
    lost = Solitaire36.new({"seed": "3"})
    rng = random.Random(1)
    while not lost.is_terminal():
        lost.apply(rng.choice(lost.legal_moves()))
    outcome = lost.outcome()
    assert outcome is not None and not outcome.winners
    rows = lost.grid_rows()
    standing = [f + str(r + 1) for r in range(6) for i, f in enumerate("abcdef")
                if rows[r][i] != "."]
    assert lost.highlights() == standing and len(standing) == lost.cubes_left() > 1


# --- Columba --------------------------------------------------------------------------------------
def test_CB_3_columba_says_the_card_laid_and_what_it_captures() -> None:
    game = Columba.new({"seed": "0", "deck": "C17,C18,C03,C01,C28,C06,C26"})
    assert game.describe("place 2,0 r0") == "red lays C18 on 2,0"
    assert game.describe("place 0,-1 r0") == "red lays C18 on 0,-1 and captures 1 white, 1 black"
    assert game.describe("place 1,-1 r0") == "red lays C18 on 1,-1 and captures 1 black"
    game.apply("place 2,0 r0")
    assert game.describe("cote small 0,1") == "red places a small dovecote on 0,1"
    assert game.describe("cote large 0,0") == "red places a large dovecote on 0,0"
    game.apply("cote small 0,1")
    assert game.describe("end") == "red ends the turn"
    game.apply("end")
    assert game.describe(game.legal_moves()[0]).startswith("purple lays C03 on ")


COMPLETES = (
    "2 -7,-9 .............KW../.............BW../.........BKGKGK../.........KWGKGWBB/.....KG..BWWW"
    "..BG/.....BGBBBWBGGW../....WB.GB..BWWG../..KGKKKWWB.GK..../BKBK.WBKGBG....../WW..KBGWKBK....../"
    "..BKGWBWW......../..KB..GW........./...BW.KB........./...KG............ .............tt../"
    ".............tt../.........kkppss../.........kkppssvv/.....mm..iiqq..vv/.....mmhhiiqqww../"
    "....jj.hh..rrww../..lljjfebb.rr..../xxll.ffebcc....../xx..ggdaacc....../..nnggdaa......../"
    "..nn..oo........./...uu.oo........./...uu............ a=C17@-1,b=C25@0,c=C05@1,d=C23@2,"
    "e=C12@3,f=C21@4,g=C03@5,h=C24@6,i=C11@7,j=C01@8,k=C26@9,l=C30@10,m=C20@11,n=C07@12,o=C27@13,"
    "p=C10@14,q=C02@15,r=C15@16,s=C16@17,t=C08@18,u=C14@19,v=C06@20,w=C09@21,x=C28@22 - -1,-2=S0;"
    "1,-2=S0;0,-1=S0;2,-1=L1;1,0=L0;3,0=S1;-1,1=S1;1,1=S1 t23 1p C29 - S1:Wgkb/-/-/0 "
    "S2:Wgbk/-/-/0 C19,C13,C22,C04,C18")
"""Seed 0, turn 23: purple's objective S2 lacks only its white pigeon."""


def test_CB_4_completing_the_objective_and_taking_a_new_one_names_no_deck_card() -> None:
    game = Columba.from_diagram(COMPLETES, {"seed": "0"})
    assert game.describe("place -3,2 r90") == (
        "purple lays C29 on -3,2 and captures 1 white and completes the objective")
    game.apply("place -3,2 r90")
    top = game.position_json()["deck"][0]
    text = game.describe("goal")
    assert text == "purple takes a new objective" and top not in text
    assert game.describe("nogoal") == "purple takes no new objective"


POND = ("2+pond 0,-11 ..GW../..KB../..GB../..BB../...WG./...BK./..BWWB/..KBKK/...KW./.WBBG./.GBB../"
        "WKKG../WW.BB./...WW. ..kk../..kk../..hh../..hh../...gg./...gg./..ffjj/..ffjj/...ee./"
        ".bbdd./.bcc../aacc../aa.ii./...ii. a=C17@-1,b=C25@0,c=C05@1,d=C23@2,e=C12@3,f=C21@4,"
        "g=C03@5,h=C24@6,i=C11@7,j=C01@8,k=C27@9 - 3,-5=S0;2,-4=S1;2,-2=S1;4,-2=L1;1,-1=S0;2,0=L0;"
        "3,0=S1;4,2=S0 t10 0p P - S1:WgkB/-/-/0/architect S2:Wgbk/-/-/0/farmerswife C20,C07,C28,"
        "C10,C02,C15,C16,C08,C14,C06,C09,C29,C30,C26,C19,C13,C22,C04,C18")
"""Seed 0 with the Pond and Officia (architect, farmer's wife), turn 10: red holds the Pond."""


def test_CB_14_CB_15_the_pond_and_the_architect_in_words() -> None:
    game = Columba.from_diagram(POND, {"seed": "0", "pond": "1", "officia": "1",
                                       "roles": "architect,farmerswife"})
    assert game.describe("place 4,-12 r90") == "red lays the Pond on 4,-12"
    game.apply("place 4,-12 r90")
    assert game.describe("architect 1,-1 0,1") == "red moves the dovecote on 1,-1 to 0,1"


def test_CB_8_falcons_in_words() -> None:
    game = Columba.from_diagram(COMPLETES, {"seed": "0"})
    for move in ("place -3,2 r90", "nogoal", "place -9,-2 r0"):  # purple: 4 tiles in reserve
        game.apply(move)
    assert game.describe("buy WB") == "purple buys a falcon chick (pays white, brown)"
    for move in ("buy WB", "end", "place -10,-3 r0", "nogoal", "place -12,-4 r0", "end",
                 "place -14,-5 r0"):
        game.apply(move)
    assert game.describe("raise GK") == (
        "purple raises a falcon chick to an adult (pays grey, black)")
    game.apply("raise GK")
    assert game.describe("falcon -3,-2") == "purple places a falcon on -3,-2 in red's estate"


def test_CB_11_highlights_the_winning_sides_largest_estate() -> None:
    game = Columba.new({"seed": "1"})
    rng = random.Random(1)
    while not game.is_terminal():
        moves = game.legal_moves()
        busy = [m for m in moves if m.verb != "end"]
        game.apply(rng.choice(busy if busy and rng.random() < 0.8 else moves))
    outcome = game.outcome()
    assert outcome is not None and outcome.winners
    estates = [sorted(m) for p, _k, _l, m in game.estates() if p in outcome.winners]
    biggest = max(len(m) for m in estates)
    assert game.highlights() in [[sq_text(k) for k in m] for m in estates if len(m) == biggest]


# --- the catalogue --------------------------------------------------------------------------------
class _Fake(gettext.NullTranslations):
    """A catalogue that translates a handful of messages (as German would)."""

    WORDS: ClassVar[dict[str, str]] = {
        "light": "hell",
        "{seat} places a roundel on {pin} (level {level})":
            "{seat} setzt einen Rundling auf {pin} (Ebene {level})",
        "first": "Erster",
        "red": "Rot",
        "{seat} moves {piece:acc} from {src} to {dst}":
            "{seat} zieht {piece:acc} von {src} nach {dst}",
        "noun: piece\x04red {number}": "nom: die Rote {number} | acc: die Rote {number} | "
                                       "dat: der Roten {number} | gen: der Roten {number}",
    }

    def gettext(self, message: str) -> str:
        return self.WORDS.get(message, message)

    def pgettext(self, context: str, message: str) -> str:
        return self.WORDS.get(f"{context}\x04{message}", message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self.WORDS.get(singular if n == 1 else plural, singular if n == 1 else plural)


def test_the_words_go_through_the_catalogue_and_the_notation_does_not(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(_cache, "de", _Fake())
    with use_language("de"):
        assert Columns.new().describe("Ra1") == "hell setzt einen Rundling auf a1 (Ebene 1)"
        game = CountRed.new({"seed": "16", "first": "0", "even": "0"})
        for move in GAME_16[:-1]:
            game.apply(move)
        assert game.describe("B1-C1").startswith("Erster zieht die Rote 3 von B1 nach C1")
        assert game_entry("columba").seat_name(0) == "Rot"
    assert Columns.new().describe("Ra1") == "light places a roundel on a1 (level 1)"


# --- every game, seeded random playouts -----------------------------------------------------------
PLAYOUTS: list[tuple[str, dict[str, str]]] = [
    ("columns", {"seed": "1"}), ("columns", {"seed": "2", "first": "1"}),
    ("countred", {"seed": "1"}), ("countred", {"seed": "2", "stack_lift": "free"}),
    ("discs", {"seed": "1", "quiet_limit": "25"}), ("discs", {"seed": "2", "quiet_limit": "8"}),
    ("36to1", {"seed": "1"}), ("36to1", {"seed": "2", "green": "1"}),
    ("36to1", {"seed": "4", "grid": "random"}),
    ("columba", {"seed": "1"}), ("columba", {"seed": "2", "players": "3", "officia": "1"}),
    ("columba", {"seed": "3", "players": "4", "pond": "1"}),
    ("columba", {"seed": "4", "variant": "kids"}),
]


def _hidden_codes(game: Game) -> list[str]:
    """The ids of the cards nobody may know yet: 36 to 1's pile, Columba's deck."""
    if isinstance(game, Solitaire36):
        return [CARD_CODES[c] for c in game.unseen()]
    if isinstance(game, Columba):
        return list(game.position_json()["deck"])
    return []


def _snapshot(game: Game) -> Any:
    return (json.dumps(game.position_json(), sort_keys=True), [str(m) for m in game.history],
            [str(m) for m in game.legal_moves()], game.current_player())


@pytest.mark.parametrize(("game_id", "options"), PLAYOUTS,
                         ids=[f"{g}-{'-'.join(o.values())}" for g, o in PLAYOUTS])
def test_describe_never_raises_never_changes_the_position_never_tells_a_secret(
        game_id: str, options: dict[str, str]) -> None:
    game = new_game(game_id, options)
    rng = random.Random(options["seed"])
    seats = {game.seat_name(p) for p in range(game.num_players)}
    steps = 0
    while not game.is_terminal() and steps < 600:
        moves = game.legal_moves()
        busy = [m for m in moves if str(m) != "end"]
        chosen = rng.choice(busy if busy and rng.random() < 0.8 else moves)
        before = _snapshot(game)
        secrets = [re.compile(rf"(?<![A-Za-z0-9]){re.escape(c)}(?![A-Za-z0-9])")
                   for c in _hidden_codes(game)]
        for move in [chosen, *rng.sample(moves, min(4, len(moves)))]:
            text = game.describe(move)
            assert isinstance(text, str) and text
            assert any(text.startswith(seat + " ") for seat in seats), text
            assert "player 0" not in text and "player 1" not in text
            assert not any(s.search(text) for s in secrets), (text, "names a hidden card")
            assert _snapshot(game) == before, f"describe({move}) changed the position"
        assert game.highlights() == []  # nothing decided yet
        game.apply(chosen)
        steps += 1
    if game.is_terminal():
        outcome = game.outcome()
        assert outcome is not None
        marks = game.highlights()
        assert isinstance(marks, list) and all(isinstance(m, str) and m for m in marks)
        if outcome.winners and game_id in ("countred", "discs", "36to1", "columba"):
            assert marks
        for seat_words in ("player 0", "player 1"):
            assert seat_words not in outcome.reason
