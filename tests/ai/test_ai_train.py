"""``rulebox train``: the logistic fit, repeatable self-play training on a toy game, weights files
that are corrupt or do not match, and the command line on a tiny budget."""

from __future__ import annotations

import json
import math
import multiprocessing
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rulebox.ai import learned
from rulebox.ai.learned import Weights, forget_weights, load_weights, use_weights
from rulebox.core.errors import RuleboxError
from rulebox.core.game import Game
from tests.ai.ai_toy_game import Stones

np = pytest.importorskip("numpy")

from rulebox.ai import train as training  # noqa: E402  (needs numpy)
from rulebox.ai.train import FeatureSet, TrainConfig, fit_logistic, log_loss  # noqa: E402

# --- a toy game with features -----------------------------------------------------------------
# Stones: take 1 or 2, whoever takes the last stone wins. The player to move loses exactly when
# the pile is a multiple of 3, so "winning" decides every game between good players, and
# "pile" and "to_move" tell nothing by themselves.
TOY = "stones-train"
TOY_FEATURES = ("winning", "pile", "to_move")


def toy_features(game: Game, player: int) -> list[float]:
    g: Any = game
    mover_wins = g.pile % 3 != 0
    mine = g.to_move == player
    return [1.0 if mover_wins == mine else -1.0, g.pile / 10.0, 1.0 if mine else -1.0]


class TaggedStones(Stones):
    """Stones whose positions carry the game's seed, so that no two games share a position
    (the trainer skips positions sampled in an earlier game; Stones has only a hundred)."""

    def position_key(self) -> Any:
        return (super().position_key(), self.opts["seed"])


def toy_game(options: dict[str, str]) -> Game:
    seed = int(options.get("seed", "0"))
    return TaggedStones.new({"stones": 5 + seed % 40, "seed": seed})  # a different pile each


TOY_SET = FeatureSet(TOY, TOY_FEATURES, toy_features, {"winning": 0.0, "pile": 0.5})
training.register_for_training(TOY_SET, toy_game)


def toy_config(**kw: Any) -> TrainConfig:
    settings: dict[str, Any] = {"seed": 3, "games": 60, "generations": 2, "epsilon": 0.1,
                                "skip_opening": 0, "per_game": 6}
    settings.update(kw)
    return TrainConfig(TOY, **settings)


# --- the fit ----------------------------------------------------------------------------------
def test_fit_recovers_known_weights_from_sampled_results() -> None:
    gen = np.random.default_rng(11)
    true_w = np.array([1.5, -0.7, 0.0])
    x = gen.normal(size=(20000, 3))
    p = 1.0 / (1.0 + np.exp(-(x @ true_w + 0.3)))
    y = (gen.random(20000) < p).astype(float)
    w, b = fit_logistic(x, y, l2=0.0)
    assert np.allclose(w, true_w, atol=0.08)
    assert abs(b - 0.3) < 0.08
    # the fitted weights explain the results better than the true ones do on the same data
    assert log_loss(x, y, w, b) <= log_loss(x, y, true_w, 0.3)


def test_fit_with_probabilities_as_labels_is_exact() -> None:
    gen = np.random.default_rng(5)
    true_w = np.array([0.8, -2.0, 0.25, 0.0])
    x = gen.normal(size=(500, 4))
    y = 1.0 / (1.0 + np.exp(-(x @ true_w - 1.0)))  # soft labels: draws count as 1/2 the same way
    w, b = fit_logistic(x, y, l2=0.0)
    assert np.allclose(w, true_w, atol=1e-6)
    assert b == pytest.approx(-1.0, abs=1e-6)


def test_l2_shrinks_the_weights() -> None:
    gen = np.random.default_rng(2)
    x = gen.normal(size=(400, 2))
    y = (x[:, 0] > 0).astype(float)  # separable: without a penalty the weight would run off
    w_small, _ = fit_logistic(x, y, l2=1e-3)
    w_big, _ = fit_logistic(x, y, l2=1e-1)
    assert w_small[0] > w_big[0] > 0
    assert np.isfinite(w_small).all()


