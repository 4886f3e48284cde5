"""The PettingZoo AEC environments, checked by PettingZoo's own api_test and seed_test."""

from __future__ import annotations

import random
import warnings
from typing import Any

import pytest

pytest.importorskip("pettingzoo", reason="the rl extra (pettingzoo) is not installed")
np = pytest.importorskip("numpy")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from rulebox.core import game_entry, new_game  # noqa: E402
from rulebox.env import pettingzoo_env  # noqa: E402

GAMES = ("columns", "36to1", "countred", "discs", "columba")


def test_the_factories_stay_functions_after_the_adapters_are_imported() -> None:
    import rulebox.env
    import rulebox.env.gymnasium_adapter
    import rulebox.env.pettingzoo_adapter

    assert callable(rulebox.env.pettingzoo_env) and callable(rulebox.env.gymnasium_env)


@pytest.mark.parametrize("game_id", GAMES)
def test_pettingzoo_api_test(game_id: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the dict observation warnings of the classic games
        api_test(pettingzoo_env(game_id), num_cycles=150)


@pytest.mark.parametrize("game_id", GAMES)
def test_pettingzoo_seed_test(game_id: str) -> None:
    seed_test(lambda: pettingzoo_env(game_id), num_cycles=40)


def test_columba_with_four_players_passes_api_test() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(pettingzoo_env("columba", players=4), num_cycles=60)


@pytest.mark.parametrize("players", [2, 3])
def test_columba_officia_passes_api_and_seed_tests(players: int) -> None:
    """Officia (CB-15) through PettingZoo: its own action space (Columba's ids, then the
    Officia verbs') and observation (the roles, powers and the peasant's tiles)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env = pettingzoo_env("columba", officia=1, players=players)
        api_test(env, num_cycles=60)
    space: Any = env.action_space(env.possible_agents[0])  # a Discrete space
    assert space.n == env.table.space.n > 280_000
    seed_test(lambda: pettingzoo_env("columba", officia=1, players=players), num_cycles=20)


def test_columba_officia_observes_the_roles_and_plays_the_powers() -> None:
    env = pettingzoo_env("columba", officia=1, roles="architect,farmerswife")
    env.reset(seed=3)
    obs = env.observe("player_0")["observation"]
    planes, scalars = env.table.observer.split(obs)
    names = env.table.observer.scalars
    assert scalars[names.index("seat+0_role_architect")] == 1
    assert scalars[names.index("seat+1_role_farmerswife")] == 1
    assert scalars[names.index("seat+0_role_farmerswife")] == 0
    assert planes.shape[0] == 20
    taken = _play_masked(env, 3)
    texts = [env.table.space.text(a) for a in taken]
    assert env.table.game.is_terminal()
    assert any(t.split()[0] in ("architect", "farmerswife") for t in texts)


def _play_masked(env: object, seed: int, limit: int = 10_000) -> list[int]:
    """Play random legal actions (from the masks) to the end; the actions taken."""
    rng = random.Random(seed)
    taken = []
    for agent in env.agent_iter(limit):  # type: ignore[attr-defined]
        obs, _, term, trunc, _ = env.last()  # type: ignore[attr-defined]
        if term or trunc:
            env.step(None)  # type: ignore[attr-defined]
            continue
        action = rng.choice(list(np.flatnonzero(obs["action_mask"])))
        taken.append(int(action))
        env.step(action)  # type: ignore[attr-defined]
        del agent
    return taken


@pytest.mark.parametrize("game_id", ("columns", "countred", "36to1"))
def test_reset_seed_is_the_rulebox_seed_and_rewards_are_returns(game_id: str) -> None:
    env = pettingzoo_env(game_id)
    env.reset(seed=11)
    assert env.table.game.to_json() == new_game(game_id, {"seed": "11"}).to_json()
    rewards = {a: 0.0 for a in env.possible_agents}
    rng = random.Random(0)
    for agent in env.agent_iter(5000):
        obs, reward, term, trunc, _ = env.last()
        rewards[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        env.step(rng.choice(list(np.flatnonzero(obs["action_mask"]))))
    assert env.table.game.is_terminal()
    assert [rewards[a] for a in env.possible_agents] == env.table.game.returns()


def test_the_seed_is_given_to_reset_not_as_an_option() -> None:
    with pytest.raises(ValueError, match="reset"):
        pettingzoo_env("columns", seed=3)


def test_the_mask_belongs_to_the_agent_to_move_only() -> None:
    env = pettingzoo_env("columns")
    env.reset(seed=1)
    assert env.agent_selection == "player_0"
    assert env.observe("player_0")["action_mask"].sum() == 75
    assert env.observe("player_1")["action_mask"].sum() == 0


def test_multi_action_turns_keep_the_same_agent() -> None:
    env = pettingzoo_env("discs")
    env.reset(seed=2)
    space = env.table.space
    env.step(space.action("arrange RGBRGBRGB"))
    env.step(space.action("choose silver a1c3"))
    mover = env.agent_selection
    env.step(int(np.flatnonzero(env.observe(mover)["action_mask"])[0]))  # a main action
    if not env.terminations[mover]:
        assert env.agent_selection == mover  # blocking actions or end follow


def test_render_ansi_is_the_terminal_board() -> None:
    env = pettingzoo_env("countred", render_mode="ansi")
    env.reset(seed=4)
    text = env.render()
    assert text == game_entry("countred").render(env.table.game, None).plain
    assert "A" in text and "4" in text
    with pytest.warns(UserWarning, match="render_mode"):
        assert pettingzoo_env("countred").render() is None


def test_illegal_actions_raise_or_lose() -> None:
    env = pettingzoo_env("columns")
    env.reset(seed=1)
    with pytest.raises(ValueError, match="not legal"):
        env.step(env.table.space.action("Tb1a1v"))  # a triple cannot point down on level 0
    env = pettingzoo_env("columns", illegal="lose")
    env.reset(seed=1)
    env.step(env.table.space.action("Tb1a1v"))
    assert all(env.terminations.values())
    assert env.rewards == {"player_0": -1.0, "player_1": 0.0}
    assert env.infos["player_0"] == {"illegal_action": True}


@pytest.mark.parametrize("game_id", GAMES)
def test_two_worlds_through_pettingzoo(game_id: str, two_worlds: Any) -> None:
    """Two deals that differ only in unseen cards give every agent identical observations."""
    opts_a, opts_b = two_worlds(game_id)
    seed_a, seed_b = int(opts_a.pop("seed")), int(opts_b.pop("seed"))
    env_a, env_b = pettingzoo_env(game_id, **opts_a), pettingzoo_env(game_id, **opts_b)
    env_a.reset(seed=seed_a)
    env_b.reset(seed=seed_b)
    rng = random.Random(9)
    for _ in range(6):
        for agent in env_a.possible_agents:
            oa, ob = env_a.observe(agent), env_b.observe(agent)
            assert np.array_equal(oa["observation"], ob["observation"])
            assert np.array_equal(oa["action_mask"], ob["action_mask"])
        assert env_a.agent_selection == env_b.agent_selection
        mask = env_a.observe(env_a.agent_selection)["action_mask"]
        action = rng.choice(list(np.flatnonzero(mask)))
        env_a.step(action)
        env_b.step(action)
