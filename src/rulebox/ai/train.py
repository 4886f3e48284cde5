"""Evaluation weights learned by self-play: logistic fitting of positions to game results.

This is "Texel tuning" as chess engines do it. Self-play games are played; positions are sampled
from them; each sampled position gives one row per player, ``features(game, player)`` of
:mod:`rulebox.ai.learned`, labelled with that player's result: 1 for a win (every player of a
winning side), 0 for a loss, a draw by the returns scaled to [0, 1] (1/2 in a duel); a solitaire
counts only a won deal as 1, so its model is P(win). A logistic regression with L2
regularisation fits the weights; it is solved by Newton's method (numpy, a handful of features,
so each step is exact and cheap).

Training runs in *generations*: generation 0 plays with the game's hand-set
``DEFAULT_WEIGHTS``, and each later generation plays with the weights fitted on every game so
far. The games of all generations are pooled for the last fit.

- **Who plays**: ``model`` (the default) is one ply of look-ahead on the current weights: the
  move after which the mover's modelled P(win) is highest (a move that wins at once first), a
  random move with probability ``epsilon``; with ``moves`` it looks at that many legal moves
  only, drawn at random (Columba: about 60 legal actions and slow features). Any registered
  agent can play instead (``alphabeta:iterations=2000``); it then evaluates with the current
  weights through :func:`rulebox.ai.learned.use_weights`, and must be bounded by
  ``iterations=``, not by the clock, so that training repeats. ``epsilon`` random moves are
  mixed into its play too.
- **Which positions**: the first ``skip_opening`` moves of a game are played at random (so
  that games start differently, as an opening book does for chess engines) and not sampled;
  a position already sampled (the same
  ``position_key`` in any earlier game) is skipped, and so is one whose features for a player
  equal that player's last sampled features in the same game (a pass, a turn's ``end``);
  of what is left at most ``per_game`` positions a game are kept, chosen at random.
- **Hidden information**: the features read public information only (their contract), and the
  ``model`` player looks ahead on a determinization for the mover, as ``greedy`` does, so
  nobody reads a card it could not see.
- **Several players** (Columba with 2-4): every player of a sampled position gives a row from
  its own seat, labelled with its own result; the player counts are cycled from game to game,
  so one set of weights serves them all.
- **Held out**: a share of the games (by game, never by position, since positions of one game
  share its result) is kept out of the fit; the log-loss of the hand-set weights and of the
  fitted ones on those games is the figure reported in the file's ``meta``.
- **L2**: the penalty ``l2/2 * |w - c|^2`` (not on the bias) on the mean log-loss, ``c`` 0 or,
  with ``prior="defaults"``, the hand-set weights (the data then moves them only as far as it
  must); unless it is given, ``l2`` is chosen among :data:`L2_GRID` by 4-fold cross-validation
  over the training games.

Everything random flows from ``seed``; agents are bounded by moves or iterations, never by the
clock; games are played in a fixed order (or in worker processes, or as Ray tasks on a cluster,
whose results are put back in that order: :func:`play_selfplay` is the one way a game is played
in all three), and the weights are rounded before they are written, so the same command writes
the same file byte for byte.
"""

from __future__ import annotations

import hashlib
import importlib
import math
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rulebox.ai.learned import Weights, forget_weights, use_weights
from rulebox.core.errors import RuleboxError
from rulebox.core.game import TERMINAL, Game
from rulebox.core.rng import rng

try:  # numpy is an optional extra (rulebox[train]); loading weights never needs it
    import numpy as np
except ImportError:  # pragma: no cover - exercised only without the extra
    np = None  # type: ignore[assignment]

TRAINER = "rulebox.ai.train/1"
"""The method's version, written into every file's ``meta``."""
L2_GRID = (1e-4, 1e-3, 1e-2, 1e-1)
"""The L2 strengths tried by cross-validation when none is given."""
DIGITS = 6
"""Weights are written rounded to this many decimals."""
MODEL_AGENT = "model"
PRIORS = ("zero", "defaults")
UNBOUNDED_AGENTS = ("model", "greedy", "random")
"""Self-play agents that need no ``iterations=`` to be repeatable."""