def test_l2_towards_the_defaults_keeps_what_the_data_does_not_contradict() -> None:
    gen = np.random.default_rng(8)
    x = gen.normal(size=(2000, 2))
    y = (gen.random(2000) < 1.0 / (1.0 + np.exp(-2.0 * x[:, 0]))).astype(float)
    # the second feature tells nothing: towards zero it goes to 0, towards a default it stays
    w_zero, _ = fit_logistic(x, y, l2=1.0)
    w_prior, _ = fit_logistic(x, y, l2=1.0, center=np.array([0.0, 0.7]))
    assert abs(w_zero[1]) < 0.1
    assert w_prior[1] > 0.5
    assert w_prior[0] == pytest.approx(w_zero[0], abs=0.1)
    assert TrainConfig("columba", prior="defaults").command().endswith("--prior defaults")


def test_choose_l2_picks_from_the_grid_by_held_out_loss() -> None:
    gen = np.random.default_rng(4)
    x = gen.normal(size=(600, 3))
    y = (gen.random(600) < 1.0 / (1.0 + np.exp(-x[:, 0]))).astype(float)
    groups = np.arange(600) // 6
    l2, losses = training.choose_l2(x, y, groups, grid=(1e-3, 10.0))
    assert l2 == 1e-3  # a penalty of 10 flattens a real effect
    assert losses["0.001"] < losses["10"]


# --- self-play training -----------------------------------------------------------------------
def test_self_play_learns_the_winning_feature() -> None:
    w = training.train(toy_config())
    weights = dict(zip(w.features, w.weights, strict=True))
    # generation 0 played to keep the pile big (the hand-set weights); the fit finds what wins
    assert weights["winning"] > 0.4
    assert weights["winning"] > 3 * max(abs(weights["pile"]), abs(weights["to_move"]))
    # the pile is the same for both players, so in a duel it cannot tell who wins
    assert weights["pile"] == 0.0
    fit = w.meta["fit"]
    assert fit["held_out_log_loss_after"] < fit["held_out_log_loss_before"]
    assert fit["held_out_log_loss_after"] < fit["held_out_log_loss_constant"]
    assert w.meta["positions"]["held_out"] > 0
    assert w.meta["games"] == 120
    assert len(w.meta["generation_log"]) == 2


def test_same_seed_same_file_byte_for_byte(tmp_path: Path) -> None:
    a, b, c = tmp_path / "a.json", tmp_path / "b.json", tmp_path / "c.json"
    training.train(toy_config()).save(a)
    training.train(toy_config()).save(b)
    training.train(toy_config(seed=4)).save(c)
    assert a.read_bytes() == b.read_bytes()
    assert a.read_bytes() != c.read_bytes()
    meta = json.loads(a.read_text())["meta"]
    assert meta["command"].startswith(f"rulebox train {TOY} --seed 3 --games 60")
    assert meta["seed"] == 3


def test_workers_do_not_change_the_samples() -> None:
    cfg = toy_config(games=8, generations=1)
    start = TOY_SET.start_weights()
    one = training.play_generation(cfg, 0, start, workers=1)
    assert [s.index for s in one] == list(range(8))
    if multiprocessing.get_start_method() != "fork":
        return  # the toy game is registered in this process only
    two = training.play_generation(cfg, 0, start, workers=2)  # forked workers, any order
    assert [s.index for s in two] == list(range(8))
    assert [s.rows for s in one] == [s.rows for s in two]
    assert [s.results for s in one] == [s.results for s in two]


def test_samples_skip_the_opening_and_cap_each_game() -> None:
    cfg = toy_config(skip_opening=3, per_game=2, epsilon=1.0)
    job = training.SelfPlayJob(0, 0, cfg, TOY_SET.start_weights(), 30, None)
    samples = training.play_selfplay(job)
    assert len(samples.rows) <= 2 * 2  # two positions, a row for each player
    pile = 5 + 30 % 40
    for row in samples.rows:  # three moves take at least three stones
        assert row[1] * 10 <= pile - 3


