"""Columba's pieces and how many there are (CB-1, CB-11, CB-12): seats, dovecotes per player,
the tile and falcon supply, the penalty for an open objective, the game's phases.

Shared by the rules, the turn machine and the loader (:mod:`state`), so that none of them has
to import another for a number."""

from __future__ import annotations

SEATS = ("red", "purple", "yellow", "green")
"""Player colours by seat."""
TILES_PER_COLOUR = 15
FALCONS = 12
PENALTY = 4
"""Points lost for an objective not completed at the end (CB-11)."""
COTES = {2: (3, 1), 3: (2, 1), 4: (1, 1)}
"""(small, large) dovecotes per player by number of players (CB-1)."""

PLACE, GOAL_PHASE, ACTIONS, OVER = "place", "goal", "actions", "over"
PHASES = (PLACE, GOAL_PHASE, ACTIONS, OVER)
"""``place`` (the card in hand), ``goal`` (a completed objective: ``goal`` / ``nogoal``),
``actions`` (dovecote, tiles, falcons, ``end``), ``over``."""