def need_numpy() -> Any:
    """The numpy module, or a :class:`RuleboxError` that says how to install it."""
    if np is None:
        raise RuleboxError("training needs numpy: pip install 'rulebox[train]'")
    return np


# --- the game's features ----------------------------------------------------------------------
@dataclass(frozen=True)
class FeatureSet:
    """The features of one game (see :mod:`rulebox.ai.learned`)."""

    game_id: str
    names: tuple[str, ...]
    features: Callable[[Game, int], Sequence[float]]
    defaults: Mapping[str, float]
    bias: float = 0.0

    def start_weights(self) -> Weights:
        """The hand-set weights that generation 0 plays with."""
        return Weights.from_mapping(self.game_id, self.names, self.defaults, self.bias)


def feature_set(game_id: str) -> FeatureSet:
    """The features of ``game_id``'s heuristic module; :class:`RuleboxError` if it has none."""
    from rulebox.ai.heuristics import MODULES

    name = MODULES.get(game_id, game_id)
    try:
        module = importlib.import_module(f"rulebox.ai.heuristics.{name}")
    except ModuleNotFoundError:
        module = None
    if module is None or not all(
        hasattr(module, a) for a in ("FEATURES", "features", "DEFAULT_WEIGHTS")
    ):
        raise RuleboxError(f"{game_id} has no evaluation features to train (its heuristic "
                           "needs FEATURES, features(game, player) and DEFAULT_WEIGHTS)")
    return FeatureSet(game_id, tuple(module.FEATURES), module.features,
                      dict(module.DEFAULT_WEIGHTS), float(getattr(module, "DEFAULT_BIAS", 0.0)))


# --- settings ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class TrainConfig:
    """Everything that decides the trained weights (so, with the code, the file)."""

    game_id: str
    seed: int = 1
    games: int = 200
    """Self-play games per generation."""
    generations: int = 3
    agent: str = MODEL_AGENT
    epsilon: float = 0.1
    moves: int = 0
    """The ``model`` player looks at this many legal moves at most, drawn at random (0: all)."""
    skip_opening: int = 4
    per_game: int = 12
    holdout: float = 0.2
    l2: float | None = None
    """``None``: chosen by cross-validation among :data:`L2_GRID`."""
    prior: str = "zero"
    """What L2 pulls the weights towards: ``zero``, or ``defaults`` (the hand-set weights)."""
    players: tuple[int, ...] = ()
    """Player counts cycled from game to game (empty: the game's default)."""
    options: tuple[tuple[str, str], ...] = ()

    def check(self) -> None:
        """Refuse settings that cannot train or would not repeat."""
        if self.games < 2:
            raise RuleboxError("--games must be at least 2 (some are held out)")
        if not 1 <= self.generations <= 20:
            raise RuleboxError("--generations must be within 1..20")
        if not 0.0 <= self.epsilon <= 1.0:
            raise RuleboxError("--epsilon must be within 0..1")
        if not 0.0 < self.holdout < 1.0:
            raise RuleboxError("--holdout must be strictly between 0 and 1")
        if self.moves < 0:
            raise RuleboxError("--moves must be at least 0 (0: every legal move)")
        if self.per_game < 1 or self.skip_opening < 0:
            raise RuleboxError("--per-game must be at least 1 and --skip-opening at least 0")
        if self.prior not in PRIORS:
            raise RuleboxError(f"--prior is one of {', '.join(PRIORS)}")
        if self.l2 is not None and not 0.0 <= self.l2 <= 100.0:
            raise RuleboxError("--l2 must be within 0..100")
        from rulebox.match.agents import AgentSpec

        spec = AgentSpec.parse(self.agent)
        keys = {k for k, _ in spec.settings}
        if "time" in keys:
            raise RuleboxError("a self-play agent is bounded by iterations=, not time= "
                               "(training must repeat)")
        if spec.name not in UNBOUNDED_AGENTS and "iterations" not in keys:
            raise RuleboxError(f"give the self-play agent a node budget, e.g. "
                               f"{spec.label}:iterations=2000 (training must repeat)")

    def command(self) -> str:
        """The ``rulebox train`` command with every setting spelled out (no ``--out``: where
        the file goes does not change it)."""
        parts = ["rulebox", "train", self.game_id, "--seed", str(self.seed),
                 "--games", str(self.games), "--generations", str(self.generations),
                 "--agent", self.agent, "--epsilon", f"{self.epsilon:g}",
                 *(["--moves", str(self.moves)] if self.moves else []),
                 "--skip-opening", str(self.skip_opening), "--per-game", str(self.per_game),
                 "--holdout", f"{self.holdout:g}"]
        if self.l2 is not None:
            parts += ["--l2", f"{self.l2:g}"]
        if self.prior != "zero":
            parts += ["--prior", self.prior]
        if self.players:
            parts += ["--players", ",".join(map(str, self.players))]
        for k, v in self.options:
            parts += ["-o", f"{k}={v}"]
        return " ".join(parts)