def test_labels_are_results_scaled_to_0_1() -> None:
    game = Stones.new({"stones": 2})
    game.apply_unchecked(2)  # player 0 takes the last stones
    assert training.result_label(game, 0) == 1.0
    assert training.result_label(game, 1) == 0.0


def test_a_solitaire_not_won_is_labelled_lost() -> None:
    # 36 to 1 scores a loss by the cubes left (a little below 0 with two cubes), but the model
    # is P(win): every lost deal is 0
    from rulebox.core.registry import new_game

    game = new_game("36to1", {"seed": "1"})
    moves = 0
    while not game.is_terminal():
        game.apply_unchecked(sorted(game.legal_moves(), key=str)[0])
        moves += 1
    assert game.returns()[0] < 1.0
    assert game.returns()[0] > -1.0
    assert training.result_label(game, 0) == 0.0


def test_model_player_takes_a_win_in_one() -> None:
    weights = Weights.from_mapping(TOY, TOY_FEATURES, {"pile": 5.0})  # likes big piles
    player = training.ModelPlayer(TOY_SET, weights, seed=1)
    game = Stones.new({"stones": 2})
    assert player.choose(game) == 2  # taking both wins at once, whatever the weights say


def test_self_play_agents_must_repeat() -> None:
    with pytest.raises(RuleboxError, match="iterations"):
        TrainConfig("countred", agent="alphabeta").check()
    with pytest.raises(RuleboxError, match="time"):
        TrainConfig("countred", agent="mcts:time=1").check()
    TrainConfig("countred", agent="alphabeta:iterations=100").check()
    TrainConfig("countred", agent="greedy").check()


def test_a_registered_agent_plays_with_each_generations_weights() -> None:
    game_id = _game_with_features()
    seen: list[tuple[float, ...]] = []
    original = training.use_weights

    def spy(weights: Weights) -> None:
        seen.append(weights.weights)
        original(weights)

    fs = training.feature_set(game_id)
    cfg = TrainConfig(game_id, games=6, generations=2, agent="greedy", per_game=12, l2=0.01)
    try:
        training.use_weights = spy  # type: ignore[assignment]
        w = training.train(cfg)
    finally:
        training.use_weights = original  # type: ignore[assignment]
    assert w.features == fs.names
    start = fs.start_weights().weights
    assert seen[:6] == [start] * 6  # generation 0: the hand-set weights
    assert seen[6:] == [seen[6]] * 6 and seen[6] != start  # generation 1: the first fit
    # the process is left with the weights load_weights would read, not the last generation's
    assert load_weights(game_id, fs.names, fs.defaults, fs.bias).weights != seen[6]


def test_a_game_without_features_is_refused() -> None:
    with pytest.raises(RuleboxError, match="no evaluation features"):
        training.feature_set("no-such-game")


# --- weights files that do not fit ------------------------------------------------------------
@pytest.fixture
def weights_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    path = tmp_path / f"{TOY}.json"
    monkeypatch.setattr(learned, "shipped_path", lambda game_id: path)
    forget_weights(TOY)
    yield path
    forget_weights(TOY)


DEFAULTS = {"winning": 2.0, "pile": 0.5}


@pytest.mark.parametrize("content", [
    "{not json",
    "",
    json.dumps({"game": TOY, "features": ["winning", "pile"],
                "weights": {"winning": 1, "pile": 1}}),  # another feature list
    json.dumps({"game": TOY, "features": list(TOY_FEATURES),
                "weights": {"winning": 1, "pile": 1}}),  # a weight missing
    json.dumps({"game": TOY, "features": list(TOY_FEATURES),
                "weights": {"winning": "x", "pile": 1, "to_move": 0}}),  # not a number
    json.dumps({"features": list(TOY_FEATURES)}),
    json.dumps([1, 2, 3]),
    json.dumps({"game": TOY, "features": list(TOY_FEATURES),  # written as NaN
                "weights": {"winning": math.nan, "pile": 1, "to_move": 0}}),
    json.dumps({"game": TOY, "features": list(TOY_FEATURES),  # written as -Infinity
                "weights": {"winning": 1, "pile": 1, "to_move": 0}, "bias": -math.inf}),
    json.dumps({"game": "another", "features": list(TOY_FEATURES),
                "weights": {"winning": 1, "pile": 1, "to_move": 0}}),  # another game's file
    json.dumps({"game": TOY, "features": list(TOY_FEATURES),
                "weights": {"winning": 1, "pile": 1, "to_move": 0}, "meta": [1]}),
], ids=["broken", "empty", "other-features", "missing-weight", "not-a-number", "no-weights",
        "a-list", "nan", "infinite-bias", "other-game", "bad-meta"])
