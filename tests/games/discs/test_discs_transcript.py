"""A golden game transcript (transcript.json): a whole game, set-up included, replayed through
the checked entry point; the result and the final position must not change unless a commit
means to change the rules."""

from __future__ import annotations

import json
from pathlib import Path

from rulebox.games.discs.rules import Discs

DATA = json.loads((Path(__file__).parent / "transcript.json").read_text())


def test_the_transcript_replays_to_the_same_win() -> None:
    game = Discs.new(DATA["options"])
    for text in DATA["moves"]:
        assert game.outcome() is None
        game.apply(text)
    out = game.outcome()
    assert out is not None
    assert out.result_line() == DATA["result"] and out.reason == DATA["reason"]
    position = game.position_json()
    assert {k: position[k] for k in DATA["final"]} == DATA["final"]
    # DSC-6: the last action is the main action that earned the third colour; no end followed
    assert DATA["moves"][-1] != "end"


def test_the_transcript_undoes_to_the_start() -> None:
    game = Discs.new(DATA["options"])
    for text in DATA["moves"]:
        game.apply(text)
    while game.history:
        game.undo()
    assert game.to_json() == Discs.new(DATA["options"]).to_json()
