"""Announcements: what a move did beyond itself, as events the terminal prints and the browser
shows (a three and its bonus move, a skipped player, a token earned, an objective completed).

A game says it through the ``announce`` hook of its registry entry (``announce(game, mover,
before)`` -> lines, ``before`` the position JSON before the move; Count Red has one: CR-10,
CR-11). For the games whose packages have no hook yet, :data:`FALLBACK` reads the same from the
public position JSON before and after the move (Discs tokens, DSC-5; Columba objectives, CB-4);
each belongs in its game's package, and moves there once the game registers its own hook.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rulebox.core.game import Game
from rulebox.core.registry import game_entry
from rulebox.i18n import _

Announcer = Callable[[Game, int, dict[str, Any]], list[str]]


def _discs(game: Game, mover: int, before: dict[str, Any]) -> list[str]:
    after = game.position_json()
    lines = []
    for p, (old, new) in enumerate(zip(before.get("tokens", []), after.get("tokens", []),
                                       strict=False)):
        for colour in sorted(set(new) - set(old)):
            # the colour agrees with the token (die rote Marke, красный жетон): one sentence each
            said = {"R": _("{seat} earns the red token"), "G": _("{seat} earns the green token"),
                    "B": _("{seat} earns the blue token")}.get(colour) or _("{seat} earns a token")
            lines.append(said.format(seat=game.seat_name(p)) + " [DSC-5]")
    return lines


def _columba(game: Game, mover: int, before: dict[str, Any]) -> list[str]:
    after = game.position_json()
    if after.get("phase") == "goal" and before.get("phase") != "goal":
        players = before.get("players") or []
        objective = players[mover].get("objective") if mover < len(players) else None
        what = (_("objective {objective}").format(objective=objective) if objective
                else _("an objective"))
        return [_("{seat} completes {what}; its tiles go to the reserve").format(
            seat=game.seat_name(mover), what=what) + " [CB-4]"]
    return []


FALLBACK: dict[str, Announcer] = {"discs": _discs, "columba": _columba}


def kind_of(line: str) -> str:
    """The event kind of an announcement line (for the browser's styling and for tests)."""
    if "[CR-10]" in line:
        return "bonus_move"
    if "[CR-11]" in line:
        return "skipped"
    if "[DSC-5]" in line:
        return "token"
    if "[CB-4]" in line:
        return "objective"
    return "announcement"


def announcer(game_id: str) -> Announcer | None:
    """The announcement hook of a game (its own, else the fallback here, else ``None``)."""
    hook = game_entry(game_id).extra.get("announce")
    if callable(hook):
        return hook  # type: ignore[no-any-return]
    return FALLBACK.get(game_id)
