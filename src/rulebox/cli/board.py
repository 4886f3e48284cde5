"""The board as the terminal shows it: the game's own render (read-only here), the last move
marked, words mended, and Columba's cell codes explained.

The last move is marked without touching the render modules: the board before the move and the
board after it are drawn for the same seat, and the characters of the board's drawing that the
move changed are shown in reverse video (a piece placed, a cube taken, a field left and a field
reached). When a move redraws most of the board (Columba's territory growing to the west or the
north shifts every column) nothing is marked; the status line still names the move."""

from __future__ import annotations

from rich.text import Text

from rulebox.cli.text import agree
from rulebox.core.game import Game
from rulebox.core.registry import game_entry

BOARD_ENDS: dict[str, str] = {
    "columns": " light ",
    "countred": " rN / bN",
    "discs": " player 0",
    "36to1": " Face up",
    "columba": "  W/G/B/K",
}
"""The start of the first line after the drawing of the board, per game (the rest of a render
is text: holdings, scores, whose turn)."""
MARK_STYLE = "reverse bold"
MOST_CHANGED = 40
"""More changed characters than this and the move is not marked (the drawing shifted)."""

COLUMBA_LEGEND = """\
Cell codes (Columba):
  ·      an empty square            W G B K  wild pigeon: white, grey, brown, black
  w g b k  domesticated tile         F        falcon
  then   .  no estate, 0-3  the estate's owner (player)
  S / L  small / large dovecote     p        pond
  *      laid this turn             !        cut off by a falcon (wild again)
  e.g. `G1L`: a grey wild pigeon in player 1's estate, with a large dovecote; `W.`: white,
  no estate"""


def render(game: Game, player: int | None) -> Text:
    """The game's own drawing for ``player`` (``None``: everything public), words mended."""
    drawn = game_entry(game.id).render(game, player)
    text = drawn if isinstance(drawn, Text) else Text(str(drawn))
    return _mend(text)


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


def board_lines(game_id: str, plain: str) -> int:
    """How many lines of a render are the drawing of the board."""
    marker = BOARD_ENDS.get(game_id)
    lines = plain.split("\n")
    if marker is None:
        return len(lines)
    for i, line in enumerate(lines):
        if line.startswith(marker):
            return i
    return len(lines)


def marked(game: Game, player: int | None) -> Text:
    """The board for ``player`` with the last move's changes in reverse video."""
    after = render(game, player)
    if not game.history:
        return after
    try:
        prev = game.clone()
        prev.undo()
        before = render(prev, player).plain
    except Exception:  # a nicety never breaks the screen
        return after
    a_lines = after.plain.split("\n")
    b_lines = before.split("\n")
    n = min(board_lines(game.id, after.plain), board_lines(game.id, before))
    spans: list[tuple[int, int]] = []
    offset = 0
    for i, line in enumerate(a_lines):
        if i >= n:
            break
        old = b_lines[i] if i < len(b_lines) else ""
        for j, ch in enumerate(line):
            if j >= len(old) or old[j] != ch:
                spans.append((offset + j, offset + j + 1))
        offset += len(line) + 1
    if not spans or len(spans) > MOST_CHANGED:
        return after
    out = after.copy()
    for start, end in spans:
        out.stylize(MARK_STYLE, start, end)
    return out


def legend(game: Game) -> str:
    """The cell codes explained, where the board has codes to explain (Columba)."""
    return COLUMBA_LEGEND if game.id == "columba" else ""
