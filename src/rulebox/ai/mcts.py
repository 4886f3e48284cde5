"""Monte Carlo tree search: ``mcts`` (UCT) and ``ismcts`` (single-observer information-set MCTS).

Both work for any number of players: a node stores the total reward of the player who made the
move into it, rewards are every player's returns scaled to [0, 1] by the game's
``return_bounds``, and selection at a node uses the rewards of the player to move there. When a
move leaves the same player to move (a multi-action turn, a bonus move) nothing changes: that
player simply chooses again. Playouts are random (or, where a game offers ``playout_move``,
partly heuristic) and are cut after ``playout_depth`` moves, where the game's evaluation (if it
has one) stands in for the result.

Where the game's heuristic module offers them, the search uses the game's knowledge
(``guide=``, on by default for 36 to 1 and Columba; ``guide=0`` is the search of ``best-v1``):
``guided_move`` plays the playouts (36 to 1: spend the card a scarce cube needs); ``prior``
orders the moves a node tries, with progressive widening (``widen=``: at most
``3 + widen * sqrt(visits)`` children), and ``screen=`` first orders the root moves by the full
evaluation one ply ahead (Columba). ``values_v1`` is the evaluation ``guide=0`` uses.

Games with hidden information are never read directly. ``mcts`` then searches an ensemble of
determinizations (``game.determinize(player, rng)``), one UCT tree each, and adds their root
visits; ``ismcts`` keeps one tree over moves and redraws a determinization every iteration,
counting at each node how often each move was available (Cowling, Powley & Whitehouse 2012).
"""

from __future__ import annotations

import importlib
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from rulebox.ai.base import AgentEntry, Settings, choosable_moves, register_agent
from rulebox.ai.budget import Budget, extra_number
from rulebox.ai.heuristics import MODULES, Heuristic, heuristic
from rulebox.core.game import TERMINAL, Game
from rulebox.core.rng import rng
from rulebox.i18n import N_


class Node:
    """A node of the search tree: reached by ``move``, made by ``player``; ``value`` sums that
    player's rewards over ``visits``; ``avail`` counts how often the move could be played (IS)."""

    __slots__ = ("avail", "children", "move", "parent", "player", "untried", "value", "visits")

    def __init__(self, move: Any = None, parent: Node | None = None, player: int = -1) -> None:
        self.move = move
        self.parent = parent
        self.player = player
        self.children: dict[Any, Node] = {}
        self.untried: list[Any] | None = None
        self.visits = 0
        self.value = 0.0
        self.avail = 0

    def mean(self) -> float:
        """The mean reward of the player who moved into this node (0.5 when unvisited)."""
        return self.value / self.visits if self.visits else 0.5

    def add_child(self, move: Any, player: int) -> Node:
        child = Node(move, self, player)
        self.children[move] = child
        return child

    def __repr__(self) -> str:
        return f"Node({self.move!s}, p={self.player}, n={self.visits}, w={self.value:.2f})"


def ucb(child: Node, log_parent: float, c: float) -> float:
    """The UCB1 score of a visited child."""
    return child.value / child.visits + c * math.sqrt(log_parent / child.visits)


def uct_select(node: Node, c: float) -> Node:
    """The child with the highest UCB1 score (every child visited; first of equals wins)."""
    log_n = math.log(node.visits)
    best, best_score = None, -math.inf
    for child in node.children.values():
        s = ucb(child, log_n, c)
        if s > best_score:
            best, best_score = child, s
    assert best is not None
    return best


def is_select(node: Node, available: Sequence[Any], c: float) -> Node:
    """ISMCTS selection among the children whose moves are available now; each of them has
    its availability count raised, and UCB1 uses that count instead of the parent's visits."""
    best, best_score = None, -math.inf
    children = node.children
    for move in available:
        child = children[move]
        child.avail += 1
        s = child.value / child.visits + c * math.sqrt(math.log(child.avail) / child.visits)
        if s > best_score:
            best, best_score = child, s
    assert best is not None
    return best


