"""Columba legal-move counts from fixed positions (golden data in perft.json).

Each position is reached from a seeded start by ``plies`` moves chosen with
``random.Random(seed)`` from the legal moves sorted as text. A changed count means the move
generator changed: check the rules, then regenerate the file on purpose.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from rulebox.games.columba.rules import Columba

CASES: list[dict[str, Any]] = json.loads((Path(__file__).parent / "perft.json").read_text())


@pytest.mark.parametrize("case", CASES, ids=[f"{c['options']}+{c['plies']}" for c in CASES])
def test_legal_move_counts(case: dict[str, Any]) -> None:
    g = Columba.new(case["options"])
    rng = random.Random(int(case["options"]["seed"]))
    for _ in range(case["plies"]):
        g.apply(rng.choice(sorted(g.legal_moves(), key=str)))
    moves = g.legal_moves()
    verbs: dict[str, int] = {}
    for m in moves:
        verbs[m.verb] = verbs.get(m.verb, 0) + 1
    assert g.phase == case["phase"]
    assert len(moves) == case["legal"]
    assert verbs == case["by_verb"]
