"""36 to 1 drawn as text: the grid with rank 6 at the top, the symbols heading the columns, the
face-up cards, the cards left and the result.

Every cube is shown by its colour letter (R Y G B K W) as well as its colour, so the grid reads
without colour too; an empty cell is ``·``. Only what the player may see is drawn: the draw pile
appears as a count, never in order.
"""

from __future__ import annotations

from rich.text import Text

from rulebox.games.solitaire36.board import (
    CARD_CODES,
    CARD_COLOUR,
    CARD_GREEN_SET,
    CARD_INDEX,
    CARD_SYMBOL,
    CELL_NAMES,
    COLOUR_NAMES,
    COLOURS,
    FILES,
    NUM_CELLS,
    RANKS,
    SIZE,
    bits,
    with_neighbour,
)
from rulebox.games.solitaire36.rules import EMPTY, Solitaire36
from rulebox.games.solitaire36.words import symbol_heading
from rulebox.i18n import _, ngettext

SEATS = ("player",)


STYLES = (
    "bold bright_white on red",
    "bold black on yellow",
    "bold black on green",
    "bold bright_white on blue",
    "bold bright_white on grey11",
    "bold black on bright_white",
)
"""The style of a cube (and of a card's border colour), R Y G B K W."""
EMPTY_STYLE = "dim"
WIDTH = 10
"""Characters per column at least: wide enough for the longest English symbol heading
(``2 hammers``); a language with a longer heading widens the columns (:func:`column_width`)."""


def column_width() -> int:
    """Characters per column in the current language: :data:`WIDTH`, or the longest symbol
    heading and a space."""
    return max(WIDTH, *(len(symbol_heading(f)) + 1 for f in range(SIZE)))


def _heading(out: Text, width: int) -> None:
    out.append("     ")
    for f in range(SIZE):
        out.append(f"{symbol_heading(f):^{width}}", style="bold")
    out.append("\n     ")
    out.append("".join(f"{FILES[f]:^{width}}" for f in range(SIZE)) + "\n")


