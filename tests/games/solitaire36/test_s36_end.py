"""36 to 1, S36-6 (the end of the draw pile) and whether the game can be won at all.

The winning deals in ``winning_deals.json`` were found once by ``find_winning_deals.py`` (a
perfect-information search); here they are only replayed.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from rulebox.core.errors import GameOverError
from rulebox.core.game import TERMINAL
from rulebox.games.solitaire36.rules import Solitaire36
from tests.outcomes import ended

DEALS: list[dict[str, Any]] = json.loads(
    Path(__file__).with_name("winning_deals.json").read_text(encoding="utf-8")
)
DEFAULT_DEALS = [d for d in DEALS if not d["options"]]
GREEN_LITERAL_DEALS = [d for d in DEALS if d["options"] == {"green": "1", "end": "literal"}]


def replay(deal: dict[str, Any], **options: str) -> Solitaire36:
    game = Solitaire36.new({**deal["options"], **options, "deck": deal["deck"]})
    for text in deal["moves"]:
        game.apply(text)
    return game


def test_the_stored_deals_are_there() -> None:
    assert len(DEFAULT_DEALS) >= 3 and len(GREEN_LITERAL_DEALS) >= 1


@pytest.mark.parametrize("deal", DEFAULT_DEALS, ids=lambda d: f"seed{d['seed']}")
def test_S36_6_default_play_goes_on_after_the_pile_and_can_be_won(deal: dict[str, Any]) -> None:
    game = Solitaire36.new({"deck": deal["deck"]})
    for i, text in enumerate(deal["moves"]):
        if i == 34:
            # the pile ran out on the 34th move; play goes on with the face-up cards
            assert game.pile_size() == 0 and len(game.faceup()) == 2
            assert game.current_player() == 0
        game.apply(text)
    assert len(deal["moves"]) >= 35  # 35 removals: impossible before the pile runs out
    out = game.outcome()
    assert out is not None and out.winners == (0,) and out.scores == (1,)
    assert game.returns() == [1.0]


@pytest.mark.parametrize("deal", DEFAULT_DEALS, ids=lambda d: f"seed{d['seed']}")
def test_S36_6_literal_end_stops_the_same_line_when_the_last_card_is_drawn(
    deal: dict[str, Any],
) -> None:
    game = Solitaire36.new({"deck": deal["deck"], "end": "literal"})
    for text in deal["moves"][:34]:
        game.apply(text)
    assert game.pile_size() == 0
    assert game.current_player() == TERMINAL
    out = game.outcome()
    assert out is not None and out.winners == () and "last card was drawn" in out.reason
    assert out.scores is not None and out.scores[0] >= 2
    with pytest.raises(GameOverError):
        game.apply(deal["moves"][34])


def test_S36_6_after_the_pile_runs_out_played_cards_are_not_replaced() -> None:
    deal = DEFAULT_DEALS[0]
    game = Solitaire36.new({"deck": deal["deck"]})
    for text in deal["moves"][:34]:
        game.apply(text)
    assert len(game.faceup()) == 2
    game.apply(deal["moves"][34])
    assert len(game.faceup()) == 1 and game.pile_size() == 0


def test_S36_6_literal_end_can_never_be_won_with_the_standard_deck() -> None:
    """The counting argument, checked move by move over many deals and three ways of playing:
    under end=literal every move (removal or discard) draws exactly one card, and the game is
    over exactly when the pile is empty, so it lasts at most 34 moves; each move removes at most
    one cube, so at least 36 - 34 = 2 cubes are left and the game is lost."""
    chooser = random.Random(6)

    def greedy(game: Solitaire36) -> Any:
        moves = game.legal_moves()
        removals = [m for m in moves if not m.is_discard]
        return chooser.choice(removals or moves)

    def random_move(game: Solitaire36) -> Any:
        return chooser.choice(game.legal_moves())

    for policy in (greedy, random_move):
        for seed in range(300):
            game = Solitaire36.new({"seed": str(seed), "end": "literal",
                                    "grid": "random" if seed % 2 else "standard"})
            assert game.pile_size() == 34
            while not game.is_terminal():
                before = game.pile_size()
                assert before > 0
                game.apply_unchecked(policy(game))
                assert game.pile_size() == before - 1
            assert game.pile_size() == 0
            assert len(game.history) <= 34
            assert game.cubes_left() >= 2
            assert ended(game).winners == ()
    # and the deals that can be won by default, played perfectly, still stop at 2 or more cubes
    for deal in DEFAULT_DEALS:
        lost = Solitaire36.new({"deck": deal["deck"], "end": "literal"})
        for text in deal["moves"]:
            if lost.is_terminal():
                break
            lost.apply(text)
        assert ended(lost).winners == ()


@pytest.mark.parametrize("deal", GREEN_LITERAL_DEALS, ids=lambda d: f"seed{d['seed']}")
def test_S36_6_literal_end_can_be_won_with_a_green_set(deal: dict[str, Any]) -> None:
    """The claim of S36-6 is about the standard deck: with green=1 the pile holds 40 cards."""
    game = replay(deal)
    assert ended(game).winners == (0,)
    assert len(deal["moves"]) <= 40
