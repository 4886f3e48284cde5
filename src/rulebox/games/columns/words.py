"""Columns in words (issue 17): each placement as a player says it, and the pins that decided a
finished game.

``describe`` is called on the position before the move: ``dark places a roundel on a1 (level
3)``, ``light places a double blocker on a1-b1``, ``dark places a triple on c1-c2`` (the thick pin
first; ``, thick end down`` for a ``v`` triple). Everything on the board is public.
``highlights`` names the pins whose roundels decided the game: the winner's roundels on the
level that decided it (level 5, or the tie-break level, COL-9).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulebox.games.columns.geometry import LEVELS, NUM_PINS, PIN_NAMES
from rulebox.games.columns.moves import ColumnsMove, Kind
from rulebox.i18n import N_, _

if TYPE_CHECKING:
    from rulebox.games.columns.rules import Columns

SEAT_NAMES: tuple[str, ...] = (N_("light"), N_("dark"))
"""Player 0 is light, player 1 dark (RULINGS.md, Columns)."""


def describe(game: Columns, move: ColumnsMove) -> str:
    """``move`` (legal in ``game``) in words, with who places it."""
    seat = game.seat_name(game.current_player())
    pins = "-".join(PIN_NAMES[p] for p in move.pins)
    if move.kind is Kind.ROUNDEL:
        (pin,) = move.pins
        level = len(game.stack(pin)) + 1
        return _("{seat} places a roundel on {pin} (level {level})").format(
            seat=seat, pin=pins, level=level)
    if move.kind is Kind.SINGLE:
        return _("{seat} places a single blocker on {pin}").format(seat=seat, pin=pins)
    if move.kind is Kind.DOUBLE:
        return _("{seat} places a double blocker on {pins}").format(seat=seat, pins=pins)
    if move.up:
        return _("{seat} places a triple on {pins}").format(seat=seat, pins=pins)
    return _("{seat} places a triple on {pins}, thick end down").format(seat=seat, pins=pins)


def deciding_level(game: Columns) -> int | None:
    """The level (1-5) whose roundels decided a finished game (COL-9), or ``None`` (a draw,
    or the game goes on)."""
    outcome = game.outcome()
    if outcome is None or not outcome.winners:
        return None
    counts = game.roundels_by_level()
    for level in range(LEVELS, 0, -1):
        if counts[0][level - 1] != counts[1][level - 1]:
            return level
    return None  # pragma: no cover - a winner implies a level that differs


def highlights(game: Columns) -> list[str]:
    """The pins that hold the winner's roundels on the deciding level, in pin order; ``[]``
    for a draw or a game that goes on."""
    level = deciding_level(game)
    outcome = game.outcome()
    if level is None or outcome is None:
        return []
    winner = outcome.winners[0]
    out = []
    for pin in range(NUM_PINS):
        stack = game.stack(pin)
        if len(stack) >= level:
            owner, kind, _code = stack[level - 1]
            if owner == winner and kind is Kind.ROUNDEL:
                out.append(PIN_NAMES[pin])
    return out
