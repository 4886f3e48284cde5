"""Terminal play driven by a script through a pipe, as a person would type, plus records,
replay, rules and bench from the command line."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from rulebox.core.errors import StateError
from rulebox.match.records import Record, load_record

ENV = dict(os.environ, NO_COLOR="1", COLUMNS="100")
ENV.pop("RULEBOX_DATA", None)


@pytest.fixture(autouse=True)
def _data_dir(tmp_path: Path) -> None:
    """Autosaves go to the test's own directory, never the user's."""
    ENV["RULEBOX_DATA"] = str(tmp_path / "data")


def rulebox(*args: str, stdin: str = "", timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "rulebox.cli.main", *args],
        input=stdin.encode(), capture_output=True, timeout=timeout, env=ENV,
    )


def test_a_seed_repeats_the_computer_s_choices(tmp_path: Path) -> None:
    """--seed fixes the computer's moves too (they were drawn from a fresh table seed, so a
    scripted game could find its next move illegal, once in a few runs)."""
    games = []
    for i in range(3):
        save = tmp_path / f"game{i}.json"
        proc = rulebox("play", "columns", "--seed", "3", "--seat", "1=random",
                       stdin=f"Sa1\nRa1\nsave {save}\nquit\n")
        assert proc.returncode == 0, proc.stderr.decode()
        games.append(load_record(save).moves)
    assert len(games[0]) == 4 and games[0][::2] == ["Sa1", "Ra1"]
    assert games[0] == games[1] == games[2]


def test_play_through_a_pipe_against_the_computer(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    proc = rulebox("play", "columns", "--seed", "3", "--time", "0.1", "--seat", "1=random",
                   stdin=f"?\nnotation\nRa9\nSa1\nRa1\nundo\nRb1\nhint\nsave {save}\nquit\n")
    out = proc.stdout.decode()
    assert proc.returncode == 0, proc.stderr.decode()
    assert "75 legal moves by piece: R 12, S 12, D 17, T 34" in out  # ? groups the moves
    assert "Tb1a1^" in out  # notation shows how moves are written
    assert "there is no pin a9" in out
    assert "dark (random) plays" in out
    assert "took back Ra1" in out
    assert "hint: the computer would play" in out
    assert "\x1b[" not in out  # no colour codes through a pipe
    record = load_record(save)
    assert record.game == "columns" and record.options["seed"] == "3"
    assert record.moves[0] == "Sa1" and record.moves[2] == "Rb1"
    assert record.players == ["human", "random:seed=1,time=0.1"]


def test_an_illegal_move_is_explained_and_the_prompt_comes_back() -> None:
    proc = rulebox("play", "columns", "--seed", "1", "--seat", "1=human",
                   stdin="Sa1\nRa1\nquit\n")
    out = proc.stdout.decode()
    assert "may not sit directly on an opponent's blocker" in out and "[COL-4]" in out
    assert out.count("dark (person) >") == 2


def test_hot_seat_game_to_the_end_shows_the_result(tmp_path: Path) -> None:
    moves = (
        "Ta3b3^ Tc3b3v Td2d3^ Db1c1 Ra2 Sc3 Tc2c1v Tc2d2^ Sc2 Tb3a3^ Rc1 Sc3 Sc3 Sd3 Sd3 Rb1 "
        "Rb1 Rb2 Rb1 Ra2 Rc1 Rd2 Rb1 Rb3 Ra1 Rd1 Ra1 Rd1 Da1a2 Rd2 Ra1 Rb2 Rc1 Rb2 Rd3 Da2a3 "
        "Rb2 Da2b2"
    ).split()
    save = tmp_path / "end.json"
    proc = rulebox("play", "columns", "--seed", "0", "--seat", "1=human", "--save", str(save),
                   stdin="\n".join(moves) + "\n")
    out = proc.stdout.decode()
    assert out.count("Game over") == 1 and out.count("wins:") == 1  # the result said once
    assert "Game over: light (person) wins: more roundels" in out
    record = load_record(save)
    assert record.result is not None and record.result.startswith("over winner=")
    assert record.replay().is_terminal()


def test_resign_and_draw_offer_between_people() -> None:
    out = rulebox("play", "columns", "--seat", "1=human", stdin="resign\ny\n").stdout.decode()
    assert "light (person) resigns; dark (person) wins" in out
    out = rulebox("play", "columns", "--seat", "1=human",
                  stdin="draw\nn\ndraw\ny\n").stdout.decode()
    assert "declines the draw" in out and "draw agreed" in out


def test_load_continues_a_saved_game(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    rulebox("play", "columns", "--seed", "2", "--seat", "1=human",
            stdin=f"Ra1\nRb1\nsave {save}\nquit\n")
    proc = rulebox("play", "--load", str(save), "--seat", "1=human",
                   stdin="history\nRc1\nundo\nquit\n")
    out = proc.stdout.decode()
    assert "loaded" in out and "2 moves" in out
    assert "took back Rc1" in out


def test_a_record_that_breaks_the_rules_is_refused_saying_where(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    record = Record(game="columns", options={"first": "0", "seed": "1"}, players=["a", "b"],
                    moves=["Sa1", "Ra1"])
    bad.write_text(json.dumps(record.to_json()))
    with pytest.raises(StateError, match=r"move 2 \('Ra1'\) breaks the rules.*COL-4"):
        load_record(bad).replay()
    proc = rulebox("replay", str(bad))
    assert proc.returncode == 2 and "move 2" in proc.stderr.decode()
    (tmp_path / "junk.json").write_text("{not json")
    proc = rulebox("play", "--load", str(tmp_path / "junk.json"))
    assert proc.returncode == 2 and "not valid JSON" in proc.stderr.decode()


def test_replay_steps_through_every_position(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    record = Record(game="columns", options={"first": "0", "seed": "1"}, players=["a", "b"],
                    moves=["Ra1", "Da2b2", "Tc1d1^"])
    path.write_text(json.dumps(record.to_json()))
    out = rulebox("replay", str(path)).stdout.decode()
    assert "move 3 of 3: Tc1d1^" in out and out.count("To move") == 4
    assert "move 0 of 3: the start" in out


def test_rules_prints_every_rule_id() -> None:
    out = rulebox("rules", "columns").stdout.decode()
    for i in range(1, 11):
        assert f"COL-{i}" in out


def test_bench_prints_the_figures_last() -> None:
    out = rulebox("bench", "columns", "--seconds", "0.5").stdout.decode().strip().splitlines()
    key, _, value = out[-1].partition(" ")
    assert key.startswith("playouts/s=") and float(key.split("=")[1]) > 0
    assert value.startswith("plies/s=")


def test_unknown_game_is_a_clear_error() -> None:
    proc = rulebox("play", "chess")
    assert proc.returncode == 2 and "unknown game 'chess'" in proc.stderr.decode()


def test_countred_match_applies_the_rematch_rules_and_keeps_score() -> None:
    proc = rulebox("play", "countred", "--games", "3", "--seed", "4", "--seat", "0=random",
                   "--seat", "1=random", "--time", "0.1", timeout=300)
    out = proc.stdout.decode()
    assert proc.returncode == 0, proc.stderr.decode()
    options = [line.split() for line in out.splitlines() if line.startswith("options:")]
    assert len(options) == 3
    evens = [next(o for o in opts if o.startswith("even=")) for opts in options]
    assert evens[0] != evens[1] and evens[1] != evens[2]  # parity swaps every game (CR-15)
    seeds = [next(o for o in opts if o.startswith("seed=")) for opts in options]
    assert seeds[0] == "seed=4" and len(set(seeds)) == 3  # a fresh seed each game
    assert out.count("match score:") == 3
    last = [line for line in out.splitlines() if line.startswith("match score:")][-1]
    scores = [float(x) for x in re.findall(r"\) (\d+(?:\.\d+)?)", last)]
    assert len(scores) == 2
    assert sum(scores) == 3


def test_draw_offer_to_the_computer_gets_an_answer() -> None:
    out = rulebox("play", "countred", "--seed", "1", "--seat", "1=random",
                  stdin="draw\nquit\n").stdout.decode()
    assert "declines the draw" in out or "draw agreed" in out


CR_BONUS = (
    "C3-B4 D2-B1 D4-B2 C1-D1 A1-A3 B1-C4 B4-C3 D1-B1 B2-C3 B4-D1 A4-D3 D1-A2 C2-D1 A2-D4 "
    "C3-B4 A2-D2 "
).split()
CR_SKIP = (
    "A4-C4 A2-A1 C4-A4 C2-C1 B2-D4 D2-C2 A1-B4 C4-A4 D3-A3 D4-C2 A1-B3 C2-D4 A3-D3 D4-A2 "
    "C1-D2 D4-D3 A3-C1 B3-B1 A2-C3 B1-D2 A4-B1 B3-A3 B1-A4 D2-D1 C3-A2 B1-C2 C1-C3 C2-A2 "
    "A4-A3 B4-C1 A3-C4 B4-C4 C3-C2 A3-C3 C2-B3 C1-B2 "
).split()


def test_countred_terminal_announces_bonus_moves_and_skips() -> None:
    common = ("--seat", "0=human", "--seat", "1=human")
    out = rulebox("play", "countred", "even=0", "first=0", "seed=1", "stack_lift=free", *common,
                  stdin="\n".join(CR_BONUS) + "\n").stdout.decode()
    assert "D1, D2, D3 are locked; second earns a bonus move [CR-10]" in out
    out = rulebox("play", "countred", "even=1", "first=1", "seed=1", "stack_lift=free", *common,
                  stdin="\n".join(CR_SKIP) + "\n").stdout.decode()
    assert "second has no legal move and is skipped; first moves again [CR-11]" in out


def test_undo_at_the_terminal_never_shows_the_next_card(tmp_path: Path) -> None:
    """36 to 1: play, undo, play the same move: the card turned up is a new draw each time
    (the record marks the takebacks and replays to the same position)."""
    save = tmp_path / "s.json"
    script = "G1:a1\n" + "undo\nG1:a1\n" * 5 + f"save {save}\nquit\n"
    proc = rulebox("play", "36to1", "--seed", "3", stdin=script)
    assert proc.returncode == 0, proc.stderr.decode()
    assert proc.stdout.decode().count("took back G1:a1") == 5
    record = load_record(save)
    assert record.takebacks == 5 and record.log is not None
    assert sum(step.startswith("!reshuffle") for step in record.log) == 5
    from rulebox.match.table import replay_log

    turned_up = set()
    for k, step in enumerate(record.log):
        if step == "G1:a1":
            turned_up.add(tuple(replay_log("36to1", record.options,
                                           record.log[: k + 1]).view(0)["faceup"]))
    assert len(turned_up) > 1
    assert record.replay().position_json() == replay_log(
        "36to1", record.options, record.log).position_json()


def test_a_failing_computer_is_reported_at_the_terminal_and_forfeits() -> None:
    """The table's failure policy through the terminal: no random move in its place."""
    import io

    from rich.console import Console

    from rulebox.ai.base import _AGENTS, AgentEntry, register_agent
    from rulebox.cli.play import play_match
    from rulebox.match.table import Seat, Table

    class Broken:
        name = "broken"

        def choose(self, game: object) -> object:
            raise RuntimeError("no legal thought")

    register_agent(AgentEntry("broken", "raises", lambda g, s: Broken()))
    try:
        out = io.StringIO()
        table = Table.new("columns", {"seed": "1"}, [Seat.person(), Seat.computer("broken")])
        lines = iter(["Ra1"])
        play_match(table, 1, Console(file=out, width=100), read=lambda _p: next(lines, None))
    finally:
        _AGENTS.pop("broken", None)
    text = out.getvalue()
    assert "failed: RuntimeError: no legal thought" in text
    assert len(table.game.history) == 1 and table.ending is not None
    assert table.ending.how == "forfeit" and table.ending.winners == (0,)
