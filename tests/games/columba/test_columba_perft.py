"""Columba legal-move counts from fixed positions (golden data in perft.json).

Each position is reached from a seeded start by ``plies`` moves chosen with
``random.Random(seed)`` from the legal moves sorted as text. A changed count means the move
generator changed: check the rules, then regenerate the file on purpose, and say why.

Issue 14 changed the generator (each distinct placement once; ``buy XY`` / ``raise XY`` per way
to pay; tiles extending anyone's estate; cut-off tiles wild only after a falcon; the falconer's
second falcon). Every case says so: ``note`` in words, and where the count changed, ``was`` (the
count before issue 14 at the same position) and ``why``, which
:func:`test_changed_counts_are_explained` checks by recounting:

* ``rotations``: every accepted spelling of the listed placements makes ``was``;
* ``CB-8``: one ``buy`` / ``raise`` per distinct way to pay, where the bare word stood;
* ``CB-7``: the extra tiles are exactly those that extend an opponent's estate, and ``end`` is
  legal where this turn's tiles extend one;
* ``CB-3 c``: taking the tiles that a card (not a falcon) cut off as wild gives ``was`` again;
* ``CB-15``: the falconer's second ``buy`` costs 1 + 1 tiles;
* ``path``: the seeded path left the old one at ``diverges.ply`` (a position both paths reach),
  where the count changed for the reasons given there (checked the same way);
* ``bare`` (issue 36): taking every tile on the bare table as lying on a card again (the rule
  before: any tile was a card's square for CB-2 and a dovecote's for CB-6) gives ``was``
  exactly, and every move that is gone docks a card only with such tiles (CB-2) or lays a tile
  or dovecote that could then stand on the bare table (CB-6, CB-7).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from rulebox.games.columba.cards import ROTATIONS
from rulebox.games.columba.rules import TILE, Columba

CASES: list[dict[str, Any]] = json.loads((Path(__file__).parent / "perft.json").read_text())


def reach(options: dict[str, str], plies: int) -> Columba:
    g = Columba.new(options)
    rng = random.Random(int(options["seed"]))
    for _ in range(plies):
        g.apply(rng.choice(sorted(g.legal_moves(), key=str)))
    return g


def by_verb(g: Columba) -> dict[str, int]:
    verbs: dict[str, int] = {}
    for m in g.legal_moves():
        verbs[m.verb] = verbs.get(m.verb, 0) + 1
    return verbs


@pytest.mark.parametrize("case", CASES, ids=[f"{c['options']}+{c['plies']}" for c in CASES])
def test_legal_move_counts(case: dict[str, Any]) -> None:
    g = reach(case["options"], case["plies"])
    assert g.phase == case["phase"]
    assert len(g.legal_moves()) == case["legal"]
    assert by_verb(g) == case["by_verb"]
    assert case["note"]
    if case.get("was", {"legal": case["legal"]})["legal"] != case["legal"]:
        assert case["why"], "a changed count says why"


def _explain(g: Columba, was: dict[str, Any], why: list[str]) -> None:
    """Recount the position ``g`` as the reasons ``why`` say it differs from ``was``."""
    now = by_verb(g)
    p = g.current_player()
    explained: set[str] = set()
    if "rotations" in why:
        hand = g.hand
        assert hand is not None
        rots = ROTATIONS[hand]
        spellings = sum(sum(1 for r in range(4) if rots[r] == rots[m.arg])
                        for m in g.legal_moves() if m.verb == "place")
        assert spellings == was["by_verb"]["place"]
        explained.add("place")
    if "CB-3 c" in why:
        h = g.clone()
        label, _regs, owner = h._regions()
        h._freed = frozenset(k for k, s in h.squares().items()
                             if s[0] == TILE and owner[label[k]] == -1)
        h._dirty()
        assert len(h.legal_moves()) == was["by_verb"]["place"]
        explained.add("place")
    if "CB-8" in why:
        for verb in ("buy", "raise"):
            if verb in was["by_verb"]:
                assert was["by_verb"][verb] == 1  # the bare word
                assert now[verb] == len(g._payments(p, g._cost(p, verb))) > 1
                explained.add(verb)
    if "CB-15" in why:
        assert g._cost(p, "buy") == 2 and sum(g.reserve(p)) < 2
        assert "buy" not in now and was["by_verb"]["buy"] == 1
        explained.add("buy")
    if "CB-7" in why:
        extending = 0
        for m in g.legal_moves():
            if m.verb == "tile":
                h = g.clone()
                h.apply(m)
                o = h.estate_owner(m.sq)
                extending += o not in (-1, p, g.partner(p))
        assert now.get("tile", 0) - was["by_verb"].get("tile", 0) == extending
        explained.add("tile")
        if "end" in now and "end" not in was["by_verb"]:
            _cote, _falcon, tiles = g.turn_flags()
            assert tiles and all(g.estate_owner(k) != -1 for k in tiles)
            assert any(g.estate_owner(k) not in (p, g.partner(p)) for k in tiles)
            explained.add("end")
    if "bare" in why:
        assert g.bare(), "the position has tiles on the bare table"
        h = g.clone()
        h._bare = frozenset()
        h._dirty()
        assert by_verb(h) == was["by_verb"]
        gone = {str(m) for m in h.legal_moves()} - {str(m) for m in g.legal_moves()}
        for text in gone:
            reason = g.illegal_reason(g.parse_move(text))
            assert reason is not None and reason.rule in ("CB-2", "CB-6", "CB-7"), text
        explained |= set(now) | set(was["by_verb"])
    changed = {v for v in set(now) | set(was["by_verb"]) if now.get(v) != was["by_verb"].get(v)}
    assert changed <= explained, f"unexplained: {changed - explained}"


@pytest.mark.parametrize("case", [c for c in CASES if "why" in c],
                         ids=[f"{c['options']}+{c['plies']}" for c in CASES if "why" in c])
def test_changed_counts_are_explained(case: dict[str, Any]) -> None:
    if case["why"] == ["path"]:
        fork = case["diverges"]
        g = reach(case["options"], fork["ply"])
        _explain(g, fork["was"], fork["why"])
    else:
        _explain(reach(case["options"], case["plies"]), case["was"], case["why"])