def grid_text(game: Solitaire36, marked: int = 0) -> Text:
    """The grid, rank 6 at the top, each column headed by its symbol in the current language.
    Cells in the bit mask ``marked`` are drawn ``>R<`` (the cubes a card can take, for
    ``explain``); the others `` R ``."""
    out = Text()
    width = column_width()
    _heading(out, width)
    for r in range(SIZE - 1, -1, -1):
        out.append(f"  {RANKS[r]}  ")
        for f in range(SIZE):
            cell = r * SIZE + f
            colour = game.cube(cell)
            pad = " " * ((width - 3) // 2)
            out.append(pad)
            if colour == EMPTY:
                out.append(" · ", style=EMPTY_STYLE)
            elif marked >> cell & 1:
                out.append(f">{COLOURS[colour]}<", style=STYLES[colour] + " underline")
            else:
                out.append(f" {COLOURS[colour]} ", style=STYLES[colour])
            out.append(" " * (width - 3 - len(pad)))
        out.append(f"  {RANKS[r]}\n")
    out.append("     " + "".join(f"{FILES[f]:^{width}}" for f in range(SIZE)) + "\n")
    return out


def card_text(card: int) -> Text:
    """A card as ``[Y4]`` in its border colour, then its meaning in words."""
    out = Text()
    out.append(f"[{CARD_CODES[card]}]", style=STYLES[CARD_COLOUR[card]])
    s = CARD_SYMBOL[card]
    out.append(" " + _("{colour} or {symbol}").format(
        colour=_(COLOUR_NAMES[CARD_COLOUR[card]]), symbol=symbol_heading(s))
        + f" ({FILES[s]})")
    return out


def render(game: Solitaire36, player: int | None = None) -> Text:
    """The grid, the face-up cards, the piles and the result (``player`` sees what anyone sees:
    the draw pile is only counted)."""
    drawing, key, facts, status = render_parts(game, player)
    return Text.assemble(drawing, key, facts, status)


def render_parts(game: Solitaire36, player: int | None = None
                 ) -> tuple[Text, Text, Text, Text]:
    """The render in its parts, whatever the language: the drawing (the first lines), the key
    to its letters (none), the facts (face-up cards, piles) and the status (the next move, or
    the end), in the order :func:`render` shows them."""
    drawing = grid_text(game)
    drawing.append("\n")
    facts = Text(" " + _("Face up:") + " ")
    faceup = game.faceup()
    if not faceup:
        facts.append(_("no cards"))
    for i, card in enumerate(faceup):
        if i:
            facts.append("   ")
        facts.append_text(card_text(card))
    facts.append("\n " + _("Cubes left: {cubes}   cards in the draw pile: {pile}   "
                           "discarded: {discarded}").format(
        cubes=game.cubes_left(), pile=game.pile_size(), discarded=len(game.discards())) + "\n")
    status = Text()
    outcome = game.outcome()
    if outcome is None:
        if game.cubes_left() > 1 and not with_neighbour(game.occupied()):
            status.append(_(
                " No cube has a neighbour left, so none can be removed again (S36-2): the game\n"
                " is lost, and goes on with discards until the draw pile is empty (S36-5).")
                + "\n")
        moves = game.legal_moves()
        status.append(" " + _("Your move, e.g. {move}").format(move=moves[0] if moves else ""),
                      style="bold")
        status.append("  " + _("(at the play prompt, explain <card> shows what a card can "
                                "take)") + "\n")
    else:
        status.append(" " + _("Game over: {reason}").format(reason=outcome.reason) + "\n",
                      style="bold")
    return drawing, Text(), facts, status


def _card_words(card: int) -> str:
    """A card in words: ``Y4 (yellow border, 4 bricks)`` (``card_phrase``, translated)."""
    s = CARD_SYMBOL[card]
    words = _("{colour} border, {symbol}").format(
        colour=_(COLOUR_NAMES[CARD_COLOUR[card]]), symbol=symbol_heading(s))
    if CARD_GREEN_SET[card]:
        words += ", " + _("green back")
    return f"{CARD_CODES[card]} ({words})"


def _explain_card(game: Solitaire36, card: int) -> str:
    if card in game.faceup():
        where = _("{card} is face up.")
    elif card in game.discards():
        where = _("{card} is on the discard pile (it never comes back, S36-4).")
    elif card in game.unseen():
        where = _("{card} is not seen yet (still in the draw pile).")
    else:
        where = _("{card} is not in this game's deck.")
    targets = game.targets(card)
    isolated = game.matches(card) & ~targets
    lines = [where.format(card=_card_words(card))]
    if targets:
        names = ", ".join(
            f"{CELL_NAMES[c]} ({_(COLOUR_NAMES[game.cube(c)])})" for c in bits(targets)
        )
        lines.append(_("It can remove the cubes marked >X<: {names}.").format(names=names))
    else:
        lines.append(_("It can remove no cube now (S36-3: while the pile lasts it may "
                       "be discarded)."))
    if isolated:
        names = ", ".join(CELL_NAMES[c] for c in bits(isolated))
        lines.append(_("It matches {names}, but those cubes have no neighbour left "
                       "(S36-2).").format(names=names))
    return grid_text(game, targets).plain + "\n" + "\n".join(lines)


def _explain_discards(game: Solitaire36) -> str:
    discards = game.discards()
    unseen = game.unseen()
    lines = [
        _("Discard pile ({n}, first discarded first):").format(n=len(discards)) + " "
        + (" ".join(CARD_CODES[c] for c in discards) or _("empty")),
        _("Unseen ({n} in the draw pile, order hidden):").format(n=len(unseen)) + " "
        + (" ".join(CARD_CODES[c] for c in unseen) or _("none")),
    ]
    for colour in range(len(COLOURS)):
        left = [CARD_CODES[c] for c in unseen if CARD_COLOUR[c] == colour]
        cubes = sum(game.cube(c) == colour for c in range(NUM_CELLS))
        lines.append(
            ngettext("  {colour:>6}: {cubes} cube on the grid; unseen cards {value}",
                     "  {colour:>6}: {cubes} cubes on the grid; unseen cards {value}",
                     cubes).format(
                colour=_(COLOUR_NAMES[colour]), cubes=cubes, value=" ".join(left) or _("none"))
        )
    return "\n".join(lines)


def explain(game: Solitaire36, arg: str) -> str:
    """The terminal's ``explain`` command: ``explain Y4`` shows the cubes card Y4 can take,
    ``explain discards`` the discard pile and the unseen cards."""
    key = "".join(arg.split())
    if key.lower() in ("discards", "discard", "pile", "cards", "unseen"):
        return _explain_discards(game)
    code = key[:1].upper() + key[1:].lower()
    card = CARD_INDEX.get(code)
    if card is None:
        faceup = " or ".join(CARD_CODES[c] for c in game.faceup()) or "Y4"
        return (
            _("explain <card> (e.g. explain {faceup}) shows the cubes a card can "
              "remove; explain discards shows the discard pile and the unseen cards").format(
                faceup=faceup)
        )
    return _explain_card(game, card)
