"""Columns (David Ward): the rules COL-1..COL-10 of RULINGS.md.

The position is kept as one stack of piece numbers per pin (bottom first). Every placed piece
gets a number (1, 2, ...) in the order it was placed; ``_owner`` and ``_kind`` describe it. The
number lets the rules tell whether two supports belong to the same piece (COL-6, COL-7).
The legal moves of the player to move are generated once per move and cached, because the
game ends as soon as that list is empty (COL-8).

The diagram (:meth:`Columns.diagram`, read by ``from_diagram`` and the engine's ``load``) is one
line: the pins rank by rank as the board is drawn (rank 3 first, ranks separated by ``/``), files
``a``-``d`` separated by ``,``, each pin's units bottom first (``.`` an empty pin), then the
player to move. Light (player 0) units are upper case, dark (player 1) lower case: ``R`` roundel,
``S`` single blocker, ``D<n>`` / ``T<n>`` a unit of double / triple blocker number ``n`` (the
units of one piece share its number; pieces are numbered 1, 2, ... in the order the diagram
meets them). The pieces in hand follow from the board. The start with dark to move, and the
position after ``Ra1 Da2b2 Tb1c1^`` (dark's double on rank 2, light's triple thick on b1)::

    .,.,.,./.,.,.,./.,.,.,. 1
    .,.,.,./d1,d1,.,./R,T2T2,T2,. 1
"""

from __future__ import annotations

import re
from typing import Any, Self

from rulebox.core.errors import Illegal, StateError
from rulebox.core.game import TERMINAL, Game, Outcome
from rulebox.core.numerals import plain_digits
from rulebox.core.options import int_option
from rulebox.games.columns.geometry import (
    DIRECTED_PAIRS,
    FILES,
    LEVELS,
    NUM_PINS,
    PAIRS,
    PIN_INDEX,
    PIN_NAMES,
    RANKS,
    adjacent,
)
from rulebox.games.columns.moves import (
    DOUBLES,
    ROUNDELS,
    SINGLES,
    STOCK,
    TRIPLES_DOWN,
    TRIPLES_UP,
    ColumnsMove,
    Kind,
    parse_columns_move,
)
from rulebox.games.columns.words import SEAT_NAMES
from rulebox.games.columns.words import describe as _describe
from rulebox.games.columns.words import highlights as _highlights
from rulebox.i18n import N_, _

_R_ITEMS = tuple(enumerate(ROUNDELS))
_UNIT = re.compile(r"[RSrs]|[DTdt]\d+")
_START_DIAGRAM = ".,.,.,./.,.,.,./.,.,.,. 0"
_S_ITEMS = tuple(enumerate(SINGLES))
_D_ITEMS = tuple((a, b, m) for (a, b), m in zip(PAIRS, DOUBLES, strict=True))
_TU_ITEMS = tuple((a, b, m) for (a, b), m in zip(DIRECTED_PAIRS, TRIPLES_UP, strict=True))
_TD_ITEMS = tuple((a, b, m) for (a, b), m in zip(DIRECTED_PAIRS, TRIPLES_DOWN, strict=True))


