"""The board as the terminal shows it: the game's own render (read-only here), the last move
marked, words mended, and Columba's cell codes explained.

The last move is marked without touching the render modules: the board before the move and the
board after it are drawn for the same seat, and the characters of the board's drawing that the
move changed are shown in reverse video (a piece placed, a cube taken, a field left and a field
reached). When a move redraws most of the board (Columba's territory growing to the west or the
north shifts every column) nothing is marked; the status line still names the move."""

from __future__ import annotations

import re
import sys
from itertools import pairwise

from rich.text import Text

from rulebox.cli.text import agree
from rulebox.core.game import Game
from rulebox.core.registry import game_entry
from rulebox.i18n import N_, _

MARK_STYLE = "reverse bold"
MOST_CHANGED = 40
"""More changed characters than this and the move is not marked (the drawing shifted)."""

COLUMBA_LEGEND = N_("""\
Cell codes (Columba):
  ·      an empty square            W G B K  wild pigeon: white, grey, brown, black
  w g b k  domesticated tile         F        falcon
  then   .  no estate, 0-3  the estate's owner: {owners}
  S / L  small / large dovecote     p        pond
  *      laid this turn             !        cut off by a falcon (wild again)
  e.g. `G1L`: a grey wild pigeon in the estate of {seat1} (1), with a large dovecote;
  `W.`: white, no estate""")
"""Columba's cell codes (the ``notation`` command), said in the current language with the
seats' names (:func:`legend`)."""


def render(game: Game, player: int | None) -> Text:
    """The game's own drawing for ``player`` (``None``: everything public), words mended and
    without its ``Game over`` line: the surface says the end once, in its own words
    (:func:`rulebox.cli.text.end_message`, which knows the seats and the teams)."""
    drawn = game_entry(game.id).render(game, player)
    text = drawn if isinstance(drawn, Text) else Text(str(drawn))
    split = parts(game, player) if game.is_terminal() else None
    if split is not None:  # the status of a finished game is its `Game over` line
        ending = {line.strip() for line in split[3].plain.split("\n") if line.strip()}
        lines = text.split("\n", allow_blank=True)
        kept = [line for line in lines if line.plain.strip() not in ending]
        if len(kept) != len(lines):
            text = Text("\n").join(kept)
    return _mend(text)


def parts(game: Game, player: int | None) -> tuple[Text, Text, Text, Text] | None:
    """The game's render in its parts, whatever the language: ``(drawing, key, facts,
    status)`` from the render module's ``render_parts`` (the drawing is the render's first
    lines; the key explains its letters; the facts are holdings and scores; the status says
    whose turn it is, or the end); ``None`` for a game whose render has no parts (its whole
    render is then the drawing)."""
    module = sys.modules.get(getattr(game_entry(game.id).render, "__module__", "") or "")
    split = getattr(module, "render_parts", None)
    if not callable(split):
        return None
    found = split(game, player)
    return found if isinstance(found, tuple) and len(found) == 4 else None


def text_parts(game: Game, player: int | None) -> tuple[list[str], list[str], list[str]]:
    """The words under the drawing as lines (blank ones dropped, words mended): the key, the
    facts and the status (its last line says whose turn it is)."""
    split = parts(game, player)
    if split is None:
        return [], [], []

    def lines(text: Text) -> list[str]:
        return [agree(line.rstrip()) for line in text.plain.split("\n") if line.strip()]

    return lines(split[1]), lines(split[2]), lines(split[3])


def _mend(text: Text) -> Text:
    lines = text.split("\n", allow_blank=True)
    out = []
    changed = False
    for line in lines:
        fixed = agree(line.plain)
        if fixed != line.plain:
            changed = True
            out.append(Text(fixed, style=line.style))
        else:
            out.append(line)
    return Text("\n").join(out) if changed else text


def board_lines(game: Game, player: int | None) -> int:
    """How many lines of the render for ``player`` are the drawing of the board (from the
    render's parts, so in any language)."""
    split = parts(game, player)
    if split is None:
        return render(game, player).plain.count("\n") + 1
    return split[0].plain.count("\n")


def last_turn(movers: list[int], players: int = 2) -> int:
    """How many moves the last turn had: the trailing run of one mover (Columba's place, cote
    and end; Count Red's bonus move). With one player (36 to 1) every move is a turn: the run
    of one mover would be the whole game."""
    if not movers or players == 1:
        return 1
    k = 1
    while k < len(movers) and movers[-k - 1] == movers[-1]:
        k += 1
    return k


