"""The table (rulebox.match.table): seats, versions, the computer's turn and its failure policy,
undo that never reveals the future, resign, draws, rematch and announcements, each checked as a
player at the table would see it."""

from __future__ import annotations

import json
import logging
import random
import time
from typing import Any

import pytest

from rulebox.ai.base import _AGENTS, AgentEntry, register_agent
from rulebox.core.errors import OptionError
from rulebox.core.game import Game
from rulebox.core.registry import new_game
from rulebox.match import table as table_module
from rulebox.match.agents import AgentSpec, split_agent_list
from rulebox.match.table import Seat, SeatKind, StaleVersion, Table, TableError

# --- test agents: one that raises, one that answers an illegal move ------------------------------


class _Broken:
    name = "broken"

    def choose(self, game: Game) -> Any:
        raise RuntimeError("the search ran out of memory")


class _Liar:
    name = "liar"

    def choose(self, game: Game) -> Any:
        return "not a move at all"


@pytest.fixture(autouse=True, scope="module")
def _test_agents() -> Any:
    register_agent(AgentEntry("broken", "raises", lambda g, s: _Broken()))
    register_agent(AgentEntry("liar", "answers nonsense", lambda g, s: _Liar()))
    yield
    _AGENTS.pop("broken", None)
    _AGENTS.pop("liar", None)


def person_vs(game_id: str, agent: str, seed: int = 1, **options: str) -> Table:
    return Table.new(game_id, {"seed": str(seed), **options},
                     [Seat.person(), Seat.computer(agent)], seed=seed)


# --- the agent spec grammar ---------------------------------------------------------------------


def test_agent_spec_grammar_reads_name_and_settings_and_round_trips() -> None:
    spec = AgentSpec.parse("MCTS:time=2,seed=5")
    assert spec.name == "mcts" and spec.settings == (("time", "2"), ("seed", "5"))
    assert spec.label == "mcts:time=2,seed=5" and AgentSpec.parse(spec.label) == spec
    assert AgentSpec.parse("mcts:time=2:seed=5") == spec  # the old tournament spelling
    assert AgentSpec.parse("random") == AgentSpec("random")


def test_agent_spec_levels_and_the_computer() -> None:
    assert AgentSpec.parse("computer:easy") == AgentSpec("easy", (("time", "0.3"),))
    assert AgentSpec.parse("computer:hard,time=5") == AgentSpec("hard", (("time", "5"),))
    assert AgentSpec.parse("computer").resolve("columns").name == "best"
    with pytest.raises(OptionError, match="unknown level"):
        AgentSpec.parse("computer:genius")


@pytest.mark.parametrize("bad", ["", "mcts:iterations", "mcts:time=1,time=2", "m c t s", ":x=1"])
def test_agent_spec_refuses_what_it_cannot_read(bad: str) -> None:
    with pytest.raises(OptionError):
        AgentSpec.parse(bad)


def test_agent_spec_engine_words_and_tournament_lists() -> None:
    assert AgentSpec.from_words(["mcts", "time=1"], "computer") == AgentSpec.parse("mcts:time=1")
    assert AgentSpec.from_words(["mcts:time=1"], "computer") == AgentSpec.parse("mcts:time=1")
    assert AgentSpec.from_words(["time=1"], "computer") == AgentSpec.parse("computer:time=1")
    assert split_agent_list("random,mcts:iterations=500,c=0.5 greedy") == [
        AgentSpec("random"), AgentSpec.parse("mcts:iterations=500,c=0.5"), AgentSpec("greedy")]


# --- seats, turns and versions ------------------------------------------------------------------


def test_a_move_out_of_turn_or_after_the_end_is_refused_and_changes_nothing() -> None:
    t = Table.new("columns", {"seed": "1"}, [Seat.person(), Seat.person()], seed=1)
    with pytest.raises(TableError) as e:
        t.play(1, "Ra1")
    assert e.value.code == "not_your_turn" and t.version == 0 and t.game.history == []
    t.play(0, "Ra1")
    assert t.version == 1 and t.to_move() == 1
    t.resign(1)
    with pytest.raises(TableError) as e:
        t.play(0, "Rb1")
    assert e.value.code == "game_over"


