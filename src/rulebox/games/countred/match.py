"""Match play (CR-15): the options of the next game of a match, from the last one.

The loser of the previous game starts the next; after a draw the first player alternates; the
parities swap after every game, so both players play even and odd in turn. The match loop and
draw offers (CR-14) belong to the match layer; this is the rule it asks.
"""

from __future__ import annotations

from collections.abc import Mapping

from rulebox.core.game import Outcome
from rulebox.core.rng import SEED_LIMIT, rng
from rulebox.games.countred.rules import CountRed


def rematch_options(prev: Mapping[str, str], outcome: Outcome | None) -> dict[str, str]:
    """The options (canonical text, every option in force) of the rematch after a game played
    with ``prev`` that ended with ``outcome``.

    ``prev`` is the previous game's ``options()``; a missing ``first``/``even`` is drawn from its
    seed as the game did, so ``prev`` as typed by a user works too. ``outcome`` ``None`` (or one
    without winners) is a draw, e.g. one agreed in the match layer (CR-14). The seed of the next
    game is derived from the previous one, so a match repeats exactly; ``stack_lift`` is kept.
    Raises ``OptionError`` if ``prev`` is not a valid set of Count Red options.
    """
    last = CountRed.new(dict(prev)).options()
    first, even, seed = int(last["first"]), int(last["even"]), int(last["seed"])
    won = outcome is not None and bool(outcome.winners)
    # the loser starts; after a draw the first player alternates
    next_first = 1 - outcome.winners[0] if won and outcome else 1 - first
    nxt = dict(last)
    nxt["first"] = str(next_first)
    nxt["even"] = str(1 - even)  # parity swaps after every game
    nxt["seed"] = str(rng(seed, "countred", "rematch").randrange(SEED_LIMIT))
    return CountRed.new(nxt).options()
