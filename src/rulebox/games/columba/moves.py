"""Columba's actions: one small frozen value per action, with one canonical text each.

``place x,y rN``  the card in hand on x..x+1, y..y+1, turned N = 0, 90, 180, 270 clockwise
``goal`` / ``nogoal``  after completing an objective: take a new one from the deck, or not
``cote small x,y`` / ``cote large x,y``  a dovecote on square x,y
``tile C x,y``    a domesticated pigeon of colour C (W, G, B, K) from the reserve onto x,y
``buy XY``        a falcon chick for 2 reserve tiles of colours X and Y;  ``raise XY``  a chick
                  to an adult for 2 more (the falconer: ``buy X`` / ``raise X``, one tile; his
                  second falcon of a turn ``buy XY``). The bare ``buy`` / ``raise`` is accepted
                  where every way to pay is the same (the rules resolve it)
``falcon x,y``    an adult falcon onto x,y
``end``           end the turn

Officia powers (CB-15), verbs named after the roles:

``architect x,y x2,y2``  move the own dovecote on x,y to x2,y2
``architect x,y large``  swap the own small dovecote on x,y for a large one from the reserve
``farmerswife C``        a reserve tile of colour C onto a free slot of the own objective
``marshal C x,y``        pay a C reserve tile: the card about to be laid covers x,y uncaptured
``peasant x,y``          a reserve tile of the estate's colour under the own dovecote on x,y
``thief P C``            take a C tile from player P's reserve onto the own objective
(the falconer's power changes ``buy`` and ``raise``; it has no verb of its own)
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rulebox.core.errors import InvalidMoveError
from rulebox.games.columba.cards import COLOUR_INDEX, COLOURS, key, xy
from rulebox.i18n import N_, _

VERBS = ("place", "goal", "nogoal", "cote", "tile", "buy", "raise", "falcon", "end",
         "architect", "farmerswife", "marshal", "peasant", "thief")


@dataclass(frozen=True, slots=True)
class ColumbaMove:
    """An action. ``sq`` is the square key (top-left for ``place``, the dovecote for
    ``architect`` and ``peasant``); ``arg`` the rotation in quarter turns (``place``), 1 for a
    large dovecote (``cote``), the colour (``tile``, ``farmerswife``, ``marshal``, ``thief``), or
    for ``architect`` 1 to move (to ``sq2``) and 0 to swap for a large one; ``sq2`` the
    architect's destination square or the thief's victim (a player number); ``pay`` the
    colours of the reserve tiles paid for ``buy`` / ``raise`` (sorted; empty for the bare word,
    which the rules resolve when every way to pay is the same)."""

    verb: str
    sq: int = 0
    arg: int = 0
    sq2: int = 0
    pay: tuple[int, ...] = ()

    def __str__(self) -> str:
        v = self.verb
        if v in ("buy", "raise") and self.pay:
            return f"{v} {''.join(COLOURS[c] for c in self.pay)}"
        if v in ("goal", "nogoal", "buy", "raise", "end"):
            return v
        x, y = xy(self.sq) if v not in ("farmerswife", "thief") else (0, 0)
        if v == "place":
            return f"place {x},{y} r{90 * self.arg}"
        if v == "cote":
            return f"cote {'large' if self.arg else 'small'} {x},{y}"
        if v == "tile":
            return f"tile {COLOURS[self.arg]} {x},{y}"
        if v == "farmerswife":
            return f"farmerswife {COLOURS[self.arg]}"
        if v == "thief":
            return f"thief {self.sq2} {COLOURS[self.arg]}"
        if v == "marshal":
            return f"marshal {COLOURS[self.arg]} {x},{y}"
        if v == "peasant":
            return f"peasant {x},{y}"
        if v == "architect":
            if not self.arg:
                return f"architect {x},{y} large"
            x2, y2 = xy(self.sq2)
            return f"architect {x},{y} {x2},{y2}"
        return f"falcon {x},{y}"

    def __repr__(self) -> str:
        return f"parse_columba_move({str(self)!r})"


_SHARED: dict[tuple[str, int, int], ColumbaMove] = {}
_PAID: dict[tuple[str, tuple[int, ...]], ColumbaMove] = {}
_PLACES: dict[int, tuple[ColumbaMove, ...]] = {}


def shared_move(verb: str, sq: int, arg: int) -> ColumbaMove:
    """``ColumbaMove(verb, sq, arg)``, one shared value each (cheap to list thousands of
    times)."""
    k = (verb, sq, arg)
    m = _SHARED.get(k)
    if m is None:
        m = _SHARED[k] = ColumbaMove(verb, sq, arg)
    return m


def paid_move(verb: str, pay: tuple[int, ...]) -> ColumbaMove:
    """``buy`` / ``raise`` paid with the tiles ``pay`` (sorted colours), shared values."""
    m = _PAID.get((verb, pay))
    if m is None:
        m = _PAID[(verb, pay)] = ColumbaMove(verb, pay=pay)
    return m


def place_moves(k0: int) -> tuple[ColumbaMove, ...]:
    """The 4 ``place`` moves on top-left ``k0`` (shared values)."""
    ms = _PLACES.get(k0)
    if ms is None:
        ms = _PLACES[k0] = tuple(shared_move("place", k0, r) for r in range(4))
    return ms


GOAL = ColumbaMove("goal")
NOGOAL = ColumbaMove("nogoal")
BUY = ColumbaMove("buy")
RAISE = ColumbaMove("raise")
END = ColumbaMove("end")
_PLAIN = {"goal": GOAL, "nogoal": NOGOAL, "buy": BUY, "raise": RAISE, "end": END}

_SQ = r"(-?\d{1,3})\s*,\s*(-?\d{1,3})"
_PLACE = re.compile(r"^place\s+" + _SQ + r"(?:\s+r?\s*(\d{1,3}))?$")
_COTE = re.compile(r"^cote\s+(small|large|s|l)\s+" + _SQ + "$")
_TILE = re.compile(r"^tile\s+([a-z])\s+" + _SQ + "$")
_FALCON = re.compile(r"^falcon\s+" + _SQ + "$")
_ARCHITECT = re.compile(r"^architect\s+" + _SQ + r"\s+(?:(large|l)|" + _SQ + ")$")
_WIFE = re.compile(r"^farmer(?:s|'s)?\s*wife\s+([a-z])$")
_MARSHAL = re.compile(r"^marshal\s+([a-z])\s+" + _SQ + "$")
_PEASANT = re.compile(r"^peasant\s+" + _SQ + "$")
_THIEF = re.compile(r"^thief\s+(\d)\s+([a-z])$")
_PAY = re.compile(r"^(buy|raise)\s+([a-z])\s*([a-z])?$")
_LIMIT = 500

HELP = N_("write place x,y rN, goal, nogoal, cote small x,y, cote large x,y, tile C x,y, "
          "buy XY, raise XY, falcon x,y or end")


def _square(text: str, xs: str, ys: str) -> int:
    x, y = int(xs), int(ys)
    if not (-_LIMIT < x < _LIMIT and -_LIMIT < y < _LIMIT):
        raise InvalidMoveError(text, _("square {x},{y} is far outside any territory").format(
                                         x=x, y=y))
    return key(x, y)


def _colour(text: str, letter: str) -> int:
    if letter.upper() not in COLOUR_INDEX:
        raise InvalidMoveError(text, _("pigeon colours are {colours}").format(
                                         colours=', '.join(COLOURS)))
    return COLOUR_INDEX[letter.upper()]


def parse_columba_move(text: str) -> ColumbaMove:
    """Read an action's text (case and extra spaces do not matter). Whether it is legal is for
    the rules to say."""
    t = " ".join(text.lower().split())
    if t in _PLAIN:
        return _PLAIN[t]
    m = _PAY.match(t)
    if m:
        letters = m.group(2) + (m.group(3) or "")
        pay = tuple(sorted(_colour(text, c) for c in letters))
        return ColumbaMove(m.group(1), pay=pay)
    m = _PLACE.match(t)
    if m:
        deg = int(m.group(3) or 0)
        if deg not in (0, 90, 180, 270):
            raise InvalidMoveError(text, _("turn the card r0, r90, r180 or r270 "
                                           "(degrees clockwise)"))
        return ColumbaMove("place", _square(text, m.group(1), m.group(2)), deg // 90)
    m = _COTE.match(t)
    if m:
        return ColumbaMove("cote", _square(text, m.group(2), m.group(3)),
                           1 if m.group(1).startswith("l") else 0)
    m = _TILE.match(t)
    if m:
        return ColumbaMove("tile", _square(text, m.group(2), m.group(3)),
                           _colour(text, m.group(1)))
    m = _FALCON.match(t)
    if m:
        return ColumbaMove("falcon", _square(text, m.group(1), m.group(2)))
    m = _ARCHITECT.match(t)
    if m:
        sq = _square(text, m.group(1), m.group(2))
        if m.group(3):
            return ColumbaMove("architect", sq, 0)
        return ColumbaMove("architect", sq, 1, _square(text, m.group(4), m.group(5)))
    m = _WIFE.match(t)
    if m:
        return ColumbaMove("farmerswife", 0, _colour(text, m.group(1)))
    m = _MARSHAL.match(t)
    if m:
        return ColumbaMove("marshal", _square(text, m.group(2), m.group(3)),
                           _colour(text, m.group(1)))
    m = _PEASANT.match(t)
    if m:
        return ColumbaMove("peasant", _square(text, m.group(1), m.group(2)))
    m = _THIEF.match(t)
    if m:
        return ColumbaMove("thief", 0, _colour(text, m.group(2)), int(m.group(1)))
    if len(text) > 200:
        raise InvalidMoveError(text, _("too long"))
    return _explain_bad(text, t)


def _explain_bad(text: str, t: str) -> ColumbaMove:
    word = t.split(" ", 1)[0] if t else ""
    hints = {
        "place": N_("write place x,y rN, e.g. place 2,0 r90"),
        "cote": N_("write cote small x,y or cote large x,y"),
        "tile": N_("write tile C x,y with C one of W, G, B, K, e.g. tile W 3,1"),
        "falcon": N_("write falcon x,y"),
        "architect": N_("write architect x,y x2,y2 (move) or architect x,y large (swap)"),
        "farmerswife": N_("write farmerswife C"),
        "marshal": N_("write marshal C x,y"),
        "peasant": N_("write peasant x,y"),
        "thief": N_("write thief P C (a player number and a colour)"),
        "buy": N_("write buy XY with the colours of the two tiles you pay, e.g. buy WK"),
        "raise": N_("write raise XY with the colours of the two tiles you pay, e.g. raise GB"),
    }
    raise InvalidMoveError(text, _(hints.get(word, HELP)))
