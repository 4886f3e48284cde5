"""The one agent-spec grammar: ``name[:key=value,...]``, read here and nowhere else.

Every surface names a computer player the same way: ``rulebox play --seat 1=mcts:time=2,seed=5``,
``rulebox tournament --agents random mcts:iterations=500,c=0.5``, the engine's ``genmove``, the
server's seats (``POST /api/games``) and the lobby.

Grammar::

    spec     := name [ ":" setting { "," setting } ]
    setting  := key "=" value
    name     := an agent registered for the game (``rulebox engine``: ``agents``), or
                ``computer`` (the strongest agent: ``best``), or ``computer:LEVEL`` (the level
                ``easy`` / ``medium`` / ``hard`` / ``best`` at the lobby's clock for it)

Names and keys are case-insensitive (kept lower-case); values are kept as written. Spelling kept
working because it was documented before: settings separated by ``:`` as well as ``,``
(``mcts:iterations=500:c=0.5``, the tournament's old form). The engine's ``genmove mcts time=1``
(PROTOCOL.md) is the same spec with its settings as separate words; :meth:`AgentSpec.from_words`
reads it.

The settings every agent accepts are ``time=`` (seconds for the agent's whole TURN, see
:mod:`rulebox.ai.budget`), ``iterations=`` and ``seed=``; an agent may accept more (``c=``,
``depth=``, ...).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rulebox.ai.base import Agent, agent_entries, make_agent
from rulebox.core.errors import OptionError

COMPUTER = "computer"
"""The name of "the computer": the strongest agent of the game (``best``)."""

LOBBY_TIMES: dict[str, str] = {"easy": "0.3", "medium": "1", "hard": "3", "best": "1"}
"""Seconds a turn of ``computer:LEVEL`` (the lobby's levels) when the spec sets no clock."""

PERSON_NAMES = ("human", "person", "me")
"""Seat names that mean a person, not an agent."""


def default_agent(game_id: str) -> str:
    """The strongest agent registered for a game: ``best`` when there is one, else the first
    of ``mcts``, ``greedy``, ``random`` that plays it. The one place that says so."""
    names = [e.name for e in agent_entries(game_id)]
    for name in ("best", "mcts", "greedy", "random"):
        if name in names:
            return name
    if not names:
        raise OptionError(f"no agent plays {game_id}")
    return names[0]


@dataclass(frozen=True)
class AgentSpec:
    """An agent named with its settings, e.g. ``mcts:time=2,seed=5``.

    ``settings`` keep the order they were written in (a tournament's labels stay as typed);
    :attr:`label` is the canonical text, which :meth:`parse` reads back to an equal spec.
    """

    name: str
    settings: tuple[tuple[str, str], ...] = ()

    @classmethod
    def parse(cls, text: str) -> AgentSpec:
        """Read ``name[:key=value,...]`` (``:`` also separates settings, as it once did)."""
        if not isinstance(text, str):
            raise OptionError("an agent is written name[:key=value,...]")
        raw = text.strip()
        if not raw or len(raw) > 200:
            raise OptionError("an agent is written name[:key=value,...], e.g. mcts:time=1")
        name, _, rest = raw.partition(":")
        name = name.strip().lower()
        parts = [p.strip() for p in rest.replace(":", ",").split(",") if p.strip()]
        if name == COMPUTER and parts and "=" not in parts[0]:
            level = parts.pop(0).lower()
            if level not in LOBBY_TIMES:
                raise OptionError(f"unknown level {level[:20]!r} "
                                  f"(levels: {', '.join(LOBBY_TIMES)})")
            settings = _settings(parts)
            if not any(k in ("time", "iterations") for k, _ in settings):
                settings = (("time", LOBBY_TIMES[level]), *settings)
            return cls(level, settings)
        if not name or not all(c.isalnum() or c in "_-" for c in name):
            raise OptionError(f"agent name {name[:30]!r} is not a name")
        return cls(name, _settings(parts))

    @classmethod
    def from_words(cls, words: Sequence[str], default: str) -> AgentSpec:
        """The engine's form (PROTOCOL.md ``genmove [agent] [key=value ...]``): an optional
        name (itself a spec) and settings as separate words; ``default`` when no name."""
        words = list(words)
        head = default
        if words and ("=" not in words[0] or ":" in words[0].partition("=")[0]):
            head = words.pop(0)
        spec = cls.parse(head)
        return spec.with_settings(dict(_settings(words)), override=True)

    # --- reading ------------------------------------------------------------------------------
    @property
    def label(self) -> str:
        """The canonical text: ``name`` or ``name:k=v,k=v``."""
        if not self.settings:
            return self.name
        return self.name + ":" + ",".join(f"{k}={v}" for k, v in self.settings)

    def __str__(self) -> str:
        return self.label

    def get(self, key: str) -> str | None:
        """The value of a setting, or ``None``."""
        return dict(self.settings).get(key)

    @property
    def is_computer_default(self) -> bool:
        """Whether the spec says only ``computer`` (resolved by :meth:`resolve`)."""
        return self.name == COMPUTER

    # --- changing -----------------------------------------------------------------------------
    def with_settings(self, extra: Mapping[str, str], *, override: bool = False) -> AgentSpec:
        """A spec with ``extra`` settings added (kept where already set unless ``override``)."""
        mine = dict(self.settings)
        for k, v in extra.items():
            if override or k not in mine:
                mine[k] = str(v)
        return AgentSpec(self.name, tuple(mine.items()))

    def without(self, *keys: str) -> AgentSpec:
        """A spec without the named settings."""
        return AgentSpec(self.name, tuple((k, v) for k, v in self.settings if k not in keys))

    def sorted(self) -> AgentSpec:
        """The same spec with its settings in key order (a canonical form for records)."""
        return AgentSpec(self.name, tuple(sorted(self.settings)))

    def resolve(self, game_id: str) -> AgentSpec:
        """``computer`` replaced by the game's strongest agent (:func:`default_agent`)."""
        if self.name == COMPUTER:
            return AgentSpec(default_agent(game_id), self.settings)
        return self

    def make(self, game_id: str, **overrides: str) -> Agent:
        """The agent itself; an unknown name or a bad setting raises ``OptionError`` /
        ``UnknownNameError`` (both ``RuleboxError``)."""
        spec = self.resolve(game_id)
        settings = dict(spec.settings)
        settings.update(overrides)
        return make_agent(spec.name, game_id, settings)

    def check(self, game_id: str) -> AgentSpec:
        """The resolved spec after making the agent once (so that a bad spec is refused when a
        seat is taken, not at the computer's first turn)."""
        self.make(game_id)
        return self.resolve(game_id)


def _settings(parts: Sequence[str]) -> tuple[tuple[str, str], ...]:
    out: dict[str, str] = {}
    for part in parts:
        key, eq, value = part.partition("=")
        key = key.strip().lower()
        if not eq or not key:
            raise OptionError(f"agent settings are key=value, not {part[:40]!r}")
        if key in out:
            raise OptionError(f"agent setting {key[:30]!r} given twice")
        out[key] = value.strip()
    return tuple(out.items())


def split_agent_list(text: str) -> list[AgentSpec]:
    """Agents listed in one argument, separated by spaces or commas:
    ``random,mcts:iterations=500,c=0.5 greedy``. A comma-separated piece that is a setting
    (``c=0.5``) belongs to the agent before it."""
    pieces: list[str] = []
    for word in text.replace(",", " , ").split():
        if word == ",":
            continue
        if "=" in word and ":" not in word and pieces:
            pieces[-1] += "," + word
        else:
            pieces.append(word)
    return [AgentSpec.parse(p) for p in pieces]
