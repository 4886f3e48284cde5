"""Actions as integers: a fixed, documented action space per game.

Every game has a tuple of action texts, one per action id; the id of a move is the position of
its canonical notation (``str(move)``, PROTOCOL.md) in that tuple, and the move of an id is the
legal move whose notation is that text. The bijection is between ids and notation, so it never
depends on a position; a position only decides which ids are legal (the mask). Texts that are
never legal in any position (a Count Red move from a field to itself, say) are left out; texts
that are legal only sometimes are in. docs/RESEARCH.md lists every game's layout.

Columba's grid is unbounded: its actions that name squares are written for the squares of a
fixed window around the territory, :data:`COLUMBA_WINDOW` (the first card lies on ``0,0``).
A legal move whose squares leave the window has no id: it is left out of the mask and counted
(:meth:`ActionSpace.legal`), never mapped onto another square. ``bench/bench_env.py window``
measured how far the legal moves of random games reach (docs/RESEARCH.md).

The action texts of Columba are derived from its notation: candidates are written for every verb
and kept when the game's own parser reads them back to the same canonical text, so a change of
notation (``buy`` naming the colours paid, say) changes the action space with it.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from rulebox.core import Game, RuleboxError, game_ids


class UnsupportedOptionsError(ValueError):
    """The adapters cannot represent the game with these options (the reason says why)."""


@dataclass(frozen=True)
class Window:
    """Columba's window: squares ``x0 <= x < x0 + size`` and ``y0 <= y < y0 + size``."""

    x0: int
    y0: int
    size: int

    def holds(self, x: int, y: int, x2: int | None = None, y2: int | None = None) -> bool:
        """Whether square ``x,y`` (and ``x2,y2``, the far corner of a card) lie inside."""
        x2 = x if x2 is None else x2
        y2 = y if y2 is None else y2
        end_x, end_y = self.x0 + self.size, self.y0 + self.size
        return self.x0 <= min(x, x2) and max(x, x2) < end_x and (
            self.y0 <= min(y, y2) and max(y, y2) < end_y
        )

    def squares(self) -> Iterable[tuple[int, int]]:
        """Every square of the window, row by row (``y`` outer, ``x`` inner)."""
        for y in range(self.y0, self.y0 + self.size):
            for x in range(self.x0, self.x0 + self.size):
                yield x, y

    def __str__(self) -> str:
        x1, y1 = self.x0 + self.size - 1, self.y0 + self.size - 1
        return f"x {self.x0}..{x1}, y {self.y0}..{y1} ({self.size} x {self.size})"


COLUMBA_WINDOW = Window(-28, -28, 56)
"""The squares Columba's actions can name: x and y from -28 to 27 (the first card's top-left is
``0,0``). The legal moves of seeded random games reached x -23..22 and y -22..23
(docs/RESEARCH.md has the measurement); the window leaves at least 4 squares beyond that on every
side. A chain of 30 cards could reach further in theory."""


COLUMBA_OFFICIA = "columba+officia"
"""The action space and observer of Columba with ``officia=1``."""


@dataclass(frozen=True)
class LegalActions:
    """The legal actions of one position: sorted ids, the move of each id, and the legal moves
    that have no id (Columba's squares outside the window)."""

    ids: tuple[int, ...]
    moves: dict[int, Any]
    outside: int