# --- self-play --------------------------------------------------------------------------------
def result_label(game: Game, player: int) -> float:
    """``player``'s result of a finished game as the model's target: 1 for a win (a winning
    side's every player), 0 for a loss; a solitaire not won is lost (36 to 1 scores a loss by the
    cubes left, but the model is P(win)); a draw is the return scaled from the game's return
    bounds to [0, 1] (a duel's draw 1/2, a side behind the drawn ones 0)."""
    out = game.outcome()
    if out is not None and out.winners:
        return 1.0 if player in out.winners else 0.0
    if game.num_players == 1:
        return 0.0
    lo, hi = game.return_bounds
    r = float(game.returns()[player])
    return min(1.0, max(0.0, (r - lo) / (hi - lo))) if hi > lo else 0.5


class ModelPlayer:
    """One ply on the current weights: the move after which the mover's modelled P(win) is
    highest (the result itself once the move ends the game). With ``moves`` > 0 it looks at
    that many legal moves only, drawn at random (for games whose features are slow and whose
    moves are many). Ties go to the seeded generator."""

    def __init__(self, fs: FeatureSet, weights: Weights, seed: int, moves: int = 0) -> None:
        self.fs = fs
        self.weights = weights
        self.rng = random.Random(seed)
        self.moves = moves

    def choose(self, game: Game) -> Any:
        me = game.current_player()
        moves = sorted(game.legal_moves(), key=str)
        if 0 < self.moves < len(moves):
            moves = [moves[i] for i in sorted(self.rng.sample(range(len(moves)), self.moves))]
        base = game.determinize(me, self.rng) if game.has_hidden_information else game
        best: list[Any] = []
        best_value = -math.inf
        for move in moves:
            child = base.clone()
            child.apply_unchecked(move)
            if child.current_player() == TERMINAL:
                value = 2.0 * result_label(child, me) - 0.5  # a win beats any P(win) < 1
            else:
                value = self.weights.probability(self.fs.features(child, me))
            if value > best_value + 1e-12:
                best, best_value = [move], value
            elif value >= best_value - 1e-12:
                best.append(move)
        return best[self.rng.randrange(len(best))]


@dataclass
class GameSamples:
    """What one self-play game gave: rows (features, label) and their positions' keys."""

    index: int
    rows: list[tuple[float, ...]] = field(default_factory=list)
    labels: list[float] = field(default_factory=list)
    keys: list[str] = field(default_factory=list)
    """One key a row: the position and the player (to skip positions seen in earlier games)."""
    plies: int = 0
    results: list[float] = field(default_factory=list)
    """Every player's label (result) of the game."""


@dataclass(frozen=True)
class SelfPlayJob:
    """One self-play game to play (picklable, for worker processes)."""

    index: int
    generation: int
    config: TrainConfig
    weights: Weights
    seed: int
    players: int | None


