"""Discs drawn as text, north (rank 3) at the top.

Every hole and every gap between discs is a cell three characters wide, laid out by the board
coordinates of :mod:`geometry` (disc centres 4 apart, holes 1 from the centre), so the drawing
follows the geometry instead of repeating it:

* a hole shows ``S`` (silver) or ``K`` (black) for a pin, ``·`` when empty; a locking pin is
  bracketed, ``[S]``;
* the four cells of a disc that are not holes show its colour letter in lower case (``r``,
  ``g``, ``b``) on the disc's colour;
* lines show as ``───``, ``│`` and ``╲ ╱`` where two diagonals cross; a barrier replaces its
  line's mark with ``#`` (and is named under the board).
"""

from __future__ import annotations

from rich.text import Text

from rulebox.games.discs.geometry import (
    DISC_NAMES,
    DISC_SPACING,
    FILES,
    HOLE_NAMES,
    HOLES_PER_DISC,
    LINE_NAMES,
    LINES,
    NUM_HOLES,
    RANKS,
    hole_xy,
)
from rulebox.games.discs.moves import COLOUR_NAMES, COLOURS
from rulebox.games.discs.rules import Discs, Phase
from rulebox.i18n import _

SEATS = ("first", "second")
DISC_STYLES = {"R": "on dark_red", "G": "on dark_green", "B": "on navy_blue", "?": "on grey30"}
PIN_STYLES = {"silver": "bold black on grey82", "black": "bold white on grey11"}
PIN_LETTERS = {"silver": "S", "black": "K"}
LINE_STYLE = "dim"
BAR_STYLE = "bold yellow"

_SIZE = DISC_SPACING * (len(FILES) - 1) + 3  # coordinates -1 .. 9


def _hole_cells() -> dict[tuple[int, int], int]:
    return {hole_xy(h): h for h in range(NUM_HOLES)}


_HOLE_AT = _hole_cells()


