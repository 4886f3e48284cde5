"""Columns moves: small frozen values, all of them made once, with one canonical text each.

``Ra1`` roundel, ``Sa1`` single blocker, ``Da1b1`` double blocker (pins in string order),
``Tb1a1^`` / ``Tb1a1v`` triple blocker, thick pin first, thick end up (flat bottom) or down.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import IntEnum

from rulebox.core.errors import InvalidMoveError
from rulebox.games.columns.geometry import DIRECTED_PAIRS, NUM_PINS, PAIRS, PIN_INDEX, PIN_NAMES
from rulebox.i18n import N_, Noun, _, noun_noop


class Kind(IntEnum):
    """The four kinds of piece (COL-1)."""

    ROUNDEL = 0
    SINGLE = 1
    DOUBLE = 2
    TRIPLE = 3

    @property
    def letter(self) -> str:
        return "RSDT"[self]

    @property
    def noun(self) -> str:
        return (N_("roundel"), N_("single blocker"), N_("double blocker"),
                N_("triple blocker"))[self]

    @property
    def a(self) -> Noun:
        """``a double blocker``: a noun phrase declined by its sentence (``{unit:nom}``)."""
        return Noun("noun: unit", A_UNIT[self])

    @property
    def the(self) -> Noun:
        """``the double blocker``: a noun phrase declined by its sentence."""
        return Noun("noun: unit", THE_UNIT[self])

    def none_left(self) -> str:
        """``you have no double blockers left`` in the current language (COL-1)."""
        return (_("you have no roundels left"), _("you have no single blockers left"),
                _("you have no double blockers left"),
                _("you have no triple blockers left"))[self]


A_UNIT: tuple[str, ...] = (
    noun_noop("noun: unit", "a roundel"), noun_noop("noun: unit", "a single blocker"),
    noun_noop("noun: unit", "a double blocker"), noun_noop("noun: unit", "a triple blocker"))
"""Each kind with the indefinite article (German: ein doppelter Blocker)."""
THE_UNIT: tuple[str, ...] = (
    noun_noop("noun: unit", "the roundel"), noun_noop("noun: unit", "the single blocker"),
    noun_noop("noun: unit", "the double blocker"), noun_noop("noun: unit", "the triple blocker"))
"""Each kind with the definite article (German: der doppelte Blocker)."""


STOCK = {Kind.ROUNDEL: 12, Kind.SINGLE: 3, Kind.DOUBLE: 3, Kind.TRIPLE: 3}
"""Pieces each player starts with (COL-1)."""


@dataclass(frozen=True, slots=True)
class ColumnsMove:
    """A placement. ``pins`` is (pin,) for R and S, (low, high) for D, (thick, thin) for T;
    ``up`` tells a triple's orientation (True: thick end up, flat bottom)."""

    kind: Kind
    pins: tuple[int, ...]
    up: bool = True

    def __str__(self) -> str:
        text = self.kind.letter + "".join(PIN_NAMES[p] for p in self.pins)
        if self.kind is Kind.TRIPLE:
            text += "^" if self.up else "v"
        return text

    def __repr__(self) -> str:
        return f"ColumnsMove.parse({str(self)!r})"

    @property
    def code(self) -> int:
        """The move's index in :data:`ALL_MOVES`."""
        return MOVE_CODE[self]


ROUNDELS = tuple(ColumnsMove(Kind.ROUNDEL, (p,)) for p in range(NUM_PINS))
SINGLES = tuple(ColumnsMove(Kind.SINGLE, (p,)) for p in range(NUM_PINS))
DOUBLES = tuple(ColumnsMove(Kind.DOUBLE, pair) for pair in PAIRS)
TRIPLES_UP = tuple(ColumnsMove(Kind.TRIPLE, pair, True) for pair in DIRECTED_PAIRS)
TRIPLES_DOWN = tuple(ColumnsMove(Kind.TRIPLE, pair, False) for pair in DIRECTED_PAIRS)
ALL_MOVES: tuple[ColumnsMove, ...] = ROUNDELS + SINGLES + DOUBLES + TRIPLES_UP + TRIPLES_DOWN
MOVE_CODE = {m: i for i, m in enumerate(ALL_MOVES)}

_SYNTAX = re.compile(r"^([rsdt])([a-z]\d)([a-z]\d)?(\^|v|up|down)?$")


def parse_columns_move(text: str) -> ColumnsMove:
    """Read a move's text (case and spaces do not matter). Pins must exist; whether the move
    is legal is for the rules to say. A double's pins may come in either order."""
    key = "".join(text.split()).lower()
    m = _SYNTAX.match(key)
    if not m:
        raise InvalidMoveError(
            text, _("write Ra1 (roundel), Sa1 (single), Da1b1 (double) or Tb1a1^ / "
                    "Tb1a1v (triple)")
        )
    letter, first, second, orient = m.groups()
    kind = Kind("rsdt".index(letter))
    for pin in (first, second):
        if pin is not None and pin not in PIN_INDEX:
            raise InvalidMoveError(text, _("there is no pin {pin} (pins are a1 to d3)").format(
                                             pin=pin))
    pins = [PIN_INDEX[first]] + ([PIN_INDEX[second]] if second else [])
    if kind in (Kind.ROUNDEL, Kind.SINGLE):
        if second or orient:
            raise InvalidMoveError(text, _("{unit:nom} goes on one pin, e.g. {letter}a1").format(
                                             unit=kind.a, letter=kind.letter))
        return ColumnsMove(kind, (pins[0],))
    if len(pins) != 2:
        raise InvalidMoveError(text, _("{unit:nom} needs two pins, e.g. {letter}a1b1").format(
                                         unit=kind.a, letter=kind.letter))
    if kind is Kind.DOUBLE:
        if orient:
            raise InvalidMoveError(text, _("a double blocker has no orientation"))
        return ColumnsMove(kind, (min(pins), max(pins)))
    if orient is None:
        raise InvalidMoveError(
            text, _("say which way the triple's thick end points: ^ (up) or v (down)")
        )
    return ColumnsMove(kind, (pins[0], pins[1]), orient in ("^", "up"))


ColumnsMove.parse = staticmethod(parse_columns_move)  # type: ignore[attr-defined]