SelfPlayMap = Callable[
    [Callable[[SelfPlayJob], GameSamples], Sequence[SelfPlayJob]], Iterable[GameSamples]]
"""Something that calls a function on every job and answers the results in any order, such as
:meth:`rulebox.match.ray_runner.RayCluster.map` (self-play as Ray tasks)."""


def canonical(value: Any) -> Any:
    """``value`` with every set turned into a sorted tuple, so that its ``repr`` does not
    depend on the process's string hashing."""
    if isinstance(value, (set, frozenset)):
        return tuple(sorted((canonical(v) for v in value), key=repr))
    if isinstance(value, dict):
        return tuple(sorted(((canonical(k), canonical(v)) for k, v in value.items()), key=repr))
    if isinstance(value, (list, tuple)):
        return tuple(canonical(v) for v in value)
    return value


def position_digest(game: Game) -> str:
    """A short, process-independent digest of ``game.position_key()``."""
    text = repr(canonical(game.position_key()))
    return hashlib.blake2b(text.encode(), digest_size=10).hexdigest()


_GAME_FACTORY: dict[str, Callable[[dict[str, str]], Game]] = {}
_FEATURE_SETS: dict[str, FeatureSet] = {}


def register_for_training(
    fs: FeatureSet, new_game: Callable[[dict[str, str]], Game]
) -> None:
    """Train a game that is not registered (a test's toy game) with these features."""
    _FEATURE_SETS[fs.game_id] = fs
    _GAME_FACTORY[fs.game_id] = new_game


def _features_of(game_id: str) -> FeatureSet:
    found = _FEATURE_SETS.get(game_id)
    if found is None:
        found = _FEATURE_SETS[game_id] = feature_set(game_id)
    return found


def _new_game(game_id: str, options: dict[str, str]) -> Game:
    factory = _GAME_FACTORY.get(game_id)
    if factory is not None:
        return factory(options)
    from rulebox.core.registry import new_game

    return new_game(game_id, options)


def play_selfplay(job: SelfPlayJob) -> GameSamples:
    """Play one self-play game and sample its positions: the one way a self-play game is
    played, in this process, in a worker process or as a Ray task (everything random comes from
    ``job.seed``)."""
    cfg = job.config
    fs = _features_of(cfg.game_id)
    options = dict(cfg.options)
    options["seed"] = str(job.seed)
    if job.players is not None:
        options["players"] = str(job.players)
    game = _new_game(cfg.game_id, options)
    r = rng(job.seed, "selfplay", cfg.game_id)
    from rulebox.match.agents import AgentSpec

    spec = AgentSpec.parse(cfg.agent)
    n = game.num_players
    if spec.name == MODEL_AGENT:
        players: list[Any] = [ModelPlayer(fs, job.weights, r.randrange(2**62), cfg.moves)
                              for _ in range(n)]
    else:
        from rulebox.ai import make_agent

        use_weights(job.weights)
        players = []
        for _seat in range(n):
            settings = dict(spec.settings)
            settings["seed"] = str(r.randrange(2**62))
            players.append(make_agent(spec.name, cfg.game_id, settings))
    # the positions as the game goes: (ply, key, features of every player)
    seen: list[tuple[int, str, list[tuple[float, ...]]]] = []
    limit = game.max_moves * 4 + 100
    ply = 0
    while game.current_player() != TERMINAL:
        if ply >= cfg.skip_opening:
            feats = [tuple(float(x) for x in fs.features(game, p)) for p in range(n)]
            seen.append((ply, position_digest(game), feats))
        p = game.current_player()
        moves = game.legal_moves()
        if ply < cfg.skip_opening or (cfg.epsilon and r.random() < cfg.epsilon):
            move = sorted(moves, key=str)[r.randrange(len(moves))]
        else:
            move = players[p].choose(game)
        game.apply_unchecked(move)
        ply += 1
        if ply > limit:
            raise RuleboxError(f"a self-play game of {cfg.game_id} did not end in {limit} moves")
    labels = [result_label(game, p) for p in range(n)]
    out = GameSamples(job.index, plies=ply, results=labels)
    # near-duplicates: the same features for a player as that player's last kept ones
    last: list[tuple[float, ...] | None] = [None] * n
    candidates: list[tuple[int, str, list[tuple[float, ...]]]] = []
    for entry in seen:
        feats = entry[2]
        if all(last[p] == feats[p] for p in range(n)):
            continue
        candidates.append(entry)
        last = list(feats)
    if len(candidates) > cfg.per_game:
        chosen = sorted(r.sample(range(len(candidates)), cfg.per_game))
        candidates = [candidates[i] for i in chosen]
    for _ply, key, feats in candidates:
        for p in range(n):
            out.rows.append(feats[p])
            out.labels.append(labels[p])
            out.keys.append(f"{key}:{p}")
    return out