def backup(node: Node | None, rewards: Sequence[float]) -> None:
    """Add one visit and each node's mover's reward, from ``node`` up to the root."""
    while node is not None:
        node.visits += 1
        if node.player >= 0:
            node.value += rewards[node.player]
        node = node.parent


def _decided(roots: list[Node], legal: set[Any], n: int, budget: Budget) -> bool:
    """Whether the most visited root move can no longer be overtaken before the deadline, at
    the rate the search has kept so far (then more search could not change the choice)."""
    left = budget.remaining()
    if left is None:
        return False
    visits: dict[Any, int] = {}
    for root in roots:
        for move, child in root.children.items():
            if move in legal:
                visits[move] = visits.get(move, 0) + child.visits
        if root.untried:
            return False  # a root move not tried yet
    if len(visits) < 2:
        return False
    first, second = sorted(visits.values(), reverse=True)[:2]
    expected = n / max(budget.elapsed(), 1e-6) * left
    return first - second > expected


def best_child(root: Node) -> Node:
    """The most visited child (the higher mean among equals)."""
    return max(root.children.values(), key=lambda n: (n.visits, n.mean()))


@dataclass(frozen=True)
class MctsConfig:
    """Search constants: exploration ``c`` (rewards in [0, 1]), playout cut-off, and the share
    of playout moves taken from the game's ``playout_move`` when it has one."""

    c: float = 0.7
    playout_depth: int = 60
    heuristic_share: float = 0.0
    determinizations: int = 8
    guide: float = 0.0
    """The share of playout moves taken from the game's ``guided_move`` (a playout policy that
    uses the evaluation's knowledge), where the heuristic module has one. 0 turns the game's
    knowledge off altogether: no guided playouts, and the evaluation the game had before its
    learned features (``values_v1``), where the module keeps one (the agents of ``best-v1``)."""
    widen: float = 0.0
    """Progressive widening, where the heuristic module has a ``prior(game, moves)``: a node
    visited ``n`` times has at most ``widen_base + widen * sqrt(n)`` children, tried in the
    order of the prior (best first). 0 tries every move once, in a random order, before any
    is searched deeper."""
    widen_base: int = 3
    turn_playout: bool = False
    """Playouts only finish the turn under way (the same player moving, at most
    ``playout_depth`` actions), so that every leaf is evaluated at the start of a turn and
    leaves at different points of a multi-action turn are compared alike."""
    grow: int = 0
    """For hidden information: add the determinizations one by one, the next once the search
    has spent ``grow`` iterations per root move on each of those so far (0: all of them from the
    start). A small budget then searches a few worlds well instead of many barely."""
    screen: float = 0.0
    """With widening: the share of the time (all of it under ``iterations=``) spent ordering
    the root moves by the game's full evaluation one ply ahead (as ``greedy`` would), instead
    of by the quick prior alone; 0 does not."""


