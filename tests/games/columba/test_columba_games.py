"""Columba: seeded games of 2, 3 and 4 players run to the end, and the move generator agrees
with the rule checker on every action near the territory."""

from __future__ import annotations

import random

import pytest

from rulebox.core.errors import IllegalMoveError
from rulebox.games.columba.cards import OFFSETS, STRIDE
from rulebox.games.columba.moves import ColumbaMove
from rulebox.games.columba.rules import Columba


def candidates(g: Columba) -> list[ColumbaMove]:
    """Every action on or near the territory, legal or not."""
    near = {k + dx * STRIDE + dy for k in g.squares() for dx in range(-3, 3) for dy in range(-3, 3)}
    out = [ColumbaMove(v) for v in ("goal", "nogoal", "end")]
    pays = [(a,) for a in range(4)] + [(a, b) for a in range(4) for b in range(a, 4)]
    out += [ColumbaMove(v, pay=pay) for v in ("buy", "raise") for pay in pays]
    for k in near:
        out += [ColumbaMove("place", k, r) for r in range(4)]
        out += [ColumbaMove("tile", k, c) for c in range(4)]
        out += [ColumbaMove("cote", k, 0), ColumbaMove("cote", k, 1), ColumbaMove("falcon", k)]
    if g.role(0) is not None:  # the Officia powers (CB-15)
        squares = sorted(g.squares())
        for k in squares:
            out += [ColumbaMove("marshal", k, c) for c in range(4)]
            out += [ColumbaMove("peasant", k), ColumbaMove("architect", k, 0)]
            out += [ColumbaMove("architect", k, 1, d) for d in squares[::3]]
        for c in range(4):
            out.append(ColumbaMove("farmerswife", 0, c))
            out += [ColumbaMove("thief", 0, c, v) for v in range(g.num_players)]
    return out


def eager(g: Columba, rng: random.Random, moves: list[ColumbaMove]) -> ColumbaMove:
    """A random player that likes capturing, objectives, tiles and falcons (to reach every rule)."""
    sq = g.squares()
    caps = [m for m in moves if m.verb == "place" and any(m.sq + o in sq for o in OFFSETS)]
    keen = [m for m in moves if m.verb in ("goal", "buy", "raise", "falcon", "architect",
                                           "farmerswife", "marshal", "peasant", "thief")]
    tiles = [m for m in moves if m.verb == "tile"]
    if caps and rng.random() < 0.9:
        return rng.choice(caps)
    if keen and rng.random() < 0.7:
        return rng.choice(keen)
    if tiles and rng.random() < 0.6:
        return rng.choice(tiles)
    return rng.choice(moves)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", [1, 2])
def test_seeded_games_run_to_the_end(players: int, seed: int) -> None:
    g = Columba.new({"players": str(players), "seed": str(seed)})
    rng = random.Random(seed)
    verbs: set[str] = set()
    plies = 0
    while not g.is_terminal():
        moves = g.legal_moves()
        assert moves
        m = eager(g, rng, moves)
        verbs.add(m.verb)
        g.apply(m)
        plies += 1
        if plies % 10 == 0:  # the loader re-checks the tile and falcon counts (CB-12)
            state = g.to_json()
            state["history"] = []
            Columba.from_json(state)
    out = g.outcome()
    assert out is not None and out.scores is not None and len(out.scores) == players
    assert g.cards_left() == 0
    assert {"place", "end", "cote"} <= verbs
    assert verbs & {"goal", "nogoal"}


def test_same_seed_same_game() -> None:
    def run() -> list[str]:
        g = Columba.new({"players": "3", "seed": "42"})
        rng = random.Random(0)
        while not g.is_terminal():
            moves = g.legal_moves()
            g.apply_unchecked(moves[rng.randrange(len(moves))])
        return [str(m) for m in g.history]

    assert run() == run()


VARIANTS = [{"players": "2"}, {"players": "4"}, {"players": "3", "variant": "kids"},
            {"players": "2", "pond": "1"},
            {"players": "3", "officia": "1", "roles": "marshal,architect,peasant"},
            {"players": "3", "officia": "1", "roles": "farmerswife,thief,falconer"}]


@pytest.mark.parametrize("options", VARIANTS, ids=[" ".join(o.values()) for o in VARIANTS])
def test_generator_agrees_with_the_checker(options: dict[str, str]) -> None:
    g = Columba.new({**options, "seed": "9"})
    rng = random.Random(9)
    plies = 0
    while not g.is_terminal():
        moves = g.legal_moves()
        if plies % 2 == 0:
            legal = set(moves)
            for m in candidates(g):
                try:
                    g.check_move(m)
                    ok = True
                except IllegalMoveError:
                    ok = False
                # another spelling of a listed placement is accepted as that placement
                assert ok == (g.canonical(m) in legal), (plies, str(m))
        g.apply(eager(g, rng, moves))
        plies += 1


def _tile_oracle(g: Columba, k: int, c: int) -> int:
    """Lay the tile on a copy and look at the whole territory again (CB-9, CB-7)."""
    h = g.clone()
    p = h.current_player()
    if k not in h._sq:  # on the bare table: no dovecote may stand on it (CB-6, issue 36)
        h._bare = h._bare | {k}
    h._sq[k] = (1, c, h.turn_number, p, None)  # a TILE
    h._turn_tiles = [*h._turn_tiles, k]
    h._dirty()
    label, _regs, _owner = h._regions()
    if len({label[q] for q in h.cotes()}) < len(h.cotes()):
        return 1
    return 0 if h._pending_ok(p, h._regions(), h._turn_tiles) else 2


@pytest.mark.parametrize("seed", [3, 4, 5])
def test_CB_7_CB_9_fast_tile_rule_matches_a_full_recount(seed: int) -> None:
    g = Columba.new({"players": "2", "seed": str(seed)})
    rng = random.Random(seed)
    checked = 0
    while not g.is_terminal():
        moves = g.legal_moves()
        tiles = [m for m in moves if m.verb == "tile"]
        if g.phase == "actions" and any(g.reserve(g.current_player())):
            for m in candidates(g):
                if m.verb != "tile" or not g.reserve(g.current_player())[m.arg]:
                    continue
                s = g.squares().get(m.sq)
                if s is not None and s[0] != 0:
                    continue
                if s is None and not any(m.sq + d in g.squares() for d in (-1, 1, -1024, 1024)):
                    continue
                if s is not None and (s[4] == "P" or m.sq in g.cotes()):
                    continue
                owner = g.estate_owner(m.sq) if s is not None else -1
                if owner not in (-1, g.current_player()):
                    continue
                assert g._tile_effect(m.sq, m.arg, g.current_player()) == _tile_oracle(
                    g, m.sq, m.arg), str(m)
                checked += 1
        if tiles and rng.random() < 0.8:
            g.apply(rng.choice(tiles))
        else:
            g.apply(eager(g, rng, moves))
    assert checked > 100