def game_seed(seed: int, generation: int, index: int) -> int:
    """The game seed of self-play game ``index`` of ``generation``."""
    return rng(seed, "train-game", generation, index).randrange(2**31)


def play_generation(
    config: TrainConfig,
    generation: int,
    weights: Weights,
    workers: int = 1,
    on_game: Callable[[GameSamples], None] | None = None,
    runner: SelfPlayMap | None = None,
) -> list[GameSamples]:
    """Play one generation's games, in ``workers`` processes (1: in this process) or through
    ``runner`` when one is given (a :class:`~rulebox.match.ray_runner.RayCluster`'s ``map``:
    as Ray tasks); their samples in game order whatever ran them."""
    counts = config.players
    jobs = [
        SelfPlayJob(i, generation, config, weights, game_seed(config.seed, generation, i),
                    counts[i % len(counts)] if counts else None)
        for i in range(config.games)
    ]
    results: list[GameSamples] = []
    if runner is not None:
        for res in runner(play_selfplay, jobs):
            results.append(res)
            if on_game is not None:
                on_game(res)
    elif workers <= 1:
        for job in jobs:
            res = play_selfplay(job)
            results.append(res)
            if on_game is not None:
                on_game(res)
    else:
        from concurrent.futures import ProcessPoolExecutor, as_completed

        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = [pool.submit(play_selfplay, job) for job in jobs]
            for fut in as_completed(futures):
                res = fut.result()
                results.append(res)
                if on_game is not None:
                    on_game(res)
    results.sort(key=lambda s: s.index)
    return results


# --- the fit ----------------------------------------------------------------------------------
def log_loss(x: Any, y: Any, w: Any, b: float) -> float:
    """The mean cross-entropy of the labels ``y`` (in [0, 1]) under ``sigmoid(x @ w + b)``."""
    npm = need_numpy()
    z = x @ w + b
    # log(1 + e^z) - y z, computed without overflow
    return float(npm.mean(npm.logaddexp(0.0, z) - y * z))


def fit_logistic(
    x: Any, y: Any, l2: float, center: Any | None = None, iterations: int = 100
) -> tuple[Any, float]:
    """Weights and bias minimising ``log_loss + l2/2 * |w - center|^2`` (``center`` 0 unless
    given; Newton's method with step halving; the bias is not penalised). Labels may be
    fractional (a draw is 1/2)."""
    npm = need_numpy()
    n, k = x.shape
    xa = npm.hstack([x, npm.ones((n, 1))])
    mid = npm.zeros(k + 1)
    if center is not None:
        mid[:k] = center
    theta = mid.copy()
    pen = npm.full(k + 1, l2)
    pen[k] = 0.0

    def objective(t: Any) -> float:
        z = xa @ t
        d = t - mid
        return float(npm.mean(npm.logaddexp(0.0, z) - y * z) + 0.5 * npm.sum(pen * d * d))

    current = objective(theta)
    for _ in range(iterations):
        z = xa @ theta
        p = 1.0 / (1.0 + npm.exp(-z))
        grad = xa.T @ (p - y) / n + pen * (theta - mid)
        hess = (xa * (p * (1.0 - p))[:, None]).T @ xa / n + npm.diag(pen) + 1e-9 * npm.eye(k + 1)
        step = npm.linalg.solve(hess, grad)
        t = 1.0
        while t > 1e-6:
            candidate = theta - t * step
            value = objective(candidate)
            if value <= current + 1e-15:
                break
            t *= 0.5
        else:
            break
        done = current - value < 1e-12
        theta, current = candidate, value
        if done:
            break
    return theta[:k].copy(), float(theta[k])


