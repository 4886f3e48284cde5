"""Every agent on every registered game: a legal move, the game left unchanged, the same move
for the same seed and iterations, answers within time=, and the registry's levels."""

from __future__ import annotations

import time

import pytest

from rulebox.ai import agent_entries, make_agent
from rulebox.core import game_ids, new_game
from rulebox.core.errors import OptionError, UnknownNameError
from rulebox.core.game import Game
from rulebox.core.rng import rng

ITERATIONS = {"mcts": "40", "ismcts": "40", "alphabeta": "300", "best": "40", "hard": "40",
              "medium": "30", "easy": "20", "counter": "5"}


def _midgame(game_id: str, plies: int = 6) -> Game:
    game = new_game(game_id, {"seed": "11"})
    r = rng(5, "midgame", game_id)
    for _ in range(plies):
        if game.is_terminal():
            break
        moves = sorted(game.legal_moves(), key=str)
        game.apply(moves[r.randrange(len(moves))])
    return game


def _cases() -> list[object]:
    return [
        pytest.param(g, e.name, id=f"{g}-{e.name}")
        for g in game_ids()
        for e in agent_entries(g)
    ]


@pytest.mark.parametrize(("game_id", "agent"), _cases())
def test_agent_is_legal_repeatable_and_leaves_the_game_alone(game_id: str, agent: str) -> None:
    game = _midgame(game_id)
    assert not game.is_terminal()  # the seeded start is a middle game
    settings = {"iterations": ITERATIONS.get(agent, "30"), "seed": "9", "time": "5"}
    before = game.to_json()
    first = make_agent(agent, game_id, settings).choose(game)
    assert game.to_json() == before
    assert first in game.legal_moves()
    game.check_move(first)
    second = make_agent(agent, game_id, settings).choose(game)
    assert str(second) == str(first)


@pytest.mark.parametrize("game_id", game_ids())
@pytest.mark.parametrize("agent", ["best", "mcts"])
def test_agent_answers_within_the_time(game_id: str, agent: str) -> None:
    game = _midgame(game_id, 4)
    assert not game.is_terminal()  # the seeded start is a middle game
    a = make_agent(agent, game_id, {"time": "0.3", "seed": "1"})
    t0 = time.perf_counter()
    a.choose(game)
    # a loaded machine (other work on the same cores) may add a little; the budget keeps 25%
    assert time.perf_counter() - t0 < 0.3 + 0.1


def test_levels_and_best_exist_for_every_game() -> None:
    for game_id in game_ids():
        names = {e.name for e in agent_entries(game_id)}
        assert {"random", "greedy", "mcts", "best", "easy", "medium", "hard"} <= names


def test_alphabeta_only_for_two_player_games_without_hidden_information() -> None:
    for game_id in game_ids():
        cls = type(new_game(game_id, {"seed": "1"}))
        plays = any(e.name == "alphabeta" for e in agent_entries(game_id))
        if plays:
            assert not cls.has_hidden_information and cls.player_counts == (2,)


def test_bad_agent_settings_are_refused() -> None:
    with pytest.raises(OptionError):
        make_agent("mcts", "columns", {"time": "-1"})
    with pytest.raises(OptionError):
        make_agent("mcts", "columns", {"colour": "red"})
    with pytest.raises(OptionError):
        make_agent("alphabeta", "columns", {"depth": "deep"})
    with pytest.raises(OptionError):
        make_agent("best", "columns", {"depth": "0"})
    with pytest.raises(OptionError):
        make_agent("mcts", "columns", {"c": "-1"})
    with pytest.raises(UnknownNameError):
        make_agent("deep-blue", "columns", {})
    with pytest.raises(UnknownNameError):
        make_agent("alphabeta", "36to1", {})


@pytest.mark.parametrize("players", ["3", "4"])
@pytest.mark.parametrize("agent", ["mcts", "ismcts", "best"])
def test_search_agents_play_three_and_four_player_columba(players: str, agent: str) -> None:
    game = new_game("columba", {"seed": "2", "players": players})
    assert game.num_players == int(players)
    settings = {"iterations": "15", "seed": "1"}
    seen = set()
    for _ in range(8):  # the first turns of several players
        if game.is_terminal():
            break
        seen.add(game.current_player())
        move = make_agent(agent, "columba", settings).choose(game)
        game.apply(move)
    assert len(seen) >= 2


def test_levels_stand_for_their_agents_and_pass_settings_on() -> None:
    from rulebox.ai.levels import LEVELS

    for game_id, table in LEVELS.items():
        for level, spec in table.items():
            agent = make_agent(level, game_id, {"time": "0.5", "seed": "4"})
            assert agent.agent_name == spec.agent  # type: ignore[attr-defined]
            inner = agent.inner.settings if hasattr(agent.inner, "settings") else None  # type: ignore[attr-defined]
            if inner is not None:
                assert inner.time == 0.5 and inner.seed == 4
    capped = make_agent("medium", "countred", {"iterations": "77"})
    assert capped.inner.settings.iterations == 77  # type: ignore[attr-defined]
