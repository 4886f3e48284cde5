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
    out = Text()
    out.append("         " + "".join(f"{f:^6}" for f in FILES) + "\n")
    for rank in reversed(RANKS):
        for level in range(LEVELS, 0, -1):
            label = f"rank {rank}" if level == 3 else ""
            out.append(f"{label:>6} {level} ")
            for f in FILES:
                stack = game.stack(PIN_INDEX[f + rank])
                if level <= len(stack):
                    text, style = _cell(*stack[level - 1])
                    out.append(text, style=style)
                else:
                    out.append("  │  ", style=EMPTY_STYLE)
                out.append(" ")
            out.append("\n")
        out.append("         " + "".join(f"{f + rank:^6}" for f in FILES) + "\n\n")
    levels = game.roundels_by_level()
    for p in (0, 1):
        left = game.pieces_left(p)
        stock = " ".join(f"{left[k]}{k.letter if p == 0 else k.letter.lower()}" for k in Kind)
        out.append(f" {SEATS[p]:>5} ", style=STYLES[p])
        out.append(f" player {p} holds {stock}; roundels on level 5: {levels[p][4]}\n")
    out.append(" (● R roundel, ■ S single, ▬ D double, ▙ T triple blocker; numbers tell pieces "
               "apart;\n  light upper case, dark lower case)\n",
               style="dim")
    outcome = game.outcome()
    if outcome is None:
        p = game.current_player()
        out.append(f"\n To move: player {p} ({SEATS[p]})\n", style="bold")
    else:
        who = (
            f"player {outcome.winners[0]} ({SEATS[outcome.winners[0]]}) wins"
            if outcome.winners
            else "a draw"
        )
        out.append(f"\n Game over: {who}: {outcome.reason}\n", style="bold")
    return out
