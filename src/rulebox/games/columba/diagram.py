"""Columba's text diagram (``Columba.diagram``, read back by ``Columba.from_diagram`` and the
engine's ``load``): the whole position on one line, written from and read into
``Columba.position_json`` data, so that the round trip is exact.

Space-separated fields (``-`` for an empty one), e.g. after ``seed=0
deck=C17,C18,C03,C01,C28,C06,C26`` and ``place -2,-1 r0``, ``cote small 0,1``, ``end``,
``place 2,-1 r0``, ``cote large -2,0``, ``end``, ``place 2,-1 r0``, ``nogoal``,
``place -4,-1 r90``, ``tile G 3,0`` (written on one line, wrapped here: it is read with any
whitespace between the fields, so a test or a document may wrap it)::

    2 -4,-1 KWWK..WB/BGKWWKKg/....WW.. ddbb..cc/ddbbaac0/....aa..
    a=C17@-1,b=C18@0,c=C01@2,d=S1@2 2 -2,0=L1;0,1=S0
    t2 0a - t=3,0 -/wbk/-/0 S2:WGBK/-/-/0 C28,C06,C26

1. the players and the variant: ``2``, ``3`` or ``4``, then ``+kids`` (CB-13) and/or ``+pond``
   (CB-14); Officia (CB-15) is on when the players have roles (field 12);
2. the square ``x,y`` of the grid's top-left corner (the territory's least x and least y);
3. the grid, row by row from the least y down (rows split by ``/``), each row from the least x
   east: ``.`` empty, ``W G B K`` a wild pigeon (a card's field), ``w g b k`` a domesticated
   tile, ``F`` a falcon (as issue 14 drew positions: ``KWWW/W..W/K..W/BBWK``);
4. whose each item is, the same shape: for a field the letter of its card (field 5), for a tile
   or a falcon the player who laid it (``0``-``3``), ``.`` empty;
5. the cards on the territory, lettered ``a``-``z`` then ``A``-``Z`` in the order they were laid
   (by turn, then card id): ``a=C17@-1`` is card C17 laid on turn -1 (the start); ``P`` is the
   Pond. (A card is laid once in a game; a drawn position whose fields of one card carry
   different turns lists the card once per turn.)
6. the turn each tile and falcon was laid, in grid order (row by row), comma-separated;
7. marks on squares, in grid order, ``;``-separated: ``x,y=S0`` / ``x,y=L1`` a small / large
   dovecote of player 0 / 1 (``x,y=S0+ww``: with the peasant's tiles under it, in the order
   slid, CB-15), ``x,y=wild`` a tile a falcon cut off from every estate (CB-3 c), ``x,y=^w`` a
   falcon over a white tile; ``bare`` a tile (or a falcon over a tile) on a square no card was
   ever laid on, alone (``x,y=bare``) or after the mark (``x,y=wild+bare``, ``x,y=^w+bare``):
   a pigeon on the bare table, not a card's field (CB-2, CB-6); unmarked, a tile or falcon
   lies on a card;
8. ``t`` and the turn number (the first turn is 0);
9. the player to move and the phase: ``p`` place, ``g`` goal, ``a`` actions, ``o`` over;
10. the card in hand (phase place), else ``-``;
11. this turn so far, ``+``-joined: ``c`` a dovecote placed, ``f1`` / ``f2`` falcons acquired,
    ``t=3,1;4,1`` the squares of the tiles laid, in order, ``p`` an Officia power used,
    ``m=x,y`` the marshal's square, ``s=buy`` / ``s=raise`` the falconer's second falcon;
12. one field per player, player 0 first: ``objective:slots/reserve/chicks/adults[/role]``: the
    objective card and its four fields' colours, lower case where a tile fills the slot
    (``S1:WgKB``; ``-`` without one), the reserve tiles (``wwk``), the turns the chicks were
    bought (``3,5``), the adult falcons in hand, and the Officia role;
13. the deck, top card first (the server's hidden state: never part of a view).

The supply of tiles and of falcons and the dovecotes still to place are not written: they are
what the pieces on the territory and in the players' hands leave of 15 tiles a colour, 12
falcons and the dovecotes of CB-1. The tile counts are checked when the diagram is read.
"""

from __future__ import annotations

import re
from typing import Any

from rulebox.core.errors import StateError
from rulebox.games.columba.cards import CARDS, COLOURS
from rulebox.games.columba.officia import ROLES
from rulebox.games.columba.pieces import COTES, FALCONS, PHASES, TILES_PER_COLOUR
from rulebox.i18n import _

LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
"""The letters naming the cards of field 5, in order."""
PHASE_LETTERS = {phase: phase[0] for phase in PHASES}
_PHASE_OF = {v: k for k, v in PHASE_LETTERS.items()}
_LOWER = COLOURS.lower()
_SQ = re.compile(r"^(-?\d{1,3}),(-?\d{1,3})$")
_INT = re.compile(r"^-?\d{1,6}$")


def _xy(text: str) -> tuple[int, int]:
    x, y = (int(v) for v in text.split(","))
    return x, y


def _row_major(square: str) -> tuple[int, int]:
    x, y = _xy(square)
    return y, x


def write(pos: dict[str, Any], n: int, kids: bool, pond: bool) -> str:
    """The diagram of ``pos`` (``Columba.position_json`` data) for ``n`` players."""
    squares: dict[str, list[Any]] = pos["squares"]
    coords = [_xy(s) for s in squares]
    x0, y0 = min(x for x, _ in coords), min(y for _, y in coords)
    x1, y1 = max(x for x, _ in coords), max(y for _, y in coords)
    # the cards in laying order, lettered
    laid = {(item[3], item[2]) for item in squares.values() if item[0] == "field"}
    order = sorted(laid)
    letter = {tc: LETTERS[i] for i, tc in enumerate(order)}
    grid: list[str] = []
    whose: list[str] = []
    turns: list[str] = []
    marks: list[str] = []
    cotes: dict[str, list[Any]] = pos["cotes"]
    under: dict[str, list[str]] = pos["under"]
    bare = set(pos.get("bare", []))
    for y in range(y0, y1 + 1):
        row, owners = [], []
        for x in range(x0, x1 + 1):
            sq = f"{x},{y}"
            item = squares.get(sq)
            if item is None:
                row.append(".")
                owners.append(".")
                continue
            kind = item[0]
            mark = ""
            if kind == "field":
                row.append(item[1])
                owners.append(letter[(item[3], item[2])])
            elif kind == "tile":
                row.append(item[1].lower())
                owners.append(str(item[2]))
                turns.append(str(item[3]))
                mark = "wild" if len(item) == 5 else ""
            else:
                row.append("F")
                owners.append(str(item[1]))
                turns.append(str(item[2]))
                mark = "" if item[3] is None else f"^{item[3].lower()}"
            if sq in bare:
                mark = f"{mark}+bare" if mark else "bare"
            if mark:
                marks.append(f"{sq}={mark}")
            if sq in cotes:
                owner, size = cotes[sq]
                mark = f"{sq}={'L' if size == 'large' else 'S'}{owner}"
                if sq in under:
                    mark += "+" + "".join(c.lower() for c in under[sq])
                marks.append(mark)
        grid.append("".join(row))
        whose.append("".join(owners))
    variant = str(n) + ("+kids" if kids else "") + ("+pond" if pond else "")
    this = pos["this_turn"]
    flags = []
    if this["cote"]:
        flags.append("c")
    if this["falcon"]:
        flags.append(f"f{this['falcon']}")
    if this["tiles"]:
        flags.append("t=" + ";".join(this["tiles"]))
    if this["power"]:
        flags.append("p")
    if this["marshal"] is not None:
        flags.append(f"m={this['marshal']}")
    if this["second"] is not None:
        flags.append(f"s={this['second']}")
    roles = pos["roles"]
    players = []
    for p, pl in enumerate(pos["players"]):
        obj = pl["objective"]
        if obj is None:
            goal = "-"
        else:
            fields = CARDS[obj].fields
            goal = obj + ":" + "".join(
                COLOURS[c].lower() if filled else COLOURS[c]
                for c, filled in zip(fields, pl["slots"], strict=True))
        reserve = "".join(c.lower() * pl["reserve"][c] for c in COLOURS) or "-"
        chicks = ",".join(map(str, pl["chicks"])) or "-"
        parts = [goal, reserve, chicks, str(pl["adults"])]
        if roles:
            parts.append(roles[p])
        players.append("/".join(parts))
    fields_out = [
        variant,
        f"{x0},{y0}",
        "/".join(grid),
        "/".join(whose),
        ",".join(f"{letter[tc]}={tc[1]}@{tc[0]}" for tc in order),
        ",".join(turns) or "-",
        ";".join(marks) or "-",
        f"t{pos['turn']}",
        f"{pos['to_move']}{PHASE_LETTERS[pos['phase']]}",
        pos["hand"] or "-",
        "+".join(flags) or "-",
        *players,
        ",".join(pos["deck"]) or "-",
    ]
    return " ".join(fields_out)


