"""Columba's code by concern (issue 15): the modules beside ``rules.py`` never import it at run
time (no cycle with ``state.py``), the flood fill is written once, and the undo record is named
and restores the whole position."""

from __future__ import annotations

import ast
import random
from pathlib import Path

from rulebox.games.columba.rules import Columba
from rulebox.games.columba.turn import Snapshot

PACKAGE = Path(__file__).parents[3] / "src" / "rulebox" / "games" / "columba"
RULES = "rulebox.games.columba.rules"


def _runtime_imports(path: Path) -> set[str]:
    """The modules a file imports when it runs (``if TYPE_CHECKING:`` blocks left out)."""
    tree = ast.parse(path.read_text())
    found: set[str] = set()

    def visit(nodes: list[ast.stmt]) -> None:
        for node in nodes:
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                continue
            if isinstance(node, ast.ImportFrom) and node.module:
                found.add(node.module)
            elif isinstance(node, ast.Import):
                found.update(a.name for a in node.names)
            for field in ("body", "orelse", "finalbody", "handlers"):
                inner = getattr(node, field, None)
                if isinstance(inner, list):
                    visit([n for n in inner if isinstance(n, ast.stmt)])

    visit(tree.body)
    return found


def test_no_module_beside_the_rules_imports_them_at_run_time() -> None:
    for name in ("state", "territory", "turn", "officia", "pieces", "cards", "moves"):
        assert RULES not in _runtime_imports(PACKAGE / f"{name}.py"), name
    assert "rulebox.games.columba.state" in _runtime_imports(PACKAGE / "rules.py")


def test_the_flood_fill_is_written_once() -> None:
    fills = [p.name for p in sorted(PACKAGE.glob("*.py")) if "stack.pop()" in p.read_text()]
    assert fills == ["territory.py"]


def test_the_named_undo_record_restores_the_whole_position() -> None:
    g = Columba.new({"seed": "8", "players": "3", "officia": "1",
                     "roles": "falconer,marshal,architect"})
    rng = random.Random(8)
    for _ in range(40):
        g.apply(rng.choice(g.legal_moves()))
    record = Snapshot.take(g)
    before = (g.position_key(), g.to_json())
    for _ in range(15):
        if g.is_terminal():
            break
        g.apply_unchecked(rng.choice(g.legal_moves()))
    record.restore(g)
    assert g.position_key() == before[0]
    assert g.position_json() == before[1]["position"]
    assert record == Snapshot.take(g)  # restoring left the record as it was
    assert "freed" in Snapshot._fields and "bare" in Snapshot._fields
    assert len(Snapshot._fields) == 24
