"""The Gymnasium environments, checked by Gymnasium's own check_env."""

from __future__ import annotations

import random
import warnings
from typing import Any

import pytest

gym = pytest.importorskip("gymnasium", reason="the rl extra (gymnasium) is not installed")
np = pytest.importorskip("numpy")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from rulebox.core import new_game  # noqa: E402
from rulebox.env import gymnasium_env  # noqa: E402
from rulebox.env.gymnasium_adapter import register_all  # noqa: E402

GAMES = ("columns", "36to1", "countred", "discs", "columba")


@pytest.mark.parametrize("game_id", GAMES)
def test_check_env(game_id: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # check_env's warnings are failures here
        env = gym.make(f"rulebox/{game_id}-v0", opponent="random", render_mode="ansi")
        check_env(env.unwrapped)


def test_check_env_columba_officia() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        env = gym.make("rulebox/columba-v0", opponent="random", officia=1,
                       render_mode="ansi").unwrapped
        check_env(env)
    assert env.action_space.n == env.table.space.n > 280_000
    total, _actions, info = _episode(env, 4, 2)
    assert env.table.game.is_terminal() and total == info["returns"][0]


@pytest.mark.parametrize("game_id", ("columns", "countred", "discs", "columba"))
def test_check_env_from_the_second_seat_with_a_searching_opponent(game_id: str) -> None:
    check_env(gymnasium_env(game_id, opponent="mcts:iterations=10", seat=1),
              skip_render_check=True)


def test_every_game_is_registered() -> None:
    assert register_all() == [f"rulebox/{g}-v0" for g in
                              ("columns", "36to1", "countred", "columba", "discs")]


def test_the_default_opponent_is_parsed_as_an_agent_spec() -> None:
    env = gymnasium_env("countred")
    assert env.opponent.name == "best" and dict(env.opponent.settings) == {"time": "0.1"}
    with pytest.raises(ValueError):
        gymnasium_env("countred", opponent="")


def _episode(env: Any, seed: int, policy_seed: int) -> tuple[float, list[int], dict[str, Any]]:
    _, info = env.reset(seed=seed)
    rng = random.Random(policy_seed)
    total = 0.0
    actions = []
    done = False
    while not done:
        mask = info["action_mask"]
        assert np.array_equal(mask, env.action_masks())
        action = rng.choice(list(np.flatnonzero(mask)))
        actions.append(int(action))
        _, reward, term, trunc, info = env.step(action)
        total += float(reward)
        done = term or trunc
    return total, actions, info


def test_36to1_needs_no_opponent_and_its_reward_is_the_return() -> None:
    env = gymnasium_env("36to1")
    total, actions, info = _episode(env, 3, 0)
    game = new_game("36to1", {"seed": "3"})
    for a in actions:
        game.apply(env.table.space.text(a))
    assert game.is_terminal() and total == game.returns()[0] == info["returns"][0]


def test_episodes_repeat_with_a_bounded_opponent() -> None:
    env = gymnasium_env("columns", opponent="mcts:iterations=20", seat=1)
    first = _episode(env, 5, 1)
    second = _episode(env, 5, 1)
    assert first[0] == second[0] and first[1] == second[1]
    assert first[0] == env.table.game.returns()[1]
    env.reset(seed=5)
    assert len(env.table.game.history) == 1  # the opponent (seat 0) has placed first


def test_illegal_actions_lose_by_default_or_raise() -> None:
    env = gymnasium_env("columns", opponent="random")
    env.reset(seed=1)
    _, reward, term, _, info = env.step(env.table.space.action("Tb1a1v"))
    assert term and reward == -1.0 and info["illegal_action"]
    with pytest.raises(RuntimeError):
        env.step(0)
    env = gymnasium_env("columns", opponent="random", illegal="raise")
    env.reset(seed=1)
    with pytest.raises(ValueError, match="not legal"):
        env.step(env.table.space.action("Tb1a1v"))


def test_render_shows_the_learners_view() -> None:
    env = gymnasium_env("36to1", render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    assert isinstance(text, str) and "a" in text


@pytest.mark.parametrize("game_id", GAMES)
def test_two_worlds_through_gymnasium(game_id: str, two_worlds: Any) -> None:
    """Two deals that differ only in unseen cards give the learner identical observations (the
    opponent, bounded by iterations and seeded alike, sees identical worlds too)."""
    opts_a, opts_b = two_worlds(game_id)
    seed_a, seed_b = int(opts_a.pop("seed")), int(opts_b.pop("seed"))
    # the opponents' seeds come from the game seed: give both the same agent seed
    env_a = gymnasium_env(game_id, opponent="random:seed=4", **opts_a)
    env_b = gymnasium_env(game_id, opponent="random:seed=4", **opts_b)
    oa, ia = env_a.reset(seed=seed_a)
    ob, ib = env_b.reset(seed=seed_b)
    rng = random.Random(2)
    for _ in range(4):
        assert np.array_equal(oa, ob) and np.array_equal(ia["action_mask"], ib["action_mask"])
        action = rng.choice(list(np.flatnonzero(ia["action_mask"])))
        oa, _, done_a, _, ia = env_a.step(action)
        ob, _, done_b, _, ib = env_b.step(action)
        assert done_a == done_b
        if done_a:
            break
