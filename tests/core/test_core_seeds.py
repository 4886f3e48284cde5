"""128-bit seeds (issue 19): ``seed=`` takes every seed below 2**128, a game drawn without one
gets 128 bits of the operating system's randomness, every bit of a seed changes the deal, and a
128-bit seed survives every place a game is stored: the JSON state, undo after a reshuffle, the
engine's ``new``/``state``/``load``, and a record."""

from __future__ import annotations

import json
import random

import pytest

from rulebox.core.errors import OptionError
from rulebox.core.load import load_any
from rulebox.core.options import SEED
from rulebox.core.rng import SEED_LIMIT, fresh_seed, rng
from rulebox.engine import Engine
from rulebox.games.columba.rules import Columba
from rulebox.games.solitaire36.rules import Solitaire36
from rulebox.match.records import Record

BIG = 2**127 + 5


def test_seed_option_takes_every_128_bit_seed_and_no_more() -> None:
    assert SEED_LIMIT == 2**128
    assert SEED.parse(str(2**128 - 1)) == 2**128 - 1
    assert Solitaire36.new({"seed": str(2**128 - 1)}).options()["seed"] == str(2**128 - 1)
    with pytest.raises(OptionError, match="seed"):
        Solitaire36.new({"seed": str(2**128)})
    with pytest.raises(OptionError, match="seed"):
        Solitaire36.new({"seed": "-1"})


def test_a_game_without_a_seed_draws_128_bits() -> None:
    seeds = [fresh_seed() for _ in range(40)] + [
        int(Solitaire36.new().options()["seed"]) for _ in range(40)
    ]
    assert all(0 <= s < 2**128 for s in seeds)
    # 80 draws of 128 bits: the chance that none reaches 2**120 is 2**-640
    assert max(s.bit_length() for s in seeds) > 120
    assert len(set(seeds)) == len(seeds)


@pytest.mark.parametrize("salt", [(), ("deck",), ("columba-deck",)])
def test_every_bit_of_a_seed_counts(salt: tuple[str, ...]) -> None:
    low = [rng(5, *salt).random() for _ in range(4)]
    for high_bit in (64, 100, 127):
        assert [rng(5 + 2**high_bit, *salt).random() for _ in range(4)] != low


def test_seeds_differing_only_in_high_bits_deal_differently() -> None:
    small = Solitaire36.new({"seed": "5"})
    big = Solitaire36.new({"seed": str(BIG)})
    assert small.position_json()["pile"] != big.position_json()["pile"]
    assert Columba.new({"seed": "5"}).position_json()["deck"] != \
        Columba.new({"seed": str(BIG)}).position_json()["deck"]
    # and a big seed repeats its deal exactly
    assert Solitaire36.new({"seed": str(BIG)}).to_json() == big.to_json()


def test_old_seeds_deal_as_before() -> None:
    # the start of deal seed=1, as the 36 to 1 module documents it
    diagram = Solitaire36.new({"seed": "1"}).diagram()
    assert diagram.startswith("WWWWWW/KKKKKK/BBBBBB/GGGGGG/YYYYYY/RRRRRR G5,B4 W2,G3,R6,")
    assert diagram.split()[2].endswith(",B2,Y6")


def _played(seed: int, plies: int) -> Solitaire36:
    game = Solitaire36.new({"seed": str(seed)})
    r = random.Random(3)
    for _ in range(plies):
        game.apply(r.choice(game.legal_moves()))
    return game


def test_a_128_bit_seed_round_trips_through_the_state_and_undo_after_a_reshuffle() -> None:
    game = _played(BIG, 6)
    again = Solitaire36.from_json(json.loads(json.dumps(game.to_json())))
    assert again.to_json() == game.to_json() and again.options()["seed"] == str(BIG)
    # reshuffle_unseen re-reads the options (new(self.options())): the big seed must pass
    game.reshuffle_unseen(random.Random(2**127 + 11))
    state = json.loads(json.dumps(game.to_json()))
    again = Solitaire36.from_json(state)
    assert again.position_json() == game.position_json()
    for _ in range(6):
        again.undo()
        game.undo()
        assert again.position_json() == game.position_json()
    assert again.options()["seed"] == str(BIG)


def test_the_engine_takes_a_128_bit_seed() -> None:
    engine = Engine()
    reply = engine.handle(f"new 36to1 seed={BIG}")
    assert reply is not None and reply.startswith("=") and f"seed={BIG}" in reply
    first = engine.game
    assert first is not None and first.options()["seed"] == str(BIG)
    move = str(first.legal_moves()[0])
    assert (engine.handle(f"play {move}") or "").startswith("=")
    state = (engine.handle("state") or "")[1:].strip()
    assert json.loads(state)["options"]["seed"] == str(BIG)
    fresh = Engine()
    assert (fresh.handle(f"load {state}") or "").startswith("=")
    assert fresh.game is not None and fresh.game.to_json() == json.loads(state)
    assert load_any(state).to_json() == json.loads(state)


def test_a_record_keeps_a_128_bit_seed_and_a_128_bit_reshuffle() -> None:
    game = _played(BIG, 4)
    rec = Record.from_json(json.loads(json.dumps(Record.of(game, ["human"]).to_json())))
    assert rec.options["seed"] == str(BIG)
    assert rec.replay().to_json() == game.to_json()
    moves = [str(m) for m in game.history]
    log = [*moves[:3], "!undo", f"!reshuffle {2**127 + 11}", moves[2], moves[3]]
    logged = Record(game="36to1", options=game.options(), players=["human"], moves=moves,
                    log=log, takebacks=1)
    replayed = Record.from_json(json.loads(json.dumps(logged.to_json()))).replay()
    assert [str(m) for m in replayed.history] == moves
    assert replayed.options()["seed"] == str(BIG)
