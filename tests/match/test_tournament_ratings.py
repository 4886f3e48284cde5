"""Ratings math: Bradley-Terry on the Elo scale, intervals, and the small helpers."""

from __future__ import annotations

import math

import pytest

from rulebox.match.ratings import (
    ELO_PER_NAT,
    PairResult,
    bradley_terry,
    elo_difference,
    expected_score,
    invert,
    score_interval,
    wilson_interval,
)


def _games(a: str, b: str, wins: int, draws: int, losses: int) -> list[PairResult]:
    return ([PairResult(a, b, 1.0)] * wins + [PairResult(a, b, 0.5)] * draws
            + [PairResult(a, b, 0.0)] * losses)


def test_expected_score_and_elo_difference_are_inverse() -> None:
    assert expected_score(0, 0) == 0.5
    assert math.isclose(expected_score(400, 0), 10 / 11)
    for d in (-300.0, -50.0, 0.0, 120.0, 700.0):
        assert math.isclose(elo_difference(expected_score(d, 0)), d, abs_tol=1e-9)
    assert elo_difference(1.0) == math.inf and elo_difference(0.0) == -math.inf


def test_two_players_match_the_closed_form() -> None:
    # with no prior, the maximum-likelihood difference is the logit of the score
    ratings = bradley_terry(_games("a", "b", 75, 0, 25), prior_draws=0.0)
    a, b = ratings
    assert a.name == "a" and a.elo == 0.0 and a.ci95 == 0.0  # the anchor
    assert math.isclose(b.elo, -400 * math.log10(3), rel_tol=1e-9)
    # interval: 1.96 / sqrt(n p (1 - p)) nats
    want = 1.959963984540054 / math.sqrt(100 * 0.75 * 0.25) * ELO_PER_NAT
    assert math.isclose(b.ci95, want, rel_tol=1e-6)
    assert (a.games, b.games, a.score, b.score) == (100, 100, 75.0, 25.0)


def test_draws_count_half() -> None:
    only_draws = bradley_terry(_games("a", "b", 0, 40, 0))
    assert abs(only_draws[1].elo) < 1e-9
    mixed = bradley_terry(_games("a", "b", 30, 40, 30))
    assert abs(mixed[1].elo) < 1e-9


def test_a_chain_of_results_is_transitive() -> None:
    results = _games("a", "b", 60, 0, 40) + _games("b", "c", 60, 0, 40)
    ratings = {r.name: r for r in bradley_terry(results, prior_draws=0.0)}
    step = 400 * math.log10(1.5)
    assert math.isclose(ratings["b"].elo, -step, rel_tol=1e-6)
    assert math.isclose(ratings["c"].elo, -2 * step, rel_tol=1e-6)
    assert ratings["c"].ci95 > ratings["b"].ci95  # c is further from the anchor


def test_a_clean_sweep_stays_finite_with_the_prior() -> None:
    ratings = bradley_terry(_games("a", "b", 0, 0, 10))
    assert 0 < ratings[1].elo < math.inf and ratings[1].ci95 < math.inf


def test_a_player_without_games_has_no_interval() -> None:
    ratings = bradley_terry(_games("a", "b", 5, 0, 5), players=["a", "b", "c"])
    assert ratings[2].games == 0 and ratings[2].ci95 == math.inf


def test_wilson_and_score_intervals() -> None:
    lo, hi = wilson_interval(50, 1000)
    assert 0.037 < lo < 0.05 < hi < 0.066
    assert wilson_interval(0, 10)[0] == 0.0 and wilson_interval(0, 10)[1] > 0.2
    assert score_interval(10, 0, 0)[0] > 0.6  # never a zero-width interval
    assert score_interval(3, 4, 3) == pytest.approx(wilson_interval(5, 10))


def test_invert() -> None:
    m = [[4.0, 7.0], [2.0, 6.0]]
    inv = invert(m)
    assert inv[0] == pytest.approx([0.6, -0.7])
    assert inv[1] == pytest.approx([-0.2, 0.4])