@dataclass(frozen=True)
class ActionSpace:
    """The action ids of one game: ``texts[i]`` is the notation of action ``i``."""

    game_id: str
    texts: tuple[str, ...]
    index: dict[str, int] = field(repr=False, compare=False)

    @property
    def n(self) -> int:
        """``num_distinct_actions``."""
        return len(self.texts)

    def text(self, action: int) -> str:
        """The notation of an action id; ``ValueError`` outside the space."""
        if not 0 <= int(action) < len(self.texts):
            raise ValueError(f"action {action} is outside 0..{len(self.texts) - 1}")
        return self.texts[int(action)]

    def action(self, text_or_move: Any) -> int:
        """The id of a move or of its canonical notation; ``ValueError`` if it has none."""
        key = str(text_or_move)
        hit = self.index.get(key)
        if hit is None:
            raise ValueError(f"{key[:60]!r} has no action id in {self.game_id}")
        return hit

    def legal(self, game: Game) -> LegalActions:
        """The legal actions of ``game``'s player to move (none when the game is over)."""
        moves: dict[int, Any] = {}
        outside = 0
        index = self.index
        for m in game.legal_moves():
            a = index.get(str(m))
            if a is None:
                outside += 1
            else:
                moves[a] = m
        if outside and not moves:
            raise RuleboxError(
                f"every legal move of this {self.game_id} position lies outside the action space"
            )
        return LegalActions(tuple(sorted(moves)), moves, outside)

    def mask(self, legal: LegalActions) -> np.ndarray:
        """The legal-action mask (``int8``, 1 = legal) of :meth:`legal`'s result."""
        out = np.zeros(len(self.texts), dtype=np.int8)
        if legal.ids:
            out[list(legal.ids)] = 1
        return out


def _space(game_id: str, texts: Iterable[str]) -> ActionSpace:
    t = tuple(texts)
    index = {s: i for i, s in enumerate(t)}
    if len(index) != len(t):
        raise AssertionError(f"{game_id}: duplicate action texts")  # our own tables
    return ActionSpace(game_id, t, index)


def _columns() -> list[str]:
    from rulebox.games.columns.moves import ALL_MOVES

    return [str(m) for m in ALL_MOVES]


def _solitaire36() -> list[str]:
    from rulebox.games.solitaire36.moves import MOVE_TEXT

    return [t for row in MOVE_TEXT for t in row]


def _countred() -> list[str]:
    from rulebox.games.countred.moves import CLAIM, MOVES, NUM_FIELDS

    out = [str(MOVES[s][d]) for s in range(NUM_FIELDS) for d in range(NUM_FIELDS) if s != d]
    return [*out, str(CLAIM)]


def _discs() -> list[str]:
    from rulebox.games.discs.moves import (
        ARRANGEMENTS,
        BARS,
        CHOICES,
        END,
        LOCKS,
        PASS,
        STEP_MOVES,
        TURNS,
        UNBAR,
        UNLOCK,
    )

    steps = [STEP_MOVES[k] for k in sorted(STEP_MOVES)]
    turns = [m for pair in TURNS for m in pair]
    locks = [m for m in LOCKS if m.a % 5 != 0]  # only outer holes take a lock (DSC-3)
    groups = (ARRANGEMENTS, CHOICES, steps, turns, [PASS], locks, [UNLOCK], BARS, [UNBAR], [END])
    return [str(m) for group in groups for m in group]


def _columba(window: Window = COLUMBA_WINDOW) -> list[str]:
    from rulebox.games.columba.cards import COLOURS

    inner = Window(window.x0, window.y0, window.size - 1)  # a card's top-left square
    cands: list[str] = []
    cands += [f"place {x},{y} r{r}" for x, y in inner.squares() for r in (0, 90, 180, 270)]
    cands += ["goal", "nogoal"]
    cands += [f"cote {s} {x},{y}" for s in ("small", "large") for x, y in window.squares()]
    cands += [f"tile {c} {x},{y}" for c in COLOURS for x, y in window.squares()]
    pays = [*COLOURS, *("".join(p) for p in itertools.product(COLOURS, repeat=2))]
    for verb in ("buy", "raise"):  # bare, or naming the colours paid
        cands += [verb] + [f"{verb} {p}" for p in pays]
    cands += [f"falcon {x},{y}" for x, y in window.squares()]
    cands += ["end"]
    return _read_back(cands)


