"""The OpenSpiel games ``rulebox_<id>``: random simulation checks, serialization, the deal as
chance nodes, two worlds, and OpenSpiel's own MCTS / IS-MCTS on every game."""

from __future__ import annotations

import random
from typing import Any

import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="the rl extra (open-spiel) is not installed or has no wheel here"
)
np = pytest.importorskip("numpy")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

import rulebox.openspiel  # noqa: E402  (registers the games)
from rulebox.core import new_game  # noqa: E402
from rulebox.env.actions import action_space  # noqa: E402

GAMES = ("columns", "36to1", "countred", "discs", "columba")
T = pyspiel.GameType


def test_every_game_is_registered() -> None:
    names = set(pyspiel.registered_names())
    assert {f"rulebox_{g}" for g in GAMES} <= names


@pytest.mark.parametrize(
    ("game_id", "information", "chance", "utility"),
    [
        ("columns", T.Information.PERFECT_INFORMATION, T.ChanceMode.DETERMINISTIC,
         T.Utility.ZERO_SUM),
        ("countred", T.Information.PERFECT_INFORMATION, T.ChanceMode.EXPLICIT_STOCHASTIC,
         T.Utility.ZERO_SUM),
        ("discs", T.Information.PERFECT_INFORMATION, T.ChanceMode.DETERMINISTIC,
         T.Utility.ZERO_SUM),
        ("36to1", T.Information.IMPERFECT_INFORMATION, T.ChanceMode.EXPLICIT_STOCHASTIC,
         T.Utility.GENERAL_SUM),
        ("columba", T.Information.IMPERFECT_INFORMATION, T.ChanceMode.EXPLICIT_STOCHASTIC,
         T.Utility.GENERAL_SUM),
    ],
)
def test_game_type(game_id: str, information: Any, chance: Any, utility: Any) -> None:
    game = pyspiel.load_game(f"rulebox_{game_id}")
    gt = game.get_type()
    assert (gt.information, gt.chance_mode, gt.utility) == (information, chance, utility)
    assert gt.dynamics == T.Dynamics.SEQUENTIAL and gt.reward_model == T.RewardModel.TERMINAL
    assert game.num_distinct_actions() == action_space(game_id).n
    assert game.observation_tensor_size() == rulebox.openspiel.observer(game_id).size


def _random_games(game_id: str, games: int, seed: int, params: dict[str, Any] | None = None,
                  max_plies: int = 2000) -> None:
    """Play random games through pyspiel and check what OpenSpiel's random-simulation test
    checks: legal actions, chance probabilities, clones, returns, observations, serialization."""
    game = pyspiel.load_game(f"rulebox_{game_id}", params or {})
    rng = random.Random(seed)
    n = game.num_players()
    low, high = game.min_utility(), game.max_utility()
    zero_sum = game.get_type().utility == T.Utility.ZERO_SUM
    for g in range(games):
        state = game.new_initial_state()
        plies = 0
        while not state.is_terminal() and plies < max_plies:
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
                assert all(0 <= a < game.max_chance_outcomes() for a, _ in outcomes)
                action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
            else:
                player = state.current_player()
                legal = state.legal_actions()
                assert legal == sorted(legal) and legal
                assert all(0 <= a < game.num_distinct_actions() for a in legal)
                mask = state.legal_actions_mask()
                assert sum(mask) == len(legal)
                assert len(state.observation_tensor(player)) == game.observation_tensor_size()
                assert state.information_state_tensor(player) == state.observation_tensor(player)
                assert state.information_state_string(player)
                assert state.observation_string(player)
                action = rng.choice(legal)
                plies += 1
                if plies % 25 == 1:
                    clone = state.clone()
                    assert str(clone) == str(state) and clone.history() == state.history()
                    _, back = pyspiel.deserialize_game_and_state(
                        pyspiel.serialize_game_and_state(game, state))
                    assert back.history() == state.history() and str(back) == str(state)
            state.apply_action(action)
        if state.is_terminal():
            returns = state.returns()
            assert len(returns) == n and all(low <= r <= high for r in returns)
            if zero_sum:
                assert sum(returns) == 0
            assert state.legal_actions() == [] and not state.is_chance_node()
        del g