class Columns(Game):
    """A game of Columns. Player 0 is light, player 1 dark."""

    id = "columns"
    title = "Columns"
    player_counts = (2,)
    option_specs = (int_option("first", 0, N_("who places first (COL-10)"), 0, 1),)
    max_moves = 2 * sum(STOCK.values())
    return_bounds = (-1.0, 1.0)
    seat_names = SEAT_NAMES

    def _setup(self) -> None:
        self._stacks: list[list[int]] = [[] for _ in range(NUM_PINS)]
        self._owner: list[int] = [-1]  # piece 0 is "the board"
        self._kind: list[int] = [-1]
        self._left: list[list[int]] = [[STOCK[k] for k in Kind] for _ in range(2)]
        self._to_move: int = self.opts["first"]
        self._h: list[int] = [0] * NUM_PINS
        self._top: list[int] = [0] * NUM_PINS
        self._blk: list[int] = [-1] * NUM_PINS
        self._refresh(range(NUM_PINS))
        self._legal: list[ColumnsMove] = self._generate()

    # --- state --------------------------------------------------------------------------------
    def current_player(self) -> int:
        return self._to_move if self._legal else TERMINAL

    def pieces_left(self, player: int) -> dict[Kind, int]:
        """How many pieces of each kind ``player`` still holds."""
        return {k: self._left[player][k] for k in Kind}

    def stack(self, pin: int) -> list[tuple[int, Kind, int]]:
        """The units on a pin, bottom first, as (owner, kind, piece number)."""
        return [(self._owner[c], Kind(self._kind[c]), c) for c in self._stacks[pin]]

    # --- moves --------------------------------------------------------------------------------
    def _refresh(self, pins: tuple[int, ...] | range) -> None:
        """Recompute the height, top piece and top-blocker owner of the given pins.

        An empty pin's top is a number of its own (below 0), so that "the two supports are
        different pieces" is simply ``top[a] != top[b]`` (the board is no piece)."""
        for pin in pins:
            stack = self._stacks[pin]
            self._h[pin] = len(stack)
            if stack:
                top = stack[-1]
                self._top[pin] = top
                self._blk[pin] = self._owner[top] if self._kind[top] != Kind.ROUNDEL else -1
            else:
                self._top[pin] = -1 - pin
                self._blk[pin] = -1

    def _generate(self) -> list[ColumnsMove]:
        """Every legal placement of the player to move (the hot path: comprehensions over
        precomputed move tables, with heights and tops kept up to date by apply/undo)."""
        p = self._to_move
        left = self._left[p]
        h = self._h
        t = self._top
        out: list[ColumnsMove] = []
        if left[Kind.ROUNDEL]:
            blk = self._blk
            opp = 1 - p
            out += [m for pin, m in _R_ITEMS if h[pin] < LEVELS and blk[pin] != opp]
        if left[Kind.SINGLE]:
            out += [m for pin, m in _S_ITEMS if h[pin] < LEVELS]
        if left[Kind.DOUBLE]:
            out += [m for a, b, m in _D_ITEMS if h[a] == h[b] < LEVELS and t[a] != t[b]]
        if left[Kind.TRIPLE]:
            top = LEVELS - 2
            out += [m for a, b, m in _TU_ITEMS if h[a] == h[b] <= top and t[a] != t[b]]
            out += [m for a, b, m in _TD_ITEMS if h[a] <= top and h[b] == h[a] + 1 and t[a] != t[b]]
        return out

    def legal_moves(self) -> list[ColumnsMove]:
        return list(self._legal)

    def parse_move(self, text: str) -> ColumnsMove:
        return parse_columns_move(text)

    def illegal_reason(self, move: Any) -> Illegal | None:
        if not isinstance(move, ColumnsMove):
            return Illegal(_("{move!r} is not a Columns move").format(move=move), "COL-1")
        if move in self._legal:
            return None
        p = self._to_move
        kind = move.kind
        if self._left[p][kind] == 0:
            return Illegal(kind.none_left(), "COL-1")
        heights = [len(s) for s in self._stacks]
        if kind in (Kind.ROUNDEL, Kind.SINGLE):
            (pin,) = move.pins
            if heights[pin] >= LEVELS:
                return Illegal(_("pin {pin} is full (5 levels)").format(
                    pin=PIN_NAMES[pin]), "COL-3")
            top = self._stacks[pin][-1]
            return Illegal(
                _("a roundel may not sit directly on an opponent's blocker ({unit:nom} "
                  "on {pin})").format(unit=Kind(self._kind[top]).the, pin=PIN_NAMES[pin]),
                "COL-4",
            )
        a, b = move.pins
        unit = kind.a
        if a == b or not adjacent(a, b):
            return Illegal(
                _("{unit:nom} spans two orthogonally adjacent pins; {pin} and {pin2} are "
                  "not").format(unit=unit, pin=PIN_NAMES[a], pin2=PIN_NAMES[b]),
                "COL-6" if kind is Kind.DOUBLE else "COL-7",
            )
        ha, hb = heights[a], heights[b]
        if kind is Kind.DOUBLE:
            if ha != hb:
                return Illegal(
                    _("a double blocker needs two stacks of the same height; {pin} has "
                      "{ha} and {pin2} has {hb}, which would leave a gap").format(
                        pin=PIN_NAMES[a], ha=ha, pin2=PIN_NAMES[b], hb=hb),
                    "COL-2",
                )
            if ha >= LEVELS:
                return Illegal(_("level {ha} is above the top of the pins").format(
                    ha=ha + 1), "COL-3")
            return Illegal(
                _("a double blocker may not rest on the same piece at both ends (back to back)"),
                "COL-6",
            )
        thick, thin = a, b
        need = ha if move.up else ha + 1
        if hb != need:
            shape = (_("thick end up (flat bottom) needs both stacks the same height") if move.up
                     else _("thick end down needs the thin pin's stack one higher than the thick "
                            "pin's"))
            return Illegal(
                _("a triple {shape}; {pin} has {ha} and {pin2} has {hb}, which would "
                  "leave a gap").format(
                    shape=shape, pin=PIN_NAMES[thick], ha=ha, pin2=PIN_NAMES[thin], hb=hb),
                "COL-2",
            )
        if ha + 2 > LEVELS:
            return Illegal(
                _("the triple's thick end would reach level {ha}, above level 5").format(
                    ha=ha + 2), "COL-3"
            )
        return Illegal(
            _("a triple blocker may not rest on the same piece at both ends"), "COL-7"
        )

    def apply_unchecked(self, move: ColumnsMove) -> None:
        p = self._to_move
        code = len(self._owner)
        self._owner.append(p)
        self._kind.append(move.kind)
        self._left[p][move.kind] -= 1
        stacks = self._stacks
        kind = move.kind
        if kind <= Kind.SINGLE:
            stacks[move.pins[0]].append(code)
        elif kind == Kind.DOUBLE:
            stacks[move.pins[0]].append(code)
            stacks[move.pins[1]].append(code)
        else:
            thick = stacks[move.pins[0]]
            thick.append(code)
            thick.append(code)
            stacks[move.pins[1]].append(code)
        self._refresh(move.pins)
        self._history.append(move)
        self._to_move = 1 - p
        self._legal = self._generate()

    def _undo_last(self) -> None:
        move: ColumnsMove = self._history[-1]
        code = len(self._owner) - 1
        p = self._owner.pop()
        self._kind.pop()
        self._left[p][move.kind] += 1
        for pin in set(move.pins):
            stack = self._stacks[pin]
            while stack and stack[-1] == code:
                stack.pop()
        self._refresh(move.pins)
        self._to_move = p
        self._legal = self._generate()

    # --- the end ------------------------------------------------------------------------------
    def roundels_by_level(self) -> list[list[int]]:
        """``[player][level - 1]``: roundels each player has on each level (COL-9)."""
        counts = [[0] * LEVELS for _ in range(2)]
        for stack in self._stacks:
            for level, code in enumerate(stack):
                if self._kind[code] == Kind.ROUNDEL:
                    counts[self._owner[code]][level] += 1
        return counts

    def outcome(self) -> Outcome | None:
        if self._legal:
            return None
        counts = self.roundels_by_level()
        scores = (counts[0][4], counts[1][4])
        for level in range(LEVELS - 1, -1, -1):
            a, b = counts[0][level], counts[1][level]
            if a != b:
                winner = 0 if a > b else 1
                # made in the current language each time it is asked (the reader's)
                if level == 4:
                    why = _("more roundels on level 5 ({a} to {b})")
                else:
                    why = _("more roundels tie-break on level {level} ({a} to {b})")
                return Outcome((winner,), scores, why.format(level=level + 1, a=max(a, b),
                                                             b=min(a, b)))
        return Outcome((), scores, _("tied on every level"))

    def returns(self) -> list[float]:
        out = self.outcome()
        if out is None or not out.winners:
            return [0.0, 0.0]
        w = out.winners[0]
        return [1.0 if i == w else -1.0 for i in range(2)]

    # --- copies and serialisation -------------------------------------------------------------
    def clone(self) -> Self:
        g = self._bare_copy()
        g._stacks = [list(s) for s in self._stacks]
        g._owner = list(self._owner)
        g._kind = list(self._kind)
        g._left = [list(x) for x in self._left]
        g._to_move = self._to_move
        g._h = list(self._h)
        g._top = list(self._top)
        g._blk = list(self._blk)
        g._legal = list(self._legal)
        return g

    def _unit_text(self, code: int) -> str:
        kind = Kind(self._kind[code])
        text = f"{self._owner[code]}{kind.letter}"
        if kind in (Kind.DOUBLE, Kind.TRIPLE):
            text += str(code)
        return text

    def position_json(self) -> dict[str, Any]:
        """``pins``: each pin's units bottom first, as ``<owner><kind>[piece number]``
        (``0R``, ``1S``, ``0D3``, ``1T7``: units with the same number are one piece)."""
        return {
            "to_move": self._to_move,
            "pins": {
                PIN_NAMES[i]: [self._unit_text(c) for c in s]
                for i, s in enumerate(self._stacks)
            },
        }

    def _load_position(self, data: dict[str, Any]) -> None:
        to_move = data.get("to_move")
        if to_move not in (0, 1):
            raise StateError(_("to_move must be 0 or 1"))
        pins = data.get("pins")
        if not isinstance(pins, dict) or set(pins) - set(PIN_NAMES):
            raise StateError(_("pins must map pin names a1..d3 to lists of units"))
        self._setup()
        self._to_move = to_move
        labels: dict[str, int] = {}
        where: dict[int, list[tuple[int, int]]] = {}
        for name in PIN_NAMES:
            units = pins.get(name, [])
            if not isinstance(units, list) or len(units) > LEVELS:
                raise StateError(_("pin {name}: at most 5 units, as a list").format(
                                     name=name) + " [COL-3]")
            for level, unit in enumerate(units):
                if not isinstance(unit, str) or len(unit) < 2 or unit[0] not in "01" or (
                    unit[1] not in "RSDT"
                ):
                    raise StateError(_("pin {name}: bad unit {unit!r}").format(
                                         name=name, unit=unit))
                owner, kind = int(unit[0]), Kind("RSDT".index(unit[1]))
                if kind in (Kind.DOUBLE, Kind.TRIPLE):
                    label = unit
                    if len(unit) < 3 or not plain_digits(unit[2:]):
                        raise StateError(_("pin {name}: {unit!r} needs a piece number").format(
                                             name=name, unit=unit))
                    code = labels.get(label)
                    if code is None:
                        code = labels[label] = self._new_piece(owner, kind)
                else:
                    if len(unit) != 2:
                        raise StateError(_("pin {name}: bad unit {unit!r}").format(
                                             name=name, unit=unit))
                    code = self._new_piece(owner, kind)
                self._stacks[PIN_INDEX[name]].append(code)
                where.setdefault(code, []).append((PIN_INDEX[name], level))
        for label, code in labels.items():
            self._check_shape(label, Kind(self._kind[code]), where[code])
        for p in (0, 1):
            for k in Kind:
                if self._left[p][k] < 0:
                    raise StateError(
                        _("player {p} has more pieces of a kind on the board than exist: "
                          "{unit:nom}").format(p=p, unit=k.a) + " [COL-1]"
                    )
        self._refresh(range(NUM_PINS))
        self._legal = self._generate()

    def _new_piece(self, owner: int, kind: Kind) -> int:
        self._owner.append(owner)
        self._kind.append(kind)
        self._left[owner][kind] -= 1
        return len(self._owner) - 1

    @staticmethod
    def _check_shape(label: str, kind: Kind, cells: list[tuple[int, int]]) -> None:
        pins = sorted({pin for pin, _ in cells})
        ok = len(pins) == 2 and adjacent(*pins)
        if ok and kind is Kind.DOUBLE:
            ok = len(cells) == 2 and cells[0][1] == cells[1][1]
        elif ok:
            by_pin = {pin: sorted(lv for q, lv in cells if q == pin) for pin in pins}
            thick = [q for q in pins if len(by_pin[q]) == 2]
            thin = [q for q in pins if len(by_pin[q]) == 1]
            ok = len(cells) == 3 and len(thick) == 1 and len(thin) == 1
            if ok:
                t, n = by_pin[thick[0]], by_pin[thin[0]][0]
                ok = t[1] == t[0] + 1 and n in (t[0], t[1])
        if not ok:
            raise StateError(_("piece {label} does not have the shape of {unit:gen}").format(
                                 label=label, unit=kind.a))

    # --- the diagram (see the module docstring) ----------------------------------------------
    def diagram(self) -> str:
        numbers: dict[int, int] = {}
        ranks = []
        for rank in reversed(RANKS):
            pins = []
            for f in FILES:
                units = []
                for code in self._stacks[PIN_INDEX[f + rank]]:
                    kind = self._kind[code]
                    letter = "RSDT"[kind]
                    if self._owner[code]:
                        letter = letter.lower()
                    if kind >= Kind.DOUBLE:
                        letter += str(numbers.setdefault(code, len(numbers) + 1))
                    units.append(letter)
                pins.append("".join(units) or ".")
            ranks.append(",".join(pins))
        return "/".join(ranks) + f" {self._to_move}"

    @classmethod
    def _read_diagram(cls, text: str) -> tuple[dict[str, Any], dict[str, str]]:
        fields = text.split(" ")
        ranks = fields[0].split("/")
        if len(fields) != 2 or fields[1] not in ("0", "1") or len(ranks) != len(RANKS):
            raise StateError(
                _("a Columns diagram is three ranks of four pins (rank 3 first, ranks "
                  "split by '/', pins by ','), then the player to move, e.g. "
                  "{start_diagram!r}").format(start_diagram=_START_DIAGRAM)
            )
        pins: dict[str, list[str]] = {}
        for rank, row in zip(reversed(RANKS), ranks, strict=True):
            cells = row.split(",")
            if len(cells) != len(FILES):
                raise StateError(_("rank {rank} of the diagram needs 4 pins, a to d: "
                                   "{row!r}").format(rank=rank, row=row[:40]))
            for f, cell in zip(FILES, cells, strict=True):
                name = f + rank
                if cell == ".":
                    continue
                units = _UNIT.findall(cell)
                if "".join(units) != cell:
                    raise StateError(
                        _("pin {name}: {cell!r} is not a stack of units (R, S, D<n>, "
                          "T<n>; dark in lower case)").format(name=name, cell=cell[:20])
                    )
                pins[name] = [
                    ("1" if u[0].islower() else "0") + u[0].upper() + u[1:] for u in units
                ]
        return {"to_move": int(fields[1]), "pins": pins}, {}

    def view(self, player: int | None) -> dict[str, Any]:
        data = super().view(player)
        data["left"] = [{k.letter: self._left[p][k] for k in Kind} for p in (0, 1)]
        return data

    def position_key(self) -> Any:
        return (self._to_move, tuple(tuple(self._unit_text(c) for c in s) for s in self._stacks))

    # --- in words (issue 17; the texts live in words.py) ---------------------------------------
    def describe(self, move: Any) -> str:
        return _describe(self, self.as_move(move))

    def highlights(self) -> list[str]:
        return _highlights(self)
