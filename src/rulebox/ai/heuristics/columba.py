"""Columba: an evaluation from the rules' own terms, public information only.

Everything a player sees in ``view`` is public but the order of the deck: the territory, the
dovecotes, every objective and its slots, every reserve, the falcons, the card in hand of the
player to move. The evaluation never reads the deck.

Each side (a player, or a team of two with 4 players, CB-1) is measured by :data:`FEATURES`;
a feature of a player is its side's value minus the mean of the other sides' values, so that
the model is the same for 2, 3 and 4 players. The model is logistic
(:mod:`rulebox.ai.learned`): ``P(win) = sigmoid(bias + w . f)``; :func:`values` gives
``2 P - 1`` (the returns are +1 / -1, CB-11).

- ``score``: points as things stand (CB-6, CB-11, the open objective's penalty included), / 5;
- ``reserve``: domesticated tiles in reserve (future estate squares or falcons, CB-7, CB-8), / 2;
- ``cotes``: dovecotes still to place, a large one counting 2, times the share of the deck left
  (estate potential: worth nothing once the deck is out, CB-11);
- ``frontier``: empty squares and wild same-colour regions next to the side's estates (where a
  card or a tile can extend them), a large estate counting double, times the share of the deck
  left, / 4;
- ``objective``: slots filled on the open objective (progress towards 4 tiles and no penalty,
  CB-4); ``reach``: the open slots whose colour lies on the territory where the side may capture
  it (CB-3);
- ``falcons``: adult falcons and half the chicks (CB-8);
- ``exposed``: the side's estate squares an opponent's falcon could take or cut off (roughly,
  those with fewer than three neighbours in the estate), times the opponents' falcons in hand
  or soon in hand, / 4;
- ``tempo``: for the player to move (and the side), the best region a dovecote may still take
  this turn (the largest unowned region, doubled if a large dovecote is left), / 4;
- ``largest``: the largest estate (the tie-break of CB-11), / 5.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from rulebox.ai.learned import load_weights
from rulebox.core.game import Game
from rulebox.games.columba.cards import CARDS, NEIGHBOURS, OFFSETS, ROTATIONS
from rulebox.games.columba.territory import find_regions

FIELD, TILE, FALCON = 0, 1, 2
DECK_SIZE = 30

FEATURES: tuple[str, ...] = (
    "score", "reserve", "cotes", "frontier", "objective", "reach", "falcons", "exposed",
    "tempo", "largest",
)

DEFAULT_WEIGHTS: dict[str, float] = {
    "score": 0.85, "reserve": 0.35, "cotes": 0.35, "frontier": 0.2, "objective": 0.1,
    "reach": 0.1, "falcons": 0.3, "exposed": -0.15, "tempo": 0.3, "largest": 0.05,
}
"""Hand-set weights on the logistic scale: a point of score lead is worth ``0.85 / 5``, as the
old evaluation's ``tanh(lead / 12)`` (``= 2 sigmoid(lead / 6) - 1``); a tile in reserve about
a point (more than a filled slot: completing an objective empties its 4 slots into the
reserve, and must look like a gain), a dovecote still to place about 2 points early on.
``rulebox train columba`` replaces them with weights fitted by self-play."""


def model() -> Any:
    """The learned (or hand-set) weights of :data:`FEATURES`."""
    return load_weights("columba", FEATURES, DEFAULT_WEIGHTS)


def _exposed(members: list[int]) -> int:
    """The squares of an estate a falcon could take or cut off, roughly: those with fewer than
    three neighbours in the estate (an interior square with three or four is hard to cut)."""
    inside = set(members)
    thin = 0
    for k in members:
        if sum(1 for d in NEIGHBOURS if k + d in inside) < 3:
            thin += 1
    return max(0, thin - 1)


def regions_of(game: Game) -> tuple[dict[int, int], list[list[int]], list[int]]:
    """(region of each pigeon square, squares of each region, owner of each region or -1):
    the game's own cached regions where it offers them (the same flood fill as its scoring,
    done once a position), else a flood fill here."""
    g: Any = game
    cached = getattr(g, "_regions", None)
    if cached is not None:
        found = cached()
        if isinstance(found, tuple) and len(found) == 3:
            return found
    label, regs, _owner = find_regions(g.squares(), {})
    owner = [-1] * len(regs)
    for k, (p, _large) in g.cotes().items():
        rid = label.get(k)
        if rid is not None:
            owner[rid] = p
    return label, regs, owner


def side_measures(game: Game) -> list[list[float]]:
    """:data:`FEATURES` of every player's own side (not yet relative to the others)."""
    g: Any = game
    n = g.num_players
    sq = g.squares()
    cotes = g.cotes()
    label, regs, owner = regions_of(game)
    cote_of: dict[int, int] = {}
    for k in cotes:
        rid = label.get(k)
        if rid is not None:
            cote_of[rid] = k
    sides = g.sides()
    side_of = [0] * n
    for i, side in enumerate(sides):
        for p in side:
            side_of[p] = i
    frac = min(1.0, g.cards_left() / DECK_SIZE)
    scores = g.scores()
    to_move = g.current_player()
    per = [[0.0] * len(FEATURES) for _ in range(n)]
    # estates: frontier, exposure, largest
    for rid, members in enumerate(regs):
        p = owner[rid]
        if p < 0:
            continue
        large = cotes[cote_of[rid]][1]
        mult = 2.0 if large else 1.0
        colour = sq[members[0]][1]
        room: set[int] = set()
        wild: set[int] = set()
        for k in members:
            for d in NEIGHBOURS:
                b = k + d
                t = sq.get(b)
                if t is None:
                    room.add(b)
                elif t[1] == colour and t[0] != FALCON and label.get(b) != rid:
                    wild.add(b)
        row = per[p]
        row[3] += mult * (len(room) + 2 * len(wild)) * frac / 4
        row[7] += mult * _exposed(members)
        row[9] = max(row[9], len(members) / 5)
    # colours the sides may capture: a region free or of the side, with a wild field
    free_colours: list[set[int]] = [set() for _ in sides]
    best_free = 0
    for rid, members in enumerate(regs):
        o = owner[rid]
        if o < 0:
            best_free = max(best_free, len(members))
        colour = sq[members[0]][1]
        if any(sq[k][0] == FIELD and k not in cotes for k in members):
            for i, side in enumerate(sides):
                if o < 0 or o in side:
                    free_colours[i].add(colour)
    for p in range(n):
        row = per[p]
        row[0] = scores[p] / 5
        row[1] = sum(g.reserve(p)) / 2
        small, large = g.cotes_left(p)
        row[2] = (small + 2 * large) * frac
        obj, slots = g.objective(p)
        if obj is not None:
            row[4] = float(sum(slots))
            fields = CARDS[obj].fields
            reach = free_colours[side_of[p]]
            row[5] = float(sum(1 for c, f in zip(fields, slots, strict=True)
                               if not f and c in reach))
        chicks, adults = g.falcons_of(p)
        row[6] = adults + 0.5 * chicks
        if p == to_move and (small or large):
            done = g.turn_flags()[0]
            if not done:
                row[8] = best_free * (2.0 if large else 1.0) / 4
    # exposure counts only against opponents who hold or can soon hold falcons
    out = [[0.0] * len(FEATURES) for _ in sides]
    for i, side in enumerate(sides):
        for p in side:
            for j, v in enumerate(per[p]):
                if j == 9:
                    out[i][j] = max(out[i][j], v)
                else:
                    out[i][j] += v
    for i, side in enumerate(sides):
        threat = 0.0
        for q in range(n):
            if q not in side:
                chicks, adults = g.falcons_of(q)
                threat += adults + 0.5 * chicks + sum(g.reserve(q)) / 4
        out[i][7] = out[i][7] * min(threat, 2.0) / 4
    return [out[side_of[p]] for p in range(n)]