def marked(game: Game, player: int | None, back: int = 1) -> Text:
    """The board for ``player`` with what the last ``back`` moves changed in reverse video."""
    after = render(game, player)
    if not game.history:
        return after
    try:
        prev = game.clone()
        for _n in range(min(back, len(game.history))):
            prev.undo()
        before = render(prev, player).plain
    except Exception:  # a nicety never breaks the screen
        return after
    n_after = board_lines(game, player)
    n_before = board_lines(prev, player)
    spans = changes(after.plain.split("\n")[:n_after], before.split("\n")[:n_before])
    if not spans or len(spans) > MOST_CHANGED:
        return after
    starts = [0]
    for line in after.plain.split("\n"):
        starts.append(starts[-1] + len(line) + 1)
    out = after.copy()
    for row, col in spans:
        out.stylize(MARK_STYLE, starts[row] + col, starts[row] + col + 1)
    return out


SHIFTS = [(dy, dx) for dy in range(0, 4) for dx in range(0, 13)]
"""How far a drawing may have moved down and right (Columba's territory growing north or west:
a new row of 1 line, a new column of 4 characters, a wider label)."""
LABELS = 5
"""Columns of row labels at the left of a drawing, which stay where they are when it moves."""


def changes(new: list[str], old: list[str]) -> list[tuple[int, int]]:
    """The (line, column) of every character of ``new`` that differs from ``old``, with the
    drawing aligned first: when the territory grew to the west or the north the old drawing
    is shifted so that its cells line up (the labels and the new edge row are then left
    unmarked)."""
    best: list[tuple[int, int]] | None = None
    for dy, dx in SHIFTS:
        found = []
        for i, line in enumerate(new):
            j0 = i - dy
            if (dy or dx) and i == 0:
                continue  # the header of column labels
            src = old[j0] if 0 <= j0 < len(old) else ""
            for j, ch in enumerate(line):
                if (dy or dx) and j < LABELS:
                    continue
                k = j - dx if j >= LABELS else j
                prev = src[k] if 0 <= k < len(src) else " "
                if prev != ch and not (ch in " ·" and prev in " ·"):
                    found.append((i, j))
            if best is not None and len(found) >= len(best):
                break
        if best is None or len(found) < len(best):
            best = found
        if not best:
            break
    return best or []


CLICKABLE = {"columba": "{x},{y}", "36to1": "{x}{y}", "countred": "{x}{y}"}
"""The games whose drawing has a header of column labels and rows labelled at the left, so that
a click finds its cell; how the cell is written."""
_LABEL = re.compile(r"-?\d+|[A-Za-z]")


def cell_at(game_id: str, drawing: str, x: int, y: int) -> str | None:
    """The cell under column ``x`` of line ``y`` of a board's drawing, in the game's notation
    (``-1,0`` in Columba, ``e1`` in 36 to 1, ``B2`` in Count Red), or ``None``."""
    form = CLICKABLE.get(game_id)
    lines = drawing.split("\n")
    if form is None or not 0 <= y < len(lines):
        return None
    header = next((i for i, line in enumerate(lines[:3]) if _labels(line)
                   and all(len(t) <= 2 for _s, t in _labels(line)) and len(_labels(line)) >= 3),
                  None)
    if header is None or y <= header:
        return None
    cols = _labels(lines[header])
    gap = min(b[0] - a[0] for a, b in pairwise(cols)) if len(cols) > 1 else 4
    centre, col = min(((abs(start + len(t) / 2 - x - 0.5), t) for start, t in cols))
    if centre > gap:
        return None
    row = None
    for dy in (0, -1, 1, -2, 2):
        k = y + dy
        if header < k < len(lines):
            m = re.match(r"\s*(-?\d+)\s", lines[k])
            if m and m.end() <= 6:
                row = m.group(1)
                break
    if row is None:
        return None
    return form.format(x=col, y=row)


def _labels(line: str) -> list[tuple[int, str]]:
    """The tokens of a line with where they start, if the line is only labels."""
    found = [(m.start(), m.group()) for m in re.finditer(r"\S+", line)]
    if not found or not all(_LABEL.fullmatch(t) for _s, t in found):
        return []
    return found


def legend(game: Game) -> str:
    """The cell codes explained, where the board has codes to explain (Columba)."""
    if game.id != "columba":
        return ""
    owners = ", ".join(f"{p} {game.seat_name(p)}" for p in range(game.num_players))
    return _(COLUMBA_LEGEND).format(owners=owners, seat1=game.seat_name(1))
