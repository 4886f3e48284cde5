"""DSC-7's 100-turn draw is our addition; option quiet_limit changes it, and 0 plays the
rulebook's text (no such limit)."""

from __future__ import annotations

import pytest

from rulebox.core import StateError
from rulebox.games.discs.rules import Discs

SETUP = ["arrange RGBGBRBRG", "choose silver a1c3"]


def test_DSC_7_quiet_limit_option_draws_after_that_many_quiet_turns() -> None:
    game = Discs.new({"seed": "1", "quiet_limit": "3"})
    for move in SETUP:
        game.apply(move)
    assert game.options()["quiet_limit"] == "3"
    state = game.to_json()
    state["history"] = []
    state["position"]["quiet_turns"] = 2
    drawn = Discs.from_json(state)
    assert not drawn.is_terminal()
    legal = [str(m) for m in drawn.legal_moves()]
    drawn.apply(legal[0])
    if not drawn.is_terminal():
        drawn.apply("end")
    out = drawn.outcome()
    assert out is not None and out.winners == () and "3 turns in a row" in out.reason


def test_DSC_7_quiet_limit_0_plays_without_the_100_turn_draw() -> None:
    game = Discs.new({"seed": "1", "quiet_limit": "0"})
    for move in SETUP:
        game.apply(move)
    state = game.to_json()
    state["history"] = []
    state["position"]["quiet_turns"] = 150
    assert not Discs.from_json(state).is_terminal()
    default = Discs.new({"seed": "1"})
    for move in SETUP:
        default.apply(move)
    state = default.to_json()
    state["history"] = []
    state["position"]["quiet_turns"] = 150
    with pytest.raises(StateError, match="DSC-7"):
        Discs.from_json(state)
