"""Columns drawn as text: each rank of pins as a row of columns, level 5 at the top.

Light (player 0) pieces are upper-case letters, dark (player 1) lower-case, so the board reads
without colour too: R/r roundel, S/s single, D/d double, T/t triple; a two- or three-unit piece
carries its number so its units can be told apart.
"""

from __future__ import annotations

from rich.text import Text

from rulebox.games.columns.geometry import FILES, LEVELS, PIN_INDEX, RANKS
from rulebox.games.columns.moves import Kind
from rulebox.games.columns.rules import Columns
from rulebox.i18n import _

SEATS = ("light", "dark")
STYLES = ("bold black on bright_yellow", "bold bright_white on blue")
EMPTY_STYLE = "dim"


GLYPHS = {Kind.ROUNDEL: "●", Kind.SINGLE: "■", Kind.DOUBLE: "▬", Kind.TRIPLE: "▙"}


def _cell(owner: int, kind: Kind, code: int) -> tuple[str, str]:
    letter = kind.letter if owner == 0 else kind.letter.lower()
    label = GLYPHS[kind] + letter + (str(code) if kind in (Kind.DOUBLE, Kind.TRIPLE) else "")
    return f" {label:<4}", STYLES[owner]


def render(game: Columns, player: int | None = None) -> Text:
    """The board, each player's stock and whose turn it is."""
    drawing, key, facts, status = render_parts(game, player)
    return Text.assemble(drawing, facts, key, status)


def render_parts(game: Columns, player: int | None = None) -> tuple[Text, Text, Text, Text]:
    """The render in its parts, whatever the language: the drawing (the first lines), the key
    to its letters, the facts (each player's stock) and the status (whose turn, or the end);
    :func:`render` shows them in that order but the key after the facts."""
    out = Text()
    # each rank's label in the reader's language ("rank 3", "Reihe 3", "ряд 3"); the drawing is
    # as wide as the longest, at least as wide as the English
    labels = {rank: _("rank {rank}").format(rank=rank) for rank in RANKS}
    width = max(6, *(len(label) for label in labels.values()))
    indent = " " * (width + 3)
    out.append(indent + "".join(f"{f:^6}" for f in FILES) + "\n")
    for rank in reversed(RANKS):
        for level in range(LEVELS, 0, -1):
            label = labels[rank] if level == 3 else ""
            out.append(f"{label:>{width}} {level} ")
            for f in FILES:
                stack = game.stack(PIN_INDEX[f + rank])
                if level <= len(stack):
                    text, style = _cell(*stack[level - 1])
                    out.append(text, style=style)
                else:
                    out.append("  │  ", style=EMPTY_STYLE)
                out.append(" ")
            out.append("\n")
        out.append(indent + "".join(f"{f + rank:^6}" for f in FILES) + "\n\n")
    facts = Text()
    levels = game.roundels_by_level()
    for p in (0, 1):
        left = game.pieces_left(p)
        stock = " ".join(f"{left[k]}{k.letter if p == 0 else k.letter.lower()}" for k in Kind)
        facts.append(f" {game.seat_name(p):>5} ", style=STYLES[p])
        facts.append(" " + _("holds {stock}; roundels on level 5: {n}").format(
            stock=stock, n=levels[p][4]) + "\n")
    key = Text(_(" (● R roundel, ■ S single, ▬ D double, ▙ T triple blocker; numbers tell "
                 "pieces apart;\n  {light} upper case, {dark} lower case)").format(
                   light=game.seat_name(0), dark=game.seat_name(1)) + "\n", style="dim")
    status = Text()
    outcome = game.outcome()
    if outcome is None:
        seat = game.seat_name(game.current_player())
        status.append("\n " + _("To move: {seat}").format(seat=seat) + "\n", style="bold")
    else:
        who = (_("{seat} wins").format(seat=game.seat_name(outcome.winners[0]))
               if outcome.winners else _("a draw"))
        status.append("\n " + _("Game over: {who}: {reason}").format(
            who=who, reason=outcome.reason) + "\n", style="bold")
    return out, key, facts, status