def test_a_corrupt_or_mismatched_file_falls_back_to_the_defaults(
    weights_file: Path, content: str
) -> None:
    weights_file.write_text(content)
    w = load_weights(TOY, TOY_FEATURES, DEFAULTS)
    assert w.weights == (2.0, 0.5, 0.0)
    assert w.bias == 0.0


def test_a_matching_file_is_loaded(weights_file: Path) -> None:
    Weights(TOY, TOY_FEATURES, (1.0, -2.0, 0.5), 0.25, {"seed": 1}).save(weights_file)
    w = load_weights(TOY, TOY_FEATURES, DEFAULTS)
    assert w.weights == (1.0, -2.0, 0.5)
    assert w.bias == 0.25
    use_weights(Weights.from_mapping(TOY, TOY_FEATURES, {"pile": 9.0}))
    assert load_weights(TOY, TOY_FEATURES, DEFAULTS).weights == (0.0, 9.0, 0.0)


# --- the command line -------------------------------------------------------------------------
def _game_with_features() -> str:
    for game_id in ("countred", "columns", "discs", "columba", "36to1"):
        try:
            training.feature_set(game_id)
        except RuleboxError:
            continue
        return game_id
    pytest.skip("no game has evaluation features yet")


def _run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env.pop("NO_COLOR", None)
    env["TERM"] = "xterm-256color"  # a terminal type that would allow colour: pipes still win
    return subprocess.run([sys.executable, "-m", "rulebox.cli.main", *args], capture_output=True,
                          text=True, env=env, timeout=600, check=False)


def test_cli_trains_on_a_tiny_budget_and_writes_a_loadable_file(tmp_path: Path) -> None:
    game_id = _game_with_features()
    fs = training.feature_set(game_id)
    out = tmp_path / "w.json"
    proc = _run_cli("train", game_id, "--games", "6", "--generations", "1", "--per-game", "4",
                    "--l2", "0.01", "--seed", "2", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    data = json.loads(out.read_text())
    w = Weights.from_json(data)
    assert w.game == game_id
    assert w.features == fs.names
    assert data["meta"]["command"] == (
        f"rulebox train {game_id} --seed 2 --games 6 --generations 1 --agent model "
        "--epsilon 0.1 --skip-opening 4 --per-game 4 --holdout 0.2 --l2 0.01"
        + (" --players 2,3,4" if game_id == "columba" else ""))
    assert data["meta"]["games"] == 6
    assert f"wrote {out}" in proc.stdout
    # not a terminal: no bar, no cursor movement or colour codes, whole lines
    for stream in (proc.stdout, proc.stderr):
        assert "\x1b" not in stream
        assert "\r" not in stream
    assert "generation 0:" in proc.stdout
    # the same command in a new process (another string hashing) writes the same bytes
    again = tmp_path / "again.json"
    proc2 = _run_cli("train", game_id, "--games", "6", "--generations", "1", "--per-game", "4",
                     "--l2", "0.01", "--seed", "2", "--out", str(again), "--quiet")
    assert proc2.returncode == 0, proc2.stderr
    assert again.read_bytes() == out.read_bytes()


def test_cli_refuses_bad_settings(capsys: pytest.CaptureFixture[str]) -> None:
    from rulebox.cli.main import main

    assert main(["train", "countred", "--agent", "mcts:time=1"]) == 2
    assert "iterations" in capsys.readouterr().err
    assert main(["train", "countred", "--holdout", "1.5"]) == 2