def _line_cells() -> dict[tuple[int, int], list[tuple[int, str]]]:
    """For each gap cell, the lines through it and the mark each line leaves there."""
    cells: dict[tuple[int, int], list[tuple[int, str]]] = {}
    for i, (p, q) in enumerate(LINES):
        (xp, yp), (xq, yq) = hole_xy(p), hole_xy(q)
        mid = ((xp + xq) // 2, (yp + yq) // 2)
        if yp == yq:
            mark = "───"
        elif xp == xq:
            mark = " │ "
        else:
            mark = "╱" if (xq - xp) * (yq - yp) > 0 else "╲"
        cells.setdefault(mid, []).append((i, mark))
    return cells


_LINE_AT = _line_cells()


def _pin_text(game: Discs, hole: int) -> tuple[str, str]:
    owner = game.pin_at(hole)
    if owner < 0:
        return " · ", ""
    colour = game.pin_colour(owner) or "silver"
    letter = PIN_LETTERS[colour]
    locked = owner in (0, 1) and hole in (game.lock_hole(0), game.lock_hole(1))
    return (f"[{letter}]" if locked else f" {letter} "), PIN_STYLES[colour]


def _gap_text(game: Discs, lines: list[tuple[int, str]]) -> tuple[str, str]:
    barred = {game.barrier(0), game.barrier(1)}
    if len(lines) == 1:
        i, mark = lines[0]
        if i in barred:
            return mark.replace("─", "#").replace("│", "#"), BAR_STYLE
        return mark, LINE_STYLE
    # two diagonals cross here: "╲ ╱", a barred one shown as '#'
    marks = {mark: i for i, mark in lines}
    left = "#" if marks["╲"] in barred else "╲"
    right = "#" if marks["╱"] in barred else "╱"
    style = BAR_STYLE if barred & set(marks.values()) else LINE_STYLE
    return f"{left} {right}", style


def render(game: Discs, player: int | None = None) -> Text:
    """The discs, pins, locks and barriers; each player's tokens, starting discs still earning
    nothing, lock and barrier; whose turn it is and in which part of the turn."""
    drawing, key, facts, status = render_parts(game, player)
    return Text.assemble(drawing, key, facts, status)


def _drawing(game: Discs) -> Text:
    """The board alone (notation letters, no words)."""
    out = Text()
    for y in range(_SIZE - 2, -2, -1):
        r, ry = divmod(y + 1, DISC_SPACING)  # a disc covers 3 rows (ry 0..2), then a gap
        out.append(f" {RANKS[r] if ry == 1 else ' '} ")
        for x in range(-1, _SIZE - 1):
            f, fx = divmod(x + 1, DISC_SPACING)
            if (x, y) in _HOLE_AT:
                hole = _HOLE_AT[(x, y)]
                colour = game.disc_colour(hole // HOLES_PER_DISC)
                text, style = _pin_text(game, hole)
                out.append(text, style=style or DISC_STYLES[colour])
            elif (x, y) in _LINE_AT:
                out.append(*_gap_text(game, _LINE_AT[(x, y)]))
            elif fx < DISC_SPACING - 1 and ry < DISC_SPACING - 1:
                colour = game.disc_colour(DISC_NAMES.index(FILES[f] + RANKS[r]))
                out.append(f" {colour.lower()} ", style=DISC_STYLES[colour])
            else:
                out.append("   ")
        out.append("\n")
    out.append("   " + "".join(f"   {f:^3}      " for f in FILES).rstrip() + "\n")
    return out


def render_parts(game: Discs, player: int | None = None,
                 drawing: Text | None = None) -> tuple[Text, Text, Text, Text]:
    """The render in its parts, whatever the language: the drawing (the first lines), the key
    to its letters (none: the module's doc says them), the facts (each player's tokens, lock
    and barrier) and the status (whose turn and which part of it, or the end), in the order
    :func:`render` shows them."""
    if drawing is None:
        drawing = _drawing(game)
    facts = Text("\n")
    for p in (0, 1):
        colour = game.pin_colour(p)
        if colour is None:
            facts.append(" " + _("{seat}: no pins yet").format(seat=game.seat_name(p)) + "\n")
            continue
        facts.append(f" {PIN_LETTERS[colour]} ", style=PIN_STYLES[colour])
        tokens = game.tokens(p)
        have = ", ".join(_(COLOUR_NAMES[COLOURS.index(c)]) for c in tokens) or _("none")
        home = [DISC_NAMES[d] for d in game.home_discs(p)]
        lock, bar = game.lock_hole(p), game.barrier(p)
        facts.append(" " + _("{seat} ({colour}): tokens {tokens} ({have}); starting discs "
                             "earning nothing: {home}; lock {lock}; barrier {barrier}").format(
            seat=game.seat_name(p), colour=_(colour), tokens=tokens or "-", have=have,
            home=" ".join(home) or _("none"), lock=HOLE_NAMES[lock] if lock >= 0 else "-",
            barrier=LINE_NAMES[bar] if bar >= 0 else "-") + "\n")
    facts.append(" " + _("turns without a new token: {n}").format(n=game.quiet_turns) + "\n")
    status = Text("\n " + _phase(game) + "\n", style="bold")
    return drawing, Text(), facts, status


def _phase(game: Discs) -> str:
    """Whose turn it is and what they may do, in words (the end: who won and why)."""
    out = game.outcome()
    if out is not None:
        who = (_("{seat} wins").format(seat=game.seat_name(out.winners[0])) if out.winners
               else _("a draw"))
        return _("Game over: {who}: {reason}").format(who=who, reason=out.reason)
    p = game.current_player()
    seat = game.seat_name(p)
    if game.phase == Phase.ARRANGE:
        return _("{seat} arranges the discs (arrange RGBRGBRGB)").format(seat=seat)
    if game.phase == Phase.CHOOSE:
        return _("{seat} chooses a pin colour and two opposite corners "
                 "(choose silver a1c3)").format(seat=seat)
    pins = game.pin_colour(p)
    colour = _(pins) if pins else ""
    if game.phase == Phase.MAIN:
        return _("{seat} ({colour}) to move: main action (move a pin, turn a disc, "
                 "or pass)").format(seat=seat, colour=colour)
    left = []
    lock_done, bar_done = game.turn_flags()
    if not lock_done:
        left.append("lock/unlock")
    if not bar_done:
        left.append("bar/unbar")
    left.append("end")
    return _("{seat} ({colour}) to move: blocking actions ({actions})").format(
        seat=seat, colour=colour, actions=", ".join(left))