class Searcher:
    """The iterations shared by UCT and ISMCTS."""

    def __init__(self, h: Heuristic, config: MctsConfig, rand: random.Random) -> None:
        self.h = h
        self.config = config
        self.rng = rand
        self.playouts = 0
        self.guided = hook(h.game_id, "guided_move") if config.guide > 0 else None
        self.prior = hook(h.game_id, "prior") if config.guide > 0 and config.widen > 0 else None

    def rewards(self, game: Game) -> list[float]:
        """Every player's reward in [0, 1]: the returns if the game is over, else the
        evaluation."""
        lo, hi = game.return_bounds
        span = (hi - lo) or 1.0
        vals = self.h.all_values(game)
        return [min(1.0, max(0.0, (v - lo) / span)) for v in vals]

    def playout(self, game: Game, budget: Budget | None) -> list[float] | None:
        """Play on at random from ``game`` (changed in place); ``None`` if time ran out."""
        rand = self.rng
        cfg = self.config
        pm = self.h.playout_move if cfg.heuristic_share > 0 else None
        guided = self.guided
        mover = game.current_player() if cfg.turn_playout else None
        for step in range(cfg.playout_depth):
            p = game.current_player()
            if p == TERMINAL or (mover is not None and p != mover):
                break
            moves = game.legal_moves()
            if guided is not None and (cfg.guide >= 1.0 or rand.random() < cfg.guide):
                move = guided(game, moves, rand)
            elif pm is not None and rand.random() < cfg.heuristic_share:
                move = pm(game, moves, rand)
            else:
                move = moves[rand.randrange(len(moves))]
            game.apply_unchecked(move)
            if budget is not None and step & 31 == 31 and budget.out_of_time():
                return None
        self.playouts += 1
        return self.rewards(game)

    def expand_moves(self, game: Game, moves: list[Any] | None = None) -> list[Any]:
        """The moves of a new node (default: every legal move), in a seeded random order, or
        with a prior in the prior's order among them, best last (expansion pops from the
        end)."""
        moves = sorted(game.legal_moves() if moves is None else moves, key=str)
        self.rng.shuffle(moves)
        if self.prior is not None and len(moves) > 1:
            scores = self.prior(game, moves)
            order = sorted(range(len(moves)), key=scores.__getitem__)
            moves = [moves[i] for i in order]
        return moves

    def may_expand(self, node: Node) -> bool:
        """Whether ``node`` may have one more child now (progressive widening)."""
        if self.prior is None:
            return True
        cfg = self.config
        return len(node.children) < cfg.widen_base + cfg.widen * math.sqrt(node.visits)

    def uct_iteration(self, root: Node, game: Game, budget: Budget | None) -> bool:
        """One UCT iteration from ``root`` on ``game`` (a copy, changed in place)."""
        node = root
        c = self.config.c
        while True:
            p = game.current_player()
            if p == TERMINAL:
                break
            if node.untried is None:
                node.untried = self.expand_moves(game)
            if node.untried and (not node.children or self.may_expand(node)):
                move = node.untried.pop()
                game.apply_unchecked(move)
                node = node.add_child(move, p)
                break
            node = uct_select(node, c)
            game.apply_unchecked(node.move)
        rewards = self.playout(game, budget)
        if rewards is None:
            return False
        backup(node, rewards)
        return True

    def is_iteration(self, root: Node, game: Game, budget: Budget | None) -> bool:
        """One ISMCTS iteration on a determinization ``game`` (changed in place)."""
        node = root
        c = self.config.c
        while True:
            p = game.current_player()
            if p == TERMINAL:
                break
            legal = game.legal_moves()
            children = node.children
            untried = [m for m in legal if m not in children]
            if untried:
                move = untried[self.rng.randrange(len(untried))]
                for m in legal:
                    if m in children:
                        children[m].avail += 1
                game.apply_unchecked(move)
                node = node.add_child(move, p)
                node.avail = 1
                break
            node = is_select(node, legal, c)
            game.apply_unchecked(node.move)
        rewards = self.playout(game, budget)
        if rewards is None:
            return False
        backup(node, rewards)
        return True