def test_a_stale_version_is_refused_with_the_current_one() -> None:
    t = Table.new("columns", {"seed": "1"}, [Seat.person(), Seat.person()], seed=1)
    t.play(0, "Ra1", version=0)
    with pytest.raises(StaleVersion) as e:
        t.play(1, "Rb1", version=0)
    assert e.value.current == 1 and e.value.extra == {"version": 1}
    assert t.game.history == [t.game.history[0]] and len(t.game.history) == 1


def test_a_retried_action_of_a_multi_action_turn_is_not_applied_twice() -> None:
    """Discs: one turn is a main action, blocking actions and ``end``; the same request sent
    twice (a double click) names the same version and the second is refused."""
    t = Table.new("discs", {"seed": "1"}, [Seat.person(), Seat.person()], seed=1)
    t.play(0, "arrange RGBRGBRGB")
    t.play(1, "choose silver a1c3")
    v = t.version
    main = sorted(str(m) for m in t.game.legal_moves())[0]
    t.play(0, main, version=v)
    assert t.to_move() == 0  # the same player goes on with blocking actions
    with pytest.raises(StaleVersion):
        t.play(0, main, version=v)
    assert t.game.history[-1] == t.game.history[-1] and len(t.game.history) == 3


# --- the computer's turn -----------------------------------------------------------------------


def test_the_computer_plays_its_whole_turn_then_the_person_is_to_move() -> None:
    t = Table.new("discs", {"seed": "2"}, [Seat.person(), Seat.computer("random:seed=3")],
                  seed=2)
    t.play(0, "arrange RGBRGBRGB")
    t.play_computers()
    main = sorted(str(m) for m in t.game.legal_moves())[0]
    t.play(0, main)
    while t.to_move() == 0:
        t.play(0, "end")
    played = t.play_computers()
    assert len(played) >= 2 and str(played[-1]) == "end" and t.to_move() == 0
    assert t.movers[-len(played):] == [1] * len(played)


@pytest.mark.parametrize("game_id", ["discs", "columba"])
def test_time_is_the_budget_of_the_whole_turn(game_id: str) -> None:
    """A turn of several actions at time=1 takes about 1 s, not 1 s an action (measured on a
    busy machine: a generous upper bound)."""
    t = Table.new(game_id, {"seed": "4"}, [Seat.computer("mcts:time=1,seed=1"),
                                           Seat.computer("random:seed=2")], seed=4)
    turns: list[tuple[int, float]] = []
    while len(turns) < 3 and not t.over():
        p = t.to_move()
        start, n = time.perf_counter(), len(t.game.history)
        while t.to_move() == p:
            t.play_computers(limit=1)
        if p == 0:
            turns.append((len(t.game.history) - n, time.perf_counter() - start))
    multi = [(n, s) for n, s in turns if n >= 3]
    assert multi, turns
    for actions, seconds in multi:
        assert seconds < 1.6, (actions, seconds)


def test_an_agent_error_is_reported_logged_and_forfeits(caplog: pytest.LogCaptureFixture) -> None:
    t = person_vs("columns", "broken")
    t.play(0, "Ra1")
    with caplog.at_level(logging.ERROR, logger="rulebox.match"):
        played = t.play_computers()
    assert played == [] and len(t.game.history) == 1  # no move in its place
    assert t.ending is not None and t.ending.how == "forfeit" and t.ending.winners == (0,)
    errors = [e for e in t.events if e.kind == "agent_error"]
    assert errors and "the search ran out of memory" in errors[0].text
    assert "the search ran out of memory" in caplog.text and "Traceback" in caplog.text


def test_an_illegal_answer_is_an_agent_error_too() -> None:
    t = person_vs("columns", "liar")
    t.play(0, "Ra1")
    t.play_computers()
    assert t.ending is not None and t.ending.how == "forfeit"
    assert len(t.game.history) == 1


def test_a_solitaire_agent_error_loses_the_deal() -> None:
    t = Table.new("36to1", {"seed": "1"}, [Seat.computer("broken")], seed=1)
    t.play_computers()
    assert t.ending is not None and t.ending.how == "forfeit" and t.ending.winners == ()


# --- undo ----------------------------------------------------------------------------------------


