"""Ratings from game results: Bradley-Terry strengths on the Elo scale, with confidence intervals.

A result between two players ``i`` and ``j`` is a score for ``i`` of 1 (win), 0.5 (draw) or 0
(loss). Bradley-Terry says ``P(i beats j) = 1 / (1 + exp(theta_j - theta_i))``; a draw counts as
half a win and half a loss. The strengths are fitted by maximum likelihood (Newton's method on
the log-likelihood, which is concave), with a weak prior of ``prior_draws`` virtual draws between
each pair that met, so that a player who won every game still gets a finite rating. The first
player named (the *anchor*) is fixed at 0; intervals come from the inverse of the observed
information (the negative Hessian) and describe each rating relative to the anchor. Ratings are
shown on the Elo scale: ``elo = theta * 400 / ln 10``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

ELO_PER_NAT = 400.0 / math.log(10.0)
Z95 = 1.959963984540054


@dataclass(frozen=True)
class PairResult:
    """One game's result between two players: ``score`` is player ``a``'s (1, 0.5 or 0)."""

    a: str
    b: str
    score: float


@dataclass(frozen=True)
class Rating:
    """A player's rating on the Elo scale, with the half-width of its 95% interval."""

    name: str
    elo: float
    ci95: float
    games: int
    score: float
    """The player's total score (wins + half the draws)."""


def expected_score(elo_a: float, elo_b: float) -> float:
    """The expected score of ``a`` against ``b`` from their Elo-scale ratings."""
    return 1.0 / (1.0 + math.pow(10.0, (elo_b - elo_a) / 400.0))


def elo_difference(score: float) -> float:
    """The Elo difference that a mean score in (0, 1) implies (infinite at 0 or 1, and within
    rounding of them)."""
    if score <= 1e-9:
        return -math.inf
    if score >= 1.0 - 1e-9:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def score_interval(wins: float, draws: float, losses: float, z: float = Z95) -> tuple[float, float]:
    """A 95% interval of the mean score (draw = 1/2): the Wilson interval of the points out of
    the games (never empty, even for 10-0)."""
    n = wins + draws + losses
    return wilson_interval(wins + 0.5 * draws, n, z)


def wilson_interval(successes: float, n: float, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion (e.g. a solitaire win rate)."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def _solve(matrix: list[list[float]], rhs: list[float]) -> list[float]:
    """Solve a small linear system by Gaussian elimination with partial pivoting."""
    n = len(rhs)
    a = [[*row[:], rhs[i]] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        if abs(a[pivot][col]) < 1e-300:
            raise ValueError("singular matrix")
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(n):
            if r != col and a[r][col] != 0.0:
                f = a[r][col] / a[col][col]
                for k in range(col, n + 1):
                    a[r][k] -= f * a[col][k]
    return [a[i][n] / a[i][i] for i in range(n)]


def invert(matrix: list[list[float]]) -> list[list[float]]:
    """The inverse of a small square matrix."""
    n = len(matrix)
    cols = [_solve(matrix, [1.0 if i == j else 0.0 for i in range(n)]) for j in range(n)]
    return [[cols[j][i] for j in range(n)] for i in range(n)]


def bradley_terry(
    results: Iterable[PairResult],
    players: Sequence[str] | None = None,
    prior_draws: float = 1.0,
    iterations: int = 100,
) -> list[Rating]:
    """Fit Bradley-Terry ratings (Elo scale, anchored on the first player) to pair results."""
    results = list(results)
    names = list(players) if players is not None else []
    for r in results:
        for n in (r.a, r.b):
            if n not in names:
                names.append(n)
    k = len(names)
    index = {n: i for i, n in enumerate(names)}
    games = [0] * k
    total = [0.0] * k
    # pair statistics: n_ij games, s_ij score of i against j (prior draws included)
    n_ij: dict[tuple[int, int], float] = {}
    s_ij: dict[tuple[int, int], float] = {}
    for r in results:
        i, j = index[r.a], index[r.b]
        if i == j:
            continue
        games[i] += 1
        games[j] += 1
        total[i] += r.score
        total[j] += 1 - r.score
        key = (min(i, j), max(i, j))
        n_ij[key] = n_ij.get(key, 0.0) + 1
        s_ij[key] = s_ij.get(key, 0.0) + (r.score if i < j else 1 - r.score)
    for key in n_ij:
        n_ij[key] += prior_draws
        s_ij[key] += 0.5 * prior_draws
    theta = [0.0] * k
    if k <= 1:
        return [Rating(n, 0.0, 0.0, games[i], total[i]) for i, n in enumerate(names)]

    def grad_hess() -> tuple[list[float], list[list[float]]]:
        g = [0.0] * k
        h = [[0.0] * k for _ in range(k)]
        for (i, j), n in n_ij.items():
            p = 1.0 / (1.0 + math.exp(theta[j] - theta[i]))
            s = s_ij[(i, j)]
            g[i] += s - n * p
            g[j] -= s - n * p
            w = n * p * (1 - p)
            h[i][i] += w
            h[j][j] += w
            h[i][j] -= w
            h[j][i] -= w
        return g, h  # h is the information matrix (negative Hessian)

    free = [i for i in range(1, k) if games[i] > 0]
    for _ in range(iterations):
        g, h = grad_hess()
        if not free:
            break
        sub = [[h[a][b] for b in free] for a in free]
        try:
            step = _solve(sub, [g[a] for a in free])
        except ValueError:
            break
        biggest = max(abs(s) for s in step)
        scale = 1.0 if biggest <= 2.0 else 2.0 / biggest  # damped Newton
        for a, s in zip(free, step, strict=True):
            theta[a] += scale * s
        if biggest < 1e-10:
            break
    _, h = grad_hess()
    ci = [0.0] * k
    if free:
        sub = [[h[a][b] for b in free] for a in free]
        try:
            cov = invert(sub)
            for idx, a in enumerate(free):
                ci[a] = Z95 * math.sqrt(max(0.0, cov[idx][idx])) * ELO_PER_NAT
        except ValueError:
            for a in free:
                ci[a] = math.inf
    for i in range(1, k):
        if games[i] == 0:
            ci[i] = math.inf
    return [
        Rating(n, theta[i] * ELO_PER_NAT, ci[i], games[i], total[i]) for i, n in enumerate(names)
    ]
