"""CB-15 in the terminal: each player's role is shown with its power, one line each."""

from __future__ import annotations

from rulebox.games.columba.render import POWERS, render
from rulebox.games.columba.rules import Columba


def test_CB_15_terminal_shows_each_role_with_its_power() -> None:
    game = Columba.new({"seed": "4", "officia": "1", "roles": "peasant,thief"})
    plain = render(game, None).plain
    for role in ("peasant", "thief"):
        assert f"{role}: {POWERS[role]}" in plain
