"""One test over every registered game (OpenSpiel's games_sim_test): seeded random games to the
end, checking the protocol's invariants at every step."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

import rulebox.games
from rulebox.core import TERMINAL, Game, game_entry, game_ids
from rulebox.core.errors import RuleboxError

GAMES = game_ids()

# (game, options) pairs: each game with its default options, plus multi-player set-ups.
CASES: list[tuple[str, dict[str, str]]] = [(g, {}) for g in GAMES] + [
    ("columba", {"players": "3"}),
    ("columba", {"players": "4"}),
    ("columba", {"variant": "kids", "players": "4"}),
    ("columba", {"pond": "1", "officia": "1"}),
    ("columba", {"pond": "1", "officia": "1", "players": "4"}),
    ("36to1", {"green": "2", "grid": "random"}),
    ("36to1", {"end": "literal"}),
    ("countred", {"stack_lift": "free"}),
]

SEEDS = (1, 2, 3)


def test_no_game_package_is_broken() -> None:
    assert rulebox.games.BROKEN == {}


FIVE = {"columns": "Columns", "36to1": "36 to 1", "countred": "Count Red", "columba": "Columba",
        "discs": "Discs"}
"""The five games of the project, by id, with their titles."""


def test_the_five_games_are_registered() -> None:
    assert set(FIVE) <= set(GAMES), f"not registered: {sorted(set(FIVE) - set(GAMES))}"
    for game_id, title in FIVE.items():
        entry = game_entry(game_id)
        assert entry.cls.id == game_id and entry.cls.title == title
        assert entry.package.startswith("rulebox.games.")
        assert entry.cls.new({"seed": "1"}).legal_moves()  # each sets up and can be played


def _check_step(game: Game, position: dict[str, Any], *, replay: bool) -> None:
    """The protocol's invariants in this position (``position`` is its ``position_json``).

    The state round trip goes through the drawn position (no history) at every step, which
    costs the same at every ply; with ``replay`` it also goes through the full state, whose
    history is replayed move by move (done at the start and the end only, so that the test
    stays linear in the length of the game)."""
    cls = type(game)
    terminal = game.is_terminal()
    moves = game.legal_moves()
    assert (game.current_player() == TERMINAL) == terminal
    if terminal:
        assert moves == [], "a finished game has no legal moves"
        assert game.outcome() is not None
        returns = game.returns()
        assert len(returns) == game.num_players
        lo, hi = cls.return_bounds
        assert all(lo <= r <= hi for r in returns), returns
    else:
        assert moves, "a game that goes on has legal moves"
        assert 0 <= game.current_player() < game.num_players
        assert game.outcome() is None
        texts = [str(m) for m in moves]
        assert len(set(texts)) == len(texts), "every legal move has its own notation"
    # state round trip: the position as a drawn start, and (with replay) the whole state
    drawn = cls.from_json(
        {"game": cls.id, "options": game.options(), "history": [],
         "position": json.loads(json.dumps(position))}
    )
    loaded = drawn.position_json()
    if loaded != position:  # renumbered on loading (Columns' piece numbers); then it stays
        again = cls.from_json(
            {"game": cls.id, "options": game.options(), "history": [], "position": loaded}
        )
        assert again.position_json() == loaded
    assert drawn.current_player() == game.current_player()
    assert sorted(map(str, drawn.legal_moves())) == sorted(map(str, moves))
    # the text diagram round-trips exactly (STYLE.md 15)
    text = game.diagram()
    assert cls.from_diagram(text, game.options()).diagram() == text
    if replay:
        state = game.to_json()
        again = cls.from_json(json.loads(json.dumps(state)))
        assert again.to_json() == state
        assert sorted(map(str, again.legal_moves())) == sorted(map(str, moves))
    # views are JSON and name no deck order
    seats = [None, *range(game.num_players)]
    for p in seats:
        view = game.view(p)
        json.dumps(view)
        if cls.has_hidden_information:
            assert "seed" not in view.get("options", {})
            assert "deck" not in view.get("options", {})
    # reshuffling the unseen cards changes no view and keeps the state whole
    shuffled = game.clone()
    shuffled.reshuffle_unseen(random.Random(len(game.history)))
    assert [shuffled.view(p) for p in seats] == [game.view(p) for p in seats]
    assert sorted(map(str, shuffled.legal_moves())) == sorted(map(str, moves))
    if replay:
        state = shuffled.to_json()
        assert cls.from_json(json.loads(json.dumps(state))).to_json() == state


@pytest.mark.parametrize(("game_id", "options"), CASES, ids=[f"{g}{o}" for g, o in CASES])
@pytest.mark.parametrize("seed", SEEDS)
def test_random_games_keep_the_protocol(game_id: str, options: dict[str, str], seed: int) -> None:
    entry = game_entry(game_id)
    game = entry.cls.new(dict(options, seed=str(seed)))
    rng = random.Random(seed)
    plies = 0
    check_every = 1 if game_id in ("columns", "countred", "36to1") else 7
    position = game.position_json()
    while True:
        if plies % check_every == 0 or game.is_terminal():
            _check_step(game, position, replay=plies == 0 or game.is_terminal())
        if game.is_terminal():
            break
        moves = game.legal_moves()
        move = moves[rng.randrange(len(moves))]
        clone = game.clone()
        # text round trip: the canonical text parses back to the same move
        assert str(game.parse(str(move))) == str(move)
        game.apply(move)
        after = game.position_json()
        assert clone.position_json() == position, "a clone is independent of the original"
        assert clone.history == game.history[:-1]
        # undo restores exactly, and replaying gives the same position
        assert str(game.undo()) == str(move)
        assert game.position_json() == position
        assert len(game.history) == plies
        game.apply(move)
        position = game.position_json()
        assert position == after
        plies += 1
        assert plies <= entry.cls.max_moves, f"{game_id} went past max_moves={entry.cls.max_moves}"
    outcome = game.outcome()
    assert outcome is not None
    # undo all the way back to the start
    while game.history:
        game.undo()
    assert game.to_json() == entry.cls.new(dict(options, seed=str(seed))).to_json()
    # render draws the final and the start positions as text
    assert entry.render(game, None).plain.strip()


@pytest.mark.parametrize("game_id", GAMES)
def test_garbage_moves_are_refused_and_change_nothing(game_id: str) -> None:
    game = game_entry(game_id).cls.new({"seed": "5"})
    before = game.to_json()
    for junk in ["", " ", "zzz", "\x00\xff", "a" * 10_000, "1,2,3", "place", "Ra9", "-", "é"]:
        with pytest.raises(RuleboxError):
            game.apply(junk)
        assert game.to_json() == before


@pytest.mark.parametrize("game_id", GAMES)
def test_corrupt_states_are_refused(game_id: str) -> None:
    cls = game_entry(game_id).cls
    good = cls.new({"seed": "5"}).to_json()
    bad: Any
    for bad in [None, [], {"game": game_id}, dict(good, position=None),
                dict(good, position={"nonsense": 1}), dict(good, history=[1, 2]),
                dict(good, game="other"), dict(good, options={"seed": "x"})]:
        with pytest.raises(RuleboxError):
            cls.from_json(bad)


RULE_IDS = {
    "columns": [f"COL-{i}" for i in range(1, 11)],
    "36to1": [f"S36-{i}" for i in range(1, 11)],
    "countred": [f"CR-{i}" for i in range(1, 16)],
    "columba": [f"CB-{i}" for i in range(1, 17)],
    "discs": [f"DSC-{i}" for i in range(1, 8)],
}


@pytest.mark.parametrize("game_id", GAMES)
def test_rules_text_names_every_rule(game_id: str) -> None:
    text = game_entry(game_id).rules_text()
    missing = [r for r in RULE_IDS.get(game_id, []) if not re.search(rf"\b{r}\b", text)]
    assert not missing, f"rulebox rules {game_id} does not state {missing}"