def _relative(measures: list[list[float]], game: Game) -> list[list[float]]:
    g: Any = game
    sides = g.sides()
    n = g.num_players
    firsts = [side[0] for side in sides]
    out = []
    for p in range(n):
        mine = measures[p]
        others = [measures[q] for q in firsts if q not in _side(sides, p)]
        if not others:
            out.append(list(mine))
            continue
        out.append([m - sum(o[j] for o in others) / len(others) for j, m in enumerate(mine)])
    return out


def _side(sides: Sequence[tuple[int, ...]], p: int) -> tuple[int, ...]:
    for side in sides:
        if p in side:
            return side
    return (p,)


def features(game: Game, player: int) -> list[float]:
    """:data:`FEATURES` of ``player``'s side minus the mean of the other sides'."""
    return _relative(side_measures(game), game)[player]


def values(game: Game) -> list[float]:
    """``2 P(win) - 1`` for every player, ``P`` the learned logistic model of the features."""
    w = model()
    rel = _relative(side_measures(game), game)
    return [2.0 * w.probability(f) - 1.0 for f in rel]


def values_v1(game: Game, scale: float = 12.0) -> list[float]:
    """The former evaluation (``best-v1``, and ``mcts:guide=0``): tanh of each side's score lead
    over the best other side."""
    g: Any = game
    scores = g.scores()
    sides = g.sides()
    totals = [sum(scores[p] for p in side) for side in sides]
    out = [0.0] * g.num_players
    for i, side in enumerate(sides):
        others = [t for j, t in enumerate(totals) if j != i]
        lead = totals[i] - (max(others) if others else 0)
        v = math.tanh(lead / scale)
        for p in side:
            out[p] = v
    return out