def test_undo_against_the_computer_goes_back_to_the_persons_last_decision() -> None:
    t = person_vs("columns", "random:seed=1")
    t.play(0, "Ra1")
    t.play_computers()
    t.play(0, "Rb1")
    t.play_computers()
    taken = t.undo(0)
    assert len(taken) == 2 and taken[1] == "Rb1"
    assert str(t.game.history[0]) == "Ra1" and len(t.game.history) == 2
    assert t.to_move() == 0 and t.takebacks == 1


def test_undo_at_a_shared_screen_takes_back_the_last_move_only() -> None:
    t = Table.new("columns", {"seed": "1"}, [Seat.person(), Seat.person()], seed=1)
    t.play(0, "Ra1")
    t.play(1, "Rb1")
    assert t.undo(0) == ["Rb1"] and t.to_move() == 1


def test_undo_is_refused_against_a_remote_person_and_when_nothing_is_yours() -> None:
    t = Table.new("columns", {"seed": "1"}, [Seat.remote(), Seat.remote()], seed=1)
    t.play(0, "Ra1")
    with pytest.raises(TableError) as e:
        t.undo(0)
    assert e.value.code == "no_undo"
    c = Table.new("columns", {"seed": "1"}, [Seat.computer("random"), Seat.person()], seed=1)
    c.play_computers()
    with pytest.raises(TableError) as e:
        c.undo(1)
    assert e.value.code == "nothing_to_undo" and len(c.game.history) == 1


def test_undo_never_reveals_the_next_card_in_36to1() -> None:
    """S36: the move turns up a card from the pile; after undo the same move turns up a new
    draw (the unseen cards were shuffled again with fresh, recorded randomness)."""
    t = Table.new("36to1", {"seed": "3"}, [Seat.person()], seed=1)
    t.play(0, "G1:a1")
    first = t.game.view(0)["faceup"]
    before_view = None
    seen = []
    for _ in range(4):
        t.undo(0)
        before_view = before_view or t.game.view(0)
        assert t.game.view(0) == before_view  # nothing a player sees has changed
        t.play(0, "G1:a1")
        seen.append(t.game.view(0)["faceup"])
    assert any(s != first for s in seen)
    assert sum("!reshuffle" in step for step in t.log) == 4
    record = t.record()
    assert record.takebacks == 4 and record.log is not None
    again = json.loads(json.dumps(record.to_json()))
    from rulebox.match.records import Record

    assert Record.from_json(again).replay().position_json() == t.game.position_json()


def test_undo_reshuffles_columba_against_the_computer_and_the_table_round_trips() -> None:
    t = person_vs("columba", "random:seed=2", seed=5)
    for _ in range(3):
        while t.to_move() == 0:
            t.play(0, sorted(str(m) for m in t.game.legal_moves())[0])
        t.play_computers()
    deck_before = t.game.position_json()["deck"]
    t.undo(0)
    t.play(0, sorted(str(m) for m in t.game.legal_moves())[0])
    while t.to_move() == 0:
        t.play(0, sorted(str(m) for m in t.game.legal_moves())[0])
    assert any(s.startswith("!reshuffle") for s in t.log)
    assert t.game.position_json()["deck"] != deck_before[: len(t.game.position_json()["deck"])]
    back = Table.from_json(json.loads(json.dumps(t.to_json())), t.seats)
    assert back.game.position_json() == t.game.position_json() and back.version == t.version
    assert back.movers == t.movers


# --- resign and draws ---------------------------------------------------------------------------


def test_resign_gives_the_game_to_the_other_side() -> None:
    t = Table.new("columba", {"seed": "1", "players": "4"},
                  [Seat.person(), Seat.computer("random"), Seat.person(),
                   Seat.computer("random")], seed=1)
    ending = t.resign(2)
    assert ending.how == "resigned" and ending.winners == (1, 3)
    assert ending.result_line() == "over winner=1,3"


def test_a_draw_offer_between_people_waits_for_the_answer() -> None:
    t = Table.new("columns", {"seed": "1"}, [Seat.person(), Seat.person()], seed=1)
    assert t.offer_draw(0) == "offered" and t.draw_offer == 0
    assert t.answer_draw(1, False) == "declined" and t.draw_offer is None
    t.offer_draw(0)
    t.play(0, "Ra1")
    assert t.draw_offer is None  # a move lets the offer lapse
    t.offer_draw(1)
    assert t.offer_draw(0) == "agreed"  # both want it
    assert t.ending is not None and t.ending.how == "agreed" and t.ending.winners == ()