def choose_l2(
    x: Any, y: Any, groups: Any, grid: Sequence[float] = L2_GRID, folds: int = 4,
    center: Any | None = None,
) -> tuple[float, dict[str, float]]:
    """The L2 strength of ``grid`` with the lowest mean held-out log-loss over ``folds`` folds of
    whole games (``groups`` names each row's game); and every strength's loss."""
    fold_of = groups % folds
    losses: dict[str, float] = {}
    best, best_loss = grid[0], math.inf
    for l2 in grid:
        total = 0.0
        for f in range(folds):
            tr, va = fold_of != f, fold_of == f
            if not tr.any() or not va.any():
                continue
            w, b = fit_logistic(x[tr], y[tr], l2, center)
            total += log_loss(x[va], y[va], w, b) * int(va.sum())
        loss = total / len(y)
        losses[f"{l2:g}"] = round(loss, DIGITS)
        if loss < best_loss - 1e-12:
            best, best_loss = l2, loss
    return best, losses


@dataclass
class Dataset:
    """The sampled rows of every game so far, with each row's game and split."""

    rows: list[tuple[float, ...]] = field(default_factory=list)
    labels: list[float] = field(default_factory=list)
    games: list[int] = field(default_factory=list)
    held_out: list[bool] = field(default_factory=list)
    keys: set[str] = field(default_factory=set)
    duplicates: int = 0
    game_count: int = 0
    plies: int = 0

    def add(self, samples: GameSamples, held_out: bool) -> None:
        """Add one game's rows, skipping positions already sampled in an earlier game."""
        gid = self.game_count
        self.game_count += 1
        self.plies += samples.plies
        for row, label, key in zip(samples.rows, samples.labels, samples.keys, strict=True):
            if key in self.keys:
                self.duplicates += 1
                continue
            self.keys.add(key)
            self.rows.append(row)
            self.labels.append(label)
            self.games.append(gid)
            self.held_out.append(held_out)

    def arrays(self, held_out: bool) -> tuple[Any, Any, Any]:
        """(features, labels, game ids) of the training or the held-out rows."""
        npm = need_numpy()
        idx = [i for i, h in enumerate(self.held_out) if h == held_out]
        width = len(self.rows[0]) if self.rows else 0
        x = npm.array([self.rows[i] for i in idx], dtype=float).reshape(len(idx), width)
        y = npm.array([self.labels[i] for i in idx], dtype=float)
        g = npm.array([self.games[i] for i in idx], dtype=int)
        return x, y, g


def rounded(v: float) -> float:
    """``v`` rounded for the file (and ``-0.0`` written as ``0.0``)."""
    r = round(float(v), DIGITS)
    return 0.0 if r == 0 else r


