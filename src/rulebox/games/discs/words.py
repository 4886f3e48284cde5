"""Discs in words (issue 17): each action as a player says it, and what decided a finished
game.

``describe`` is called on the position before the action and plays it on a copy to tell what
it earned: ``first moves a pin from b2.ne to c3.sw, takes a blue token`` (DSC-5), ``second
turns disc b2 a quarter clockwise``, ``first locks disc a3 with the pin in a3.ne``, ``second
bars the line b2.ne-c3.sw``, ``first ends the turn``. Everything on the board is public.

``highlights`` names, for a won game, the discs on which the winner earned each token (found by
taking the game back on a copy), then the winner's pins on the disc of the last one; ``[]`` for
a draw.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulebox.core.errors import RuleboxError
from rulebox.games.discs.geometry import (
    CLOCKWISE_DIR,
    CORNER_PAIR_NAMES,
    DISC_NAMES,
    HOLE_NAMES,
    HOLES_PER_DISC,
    LINE_NAMES,
)
from rulebox.games.discs.moves import DiscsMove, Kind
from rulebox.i18n import N_, _, ngettext

if TYPE_CHECKING:
    from rulebox.games.discs.rules import Discs

SEAT_NAMES: tuple[str, ...] = (N_("first"), N_("second"))
"""Player 0 (who arranges the discs and moves first) is ``first``, player 1 ``second``."""

COLOUR_WORDS: dict[str, str] = {"R": N_("red"), "G": N_("green"), "B": N_("blue")}
"""The disc and token colours by letter (translated where shown)."""


def _colours(letters: str) -> str:
    return ", ".join(_(COLOUR_WORDS[c]) for c in letters)


def describe(game: Discs, move: DiscsMove) -> str:
    """``move`` (legal in ``game``) in words, with who takes it and the tokens it earns."""
    p = game.current_player()
    seat = game.seat_name(p)
    k = move.kind
    if k == Kind.ARRANGE:
        return _("{seat} arranges the discs {layout}").format(seat=seat, layout=move.layout)
    if k == Kind.CHOOSE:
        a, b = CORNER_PAIR_NAMES[move.b][:2], CORNER_PAIR_NAMES[move.b][2:]
        if move.a == 0:
            return _("{seat} takes the silver pins on {a} and {b}").format(seat=seat, a=a, b=b)
        return _("{seat} takes the black pins on {a} and {b}").format(seat=seat, a=a, b=b)
    if k == Kind.STEP:
        text = _("{seat} moves a pin from {src} to {dst}").format(
            seat=seat, src=HOLE_NAMES[move.a], dst=HOLE_NAMES[move.b])
        before = game.tokens(p)
        after = game.clone()
        after.apply_unchecked(move)
        new = "".join(c for c in after.tokens(p) if c not in before)
        if new:
            return ngettext("{move}, takes a {colours} token", "{move}, takes {colours} tokens",
                            len(new)).format(move=text, colours=_colours(new))
        return text
    if k == Kind.TURN:
        disc = DISC_NAMES[move.a]
        if move.b == CLOCKWISE_DIR:
            return _("{seat} turns disc {disc} a quarter clockwise").format(seat=seat, disc=disc)
        return _("{seat} turns disc {disc} a quarter anticlockwise").format(
            seat=seat, disc=disc)
    if k == Kind.PASS:
        return _("{seat} passes (no pin move or turn is possible)").format(seat=seat)
    if k == Kind.LOCK:
        return _("{seat} locks disc {disc} with the pin in {hole}").format(
            seat=seat, disc=DISC_NAMES[move.a // HOLES_PER_DISC], hole=HOLE_NAMES[move.a])
    if k == Kind.UNLOCK:
        return _("{seat} releases the lock").format(seat=seat)
    if k == Kind.BAR:
        line = LINE_NAMES[move.line]
        if game.barrier(p) >= 0:
            return _("{seat} moves the barrier to the line {line}").format(seat=seat, line=line)
        return _("{seat} bars the line {line}").format(seat=seat, line=line)
    if k == Kind.UNBAR:
        return _("{seat} removes the barrier").format(seat=seat)
    return _("{seat} ends the turn").format(seat=seat)


def token_discs(game: Discs, player: int) -> list[str]:
    """The discs on which ``player`` earned each token, in the order earned, as far as the
    history of ``game`` reaches (a drawn start's tokens have no disc)."""
    g = game.clone()
    found: list[str] = []
    while g.history:
        move = g.history[-1]
        before = g.tokens(player)
        try:
            g.undo()
        except RuleboxError:  # the start of a drawn position
            break
        if g.current_player() == player and g.tokens(player) != before and (
                move.kind == Kind.STEP):
            found.append(DISC_NAMES[move.b // HOLES_PER_DISC])
    return found[::-1]


def highlights(game: Discs) -> list[str]:
    """For a won game: the discs where the winner earned its tokens (in the order earned),
    then the winner's pins on the disc of the last token; ``[]`` otherwise."""
    outcome = game.outcome()
    if outcome is None or not outcome.winners:
        return []
    winner = outcome.winners[0]
    discs = token_discs(game, winner)
    out = list(dict.fromkeys(discs))
    if discs:
        last = DISC_NAMES.index(discs[-1])
        base = last * HOLES_PER_DISC
        out += [HOLE_NAMES[h] for h in range(base, base + HOLES_PER_DISC)
                if game.pin_at(h) == winner]
    return out