def test_the_computer_answers_a_draw_by_its_one_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    t = person_vs("columns", "random")
    rng_answer = t.computer_accepts_draw(1)
    assert rng_answer == t.computer_accepts_draw(1)  # the same position, the same answer
    monkeypatch.setattr(table_module, "DRAW_THRESHOLD", -2.0)  # never losing enough
    assert t.offer_draw(0) == "declined" and t.ending is None
    assert any(e.kind == "draw_declined" for e in t.events)
    monkeypatch.setattr(table_module, "DRAW_THRESHOLD", 2.0)  # always losing enough
    assert t.offer_draw(0) == "agreed" and t.ending is not None


# --- rematch ------------------------------------------------------------------------------------


def test_a_rematch_is_a_fresh_shuffle_unless_the_same_deal_is_asked() -> None:
    t = Table.new("36to1", {"seed": "3"}, [Seat.person()], seed=9)
    t.resign(0)
    fresh = t.rematch()
    assert fresh.game.options()["seed"] != "3"
    assert fresh.seats == t.seats and fresh.game.history == []
    same = t.rematch(same_deal=True)
    assert same.game.options() == t.game.options()
    assert same.game.position_json() == new_game("36to1", {"seed": "3"}).position_json()


def test_a_rematch_deals_a_given_deck_and_officia_roles_anew() -> None:
    start = new_game("36to1", {"seed": "3"}).position_json()
    deck = ",".join(sorted(start["faceup"] + start["pile"]))
    t = Table.new("36to1", {"seed": "3", "deck": deck}, [Seat.person()], seed=9)
    t.resign(0)
    assert "deck" not in t.rematch_options()  # shuffled anew, not the same order again
    assert t.rematch(same_deal=True).game.options()["deck"] == t.game.options()["deck"]
    c = Table.new("columba", {"seed": "1", "officia": "1", "roles": "architect,farmerswife"},
                  [Seat.person(), Seat.person()], seed=3)
    c.resign(0)
    roles = {c.rematch().game.options().get("roles") for _ in range(8)}
    assert len(roles) > 1  # dealt anew from fresh seeds, not kept
    assert c.rematch(same_deal=True).game.options()["roles"] == "architect,farmerswife"


def test_a_countred_rematch_follows_cr15() -> None:
    t = Table.new("countred", {"seed": "4", "first": "0", "even": "0"},
                  [Seat.person(), Seat.person()], seed=1)
    t.resign(0)  # player 1 wins: the loser (0) starts the next game
    nxt = t.rematch().game.options()
    assert nxt["first"] == "0" and nxt["even"] == "1"
    d = Table.new("countred", {"seed": "4", "first": "0", "even": "0"},
                  [Seat.person(), Seat.person()], seed=1)
    d.offer_draw(0)
    d.answer_draw(1, True)
    nxt = d.rematch().game.options()
    assert nxt["first"] == "1" and nxt["even"] == "1"  # after a draw: both alternate


def test_a_rematch_needs_a_finished_game() -> None:
    t = Table.new("columns", {"seed": "1"}, [Seat.person(), Seat.person()], seed=1)
    with pytest.raises(TableError) as e:
        t.rematch()
    assert e.value.code == "not_over"


# --- announcements -------------------------------------------------------------------------------

CR_BONUS = (
    "C3-B4 D2-B1 D4-B2 C1-D1 A1-A3 B1-C4 B4-C3 D1-B1 B2-C3 B4-D1 A4-D3 D1-A2 C2-D1 A2-D4 "
    "C3-B4 A2-D2 "
).split()
CR_SKIP = (
    "A4-C4 A2-A1 C4-A4 C2-C1 B2-D4 D2-C2 A1-B4 C4-A4 D3-A3 D4-C2 A1-B3 C2-D4 A3-D3 D4-A2 "
    "C1-D2 D4-D3 A3-C1 B3-B1 A2-C3 B1-D2 A4-B1 B3-A3 B1-A4 D2-D1 C3-A2 B1-C2 C1-C3 C2-A2 "
    "A4-A3 B4-C1 A3-C4 B4-C4 C3-C2 A3-C3 C2-B3 C1-B2 "
).split()


