"""Tournaments and self-play as Ray tasks: the same results as the local run for the same seeds,
errors raised as themselves, and a clear refusal (exit code 2, no traceback) without Ray.

The Ray tests share one local Ray of 2 CPUs for the module (starting one takes seconds) and skip
when ray is not importable; the tests of the refusal run everywhere (they hide ray themselves).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pytest

from rulebox.cli import tournament as tournament_cli
from rulebox.core.errors import RuleboxError
from rulebox.match.ray_runner import RayCluster, check_reachable, host_port, need_ray
from rulebox.match.tournament import GameResult, Summary, run_tournament

MISSING = "pip install 'rulebox[ray]'"
TIMING = ("seconds", "max_move_seconds")


@pytest.fixture(scope="module")
def cluster() -> Iterator[RayCluster]:
    """A local Ray of 2 CPUs for the module, shut down after it."""
    ray = pytest.importorskip("ray")
    ray.init(address="local", num_cpus=2, include_dashboard=False,
             object_store_memory=128 * 1024 * 1024)
    try:
        with RayCluster() as connected:  # finds the connection, leaves it open
            yield connected
    finally:
        ray.shutdown()


def record(result: GameResult) -> dict[str, Any]:
    """One game's record without its timings (the clock differs from run to run)."""
    data = asdict(result)
    for key in TIMING:
        data.pop(key)
    return data


def table(summary: Summary) -> dict[str, Any]:
    """The results table: per agent, per pair, the ratings and the first player's record."""
    data = summary.to_json()
    for row in data["agents"]:
        row.pop("slowest_move_seconds")
    data.pop("results")
    return data


# --- tournaments ------------------------------------------------------------------------------
def test_a_tournament_on_ray_gives_the_local_table(cluster: RayCluster) -> None:
    agents = ["random", "greedy", "mcts:iterations=20"]
    local = run_tournament("columns", agents, 2, seed=3, workers=1)
    ran: list[int] = []

    def through_ray(fn: Any, jobs: Any) -> Iterator[Any]:
        for res in cluster.map(fn, jobs):
            ran.append(res.index)
            yield res

    remote = run_tournament("columns", agents, 2, seed=3, runner=through_ray)
    assert sorted(ran) == list(range(6))  # every game went through Ray
    assert [record(r) for r in remote.results] == [record(r) for r in local.results]
    assert table(remote) == table(local)
    assert [r.index for r in remote.results] == list(range(6))  # back in job order


def test_a_solitaire_and_a_three_player_tournament_on_ray(cluster: RayCluster) -> None:
    for game, agents, options, games in (
            ("36to1", ["random", "connected"], None, 3),
            ("columba", ["random", "random:seed=7"], {"players": "3"}, 2)):  # hidden cards
        local = run_tournament(game, agents, games, seed=1, options=options)
        remote = run_tournament(game, agents, games, seed=1, options=options,
                                runner=cluster.map)
        assert [record(r) for r in remote.results] == [record(r) for r in local.results], game
        assert table(remote) == table(local), game


