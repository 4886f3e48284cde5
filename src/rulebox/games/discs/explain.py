"""The terminal's ``explain <disc or hole>``: the legal actions that concern it, in words."""

from __future__ import annotations

from rulebox.core.game import Game
from rulebox.games.discs.geometry import (
    DISC_INDEX,
    DISC_NAMES,
    HOLE_INDEX,
    HOLE_NAMES,
    HOLES_PER_DISC,
)
from rulebox.games.discs.moves import DiscsMove, Kind
from rulebox.games.discs.rules import Discs
from rulebox.i18n import _


def _say(move: DiscsMove) -> str:
    k = move.kind
    if k == Kind.STEP:
        step = (_("{move}: move the pin from {hole} to {hole2} along the line")
                if move.line >= 0 else
                _("{move}: move the pin from {hole} to {hole2} within its disc"))
        return step.format(move=move, hole=HOLE_NAMES[move.a], hole2=HOLE_NAMES[move.b])
    if k == Kind.TURN:
        turn = (_("{move}: turn {disc} a quarter turn clockwise (pins turn with it)")
                if move.b > 0 else
                _("{move}: turn {disc} a quarter turn anticlockwise (pins turn with it)"))
        return turn.format(move=move, disc=DISC_NAMES[move.a])
    if k == Kind.LOCK:
        return _("{move}: reverse your pin in {hole}: nobody may turn its disc").format(
                   move=move, hole=HOLE_NAMES[move.a])
    if k == Kind.BAR:
        return _("{move}: put your barrier across this line: no pin may cross it").format(
                   move=move)
    return str(move)


def _concerns(move: DiscsMove, disc: int, hole: int) -> bool:
    k = move.kind
    if k in (Kind.STEP, Kind.BAR):
        ends = (move.a, move.b)
        return hole in ends if hole >= 0 else any(h // HOLES_PER_DISC == disc for h in ends)
    if k == Kind.TURN:  # a turn moves the pins in the outer holes, not the centre
        return move.a == disc and hole % HOLES_PER_DISC != 0
    if k == Kind.LOCK:
        return move.a == hole if hole >= 0 else move.a // HOLES_PER_DISC == disc
    return False


def explain(game: Game, arg: str) -> str:
    """List the legal actions of the player to move that involve a disc (``b2``) or a hole
    (``b2.ne``), with what each does; or say why there are none."""
    if not isinstance(game, Discs):
        return _("explain works on a Discs game")
    key = "".join(arg.split()).lower()
    if key in HOLE_INDEX:
        hole = HOLE_INDEX[key]
        disc = hole // HOLES_PER_DISC
    elif key in DISC_INDEX:
        hole, disc = -1, DISC_INDEX[key]
    else:
        return _("explain a disc (b2) or a hole (b2.ne)")
    if game.is_terminal():
        return game.describe_phase()
    where = HOLE_NAMES[hole] if hole >= 0 else DISC_NAMES[disc]
    colour = game.disc_colour(disc)
    lines = [_("{where} (disc {disc}, colour {colour}). {phase}.").format(
        where=where, disc=DISC_NAMES[disc], colour=colour, phase=game.describe_phase())]
    moves = [m for m in game.legal_moves() if _concerns(m, disc, hole)]
    if moves:
        lines += ["  " + _say(m) for m in sorted(moves, key=str)]
    else:
        lines.append(_("  no legal action of {seat} involves {where} now").format(
            seat=game.seat_name(game.current_player()), where=where))
    return "\n".join(lines)