@pytest.mark.parametrize("game_id", ("columns", "36to1", "countred", "columba"))
def test_random_simulation(game_id: str) -> None:
    _random_games(game_id, 3, 1)


def test_random_simulation_discs() -> None:
    _random_games("discs", 1, 1, max_plies=300)


def test_random_simulation_columba_with_four_players() -> None:
    _random_games("columba", 1, 2, {"players": 4})
    assert pyspiel.load_game("rulebox_columba", {"players": 4}).num_players() == 4


def test_the_deal_is_chance_nodes_with_their_probabilities() -> None:
    state = pyspiel.load_game("rulebox_36to1").new_initial_state()
    for left in range(36, 1, -1):
        assert state.is_chance_node()
        outcomes = state.chance_outcomes()
        assert len(outcomes) == left and all(p == pytest.approx(1 / left) for _, p in outcomes)
        state.apply_action(outcomes[0][0])
    assert state.current_player() == 0  # the last card is forced: no node for it
    assert state.table.game.view(0)["faceup"] == ["R1", "R2"]
    countred = pyspiel.load_game("rulebox_countred").new_initial_state()
    assert countred.chance_outcomes() == [(0, 0.5), (1, 0.5)]
    countred.apply_action(1)  # seat 1 moves first
    countred.apply_action(0)  # seat 0 moves on even counts
    assert countred.current_player() == 1
    assert countred.table.game.opts["even"] == 0


def _deal(state: Any, order: list[int]) -> None:
    for a in order:
        if not state.is_chance_node():
            break
        state.apply_action(a)


@pytest.mark.parametrize("game_id", ("36to1", "columba"))
def test_two_worlds_give_the_same_information_states(game_id: str) -> None:
    """Two deals that differ only in cards nobody has seen: the same information state and
    observation strings and tensors for every player while the shared head lasts; a resampled
    state keeps them too."""
    game = pyspiel.load_game(f"rulebox_{game_id}")
    cards = game.max_chance_outcomes()
    rng = random.Random(5)
    order = list(range(cards))
    rng.shuffle(order)
    head = 12
    tail_b = order[head:]
    while tail_b == order[head:]:
        rng.shuffle(tail_b)
    a, b = game.new_initial_state(), game.new_initial_state()
    _deal(a, order)
    _deal(b, order[:head] + tail_b)
    compared = 0
    while not a.is_terminal() and len(a.revealed()) < head:
        for p in range(game.num_players()):
            assert a.information_state_string(p) == b.information_state_string(p)
            assert a.observation_string(p) == b.observation_string(p)
            assert a.observation_tensor(p) == b.observation_tensor(p)
        player = a.current_player()
        assert a.legal_actions() == b.legal_actions()
        r = a.resample_from_infostate(player, None)
        assert r.information_state_string(player) == a.information_state_string(player)
        assert r.legal_actions() == a.legal_actions()
        action = rng.choice(a.legal_actions())
        a.apply_action(action)
        b.apply_action(action)
        compared += 1
    assert compared >= 5
    assert str(a.table.game.to_json()) != str(b.table.game.to_json())


def _bots_match(game: Any, bots: list[Any], seed: int, plies: int = 10_000) -> Any:
    """Play one game between bots (OpenSpiel's ``evaluate_bots`` loop, for bots without
    ``restart_at``), chance sampled with its probabilities, for at most ``plies`` player
    actions; the last state."""
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    while not state.is_terminal() and plies > 0:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            action = bots[state.current_player()].step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            plies -= 1
    return state


