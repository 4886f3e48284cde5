"""rulebox analyze: the metrics on Stones, whose answers are known exactly, and seeded runs of
the real games (repeatable, resumable from the log)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from rulebox.ai.base import AgentEntry, register_agent
from rulebox.ai.heuristics import _CACHE, Heuristic
from rulebox.analysis.balance import (
    Job,
    analyze,
    decided_at,
    expand_variants,
    metrics,
    play_one,
    schedule,
)
from rulebox.core.game import Game
from tests.ai.ai_toy_game import solve, winning_moves
from tests.analysis.analysis_toy import ToyStones as Stones


class Perfect:
    """A winning move when there is one, else the smallest."""

    name = "perfect"

    def choose(self, game: Game) -> Any:
        wins = winning_moves(game)  # type: ignore[arg-type]
        return wins[0] if wins else min(game.legal_moves())


class Ones:
    """Always takes one stone."""

    name = "ones"

    def choose(self, game: Game) -> Any:
        return 1


register_agent(AgentEntry("perfect", "test", lambda g, s: Perfect(), games=("stones",)))
register_agent(AgentEntry("ones", "test", lambda g, s: Ones(), games=("stones",)))


def exact_values(game: Game) -> list[float]:
    me = game.current_player()
    v = float(solve(game.clone()))  # type: ignore[arg-type]
    return [v if p == me else -v for p in range(2)]


@pytest.fixture
def exact_stones() -> Any:
    """Stones with its exact evaluation (and no other) while the test runs."""
    old = _CACHE.get("stones")
    _CACHE["stones"] = Heuristic("stones", exact_values)
    yield
    if old is None:
        _CACHE.pop("stones", None)
    else:
        _CACHE["stones"] = old


def stones(n: int, actions: int = 1) -> Any:
    return lambda options: Stones.new({"stones": n, "actions": actions})


def test_perfect_play_on_seven_stones_is_known_exactly(exact_stones: None) -> None:
    # P1 takes 1 (6 left: lost for P2), P2 takes 1, P1 2, P2 1, P1 2: five plies, P1 wins
    r = play_one(Job(0, "stones", 0, (), ("perfect", "perfect"), 1), stones(7))
    assert r["error"] is None
    assert (r["plies"], r["turns"], r["branching"]) == (5, 5, [2, 2, 2, 2, 2])
    assert r["winners"] == [0] and r["first"] == 0
    assert r["leaders"] == [0, 0, 0, 0, 0] and decided_at(r) == 1
    doc = analyze("stones", ["perfect"], 10, factory=stones(7), seats=2)
    m = doc["variants"][0]["metrics"]
    assert m["seats"][0]["rate"] == 1.0 and m["seats"][1]["rate"] == 0.0
    assert m["first_mover"]["rate"] == 1.0 and m["draw"]["rate"] == 0.0
    assert m["length"]["plies"]["mean"] == 5 and m["length"]["plies"]["sd"] == 0
    assert m["branching"]["overall"]["mean"] == 2.0
    assert [c["rate"] for c in m["decisiveness"]["leader_wins_at_ply"]] == [1.0] * 5
    assert m["decisiveness"]["decided_at_ply"]["median"] == 1
    # six stones: the first player loses against perfect play
    m6 = analyze("stones", ["perfect"], 4, factory=stones(6), seats=2)["variants"][0]["metrics"]
    assert m6["seats"][1]["rate"] == 1.0 and m6["first_mover"]["rate"] == 0.0


def test_multi_action_turns_count_plies_and_turns_apart() -> None:
    # 7 stones, two actions a turn, always one stone: P1 P1 | P2 P2 | P1 P1 | P2 takes the last
    r = play_one(Job(0, "stones", 0, (), ("ones", "ones"), 1), stones(7, actions=2))
    assert (r["plies"], r["turns"]) == (7, 4)
    assert r["branching"] == [2, 2, 2, 2, 2, 2, 1]
    assert r["winners"] == [1] and r["first"] == 0


@cache
def random_play(pile: int) -> tuple[float, float]:
    """Exactly, under uniformly random play: the mover's chance to win, the expected plies."""
    moves = [k for k in (1, 2) if k <= pile]
    win = length = 0.0
    for k in moves:
        if k == pile:
            w, n = 1.0, 1.0
        else:
            ow, on = random_play(pile - k)
            w, n = 1.0 - ow, 1.0 + on
        win += w / len(moves)
        length += n / len(moves)
    return win, length


def test_random_play_agrees_with_the_exact_answers() -> None:
    exact_win, exact_len = random_play(10)
    doc = analyze("stones", ["random"], 400, factory=stones(10), seats=2, seed=2)
    m = doc["variants"][0]["metrics"]
    lo, hi = m["first_mover"]["ci95"]
    assert lo <= exact_win <= hi
    plies = m["length"]["plies"]
    assert abs(plies["mean"] - exact_len) < 3 * plies["sd"] / 400 ** 0.5
    # branching: 2 while two or more stones are left, so every ply but perhaps the last
    per = m["branching"]["per_ply"]
    assert per[0] == {"n": 400, "mean": 2.0, "sd": 0.0}
    assert m["draw"]["rate"] == 0.0


