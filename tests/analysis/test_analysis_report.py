"""The balance report's files and the tournament report (--from-json)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulebox.analysis.balance import analyze, to_jsonable
from rulebox.cli.analyze import main as analyze_main
from rulebox.match.tournament import run_tournament

pytest.importorskip("matplotlib")


def test_report_files_and_metrics(tmp_path: Path) -> None:
    from rulebox.analysis.report import write_report

    doc = analyze("36to1", ["greedy"], 3, variants=[{"green": "0"}, {"green": "3"}], seed=2)
    path = write_report(doc, tmp_path)
    assert json.loads((tmp_path / "metrics.json").read_text()) == to_jsonable(doc)
    page = path.read_text()
    for name in ("wins", "length", "branching", "decisiveness", "scores"):
        assert (tmp_path / f"{name}.png").stat().st_size > 1000
        assert (tmp_path / f"{name}.svg").read_text().lstrip().startswith("<?xml")
        assert f'src="{name}.png"' in page and f'href="{name}.svg"' in page
    assert "green=0" in page and "green=3" in page and "win rate" in page


def test_from_json_draws_ratings_and_the_score_matrix(tmp_path: Path) -> None:
    summary = run_tournament("columns", ["random", "greedy", "greedy:epsilon=0.5"], 4, seed=1)
    results = tmp_path / "t.json"
    results.write_text(json.dumps(summary.to_json()))
    out = tmp_path / "report"
    assert analyze_main(["--from-json", str(results), "--out", str(out)]) == 0
    m = json.loads((out / "metrics.json").read_text())
    agents, matrix = m["agents"], m["score_matrix"]
    assert agents == ["random", "greedy", "greedy:epsilon=0.5"]
    for i in range(3):
        assert matrix[i][i] is None
        for j in range(3):
            if i != j:
                assert matrix[i][j] + matrix[j][i] == pytest.approx(1.0)
    pair = next(p for p in summary.to_json()["pairs"] if (p["a"], p["b"]) == ("random", "greedy"))
    assert matrix[0][1] == pytest.approx(pair["a_score"])
    assert all(r["elo_ci95"] is not None for r in m["ratings"])
    for name in ("ratings", "scores_matrix"):
        assert (out / f"{name}.png").exists() and (out / f"{name}.svg").exists()


def test_cli_analyze_end_to_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r"
    log = tmp_path / "log.jsonl"
    args = ["countred", "stack_lift=free", "--games", "4", "--agents", "greedy,random",
            "--vary", "first=0,1", "--out", str(out), "--workers", "1", "--quiet",
            "--log", str(log), "--seed", "2"]
    assert analyze_main(args) == 0
    text = capsys.readouterr().out
    assert "countred [first=0 stack_lift=free] 4 games" in text
    doc = json.loads((out / "metrics.json").read_text())
    assert [v["options"] for v in doc["variants"]] == [
        {"stack_lift": "free", "first": "0"}, {"stack_lift": "free", "first": "1"}]
    assert doc["agents"] == ["greedy", "random"]
    assert len(log.read_text().splitlines()) == 9
    assert analyze_main([*args[:-2], "--seed", "2"]) == 0  # resumes: nothing left to play
    assert json.loads((out / "metrics.json").read_text()) == doc
    assert analyze_main(["nosuchgame", "--out", str(out), "--quiet"]) == 2
