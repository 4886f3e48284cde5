"""The table's takebacks between people and the abandonment claim (issue 27)."""

from __future__ import annotations

import pytest

from rulebox.match.table import Seat, Table, TableError


def people(game: str, **options: str) -> Table:
    return Table.new(game, options, [Seat.remote(), Seat.remote()], seed=5)


def first_legal(t: Table) -> str:
    return sorted(str(m) for m in t.game.legal_moves())[0]


def test_a_takeback_takes_back_the_askers_turn_and_the_reply_after_it() -> None:
    t = people("columns")
    t.play(0, first_legal(t))
    t.play(1, first_legal(t))
    assert t.ask_takeback(0) == "asked" and t.takeback_offer == 0
    with pytest.raises(TableError) as e:
        t.answer_takeback(0, True)
    assert e.value.code == "no_request"
    assert t.answer_takeback(1, True) == "taken"
    assert len(t.game.history) == 0 and t.to_move() == 0 and t.takeback_offer is None
    assert t.events[-1].kind == "takeback"
    # the log replays to the same position (a stored table reloads)
    again = Table.from_json(t.to_json(), t.seats)
    assert again.game.position_json() == t.game.position_json()


def test_a_move_lets_the_request_lapse_and_declining_keeps_the_moves() -> None:
    t = people("countred")
    t.play(t.to_move(), first_legal(t))
    mover = 1 - (t.to_move() or 0)
    t.ask_takeback(mover)
    assert t.answer_takeback(1 - mover, False) == "declined"
    assert len(t.game.history) == 1
    t.ask_takeback(mover)
    t.play(t.to_move(), first_legal(t))
    assert t.takeback_offer is None


def test_no_takeback_against_a_computer_or_without_a_move() -> None:
    t = Table.new("columns", {}, [Seat.remote(), Seat.computer("random")], seed=1)
    with pytest.raises(TableError) as e:
        t.ask_takeback(0)
    assert e.value.code == "no_takeback"
    t = people("columns")
    with pytest.raises(TableError) as e:
        t.ask_takeback(0)
    assert e.value.code == "no_takeback"


def test_no_takeback_across_a_hidden_draw_in_columba() -> None:
    t = people("columba", players="2")
    p = t.to_move()
    assert p is not None
    place = next(str(m) for m in t.game.legal_moves() if str(m) != "end")
    t.play(p, place)
    assert not t.hidden_draw_since(1)  # a card laid from the hand: nothing revealed
    t.play(p, "end")  # the turn ends: a card is drawn from the hidden deck
    assert t.hidden_draw_since(2)
    with pytest.raises(TableError) as e:
        t.ask_takeback(p)
    assert e.value.code == "hidden_draw"
    assert t.takeback_offer is None and len(t.game.history) == 2


def test_games_without_hidden_information_never_hide_a_draw() -> None:
    t = people("discs")
    for _i in range(4):
        t.play(t.to_move(), first_legal(t))
    assert not t.hidden_draw_since(4)


def test_a_claimed_abandonment_ends_the_game_as_a_win_or_a_draw() -> None:
    t = people("columns")
    t.play(0, first_legal(t))
    ending = t.claim_abandoned(0, draw=False)
    assert ending.how == "abandoned" and ending.winners == (0,)
    t = people("columns")
    assert t.claim_abandoned(1, draw=True).winners == ()
    with pytest.raises(TableError):
        t.claim_abandoned(0, draw=True)  # over already


def test_a_team_claim_wins_for_the_whole_team() -> None:
    t = Table.new("columba", {"players": "4"}, [Seat.remote()] * 4, seed=3)
    assert t.claim_abandoned(2, draw=False).winners == (0, 2)