def test_seats_rotate_and_deals_repeat_per_rotation() -> None:
    jobs = schedule("columns", ["a", "b"], 4, 2, [{}], seed=1)
    assert [j.seats for j in jobs] == [("a", "b"), ("b", "a")] * 2
    assert [j.seed for j in jobs] == [1_000_003, 1_000_003, 1_000_004, 1_000_004]
    solo = schedule("columns", ["a"], 3, 2, [{}], seed=0)
    assert [j.seed for j in solo] == [0, 1, 2]
    assert expand_variants(["green=0,1", "end=continue,literal"]) == [
        {"green": "0", "end": "continue"}, {"green": "0", "end": "literal"},
        {"green": "1", "end": "continue"}, {"green": "1", "end": "literal"}]
    with pytest.raises(ValueError):
        expand_variants(["green"])


@pytest.mark.parametrize("game_id", ["countred", "36to1"])
def test_seeded_runs_of_real_games_repeat(game_id: str) -> None:
    a = analyze(game_id, ["greedy"], 3, seed=5)
    b = analyze(game_id, ["greedy"], 3, seed=5)
    assert a == b
    c = analyze(game_id, ["greedy"], 3, seed=6)
    assert c["variants"][0]["metrics"] != a["variants"][0]["metrics"]


def test_the_log_resumes_a_stopped_run(tmp_path: Path) -> None:
    log = tmp_path / "run.jsonl"
    full = analyze("countred", ["greedy", "random"], 4, seed=3, log=str(log))
    lines = log.read_text().splitlines()
    assert len(lines) == 5 and json.loads(lines[0])["format"] == "rulebox-analysis-log/1"
    log.write_text("\n".join(lines[:3]) + "\n" + lines[3][:20])  # stopped mid-line
    played: list[int] = []
    again = analyze("countred", ["greedy", "random"], 4, seed=3, log=str(log),
                    on_result=lambda r: played.append(r["index"]))
    assert again == full and sorted(played) == [0, 1, 2, 3]
    with pytest.raises(ValueError, match="another run"):
        analyze("countred", ["greedy"], 4, seed=3, log=str(log))


def test_teams_and_scores_in_four_player_columba() -> None:
    doc = analyze("columba", ["random"], 2, variants=[{"players": "4"}], seed=1)
    v = doc["variants"][0]
    assert v["seats"] == 4
    m = v["metrics"]
    assert set(m["teams"]) <= {"0+2", "1+3"} and len(m["scores"]["per_seat"]) == 4
    # teammates win together
    assert m["seats"][0]["rate"] == m["seats"][2]["rate"]


def test_metrics_of_a_solitaire_count_cubes_left() -> None:
    results = [
        {"seats": ["x"], "first": 0, "winners": [0], "returns": [1.0], "scores": [0],
         "plies": 3, "turns": 1, "branching": [3, 2, 1], "leaders": [-1, 0, 0], "error": None},
        {"seats": ["x"], "first": 0, "winners": [], "returns": [-0.5], "scores": [4],
         "plies": 2, "turns": 1, "branching": [3, 3], "leaders": [0, -1], "error": None},
    ]
    m = metrics(results, 1)
    assert m["win"]["rate"] == 0.5 and m["scores"]["hist"] == [[(0, 1), (4, 1)]]
    assert [c["rate"] for c in m["decisiveness"]["leader_wins_at_ply"]] == [0.0, 1.0, 1.0]
    assert m["decisiveness"]["decided_at_ply"]["median"] == 2  # (2 + 2) / 2
    assert m["branching"]["per_ply"][0] == {"n": 2, "mean": 3.0, "sd": 0.0}


def test_worker_processes_give_the_same_run() -> None:
    one = analyze("countred", ["greedy", "random"], 2, seed=3, workers=1)
    two = analyze("countred", ["greedy", "random"], 2, seed=3, workers=2)
    assert one == two


def test_teammates_tied_first_lead_together() -> None:
    from rulebox.analysis.balance import leads

    assert leads([0, 2], [0, 2], 4) and not leads([0, 2], [1, 3], 4)
    assert not leads([0, 1], [0], 2)  # a tie between opponents leads nobody
    assert not leads([0, 1, 2, 3], [0, 1, 2, 3], 4) and leads(1, [1, 3], 4)
    results = [{"seats": ["x"] * 4, "first": 0, "winners": [1, 3], "returns": [-1, 1, -1, 1],
                "scores": None, "plies": 3, "turns": 3, "branching": [2, 2, 2],
                "leaders": [[0, 2], [1, 3], 3], "error": None}]
    m = metrics(results, 4)
    assert [c["rate"] for c in m["decisiveness"]["leader_wins_at_ply"]] == [0.0, 1.0, 1.0]
    assert decided_at(results[0]) == 2