def playout_move(game: Game, moves: Sequence[Any], rng: random.Random) -> Any:
    """Random, but usually end the turn once the card is down (no long tile shuffles)."""
    if len(moves) > 1 and rng.random() < 0.7:
        for m in moves:
            if str(m) == "end":
                return m
    return moves[rng.randrange(len(moves))]


def _next_to(k: int, c: int, sq: dict[int, tuple[Any, ...]], label: dict[int, int],
             owner: list[int], mult: list[float], side: tuple[int, ...]) -> float:
    """What a field of colour ``c`` on ``k`` adds to the estates next to it: the mover's side
    gains (1, or 2 with a large dovecote), an opponent loses half that (squares the card itself
    covers are counted too: a guess, not a rule check)."""
    total = 0.0
    for d in NEIGHBOURS:
        b = k + d
        t = sq.get(b)
        if t is None or t[1] != c or t[0] == FALCON:
            continue
        rid = label.get(b)
        if rid is None or owner[rid] < 0:
            continue
        total += mult[rid] if owner[rid] in side else -0.5 * mult[rid]
    return total


def prior(game: Game, moves: Sequence[Any]) -> list[float]:
    """A quick guess at how good each of ``moves`` is for the player to move, without playing
    them (for the order in which a search tries moves, and which it tries at all). In points,
    roughly:

    - ``place``: 3 for each field it captures (a slot of the objective filled), 6 more when it
      fills the objective (CB-4); for each field of the card next to a pigeon of its colour, the
      mover's estate gains it (1, or 2 with a large dovecote), an opponent's loses half that;
    - ``cote``: the region's pigeons (twice with the large dovecote), less 3 for a large
      dovecote on a region of fewer than 4 (CB-6);
    - ``tile``: what the mover's estate gains (1 or 2), plus the free regions it joins to it;
    - ``falcon``: 2 and the estate's value; ``goal`` 1 while 6 cards or more are left;
      ``buy`` / ``raise`` 0.2; ``end`` 0.3."""
    g: Any = game
    p = g.current_player()
    sq = g.squares()
    cotes = g.cotes()
    label, regs, owner = regions_of(game)
    side = next((s for s in g.sides() if p in s), (p,))
    mult = [0.0] * len(regs)
    for k, (_owner, large) in cotes.items():
        rid = label.get(k)
        if rid is not None:
            mult[rid] = 2.0 if large else 1.0
    hand = g.hand
    obj, slots = g.objective(p)
    open_slots = 4 - sum(slots) if obj is not None else 0
    near: dict[tuple[int, int], float] = {}
    out: list[float] = []
    for m in moves:
        v = m.verb
        score = 0.0
        if v == "place" and hand is not None:
            colours = ROTATIONS[hand][m.arg]
            covered = 0
            for off, c in zip(OFFSETS, colours, strict=True):
                k = m.sq + off
                if k in sq:
                    covered += 1
                got = near.get((k, c))
                if got is None:
                    got = near[(k, c)] = _next_to(k, c, sq, label, owner, mult, side)
                score += got
            if covered:
                score += 3.0 * covered + (6.0 if covered >= open_slots else 0.0)
        elif v == "cote":
            rid = label.get(m.sq)
            if rid is not None:
                size = len(regs[rid])
                score = size * (2.0 if m.arg else 1.0) - (3.0 if m.arg and size < 4 else 0.0)
        elif v == "tile":
            c = m.arg
            gain = 0.0
            free = 0
            seen: set[int] = set()
            for d in NEIGHBOURS:
                t = sq.get(m.sq + d)
                if t is None or t[1] != c or t[0] == FALCON:
                    continue
                rid = label.get(m.sq + d)
                if rid is None or rid in seen:
                    continue
                seen.add(rid)
                if owner[rid] in side:
                    gain = max(gain, mult[rid])
                elif owner[rid] < 0:
                    free += len(regs[rid])
            score = gain * (1 + free) if gain else 0.0
        elif v == "falcon":
            rid = label.get(m.sq)
            score = 2.0 + (mult[rid] if rid is not None else 0.0)
        elif v == "goal":
            score = 1.0 if g.cards_left() >= 6 else -1.0
        elif v in ("buy", "raise"):
            score = 0.2
        elif v == "end":
            score = 0.3
        out.append(score)
    return out


def guided_move(game: Game, moves: Sequence[Any], rng: random.Random) -> Any:
    """The move the :func:`prior` likes best (ties at random): how a playout finishes the turn
    under way (a dovecote on the best region, tiles that extend the mover's estate, then
    ``end``)."""
    scores = prior(game, moves)
    top = max(scores)
    best = [m for m, s in zip(moves, scores, strict=True) if s >= top - 1e-9]
    return best[rng.randrange(len(best))] if len(best) > 1 else best[0]
