"""Count Red drawn as text, and the ``explain`` command that shows how a count comes out.

Row 4 is at the top, row 1 at the bottom, as the rulebook's board. Every field shows its value
in its corner and ``#`` when locked; its pieces are written ``r2`` (red 2) and ``b3`` (black 3),
a stack's top above its bottom with the former in brackets (``(1)``: formed by player 1), so the
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

SEATS = ("player 0", "player 1")
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
    out.append(
        " rN / bN: red / black piece numbered N. A stack shows its top over its bottom;\n"
        " (P): formed by player P. #: locked field. The small figure is the field's value.\n"
    )
    for p in (0, 1):
        first = " (moved first)" if game.opts["first"] == p else ""
        out.append(f" player {p}: moves on {PARITY_WORDS[game.parity(p)]} counts{first}\n")
    outcome = game.outcome()
    if outcome is None:
        p = game.current_player()
        out.append(
            f"\n To move: player {p} ({PARITY_WORDS[game.parity(p)]} counts)", style="bold"
        )
        out.append(f". Moves without a new three: {game.moves_without_three()} of {FIFTY}.")
        n = game.occurrences()
        if n >= CLAIM_AT:
            out.append(f" This position has occurred {n} times: `claim` draws.")
        out.append("\n")
    else:
        who = f"player {outcome.winners[0]} wins" if outcome.winners else "a draw"
        out.append(f"\n Game over: {who}: {outcome.reason}\n", style="bold")
    return out


def _parity(n: int) -> str:
    return PARITY_WORDS[n % 2]


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
            return "explain a field (e.g. B2) or a move (e.g. B2-C2)"
        if move.is_claim:
            n = game.occurrences()
            return (
                f"This position has occurred {n} time{'s' if n != 1 else ''}; a draw can be "
                f"claimed from the {CLAIM_AT}rd occurrence on, and the 5th draws at once [CR-12]."
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
    lines = [f"{name} for player {p} ({PARITY_WORDS[game.parity(p)]} counts):"]
    if game.pieces(s) and s != t and len(game.pieces(t)) < 2:
        n, how = game.lift_count(s)
        lines.append(f"  lift:  {n} ({how}): {_parity(n)}")
        piece = game.pieces(s)[-1]
        if game.pieces(t) or NUMBER[piece] == VALUE[t]:
            n, how = game.set_count(s, t)
            lines.append(f"  set:   {n} ({how}): {_parity(n)}")
    if why is None:
        lines.append("  legal: both counts have the mover's parity [CR-8].")
    else:
        lines.append(f"  illegal: {why[0]} [{why[1]}]")
    return "\n".join(lines)


def _explain_field(game: CountRed, s: int) -> str:
    src = FIELD_NAMES[s]
    pieces = game.pieces(s)
    head = f"{src} is worth {VALUE[s]}" + (" and is locked" if game.is_locked(s) else "")
    if not pieces:
        return head + "; it is empty. It takes a piece numbered " + f"{VALUE[s]} [CR-6]."
    piece = pieces[-1]
    lines = []
    if len(pieces) == 2:
        lines.append(
            f"{head}; it holds a stack: the {piece_words(piece)} on the "
            f"{piece_words(pieces[0])}, formed by player {game.former(s)}."
        )
        n, how = game.lift_count(s)
        lines.append(f"Lifting the {piece_words(piece)} (CR-5) counts {n} ({how}): {_parity(n)}.")
    else:
        lines.append(f"{head}; it holds the {piece_words(piece)}.")
        n, how = game.lift_count(s)
        around = [
            f"{FIELD_NAMES[g]} {game.red_count(g)}" for g in NEIGHBOURS[s] if game.red_count(g)
        ]
        lines.append(
            f"Lifting it (CR-4) counts {n} ({how}; red on: {', '.join(around) or 'none'}): "
            f"{_parity(n)}."
        )
    p = _mover(game)
    lifters = []
    for q in (0, 1):
        turn = " (to move)" if q == p and game.outcome() is None else ""
        who = f"Player {q}{turn}, on {PARITY_WORDS[game.parity(q)]} counts,"
        problem = game.lift_problem(q, s)
        if problem is None:
            lifters.append(q)
            lines.append(f"{who} may lift it.")
        else:
            lines.append(f"{who} may not lift it: {problem[0]} [{problem[1]}]")
    for q in lifters:
        lines.append(f"Where player {q} could set it:")
        for t in range(NUM_FIELDS):
            if t == s:
                continue
            dst = FIELD_NAMES[t]
            on_t = game.pieces(t)
            why = game.why_illegal(q, s, t)
            if len(on_t) == 2:
                lines.append(f"  {dst}: no, it holds two pieces [CR-3]")
                continue
            if not on_t and NUMBER[piece] != VALUE[t]:
                continue  # the wrong row: listed once below
            n, how = game.set_count(s, t)
            verdict = "yes" if why is None else "no"
            lines.append(f"  {dst}: {verdict}, {n} ({how}): {_parity(n)}")
        lines.append(
            f"  Empty fields of other rows do not take it: a piece numbered {NUMBER[piece]} "
            f"goes only on an empty field worth {NUMBER[piece]} [CR-6]."
        )
    return "\n".join(lines)


def announce(game: CountRed, mover: int, before: dict) -> list[str]:
    """What a move did beyond moving a piece, for the terminal: a new three with its bonus move
    (CR-10) and skipped turns (CR-11). ``before`` is the position (JSON) before the move."""
    after = game.position_json()
    lines = []
    new_locks = sorted(set(after["locked"]) - set(before["locked"]))
    if new_locks:
        lines.append(f"three in a column: {', '.join(new_locks)} are locked; player {mover} "
                     "earns a bonus move [CR-10]")
    if game.is_terminal():
        return lines
    nxt = game.current_player()
    expected = mover if new_locks else 1 - mover
    if nxt != expected:
        lines.append(f"player {expected} has no legal move and is skipped; player {nxt} moves "
                     "again [CR-11]")
    return lines
