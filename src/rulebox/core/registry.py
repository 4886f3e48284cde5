"""Games registered by name, so that the engine, the CLI, the server and tournaments list them
without special cases. Each game package calls :func:`register_game` when it is imported;
``rulebox.games`` imports every game package it finds."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import TYPE_CHECKING, Any

from rulebox.core.errors import UnknownNameError
from rulebox.i18n import _

if TYPE_CHECKING:
    from rich.text import Text

    from rulebox.core.game import Game


@dataclass(frozen=True)
class GameEntry:
    """Everything the outer layers need to know about one game.

    ``render(game, player)`` draws the position as styled text (``player`` is the seat whose
    view is drawn, ``None`` for everything public); ``explain(game, arg)`` answers the terminal's
    ``explain`` command (``None`` if the game has none); ``seat_names`` name the seats.
    """

    cls: type[Game]
    render: Callable[[Game, int | None], Text]
    package: str
    notation_help: str
    seat_names: tuple[str, ...] = ()
    explain: Callable[[Game, str], str] | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def id(self) -> str:
        return self.cls.id

    def notation_text(self) -> str:
        """The notation help in the current language (the notation itself stays as it is
        typed; a translation keeps the English's lines, one for one)."""
        from rulebox.i18n import gettext

        return gettext(self.notation_help)

    @property
    def title(self) -> str:
        return self.cls.title

    def rules_text(self, lang: str | None = None) -> str:
        """The game's rules with rule IDs in ``lang`` (default: the current language,
        :func:`rulebox.i18n.language`): the package's ``rules.<lang>.md``, or its English
        ``rules.md`` when that language has no text."""
        from rulebox.i18n import language, normalize

        chosen = normalize(lang) or language()
        root = resources.files(self.package)
        if chosen != "en":
            translated = root.joinpath(f"rules.{chosen}.md")
            if translated.is_file():
                return translated.read_text(encoding="utf-8")
        return root.joinpath("rules.md").read_text(encoding="utf-8")

    def seat_name(self, player: int) -> str:
        """Seat ``player`` as the rules name it (``dark``, ``first``, ``red``), in the current
        language: the game class's own ``seat_names`` when it declares them (the rules side's
        names), else this entry's; ``player {n}`` only for a seat that has no name."""
        from rulebox.i18n import _

        names = getattr(self.cls, "seat_names", ()) or self.seat_names
        if 0 <= player < len(names):
            return _(names[player])
        return _("player {n}").format(n=player)


_GAMES: dict[str, GameEntry] = {}


def register_game(entry: GameEntry) -> GameEntry:
    """Add a game to the registry (idempotent for the same class)."""
    _GAMES[entry.id] = entry
    return entry


def _load_all() -> None:
    import importlib

    importlib.import_module("rulebox.games")


def game_ids() -> list[str]:
    """Every registered game id, in the order of RULINGS.md's table where known."""
    _load_all()
    order = ["columns", "36to1", "countred", "columba", "discs"]
    return sorted(_GAMES, key=lambda g: (order.index(g) if g in order else 99, g))


def game_entry(game_id: str) -> GameEntry:
    """The entry of a game by id; ``UnknownNameError`` if there is none."""
    _load_all()
    key = str(game_id).strip().lower()
    if key not in _GAMES:
        shown = key if len(key) <= 30 else key[:27] + "..."
        raise UnknownNameError(
            _("unknown game {shown!r} (games: {game_ids})").format(
                shown=shown, game_ids=', '.join(game_ids()))
        )
    return _GAMES[key]


def new_game(game_id: str, options: Mapping[str, Any] | None = None) -> Game:
    """Start a game by id with options given as text or values."""
    return game_entry(game_id).cls.new(options or {})
