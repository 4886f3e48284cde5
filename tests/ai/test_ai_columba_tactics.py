"""Columba tactics on short decks (``deck=`` fixes the cards; CB-16): on the last turn the agent
places the dovecote that wins (CB-6, CB-11), and on the turn before it takes the region that
would let the opponent win on the last turn. The positions were found by random play and are
checked here by brute force: ending the turn loses, and few of the legal moves avoid that."""

from __future__ import annotations

import pytest

from rulebox.ai import make_agent
from rulebox.core import new_game
from rulebox.core.errors import IllegalMoveError
from rulebox.core.game import Game

WIN_IN_ONE = [
    ("C20,C12,C09,C05,C06", "place -1,-1 r0; cote large 1,0; end; place 2,1 r90; cote small 0,0; "
     "end; place -1,2 r180; end; place -1,-3 r90"),
    ("C12,C13,C05,C07", "place -1,0 r90; end; place -1,0 r90; goal; place 2,0 r0"),
    ("C16,C10,C14,C08,C15", "place -1,-1 r0; cote small 1,1; end; place -2,1 r180; "
     "cote small 0,-1; end; place -3,0 r90; cote large -1,1; end; place -5,1 r180"),
]
STOP_A_LOSS = [
    ("C05,C13,C21,C02,C03", "place 2,0 r0; cote small 0,0; end; place 2,-2 r180; end; "
     "place -2,-1 r180"),
    ("C09,C22,C17,C12,C05", "place -1,2 r0; end; place 1,1 r270; cote small -1,2; end; "
     "place 2,-1 r180"),
    ("C04,C22,C15,C11", "place 1,1 r180; cote small 0,0; end; place 2,-1 r270"),
]
AGENTS = {"best": {"iterations": "300"}, "hard": {"iterations": "300"},
          "mcts": {"iterations": "300"}, "ismcts": {"iterations": "300"}, "greedy": {}}


def _position(deck: str, moves: str) -> Game:
    game = new_game("columba", {"deck": deck, "seed": "1"})
    for text in moves.split(";"):
        game.apply(game.parse(text.strip()))
    return game


def _ended(game: Game) -> Game | None:
    """A copy of ``game`` with the current turn ended (``None`` if ``end`` is refused: a tile
    laid this turn outside the player's estates, CB-7)."""
    copy = game.clone()
    try:
        copy.apply(copy.parse("end"))
    except IllegalMoveError:
        return None
    return copy


def _wins(game: Game | None, player: int) -> bool:
    if game is None:
        return False
    outcome = game.outcome()
    return outcome is not None and player in outcome.winners


def _can_win_now(game: Game) -> bool:
    """Whether the player to move, holding the last card, wins by laying it and then taking at
    most one more action before ``end`` (every such line, by brute force)."""
    me = game.current_player()
    for place in game.legal_moves():
        laid = game.clone()
        laid.apply(place)
        if laid.is_terminal() or laid.current_player() != me:
            if _wins(laid, me):
                return True
            continue
        for action in laid.legal_moves():
            after = laid.clone()
            after.apply(action)
            ended = _ended(after) if after.current_player() == me else after
            if _wins(ended, me):
                return True
    return False


def _play_turn(game: Game, agent: str) -> Game:
    """The rest of the current player's turn, as ``agent`` plays it."""
    me = game.current_player()
    player = make_agent(agent, "columba", {**AGENTS[agent], "seed": "3"})
    while not game.is_terminal() and game.current_player() == me:
        game.apply(player.choose(game))
    return game


@pytest.mark.parametrize("case", range(len(WIN_IN_ONE)))
def test_the_position_needs_the_winning_dovecote(case: int) -> None:
    game = _position(*WIN_IN_ONE[case])
    me = game.current_player()
    assert game.to_json()["position"]["deck"] == []  # the last turn
    assert not _wins(_ended(game), me)
    moves = game.legal_moves()
    winning = [m for m in moves if str(m) != "end" and _wins(_ended(_after(game, m)), me)]
    assert 0 < len(winning) <= len(moves) // 4


def _after(game: Game, move: object) -> Game:
    copy = game.clone()
    copy.apply(move)
    return copy


@pytest.mark.parametrize("agent", sorted(AGENTS))
@pytest.mark.parametrize("case", range(len(WIN_IN_ONE)))
def test_agent_takes_the_win_on_the_last_turn(agent: str, case: int) -> None:
    game = _position(*WIN_IN_ONE[case])
    me = game.current_player()
    assert _wins(_play_turn(game, agent), me)


@pytest.mark.parametrize("case", range(len(STOP_A_LOSS)))
def test_the_position_needs_the_blocking_dovecote(case: int) -> None:
    game = _position(*STOP_A_LOSS[case])
    assert len(game.to_json()["position"]["deck"]) == 1  # the opponent has the last turn
    ended = _ended(game)
    assert ended is not None and _can_win_now(ended)
    moves = [m for m in game.legal_moves() if str(m) != "end"]
    saving = []
    for move in moves:
        ended = _ended(_after(game, move))
        if ended is not None and not _can_win_now(ended):
            saving.append(move)
    assert 0 < len(saving) <= (len(moves) + 1) // 3


@pytest.mark.parametrize("agent", sorted(AGENTS))
@pytest.mark.parametrize("case", range(len(STOP_A_LOSS)))
def test_agent_stops_the_opponents_win_on_the_last_turn(agent: str, case: int) -> None:
    game = _play_turn(_position(*STOP_A_LOSS[case]), agent)
    assert not game.is_terminal()
    assert not _can_win_now(game)
