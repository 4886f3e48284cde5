"""How long an agent may think: ``time=`` seconds per TURN and/or ``iterations=``.

``time=`` is the budget of the computer's whole turn. A turn of one move (Columns, Count Red,
36 to 1) gets all of it; a turn of several actions (Discs: a move, blocking actions, ``end``;
Columba: place, then cote / falcon / tiles, then ``end``) shares it out with :class:`TurnClock`:
each decision gets half of what is left while more decisions of the same player may follow in
this turn, and all of what is left for the last one; a forced action (one legal move) takes no
time. The table (:mod:`rulebox.match.table`) keeps one clock per turn and hands each decision its
share as ``time=``; an agent used on its own (``Budget.from_settings``) sees one decision.

Every search agent asks its :class:`Budget` whether to go on. With ``iterations=`` alone the
search is exactly repeatable (same seed, same iterations, same move); with ``time=`` it stops
early enough to answer within the time, leaving a margin for the work after the last check.
"""

from __future__ import annotations

import time as _time
from typing import Any

from rulebox.ai.base import Settings
from rulebox.core.errors import OptionError

DEFAULT_TIME = 1.0
"""Seconds per move when neither ``time=`` nor ``iterations=`` is given."""


MIN_SHARE = 0.02
"""Seconds a decision gets at least, even when its turn's clock has run out."""


def more_decisions_follow(game: Any, probe: int = 24) -> bool:
    """Whether, after the move now chosen, the same player will have to choose again in this
    turn: at least half of the legal moves keep the turn (Discs' and Columba's actions, which
    end only with ``end``; not Count Red, where only a move that makes a three keeps it), and a
    position they lead to offers a choice. Looks at most ``probe`` moves, evenly spread; uses
    only the game protocol. In a solitaire every move is a turn of its own."""
    if game.num_players == 1:
        return False
    player = game.current_player()
    moves = game.legal_moves()
    if len(moves) <= 1:
        return False
    step = max(1, len(moves) // probe)
    sample = moves[::step][:probe]
    work = game.clone()
    keep = 0
    choice = False
    for move in sample:
        work.apply_unchecked(move)
        try:
            if work.current_player() == player:
                keep += 1
                choice = choice or len(work.legal_moves()) > 1
        finally:
            work.undo()
    return choice and 2 * keep >= len(sample)


class TurnClock:
    """The clock of one turn of ``seconds``: :meth:`share` is the ``time=`` of the next
    decision (see the module text). :meth:`restarts` says whether a further decision of the
    same player is a new turn's (a bonus move after a one-decision turn, CR-10) rather than a
    decision the estimate missed, which gets what is left."""

    __slots__ = ("deadline", "final", "multi", "seconds", "start")

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.start = _time.perf_counter()
        self.deadline = self.start + seconds
        self.final = False
        """Set once a share was the last of the turn (all that was left)."""
        self.multi = False
        """Set once a share was halved (a turn of several decisions)."""

    def restarts(self) -> bool:
        return self.final and not self.multi

    def left(self) -> float:
        """Seconds left of the turn."""
        return max(0.0, self.deadline - _time.perf_counter())

    def share(self, game: Any) -> float:
        """The seconds the decision in ``game`` may take: half of what is left while more
        decisions may follow in this turn, all of it for the last."""
        left = self.left()
        if more_decisions_follow(game):
            left /= 2
            self.multi = True
        else:
            self.final = True
        return max(MIN_SHARE, left)


def time_limit(seconds: float) -> float:
    """The part of ``seconds`` a search may use: a quarter and 50 ms are kept back for
    answering and for a busy machine (at least 40% of the time is used)."""
    return max(0.4 * seconds, 0.75 * seconds - 0.05)


class Budget:
    """The limit of one search: a deadline, a count of iterations, or both (whichever first)."""

    __slots__ = ("deadline", "iterations", "start")

    def __init__(
        self, seconds: float | None, iterations: int | None, default_time: float = DEFAULT_TIME
    ) -> None:
        if seconds is None and iterations is None:
            seconds = default_time
        self.start = _time.perf_counter()
        self.iterations = iterations
        self.deadline = None if seconds is None else self.start + time_limit(seconds)

    @classmethod
    def from_settings(cls, settings: Settings, default_time: float = DEFAULT_TIME) -> Budget:
        """The budget that ``time=`` / ``iterations=`` describe (default: ``default_time``)."""
        return cls(settings.time, settings.iterations, default_time)

    def part(self, share: float, iterations: int | None = None) -> Budget:
        """A budget for the first ``share`` of this one's time (same start), capped at
        ``iterations`` when given: for a search that runs in stages."""
        part = Budget.__new__(Budget)
        part.start = self.start
        part.iterations = iterations
        part.deadline = (
            None if self.deadline is None else self.start + share * (self.deadline - self.start)
        )
        return part

    def remaining(self) -> float | None:
        """Seconds left before the deadline (``None`` without one)."""
        if self.deadline is None:
            return None
        return max(0.0, self.deadline - _time.perf_counter())

    def out_of_time(self) -> bool:
        """Whether the deadline (if any) has passed."""
        return self.deadline is not None and _time.perf_counter() >= self.deadline

    def done(self, iterations: int) -> bool:
        """Whether a search that has run ``iterations`` iterations must stop now."""
        if self.iterations is not None and iterations >= self.iterations:
            return True
        return self.out_of_time()

    def elapsed(self) -> float:
        """Seconds since the search began."""
        return _time.perf_counter() - self.start


def extra_number(
    settings: Settings, key: str, default: float, lo: float, hi: float, integer: bool = False
) -> float:
    """An agent's own numeric setting (``depth=``, ``c=``, ...) within ``lo..hi``; a bad value
    raises ``OptionError`` like the common settings do."""
    raw = (settings.extra or {}).get(key)
    if raw is None:
        return default
    try:
        value: float = int(raw) if integer else float(raw)
        if not lo <= value <= hi:
            raise ValueError
    except ValueError:
        shown = raw if len(raw) <= 30 else raw[:27] + "..."
        raise OptionError(f"bad agent setting {key}={shown!r} (from {lo:g} to {hi:g})") from None
    return value
