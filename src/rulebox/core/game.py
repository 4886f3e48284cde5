"""The one protocol every game implements.

A :class:`Game` is a mutable position plus its history. The public entry points check legality
(``apply``, ``parse``); search may use the unchecked fast path ``apply_unchecked`` and says so.

Chance: every draw in rulebox's games is part of the move that causes it, taken from an order
fixed by the seed (or a ``deck=`` option) when the game begins; the order is state, never a side
effect. ``current_player`` is therefore a player or :data:`TERMINAL`; :data:`CHANCE` exists for
games that expose chance nodes, and ``chance_outcomes`` lists them.

Subclasses implement the abstract methods marked below; everything else is shared.
"""

from __future__ import annotations

import abc
import json
import random
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar, Self

from rulebox.core.errors import (
    AmbiguousMoveError,
    GameOverError,
    Illegal,
    IllegalMoveError,
    InvalidMoveError,
    NothingToUndoError,
    RuleboxError,
    StateError,
)
from rulebox.core.options import OptionSpec, parse_options, show_options
from rulebox.i18n import _

TERMINAL = -1
"""``current_player()`` when the game is over."""

CHANCE = -2
"""``current_player()`` at a chance node (no rulebox game has one; draws belong to moves)."""

STATE_FORMAT = 1
MAX_DIAGRAM = 20_000
"""The longest diagram :meth:`Game.from_diagram` reads (a guard against oversized input)."""


