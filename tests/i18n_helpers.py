"""What the i18n tests share: the catalogue tool (``scripts/i18n.py``, loaded once) and seeded
random positions."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

from rulebox.core.game import Game
from rulebox.core.registry import game_entry

ROOT = Path(__file__).resolve().parent.parent


def _load_tool() -> ModuleType:
    name = "rulebox_i18n_tool"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / "i18n.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


tool = _load_tool()


def play(game_id: str, seed: int, plies: int) -> Game:
    """A game of ``game_id`` (seed option ``seed``) after up to ``plies`` seeded random moves."""
    game = game_entry(game_id).cls.new({"seed": str(seed)})
    rng = random.Random(seed)
    for _n in range(plies):
        if game.is_terminal():
            break
        game.apply(rng.choice(game.legal_moves()))
    return game