class MctsAgent:
    """UCT for games without hidden information; an ensemble of determinized UCT trees
    for games with it."""

    name = "mcts"

    def __init__(
        self, game_id: str, settings: Settings, config: MctsConfig | None = None
    ) -> None:
        base = config or default_config(game_id)
        self.config = MctsConfig(
            c=extra_number(settings, "c", base.c, 0.0, 10.0),
            playout_depth=int(
                extra_number(settings, "playout", base.playout_depth, 0, 10_000, integer=True)
            ),
            heuristic_share=extra_number(settings, "heuristic", base.heuristic_share, 0.0, 1.0),
            determinizations=base.determinizations,
            guide=extra_number(settings, "guide", base.guide, 0.0, 1.0),
            widen=extra_number(settings, "widen", base.widen, 0.0, 100.0),
            widen_base=base.widen_base,
            screen=extra_number(settings, "screen", base.screen, 0.0, 1.0),
            grow=base.grow,
            turn_playout=base.turn_playout,
        )
        if self.config.guide == 0:  # best-v1: as before the game's knowledge came in
            self.config = replace(self.config, grow=0, turn_playout=False,
                                  playout_depth=0 if game_id == "columba" else
                                  self.config.playout_depth)
        self.settings = settings
        self.h = heuristic(game_id)
        old = hook(game_id, "values_v1") if self.config.guide == 0 else None
        if old is not None:
            self.h = replace(self.h, values=old)
        self.game_id = game_id
        self.last_iterations = 0

    def _rng(self, game: Game) -> random.Random:
        # the same seed and position give the same search, whatever came before
        return rng(self.settings.seed, self.name, self.game_id, len(game.history))

    def choose(self, game: Game) -> Any:
        moves = choosable_moves(game)
        if len(moves) == 1:
            return moves[0]
        hopeful = self._not_doomed(game, moves)
        return self.search(
            game, moves, Budget.from_settings(self.settings),
            root_moves=hopeful if len(hopeful) < len(moves) else None,
        )

    def _not_doomed(self, game: Game, moves: list[Any]) -> list[Any]:
        """The moves the game's heuristic cannot prove lost (all of them if it proves every
        one lost, or has no such proof)."""
        doomed = self.h.doomed
        if doomed is None:
            return moves
        left = [m for m in moves if not doomed(game, m)]
        return left or moves

    def search(
        self, game: Game, moves: list[Any], budget: Budget, root_moves: list[Any] | None = None
    ) -> Any:
        """The move UCT chooses within ``budget``; ``root_moves`` (default: every legal move)
        are the moves it may choose at the root."""
        rand = self._rng(game)
        searcher = Searcher(self.h, self.config, rand)
        me = game.current_player()
        if game.has_hidden_information:
            k = max(1, self.config.determinizations)
            worlds = [game.determinize(me, rand) for _ in range(k)]
        else:
            worlds = [game]
        roots = [Node() for _ in worlds]
        screened = self._screen(searcher, worlds[0], root_moves or moves, budget)
        if screened is not None:
            for root in roots:
                root.untried = list(screened)
        elif root_moves is not None:
            for root in roots:
                root.untried = searcher.expand_moves(game, root_moves)
        legal = set(moves)
        per_world = self.config.grow * len(root_moves or moves)
        n = 0
        while not budget.done(n):
            active = len(worlds) if per_world <= 0 else min(len(worlds), 1 + n // per_world)
            i = n % active
            if not searcher.uct_iteration(roots[i], worlds[i].clone(), budget):
                break
            n += 1
            if not n & 127 and budget.iterations is None and _decided(roots, legal, n, budget):
                break
        self.last_iterations = n
        return self._pick(roots, moves)

    def _screen(
        self, searcher: Searcher, world: Game, moves: list[Any], budget: Budget
    ) -> list[Any] | None:
        """The root moves ordered for expansion (best last) by the evaluation one ply ahead, on
        a determinization (``world``) where cards are hidden; moves the time share did not
        reach come before them, in the quick prior's order. ``None`` without a screen."""
        if self.config.screen <= 0 or searcher.prior is None or len(moves) < 2:
            return None
        order = searcher.expand_moves(world, moves)
        part = budget.part(self.config.screen) if budget.deadline is not None else None
        me = world.current_player()
        scored: list[tuple[float, Any]] = []
        left = list(order)
        while left:
            if scored and part is not None and part.out_of_time():
                break
            move = left.pop()
            child = world.clone()
            child.apply_unchecked(move)
            scored.append((self.h.value(child, me), move))
        scored.reverse()  # equal values keep the prior's order (the better prior last)
        scored.sort(key=lambda t: t[0])
        return left + [m for _v, m in scored]

    def _pick(self, roots: list[Node], moves: list[Any]) -> Any:
        visits: dict[Any, int] = {}
        value: dict[Any, float] = {}
        for root in roots:
            for move, child in root.children.items():
                visits[move] = visits.get(move, 0) + child.visits
                value[move] = value.get(move, 0.0) + child.value
        legal = set(moves)
        visits = {m: n for m, n in visits.items() if m in legal}  # a determinization's own
        if not visits:
            return sorted(moves, key=str)[0]
        return max(
            sorted(visits, key=str), key=lambda m: (visits[m], value[m] / max(1, visits[m]))
        )


class IsmctsAgent(MctsAgent):
    """Single-observer ISMCTS: one tree over moves, a fresh determinization per iteration."""

    name = "ismcts"

    def choose(self, game: Game) -> Any:
        moves = choosable_moves(game)
        if len(moves) == 1:
            return moves[0]
        budget = Budget.from_settings(self.settings)
        rand = self._rng(game)
        searcher = Searcher(self.h, self.config, rand)
        me = game.current_player()
        root = Node()
        n = 0
        while not budget.done(n):
            world = game.determinize(me, rand)
            if not searcher.is_iteration(root, world, budget):
                break
            n += 1
        self.last_iterations = n
        return self._pick([root], self._not_doomed(game, moves))


_CONFIGS: dict[str, MctsConfig] = {
    "columns": MctsConfig(c=0.7, playout_depth=60, heuristic_share=0.0),
    # Count Red games run long and its evaluation is weak: random playouts, cut at 40 moves
    "countred": MctsConfig(c=0.7, playout_depth=40, heuristic_share=0.0),
    # Discs: a turn is several actions; playouts mostly end the turn after the main action
    # and stop after 10 actions (about three turns) for the evaluation. At 0.25 s a move,
    # playout=10 beat alpha-beta 4-0 and playout=0 4-0
    "discs": MctsConfig(c=0.7, playout_depth=10, heuristic_share=0.5),
    # Columba's move generation is slow (tens of iterations per second): no playout at all,
    # the score as it stands at the new node (ismcts so beat greedy 4-0 at 0.25 s a move;
    # with 8-move playouts greedy beat it 4-0)
    "columba": MctsConfig(c=0.5, playout_depth=0, heuristic_share=0.8, determinizations=4,
                          guide=1.0, widen=1.0, screen=0.7),
    # 36 to 1: playouts that keep the cubes in one group (heuristics.solitaire36.playout_move).
    # At 0.5 s a move on the tuning deals 1000..1059 they won 32 of 60, random playouts 16
    # (sign test on the same deals 22 to 6, p = 0.004); playouts cut at 8 moves with the plan
    # value as the leaf won 18, and the plan value alone (no playout) 5
    # guide=1 (guided playouts, grow=3) is the option mcts:guide=1: at 60 iterations a move it
    # won 27 of deals 0..80 where these playouts at 500 iterations won 41 (10 to 24 deal by
    # deal, bench/results/s36_i60.jsonl): a few expensive deterministic playouts a move are too
    # noisy a sample, so the default stays the keep-together playouts
    "36to1": MctsConfig(c=0.5, playout_depth=40, heuristic_share=1.0, grow=3),
}


def hook(game_id: str, name: str) -> Any:
    """An optional function ``name`` of the game's heuristic module (``None`` without one):
    search hooks beyond :class:`Heuristic`'s fields, such as ``guided_move``."""
    module_name = MODULES.get(game_id, game_id)
    try:
        module = importlib.import_module(f"rulebox.ai.heuristics.{module_name}")
    except ModuleNotFoundError:
        return None
    return getattr(module, name, None)


def default_config(game_id: str) -> MctsConfig:
    """The tuned constants of a game (the generic ones otherwise)."""
    return _CONFIGS.get(game_id, MctsConfig())


register_agent(
    AgentEntry(
        "mcts",
        N_("UCT with seeded random playouts (determinized for hidden cards); c=, playout="),
        MctsAgent,
        extra_settings=("c", "playout", "heuristic", "guide", "widen", "screen"),
    )
)
register_agent(
    AgentEntry(
        "ismcts",
        N_("information-set MCTS over determinizations, for hidden-information games"),
        IsmctsAgent,
        games=("columba", "36to1"),
        extra_settings=("c", "playout", "heuristic", "guide"),
    )
)
