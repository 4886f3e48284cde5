"""The examples run, in a tiny configuration."""

from __future__ import annotations

import runpy
import sys
from pathlib import Path
from typing import Any

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _main(name: str) -> Any:
    return runpy.run_path(str(EXAMPLES / name), run_name="example")["main"]


def test_train_36to1_runs_and_reports_both_policies(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("gymnasium", reason="the rl extra (gymnasium) is not installed")
    result = _main("train_36to1.py")(["--episodes", "6", "--eval", "3", "--seed", "1"])
    out = capsys.readouterr().out
    assert "episode 6: mean return" in out and "held-out deals: 3" in out
    assert -1.0 <= result["trained"] < 1.0 and -1.0 <= result["random"] < 1.0


def test_the_training_step_raises_the_chosen_actions_probability() -> None:
    np = pytest.importorskip("numpy")
    policy_cls = runpy.run_path(str(EXAMPLES / "train_36to1.py"), run_name="example")[
        "MaskedLinearPolicy"]
    policy = policy_cls(4, 6, np.random.default_rng(0))
    obs = np.array([1.0, 0.0, 0.5, 0.0], dtype=np.float32)
    mask = np.array([0, 1, 1, 0, 1, 0], dtype=np.int8)
    legal, p = policy.probs(obs, mask)
    assert list(legal) == [1, 2, 4] and p.sum() == pytest.approx(1.0)
    policy.update([(obs, legal, p, 1)], advantage=1.0, lr=1.0)
    _, after = policy.probs(obs, mask)
    assert after[1] > p[1]


def test_openspiel_mcts_match_runs(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("pyspiel", reason="the rl extra (open-spiel) is not installed")
    result = _main("openspiel_mcts.py")(["--game", "countred", "--games", "2",
                                         "--simulations", "5"])
    out = capsys.readouterr().out
    assert "MCTS (5 simulations) against random on rulebox_countred" in out
    assert -1.0 <= result["mean"] <= 1.0


def test_openspiel_ismcts_match_runs(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("pyspiel", reason="the rl extra (open-spiel) is not installed")
    result = _main("openspiel_mcts.py")(["--game", "36to1", "--games", "1",
                                         "--simulations", "3", "--ismcts"])
    assert "IS-MCTS" in capsys.readouterr().out and -1.0 <= result["mean"] <= 1.0


def test_examples_need_no_torch() -> None:
    for path in EXAMPLES.glob("*.py"):
        assert "torch" not in path.read_text().replace("no torch", "")
    assert "torch" not in sys.modules
