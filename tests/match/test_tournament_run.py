"""Tournaments: the schedule rotates seats, games are seeded and repeat, results tally, the CLI
writes its files."""

from __future__ import annotations

import argparse
import csv
import json
from collections import Counter
from pathlib import Path

import pytest

from rulebox.cli import tournament as cli
from rulebox.match.tournament import AgentSpec, groups, run_tournament, schedule


def test_agent_spec_parses_settings() -> None:
    spec = AgentSpec.parse("MCTS:iterations=50,c=0.5")
    assert spec.name == "mcts"
    assert spec.settings == (("iterations", "50"), ("c", "0.5"))
    assert spec.label == "mcts:iterations=50,c=0.5"
    assert AgentSpec.parse("mcts:iterations=50:c=0.5") == spec  # the old spelling still reads
    with pytest.raises(ValueError):
        AgentSpec.parse("mcts:iterations")


def test_groups_for_one_two_and_four_seats() -> None:
    a, b, c = (AgentSpec(n) for n in "abc")
    assert groups([a, b, c], 1) == [(a,), (b,), (c,)]
    assert groups([a, b, c], 2) == [(a, b), (a, c), (b, c)]
    assert groups([a, b], 4) == [(a, b, a, b)]  # teams sit crosswise


def test_schedule_rotates_seats_and_seeds_every_game() -> None:
    specs = [AgentSpec("random"), AgentSpec("greedy")]
    jobs = schedule("columns", specs, 4, seed=7)
    assert [tuple(s.name for s in j.seats) for j in jobs] == [
        ("random", "greedy"), ("greedy", "random")] * 2
    # duplicate play: each deal once in each seating
    assert [j.seed for j in jobs] == [7 * 1_000_003 + k for k in (0, 0, 1, 1)]
    seats = Counter((j.seats[0].name) for j in jobs)
    assert seats["random"] == seats["greedy"] == 2


def test_a_tournament_repeats_exactly_and_tallies() -> None:
    agents = ["random", "greedy", "mcts:iterations=20"]
    one = run_tournament("columns", agents, 2, seed=3)
    two = run_tournament("columns", agents, 2, seed=3)
    assert [r.returns for r in one.results] == [r.returns for r in two.results]
    assert len(one.results) == 6
    for label in one.agents:
        s = one.stats[label]
        assert s.games == 4 and s.wins + s.draws + s.losses == 4
    assert sum(w + d + lo for w, d, lo in one.pairs.values()) == 6
    assert {r.name for r in one.ratings} == set(one.agents)
    assert 0 <= one.first_player_win_rate <= 1
    assert not any(r.error for r in one.results)


def test_a_solitaire_tournament_reports_win_rates() -> None:
    summary = run_tournament("36to1", ["random", "connected"], 3, seed=0)
    assert summary.solitaire and summary.ratings == []
    assert [r.seed for r in summary.results] == [0, 1, 2, 0, 1, 2]  # the same deals for each
    assert summary.stats["connected"].games == 3
    data = summary.to_json()
    assert "win_rate_ci95" in data["agents"][0]


def test_workers_give_the_same_results_as_one_process() -> None:
    agents = ["random", "greedy"]
    one = run_tournament("columns", agents, 2, seed=5, workers=1)
    two = run_tournament("columns", agents, 2, seed=5, workers=2)
    assert [r.returns for r in one.results] == [r.returns for r in two.results]


def test_cli_runs_and_writes_csv_and_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    parser = argparse.ArgumentParser()
    cli.add_arguments(parser)
    out_csv, out_json = tmp_path / "t.csv", tmp_path / "t.json"
    args = parser.parse_args(["columns", "--agents", "random,greedy", "--games", "2",
                              "--workers", "1", "--seed", "4", "--quiet",
                              "--csv", str(out_csv), "--json", str(out_json)])
    assert cli.run(args) == 0
    text = capsys.readouterr().out
    assert "greedy" in text and "first player won" in text
    rows = list(csv.DictReader(out_csv.open()))
    assert len(rows) == 2 and rows[0]["seats"] == "random greedy"
    data = json.loads(out_json.read_text())
    assert data["games"] == 2 and {a["agent"] for a in data["agents"]} == {"random", "greedy"}


def test_cli_refuses_unknown_agents() -> None:
    parser = argparse.ArgumentParser()
    cli.add_arguments(parser)
    args = parser.parse_args(["columns", "--agents", "random,nobody", "--quiet"])
    assert cli.run(args) == 2


def _run_logged(log: Path, games: str = "4", seed: str = "4", *more: str) -> int:
    parser = argparse.ArgumentParser()
    cli.add_arguments(parser)
    args = parser.parse_args(["columns", "--agents", "random,greedy", "--games", games,
                              "--workers", "1", "--seed", seed, "--quiet", "--log", str(log),
                              *more])
    return cli.run(args)


def test_a_logged_tournament_goes_on_where_it_stopped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "t.jsonl"
    assert _run_logged(log) == 0
    lines = log.read_text().splitlines()
    assert json.loads(lines[0])["format"] == "rulebox-tournament-log/1"
    assert len(lines) == 1 + 4  # the header, then one line a game
    full = capsys.readouterr().out
    # stopped after two games, the third cut short in the middle of its line
    log.write_text("\n".join(lines[:3]) + "\n" + lines[3][:25])
    assert _run_logged(log) == 0
    resumed = capsys.readouterr().out
    assert "2 game(s) already played" in resumed
    again = [json.loads(x) for x in log.read_text().splitlines()[1:] if x.startswith("{\"index")
             and x.endswith("}")]
    assert sorted(r["index"] for r in again) == [0, 1, 2, 3]  # the two missing games, once each
    # the same results as the run that was never stopped (random and greedy are seeded)
    def rows(out: str) -> list[str]:  # the table without its timing column
        return [x.rsplit("│", 2)[0] for x in out.splitlines() if x.startswith("│")]

    assert rows(full) and rows(full) == rows(resumed)
    # run once more: nothing left to play
    assert _run_logged(log) == 0
    assert "4 game(s) already played" in capsys.readouterr().out
    assert len(log.read_text().splitlines()) == 1 + 2 + 1 + 2  # the cut line stays, skipped


def test_a_log_of_another_tournament_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "t.jsonl"
    assert _run_logged(log, games="2") == 0
    before = log.read_text()
    assert _run_logged(log, games="2", seed="5") == 2
    assert "log of another tournament" in capsys.readouterr().err
    assert log.read_text() == before  # nothing written
    junk = tmp_path / "junk.jsonl"
    junk.write_text("not json\n")
    assert _run_logged(junk) == 2
    assert junk.read_text() == "not json\n"


def test_report_shows_the_games_so_far_and_plays_none(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "t.jsonl"
    assert _run_logged(log, "4", "4", "--report") == 2  # nothing played yet
    assert "no games" in capsys.readouterr().err and not log.exists()
    assert _run_logged(log) == 0
    lines = log.read_text().splitlines()
    log.write_text("\n".join(lines[:3]) + "\n")  # two of the four games
    assert _run_logged(log, "4", "4", "--report") == 0
    out = capsys.readouterr().out
    assert "the 2 of 4 games played so far" in out
    assert "│ random │ greedy │" in out
    assert len(log.read_text().splitlines()) == 3  # no game played, nothing written
    parser = argparse.ArgumentParser()
    cli.add_arguments(parser)
    assert cli.run(parser.parse_args(["columns", "--agents", "random,greedy", "--report"])) == 2
