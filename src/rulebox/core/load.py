"""Any game from one line of text: a JSON state or a diagram.

:func:`load_any` is what the engine's ``load`` calls (and a record or a test may): it accepts

* a JSON state, as ``state`` prints it (``{"game": ..., ...}``, see ``Game.to_json``), or
* a diagram: ``<game> [key=value ...] <diagram>``, the game id, any options, then the game's
  diagram (``Game.diagram``), e.g. ``columns seed=3 .,.,.,./.,.,.,./R,.,.,. 1``.

Options come before the diagram; a diagram's first field never contains ``=``.
"""

from __future__ import annotations

import json
import re
from typing import Any

from rulebox.core.errors import OptionError, StateError, UnknownNameError
from rulebox.core.game import MAX_DIAGRAM, Game
from rulebox.core.options import option_pairs
from rulebox.core.registry import GameEntry, game_entry
from rulebox.i18n import _

_OPTION = re.compile(r"^[a-z_][a-z0-9_]*=", re.IGNORECASE)


def load_any(text: str) -> Game:
    """The game that ``text`` writes (a JSON state or ``<game> [key=value ...] <diagram>``);
    ``StateError`` (a ``RuleboxError``) for anything else, with the reason."""
    if not isinstance(text, str):
        raise StateError(_("a state or diagram is text"))
    text = text.strip()
    if len(text) > MAX_DIAGRAM * 50:
        raise StateError(_("the state is too long"))
    if text.startswith("{"):
        try:
            data: Any = json.loads(text)
        except (ValueError, RecursionError) as e:
            raise StateError(_("not valid JSON: {e}").format(e=e)) from None
        if not isinstance(data, dict) or not isinstance(data.get("game"), str):
            raise StateError(_("a state is a JSON object with a \"game\" field"))
        return _entry(data["game"]).cls.from_json(data)
    words = text.split()
    if not words:
        raise StateError(_("write a JSON state or <game> [key=value ...] <diagram>"))
    cls = _entry(words[0]).cls
    rest = words[1:]
    pairs: list[str] = []
    while rest and _OPTION.match(rest[0]):
        pairs.append(rest.pop(0))
    try:
        options = option_pairs(pairs)
    except OptionError as e:
        raise StateError(str(e)) from None
    if not rest:
        raise StateError(_("no diagram after the game and its options; e.g. {id} "
                           "{diagram}").format(
                             id=cls.id, diagram=cls.new({'seed': '0'}).diagram()))
    return cls.from_diagram(" ".join(rest), options)


def _entry(name: str) -> GameEntry:
    try:
        return game_entry(name)
    except UnknownNameError as e:
        raise StateError(str(e)) from None


def diagram_line(game: Game) -> str:
    """The line :func:`load_any` reads back to this position with every option in force:
    ``<game> key=value ... <diagram>``."""
    opts = [f"{k}={v}" for k, v in game.options().items()]
    return " ".join([game.id, *opts, game.diagram()])
