"""The command line refuses every bad value with the reason and exit code 2, gives each
command its own usage and a clean --help; records are read carefully (a device, a FIFO, a
result the moves contradict, names with escape sequences); the line mode's help stays short."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from rulebox.cli.play import Session, play_match
from rulebox.cli.replay import replay, step_to
from rulebox.cli.seats import make_seats
from rulebox.cli.text import agree, clean, end_message, match_message, plural
from rulebox.core.registry import game_entry
from rulebox.match.records import Record
from rulebox.match.table import Table

ENV = dict(os.environ, NO_COLOR="1", COLUMNS="100")


@pytest.fixture(autouse=True)
def _data_dir(tmp_path: Path) -> None:
    """Autosaves go to the test's own directory, never the user's."""
    ENV["RULEBOX_DATA"] = str(tmp_path / "autosaves")


def rulebox(*args: str, stdin: str = "", timeout: float = 60,
            data: Path | None = None) -> subprocess.CompletedProcess:
    env = dict(ENV, RULEBOX_DATA=str(data)) if data is not None else ENV
    return subprocess.run([sys.executable, "-m", "rulebox.cli.main", *args],
                          input=stdin.encode(), capture_output=True, timeout=timeout, env=env)


@pytest.mark.parametrize(("args", "why"), [
    (("play", "columns", "--games", "0"), "a match has at least 1 game"),
    (("play", "columns", "--games", "-3"), "a match has at least 1 game"),
    (("play", "columns", "--games", "two"), "not a whole number"),
    (("play", "columns", "--time", "-1"), "the time must be more than 0"),
    (("play", "columns", "--time", "0"), "the time must be more than 0"),
    (("play", "columns", "--seed", "-5"), "must be 0 or more"),
    (("agents", "chess"), "unknown game 'chess'"),
    (("rules", "chess"), "unknown game 'chess'"),
    (("bench", "columns", "--seconds", "-2"), "the time must be more than 0"),
    (("replay", "x.json", "--move", "-1"), "must be 0 or more"),
])
def test_a_bad_value_is_refused_with_why_and_exit_2(args: tuple[str, ...], why: str) -> None:
    proc = rulebox(*args)
    assert proc.returncode == 2
    assert why in proc.stderr.decode()
    assert proc.stdout == b""  # nothing started


def test_a_bad_flag_after_play_prints_plays_own_usage() -> None:
    proc = rulebox("play", "columns", "--bogus")
    err = proc.stderr.decode()
    assert proc.returncode == 2
    assert err.startswith("usage: rulebox play") and "unrecognized arguments: --bogus" in err


COMMANDS = ["play", "engine", "rules", "games", "agents", "replay", "bench", "tournament",
            "serve", "train"]


@pytest.mark.parametrize("command", [None, *COMMANDS])
def test_help_is_clean(command: str | None) -> None:
    proc = rulebox(*([command] if command else []), "--help")
    out = proc.stdout.decode()
    assert proc.returncode == 0
    assert "``" not in out
    assert out.startswith("usage: rulebox" + (f" {command}" if command else ""))
    if command is None:  # every command's line of help ends a sentence, none cut short
        for name in ("tournament", "serve", "train"):
            assert name in out
        assert "seat-rotated round robin of agents" in out


def test_games_say_player_or_players() -> None:
    out = rulebox("games").stdout.decode()
    assert "36 to 1 (1 player)" in out and "Count Red (2 players)" in out
    assert "(1 players)" not in out


def test_replay_of_a_device_or_a_fifo_is_refused_at_once(tmp_path: Path) -> None:
    proc = rulebox("replay", "/dev/zero", timeout=20)
    assert proc.returncode == 2 and "not a regular file" in proc.stderr.decode()
    assert b"MemoryError" not in proc.stderr and b"Traceback" not in proc.stderr
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for args in (("replay", str(fifo)), ("play", "--load", str(fifo))):
        proc = rulebox(*args, timeout=20)  # a hang would time out
        assert proc.returncode == 2 and "not a regular file" in proc.stderr.decode()
    big = tmp_path / "big.json"
    big.write_bytes(b" " * (5 << 20))
    proc = rulebox("replay", str(big))
    assert proc.returncode == 2 and "too large to be a record" in proc.stderr.decode()


def _write(path: Path, record: Record) -> Path:
    path.write_text(json.dumps(record.to_json()))
    return path


def test_load_refuses_a_result_the_moves_contradict(tmp_path: Path) -> None:
    bad = _write(tmp_path / "bad.json", Record(
        game="columns", options={"first": "0", "seed": "1"}, players=["human", "human"],
        moves=["Ra1", "Rb1"], result="over winner=1"))
    for args in (("play", "--plain", "--load", str(bad)), ("replay", str(bad))):
        proc = rulebox(*args, stdin="quit\ny\n")
        assert proc.returncode == 2
        assert "the moves give 'ongoing'" in proc.stderr.decode()


def test_names_with_escape_sequences_are_not_printed_raw(tmp_path: Path) -> None:
    evil = "\x1b]0;owned\x07\x1b[2J\x1b[31mred"
    path = _write(tmp_path / "evil.json", Record(
        game="columns", options={"first": "0", "seed": "1"}, players=[evil, "human"],
        moves=["Ra1"]))
    proc = rulebox("replay", str(path))
    out = proc.stdout.decode()
    assert proc.returncode == 0
    assert "\x1b" not in out and "\x07" not in out and "red" in out
    assert clean(evil) == "red"


def test_play_load_last_continues_the_autosaved_game(tmp_path: Path) -> None:
    data = tmp_path / "data"
    proc = rulebox("play", "columns", "--seed", "2", "--seat", "1=human", "--plain",
                   stdin="Ra1\nRb1\nquit\ny\n", data=data)
    assert proc.returncode == 0 and "--load last" in proc.stdout.decode()
    assert len(list((data / "games").glob("*-columns.json"))) == 1
    proc = rulebox("play", "--load", "last", "--seat", "1=human", "--plain",
                   stdin="history\nquit\n", data=data)
    out = proc.stdout.decode()
    assert "columns, 2 moves" in out and "1.Ra1 2.Rb1" in out
    proc = rulebox("play", "--load", "last", data=tmp_path / "empty")
    assert proc.returncode == 2 and "no game saved yet" in proc.stderr.decode()


def test_quit_and_resign_ask_first() -> None:
    out = rulebox("play", "columns", "--seat", "1=human", "--plain",
                  stdin="resign\nn\nquit\nn\nRa1\nquit\ny\n").stdout.decode()
    assert "resign this game? [y/N]" in out and "resigns" not in out
    assert "leave the game?" in out and "light (person) plays Ra1" in out


# --- the line mode's help ----------------------------------------------------------------------
VARIANTS = [("columns", {}), ("countred", {}), ("discs", {}), ("36to1", {}), ("columba", {}),
            ("columba", {"variant": "kids"}), ("columba", {"players": "4"}),
            ("columba", {"players": "3", "officia": "1"})]
HELP_LINES = 25


def _help(game_id: str, options: dict[str, str]) -> tuple[str, Table]:
    game = game_entry(game_id).cls.new({"seed": "1", **options})
    seats = make_seats(game.id, game.num_players, [], 0.05)
    table = Table(game, seats, seed=1)
    out = io.StringIO()
    session = Session(table, Console(file=out, width=80), lambda _p: None)
    session.command("?", 0)
    return out.getvalue(), table


@pytest.mark.parametrize(("game_id", "options"), VARIANTS, ids=lambda v: str(v))
def test_short_help_is_bounded_and_lists_only_what_works(game_id: str,
                                                         options: dict[str, str]) -> None:
    text, table = _help(game_id, options)
    lines = text.splitlines()
    assert 5 <= len(lines) <= HELP_LINES, text
    assert ("explain" in text) == (game_entry(game_id).explain is not None)
    assert ("draw " in text) == (table.game.num_players == 2)
    assert "1,680" not in text and "arrange RGB" not in text


def test_columba_help_groups_the_placements_and_kids_notation_has_no_falcons() -> None:
    text, _table = _help("columba", {})
    assert "place C" in text and "places x 4 turns; type `moves place` for the list" in text
    game = game_entry("columba").cls.new({"seed": "1", "variant": "kids"})
    from rulebox.cli.text import notation_lines

    notation = "\n".join(notation_lines(game))
    for word in ("falcon", "tile W", "goal", "buy", "architect"):
        assert word not in notation
    assert "place 2,0 r90" in notation


def test_moves_of_one_kind_in_natural_order_each_once() -> None:
    game = game_entry("columba").cls.new({"seed": "1"})
    from rulebox.cli.text import moves_of_kind

    moves = moves_of_kind(game, "place")
    assert len(moves) == len(set(moves)) > 0
    xs = [int(m.split()[1].split(",")[0]) for m in moves]
    assert xs == sorted(xs)  # -2 before -1 before 0, not sorted as text


# --- words ------------------------------------------------------------------------------------
def test_words_agree_in_number() -> None:
    assert plural(1, "player") == "1 player" and plural(2, "pigeon") == "2 pigeons"
    assert agree("dovecote at 1,1, 1 pigeons x 1") == "dovecote at 1,1, 1 pigeon x 1"
    assert agree("Game over: purple (player 1) win") == "Game over: purple (player 1) wins"
    assert match_message(["player 0 (you)", "player 1 (best)"], [2, 1], 3) == \
        "player 0 (you) wins the match 2-1 (3 games)"
    assert match_message(["a", "b"], [1, 1], 2) == "the match is drawn 1-1 (2 games)"


def test_a_four_player_end_shows_team_totals() -> None:
    from rulebox.core.game import Outcome, Termination
    from rulebox.match.table import Ending

    game = game_entry("columba").cls.new({"seed": "1", "players": "4"})
    table = Table(game, make_seats("columba", 4, [], 0.05), seed=1)
    table.ending = Ending(Termination.RULES, "the deck is used up", (1, 3),
                          Outcome((1, 3), (5, 9, 4, 7), "the deck is used up"))
    text = end_message(table)
    assert text.count("win") == 1 and "team 0+2: 9, team 1+3: 16" in text


def test_a_match_says_who_won_it_once_per_game() -> None:
    game = game_entry("columns").cls.new({"seed": "1"})
    table = Table(game, make_seats("columns", 2, ["0=random", "1=random"], 0.05), seed=3)
    out = io.StringIO()
    play_match(table, 2, Console(file=out, width=100), read=lambda _p: None)
    text = out.getvalue()
    assert text.count("wins the match") + text.count("the match is drawn") == 1
    assert text.count("Game over") == 2  # one end message per game


def test_replay_keys() -> None:
    assert step_to("", 2, 5) == 3 and step_to("b", 2, 5) == 1 and step_to("4", 0, 5) == 4
    assert step_to("e", 0, 5) == 5 and step_to("s", 4, 5) == 0 and step_to("q", 1, 5) == -1
    assert step_to("99", 0, 5) == 5 and step_to("x", 1, 5) is None


def test_replay_jumps_and_lists_the_keys_on_an_unknown_key(tmp_path: Path) -> None:
    path = _write(tmp_path / "r.json", Record(
        game="columns", options={"first": "0", "seed": "1"}, players=["a", "b"],
        moves=["Ra1", "Da2b2", "Tc1d1^"]))
    keys = iter(["x", "e", "2", "q"])
    out = io.StringIO()
    replay(str(path), step=True, read=lambda _p: next(keys, None),
           console=Console(file=out, width=100))
    text = out.getvalue()
    assert "'x' means nothing here; keys: Enter/n next" in text
    assert "move 3 of 3: Tc1d1^" in text and "move 2 of 3: Da2b2" in text
    assert "move 1 of 3" not in text  # jumped, not stepped
    assert text.count("keys:") == 2  # once at the start, once after the unknown key


@pytest.mark.parametrize("game_id", ["columns", "countred", "discs", "36to1", "columba"])
def test_rules_point_to_what_exists(game_id: str) -> None:
    """The rules pages name RULINGS.md, which is not shipped; the page carries the rulings."""
    proc = rulebox("rules", game_id)
    out = proc.stdout.decode()
    assert proc.returncode == 0 and "RULINGS" not in out
    prefix = {"columns": "COL", "countred": "CR", "discs": "DSC", "36to1": "S36",
              "columba": "CB"}[game_id]
    assert f"{prefix}-1" in out


def test_protocol_is_in_the_repository_verbatim() -> None:
    here = Path(__file__).resolve().parents[2] / "docs" / "PROTOCOL.md"
    text = here.read_text(encoding="utf-8")
    assert text.startswith("<!-- A verbatim copy of the project specification")
    shared = Path("/work/shared/PROTOCOL.md")
    if shared.exists():
        assert text.split("\n", 2)[2] == shared.read_text(encoding="utf-8")


def test_ctrl_c_asks_and_a_second_ctrl_c_leaves(tmp_path: Path) -> None:
    """Line mode: Ctrl-C at the prompt asks; Enter goes on; Ctrl-C twice leaves, saved."""
    from rulebox.cli.saves import Autosave

    game = game_entry("columns").cls.new({"seed": "1"})
    table = Table(game, make_seats("columns", 2, ["1=human"], 0.05), seed=1)
    script: list[str | type[KeyboardInterrupt]] = [
        "Ra1", KeyboardInterrupt, "", "Rb1", KeyboardInterrupt, KeyboardInterrupt]

    def read(_prompt: str) -> str | None:
        item = script.pop(0) if script else None
        if item is KeyboardInterrupt:
            raise KeyboardInterrupt
        return item  # type: ignore[return-value]

    out = io.StringIO()
    auto = Autosave(tmp_path)
    play_match(table, 1, Console(file=out, width=100), read=read, autosave=auto)
    text = out.getvalue()
    assert text.count("Ctrl-C: press it again to leave") == 2
    assert [str(m) for m in table.game.history] == ["Ra1", "Rb1"]  # went on after the first
    assert "left the game; it is saved" in text
    from rulebox.match.records import load_record

    assert load_record(tmp_path / "last.json").moves == ["Ra1", "Rb1"]