def _hotseat(game_id: str, n: int = 2, **options: str) -> Table:
    return Table.new(game_id, options, [Seat.person() for _ in range(n)], seed=1)


def test_countred_bonus_moves_and_skips_are_events() -> None:
    t = _hotseat("countred", even="0", first="0", seed="1", stack_lift="free")
    for m in CR_BONUS:
        t.play(None, m)
    bonus = [e for e in t.events if e.kind == "bonus_move"]
    assert bonus and bonus[0].text == ("three in a column: D1, D2, D3 are locked; second "
                                       "earns a bonus move [CR-10]")
    assert bonus[0].is_announcement and t.announcements() == bonus
    t = _hotseat("countred", even="1", first="1", seed="1", stack_lift="free")
    for m in CR_SKIP:
        t.play(None, m)
    skips = [e for e in t.events if e.kind == "skipped"]
    assert skips and "second has no legal move and is skipped" in skips[0].text


def _random_until(t: Table, kind: str, seed: int) -> list[Any]:
    rng = random.Random(seed)
    while not t.over():
        t.play(None, rng.choice(t.game.legal_moves()))
        found = [e for e in t.events if e.kind == kind]
        if found:
            return found
    return []


def test_a_discs_token_earned_is_an_event() -> None:
    found = _random_until(_hotseat("discs", seed="0"), "token", 0)
    assert found and found[0].text.startswith(("first ", "second "))
    assert "token [DSC-5]" in found[0].text


def test_a_columba_objective_completed_is_an_event() -> None:
    found = _random_until(_hotseat("columba", seed="1"), "objective", 1)
    assert found and "completes objective" in found[0].text and "[CB-4]" in found[0].text


def test_seat_kinds_from_text() -> None:
    assert Seat.parse("human", "columns").kind == SeatKind.PERSON
    assert Seat.parse("me", "columns", remote=True).kind == SeatKind.REMOTE
    s = Seat.parse("computer:easy", "columns")
    assert s.is_computer and s.agent == AgentSpec.parse("easy:time=0.3")
    with pytest.raises(OptionError):
        Seat.parse("mcts:warp=9", "columns")


def test_a_record_with_takebacks_replays_each_position_as_it_was_dealt() -> None:
    """Stepping through a record (``rulebox replay``) after an undo shows the card that was
    turned up on the final line, not the one the original order would have given."""
    t = Table.new("36to1", {"seed": "3"}, [Seat.person()], seed=1)
    t.play(0, "G1:a1")
    t.undo(0)
    t.play(0, "G1:a1")
    after_one = t.game.view(0)
    t.play(0, sorted(str(m) for m in t.game.legal_moves())[0])
    record = t.record()
    assert record.replay(upto=1).view(0) == after_one
    assert record.replay(upto=2).position_json() == t.game.position_json()
    assert record.replay(upto=0).view(0) == new_game("36to1", {"seed": "3"}).view(0)


def test_the_turn_clock_halves_while_decisions_follow_and_restarts_for_a_bonus_move() -> None:
    """Discs' main action is followed by blocking actions (half of what is left); Count Red's
    move is its turn's only decision (all of it), and a bonus move (CR-10) after it gets a
    clock of its own, while a decision a multi-action turn did not foresee gets what is
    left."""
    from rulebox.ai.budget import TurnClock, more_decisions_follow

    discs = new_game("discs", {"seed": "1"})
    discs.apply("arrange RGBRGBRGB")
    discs.apply("choose silver a1c3")
    assert more_decisions_follow(discs)
    clock = TurnClock(1.0)
    assert 0.4 < clock.share(discs) <= 0.5 and not clock.restarts()
    countred = new_game("countred", {"seed": "1"})
    assert not more_decisions_follow(countred)
    assert not more_decisions_follow(new_game("36to1", {"seed": "1"}))  # a solitaire's move
    clock = TurnClock(1.0)
    assert clock.share(countred) > 0.9 and clock.restarts()
