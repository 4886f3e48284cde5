"""Unit tests of the search machinery on hand-built nodes and a tiny hand-checked game:
UCT selection and backup, ISMCTS availability, the transposition table, negamax across
multi-action turns, and the time budget."""

from __future__ import annotations

import math
import time
from typing import Any

import pytest

from rulebox.ai.alphabeta import (
    EXACT,
    INF,
    LOWER,
    UPPER,
    WIN,
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
from tests.ai.ai_toy_game import Stones, solve, winning_moves


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


@pytest.mark.parametrize("free_plies", [0, 2, 4])
@pytest.mark.parametrize("pvs", [False, True])
@pytest.mark.parametrize(("stones", "actions"), [(7, 1), (9, 2), (11, 3), (10, 3)])
def test_free_plies_and_pvs_keep_the_search_exact(
    stones: int, actions: int, free_plies: int, pvs: bool
) -> None:
    """Free plies (a player moving again costs no depth, bounded) and null-window search change
    how deep a depth goes, never the value of a position searched to the end."""
    game = Stones.new({"stones": str(stones), "actions": str(actions), "seed": "0"})
    h = Heuristic("stones", lambda g: [0.0, 0.0], free_plies=free_plies)
    search = AlphaBetaSearch(h, Budget(None, 10**6), pvs=pvs)
    result = search.search(game, game.legal_moves())
    assert result.exact
    assert (result.value > 0) == (solve(game) > 0)
    if result.value > 0:
        assert result.move in winning_moves(game)


def test_free_plies_see_a_multi_action_turn_at_depth_one() -> None:
    """Stones with 3 actions a turn and 3 stones: the player to move takes all three in his
    turn. Depth 1 sees that win only when the same player's plies are free."""
    game = Stones.new({"stones": "3", "actions": "3", "seed": "0"})
    for free, proven in ((0, False), (2, True)):
        h = Heuristic("stones", lambda g: [0.0, 0.0], free_plies=free)
        result = AlphaBetaSearch(h, Budget(None, 10**6), max_depth=1).search(
            game, game.legal_moves())
        assert (result.value >= WIN - 0.5) == proven


def test_quiescence_searches_forcing_moves_and_stands_pat_otherwise() -> None:
    """A leaf's value: the evaluation, or a forcing move's when better; forcing moves of the
    opponent's turn are his to choose."""
    game = Stones.new({"stones": "2", "seed": "0"})  # taking 2 wins at once
    calls: list[int] = []

    def forcing(g: Any) -> list[Any]:
        calls.append(g.pile)
        return [2] if g.pile == 2 else []

    h = Heuristic("stones", lambda g: [0.25, -0.25], forcing_moves=forcing)
    search = AlphaBetaSearch(h, Budget(None, 10**6))
    assert search.quiesce(game, -INF, INF, 0, 4) >= WIN - 0.5
    assert search.quiesce(game, -INF, INF, 0, 0) == 0.25  # no forcing moves left to search
    assert search.quiesce(game, -INF, 0.1, 0, 4) == 0.25  # stand pat fails high at once
    game.apply_unchecked(1)  # one stone left for player 1: no forcing move, stand pat
    assert search.quiesce(game, -INF, INF, 1, 4) == -0.25
    assert calls == [2, 1]


def test_threat_extension_searches_a_leaf_in_danger_one_ply_more() -> None:
    """With in_danger saying yes, a depth-0 leaf is searched one more ply (bounded)."""
    game = Stones.new({"stones": "9", "seed": "0"})
    h = Heuristic("stones", lambda g: [0.0, 0.0], forcing_moves=lambda g: [],
                  in_danger=lambda g: True)
    plain = AlphaBetaSearch(h, Budget(None, 10**6), extensions=0)
    plain.negamax(game, 0, -INF, INF, 0)
    extended = AlphaBetaSearch(h, Budget(None, 10**6), extensions=2)
    extended.negamax(game, 0, -INF, INF, 0)
    assert plain.nodes == 1  # the leaf's evaluation
    assert extended.nodes > 1 + 2  # the leaf and its replies, and theirs once more
    assert extended.nodes <= 1 + 2 + 4 + 8  # at most 2 extensions on a line


def take_the_rest(game: Any) -> list[Any]:
    """Stones' winning move in one: the whole pile, when it is 1 or 2."""
    assert isinstance(game, Stones)
    return [game.pile] if game.pile in (1, 2) else []


def test_root_filter_uses_winning_moves_or_tries_every_reply() -> None:
    game = Stones.new({"stones": "4", "seed": "0"})  # taking 1 or 2 leaves 3 or 2
    no_hook = AlphaBetaSearch(Heuristic("stones", lambda g: [0.0, 0.0]), Budget(None, 10))
    assert no_hook.hands_win(game, 2)  # 2 left: the opponent takes both
    assert not no_hook.hands_win(game, 1)  # 3 left: no win in one
    assert no_hook.safe_moves(game, [1, 2]) == [1] and no_hook.filtered == [2]
    hooked = AlphaBetaSearch(
        Heuristic("stones", lambda g: [0.0, 0.0], winning_moves=take_the_rest),
        Budget(None, 10),
    )
    assert hooked.hands_win(game, 2) and not hooked.hands_win(game, 1)
    assert game.pile == 4 and game.history == []  # left as it was


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