class Termination(StrEnum):
    """The kind of ending of a game (as python-chess's ``Termination``): by the rules, or at
    the table around them."""

    RULES = "rules"
    """The rules ended the game (the game's :meth:`Game.outcome`)."""
    RESIGNED = "resigned"
    """A seat gave up: the other side wins (a solitaire is lost)."""
    AGREED = "agreed"
    """A draw by agreement."""
    TIME = "time"
    """A flag fell: that seat loses."""
    FORFEIT = "forfeit"
    """A computer seat failed (raised, or answered an illegal move): it loses."""
    EXPIRED = "expired"
    """The server ended a game nobody moved in for too long: no winner."""
    QUIT = "quit"
    """The person left the terminal game unfinished (it is saved, not ended)."""
    ABANDONED = "abandoned"
    """Every opponent's connection was gone past the grace period and the player who stayed
    claimed the game: a win of that side, or a draw."""
    CANCELLED = "cancelled"
    """An open game's creator cancelled it before it started: nobody wins, nothing counts."""


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended.

    ``winners`` is empty for a draw (or a lost solitaire); a team game names every winner.
    ``scores`` is one figure per player where the game scores, else ``None``. ``reason`` says
    why in words (the current language's); ``rule`` is the rule ID that decided it where one
    did (``CR-9``), for a surface to show or link without reading the text; ``termination``
    the kind of ending.
    """

    winners: tuple[int, ...]
    scores: tuple[int | float, ...] | None
    reason: str
    rule: str | None = None
    termination: Termination = Termination.RULES

    def result_line(self) -> str:
        """The engine protocol's ``result`` text, e.g. ``over winner=1 score=3,4``."""
        who = ",".join(str(p) for p in self.winners) if self.winners else "none"
        line = f"over winner={who}"
        if self.scores is not None:
            line += " score=" + ",".join(_num(s) for s in self.scores)
        return line


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


class Game(abc.ABC):
    """A position of one game, with its options and the moves that led to it."""

    # --- declared by each game -------------------------------------------------------------
    id: ClassVar[str]
    title: ClassVar[str]
    player_counts: ClassVar[tuple[int, ...]] = (2,)
    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()
    max_moves: ClassVar[int]
    """An upper bound on the number of moves in any game (with default options)."""
    return_bounds: ClassVar[tuple[float, float]] = (-1.0, 1.0)
    has_hidden_information: ClassVar[bool] = False
    seat_names: ClassVar[tuple[str, ...]] = ()
    """The seats as the rules name them (English, marked for the catalogue); ``()``: the
    registry entry's names (:meth:`seat_name`)."""
    _drawn_start: dict[str, Any] | None = None

    def __init__(self, options: Mapping[str, Any]) -> None:
        self.opts: dict[str, Any] = dict(options)
        self._history: list[Any] = []
        self._texts: list[str] = []  # str() of the moves of _history, kept by _move_texts
        self._texts_of: list[Any] | None = None  # the history list _texts was made for
        self._undo_floor = 0  # moves below this index cannot be taken back
        self._drawn_start = None  # a drawn start position, if any (see to_json)

    # --- construction ----------------------------------------------------------------------
    @classmethod
    def new(cls, options: Mapping[str, Any] | None = None, **kw: Any) -> Self:
        """A new game. ``options`` may be text (``{"seed": "7"}``) or values; unknown keys raise."""
        raw = dict(options or {})
        raw.update(kw)
        opts = parse_options(cls.id, cls.option_specs, raw)
        game = cls(opts)
        game._setup()
        return game

    @abc.abstractmethod
    def _setup(self) -> None:
        """Lay out the start position from ``self.opts`` (seed included)."""

    def options(self) -> dict[str, str]:
        """Every option in force as canonical text, sorted by key (seed included)."""
        return show_options(self.option_specs, self.opts)

    @property
    def num_players(self) -> int:
        """How many seats this game has."""
        return self.player_counts[0]

    # --- the turn ----------------------------------------------------------------------------
    @abc.abstractmethod
    def current_player(self) -> int:
        """The player to move, or :data:`TERMINAL`."""

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.current_player() == TERMINAL

    @abc.abstractmethod
    def legal_moves(self) -> list[Any]:
        """Every legal move of the player to move (empty when the game is over)."""

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        """(outcome, probability) pairs at a chance node; rulebox's games have none."""
        return []

    @abc.abstractmethod
    def parse_move(self, text: str) -> Any:
        """Syntax only: the move value that ``text`` writes, or raise ``InvalidMoveError``.

        The result may still be illegal; ``parse`` checks it.
        """

    def check_move(self, move: Any) -> None:
        """Raise unless ``move`` is legal: ``GameOverError`` once the game is over (whatever the
        move), else ``IllegalMoveError`` with the reason and rule ID of :meth:`illegal_reason`.

        Games do not override this; they say why in :meth:`illegal_reason` (the one convention,
        see :mod:`rulebox.core.errors`)."""
        if self.is_terminal():
            raise GameOverError(self._end_text())
        why = self.illegal_reason(move)
        if why is not None:
            raise IllegalMoveError(why.reason, why.rule)

    def illegal_reason(self, move: Any) -> Illegal | None:
        """``None`` if ``move`` (any value, perhaps not even a move of this game) is legal in
        this position, else :class:`Illegal` (reason, rule ID); never raises for a bad move.

        Called only while the game goes on (:meth:`check_move` reports a finished game). Every
        game overrides this with reasons a player can act on; this default only knows the legal
        moves."""
        if move in self.legal_moves():
            return None
        return Illegal(_("{move} is not a legal move here").format(move=move), "?")

    @abc.abstractmethod
    def apply_unchecked(self, move: Any) -> None:
        """Play a move known to be legal (the fast path for search). Records history."""

    @abc.abstractmethod
    def _undo_last(self) -> None:
        """Restore the position before the last move (history is handled by :meth:`undo`)."""

    @abc.abstractmethod
    def outcome(self) -> Outcome | None:
        """How the game ended, or ``None`` while it goes on."""

    @abc.abstractmethod
    def returns(self) -> list[float]:
        """One value per player within ``return_bounds`` (all 0 while the game goes on)."""

    # --- checked entry points ------------------------------------------------------------------
    def parse(self, text: str) -> Any:
        """Resolve ``text`` to a legal move: syntax first, then legality."""
        if not isinstance(text, str):
            raise InvalidMoveError(repr(text), _("a move is text"))
        if self.is_terminal():
            raise GameOverError(self._end_text())
        move = self.parse_move(text)
        self.check_move(move)
        return move

    def _end_text(self) -> str:
        outcome = self.outcome()
        return outcome.reason if outcome is not None else ""

    def apply(self, move: Any) -> Any:
        """Play ``move`` (a move value or its text) after checking it; returns the move value."""
        if isinstance(move, str):
            move = self.parse(move)
        else:
            self.check_move(move)
        self.apply_unchecked(move)
        return move

    def undo(self) -> Any:
        """Take back the last move (with any card it drew) and return it."""
        if len(self._history) <= self._undo_floor:
            raise NothingToUndoError(_("there is no move to undo"))
        self._undo_last()
        move = self._history.pop()
        if getattr(self, "_texts_of", None) is self._history and len(self._texts) > len(
                self._history):
            del self._texts[len(self._history):]
        return move

    @property
    def history(self) -> list[Any]:
        """The moves played so far (a copy)."""
        return list(self._history)

    def _move_texts(self) -> list[str]:
        """``[str(m) for m in self._history]``, kept incrementally (the cache itself: callers
        copy it). Games append to ``_history`` as they play; the texts of new moves are made
        here, on demand, so a view costs a list copy, not a text per move ever played.
        :meth:`undo` drops the last text; a history list replaced wholesale (a load, a copy)
        starts the cache afresh, and so does a copy made without :meth:`_bare_copy` (a game's
        own ``clone`` that leaves the cache out)."""
        history = self._history
        texts = getattr(self, "_texts", None)
        if texts is None or getattr(self, "_texts_of", None) is not history:
            texts = self._texts = []
            self._texts_of = history
        elif len(texts) > len(history):  # cannot happen through undo(); a safety net
            del texts[len(history):]
        if len(texts) < len(history):
            texts.extend([str(m) for m in history[len(texts):]])
        return texts

    def move_text(self, move: Any) -> str:
        """The canonical notation of ``move``."""
        return str(move)

    # --- words for a person (the move log, the end screen) -----------------------------------
    def seat_name(self, player: int) -> str:
        """The name of seat ``player`` as the rules call it (``dark``, ``first``, ``red``), in
        the current language; ``player {n}`` for a game that names no seats."""
        from rulebox.core.registry import game_entry

        return game_entry(self.id).seat_name(player)

    def describe(self, move: Any) -> str:
        """``move`` (a move value or its text) in a player's words, with who plays it (the move
        log).

        Called on the position BEFORE the move (which must be legal here); never changes the
        position and says only what every seat may see (no hidden card, no deck order). This
        default says ``{seat} plays {move}``; each game overrides it."""
        from rulebox.i18n import _

        move = self.as_move(move)
        who = self.current_player()
        seat = self.seat_name(who) if who >= 0 else ""
        return _("{seat} plays {move}").format(seat=seat, move=self.move_text(move))

    def as_move(self, move: Any) -> Any:
        """``move`` as a move value: text is resolved with :meth:`parse` (so it must be legal
        here), a value is returned as it is."""
        return self.parse(move) if isinstance(move, str) else move

    def highlights(self) -> list[str]:
        """In a finished game, the cells or pieces that decided it, in the game's notation (the
        end screen marks them); ``[]`` while the game goes on or when there is nothing to show
        (this default)."""
        return []

    def find_move(self, text: str) -> Any:
        """Match ``text`` against the legal moves by canonical text (case and spaces ignored)."""
        key = "".join(text.split()).lower()
        hits = [m for m in self.legal_moves() if "".join(str(m).split()).lower() == key]
        if len(hits) > 1:
            raise AmbiguousMoveError(_("{text!r} could mean {map}").format(
                                         text=text, map=" or ".join(map(str, hits))))
        return hits[0] if hits else None

    @property
    def undo_floor(self) -> int:
        """The number of moves of :attr:`history` that cannot be taken back (those before a
        drawn start was loaded)."""
        return self._undo_floor

    # --- copies and serialisation -----------------------------------------------------------
    def start_copy(self) -> Self:
        """A new game with these options at this game's start (its drawn start, if any)."""
        g = type(self).new(self.options())
        if self._drawn_start is not None:
            g._load_drawn(self._drawn_start)
        return g

    @abc.abstractmethod
    def clone(self) -> Self:
        """An independent copy (history and undo included)."""

    def _bare_copy(self) -> Self:
        """A new instance that carries this game's shared fields (options, history, drawn
        start) and nothing else; a game's :meth:`clone` starts from it and copies its own
        position. No ``__init__``, no ``deepcopy``: clones are on the search's hot path."""
        g = object.__new__(type(self))
        g.opts = dict(self.opts)
        g._history = list(self._history)
        g._texts = []
        g._texts_of = None
        g._undo_floor = self._undo_floor
        g._drawn_start = self._drawn_start
        return g

    @abc.abstractmethod
    def position_json(self) -> dict[str, Any]:
        """The full position (hidden parts included) as JSON-able data, without history."""

    @abc.abstractmethod
    def _load_position(self, data: dict[str, Any]) -> None:
        """Set the position from :meth:`position_json` data; raise ``StateError`` if corrupt."""

    def to_json(self) -> dict[str, Any]:
        """The complete state: ``from_json`` of it restores the same game exactly.

        ``start`` is present when the game began from a drawn (loaded) position rather than
        from the options' start; the history is replayed from it."""
        data = {
            "format": STATE_FORMAT,
            "game": self.id,
            "options": self.options(),
            "history": list(self._move_texts()),
            "position": self.position_json(),
        }
        if self._drawn_start is not None:
            data["start"] = self._drawn_start
        return data

    @classmethod
    def from_json(cls, data: Any) -> Self:
        """Restore a game from :meth:`to_json` data; refuse anything corrupt with ``StateError``.

        The history is replayed, every move checked, from ``start`` when given (a drawn
        position) or else from the options' start, and must arrive at ``position``; so the game
        comes back whole and every move can be undone. A state with no history and no start
        is a drawn position: it is taken as given (and validated by the game).
        """
        if not isinstance(data, dict):
            raise StateError(_("a state is a JSON object"))
        if data.get("game") != cls.id:
            raise StateError(_("this state is for {get!r}, not {id!r}").format(
                                 get=str(data.get('game'))[:40], id=cls.id))
        if data.get("format", STATE_FORMAT) != STATE_FORMAT:
            raise StateError(_("unknown state format {get!r}").format(
                                 get=str(data.get('format'))[:20]))
        options = data.get("options", {})
        history = data.get("history", [])
        position = data.get("position")
        start = data.get("start")
        if not isinstance(options, dict) or not all(
            isinstance(k, str) and isinstance(v, str | int) and not isinstance(v, bool)
            for k, v in options.items()
        ):
            raise StateError(_("options must be an object of key=value text"))
        if not isinstance(history, list) or not all(isinstance(m, str) for m in history):
            raise StateError(_("history must be a list of moves in notation"))
        if not isinstance(position, dict):
            raise StateError(_("the state has no position object"))
        if start is not None and not isinstance(start, dict):
            raise StateError(_("start must be a position object"))
        text_options = {k: str(v) for k, v in options.items()}
        try:
            game = cls.new(text_options)
        except RuleboxError as e:
            raise StateError(_("bad options in state: {e}").format(e=e)) from None
        # an explicit start is kept even when it equals the options' start, so that the state
        # round-trips exactly; a bare position is a drawn start only if it differs
        if start is not None:
            game._load_drawn(start)
        elif not history and position != game.position_json():
            game._load_drawn(position)
        for i, text in enumerate(history, start=1):
            try:
                game.apply(text)
            except RuleboxError as e:
                raise StateError(
                    _("the state's history does not replay: move {i} ({text!r}): {e}").format(
                        i=i, text=text[:40], e=e)
                ) from None
        if (history or start is not None) and game.position_json() != position:
            raise StateError(_("the state's history does not lead to its position"))
        return game

    def _load_drawn(self, position: dict[str, Any]) -> None:
        """Take a drawn position as the start of this game (validated by the game)."""
        try:
            self._load_position(position)
        except StateError:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
            raise StateError(_("corrupt position: {name}: {e}").format(
                                 name=type(e).__name__, e=e)) from None
        self._history = []
        self._drawn_start = self.position_json()

    # --- the text diagram (FEN-like) ---------------------------------------------------------
    def diagram(self) -> str:
        """The position as one line of text, as FEN is for chess: the same form in tests, the
        engine's ``load``, records and docs. :meth:`from_diagram` reads it back, and the round
        trip is exact (``from_diagram(g.diagram()).diagram() == g.diagram()``).

        Each game documents its form in its module docstring. Like FEN, a diagram leaves out the
        history and (where a game says so) the repetition table; the JSON state keeps those.
        This default, for a game without a form of its own, is the compact JSON of
        :meth:`position_json`."""
        return json.dumps(self.position_json(), separators=(",", ":"), sort_keys=True)

    @classmethod
    def _read_diagram(cls, text: str) -> tuple[dict[str, Any], dict[str, str]]:
        """Syntax only: the :meth:`position_json` data that ``text`` draws, and the options it
        implies (Count Red's parities, say), as text; raise ``StateError`` if malformed. The
        game's ``_load_position`` then checks the position against the rules."""
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):
            raise StateError(_("{id}: not a diagram: {text!r}").format(
                id=cls.id, text=text[:40])) from None
        if not isinstance(data, dict):
            raise StateError(_("{id}: a diagram of this game is a JSON object").format(id=cls.id))
        return data, {}

    @classmethod
    def from_diagram(cls, text: str, options: Mapping[str, Any] | None = None) -> Self:
        """A game in the position that ``text`` (a :meth:`diagram`) draws, with ``options`` (as
        for :meth:`new`; the seed is drawn if missing). The position is the start of the game's
        history, so undo stops there and ``to_json`` keeps it. Raises ``StateError`` for a
        malformed diagram or one that breaks the rules, or one whose implied options contradict
        ``options``."""
        if not isinstance(text, str):
            raise StateError(_("a diagram is text"))
        if len(text) > MAX_DIAGRAM:
            raise StateError(_("a diagram is at most {max_diagram} characters").format(
                                 max_diagram=MAX_DIAGRAM))
        position, implied = cls._read_diagram(" ".join(text.split()))
        given = {str(k): v for k, v in (options or {}).items()}
        for key, value in implied.items():
            if key in given and str(given[key]).strip().lower() != value:
                raise StateError(
                    _("the diagram says {key}={value}, but the options say "
                      "{key}={given}").format(key=key, value=value, given=given[key])
                )
            given[key] = value
        game = cls.new(given)
        if position != game.position_json():
            game._load_drawn(position)
        return game

    # --- what a seat may see ---------------------------------------------------------------------
    def view(self, player: int | None) -> dict[str, Any]:
        """What ``player`` may see (``None``: a spectator) as JSON-able data.

        The default, for games without hidden information, is the whole position.
        """
        return {
            "game": self.id,
            "options": self.public_options(),
            "to_move": self.current_player(),
            "position": self.position_json(),
            "history": list(self._move_texts()),
        }

    def public_options(self) -> dict[str, str]:
        """The options a player may see: all but ``seed`` and ``deck``, which fix the chance
        (in a game with a hidden deck they would reveal it; no view carries them, for
        uniformity)."""
        opts = self.options()
        opts.pop("seed", None)
        opts.pop("deck", None)
        return opts

    def determinize(self, player: int, rng: random.Random) -> Self:
        """A copy in which everything hidden from ``player`` is redrawn at random, consistent
        with what ``player`` has seen. Games without hidden information return a plain clone."""
        return self.clone()

    def reshuffle_unseen(self, rng: random.Random) -> None:
        """Shuffle the order of the cards no player has seen, changing nothing else; a no-op
        for games without hidden cards (the default).

        Every view stays identical; only the draws still to come change. The result depends only
        on ``rng`` and on the set of unseen cards (never on their old order), so the same
        ``rng`` gives the same order. A table calls this after an undo that took back a drawn
        card, so that undo is never a free look at the pile; search keeps its exact ``undo``.
        ``to_json`` still round-trips afterwards (the game records the start that leads to the
        new order)."""
        return  # nothing is hidden by default

    # --- helpers for search ---------------------------------------------------------------------
    def position_key(self) -> Any:
        """A hashable key of the position (player to move included); used by search tables."""
        return json.dumps(self.position_json(), sort_keys=True)
