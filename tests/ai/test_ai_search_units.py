"""Unit tests of the search machinery on hand-built nodes and a tiny hand-checked game:
UCT selection and backup, ISMCTS availability, the transposition table, negamax across
multi-action turns, and the time budget."""

from __future__ import annotations

import math
import time

import pytest
from ai_toy_game import Stones, solve, winning_moves

from rulebox.ai.alphabeta import (
    EXACT,
    LOWER,
    UPPER,
    AlphaBetaSearch,
    TranspositionTable,
    terminal_value,
)
from rulebox.ai.base import Settings
from rulebox.ai.budget import Budget, time_limit
from rulebox.ai.heuristics import Heuristic
from rulebox.ai.mcts import (
    MctsAgent,
    MctsConfig,
    Node,
    Searcher,
    backup,
    best_child,
    is_select,
    uct_select,
)
from rulebox.core.rng import rng


def _node(parent: Node, move: str, player: int, visits: int, value: float) -> Node:
    child = parent.add_child(move, player)
    child.visits, child.value = visits, value
    return child


# --- UCT ------------------------------------------------------------------------------------
def test_uct_select_prefers_the_better_mean_at_equal_visits() -> None:
    root = Node()
    root.visits = 20
    _node(root, "a", 0, 10, 3.0)
    b = _node(root, "b", 0, 10, 7.0)
    assert uct_select(root, 0.7) is b


def test_uct_select_explores_a_rarely_visited_child() -> None:
    # a: mean 0.6 over 100 visits; b: mean 0.5 over 2 visits. With c = 0.7,
    # b's bonus 0.7 * sqrt(ln 102 / 2) = 1.06 beats a's 0.7 * sqrt(ln 102 / 100) = 0.15
    root = Node()
    root.visits = 102
    _node(root, "a", 0, 100, 60.0)
    b = _node(root, "b", 0, 2, 1.0)
    assert uct_select(root, 0.7) is b
    assert uct_select(root, 0.0).move == "a"  # no exploration: the best mean


def test_backup_credits_each_node_to_the_player_who_moved_into_it() -> None:
    # root (nobody) -> player 0 moves -> player 0 moves again (multi-action) -> player 1 moves
    root = Node()
    n1 = root.add_child("x", 0)
    n2 = n1.add_child("y", 0)
    n3 = n2.add_child("z", 1)
    backup(n3, [0.25, 0.75])
    assert [n.visits for n in (root, n1, n2, n3)] == [1, 1, 1, 1]
    assert (n1.value, n2.value, n3.value) == (0.25, 0.25, 0.75)
    assert root.value == 0.0
    backup(n2, [1.0, 0.0])
    assert (root.visits, n1.visits, n2.visits, n3.visits) == (2, 2, 2, 1)
    assert (n1.value, n2.value) == (1.25, 1.25)


def test_backup_with_three_players() -> None:
    root = Node()
    a = root.add_child("a", 0)
    b = a.add_child("b", 1)
    c = b.add_child("c", 2)
    backup(c, [0.0, 0.5, 1.0])
    assert (a.value, b.value, c.value) == (0.0, 0.5, 1.0)


def test_is_select_counts_availability_and_uses_it() -> None:
    root = Node()
    a = _node(root, "a", 0, 10, 5.0)
    b = _node(root, "b", 0, 10, 5.0)
    a.avail, b.avail = 10, 100  # b was available far more often: less exploration bonus
    chosen = is_select(root, ["a", "b"], 0.7)
    assert (a.avail, b.avail) == (11, 101)
    # b's bonus uses ln(101) > ln(11): with equal means and visits, b is chosen
    assert chosen is b
    # a move not available now is neither chosen nor counted
    chosen = is_select(root, ["a"], 0.7)
    assert chosen is a and b.avail == 101


def test_best_child_is_the_most_visited() -> None:
    root = Node()
    _node(root, "a", 0, 30, 29.0)
    b = _node(root, "b", 0, 40, 10.0)
    assert best_child(root) is b


