"""Count Red drawn as text, and the ``explain`` command that shows how a count comes out.

Row 4 is at the top, row 1 at the bottom, as the rulebook's board. Every field shows its value
in its corner and ``#`` when locked; its pieces are written ``r2`` (red 2) and ``b3`` (black 3),
a stack's top above its bottom with the former in brackets (``(1)``: formed by seat 1), so the
board reads without colour as well.
"""

from __future__ import annotations

from rich.text import Text

from rulebox.core.errors import InvalidMoveError
from rulebox.games.countred.moves import (
    COLUMNS,
    FIELD_NAMES,
    NEIGHBOURS,
    NUM_FIELDS,
    NUMBER,
    RED,
    VALUE,
    parse_countred_move,
    parse_field,
    piece_text,
    piece_words,
)
from rulebox.games.countred.rules import CLAIM_AT, FIFTY, PARITY_WORDS, CountRed
from rulebox.games.countred.words import SEAT_NAMES
from rulebox.i18n import _, ngettext

SEATS = SEAT_NAMES

RED_STYLE = "bold red"
BLACK_STYLE = "bold white on grey23"
_W = 10  # inner width of a cell


def _piece(out: Text, piece: int, extra: str = "") -> None:
    label = piece_text(piece)
    out.append("   ")
    out.append(label, style=RED_STYLE if RED[piece] else BLACK_STYLE)
    out.append(f"{extra:<{_W - 5}}")


def render(game: CountRed, player: int | None = None) -> Text:
    """The board with values, pieces, stacks, locks; each player's parity; whose turn it is."""
    out = render_drawing(game)
    drawing, key, facts, status = _parts_after(game, out)
    return Text.assemble(drawing, key, facts, status)


def render_drawing(game: CountRed) -> Text:
    """The board alone (no words: notation, values and pieces)."""
    out = Text()
    line = "    +" + "+".join("-" * _W for _ in COLUMNS) + "+\n"
    out.append("     " + "".join(f"{c:^{_W + 1}}" for c in COLUMNS) + "\n")
    out.append(line)
    for row in range(3, -1, -1):
        fields = [row * 4 + col for col in range(4)]
        for part in range(3):
            out.append(f"  {row + 1} " if part == 1 else "    ")
            for f in fields:
                out.append("|")
                pieces = game.pieces(f)
                if part == 0:
                    lock = "#" if game.is_locked(f) else " "
                    out.append(f"{VALUE[f]}{' ' * (_W - 3)}{lock} ", style="dim")
                elif part == 1 and len(pieces) == 2:
                    _piece(out, pieces[1], f" ({game.former(f)})")
                elif part == 2 and pieces:
                    _piece(out, pieces[0])
                else:
                    out.append(" " * _W)
            out.append("|\n")
        out.append(line)
    return out


def render_parts(game: CountRed, player: int | None = None) -> tuple[Text, Text, Text, Text]:
    """The render in its parts, whatever the language: the drawing (the first lines), the key
    to its letters, the facts (each player's parity) and the status (whose turn, or the end),
    in the order :func:`render` shows them."""
    return _parts_after(game, render_drawing(game))


def _parts_after(game: CountRed, drawing: Text) -> tuple[Text, Text, Text, Text]:
    key = Text(_(" rN / bN: red / black piece numbered N. A stack shows its top over its "
                 "bottom;\n (0) / (1): formed by {seat0} / {seat1}. #: locked field. The small "
                 "figure is the field's value.").format(
                   seat0=game.seat_name(0), seat1=game.seat_name(1)) + "\n")
    facts = Text()
    for p in (0, 1):
        line = _(" {seat}: moves on {parity} counts").format(
            seat=game.seat_name(p), parity=_(PARITY_WORDS[game.parity(p)]))
        if game.opts["first"] == p:
            line += _(" (moved first)")
        facts.append(line + "\n")
    status = Text()
    outcome = game.outcome()
    if outcome is None:
        p = game.current_player()
        status.append("\n " + _("To move: {seat} ({parity} counts)").format(
            seat=game.seat_name(p), parity=_(PARITY_WORDS[game.parity(p)])), style="bold")
        status.append(_(". Moves without a new three: {n} of {fifty}.").format(
            n=game.moves_without_three(), fifty=FIFTY))
        n = game.occurrences()
        if n >= CLAIM_AT:
            status.append(" " + ngettext("This position has occurred {n} time: `claim` draws.",
                                         "This position has occurred {n} times: `claim` draws.",
                                         n).format(n=n))
        status.append("\n")
    else:
        who = (_("{seat} wins").format(seat=game.seat_name(outcome.winners[0]))
               if outcome.winners else _("a draw"))
        status.append("\n " + _("Game over: {who}: {reason}").format(
            who=who, reason=outcome.reason) + "\n", style="bold")
    return drawing, key, facts, status


def _parity(n: int) -> str:
    return _(PARITY_WORDS[n % 2])


def explain(game: CountRed, arg: str) -> str:
    """Explain a field (``B2``: how the lift count comes out for its top piece and where it may
    go, with every count) or a move (``B2-C2``: why it is or is not legal)."""
    text = arg.strip()
    try:
        s = parse_field(text)
    except ValueError:
        try:
            move = parse_countred_move(text)
        except InvalidMoveError:
            return _("explain a field (e.g. B2) or a move (e.g. B2-C2)")
        if move.is_claim:
            n = game.occurrences()
            return (
                ngettext("This position has occurred {n} time; a draw can be claimed from the "
                         "{claim_at}rd occurrence on, and the 5th draws at once",
                         "This position has occurred {n} times; a draw can be claimed from the "
                         "{claim_at}rd occurrence on, and the 5th draws at once", n).format(
                    n=n, claim_at=CLAIM_AT) + " [CR-12]."
            )
        return _explain_move(game, move.src, move.dst)
    return _explain_field(game, s)


