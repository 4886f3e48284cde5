"""Agents for 36 to 1 (solitaire): ``connected``, the simple baseline, and ``counter``, which
counts cards and plans.

Both read only public parts of the game: the grid, the face-up cards, the discard pile and so
the set of unseen cards (S36-4), never the order of the draw pile.

- ``connected`` plays a random legal move that keeps the cubes in one orthogonally connected
  group (a split always loses: every group keeps a last cube, S36-2, S36-5).
- ``guided`` plays the guided playout policy
  (:func:`rulebox.ai.heuristics.solitaire36.guided_move`) among the moves not proven lost: the
  cube the fewest cards left can take goes first, never a split, never a dead card kept. No
  search, a few milliseconds a move.
- ``rollout`` plays each move not proven lost on the same few determinizations (the unseen
  cards in a random order, one order shared by all moves, so that the moves are compared on
  the same futures) and finishes each game with the guided policy; the move with the best mean
  result wins (the guided policy's own choice among equals). ``iterations=`` is the number of
  determinizations (default 8); with a clock, determinizations are added while time is left.
- ``counter`` scores every legal move by :func:`rulebox.ai.heuristics.solitaire36.plan_value`
  of the cubes and cards left after it (which card is drawn next does not change the set of
  cards left). With ``lookahead=1`` (default) it adds an expectation over the next card drawn:
  for every unseen card, the best reply's plan value, averaged.
"""

from __future__ import annotations

import random
from typing import Any

from rulebox.ai.base import AgentEntry, Settings, choosable_moves, register_agent
from rulebox.ai.budget import Budget, extra_number
from rulebox.ai.heuristics.solitaire36 import (
    LOST,
    PLAIN_WEIGHTS,
    WEIGHTS,
    card_targets,
    doomed,
    group_of,
    guided_move,
    masks_of,
    plan_after,
    plan_value,
)
from rulebox.core.game import Game
from rulebox.core.rng import rng
from rulebox.games.solitaire36.board import with_neighbour
from rulebox.games.solitaire36.moves import DISCARD
from rulebox.i18n import N_

GAME = "36to1"


class ConnectedAgent:
    """The baseline: a random move that does not split the cubes into two groups."""

    name = "connected"

    def __init__(self, game_id: str, settings: Settings) -> None:
        self._rng = rng(settings.seed, "connected", game_id)

    def choose(self, game: Game) -> Any:
        moves = sorted(choosable_moves(game), key=str)
        occ, _ = masks_of(game)
        keep = []
        for m in moves:
            if m.cell == DISCARD:
                keep.append(m)
                continue
            rest = occ & ~(1 << m.cell)
            if group_of(rest, rest & -rest) == rest:
                keep.append(m)
        pool = keep or moves
        return pool[self._rng.randrange(len(pool))]


class GuidedAgent:
    """The guided playout policy as a player (see the module docstring)."""

    name = "guided"

    def __init__(self, game_id: str, settings: Settings) -> None:
        self._rng = rng(settings.seed, "guided", game_id)

    def choose(self, game: Game) -> Any:
        moves = sorted(choosable_moves(game), key=str)
        if len(moves) == 1:
            return moves[0]
        hopeful = [m for m in moves if not doomed(game, m)] or moves
        return guided_move(game, hopeful, self._rng)


class RolloutAgent:
    """Guided rollouts from every move on shared determinizations (see the module docstring)."""

    name = "rollout"
    WORLDS = 8
    """Determinizations a move when neither ``iterations=`` nor a clock says otherwise."""

    def __init__(self, game_id: str, settings: Settings) -> None:
        self.settings = settings
        self.game_id = game_id
        self.last_iterations = 0

    def choose(self, game: Game) -> Any:
        moves = sorted(choosable_moves(game), key=str)
        if len(moves) == 1:
            return moves[0]
        rand = rng(self.settings.seed, "rollout", self.game_id, len(game.history))
        hopeful = [m for m in moves if not doomed(game, m)] or moves
        first = guided_move(game, hopeful, rand)
        if len(hopeful) == 1:
            return hopeful[0]
        worlds = self.settings.iterations or self.WORLDS
        budget = Budget(self.settings.time, None) if self.settings.time else None
        total = dict.fromkeys(hopeful, 0.0)
        k = 0
        while k < worlds or (budget is not None and self.settings.iterations is None
                             and not budget.out_of_time()):
            if k and budget is not None and budget.out_of_time():
                break
            world = game.determinize(0, rand)
            seed = rand.randrange(1 << 30)
            for m in hopeful:
                g = world.clone()
                g.apply_unchecked(m)
                play = random.Random(seed)  # the same tie-breaks for every move
                while not g.is_terminal():
                    g.apply_unchecked(guided_move(g, g.legal_moves(), play))
                total[m] += g.returns()[0]
            k += 1
            if budget is not None and self.settings.iterations is None and k >= 64:
                break
        self.last_iterations = k
        top = max(total.values())
        best = [m for m in hopeful if total[m] >= top - 1e-9]
        return first if first in best else best[0]


