"""Learned evaluation weights: one small JSON file a game, shipped in the package.

A game's heuristic module that has learned weights defines

- ``FEATURES: tuple[str, ...]``: the names of its features, in order;
- ``features(game, player) -> list[float]``: those features of a position from ``player``'s
  point of view (public information only), each roughly within [-10, 10];
- ``DEFAULT_WEIGHTS: dict[str, float]``: hand-set weights used when no weights file is shipped
  (or when the file does not match ``FEATURES``).

The model is logistic: ``P(player wins) = sigmoid(bias + sum(w_i * f_i))``. The heuristic turns
that probability into a value within the game's return bounds (for a duel ``2p - 1``).
``rulebox train <game>`` fits the weights by self-play and writes
``rulebox/ai/weights/<game>.json`` (see :mod:`rulebox.ai.train`).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

WEIGHTS_PACKAGE = "rulebox.ai.weights"


@dataclass(frozen=True)
class Weights:
    """A linear model over named features (the argument of a logistic)."""

    game: str
    features: tuple[str, ...]
    weights: tuple[float, ...]
    bias: float = 0.0
    meta: Mapping[str, Any] = field(default_factory=dict)
    """How the weights were made: the command, the seed, the data size, the fit."""

    def __post_init__(self) -> None:
        if len(self.features) != len(self.weights):
            raise ValueError(
                f"{self.game}: {len(self.features)} features but {len(self.weights)} weights"
            )

    @classmethod
    def from_mapping(
        cls, game: str, names: Sequence[str], weights: Mapping[str, float], bias: float = 0.0
    ) -> Weights:
        """Weights for ``names`` from a name -> weight mapping (missing names weigh 0)."""
        return cls(game, tuple(names), tuple(float(weights.get(n, 0.0)) for n in names), bias)

    def logit(self, feats: Sequence[float]) -> float:
        """``bias + w . f``."""
        total = self.bias
        for w, f in zip(self.weights, feats, strict=True):
            total += w * f
        return total

    def probability(self, feats: Sequence[float]) -> float:
        """The modelled probability of winning, ``sigmoid(logit)``."""
        return sigmoid(self.logit(feats))

    def to_json(self) -> dict[str, Any]:
        """The file's content."""
        return {
            "game": self.game,
            "features": list(self.features),
            "weights": {n: w for n, w in zip(self.features, self.weights, strict=True)},
            "bias": self.bias,
            "meta": dict(self.meta),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Weights:
        """Weights read back from :meth:`to_json`'s form; ``ValueError`` if malformed."""
        try:
            names = tuple(str(n) for n in data["features"])
            raw = data["weights"]
            weights = tuple(float(raw[n]) for n in names)
            bias = float(data.get("bias", 0.0))
            if not all(math.isfinite(v) for v in (*weights, bias)):
                raise ValueError("a weight is not a finite number")
            return cls(str(data["game"]), names, weights, bias, dict(data.get("meta", {})))
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            raise ValueError(f"malformed weights file: {e}") from e

    def save(self, path: Path) -> None:
        """Write the weights as indented JSON."""
        path.write_text(json.dumps(self.to_json(), indent=2, sort_keys=False) + "\n")


def sigmoid(x: float) -> float:
    """The logistic function, safe for large ``|x|``."""
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def shipped_path(game_id: str) -> Path:
    """Where the package keeps ``game_id``'s weights (the file may not exist)."""
    return Path(str(resources.files(WEIGHTS_PACKAGE))) / f"{game_id}.json"


_CACHE: dict[str, Weights] = {}


def load_weights(
    game_id: str, names: Sequence[str], defaults: Mapping[str, float], bias: float = 0.0
) -> Weights:
    """The shipped weights of ``game_id`` if the file is of that game and its features are
    exactly ``names``, else the hand-set ``defaults`` (also when the file is unreadable or
    malformed, or a weight is not a finite number). Read once a process."""
    found = _CACHE.get(game_id)
    if found is not None and found.features == tuple(names):
        return found
    path = shipped_path(game_id)
    result = Weights.from_mapping(game_id, names, defaults, bias)
    if path.is_file():
        try:
            loaded = Weights.from_json(json.loads(path.read_text()))
        except (ValueError, OSError):
            loaded = None
        if loaded is not None and loaded.game == game_id and loaded.features == tuple(names):
            result = loaded
    _CACHE[game_id] = result
    return result


def use_weights(weights: Weights) -> None:
    """Make ``weights`` the ones :func:`load_weights` returns in this process (training and
    tests use this to evaluate candidate weights)."""
    _CACHE[weights.game] = weights


def forget_weights(game_id: str | None = None) -> None:
    """Drop cached weights, so the next :func:`load_weights` reads the file again."""
    if game_id is None:
        _CACHE.clear()
    else:
        _CACHE.pop(game_id, None)