def _mover(game: CountRed) -> int:
    p = game.current_player()
    return p if p >= 0 else 0


def _explain_move(game: CountRed, s: int, t: int) -> str:
    p = _mover(game)
    name = f"{FIELD_NAMES[s]}-{FIELD_NAMES[t]}"
    why = game.why_illegal(p, s, t)
    lines = [_("{move} for {seat} ({parity} counts):").format(
        move=name, seat=game.seat_name(p), parity=_(PARITY_WORDS[game.parity(p)]))]
    if game.pieces(s) and s != t and len(game.pieces(t)) < 2:
        n, how = game.lift_count(s)
        lines.append(_("  lift:  {n} ({how}): {parity}").format(n=n, how=how, parity=_parity(n)))
        piece = game.pieces(s)[-1]
        if game.pieces(t) or NUMBER[piece] == VALUE[t]:
            n, how = game.set_count(s, t)
            lines.append(_("  set:   {n} ({how}): {parity}").format(
                             n=n, how=how, parity=_parity(n)))
    if why is None:
        lines.append(_("  legal: both counts have the mover's parity [CR-8]."))
    else:
        lines.append(_("  illegal: {why} [{why2}]").format(why=why[0], why2=why[1]))
    return "\n".join(lines)


def _explain_field(game: CountRed, s: int) -> str:
    src = FIELD_NAMES[s]
    pieces = game.pieces(s)
    head = (_("{field} is worth {value} and is locked") if game.is_locked(s)
            else _("{field} is worth {value}")).format(field=src, value=VALUE[s])
    if not pieces:
        return _("{head}; it is empty. It takes a piece numbered {value} [CR-6].").format(
                   head=head, value=VALUE[s])
    piece = pieces[-1]
    lines = []
    if len(pieces) == 2:
        lines.append(
            _("{head}; it holds a stack: the {piece_words:nom} on the {piece_words2:dat}, "
              "formed by {seat}.").format(
                head=head, piece_words=piece_words(piece), piece_words2=piece_words(pieces[0]),
                seat=game.seat_name(game.former(s) or 0))
        )
        n, how = game.lift_count(s)
        lines.append(_("Lifting the {piece_words:acc} (CR-5) counts {n} ({how}): {parity}.").format(
                         piece_words=piece_words(piece), n=n, how=how, parity=_parity(n)))
    else:
        lines.append(_("{head}; it holds the {piece_words:acc}.").format(
                         head=head, piece_words=piece_words(piece)))
        n, how = game.lift_count(s)
        around = [
            f"{FIELD_NAMES[g]} {game.red_count(g)}" for g in NEIGHBOURS[s] if game.red_count(g)
        ]
        lines.append(
            _("Lifting it (CR-4) counts {n} ({how}; red on: {value}): {parity}.").format(
                n=n, how=how, value=", ".join(around) or _("none"), parity=_parity(n))
        )
    p = _mover(game)
    lifters = []
    for q in (0, 1):
        if q == p and game.outcome() is None:
            who = _("{seat} (to move), on {parity} counts,").format(
                seat=game.seat_name(q), parity=_(PARITY_WORDS[game.parity(q)]))
        else:
            who = _("{seat}, on {parity} counts,").format(
                seat=game.seat_name(q), parity=_(PARITY_WORDS[game.parity(q)]))
        problem = game.lift_problem(q, s)
        if problem is None:
            lifters.append(q)
            lines.append(_("{who} may lift it.").format(who=who))
        else:
            lines.append(_("{who} may not lift it: {problem} [{problem2}]").format(
                             who=who, problem=problem[0], problem2=problem[1]))
    for q in lifters:
        lines.append(_("Where {seat} could set it:").format(seat=game.seat_name(q)))
        for t in range(NUM_FIELDS):
            if t == s:
                continue
            dst = FIELD_NAMES[t]
            on_t = game.pieces(t)
            why = game.why_illegal(q, s, t)
            if len(on_t) == 2:
                lines.append(_("  {dst}: no, it holds two pieces").format(dst=dst) + " [CR-3]")
                continue
            if not on_t and NUMBER[piece] != VALUE[t]:
                continue  # the wrong row: listed once below
            n, how = game.set_count(s, t)
            verdict = _("yes") if why is None else _("no")
            lines.append(_("  {dst}: {verdict}, {n} ({how}): {parity}").format(
                             dst=dst, verdict=verdict, n=n, how=how, parity=_parity(n)))
        lines.append(
            _("  Empty fields of other rows do not take it: a piece numbered {number} "
              "goes only on an empty field worth {number} [CR-6].").format(number=NUMBER[piece])
        )
    return "\n".join(lines)


def announce(game: CountRed, mover: int, before: dict) -> list[str]:
    """What a move did beyond moving a piece, for the terminal: a new three with its bonus move
    (CR-10) and skipped turns (CR-11). ``before`` is the position (JSON) before the move."""
    after = game.position_json()
    lines = []
    new_locks = sorted(set(after["locked"]) - set(before["locked"]))
    if new_locks:
        lines.append(_("three in a column: {new_locks} are locked; {seat} "
                       "earns a bonus move").format(
                         new_locks=', '.join(new_locks), seat=game.seat_name(mover))
                     + " [CR-10]")
    if game.is_terminal():
        return lines
    nxt = game.current_player()
    expected = mover if new_locks else 1 - mover
    if nxt != expected:
        lines.append(_("{skipped} has no legal move and is skipped; {seat} moves "
                       "again").format(skipped=game.seat_name(expected),
                                       seat=game.seat_name(nxt)) + " [CR-11]")
    return lines