def train(
    config: TrainConfig,
    workers: int = 1,
    on_game: Callable[[int, GameSamples], None] | None = None,
    on_generation: Callable[[int, Mapping[str, Any]], None] | None = None,
    runner: SelfPlayMap | None = None,
) -> Weights:
    """Train ``config.game_id``'s weights by self-play (see the module docstring).

    ``on_game(generation, samples)`` is called after every game, ``on_generation(generation,
    figures)`` after every generation's fit. ``workers`` and ``runner`` (self-play as Ray
    tasks, see :func:`play_generation`) only change the speed."""
    npm = need_numpy()
    config.check()
    fs = _features_of(config.game_id)
    start = fs.start_weights()
    weights = start
    data = Dataset()
    split = rng(config.seed, "train-holdout", config.game_id)
    log: list[dict[str, Any]] = []
    l2 = config.l2 if config.l2 is not None else L2_GRID[0]
    cv: dict[str, float] = {}
    k = len(fs.names)
    center = npm.array(start.weights, dtype=float) if config.prior == "defaults" else None
    for generation in range(config.generations):
        def each(samples: GameSamples, g: int = generation) -> None:
            if on_game is not None:
                on_game(g, samples)

        games = play_generation(config, generation, weights, workers, each, runner)
        for samples in games:
            data.add(samples, split.random() < config.holdout)
        x, y, groups = data.arrays(held_out=False)
        if len(y) < 2 * k + 2 or len(npm.unique(y)) < 2:
            raise RuleboxError(
                f"too little to fit after generation {generation}: {len(y)} rows "
                f"with {len(npm.unique(y))} different result(s); play more games")
        if config.l2 is None:
            l2, cv = choose_l2(x, y, groups, center=center)
        w, b = fit_logistic(x, y, l2, center)
        weights = Weights(config.game_id, fs.names, tuple(rounded(v) for v in w), rounded(b))
        hx, hy, _ = data.arrays(held_out=True)
        figures = {
            "generation": generation,
            "games": len(games),
            "positions_train": len(y),
            "positions_held_out": len(hy),
            "l2": l2,
            "held_out_log_loss": _loss(hx, hy, weights),
            "mean_plies": round(sum(s.plies for s in games) / len(games), 1),
            "first_seat_result": round(sum(s.results[0] for s in games) / len(games), 4),
        }
        log.append(figures)
        if on_generation is not None:
            on_generation(generation, figures)
    forget_weights(config.game_id)  # a registered self-play agent ran on use_weights()
    x, y, _ = data.arrays(held_out=False)
    hx, hy, _ = data.arrays(held_out=True)
    base_rate = float(npm.clip(npm.mean(y), 1e-6, 1 - 1e-6))
    constant = Weights(config.game_id, fs.names, (0.0,) * k,
                       math.log(base_rate / (1.0 - base_rate)))
    meta: dict[str, Any] = {
        "command": config.command(),
        "trainer": TRAINER,
        "method": "logistic fit of self-play positions to game results (Texel tuning), "
                  "L2, Newton's method; generation 0 plays with DEFAULT_WEIGHTS",
        "seed": config.seed,
        "agent": config.agent,
        "epsilon": config.epsilon,
        "moves": config.moves,
        "generations": config.generations,
        "games_per_generation": config.games,
        "games": data.game_count,
        "plies": data.plies,
        "skip_opening": config.skip_opening,
        "per_game": config.per_game,
        "players": list(config.players),
        "options": dict(config.options),
        "positions": {"train": len(y), "held_out": len(hy),
                      "skipped_duplicates": data.duplicates},
        "l2": l2,
        "prior": config.prior,
        "l2_cross_validation": cv,
        "fit": {
            "held_out_log_loss_before": _loss(hx, hy, start),
            "held_out_log_loss_after": _loss(hx, hy, weights),
            "held_out_log_loss_constant": _loss(hx, hy, constant),
            "train_log_loss_after": _loss(x, y, weights),
            "held_out_accuracy_after": _accuracy(hx, hy, weights),
        },
        "start_weights": {n: rounded(v) for n, v in zip(fs.names, start.weights, strict=True)},
        "generation_log": log,
    }
    return Weights(config.game_id, fs.names, weights.weights, weights.bias, meta)


def _loss(x: Any, y: Any, weights: Weights) -> float | None:
    npm = need_numpy()
    if len(y) == 0:
        return None
    return round(log_loss(x, y, npm.array(weights.weights, dtype=float), weights.bias), DIGITS)


def _accuracy(x: Any, y: Any, weights: Weights) -> float | None:
    """The share of decided held-out rows (label 0 or 1) on whose side the model is."""
    npm = need_numpy()
    decided = (y == 0.0) | (y == 1.0)
    if not decided.any():
        return None
    z = x[decided] @ npm.array(weights.weights, dtype=float) + weights.bias
    return round(float(npm.mean((z > 0) == (y[decided] == 1.0))), 4)
