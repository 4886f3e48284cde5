"""The hybrid agent's alpha-beta screen (proofs checked against brute force on a tiny game),
UCT restricted to some root moves, and UCT's early stop when its choice is settled."""

from __future__ import annotations

import time

import pytest

from rulebox.ai.alphabeta import AlphaBetaSearch
from rulebox.ai.base import Settings
from rulebox.ai.budget import Budget
from rulebox.ai.heuristics import Heuristic
from rulebox.ai.hybrid import HybridAgent, prove
from rulebox.ai.mcts import MctsAgent, MctsConfig, Node, _decided
from rulebox.core.game import TERMINAL
from tests.ai.ai_toy_game import Stones, solve, winning_moves


def _liar() -> Heuristic:
    """An evaluation that calls every unfinished position nearly won for the player to move:
    a proof must not believe it."""
    return Heuristic("stones", lambda g: [0.9, 0.9])


def _after(game: Stones, move: int) -> int:
    """+1 if the player to move in ``game`` wins after ``move`` with best play, else -1."""
    p = game.current_player()
    child = game.clone()
    child.apply_unchecked(move)
    q = child.current_player()
    if q == TERMINAL:
        return 1 if child.returns()[p] > 0 else -1
    return solve(child) if q == p else -solve(child)


@pytest.mark.parametrize("actions", [1, 2, 3])
@pytest.mark.parametrize("stones", [2, 3, 4, 5, 6, 7, 9, 10, 12])
def test_prove_matches_brute_force(stones: int, actions: int) -> None:
    game = Stones.new({"stones": str(stones), "actions": str(actions), "seed": "0"})
    search = AlphaBetaSearch(_liar(), Budget(None, 10**6))
    proven = prove(search, game, game.legal_moves(), 64)
    if solve(game) > 0:  # one proven win (the search ends there), and it is a winning move
        wins = [m for m, v in proven.items() if v > 0]
        assert len(wins) == 1 and wins[0] in winning_moves(game)
    else:  # every move proven lost
        assert set(proven) == set(game.legal_moves())
        assert all(v < 0 for v in proven.values())
    for move, value in proven.items():
        assert (value > 0) == (_after(game, move) > 0)
    assert game.history == []


def test_prove_claims_nothing_beyond_its_depth() -> None:
    game = Stones.new({"stones": "7", "seed": "0"})  # the last stone is 4+ plies away
    search = AlphaBetaSearch(_liar(), Budget(None, 10**6))
    assert prove(search, game, game.legal_moves(), 2) == {}


def test_prove_stops_when_the_budget_runs_out() -> None:
    game = Stones.new({"stones": "40", "seed": "0"})
    search = AlphaBetaSearch(_liar(), Budget(None, 50))
    assert prove(search, game, game.legal_moves(), 64) == {}
    assert search.nodes <= 50


def test_hybrid_takes_the_proven_win_and_avoids_proven_losses() -> None:
    # 4 stones: taking 1 leaves 3 (a lost position for the opponent); taking 2 leaves 2 (lost)
    game = Stones.new({"stones": "4", "seed": "0"})
    agent = HybridAgent("stones", Settings(iterations=50, seed=1))
    assert agent.choose(game) == 1
    assert agent.proven[1] > 0 and agent.proven.get(2, -1.0) < 0
    # 3 stones: both moves lose; the hybrid plays a move whose loss comes latest
    game = Stones.new({"stones": "3", "seed": "0"})
    agent = HybridAgent("stones", Settings(iterations=50, seed=1))
    chosen = agent.choose(game)
    assert set(agent.proven) == {1, 2} and all(v < 0 for v in agent.proven.values())
    assert agent.proven[chosen] == max(agent.proven.values())


def test_uct_keeps_to_the_root_moves_it_is_given() -> None:
    game = Stones.new({"stones": "4", "seed": "0"})  # 1 wins, 2 loses
    agent = MctsAgent("stones", Settings(iterations=2000, seed=1), MctsConfig(c=0.7))
    assert agent.search(game, game.legal_moves(), Budget(None, 2000)) == 1
    assert agent.search(game, game.legal_moves(), Budget(None, 2000), [2]) == 2


def _roots(a: int, b: int, untried: list[str] | None = None) -> list[Node]:
    root = Node()
    for move, visits in (("a", a), ("b", b)):
        child = root.add_child(move, 0)
        child.visits = visits
    root.untried = untried if untried is not None else []
    return [root]


def test_early_stop_only_when_the_leader_cannot_be_caught() -> None:
    budget = Budget(1.0, None)
    budget.start = time.perf_counter() - 0.5  # half a second spent, about 0.2 s left
    budget.deadline = budget.start + 0.7
    # 600 iterations in 0.5 s: about 240 more can come; a lead of 400 is safe, 100 is not
    assert _decided(_roots(500, 100), {"a", "b"}, 600, budget)
    assert not _decided(_roots(350, 250), {"a", "b"}, 600, budget)
    assert not _decided(_roots(500, 100, ["c"]), {"a", "b", "c"}, 600, budget)
    # visits of a move that is not legal here (a determinization's own) do not count
    assert not _decided(_roots(500, 100), {"b"}, 600, budget)
    # with no deadline (iterations= only) the search always runs to the end
    assert not _decided(_roots(500, 1), {"a", "b"}, 501, Budget(None, 1000))


def test_budget_part_shares_the_start() -> None:
    whole = Budget(1.0, None)
    part = whole.part(0.5, 100)
    assert part.start == whole.start
    assert whole.deadline is not None and part.deadline is not None
    assert part.deadline - part.start == pytest.approx(0.5 * (whole.deadline - whole.start))
    assert part.done(100) and not part.done(99)
    assert Budget(None, 10).part(0.5).deadline is None