@pytest.mark.slow  # a strength match (52 s for Count Red on a loaded machine)
@pytest.mark.parametrize("game_id", ("columns", "countred"))
def test_mcts_beats_random(game_id: str) -> None:
    """OpenSpiel's MCTS (random rollouts) against its uniform random bot, each side twice."""
    game = pyspiel.load_game(f"rulebox_{game_id}")
    score = 0.0
    for g in range(2):
        mcts_bot = mcts.MCTSBot(game, 2.0, 25, mcts.RandomRolloutEvaluator(
            1, np.random.RandomState(g)), random_state=np.random.RandomState(g))
        rand = pyspiel.make_uniform_random_bot(1 - g % 2, g)
        bots = [mcts_bot, rand] if g % 2 == 0 else [rand, mcts_bot]
        score += _bots_match(game, bots, g).returns()[g % 2]
    print(game_id, "mcts score", score)
    assert score == 2  # it wins from both seats


def _first_win_in_one(seed: int) -> tuple[list[Any], set[str]]:
    """Seeded random Discs play (``random.Random(seed)`` over ``legal_moves()``) up to the first
    position where the player to move wins at once: the moves so far and the winning moves."""
    rb = new_game("discs", {"seed": str(seed)})
    chooser = random.Random(seed)
    played: list[Any] = []
    while not rb.is_terminal():
        mover = rb.current_player()
        moves = rb.legal_moves()
        wins = set()
        for m in moves:
            rb.apply_unchecked(m)
            if rb.is_terminal() and rb.returns()[mover] == 1:
                wins.add(str(m))
            rb.undo()
        if wins:
            return played, wins
        move = chooser.choice(moves)
        rb.apply_unchecked(move)
        played.append(move)
    raise AssertionError(f"seed {seed}: no win in one in this random game")


def test_mcts_finds_the_win_in_one_in_discs() -> None:
    """Seed 34's random game offers a win in one at ply 384 (found by search over seeds 0..39);
    OpenSpiel's MCTS with a solver and rollouts cut at 2 actions plays it."""
    played, wins = _first_win_in_one(34)
    space = action_space("discs")
    game = pyspiel.load_game("rulebox_discs")
    state = game.new_initial_state()
    for move in played:
        state.apply_action(space.action(move))
    bot = mcts.MCTSBot(game, 2.0, 120, mcts.RandomRolloutEvaluator(
        1, np.random.RandomState(0), max_length=2), random_state=np.random.RandomState(0))
    mover = state.current_player()
    action = bot.step(state)
    assert space.text(action) in wins
    state.apply_action(action)
    assert state.is_terminal() and state.returns()[mover] == 1.0
    assert len(state.legal_actions()) == 0 and len(played) > 100


@pytest.mark.parametrize("game_id", ("36to1", "columba"))
def test_ismcts_plays_the_hidden_information_games(game_id: str) -> None:
    """OpenSpiel's information-set MCTS searches through ``resample_from_infostate`` (it checks
    that every resampled state has the root's information state): a whole game of 36 to 1, the
    first 16 actions of Columba (its moves are slow to generate)."""
    game = pyspiel.load_game(f"rulebox_{game_id}")
    rulebox.openspiel.set_resample_seed(0)
    rollout = None if game_id == "36to1" else 4  # Columba's rollouts stop after 4 actions
    bots = [
        ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(
            1, np.random.RandomState(p), max_length=rollout), 2.0, 8, max_world_samples=2,
            random_state=np.random.RandomState(p))
        for p in range(game.num_players())
    ]
    if game_id == "columba":
        bots[1] = pyspiel.make_uniform_random_bot(1, 1)
    state = _bots_match(game, bots, 3, 16 if game_id == "columba" else 10_000)
    assert state.is_terminal() == (game_id == "36to1")
    returns = state.returns()
    assert len(returns) == game.num_players()
    assert all(game.min_utility() <= r <= game.max_utility() for r in returns)


def test_random_rollouts_estimate_36to1() -> None:
    """OpenSpiel's random-rollout evaluator from dealt positions: random play loses 36 to 1."""
    game = pyspiel.load_game("rulebox_36to1")
    state = game.new_initial_state()
    _deal(state, list(range(36)))
    value = mcts.RandomRolloutEvaluator(20, np.random.RandomState(0)).evaluate(state)
    assert -1.0 <= value[0] < 0.0
