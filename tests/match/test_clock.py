"""Time controls (issue 17): the clock as a pure object driven by timestamps, and the table's
policy around it (first turn untimed, computers' clocks stopped, a flag ends the game, undo
after the end refused), with a fake time source: no test sleeps."""

from __future__ import annotations

import random

import pytest

from rulebox.match.clock import DAY, Clock, ClockError, TimeControl
from rulebox.match.table import Seat, Table, TableError


class FakeTime:
    """A time source the test moves by hand."""

    def __init__(self, t: float = 1_000_000.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


# --- the control and the clock --------------------------------------------------------------------
def test_controls_are_read_from_text() -> None:
    c = TimeControl.parse("5+3")
    assert (c.text, c.base, c.increment, c.days, c.per_move) == ("5+3", 300.0, 3.0, None, False)
    d = TimeControl.parse("3d")
    assert (d.text, d.base, d.increment, d.days, d.per_move) == ("3d", 3 * DAY, 0.0, 3, True)
    assert TimeControl.parse(" 0.5 + 0 ").base == 30.0
    for bad in ("", "5", "abc", "0+3", "5+999", "0d", "99d", "5+3+1", "-1+2", "1" * 20):
        with pytest.raises(ClockError):
            TimeControl.parse(bad)


def test_time_runs_for_the_running_seat_only_and_the_increment_follows_the_turn() -> None:
    c = Clock.new("5+3", 2)
    assert c.running is None and c.falls_at() is None and c.flagged(10**12) is None
    c.start(0, 100.0)
    assert c.left(0, 130.0) == 270.0 and c.left(1, 130.0) == 300.0
    spent = c.end_turn(0, 1, 130.0)
    assert spent == 30.0 and c.remaining == [273.0, 300.0] and c.running == 1
    assert c.falls_at() == 430.0
    assert c.flagged(429.9) is None and c.flagged(430.0) == 1
    assert c.left(1, 1000.0) == 0.0  # never below zero


def test_a_turn_that_was_not_running_gets_no_increment() -> None:
    c = Clock.new("1+5", 2)
    c.end_turn(0, 1, 50.0)  # the untimed first turn
    assert c.remaining == [60.0, 60.0] and c.running == 1 and c.since == 50.0
    c.end_turn(1, None, 70.0)  # the turn passes to nobody's clock (a computer)
    assert c.remaining == [60.0, 45.0] and c.running is None and c.used == [20.0]


def test_correspondence_gives_every_turn_the_full_days() -> None:
    c = Clock.new("2d", 2)
    c.start(0, 0.0)
    c.end_turn(0, 1, DAY)  # one day used: not kept, not added
    assert c.remaining[0] == DAY and c.running == 1
    assert c.left(0, DAY) == 2 * DAY  # shown: the full days of its next turn
    assert c.payload(1.25 * DAY)["remaining"] == [2 * DAY, 1.75 * DAY]
    c.end_turn(1, 0, 1.5 * DAY)
    assert c.left(0, 1.5 * DAY) == 2 * DAY  # a fresh turn: the whole two days again
    assert c.flagged(3.5 * DAY - 1) is None and c.flagged(3.5 * DAY) == 0


def test_the_clock_round_trips_through_json() -> None:
    c = Clock.new("3+2", 3)
    c.start(2, 10.0)
    c.end_turn(2, 0, 25.0)
    back = Clock.from_json(c.to_json())
    assert back == c
    p = back.payload(40.0)
    assert p == {"control": "3+2", "base": 180.0, "increment": 2.0, "days": None,
                 "remaining": [165.0, 180.0, 167.0], "running": 0, "server_time": 40000}


# --- the table ------------------------------------------------------------------------------
def _timed(game: str, seats: list[Seat], control: str = "1+2", opts: dict[str, str] | None = None
           ) -> tuple[Table, FakeTime]:
    now = FakeTime()
    t = Table.new(game, opts or {}, seats, seed=5)
    t.clock = Clock.new(control, len(seats))
    t.time_source = now
    return t, now


def test_the_first_turn_is_untimed_then_the_person_to_move_runs() -> None:
    t, now = _timed("columns", [Seat.remote(), Seat.remote()])
    assert t.clock is not None and t.clock.running is None
    now.t += 500  # far beyond a minute: the first turn does not count
    t.play(0, t.game.legal_moves()[0])
    assert t.clock.running == 1 and t.clock.remaining == [60.0, 60.0]
    now.t += 10
    t.play(1, t.game.legal_moves()[0])
    assert t.clock.running == 0 and t.clock.remaining == [60.0, 52.0]  # 60 - 10 + 2


def test_a_fallen_flag_ends_the_game_the_other_side_wins_and_nothing_more_is_played() -> None:
    t, now = _timed("columns", [Seat.remote(), Seat.remote()])
    t.play(0, t.game.legal_moves()[0])
    version = t.version
    now.t += 59.9
    assert t.check_time() is None and not t.over()
    now.t += 0.2
    ending = t.check_time()
    assert ending is not None and ending.how == "time" and ending.winners == (0,)
    assert t.over() and t.version == version + 1 and t.clock is not None
    assert t.clock.running is None and t.clock.remaining[1] == 0.0
    assert t.events[-1].kind == "flag" and t.events[-1].player == 1
    assert "ran out of time" in t.events[-1].text
    assert t.check_time() is None  # only once
    with pytest.raises(TableError) as e:
        t.play(1, t.game.legal_moves()[0])
    assert e.value.code == "game_over"


def test_a_move_after_the_flag_fell_is_refused_even_when_nobody_checked() -> None:
    t, now = _timed("columns", [Seat.remote(), Seat.remote()])
    t.play(0, t.game.legal_moves()[0])
    now.t += 61
    with pytest.raises(TableError) as e:
        t.play(1, t.game.legal_moves()[0])
    assert e.value.code == "game_over"
    assert t.ending is not None and t.ending.how == "time" and len(t.game.history) == 1


def test_a_computers_clock_does_not_run() -> None:
    t, now = _timed("columns", [Seat.remote(), Seat.computer("random")])
    t.play(0, t.game.legal_moves()[0])
    assert t.clock is not None and t.clock.running is None
    now.t += 3600
    assert t.check_time() is None
    t.play_computers()
    assert t.clock.running == 0 and t.clock.remaining == [60.0, 60.0]


def test_with_three_players_the_flagged_seat_loses_and_everyone_else_wins() -> None:
    t, now = _timed("columba", [Seat.remote()] * 3, opts={"players": "3"})
    rng = random.Random(2)
    while t.to_move() == 0:  # the whole first turn (several actions) is untimed
        moves = t.game.legal_moves()
        t.play(0, moves[rng.randrange(len(moves))])
    nxt = t.to_move()
    assert nxt is not None and nxt != 0 and t.clock is not None and t.clock.running == nxt
    now.t += 30
    moves = t.game.legal_moves()
    t.play(nxt, moves[0])
    if t.to_move() == nxt:  # a multi-action turn: the same turn, the same running time
        assert t.clock.running == nxt and t.clock.left(nxt, now.t) == 30.0
    now.t += 31
    ending = t.check_time()
    assert ending is not None and ending.how == "time"
    assert sorted(ending.winners) == sorted({0, 1, 2} - {nxt})


def test_the_clock_and_a_time_ending_round_trip_through_the_tables_json() -> None:
    t, now = _timed("columns", [Seat.remote(), Seat.remote()], "2+1")
    t.play(0, t.game.legal_moves()[0])
    now.t += 5
    back = Table.from_json(t.to_json(), [Seat.remote(), Seat.remote()])
    assert back.clock == t.clock and back.updated == t.updated
    now.t += 200
    t.check_time()
    back = Table.from_json(t.to_json(), [Seat.remote(), Seat.remote()])
    assert back.ending is not None and back.ending.how == "time" and back.ending.winners == (0,)
    assert back.clock is not None and back.clock.running is None


def test_undo_restarts_the_askers_time_and_a_rematch_keeps_the_control() -> None:
    t, now = _timed("columns", [Seat.person(), Seat.computer("random")])
    t.play(0, t.game.legal_moves()[0])
    t.play_computers()
    assert t.clock is not None and t.clock.running == 0
    now.t += 10
    t.play(0, t.game.legal_moves()[0])
    t.play_computers()
    now.t += 5
    t.undo(0)
    assert t.to_move() == 0 and t.clock.running == 0 and t.clock.since == now.t
    t.resign(0)
    nxt = t.rematch()
    assert nxt.clock is not None and nxt.clock.control == t.clock.control
    assert nxt.clock.remaining == [60.0, 60.0] and nxt.clock.running is None


def test_undo_after_the_game_ended_by_the_rules_is_refused() -> None:
    """Issue 17: an undo used to un-finish a game (Discs, 36 to 1)."""
    t = Table.new("columns", {}, [Seat.person(), Seat.person()], seed=1)
    rng = random.Random(4)
    while not t.over():
        moves = t.game.legal_moves()
        t.play(None, moves[rng.randrange(len(moves))])
    assert t.ending is not None and t.ending.how == "rules"
    assert not t.can_undo(0) and not t.can_undo(1)
    plies, version = len(t.game.history), t.version
    with pytest.raises(TableError) as e:
        t.undo(0)
    assert e.value.code == "game_over"
    assert t.over() and len(t.game.history) == plies and t.version == version


def test_undo_after_a_resignation_is_refused_in_a_solitaire() -> None:
    t = Table.new("36to1", {}, [Seat.person()], seed=3)
    t.play(0, t.game.legal_moves()[0])
    t.resign(0)
    with pytest.raises(TableError) as e:
        t.undo(0)
    assert e.value.code == "game_over" and t.over()
