"""A reviewed record keeps its review through save and load, and the replay shows each move's
values and mark beside it (issue 22: "the terminal's replay shows the evaluation and marks")."""

from __future__ import annotations

import io
import json
from pathlib import Path

from rich.console import Console

from rulebox.analysis.review import Evaluator, review_record
from rulebox.cli.replay import replay
from rulebox.match.records import Record

MOVES = ["Ra1", "Da2b2", "Tc1d1^", "Rb1"]


def _reviewed(tmp_path: Path) -> tuple[Path, dict]:
    record = Record(game="columns", options={"first": "0", "seed": "1"}, players=["a", "b"],
                    moves=list(MOVES))
    review = review_record(record, Evaluator("columns", agent="greedy", time=None,
                                             iterations=50))
    record.review = review
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record.to_json()))
    return path, review


def _replay_text(path: Path) -> str:
    out = io.StringIO()
    console = Console(file=out, width=120, color_system=None)
    assert replay(str(path), console=console) == 0
    return out.getvalue()


def test_a_review_survives_loading_and_saving_the_record(tmp_path: Path) -> None:
    path, review = _reviewed(tmp_path)
    again = Record.from_json(json.loads(path.read_text()))
    assert again.review == review
    assert again.to_json()["review"] == review
    assert "review" not in Record(game="columns", options={}, players=[]).to_json()


def test_replay_shows_each_moves_values_beside_it(tmp_path: Path) -> None:
    path, review = _reviewed(tmp_path)
    text = _replay_text(path)
    for ply, entry in enumerate(review["moves"], start=1):
        before = f"{entry['before'] * 100:3.0f}%"
        line = next(ln for ln in text.splitlines() if f"move {ply} of {len(MOVES)}:" in ln)
        assert before.strip() in line and "->" in line


def test_a_review_of_other_moves_or_a_corrupt_one_is_not_shown(tmp_path: Path) -> None:
    path, review = _reviewed(tmp_path)
    data = json.loads(path.read_text())
    data["review"]["moves"][0]["before"] = "not a number"
    path.write_text(json.dumps(data))
    text = _replay_text(path)  # no crash on an edited review
    assert "move 4 of 4" in text
    data["review"] = dict(review, moves=review["moves"][:2])  # a review of other moves
    path.write_text(json.dumps(data))
    assert "->" not in _replay_text(path)
