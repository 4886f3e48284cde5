"""rulebox review: marks, the decisive moment, the record's review section, hidden information.

The toy game (Stones, 7 stones, take 1 or 2, the last stone wins) is evaluated exactly: the
player to move loses exactly when the pile is a multiple of 3, so every value is 0 or 1."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from rulebox.analysis.review import (
    THRESHOLDS,
    Evaluator,
    decisive_ply,
    mark_of,
    probability,
    read_record_json,
    review_lines,
    review_record,
    valid_review,
    write_review,
)
from rulebox.cli.review import main as review_main
from rulebox.core.game import Game
from rulebox.core.registry import new_game
from rulebox.match.records import Record, load_record, save_record
from tests.ai.ai_toy_game import solve, winning_moves
from tests.analysis.analysis_toy import ToyStones as Stones


def exact_values(game: Game) -> list[float]:
    """Stones solved: +1 for the player to move when he wins with best play, else -1."""
    assert isinstance(game, Stones)
    me = game.current_player()
    v = float(solve(game.clone()))
    return [v if p == me else -v for p in range(2)]


def perfect(game: Game) -> Any:
    """A winning move when there is one, else the smallest."""
    assert isinstance(game, Stones)
    wins = winning_moves(game)
    return wins[0] if wins else min(game.legal_moves())


def stones_record(moves: list[str]) -> Record:
    game = Stones.new({"stones": 7})
    for m in moves:
        game.apply(m)
    return Record.of(game, ["a", "b"])


def review_stones(moves: list[str]) -> dict[str, Any]:
    ev = Evaluator("stones", values=exact_values, chooser=perfect)
    return review_record(stones_record(moves), ev, new=lambda o: Stones.new({"stones": 7}))


def test_marks_follow_the_documented_thresholds() -> None:
    assert THRESHOLDS == {"inaccuracy": 0.05, "mistake": 0.10, "blunder": 0.20}
    assert mark_of(0.0) is None and mark_of(0.049) is None
    assert mark_of(0.05) == "inaccuracy" and mark_of(0.099) == "inaccuracy"
    assert mark_of(0.10) == "mistake" and mark_of(0.2) == "blunder" and mark_of(1.0) == "blunder"
    assert probability(0.0, (-1.0, 1.0)) == 0.5 and probability(-1.0, (-1.0, 1.0)) == 0.0
    assert probability(0.5, (-1.0, 1.0)) == 0.75 and probability(3.0, (-1.0, 1.0)) == 1.0


def test_a_thrown_away_win_is_a_blunder_and_the_decisive_moment() -> None:
    # 7 stones: P1 wins by taking 1 (leaving 6). He takes 2 (leaves 5: P2 wins by taking 2).
    review = review_stones(["2", "2", "1", "2"])
    moves = review["moves"]
    assert [m["player"] for m in moves] == [0, 1, 0, 1]
    first = moves[0]
    assert (first["best"], first["before"], first["after"]) == ("1", 1.0, 0.0)
    assert first["loss"] == 1.0 and first["mark"] == "blunder"
    assert moves[1]["mark"] is None and moves[1]["best"] == "2" and moves[1]["after"] == 1.0
    # a lost position stays lost whatever P1 does: no mark
    assert (moves[2]["before"], moves[2]["after"], moves[2]["mark"]) == (0.0, 0.0, None)
    assert moves[3]["probs"] == [0.0, 1.0]  # the finished game: P2 won
    assert review["decisive"] == 1
    assert review["summary"] == {"0": {"inaccuracy": 0, "mistake": 0, "blunder": 1},
                                 "1": {"inaccuracy": 0, "mistake": 0, "blunder": 0}}
    assert review["start"] == [1.0, 0.0]


def test_a_well_played_game_has_no_marks_and_the_first_move_decides() -> None:
    review = review_stones(["1", "2", "1", "1", "2"])  # P1: 7->6, P2 6->4, P1 4->3, ...
    assert [m["mark"] for m in review["moves"]] == [None] * 5
    assert all(m["loss"] == 0.0 for m in review["moves"])
    assert review["decisive"] == 1


def test_the_decisive_moment_is_where_the_winner_took_the_lead_for_good() -> None:
    # P1 throws the win away (ply 1), P2 gives it back (ply 2: from 5 takes 1, leaves 4),
    # P1 then keeps it: 4 -> 3 (ply 3), P2 3 -> 2, P1 takes 2 and wins.
    review = review_stones(["2", "1", "1", "1", "2"])
    assert [m["mark"] for m in review["moves"]] == ["blunder", "blunder", None, None, None]
    assert review["decisive"] == 2
    # with a draw there is no winner: the largest loss is the decisive moment
    moves = [{"ply": 1, "loss": 0.1, "probs": [0.5, 0.5]}, {"ply": 2, "loss": 0.3,
                                                             "probs": [0.5, 0.5]}]

    class Drawn:
        def outcome(self) -> Any:
            from rulebox.core.game import Outcome

            return Outcome((), None, "draw")

    assert decisive_ply(moves, Drawn(), 2) == 2  # type: ignore[arg-type]


def test_forced_moves_are_never_marked() -> None:
    review = review_stones(["2", "2", "2", "1"])  # the last move (1 stone left) is forced
    assert review["moves"][-1]["choices"] == 1 and review["moves"][-1]["mark"] is None


def columns_record(tmp_path: Path, seed: int = 3) -> Path:
    game = new_game("columns", {"seed": str(seed)})
    rand = random.Random(seed)
    while not game.is_terminal():
        game.apply_unchecked(rand.choice(game.legal_moves()))
    path = tmp_path / "game.json"
    save_record(Record.of(game, ["a", "b"]), path)
    return path


def test_the_cli_writes_the_review_into_the_record_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = columns_record(tmp_path)
    before = json.loads(path.read_text())
    assert review_main([str(path), "--iterations", "200", "--agent", "alphabeta"]) == 0
    out = capsys.readouterr().out
    data = read_record_json(path)
    record = load_record(path)  # still a valid record for everyone else
    assert valid_review(data["review"], record)
    assert {k: v for k, v in data.items() if k != "review"} == before
    review = data["review"]
    assert len(review["moves"]) == len(record.moves)
    assert review["agent"].startswith("alphabeta:") and "iterations=200" in review["agent"]
    for m in review["moves"]:
        assert 0.0 <= m["after"] <= m["before"] <= 1.0
        assert m["mark"] == mark_of(m["loss"])
    assert "decisive moment: ply" in out and out.count("\n") == len(review_lines(record, review))
    # the second call prints the stored review without searching again
    path.write_text(json.dumps({**data, "review": {**review, "agent": "stored"}}))
    assert review_main([str(path)]) == 0
    assert "review by stored" in capsys.readouterr().out


def test_review_is_repeatable_with_iterations(tmp_path: Path) -> None:
    path = columns_record(tmp_path, seed=4)
    record = load_record(path)
    a = review_record(record, Evaluator("columns", "alphabeta", iterations=150, seed=1))
    b = review_record(record, Evaluator("columns", "alphabeta", iterations=150, seed=1))
    assert a["moves"] == b["moves"] and a["decisive"] == b["decisive"]
    write_review(path, a)
    assert read_record_json(path)["review"]["moves"] == a["moves"]


@pytest.mark.parametrize("game_id", ["36to1", "columba"])
def test_hidden_cards_are_reviewed_from_the_movers_view(game_id: str) -> None:
    """Two games that differ only in the order of the unseen cards get the same evaluation
    and the same preferred move: the review never reads the hidden order."""
    game = new_game(game_id, {"seed": "11"})
    rand = random.Random(5)
    for _ in range(6):
        game.apply_unchecked(rand.choice(game.legal_moves()))
    other = game.clone()
    other.reshuffle_unseen(random.Random(99))
    assert other.position_json() != game.position_json()  # the hidden order differs
    me = game.current_player()
    assert game.view(me) == other.view(me)
    results = []
    for g in (game, other):
        ev = Evaluator(game_id, "greedy", seed=3, worlds=4)
        worlds = ev.worlds_of(g, me, 6)
        move = ev.choose(g)
        results.append((move, [ev.probs_after(worlds, m) for m in g.legal_moves()[:5]]))
    assert results[0] == results[1]


def test_replay_notes_come_from_the_stored_review(tmp_path: Path) -> None:
    from rulebox.analysis.review import load_review, note_for

    path = columns_record(tmp_path, seed=6)
    assert load_review(path) is None and note_for(None, 1) == ""
    record = load_record(path)
    review = review_record(record, Evaluator("columns", "greedy", seed=1))
    write_review(path, review)
    stored = load_review(path)
    assert stored is not None and stored["moves"] == review["moves"]
    first = review["moves"][0]
    assert note_for(stored, 1).startswith(f"  {first['before'] * 100:3.0f}% ->")
    assert note_for(stored, 0) == "" and note_for(stored, len(record.moves) + 1) == ""
    if review["decisive"]:
        assert note_for(stored, review["decisive"]).endswith("decisive")


def test_a_record_with_takebacks_is_reviewed_on_its_final_line() -> None:
    game = new_game("columns", {"seed": "2"})
    rand = random.Random(1)
    log = [str(rand.choice(game.legal_moves())), "!undo"]  # a move taken back
    while not game.is_terminal():
        move = rand.choice(game.legal_moves())
        game.apply_unchecked(move)
        log.append(str(move))
    plain = Record.of(game, ["a", "b"])
    taken = Record.of(game, ["a", "b"])
    taken.log, taken.takebacks = log, 1
    a = review_record(plain, Evaluator("columns", "greedy", seed=1))
    b = review_record(taken, Evaluator("columns", "greedy", seed=1))
    assert [m["move"] for m in b["moves"]] == plain.moves
    assert a["moves"] == b["moves"] and a["decisive"] == b["decisive"]