def _bad(why: str) -> StateError:
    return StateError(_("columba diagram: {why} (see rulebox.games.columba.diagram)").format(
                          why=why))


def _square(text: str, what: str) -> str:
    m = _SQ.match(text)
    if not m:
        raise _bad(f"{what}: {text[:20]!r} is not a square x,y")
    return f"{int(m.group(1))},{int(m.group(2))}"


def _number(text: str, what: str) -> int:
    if not _INT.match(text):
        raise _bad(f"{what}: {text[:20]!r} is not a whole number")
    return int(text)


def read(text: str) -> tuple[dict[str, Any], dict[str, str]]:
    """The ``position_json`` data a diagram draws and the options it implies (players,
    variant, pond, officia and roles); ``StateError`` if it is malformed. The rules' loader
    checks the position itself."""
    fields = text.split(" ")
    if not fields or not re.match(r"^[234](\+kids)?(\+pond)?$", fields[0]):
        raise _bad("the first field is the number of players (2, 3 or 4), then +kids, +pond")
    n = int(fields[0][0])
    if len(fields) != 12 + n:
        raise _bad(f"a diagram of {n} players has {12 + n} fields, not {len(fields)}")
    (_v, origin, grid_text, whose_text, cards_text, turns_text, marks_text, turn_text,
     phase_text, hand, this_text) = fields[:11]
    player_texts = fields[11:11 + n]
    deck_text = fields[-1]
    kids = "+kids" in fields[0]
    pond = "+pond" in fields[0]
    x0, y0 = _xy(_square(origin, "the origin"))
    # the cards
    cards: dict[str, tuple[str, int]] = {}
    if cards_text != "-":
        for i, entry in enumerate(cards_text.split(",")):
            m = re.match(r"^([a-zA-Z])=([A-Z0-9]{1,3})@(-?\d{1,5})$", entry)
            if not m or i >= len(LETTERS) or m.group(1) != LETTERS[i]:
                raise _bad(f"card {i + 1} must be written {LETTERS[min(i, 51)]}=<card>@<turn>, "
                           f"not {entry[:20]!r}")
            if m.group(2) not in CARDS:
                raise _bad(f"unknown card {m.group(2)!r}")
            cards[m.group(1)] = (m.group(2), int(m.group(3)))
    if len(set(cards.values())) != len(cards):
        raise _bad("a card is listed twice with one turn")
    order = sorted(cards.values(), key=lambda ct: (ct[1], ct[0]))
    if order != list(cards.values()):
        raise _bad("the cards are lettered in the order they were laid (by turn, then id)")
    # the grid
    rows = grid_text.split("/")
    owner_rows = whose_text.split("/")
    width = len(rows[0])
    if (len(rows) != len(owner_rows) or width == 0
            or any(len(r) != width for r in rows + owner_rows) or len(rows) * width > 20_000):
        raise _bad("the grid and whose are rows of one length, split by '/', the same shape")
    turns = [] if turns_text == "-" else [_number(t, "turns") for t in turns_text.split(",")]
    squares: dict[str, list[Any]] = {}
    used: set[str] = set()
    order_of_items: list[str] = []
    for dy, (row, owners) in enumerate(zip(rows, owner_rows, strict=True)):
        for dx, (ch, who) in enumerate(zip(row, owners, strict=True)):
            sq = f"{x0 + dx},{y0 + dy}"
            if ch == ".":
                if who != ".":
                    raise _bad(f"{sq} is empty but whose says {who!r}")
                continue
            if ch in COLOURS:
                if who not in cards:
                    raise _bad(f"the field on {sq} names no listed card ({who!r})")
                used.add(who)
                card, turn = cards[who]
                squares[sq] = ["field", ch, card, turn]
                continue
            if ch not in _LOWER and ch != "F":
                raise _bad(f"{sq}: {ch!r} is not . W G B K (fields) w g b k (tiles) or F")
            if who not in "0123"[:n]:
                raise _bad(f"the tile or falcon on {sq} needs its player 0-{n - 1}, not {who!r}")
            if len(order_of_items) >= len(turns):
                raise _bad("field 6 gives fewer turns than there are tiles and falcons")
            turn = turns[len(order_of_items)]
            order_of_items.append(sq)
            if ch == "F":
                squares[sq] = ["falcon", int(who), turn, None]
            else:
                squares[sq] = ["tile", ch.upper(), int(who), turn]
    if len(order_of_items) != len(turns):
        raise _bad("field 6 gives more turns than there are tiles and falcons")
    if set(cards) - used:
        raise _bad(f"card {cards[sorted(set(cards) - used)[0]][0]} has no field on the grid")
    if not squares:
        raise _bad("the territory is empty")
    for r, edge in ((rows[0], "first row"), (rows[-1], "last row"),
                    ("".join(row[0] for row in rows), "first column"),
                    ("".join(row[-1] for row in rows), "last column")):
        if set(r) == {"."}:
            raise _bad(f"the grid's {edge} is empty: the grid is the territory's bounds")
    # the marks
    cotes: dict[str, list[Any]] = {}
    under: dict[str, list[str]] = {}
    bare: list[str] = []
    marked: list[str] = []
    if marks_text != "-":
        for mark in marks_text.split(";"):
            sq_text, _eq, what = mark.partition("=")
            sq = _square(sq_text, "a mark")
            item = squares.get(sq)
            if item is None:
                raise _bad(f"mark {mark[:20]!r}: {sq} is empty")
            if what == "bare" or what.endswith("+bare"):
                if item[0] == "field":
                    raise _bad(f"mark {mark[:20]!r}: a card's field is never bare")
                bare.append(sq)
                what = what[:-len("+bare")] if what != "bare" else ""
                if not what:
                    marked.append(sq)
                    continue
            m = re.match(r"^([SL])([0-3])(?:\+([wgbk]+))?$", what)
            if m and item[0] != "falcon":
                cotes[sq] = [int(m.group(2)), "large" if m.group(1) == "L" else "small"]
                if m.group(3):
                    under[sq] = [c.upper() for c in m.group(3)]
            elif what == "wild" and item[0] == "tile":
                item.append("wild")
            elif (len(what) == 2 and what[0] == "^" and what[1] in _LOWER
                  and item[0] == "falcon"):
                item[3] = what[1].upper()
            else:
                raise _bad(f"mark {mark[:20]!r}: not a dovecote on a pigeon (S0, L1), a wild "
                           "tile (wild), the tile under a falcon (^w), or bare (a tile on the "
                           "bare table, alone or after a mark: wild+bare)")
            marked.append(sq)
    if len(set(marked)) != len(marked):
        raise _bad("a square is marked twice")
    if marked != sorted(marked, key=_row_major):
        raise _bad("the marks are in grid order (row by row)")
    # the turn
    if not re.match(r"^t\d{1,5}$", turn_text):
        raise _bad(f"field 8 is t and the turn number, not {turn_text[:20]!r}")
    if len(phase_text) != 2 or phase_text[0] not in "0123"[:n] or phase_text[1] not in _PHASE_OF:
        raise _bad(f"field 9 is the player to move and the phase p g a o, not {phase_text[:20]!r}")
    if hand != "-" and hand not in CARDS:
        raise _bad(f"unknown card in hand {hand[:10]!r}")
    this = _this_turn(this_text)
    # the players
    players: list[dict[str, Any]] = []
    roles: list[str] = []
    for p, ptext in enumerate(player_texts):
        parts = ptext.split("/")
        if len(parts) not in (4, 5):
            raise _bad(f"player {p} is objective:slots/reserve/chicks/adults[/role]")
        if len(parts) == 5:
            if parts[4] not in ROLES:
                raise _bad(f"player {p}: unknown role {parts[4][:20]!r}")
            roles.append(parts[4])
        obj: str | None = None
        slots = [False] * 4
        if parts[0] != "-":
            card, _colon, slot_text = parts[0].partition(":")
            if card not in CARDS or len(slot_text) != 4:
                raise _bad(f"player {p}: the objective is a card and its 4 slots (S1:WgKB)")
            for i, (c, ch) in enumerate(zip(CARDS[card].fields, slot_text, strict=True)):
                if ch.upper() != COLOURS[c]:
                    raise _bad(f"player {p}: {card}'s fields are "
                               + "".join(COLOURS[f] for f in CARDS[card].fields))
                slots[i] = ch.islower()
            obj = card
        reserve = {c: 0 for c in COLOURS}
        if parts[1] != "-":
            if set(parts[1]) - set(_LOWER) or len(parts[1]) > 4 * TILES_PER_COLOUR:
                raise _bad(f"player {p}: the reserve is tiles w g b k, or -")
            if list(parts[1]) != sorted(parts[1], key=_LOWER.index):
                raise _bad(f"player {p}: the reserve is written in the order w g b k")
            for ch in parts[1]:
                reserve[ch.upper()] += 1
        chicks = [] if parts[2] == "-" else [_number(t, f"player {p}: chicks")
                                            for t in parts[2].split(",")]
        if chicks != sorted(chicks):
            raise _bad(f"player {p}: the chicks' turns are in order")
        if len(chicks) > FALCONS:
            raise _bad(f"player {p}: too many chicks")
        players.append({"objective": obj, "slots": slots, "reserve": reserve,
                        "cotes": {}, "chicks": chicks,
                        "adults": _number(parts[3], f"player {p}: adults")})
    if roles and len(roles) != n:
        raise _bad("either every player has an Officia role or none has")
    if len(set(roles)) != len(roles):
        raise _bad("each Officia role is dealt once [CB-15]")
    if roles and kids:
        raise _bad("the children's game has no Officia roles [CB-13]")
    small0, large0 = COTES[n]
    for p, pl in enumerate(players):
        placed = [c for c in cotes.values() if c[0] == p]
        pl["cotes"] = {"small": small0 - sum(1 for c in placed if c[1] == "small"),
                       "large": large0 - sum(1 for c in placed if c[1] == "large")}
    supply: dict[str, int] = {}
    for letter in COLOURS:
        out = sum(pl["reserve"][letter] for pl in players)
        out += sum(1 for item in squares.values() if item[0] == "tile" and item[1] == letter)
        out += sum(1 for item in squares.values() if item[0] == "falcon" and item[3] == letter)
        out += sum(v.count(letter) for v in under.values())
        for pl in players:
            if pl["objective"] is not None:
                out += sum(1 for f, s in zip(CARDS[pl["objective"]].fields, pl["slots"],
                                             strict=True) if s and COLOURS[f] == letter)
        supply[letter] = TILES_PER_COLOUR - out
    falcons = FALCONS - sum(len(pl["chicks"]) + pl["adults"] for pl in players)
    falcons -= sum(1 for item in squares.values() if item[0] == "falcon")
    deck = [] if deck_text == "-" else deck_text.split(",")
    position: dict[str, Any] = {
        "to_move": int(phase_text[0]),
        "phase": _PHASE_OF[phase_text[1]],
        "turn": int(turn_text[1:]),
        "hand": None if hand == "-" else hand,
        "deck": deck,
        "squares": squares,
        "cotes": cotes,
        "players": players,
        "supply": supply,
        "falcons": falcons,
        "this_turn": this,
        "roles": roles,
        "under": under,
    }
    if bare:  # in the order of the state's squares: x, then y
        position["bare"] = sorted(bare, key=_xy)
    implied = {"players": str(n), "variant": "kids" if kids else "standard",
               "pond": "1" if pond else "0", "officia": "1" if roles else "0"}
    if roles:
        implied["roles"] = ",".join(roles)
    return position, implied


def _this_turn(text: str) -> dict[str, Any]:
    this: dict[str, Any] = {"cote": False, "falcon": 0, "tiles": [], "power": False,
                            "marshal": None, "second": None}
    if text == "-":
        return this
    seen: list[str] = []
    for flag in text.split("+"):
        name = flag.split("=", 1)[0][:1]
        if name in seen:
            raise _bad(f"this turn: {flag[:20]!r} is given twice")
        seen.append(name)
        if flag == "c":
            this["cote"] = True
        elif flag in ("f1", "f2"):
            this["falcon"] = int(flag[1])
        elif flag.startswith("t="):
            this["tiles"] = [_square(s, "this turn's tiles") for s in flag[2:].split(";")]
        elif flag == "p":
            this["power"] = True
        elif flag.startswith("m="):
            this["marshal"] = _square(flag[2:], "the marshal's square")
        elif flag in ("s=buy", "s=raise"):
            this["second"] = flag[2:]
        else:
            raise _bad(f"this turn: {flag[:20]!r} is not c, f1, f2, t=x,y;..., p, m=x,y, "
                       "s=buy or s=raise")
    if seen != [s for s in "cftpms" if s in seen]:
        raise _bad("this turn's flags are in the order c f t p m s")
    return this
