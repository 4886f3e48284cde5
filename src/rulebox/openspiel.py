"""rulebox's games as OpenSpiel Python games: ``import rulebox.openspiel`` registers
``rulebox_columns``, ``rulebox_36to1``, ``rulebox_countred``, ``rulebox_columba`` and
``rulebox_discs`` with ``pyspiel``, so that ``pyspiel.load_game("rulebox_columns")`` works.

Actions are the ids of :mod:`rulebox.env.actions`; observation tensors those of
:mod:`rulebox.env.observations` (built from ``view(player)`` only).

Chance. rulebox fixes every random choice when a game begins (the deck order, who starts), from
the seed; OpenSpiel's algorithms expect chance nodes. So a state begins with chance nodes that
make those choices one at a time, with their probabilities, and the rulebox game is started from
them (``deck=``, ``first=``/``even=`` options):

* 36 to 1: the 36 cards, one chance node per card of the shuffled deck (probability 1 / cards
  left), first card first; the last card is forced and has no node.
* Columba: the 30 cards likewise (the first starts the territory, the second is the first hand).
* Count Red: who moves first, then who moves on even counts (1/2 each, CR-2).
* Columns and Discs: no chance.

A card dealt at a chance node stays hidden until the rules show it: every information state and
observation is built from ``view(player)``, which never reveals the pile's order. The information
state string (perfect recall) is the view with its move history plus the cards revealed so far in
the order they were revealed; the observation string is the view without history. Both tensors
are the observation vector of :mod:`rulebox.env.observations`: the information-state tensor is
not perfect recall (histories that reach the same view share it), only the string is. The hidden
order is drawn up front rather than card by card as it is drawn; both are the same game for
every player, because nothing reveals a card sooner. States implement
``resample_from_infostate`` (keep what ``player`` has seen, reshuffle the rest), for
information-set MCTS.

Only the default options of each game are offered, and ``players`` (2-4) for Columba.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyspiel

from rulebox.core import Game
from rulebox.env.actions import ActionSpace
from rulebox.env.common import Table
from rulebox.env.observations import Observer, observer

_T = pyspiel.GameType


@dataclass(frozen=True)
class Deal:
    """A game's chance: ``outcomes`` are the chance actions' names (a card, a seat); a deal is
    a sequence of them, ``steps`` long; ``options`` turns a complete deal into game options."""

    outcomes: tuple[str, ...]
    steps: int
    without_replacement: bool
    options: Callable[[Sequence[int]], dict[str, str]]
    revealed: Callable[[Game], int]
    """How many dealt outcomes a player has seen (a prefix of the deal)."""


def _s36_deal() -> Deal:
    from rulebox.games.solitaire36.board import CARD_CODES, NUM_STANDARD_CARDS

    cards = CARD_CODES[:NUM_STANDARD_CARDS]

    def options(deal: Sequence[int]) -> dict[str, str]:
        rest = [c for c in range(len(cards)) if c not in deal]
        return {"deck": ",".join(cards[c] for c in [*deal, *rest])}

    def revealed(game: Game) -> int:
        return len(cards) - int(game.view(0)["pile_count"])

    return Deal(tuple(cards), len(cards) - 1, True, options, revealed)


def _columba_deal() -> Deal:
    from rulebox.games.columba.cards import DECK_IDS

    def options(deal: Sequence[int]) -> dict[str, str]:
        rest = [c for c in range(len(DECK_IDS)) if c not in deal]
        return {"deck": ",".join(DECK_IDS[c] for c in [*deal, *rest])}

    def revealed(game: Game) -> int:
        return len(DECK_IDS) - int(game.view(0)["position"]["cards_left"])

    return Deal(tuple(DECK_IDS), len(DECK_IDS) - 1, True, options, revealed)


def _countred_deal() -> Deal:
    def options(deal: Sequence[int]) -> dict[str, str]:
        return {"first": str(deal[0]), "even": str(deal[1])}

    return Deal(("seat 0", "seat 1"), 2, False, options, lambda game: 2)


@dataclass(frozen=True)
class Spec:
    """One registered game: its rulebox id, OpenSpiel names and chance."""

    game_id: str
    long_name: str
    deal: Deal | None
    perfect: bool
    zero_sum: bool
    min_players: int = 1
    max_players: int = 2


SPECS: dict[str, Spec] = {
    "columns": Spec("columns", "rulebox Columns", None, True, True, 2, 2),
    "36to1": Spec("36to1", "rulebox 36 to 1", _s36_deal(), False, False, 1, 1),
    "countred": Spec("countred", "rulebox Count Red", _countred_deal(), True, True, 2, 2),
    "columba": Spec("columba", "rulebox Columba", _columba_deal(), False, False, 2, 4),
    "discs": Spec("discs", "rulebox Discs", None, True, True, 2, 2),
}


def _game_type(spec: Spec) -> pyspiel.GameType:
    params: dict[str, Any] = {"players": 2} if spec.max_players > 2 else {}
    return pyspiel.GameType(
        short_name=f"rulebox_{spec.game_id}",
        long_name=spec.long_name,
        dynamics=_T.Dynamics.SEQUENTIAL,
        chance_mode=(_T.ChanceMode.EXPLICIT_STOCHASTIC if spec.deal
                     else _T.ChanceMode.DETERMINISTIC),
        information=(_T.Information.PERFECT_INFORMATION if spec.perfect
                     else _T.Information.IMPERFECT_INFORMATION),
        utility=_T.Utility.ZERO_SUM if spec.zero_sum else _T.Utility.GENERAL_SUM,
        reward_model=_T.RewardModel.TERMINAL,
        max_num_players=spec.max_players,
        min_num_players=spec.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


class RuleboxGame(pyspiel.Game):  # type: ignore[misc]
    """A rulebox game as an OpenSpiel game."""

    spec: Spec

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        spec = self.spec
        options: dict[str, str] = {}
        if "players" in params:
            options["players"] = str(int(params["players"]))
        self.rulebox_options = options
        table = Table(spec.game_id, options)
        cls = type(table.game)
        low, high = cls.return_bounds
        deal = spec.deal
        info = pyspiel.GameInfo(
            num_distinct_actions=table.space.n,
            max_chance_outcomes=len(deal.outcomes) if deal else 0,
            num_players=table.num_players,
            min_utility=float(low),
            max_utility=float(high),
            utility_sum=0.0 if spec.zero_sum else None,
            max_game_length=int(cls.max_moves),
        )
        super().__init__(_game_type(spec), info, params)
        self.space: ActionSpace = table.space
        self.observer: Observer = observer(spec.game_id)

    def new_initial_state(self) -> RuleboxState:
        return RuleboxState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> RuleboxObserver:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        perfect_recall = bool(iig_obs_type and iig_obs_type.perfect_recall)
        return RuleboxObserver(self, perfect_recall)


class RuleboxState(pyspiel.State):  # type: ignore[misc]
    """A state: the chance outcomes dealt so far, then the rulebox game they started."""

    def __init__(self, game: RuleboxGame) -> None:
        super().__init__(game)
        self._rb: RuleboxGame = game
        self._deal: list[int] = []
        self._actions: list[int] = []  # the players' actions, in order
        self.table: Table | None = None
        if game.spec.deal is None:
            self._start()

    # --- chance -------------------------------------------------------------------------------
    def _start(self) -> None:
        spec = self._rb.spec
        options = dict(self._rb.rulebox_options)
        if spec.deal is not None:
            options.update(spec.deal.options(self._deal))
        table = Table(spec.game_id, options)
        table.reset(0)
        self.table = table

    def current_player(self) -> int:
        if self.table is None:
            return int(pyspiel.PlayerId.CHANCE)
        p = self.table.game.current_player()
        return int(pyspiel.PlayerId.TERMINAL) if p < 0 else p

    def chance_outcomes(self) -> list[tuple[int, float]]:
        deal = self._rb.spec.deal
        if deal is None or self.table is not None:
            return []
        left = [i for i in range(len(deal.outcomes))
                if not (deal.without_replacement and i in self._deal)]
        return [(i, 1.0 / len(left)) for i in left]

    # --- play ---------------------------------------------------------------------------------
    def _legal_actions(self, player: int) -> list[int]:
        if self.table is None or player != self.table.game.current_player():
            return []
        return list(self.table.legal.ids)

    def _apply_action(self, action: int) -> None:
        if self.table is None:
            deal = self._rb.spec.deal
            assert deal is not None  # chance nodes exist only for games that deal
            self._deal.append(int(action))
            if len(self._deal) == deal.steps:
                self._start()
            return
        self.table.play(int(action))
        self._actions.append(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            deal = self._rb.spec.deal
            assert deal is not None
            return f"deal {deal.outcomes[action]}"
        return self._rb.space.text(action)

    def is_terminal(self) -> bool:
        return self.table is not None and self.table.game.is_terminal()

    def returns(self) -> list[float]:
        if self.table is None:
            return [0.0] * self._rb.num_players()
        return [float(r) for r in self.table.game.returns()]

    def __str__(self) -> str:
        if self.table is None:
            deal = self._rb.spec.deal
            assert deal is not None
            return "dealing: " + " ".join(deal.outcomes[i] for i in self._deal)
        return self.table.text(None)

    # --- information ----------------------------------------------------------------------------
    def revealed(self) -> list[int]:
        """The dealt outcomes every player has seen, in the order they were revealed."""
        deal = self._rb.spec.deal
        if deal is None or self.table is None:
            return []
        return self._deal[: deal.revealed(self.table.game)]

    def view(self, player: int) -> dict[str, Any]:
        """``view(player)`` of the rulebox game (empty while dealing)."""
        return {} if self.table is None else self.table.game.view(player)

    def resample_from_infostate(self, player: int, sampler: Any = None) -> RuleboxState:
        """A state ``player`` cannot tell from this one: the same actions and revealed cards,
        the unseen cards dealt again at random (``sampler`` is unused; the seed comes from the
        module's generator)."""
        deal = self._rb.spec.deal
        if deal is None or self.table is None:
            return copy.deepcopy(self)
        seen = self.revealed()
        rest = [i for i in self._deal if i not in seen]
        _RESAMPLE_RNG.shuffle(rest)
        new = RuleboxState(self._rb)
        for a in [*seen, *rest, *self._actions]:
            new.apply_action(a)
        return new


_RESAMPLE_RNG = random.Random(0)


def set_resample_seed(seed: int) -> None:
    """Seed the generator behind ``resample_from_infostate`` (for repeatable searches)."""
    _RESAMPLE_RNG.seed(seed)


class RuleboxObserver:
    """OpenSpiel's Python observer: ``tensor`` and ``dict`` from :mod:`rulebox.env.observations`,
    strings from the view (with the move history and revealed cards for perfect recall)."""

    def __init__(self, game: RuleboxGame, perfect_recall: bool) -> None:
        self.observer = game.observer
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(self.observer.size, np.float32)
        planes, scalars = self.observer.split(self.tensor)
        self.dict = {"planes": planes, "scalars": scalars}

    def set_from(self, state: RuleboxState, player: int) -> None:
        if state.table is None:
            self.tensor.fill(0)
            return
        self.tensor[:] = self.observer.encode(state.view(player), player)

    def string_from(self, state: RuleboxState, player: int) -> str:
        view = state.view(player)
        if not self.perfect_recall:
            view = {k: v for k, v in view.items() if k != "history"}
            return json.dumps(view, sort_keys=True)
        deal = state._rb.spec.deal
        shown = [deal.outcomes[i] for i in state.revealed()] if deal else []
        return json.dumps({"view": view, "revealed": shown}, sort_keys=True)


def _register() -> list[str]:
    names = []
    registered = set(pyspiel.registered_names())
    for spec in SPECS.values():
        cls_name = f"Rulebox_{spec.game_id}_Game"
        cls = type(cls_name, (RuleboxGame,), {"spec": spec, "__module__": __name__})
        globals()[cls_name] = cls  # picklable by name (OpenSpiel serializes games so)
        name = f"rulebox_{spec.game_id}"
        if name not in registered:
            pyspiel.register_game(_game_type(spec), cls)
        names.append(name)
    return names


GAME_NAMES = _register()
"""The names registered with ``pyspiel``."""