def _read_back(cands: Iterable[str]) -> list[str]:
    """The candidates that Columba's parser reads back to the same canonical text."""
    from rulebox.games.columba.moves import parse_columba_move

    out: list[str] = []
    for text in cands:
        try:
            move = parse_columba_move(text)
        except RuleboxError:
            continue
        if str(move) == text:
            out.append(text)
    return out


ARCHITECT_REACH = 4
"""How far the architect's move may take a dovecote and still have an action id: the
destination lies at most this many squares from the dovecote along x and along y (a 9 x 9 box).
The move names two squares, and every pair of the window's squares would be 9.8 million ids;
a move further away is left out of the mask and counted (``LegalActions.outside``)."""


def _columba_officia(window: Window = COLUMBA_WINDOW) -> list[str]:
    """Columba's actions, then the Officia verbs' (CB-15), in the order of the notation:
    ``farmerswife C``, ``thief P C``, ``marshal C x,y``, ``peasant x,y``, ``architect x,y
    large`` and ``architect x,y x2,y2`` (the destination within :data:`ARCHITECT_REACH`)."""
    from rulebox.games.columba.cards import COLOURS

    cands = [f"farmerswife {c}" for c in COLOURS]
    cands += [f"thief {p} {c}" for p in range(4) for c in COLOURS]
    cands += [f"marshal {c} {x},{y}" for c in COLOURS for x, y in window.squares()]
    cands += [f"peasant {x},{y}" for x, y in window.squares()]
    cands += [f"architect {x},{y} large" for x, y in window.squares()]
    r = ARCHITECT_REACH
    steps = [(dx, dy) for dy in range(-r, r + 1) for dx in range(-r, r + 1) if dx or dy]
    moves = [f"architect {x},{y} {x + dx},{y + dy}" for x, y in window.squares()
             for dx, dy in steps if window.holds(x + dx, y + dy)]
    # a quarter of a million texts of one form: the parser reads back a sample (every step
    # from the middle square, and every square with the steps to a corner and the far side)
    # rather than all of them (seconds at start-up); the form is the same for all
    sample = {f"architect 0,0 {dx},{dy}" for dx, dy in steps}
    sample |= {f"architect {x},{y} {x + dx},{y + dy}" for x, y in window.squares()
               for dx, dy in ((r, r), (-r, -r), (1, 0)) if window.holds(x + dx, y + dy)}
    if len(_read_back(sorted(sample))) != len(sample) or not sample <= set(moves):
        raise AssertionError("the architect's notation changed: rebuild its action texts")
    return _columba(window) + _read_back(cands) + moves


_BUILDERS = {
    "columns": _columns,
    "36to1": _solitaire36,
    "countred": _countred,
    "discs": _discs,
    "columba": _columba,
    COLUMBA_OFFICIA: _columba_officia,
}


@functools.cache
def action_space(game_id: str) -> ActionSpace:
    """The action space of a game (built once); ``"columba+officia"`` is Columba's with the
    Officia verbs (its first ids are Columba's own)."""
    if game_id not in _BUILDERS:
        known = ", ".join(sorted(_BUILDERS))
        raise ValueError(f"no action space for {game_id!r} (games: {known})")
    return _space(game_id, _BUILDERS[game_id]())


def space_key(game: Game) -> str:
    """The name of the action space (and observer) of ``game``: its id, or
    ``"columba+officia"`` for Columba with ``officia=1``."""
    if game.id == "columba" and game.opts.get("officia"):
        return COLUMBA_OFFICIA
    return game.id


def space_for(game: Game) -> ActionSpace:
    """The action space of ``game`` with its options (Columba's Officia has more verbs)."""
    return action_space(space_key(game))


def check_options(game: Game) -> None:
    """Raise :class:`UnsupportedOptionsError` for options the action spaces cannot express.
    Every option of every game is expressed now (Columba's Officia since its verbs got ids;
    the architect's moves beyond :data:`ARCHITECT_REACH` are counted as outside)."""
    del game


def supported_games() -> list[str]:
    """The registered games that have an action space here."""
    return [g for g in game_ids() if g in _BUILDERS]