# --- MCTS on the hand-checked game --------------------------------------------------------
@pytest.mark.parametrize(("stones", "actions"), [(7, 1), (8, 1), (4, 2), (7, 2), (10, 2)])
def test_mcts_finds_the_winning_move_of_stones(stones: int, actions: int) -> None:
    game = Stones.new({"stones": str(stones), "actions": str(actions), "seed": "0"})
    good = winning_moves(game)
    if not good or len(good) == len(game.legal_moves()):
        pytest.skip("every move is equal here")
    h = Heuristic("stones", lambda g: [0.0, 0.0])
    agent = MctsAgent("stones", Settings(iterations=3000, seed=1), MctsConfig(c=0.7))
    agent.h = h
    assert agent.choose(game) in good


def test_mcts_search_reaches_a_win_without_reading_search_results_from_the_game() -> None:
    game = Stones.new({"stones": "2", "seed": "0"})
    searcher = Searcher(Heuristic("stones", lambda g: [0.0, 0.0]), MctsConfig(), rng(0))
    root = Node()
    for _ in range(50):
        searcher.uct_iteration(root, game.clone(), None)
    assert best_child(root).move == 2  # take both stones and win
    assert game.history == []  # the game itself is never changed


# --- alpha-beta ---------------------------------------------------------------------------
def test_transposition_table_bounds() -> None:
    tt = TranspositionTable()
    tt.put("k", 3, 0.5, EXACT, "m")
    assert tt.probe("k", 3, -1, 1) == (0.5, "m")
    assert tt.probe("k", 4, -1, 1) == (None, "m")  # too shallow: only the move helps
    tt.put("lo", 2, 0.8, LOWER, "a")
    assert tt.probe("lo", 2, -1, 0.7)[0] == 0.8  # fails high against beta 0.7
    assert tt.probe("lo", 2, -1, 0.9)[0] is None  # not enough to settle the window
    tt.put("up", 2, -0.3, UPPER, None)
    assert tt.probe("up", 1, -0.2, 1)[0] == -0.3  # fails low against alpha -0.2
    assert tt.probe("up", 1, -0.5, 1)[0] is None


def test_transposition_table_keeps_the_deeper_entry() -> None:
    tt = TranspositionTable()
    tt.put("k", 5, 0.1, EXACT, "deep")
    tt.put("k", 2, 0.9, EXACT, "shallow")
    assert tt.get("k") is not None
    assert tt.get("k").move == "deep"  # type: ignore[union-attr]
    small = TranspositionTable(capacity=2)
    small.put("a", 1, 0, EXACT, None)
    small.put("b", 1, 0, EXACT, None)
    small.put("c", 1, 0, EXACT, None)
    assert len(small) <= 2


@pytest.mark.parametrize("actions", [1, 2, 3])
@pytest.mark.parametrize("stones", [3, 5, 7, 9, 11])
def test_negamax_matches_brute_force_across_multi_action_turns(stones: int, actions: int) -> None:
    game = Stones.new({"stones": str(stones), "actions": str(actions), "seed": "0"})
    search = AlphaBetaSearch(Heuristic("stones", lambda g: [0.0, 0.0]), Budget(None, 10**6))
    result = search.search(game, game.legal_moves())
    assert result.exact
    assert (result.value > 0) == (solve(game) > 0)
    if result.value > 0:
        assert result.move in winning_moves(game)


def test_terminal_value_prefers_quicker_wins_and_beats_any_evaluation() -> None:
    game = Stones.new({"stones": "1", "seed": "0"})
    game.apply_unchecked(1)
    assert terminal_value(game, 0, 1) > terminal_value(game, 0, 3) > 1.0
    assert terminal_value(game, 1, 1) < terminal_value(game, 1, 3) < -1.0


# --- the budget -----------------------------------------------------------------------------
def test_budget_counts_iterations_and_time() -> None:
    b = Budget(None, 10)
    assert not b.done(9) and b.done(10)
    assert b.deadline is None
    t = Budget(0.2, None)
    assert not t.done(10**9)
    time.sleep(time_limit(0.2) + 0.01)
    assert t.out_of_time() and t.done(0)
    assert Budget(None, None).deadline is not None  # a default time


def test_time_limit_keeps_a_margin() -> None:
    for s in (0.05, 0.1, 0.5, 1.0, 5.0):
        assert 0 < time_limit(s) < s
    assert math.isclose(time_limit(1.0), 0.7)