def test_the_cli_on_ray_writes_the_local_results(
    cluster: RayCluster, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def run(*more: str) -> dict[str, Any]:
        parser = argparse.ArgumentParser()
        tournament_cli.add_arguments(parser)
        out = tmp_path / f"t{len(more)}.json"
        args = parser.parse_args(["countred", "--agents", "random,greedy", "--games", "4",
                                  "--seed", "4", "--quiet", "--json", str(out), *more])
        assert tournament_cli.run(args) == 0
        data: dict[str, Any] = json.loads(out.read_text())
        for row in data["results"]:
            for key in TIMING:
                row.pop(key)
        for row in data["agents"]:
            row.pop("slowest_move_seconds")
        return data

    local = run("--workers", "1")
    assert "1 worker(s)" in capsys.readouterr().out
    log = tmp_path / "t.jsonl"
    remote = run("--ray", "--log", str(log))
    assert "as Ray tasks on a local Ray (2 CPUs)" in capsys.readouterr().out
    assert remote == local
    # the log does not name where the games ran: the local run finds them all played
    assert run("--workers", "1", "--log", str(log)) == local
    assert "4 game(s) already played" in capsys.readouterr().out


def test_an_error_in_a_ray_task_is_raised_as_itself(cluster: RayCluster) -> None:
    assert sorted(cluster.map(int, ["3", "1", "2"])) == [1, 2, 3]
    with pytest.raises(ValueError) as caught:
        list(cluster.map(int, ["1", "not a number"]))
    assert type(caught.value) is ValueError  # not Ray's wrapper
    assert "not a number" in str(caught.value)


def test_a_ray_task_runs_in_the_callers_language(cluster: RayCluster) -> None:
    from rulebox.i18n import gettext, use_language

    with use_language("en"):
        here = gettext("wrote {path}")
        assert list(cluster.map(gettext, ["wrote {path}"])) == [here]
    with use_language("de"):
        here = gettext("wrote {path}")
        assert here != "wrote {path}"  # the catalogue has it in German
        assert list(cluster.map(gettext, ["wrote {path}"])) == [here]


# --- self-play --------------------------------------------------------------------------------
def test_training_on_ray_writes_the_same_weights(cluster: RayCluster, tmp_path: Path) -> None:
    pytest.importorskip("numpy")
    from rulebox.ai import train as training

    # two generations: the second plays with the weights fitted on the first, sent to the tasks
    config = training.TrainConfig("countred", seed=2, games=6, generations=2, per_game=4,
                                  l2=0.01)
    local = training.train(config, workers=1)
    remote = training.train(config, runner=cluster.map)
    local.save(tmp_path / "local.json")
    remote.save(tmp_path / "ray.json")
    assert (tmp_path / "ray.json").read_bytes() == (tmp_path / "local.json").read_bytes()
    assert remote.weights != training.feature_set("countred").start_weights().weights


# --- without Ray ------------------------------------------------------------------------------
def test_without_ray_the_option_is_refused_with_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` now fails
    with pytest.raises(RuleboxError, match=r"pip install 'rulebox\[ray\]'"):
        need_ray()
    from rulebox.cli.main import main

    assert main(["tournament", "columns", "--agents", "random,greedy", "--games", "1",
                 "--quiet", "--ray"]) == 2
    err = capsys.readouterr().err
    assert MISSING in err and "Traceback" not in err
    if _has_numpy():  # train checks numpy first
        assert main(["train", "countred", "--games", "2", "--quiet", "--ray"]) == 2
        err = capsys.readouterr().err
        assert MISSING in err and "Traceback" not in err
    # the local worker processes stay the default
    assert main(["tournament", "columns", "--agents", "random,greedy", "--games", "1",
                 "--workers", "1", "--quiet"]) == 0


def test_without_ray_the_command_exits_2_without_a_traceback() -> None:
    code = ("import sys; sys.modules['ray'] = None\n"
            "from rulebox.cli.main import main\n"
            "sys.exit(main(sys.argv[1:]))\n")
    env = dict(os.environ, NO_COLOR="1")
    proc = subprocess.run(
        [sys.executable, "-c", code, "tournament", "columns", "--agents", "random,greedy",
         "--games", "1", "--quiet", "--ray", "auto"],
        capture_output=True, text=True, env=env, timeout=120, check=False)
    assert proc.returncode == 2
    assert MISSING in proc.stderr
    assert "Traceback" not in proc.stderr


def test_an_address_where_nothing_listens_is_refused_at_once() -> None:
    import socket

    with socket.socket() as s:  # a port that was free a moment ago
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    assert not RayCluster(f"127.0.0.1:{port}").local
    # checked before ray.init, which would wait for minutes (the module's Ray is connected,
    # so the check is called here as RayCluster.start calls it)
    with pytest.raises(RuleboxError, match="no Ray cluster answers"):
        check_reachable(f"127.0.0.1:{port}", seconds=2.0)
    assert host_port("ray://head:10001") == ("head", 10001)
    assert host_port("10.0.0.5:6379") == ("10.0.0.5", 6379)
    assert host_port("auto") is None


def _has_numpy() -> bool:
    try:
        import numpy  # noqa: F401
    except ImportError:
        return False
    return True
