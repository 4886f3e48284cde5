"""Discs actions: small frozen values with one canonical text each (PROTOCOL.md, discs).

Every action is one move of the protocol; the same player stays to move until ``end``.

==============================  =============================================================
``arrange RGBRGBRGB``           set-up: the colours of a1, b1, c1, a2, ..., c3 (three of each)
``choose silver a1c3``          set-up: player 1's pin colour and pair of corner discs
``b2.ne-c3.sw``                 a pin from the first hole to the second (a line or a disc step)
``b2+`` / ``b2-``               turn disc b2 a quarter turn clockwise / anticlockwise
``pass``                        no main action is possible
``lock b2.ne`` / ``unlock``     the rotation lock (reverse the own pin in b2.ne / release it)
``bar b2.ne-c3.sw`` / ``unbar`` the own barrier across a line (holes in string order) / off
``end``                         end the turn
==============================  =============================================================

The moves that can ever be legal are made once (:data:`STEPS_FROM`, :data:`TURNS`, ...), so
move generation hands out the same objects; parsing text may build others (a step between two
holes that are not neighbours, say), which the rules then refuse with a reason.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from enum import IntEnum

from rulebox.core.errors import InvalidMoveError
from rulebox.games.discs.geometry import (
    ANTICLOCKWISE_DIR,
    CLOCKWISE_DIR,
    CORNER_PAIR_NAMES,
    DISC_INDEX,
    DISC_NAMES,
    HOLE_INDEX,
    HOLE_NAMES,
    INNER_NEIGHBOURS,
    LINES,
    LINES_AT,
    NUM_DISCS,
    NUM_HOLES,
    NUM_LINES,
    line_between,
)
from rulebox.i18n import N_, _

COLOURS = "RGB"
"""Disc colours: red, green, blue (token bit ``1 << index``)."""
COLOUR_NAMES = ("red", "green", "blue")
PIN_COLOURS = ("silver", "black")


class Kind(IntEnum):
    """What an action does."""

    STEP = 0
    TURN = 1
    PASS = 2
    LOCK = 3
    UNLOCK = 4
    BAR = 5
    UNBAR = 6
    END = 7
    ARRANGE = 8
    CHOOSE = 9


MAIN_KINDS = frozenset({Kind.STEP, Kind.TURN, Kind.PASS})
BLOCK_KINDS = frozenset({Kind.LOCK, Kind.UNLOCK, Kind.BAR, Kind.UNBAR, Kind.END})
SETUP_KINDS = frozenset({Kind.ARRANGE, Kind.CHOOSE})


@dataclass(frozen=True, slots=True)
class DiscsMove:
    """One action.

    ``a`` and ``b``: STEP from hole ``a`` to hole ``b``; TURN disc ``a`` in direction ``b``
    (+1 clockwise, -1 anticlockwise); LOCK hole ``a``; BAR holes ``a`` < ``b``; CHOOSE pin
    colour ``a`` (0 silver, 1 black) and corner pair ``b`` (0 a1c3, 1 a3c1).
    ``line`` is the line a STEP or BAR uses (-1: none; a step inside a disc uses none).
    ``layout`` is an ARRANGE's colour letters in the order a1, b1, c1, a2, ..., c3.
    """

    kind: Kind
    a: int = -1
    b: int = -1
    line: int = -1
    layout: str = ""

    def __str__(self) -> str:
        k = self.kind
        if k == Kind.STEP:
            return f"{HOLE_NAMES[self.a]}-{HOLE_NAMES[self.b]}"
        if k == Kind.TURN:
            return DISC_NAMES[self.a] + ("+" if self.b == CLOCKWISE_DIR else "-")
        if k == Kind.LOCK:
            return f"lock {HOLE_NAMES[self.a]}"
        if k == Kind.BAR:
            return f"bar {HOLE_NAMES[self.a]}-{HOLE_NAMES[self.b]}"
        if k == Kind.ARRANGE:
            return f"arrange {self.layout}"
        if k == Kind.CHOOSE:
            return f"choose {PIN_COLOURS[self.a]} {CORNER_PAIR_NAMES[self.b]}"
        return k.name.lower()

    def __repr__(self) -> str:
        return f"DiscsMove.parse({str(self)!r})"


PASS = DiscsMove(Kind.PASS)
UNLOCK = DiscsMove(Kind.UNLOCK)
UNBAR = DiscsMove(Kind.UNBAR)
END = DiscsMove(Kind.END)

INNER_LINE = -2
"""The line value of a step inside a disc in :data:`STEPS_FROM` (never equal to a barrier)."""

STEPS_FROM: tuple[tuple[tuple[int, int, DiscsMove], ...], ...] = tuple(
    tuple((q, INNER_LINE, DiscsMove(Kind.STEP, h, q)) for q in INNER_NEIGHBOURS[h])
    + tuple((q, line, DiscsMove(Kind.STEP, h, q, line)) for q, line in LINES_AT[h])
    for h in range(NUM_HOLES)
)
"""For each hole: (destination, line or INNER_LINE, move) of every step a pin there may take."""

STEP_MOVES: dict[tuple[int, int], DiscsMove] = {
    (m.a, m.b): m for steps in STEPS_FROM for _, _, m in steps
}

TURNS: tuple[tuple[DiscsMove, DiscsMove], ...] = tuple(
    (DiscsMove(Kind.TURN, d, CLOCKWISE_DIR), DiscsMove(Kind.TURN, d, ANTICLOCKWISE_DIR))
    for d in range(NUM_DISCS)
)
LOCKS: tuple[DiscsMove, ...] = tuple(DiscsMove(Kind.LOCK, h) for h in range(NUM_HOLES))
"""``lock <hole>`` for every hole (move generation offers only the outer ones, DSC-3)."""
BARS: tuple[DiscsMove, ...] = tuple(DiscsMove(Kind.BAR, p, q, i) for i, (p, q) in enumerate(LINES))

FREE_BARS: tuple[tuple[tuple[DiscsMove, ...], ...], ...] = tuple(
    tuple(
        tuple(m for i, m in enumerate(BARS) if i not in (b0, b1))
        for b1 in range(-1, NUM_LINES)
    )
    for b0 in range(-1, NUM_LINES)
)
"""``FREE_BARS[b0 + 1][b1 + 1]``: a ``bar`` move for every line that holds neither barrier."""

ARRANGEMENTS: tuple[DiscsMove, ...] = tuple(
    DiscsMove(Kind.ARRANGE, layout="".join(p))
    for p in sorted(set(itertools.permutations(COLOURS * 3)))
)
"""The 1680 ways to arrange three discs of each colour."""

CHOICES: tuple[DiscsMove, ...] = tuple(
    DiscsMove(Kind.CHOOSE, c, pair) for c in range(2) for pair in range(2)
)

_HOLE = r"([a-z]\d)\.(c|ne|nw|se|sw)"
_STEP = re.compile(rf"^{_HOLE}-{_HOLE}$")
_TURN = re.compile(r"^([a-z]\d)([+-])$")
_WORDS = {"pass": PASS, "unlock": UNLOCK, "unbar": UNBAR, "end": END}
_HELP = N_("write a pin move b2.ne-c3.sw, a turn b2+ or b2-, pass, lock b2.ne, unlock, "
           "bar b2.ne-c3.sw, unbar, end, or at the set-up arrange RGBRGBRGB / choose silver "
           "a1c3")


def _hole(text: str, name: str) -> int:
    if name not in HOLE_INDEX:
        raise InvalidMoveError(text, _("there is no hole {name} (holes are a1.c to "
                                       "c3.sw)").format(name=name))
    return HOLE_INDEX[name]


def _two_holes(text: str, body: str) -> tuple[int, int]:
    m = _STEP.match(body)
    if not m:
        raise InvalidMoveError(text, _("write two holes joined by '-', e.g. b2.ne-c3.sw"))
    return _hole(text, f"{m[1]}.{m[2]}"), _hole(text, f"{m[3]}.{m[4]}")


def parse_discs_move(text: str) -> DiscsMove:
    """Read an action's text (case and spaces do not matter). Holes and discs must exist;
    whether the action is legal is for the rules to say."""
    if len(text) > 100:
        raise InvalidMoveError(text, _("too long for a Discs action"))
    words = text.lower().split()
    if not words:
        raise InvalidMoveError(text, _(_HELP))
    verb, rest = words[0], "".join(words[1:])
    if verb in _WORDS and not rest:
        return _WORDS[verb]
    if verb == "arrange":
        layout = rest.upper()
        if len(layout) != NUM_DISCS or set(layout) - set(COLOURS):
            raise InvalidMoveError(
                text, _("arrange takes 9 letters R, G or B for a1, b1, c1, a2, ..., c3")
            )
        return DiscsMove(Kind.ARRANGE, layout=layout)
    if verb == "choose":
        corners = "".join(words[2:])  # "a1c3", "a1 c3" or "c3 a1"
        if len(words) < 3 or words[1] not in PIN_COLOURS or len(corners) != 4 or "".join(
            sorted((corners[:2], corners[2:]))
        ) not in CORNER_PAIR_NAMES:
            raise InvalidMoveError(text, _("write choose silver|black a1c3|a3c1"))
        pair = "".join(sorted((corners[:2], corners[2:])))
        return DiscsMove(Kind.CHOOSE, PIN_COLOURS.index(words[1]), CORNER_PAIR_NAMES.index(pair))
    if verb == "lock":
        m = re.match(rf"^{_HOLE}$", rest)
        if not m:
            raise InvalidMoveError(text, _("write lock and a hole, e.g. lock b2.ne"))
        return DiscsMove(Kind.LOCK, _hole(text, f"{m[1]}.{m[2]}"))
    if verb == "bar":
        p, q = _two_holes(text, rest)
        p, q = min(p, q), max(p, q)
        return DiscsMove(Kind.BAR, p, q, line_between(p, q))
    body = "".join(words)
    m = _TURN.match(body)
    if m:
        if m[1] not in DISC_INDEX:
            raise InvalidMoveError(text, _("there is no disc {m} (discs are a1 to c3)").format(
                                             m=m[1]))
        direction = CLOCKWISE_DIR if m[2] == "+" else ANTICLOCKWISE_DIR
        return TURNS[DISC_INDEX[m[1]]][0 if direction == CLOCKWISE_DIR else 1]
    if _STEP.match(body):
        p, q = _two_holes(text, body)
        known = STEP_MOVES.get((p, q))
        return known if known is not None else DiscsMove(Kind.STEP, p, q, line_between(p, q))
    raise InvalidMoveError(text, _(_HELP))


DiscsMove.parse = staticmethod(parse_discs_move)  # type: ignore[attr-defined]
