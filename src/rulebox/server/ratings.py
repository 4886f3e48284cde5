"""Ratings of rated games (issue 27): Glicko-2 for two players, Weng-Lin for more.

The maths is the libraries': ``glicko2`` (one game is one rating period) and ``openskill``'s
Plackett-Luce model (Columba with three or four players, and its teams, seats 0+2 against 1+3).
Both are shown on one scale: a Glicko-2 rating as it is (start 1500, deviation 350), a Weng-Lin
rating as ``60 * mu`` (start 1500, deviation ``60 * sigma`` = 500).

What counts: the table's ending. The winners score 1, the others 0; no winner is a draw
(0.5 each). A resignation, a fallen flag, a forfeit and a claimed abandonment end with the
other side as winners, so they count as the loser's loss; a claimed draw is a draw. A game
with no move (aborted) or cancelled is not rated (:func:`counts`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import glicko2
from openskill.models import PlackettLuce

GLICKO_START = (1500.0, 350.0, 0.06)
OPENSKILL_MU, OPENSKILL_SIGMA = 25.0, 25.0 / 3
SCALE = 60.0
"""Weng-Lin ``mu`` and ``sigma`` are shown times this (1500 / 500 at the start)."""
MULTI_POOL = "columba-multi"
"""The pool of Columba's 3 and 4 player tables (teams included)."""


@dataclass
class Rating:
    """A rating in one pool: Glicko-2 (``value`` = rating, ``deviation`` = RD) or Weng-Lin
    (``value`` = mu, ``deviation`` = sigma)."""

    system: str
    value: float
    deviation: float
    volatility: float = 0.06
    games: int = 0

    @classmethod
    def start(cls, system: str) -> Rating:
        if system == "glicko2":
            return cls(system, *GLICKO_START)
        return cls(system, OPENSKILL_MU, OPENSKILL_SIGMA, 0.0)

    def shown(self) -> dict[str, float | int | str]:
        """``{"value", "deviation", "games", "system"}`` on the common scale."""
        k = 1.0 if self.system == "glicko2" else SCALE
        return {"value": round(self.value * k), "deviation": round(self.deviation * k),
                "games": self.games, "system": self.system}

    def shown_value(self) -> float:
        return round(self.value * (1.0 if self.system == "glicko2" else SCALE))


def pool_of(game_id: str, players: int) -> tuple[str, str]:
    """The rating pool and system of a game: ``(game id, glicko2)`` for two players,
    ``(columba-multi, openskill)`` for more."""
    if players == 2:
        return game_id, "glicko2"
    return MULTI_POOL, "openskill"


def counts(how: str, plies: int) -> bool:
    """Whether an ending is rated: not when no move was made or the game was cancelled."""
    return plies > 0 and how != "cancelled"


def scores(winners: Sequence[int], players: int) -> list[float]:
    """1 for a winner, 0 for the others; 0.5 each when nobody won (a draw)."""
    if not winners:
        return [0.5] * players
    return [1.0 if p in winners else 0.0 for p in range(players)]


def rate_two(a: Rating, b: Rating, score_a: float) -> tuple[Rating, Rating]:
    """Glicko-2 after one game between ``a`` and ``b`` (``score_a`` 1, 0.5 or 0)."""
    pa = glicko2.Player(a.value, a.deviation, a.volatility)
    pb = glicko2.Player(b.value, b.deviation, b.volatility)
    pa.update_player([b.value], [b.deviation], [score_a])
    pb.update_player([a.value], [a.deviation], [1.0 - score_a])
    return (Rating("glicko2", pa.getRating(), pa.getRd(), pa.vol, a.games + 1),
            Rating("glicko2", pb.getRating(), pb.getRd(), pb.vol, b.games + 1))


def rate_many(ratings: Sequence[Rating], teams: Sequence[Sequence[int]],
              ranks: Sequence[float]) -> list[Rating]:
    """Weng-Lin (Plackett-Luce) after one game: ``teams`` are lists of seats (one seat each
    without teams), ``ranks`` one per team (lower is better, equal is a tie)."""
    model = PlackettLuce()
    made = [[model.rating(mu=ratings[p].value, sigma=ratings[p].deviation) for p in team]
            for team in teams]
    after = model.rate(made, ranks=list(ranks))
    out = list(ratings)
    for team, rated in zip(teams, after, strict=True):
        for p, r in zip(team, rated, strict=True):
            out[p] = Rating("openskill", r.mu, r.sigma, 0.0, ratings[p].games + 1)
    return out


def rate(ratings: Sequence[Rating], winners: Sequence[int], teams: bool) -> list[Rating]:
    """New ratings of every seat after a game (two seats: Glicko-2; more: Weng-Lin, seats
    0+2 against 1+3 when ``teams``)."""
    n = len(ratings)
    got = scores(winners, n)
    if n == 2:
        a, b = rate_two(ratings[0], ratings[1], got[0])
        return [a, b]
    groups = [[0, 2], [1, 3]] if teams and n == 4 else [[p] for p in range(n)]
    ranks = [1.0 - got[g[0]] for g in groups]
    return rate_many(ratings, groups, ranks)
