"""Fair deals (docs/FAIRNESS.md): the commitment hides the whole order, the reveal matches
it, and a game replays against it; a changed order, log or reveal is caught."""

from __future__ import annotations

import random

import pytest

from rulebox.match.fairness import (
    Deal,
    FairnessError,
    arranged,
    commitment_of,
    deal_order,
    new_game,
    reshuffle_seed,
    seal,
    server_deal,
    server_seed,
    verify,
)


def _play(game_id: str, options: dict[str, str], plies: int, seed: int) -> tuple[object, Deal]:
    g = new_game(game_id, options)
    deal = seal(g)
    assert deal is not None
    rng = random.Random(seed)
    for _ in range(plies):
        if g.is_terminal():
            break
        g.apply_unchecked(rng.choice(g.legal_moves()))
    return g, deal


@pytest.mark.parametrize(("game_id", "options"), [
    ("36to1", {"seed": "4"}),
    ("36to1", {"seed": str(2**62 + 1), "green": "2", "grid": "random"}),
    ("columba", {"seed": "9", "officia": "1", "pond": "1"}),
    ("columba", {"players": "3", "seed": "5"}),
])
def test_reveal_matches_commitment_and_the_game_replays(game_id: str,
                                                         options: dict[str, str]) -> None:
    g, deal = _play(game_id, options, 40, 1)
    assert commitment_of(deal.reveal) == deal.commitment
    assert len(deal.commitment) == 64
    log = [str(m) for m in g.history]  # type: ignore[attr-defined]
    seat = 0
    again = verify(deal.commitment, deal.reveal, g.public_options(),  # type: ignore[attr-defined]
                   log, g.view(seat), seat)  # type: ignore[attr-defined]
    assert again.position_json() == g.position_json()  # type: ignore[attr-defined]


def test_the_order_is_the_whole_deal() -> None:
    g = new_game("36to1", {"seed": "12"})
    order = deal_order(g)
    assert len(order) == 36 and len(set(order)) == 36
    assert order[:2] == g.view(0)["faceup"]


def test_a_128_bit_seed_draws_with_core_rng() -> None:
    """``rulebox.core.rng.rng`` (every game's draws) takes a 128-bit seed and uses all of it;
    the ``seed=`` option still stops at 63 bits (rulebox.core.options.SEED, not ours)."""
    from rulebox.core.rng import rng

    s = 2**127 + 12345
    a = [rng(s, "deck").random() for _ in range(3)]
    assert a == [rng(s, "deck").random() for _ in range(3)]
    assert rng(s ^ (1 << 126), "deck").random() != rng(s, "deck").random()


def test_a_server_deal_is_uniform_and_not_the_seeds() -> None:
    seen = set()
    for _ in range(20):
        g = server_deal("36to1", {"seed": "5"})
        order = deal_order(g)
        assert sorted(order) == sorted(deal_order(new_game("36to1", {"seed": "5"})))
        seen.add(tuple(order))
    assert len(seen) == 20  # the same seed, twenty different orders
    assert server_deal("columns", {"seed": "5"}).options()["seed"] == "5"


def test_a_changed_reveal_or_log_is_caught() -> None:
    g, deal = _play("36to1", {"seed": "3"}, 10, 2)
    log = [str(m) for m in g.history]  # type: ignore[attr-defined]
    opts = g.public_options()  # type: ignore[attr-defined]
    other = Deal(deal.game, deal.seed, (deal.order[1], deal.order[0], *deal.order[2:]),
                 deal.key, deal.salt)
    with pytest.raises(FairnessError, match="commitment"):
        verify(deal.commitment, other.reveal, opts, log)
    # a server that dealt another order than it committed to: the players saw other cards
    with pytest.raises(FairnessError):
        verify(other.commitment, other.reveal, opts, log, g.view(0), 0)  # type: ignore
    with pytest.raises(FairnessError):
        verify(deal.commitment, deal.reveal, opts, [*log[:-1], "!undo", "!reshuffle 5",
                                                    log[-1]])


def test_reshuffles_follow_the_committed_key() -> None:
    g, deal = _play("36to1", {"seed": "8"}, 6, 3)
    log = [str(m) for m in g.history]  # type: ignore[attr-defined]
    good = reshuffle_seed(deal.key, 0)
    g.undo()  # type: ignore[attr-defined]
    g.reshuffle_unseen(random.Random(good))  # type: ignore[attr-defined]
    steps = [*log, "!undo", f"!reshuffle {good}"]
    again = verify(deal.commitment, deal.reveal, g.public_options(), steps,  # type: ignore
                   g.view(0), 0)  # type: ignore[attr-defined]
    assert again.position_json() == g.position_json()  # type: ignore[attr-defined]


def test_arranged_means_seed_or_deck_given() -> None:
    assert arranged({"seed": "1"}) and arranged({"deck": "x"})
    assert not arranged({"green": "1"})


def test_a_reveal_is_parsed_strictly() -> None:
    deal = seal(new_game("columba", {"seed": "2"}))
    assert deal is not None
    assert Deal.parse(deal.reveal) == deal
    for bad in ("", deal.reveal.replace("salt", "pepper"), deal.reveal + "x\n", "x" * 20000):
        with pytest.raises(FairnessError):
            Deal.parse(bad)
    assert seal(new_game("columns", {})) is None


def test_server_seeds_take_128_bits_of_os_randomness_and_play() -> None:
    # issue 19: a 31-bit seed could be searched; server games now draw 128 bits
    seeds = [server_seed() for _ in range(8)]
    assert all(100 < s.bit_length() <= 128 for s in seeds)  # 2**-27 chance of a false failure each
    assert len(set(seeds)) == 8
    game = new_game("countred", {"seed": str(seeds[0])})
    assert game.options()["seed"] == str(seeds[0])