class CounterAgent:
    """Counts the cards left and keeps a removal plan feasible (see the module docstring)."""

    name = "counter"
    TOP = 3
    """Moves refined by the lookahead."""
    SAMPLES = 12
    """Unseen cards tried as the next draw (a seeded sample when more are unseen)."""

    def __init__(self, game_id: str, settings: Settings) -> None:
        self._rng = rng(settings.seed, "counter", game_id)
        self.settings = settings
        self.lookahead = int(extra_number(settings, "lookahead", 1, 0, 1, integer=True))
        fragile = extra_number(settings, "fragile", 1, 0, 1, integer=True)
        self.weights = WEIGHTS if fragile else PLAIN_WEIGHTS

    def choose(self, game: Game) -> Any:
        g: Any = game
        moves = sorted(choosable_moves(game), key=str)
        if len(moves) == 1:
            return moves[0]
        budget = Budget.from_settings(self.settings, default_time=10.0)
        occ, colour_masks = masks_of(g)
        faceup = list(g.faceup())
        unseen = list(g.unseen())
        scored: list[tuple[float, Any]] = []
        for m in moves:
            if scored and budget.out_of_time():
                break  # answer in time with the moves scored so far
            scored.append((plan_after(m, occ, colour_masks, faceup, unseen, self.weights), m))
        scored.sort(key=lambda t: -t[0])
        if self.lookahead >= 1 and unseen and len(scored) > 1 and scored[1][0] > LOST:
            # refine the promising moves by the expected best reply to the next card drawn
            top = [t for t in scored if t[0] > LOST][: self.TOP]
            draws = list(unseen)
            if len(draws) > self.SAMPLES:
                draws = self._rng.sample(draws, self.SAMPLES)
            refined = []
            for value, m in top:
                e = self._expect(m, occ, colour_masks, faceup, unseen, draws, budget)
                if e is None:
                    break
                refined.append((0.3 * value + 0.7 * e, m))
            if len(refined) == len(top):
                scored = sorted(refined, key=lambda t: -t[0]) + scored[len(top):]
        best_value = scored[0][0]
        best = [m for v, m in scored if v >= best_value - 1e-12]
        return best[self._rng.randrange(len(best))]

    def _expect(
        self,
        m: Any,
        occ: int,
        colour_masks: list[int],
        faceup: list[int],
        unseen: list[int],
        draws: list[int],
        budget: Budget,
    ) -> float | None:
        """The mean, over the next card drawn, of the best reply's plan value (``None`` if the
        time ran out)."""
        other = [c for c in faceup if c != m.card]
        if m.cell != DISCARD:
            bit = 1 << m.cell
            occ ^= bit
            colour_masks = [mask & ~bit for mask in colour_masks]
        if occ.bit_count() <= 1:
            return 1.0
        total = 0.0
        near = with_neighbour(occ)
        for d in draws:
            if budget.out_of_time():
                return None
            hand = [*other, d]
            rest = [c for c in unseen if c != d]
            best = LOST
            for card in hand:
                keep = [c for c in hand if c != card]
                t = card_targets(card, occ, colour_masks) & near
                if not t:
                    if rest:
                        best = max(best, _plan_after(occ, colour_masks, keep + rest, keep, 0,
                                                          self.weights))
                    continue
                while t:
                    low = t & -t
                    t ^= low
                    best = max(best, _plan_after(occ, colour_masks, keep + rest, keep, low,
                                                      self.weights))
            total += best
        return total / len(draws)


def _plan_after(occ: int, colour_masks: list[int], cards: list[int], held: list[int],
                bit: int, weights: dict[str, float]) -> float:
    if bit:
        occ ^= bit
        colour_masks = [mask & ~bit for mask in colour_masks]
    return plan_value(occ, colour_masks, cards, held, weights)


register_agent(
    AgentEntry(
        "connected",
        N_("36 to 1 baseline: a random move that keeps the cubes in one group"),
        ConnectedAgent,
        games=(GAME,),
    )
)
register_agent(
    AgentEntry(
        "guided",
        N_("36 to 1: the cube the fewest cards left can take goes first, never a split "
           "(no search)"),
        GuidedAgent,
        games=(GAME,),
    )
)
register_agent(
    AgentEntry(
        "rollout",
        N_("36 to 1: guided rollouts from every move on shared determinizations "
        "(iterations= determinizations)"),
        RolloutAgent,
        games=(GAME,),
    )
)
register_agent(
    AgentEntry(
        "counter",
        N_("36 to 1: counts the unseen cards and keeps a removal plan feasible "
        "(lookahead=0|1, fragile=0|1)"),
        CounterAgent,
        games=(GAME,),
        extra_settings=("lookahead", "fragile"),
    )
)
