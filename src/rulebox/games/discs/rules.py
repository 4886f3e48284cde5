"""Discs: the rules DSC-1..DSC-7 of RULINGS.md (the rotating-disc pin game of 7/8/04).

A turn is several moves of the protocol (DEVELOPING.md, multi-action turns): the main action
(a pin move, a quarter turn or ``pass``), then at most one lock action and at most one barrier
action in any order, then ``end``. The same player stays to move until ``end``.

Decisions where the texts are silent (also in rules.md):

* DSC-6 says the winner wins *at once*: the main action that earns the third colour ends the
  game on the spot; there are no blocking actions and no ``end`` after it.
* DSC-7, two passes in a row: the game ends as a draw with the second ``pass`` itself (its
  blocking actions could change nothing about the two passes).
* DSC-7, repetition: the position at the start of every turn (after set-up and after every
  ``end``) is counted; the third occurrence ends the game as a draw when that turn begins.
* DSC-7, 100 turns: a turn counts when it ends; the ``end`` of the 100th turn in a row without a
  new token ends the game as a draw.

The diagram (:meth:`Discs.diagram`, read by ``from_diagram`` and the engine's ``load``) is one
line of space-separated fields:

1. the board rank by rank as it is drawn (rank 3 first, ranks separated by ``/``, discs ``a``-``c``
   separated by ``,``), each disc its colour (``R G B``, ``?`` before the set-up) and its five
   holes in the order ``c ne nw se sw`` (``.`` empty, ``0``/``1`` a pin of that player);
2. the player to move and the phase: ``a`` arrange, ``c`` choose, ``m`` main action, ``b``
   blocking actions (``0m``);
3. ``s`` and the player with the silver pins (``s-`` before the choice);
4. each player's starting discs, player 0 first, upper case while still home (DSC-5:
   ``A3C1,a1C3``; ``-`` before the choice);
5. the locking pins and 6. the barriers, player 0 first (``a1.ne,-``; ``b2.ne-c3.sw,-``);
7. the tokens (``RG,-``);
8. what this turn did so far: ``l`` a lock action, ``b`` a barrier action, ``t`` a token
   earned (``-`` nothing);
9. ``1`` if the last turn was a pass, else ``0``; 10. the turns in a row without a new token;
11. for a finished game, ``over``, the winner (``-`` for none) and the reason.

Like FEN, the diagram leaves out the repetition table (DSC-7); ``from_diagram`` counts the
position once if a turn begins there. The position after the set-up ``arrange RGBRGBRGB``,
``choose silver a1c3`` (player 1 silver on a1 and c3, player 0 on a3 and c1)::

    R00000,G.....,B11111/R.....,G.....,B...../R11111,G.....,B00000 0m s1 A3C1,A1C3 -,- -,- -,- - 0 0

Representation (chosen for speed; see ``bench/bench_discs.py``): ``_board`` is a bytearray of the
45 holes (0 empty, 1 a pin of player 0, 2 a pin of player 1); ``_pins[p]`` lists the holes of
player p's pins; ``_count[p][d]`` counts p's pins on disc d; tokens, starting discs and the discs
not yet left are bitmasks. Each move pushes one undo record (make/unmake, as in Stockfish): a
lock or barrier action records the value it replaced, every other action the scalar state
before it; the board changes are reversed from the move itself.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Any, NamedTuple, Self

from rulebox.core.errors import Illegal, StateError
from rulebox.core.game import TERMINAL, Game, Outcome
from rulebox.core.numerals import plain_digits
from rulebox.core.options import int_option
from rulebox.games.discs.geometry import (
    ARRANGE_ORDER,
    CORNER_PAIRS,
    DISC_INDEX,
    DISC_NAMES,
    HOLE_INDEX,
    HOLE_NAMES,
    HOLES_PER_DISC,
    LINE_NAMES,
    NUM_DISCS,
    NUM_HOLES,
    TURN_MAPS,
)
from rulebox.games.discs.moves import (
    ARRANGEMENTS,
    CHOICES,
    COLOURS,
    END,
    FREE_BARS,
    LOCKS,
    PASS,
    PIN_COLOURS,
    STEPS_FROM,
    TURNS,
    UNBAR,
    UNLOCK,
    DiscsMove,
    Kind,
    parse_discs_move,
)
from rulebox.games.discs.words import SEAT_NAMES
from rulebox.games.discs.words import describe as _describe
from rulebox.games.discs.words import highlights as _highlights
from rulebox.i18n import N_, _, ngettext, use_language

PINS_PER_PLAYER = 10
PINS_PER_DISC = 5
TOKENS_TO_EARN = 3
"""Pins of one player on a disc that earn its colour (DSC-5)."""
ALL_TOKENS = (1 << len(COLOURS)) - 1
QUIET_TURN_LIMIT = 100
"""Turns in a row without a new token that end the game in a draw (DSC-7)."""
REPETITION_LIMIT = 3
MAX_TURNS = 5 * (QUIET_TURN_LIMIT - 1) + 5
"""At most 4 tokens can be earned without ending the game (2 per player; a third wins), and at
most 99 turns without a token pass between them: 5 * 99 quiet turns + 4 token turns + the last."""
ACTIONS_PER_TURN = 4
"""Main action (or pass), one lock action, one barrier action, ``end``."""

_STEP, _TURN, _PASS = Kind.STEP, Kind.TURN, Kind.PASS
_LOCK, _UNLOCK, _BAR, _UNBAR, _END = Kind.LOCK, Kind.UNLOCK, Kind.BAR, Kind.UNBAR, Kind.END
_ARRANGE, _CHOOSE = Kind.ARRANGE, Kind.CHOOSE


class Phase(IntEnum):
    """Where the game is: the two set-up steps, then each turn's main and blocking actions."""

    ARRANGE = 0
    CHOOSE = 1
    MAIN = 2
    BLOCK = 3


_PHASE_NAMES = ("arrange", "choose", "main", "block")
_ARRANGING, _CHOOSING, _MAIN, _BLOCK = (int(p) for p in Phase)  # plain ints for the hot paths
_OUTER_DISC = tuple(h // HOLES_PER_DISC if h % HOLES_PER_DISC else -1 for h in range(NUM_HOLES))
"""The disc of each outer hole; -1 for a centre."""
_BOARD_TEXT = bytes.maketrans(b"\x00\x01\x02", b".01")


def _bits(mask: int) -> list[int]:
    return [i for i in range(mask.bit_length()) if mask >> i & 1]


def _token_text(mask: int) -> str:
    return "".join(COLOURS[c] for c in _bits(mask))


class _Result(NamedTuple):
    """How the game ended: the winners (none for a draw) and why (``reason`` in English, as
    the position's JSON keeps it; ``kind`` and ``n`` say it in any language, see
    :func:`_ending_text`; ``kind`` ``""``: a loaded reason, said as it was saved)."""

    winners: tuple[int, ...]
    reason: str
    kind: str = ""
    n: int = 0


def _ending_text(kind: str, n: int) -> str:
    """An ending's reason in the current language: ``passed`` (both in a row), ``all`` (seat
    ``n`` holds every colour, DSC-6), ``quiet`` (``n`` turns without a token), ``repeated``."""
    if kind == "passed":
        return _("both players passed in a row")
    if kind == "all":
        return _("{seat} holds a token of each colour").format(seat=_(SEAT_NAMES[n]))
    if kind == "quiet":
        return ngettext("{n} turn in a row without a new token",
                        "{n} turns in a row without a new token", n).format(n=n)
    return _("the same position at the start of a turn for the third time")


def _ended(winners: tuple[int, ...], kind: str, n: int = 0) -> _Result:
    with use_language("en"):
        return _Result(winners, _ending_text(kind, n), kind, n)


class _Scalars(NamedTuple):
    """The undo record of a main, set-up or ``end`` action (make/unmake, as in Stockfish): the
    whole scalar state before it; the board changes are reversed from the move itself."""

    phase: int
    to_move: int
    lock0: int
    lock1: int
    bar0: int
    bar1: int
    tokens0: int
    tokens1: int
    home0: int
    home1: int
    lock_done: bool
    bar_done: bool
    earned: bool
    passes: int
    quiet: int
    result: _Result | None


class _EndUndo(NamedTuple):
    """The undo record of ``end``: the scalar state before it and the start-of-turn key it
    counted (DSC-7)."""

    scalars: _Scalars
    counted: str


_new = tuple.__new__
"""Builds a record without the NamedTuple's Python-level ``__new__`` (on the search's hot path):
``_new(_Scalars, (values in field order))``."""


class Discs(Game):
    """A game of Discs. Player 0 arranges the discs and moves first; player 1 chooses pins."""

    id = "discs"
    title = "Discs"
    player_counts = (2,)
    option_specs = (
        int_option("quiet_limit", QUIET_TURN_LIMIT,
                   N_("turns in a row without a new token that draw the game (DSC-7, our "
                      "addition); 0 plays the rulebook's text, which has no such limit"),
                   0, 100_000),
    )
    max_moves = 2 + ACTIONS_PER_TURN * MAX_TURNS
    return_bounds = (-1.0, 1.0)
    seat_names = SEAT_NAMES

    def _setup(self) -> None:
        self._phase = _ARRANGING
        self._to_move = 0
        self._colour: list[int] = [-1] * NUM_DISCS
        self._silver = -1  # the player with silver pins
        self._start = [0, 0]  # bitmask of each player's starting discs
        self._board = bytearray(NUM_HOLES)
        self._pins: list[list[int]] = [[], []]
        self._count: list[list[int]] = [[0] * NUM_DISCS, [0] * NUM_DISCS]
        self._home = [0, 0]  # starting discs whose pins have not all left yet (earn nothing)
        self._lock = [-1, -1]  # hole of each player's locking pin
        self._bar = [-1, -1]  # line of each player's barrier
        self._tokens = [0, 0]
        self._lock_done = False  # this turn already held a lock action
        self._bar_done = False
        self._earned = False  # this turn earned a token
        self._passes = 0  # the previous turn was a pass
        self._quiet = 0  # finished turns in a row without a new token
        self._reps: dict[str, int] = {}
        self._result: _Result | None = None
        self._undo: list[int | _Scalars | _EndUndo] = []  # one record per move, see apply_unchecked

    # --- state --------------------------------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if self._result is not None else self._to_move

    @property
    def phase(self) -> Phase:
        """The part of the game or turn we are in."""
        return Phase(self._phase)

    def disc_colour(self, disc: int) -> str:
        """``R``, ``G``, ``B``, or ``?`` before the discs are arranged."""
        c = self._colour[disc]
        return COLOURS[c] if c >= 0 else "?"

    def pin_at(self, hole: int) -> int:
        """The player whose pin is in ``hole``, or -1."""
        return self._board[hole] - 1

    def pin_colour(self, player: int) -> str | None:
        """``silver`` or ``black``, once player 1 has chosen."""
        if self._silver < 0:
            return None
        return PIN_COLOURS[0 if player == self._silver else 1]

    def tokens(self, player: int) -> str:
        """The colours ``player`` has earned, as letters (``RG``)."""
        return _token_text(self._tokens[player])

    def starting_discs(self, player: int) -> list[int]:
        """The two corner discs ``player`` started on."""
        return _bits(self._start[player])

    def home_discs(self, player: int) -> list[int]:
        """Starting discs that still earn ``player`` nothing (DSC-5)."""
        return _bits(self._home[player])

    def lock_hole(self, player: int) -> int:
        """The hole of ``player``'s locking pin, or -1."""
        return self._lock[player]

    def barrier(self, player: int) -> int:
        """The line of ``player``'s barrier, or -1."""
        return self._bar[player]

    def turn_flags(self) -> tuple[bool, bool]:
        """(lock action taken, barrier action taken) in this turn's blocking actions."""
        return self._lock_done, self._bar_done

    @property
    def quiet_turns(self) -> int:
        """Finished turns in a row without a new token (DSC-7)."""
        return self._quiet

    # --- moves --------------------------------------------------------------------------------
    def _main_moves(self) -> list[DiscsMove]:
        """Pin moves (DSC-2 a, b) to empty holes over unbarred lines (DSC-4), then quarter turns
        of unlocked discs (DSC-3) where the player has a pin in an outer hole (DSC-2 c)."""
        board = self._board
        b0, b1 = self._bar
        pins = self._pins[self._to_move]
        out = [
            m
            for q in pins
            for dst, line, m in STEPS_FROM[q]
            if not board[dst] and line != b0 and line != b1
        ]
        l0, l1 = self._lock
        locked = (_OUTER_DISC[l0] if l0 >= 0 else -1, _OUTER_DISC[l1] if l1 >= 0 else -1, -1)
        for d in sorted({_OUTER_DISC[q] for q in pins}):
            if d not in locked:
                out += TURNS[d]
        return out

    def _block_moves(self) -> list[DiscsMove]:
        p = self._to_move
        out = [END]
        if not self._lock_done:
            lock = self._lock[p]
            out += [LOCKS[q] for q in self._pins[p] if q % HOLES_PER_DISC and q != lock]
            if lock >= 0:
                out.append(UNLOCK)
        if not self._bar_done:
            b0, b1 = self._bar
            out += FREE_BARS[b0 + 1][b1 + 1]
            if self._bar[p] >= 0:
                out.append(UNBAR)
        return out

    def legal_moves(self) -> list[DiscsMove]:
        if self._result is not None:
            return []
        phase = self._phase
        if phase == _BLOCK:
            return self._block_moves()
        if phase == _MAIN:
            return self._main_moves() or [PASS]
        if phase == _ARRANGING:
            return list(ARRANGEMENTS)
        return list(CHOICES)

    def parse_move(self, text: str) -> DiscsMove:
        return parse_discs_move(text)

    def illegal_reason(self, move: Any) -> Illegal | None:
        if not isinstance(move, DiscsMove):
            return Illegal(_("{move!r} is not a Discs action").format(move=move), "DSC-2")
        if move in self.legal_moves():
            return None
        return self._refusal(move)

    def _refusal(self, move: DiscsMove) -> Illegal:
        """Why ``move`` is illegal here (it is known not to be legal)."""
        k, phase, p = move.kind, self._phase, self._to_move
        if phase == Phase.ARRANGE:
            if k != _ARRANGE:
                return Illegal(
                    _("first {seat} arranges the discs (arrange RGBRGBRGB)").format(
                        seat=self.seat_name(0)), "DSC-1")
            return Illegal(
                _("{layout} is not three discs of each colour (R, G, B)").format(
                    layout=move.layout), "DSC-1")
        if phase == Phase.CHOOSE:
            return Illegal(
                _("{seat} now chooses a pin colour and two corners (choose silver "
                  "a1c3)").format(seat=self.seat_name(1)), "DSC-1")
        if k in (_ARRANGE, _CHOOSE):
            return Illegal(_("the set-up is over"), "DSC-1")
        if phase == Phase.MAIN:
            if k == _STEP:
                return self._step_refusal(move, p)
            if k == _TURN:
                return self._turn_refusal(move, p)
            if k == _PASS:
                return Illegal(
                    _("you may pass only when no pin move or turn is possible"), "DSC-7")
            return Illegal(
                _("first make your main action (move a pin, turn a disc, or pass); "
                  "blocking actions and end come after it"), "DSC-2")
        # phase BLOCK
        if k in (_STEP, _TURN, _PASS):
            return Illegal(
                _("you have made your main action this turn; now lock, bar, or end"), "DSC-2")
        if k in (_LOCK, _UNLOCK):
            if self._lock_done:
                return Illegal(_("a turn holds at most one lock action"), "DSC-3")
            if k == _UNLOCK:
                return Illegal(_("you have no lock to release"), "DSC-3")
            hole = HOLE_NAMES[move.a]
            if self._board[move.a] != p + 1:
                return Illegal(_("you have no pin in {hole} to lock with").format(
                    hole=hole), "DSC-3")
            if move.a % HOLES_PER_DISC == 0:
                return Illegal(
                    _("only a pin in an outer hole can lock a disc; {hole} is a centre").format(
                        hole=hole), "DSC-3")
            return Illegal(_("your pin in {hole} already locks its disc").format(
                hole=hole), "DSC-3")
        if k in (_BAR, _UNBAR):
            if self._bar_done:
                return Illegal(_("a turn holds at most one barrier action"), "DSC-4")
            if k == _UNBAR:
                return Illegal(_("your barrier is not on the board"), "DSC-4")
            text = f"{HOLE_NAMES[move.a]}-{HOLE_NAMES[move.b]}"
            if move.line < 0:
                return Illegal(_("no line joins {text}").format(text=text), "DSC-4")
            return Illegal(_("the line {text} already holds a barrier").format(text=text), "DSC-4")
        return Illegal(_("{move} is not possible now").format(
            move=move), "DSC-2")  # pragma: no cover

    def _step_refusal(self, move: DiscsMove, p: int) -> Illegal:
        src, dst = HOLE_NAMES[move.a], HOLE_NAMES[move.b]
        if self._board[move.a] != p + 1:
            return Illegal(_("you have no pin in {src}").format(src=src), "DSC-2")
        if self._board[move.b]:
            return Illegal(
                _("{dst} is taken; pins only move to empty holes, nothing is captured").format(
                    dst=dst), "DSC-2")
        if move.line >= 0:
            return Illegal(_("a barrier blocks the line {line}").format(
                               line=LINE_NAMES[move.line]), "DSC-4")
        if move.a // HOLES_PER_DISC == move.b // HOLES_PER_DISC:  # not neighbours, or legal
            return Illegal(
                _("{src} and {dst} are not neighbours; a diagonally opposite hole "
                  "takes two moves").format(src=src, dst=dst), "DSC-2")
        return Illegal(_("no line joins {src} and {dst}").format(src=src, dst=dst), "DSC-2")

    def _turn_refusal(self, move: DiscsMove, p: int) -> Illegal:
        d = move.a
        name = DISC_NAMES[d]
        for who in (p, 1 - p):
            lock = self._lock[who]
            if lock >= 0 and lock // HOLES_PER_DISC == d:
                locked = (_("{name} is locked by your pin in {hole}") if who == p
                          else _("{name} is locked by your opponent's pin in {hole}"))
                return Illegal(locked.format(name=name, hole=HOLE_NAMES[lock]), "DSC-3")
        return Illegal(
            _("you may only turn a disc if it moves one of your pins; you have no pin "
              "in an outer hole of {name}").format(name=name), "DSC-2")

    # --- playing ------------------------------------------------------------------------------
    def _snapshot(self) -> _Scalars:
        return _new(_Scalars, (self._phase, self._to_move, self._lock[0], self._lock[1],
                               self._bar[0], self._bar[1], self._tokens[0], self._tokens[1],
                               self._home[0], self._home[1], self._lock_done, self._bar_done,
                               self._earned, self._passes, self._quiet, self._result))

    def _restore(self, s: _Scalars) -> None:
        self._phase = s.phase
        self._to_move = s.to_move
        self._lock = [s.lock0, s.lock1]
        self._bar = [s.bar0, s.bar1]
        self._tokens = [s.tokens0, s.tokens1]
        self._home = [s.home0, s.home1]
        self._lock_done = s.lock_done
        self._bar_done = s.bar_done
        self._earned = s.earned
        self._passes = s.passes
        self._quiet = s.quiet
        self._result = s.result

    def apply_unchecked(self, move: DiscsMove) -> None:
        """Play a legal action. The undo record of a lock or barrier action is the value it
        replaced, an ``int`` (such an action is only legal while its flag for the turn is
        unset); every other action records the whole scalar state, :class:`_Scalars` (and
        ``end`` the key it counted)."""
        k = move.kind
        p = self._to_move
        if k in (_BAR, _UNBAR):
            self._undo.append(self._bar[p])
            self._bar[p] = move.line if k == _BAR else -1
            self._bar_done = True
        elif k in (_LOCK, _UNLOCK):
            self._undo.append(self._lock[p])
            self._lock[p] = move.a if k == _LOCK else -1
            self._lock_done = True
        elif k == _STEP:
            self._undo.append(self._snapshot())
            self._move_pin(p, move.a, move.b, move.line)
            self._passes = 0
            self._phase = _BLOCK
        elif k == _END:
            snap = self._snapshot()
            self._undo.append(_new(_EndUndo, (snap, self._end_turn())))
        elif k == _TURN:
            self._undo.append(self._snapshot())
            self._turn_disc(move.a, move.b)
            self._passes = 0
            self._phase = _BLOCK
        elif k == _PASS:
            self._undo.append(self._snapshot())
            if self._passes:
                self._result = _ended((), "passed")
            self._passes = 1
            self._phase = _BLOCK
        elif k == _ARRANGE:
            self._undo.append(self._snapshot())
            self._colour = [-1] * NUM_DISCS
            for d, letter in zip(ARRANGE_ORDER, move.layout, strict=True):
                self._colour[d] = COLOURS.index(letter)
            self._phase = _CHOOSING
            self._to_move = 1
        else:
            self._undo.append(self._snapshot())
            self._choose(move.a, move.b)
        self._history.append(move)

    def _move_pin(self, p: int, src: int, dst: int, line: int) -> None:
        board = self._board
        board[src] = 0
        board[dst] = p + 1
        pins = self._pins[p]
        pins[pins.index(src)] = dst
        if self._lock[p] == src:  # DSC-3: a moving locking pin releases its lock
            self._lock[p] = -1
        if line < 0:  # a step inside a disc changes no disc's count
            return
        ds, dd = src // HOLES_PER_DISC, dst // HOLES_PER_DISC
        count = self._count[p]
        count[ds] -= 1
        count[dd] += 1
        home = self._home[p]
        if not count[ds] and home >> ds & 1:  # DSC-5: every pin has left a starting disc
            home &= ~(1 << ds)
            self._home[p] = home
        if count[dd] >= TOKENS_TO_EARN and not home >> dd & 1:
            bit = 1 << self._colour[dd]
            tokens = self._tokens[p]
            if not tokens & bit:  # DSC-5: a token of a new colour
                tokens |= bit
                self._tokens[p] = tokens
                self._earned = True
                if tokens == ALL_TOKENS:  # DSC-6: wins at once
                    self._result = _ended((p,), "all", p)

    def _turn_disc(self, disc: int, direction: int) -> None:
        where = TURN_MAPS[direction][disc]
        board = self._board
        base = disc * HOLES_PER_DISC
        before = board[base + 1: base + HOLES_PER_DISC]
        for k, value in enumerate(before, base + 1):
            board[where[k]] = value
        pins = self._pins
        pins[0] = [where[q] for q in pins[0]]
        pins[1] = [where[q] for q in pins[1]]

    def _end_turn(self) -> str:
        """Finish the turn; return the key of the new turn's start position (for undo)."""
        if self._earned:
            self._quiet = 0
        else:
            self._quiet += 1
        self._to_move = 1 - self._to_move
        self._phase = _MAIN
        self._lock_done = self._bar_done = self._earned = False
        key = self._start_key()
        seen = self._reps.get(key, 0) + 1
        self._reps[key] = seen
        limit = self.opts["quiet_limit"]
        if limit and self._quiet >= limit:
            self._result = _ended((), "quiet", limit)
        elif seen >= REPETITION_LIMIT:
            self._result = _ended((), "repeated")
        return key

    def _choose(self, colour: int, pair: int) -> None:
        """DSC-1: player 1 takes ``colour`` and the corner pair; player 0 the other pair."""
        self._silver = 1 if colour == 0 else 0
        for p, corners in ((1, CORNER_PAIRS[pair]), (0, CORNER_PAIRS[1 - pair])):
            for d in corners:
                self._start[p] |= 1 << d
                for k in range(HOLES_PER_DISC):
                    hole = d * HOLES_PER_DISC + k
                    self._board[hole] = p + 1
                    self._pins[p].append(hole)
                self._count[p][d] = PINS_PER_DISC
            self._home[p] = self._start[p]
        self._phase = _MAIN
        self._to_move = 0
        self._reps[self._start_key()] = 1

    def _start_key(self) -> str:
        """The position as DSC-7 compares it at the start of a turn: pins, locks, barriers,
        tokens, starting discs not yet left, and the player to move. As text (it is stored in
        the state's ``seen``): the 45 holes in string order (``.`` empty, ``0``/``1`` a pin),
        then ``|lock`` the two locking holes' numbers, ``|bar`` the two barrier lines' numbers
        (-1: none), ``|tok`` the token bitmasks (R=1, G=2, B=4), ``|home`` the bitmasks of the
        discs not yet left (a1=1, a2=2, a3=4, b1=8, ...), and the player to move."""
        l0, l1 = self._lock
        b0, b1 = self._bar
        return (
            bytes(self._board).translate(_BOARD_TEXT).decode()
            + f"|lock {l0},{l1}|bar {b0},{b1}|tok {self._tokens[0]},{self._tokens[1]}"
            + f"|home {self._home[0]},{self._home[1]}|{self._to_move}"
        )

    def _undo_last(self) -> None:
        move: DiscsMove = self._history[-1]
        record = self._undo.pop()
        k = move.kind
        if isinstance(record, int):  # a lock or barrier action: the value it replaced
            if k in (_BAR, _UNBAR):
                self._bar[self._to_move] = record
                self._bar_done = False
            else:
                self._lock[self._to_move] = record
                self._lock_done = False
            return
        if isinstance(record, _EndUndo):  # end: the count of the new turn's start comes off
            key = record.counted
            seen = self._reps[key] - 1
            if seen:
                self._reps[key] = seen
            else:
                del self._reps[key]
            self._restore(record.scalars)
            return
        if k == _STEP:
            p = record.to_move
            board = self._board
            board[move.b] = 0
            board[move.a] = p + 1
            pins = self._pins[p]
            pins[pins.index(move.b)] = move.a
            if move.line >= 0:
                self._count[p][move.b // HOLES_PER_DISC] -= 1
                self._count[p][move.a // HOLES_PER_DISC] += 1
        elif k == _TURN:
            self._turn_disc(move.a, -move.b)
        elif k == _ARRANGE:
            self._colour = [-1] * NUM_DISCS
        elif k == _CHOOSE:
            self._silver = -1
            self._start = [0, 0]
            self._board = bytearray(NUM_HOLES)
            self._pins = [[], []]
            self._count = [[0] * NUM_DISCS, [0] * NUM_DISCS]
            self._reps = {}
        self._restore(record)

    # --- the end ------------------------------------------------------------------------------
    def outcome(self) -> Outcome | None:
        if self._result is None:
            return None
        winners, reason = self._result.winners, self._result.reason
        if self._result.kind:  # said in the language of whoever asks
            reason = _ending_text(self._result.kind, self._result.n)
        scores = (self._tokens[0].bit_count(), self._tokens[1].bit_count())
        return Outcome(winners, scores, reason)

    def returns(self) -> list[float]:
        if self._result is None or not self._result.winners:
            return [0.0, 0.0]
        w = self._result.winners[0]
        return [1.0 if i == w else -1.0 for i in range(2)]

    # --- copies and serialisation -------------------------------------------------------------
    def clone(self) -> Self:
        g = self._bare_copy()
        g._phase = self._phase
        g._to_move = self._to_move
        g._colour = list(self._colour)
        g._silver = self._silver
        g._start = list(self._start)
        g._board = bytearray(self._board)
        g._pins = [list(self._pins[0]), list(self._pins[1])]
        g._count = [list(self._count[0]), list(self._count[1])]
        g._home = list(self._home)
        g._lock = list(self._lock)
        g._bar = list(self._bar)
        g._tokens = list(self._tokens)
        g._lock_done = self._lock_done
        g._bar_done = self._bar_done
        g._earned = self._earned
        g._passes = self._passes
        g._quiet = self._quiet
        g._reps = dict(self._reps)
        g._result = self._result
        g._undo = list(self._undo)
        return g

    def position_json(self) -> dict[str, Any]:
        """The position. ``discs``: colours of a1, b1, c1, a2, ..., c3 (``?`` before the
        set-up); ``pins``/``start``/``home``/``locks``/``barriers``/``tokens``: per player;
        ``home``: starting discs not yet left (they earn nothing, DSC-5); ``turn``: the
        blocking actions taken in this turn and whether it earned a token; ``passes``: 1 if the
        last turn was a pass; ``quiet_turns``: turns since the last new token; ``seen``: how
        often each start-of-turn position has occurred (DSC-7)."""
        result = None
        if self._result is not None:
            result = {"winners": list(self._result.winners), "reason": self._result.reason}
        return {
            "phase": _PHASE_NAMES[self._phase],
            "to_move": self._to_move,
            "discs": "".join(self.disc_colour(d) for d in ARRANGE_ORDER),
            "silver": self._silver if self._silver >= 0 else None,
            "pins": [sorted(HOLE_NAMES[h] for h in self._pins[p]) for p in (0, 1)],
            "start": [[DISC_NAMES[d] for d in _bits(self._start[p])] for p in (0, 1)],
            "home": [[DISC_NAMES[d] for d in _bits(self._home[p])] for p in (0, 1)],
            "locks": [HOLE_NAMES[h] if h >= 0 else None for h in self._lock],
            "barriers": [LINE_NAMES[b] if b >= 0 else None for b in self._bar],
            "tokens": [self.tokens(p) for p in (0, 1)],
            "turn": {"lock": self._lock_done, "bar": self._bar_done, "token": self._earned},
            "passes": self._passes,
            "quiet_turns": self._quiet,
            "seen": dict(sorted(self._reps.items())),
            "result": result,
        }

    def _load_position(self, data: dict[str, Any]) -> None:
        if not isinstance(data, dict):
            raise StateError(_("the position must be an object"))
        self._setup()
        phase = data.get("phase")
        if phase not in _PHASE_NAMES:
            raise StateError(_("phase must be one of {phase_names}").format(
                                 phase_names=', '.join(_PHASE_NAMES)))
        self._phase = _PHASE_NAMES.index(phase)
        to_move = data.get("to_move")
        if to_move not in (0, 1) or isinstance(to_move, bool):
            raise StateError(_("to_move must be 0 or 1"))
        self._to_move = to_move
        self._load_discs(data.get("discs"))
        if self._phase == Phase.ARRANGE:
            self._expect_setup(data, 0)
            return
        if self._phase == Phase.CHOOSE:
            self._expect_setup(data, 1)
            return
        silver = data.get("silver")
        if silver not in (0, 1) or isinstance(silver, bool):
            raise StateError(_("silver must name the player (0 or 1) with the silver pins"))
        self._silver = silver
        self._load_pins(data)
        self._load_blocks(data)
        self._load_score(data)
        self._load_turn(data)

    def _expect_setup(self, data: dict[str, Any], to_move: int) -> None:
        if self._to_move != to_move:
            raise StateError(_("during the set-up step {phase} player {to_move} is to "
                               "move").format(
                                 phase=_PHASE_NAMES[self._phase], to_move=to_move) + " [DSC-1]")
        if (self._phase == Phase.ARRANGE) != (self._colour[0] < 0):
            raise StateError(_("the discs are arranged exactly when the arrange step "
                               "is over") + " [DSC-1]")
        if any(data.get("pins", [[], []])) or data.get("result") is not None:
            raise StateError(_("no pins are on the board before the set-up ends") + " [DSC-1]")

    def _load_discs(self, text: Any) -> None:
        if text == "?" * NUM_DISCS:
            return
        if not isinstance(text, str) or len(text) != NUM_DISCS or sorted(text) != sorted(
            COLOURS * 3
        ):
            raise StateError(_("discs must be 9 letters, three each of R, G and B") + " [DSC-1]")
        for d, letter in zip(ARRANGE_ORDER, text, strict=True):
            self._colour[d] = COLOURS.index(letter)

    def _load_pins(self, data: dict[str, Any]) -> None:
        if self._colour[0] < 0:
            raise StateError(_("the discs must be arranged once play has begun") + " [DSC-1]")
        pins, start, home = data.get("pins"), data.get("start"), data.get("home")
        for name, value in (("pins", pins), ("start", start), ("home", home)):
            if not isinstance(value, list) or len(value) != 2 or not all(
                isinstance(x, list) and all(isinstance(y, str) for y in x) for x in value
            ):
                raise StateError(_("{name} must be two lists of names, one per player").format(
                                     name=name))
        assert isinstance(pins, list) and isinstance(start, list) and isinstance(home, list)
        for p in (0, 1):
            if len(pins[p]) != PINS_PER_PLAYER:
                raise StateError(_("player {p} must have {pins_per_player} pins").format(
                                     p=p, pins_per_player=PINS_PER_PLAYER) + " [DSC-1]")
            for name in pins[p]:
                h = HOLE_INDEX.get(name)
                if h is None:
                    raise StateError(_("there is no hole {name!r}").format(name=name[:20]))
                if self._board[h]:
                    raise StateError(_("two pins in hole {name}").format(name=name) + " [DSC-2]")
                self._board[h] = p + 1
                self._pins[p].append(h)
                self._count[p][h // HOLES_PER_DISC] += 1
            discs = [DISC_INDEX.get(n, -1) for n in start[p]]
            if tuple(sorted(discs)) not in CORNER_PAIRS:
                raise StateError(_("player {p} must start on a pair of opposite corners").format(
                                     p=p) + " [DSC-1]")
            self._start[p] = sum(1 << d for d in discs)
            for n in home[p]:
                d = DISC_INDEX.get(n, -1)
                if d < 0 or not self._start[p] >> d & 1:
                    raise StateError(_("{n!r} is not a starting disc of player {p}").format(
                                         n=n[:20], p=p) + " [DSC-5]")
                if not self._count[p][d]:
                    raise StateError(_("player {p} has left {n} entirely, so it is not "
                                       "home any more").format(p=p, n=n) + " [DSC-5]")
                self._home[p] |= 1 << d
        if self._start[0] == self._start[1]:
            raise StateError(_("the players start on different pairs of corners") + " [DSC-1]")

    def _load_blocks(self, data: dict[str, Any]) -> None:
        locks, bars = data.get("locks"), data.get("barriers")
        if not isinstance(locks, list) or len(locks) != 2:
            raise StateError(_("locks must be a list of two holes or nulls"))
        if not isinstance(bars, list) or len(bars) != 2:
            raise StateError(_("barriers must be a list of two lines or nulls"))
        for p in (0, 1):
            if locks[p] is not None:
                h = HOLE_INDEX.get(locks[p]) if isinstance(locks[p], str) else None
                if h is None or not h % HOLES_PER_DISC or self._board[h] != p + 1:
                    raise StateError(_("player {p}'s lock must be an own pin in an "
                                       "outer hole").format(p=p) + " [DSC-3]")
                self._lock[p] = h
            if bars[p] is not None:
                if bars[p] not in LINE_NAMES:
                    raise StateError(_("player {p}'s barrier must be on a line such as "
                                       "{line}").format(p=p, line=LINE_NAMES[0]) + " [DSC-4]")
                self._bar[p] = LINE_NAMES.index(bars[p])
        if self._bar[0] >= 0 and self._bar[0] == self._bar[1]:
            raise StateError(_("a line holds at most one barrier") + " [DSC-4]")

    def _load_score(self, data: dict[str, Any]) -> None:
        tokens = data.get("tokens")
        if not isinstance(tokens, list) or len(tokens) != 2 or not all(
            isinstance(t, str) for t in tokens
        ):
            raise StateError(_("tokens must be two strings of colour letters"))
        for p in (0, 1):
            if set(tokens[p]) - set(COLOURS) or len(set(tokens[p])) != len(tokens[p]):
                raise StateError(_("player {p}'s tokens must be distinct letters R, G, "
                                   "B").format(p=p) + " [DSC-5]")
            self._tokens[p] = sum(1 << COLOURS.index(c) for c in tokens[p])
        result = data.get("result")
        if result is None:
            if ALL_TOKENS in self._tokens:
                raise StateError(_("a player holding every colour has won") + " [DSC-6]")
            return
        if not isinstance(result, dict) or not isinstance(result.get("reason"), str):
            raise StateError(_("result must be null or {winners, reason}"))
        winners = result.get("winners")
        if winners not in ([], [0], [1]):
            raise StateError(_("winners must be [], [0] or [1]"))
        assert isinstance(winners, list)
        if winners and self._tokens[winners[0]] != ALL_TOKENS:
            raise StateError(_("a winner holds a token of each colour") + " [DSC-6]")
        if not winners and ALL_TOKENS in self._tokens:
            raise StateError(_("a player holding every colour has won, it is no draw") + " [DSC-6]")
        self._result = _Result(tuple(winners), result["reason"][:200])

    def _load_turn(self, data: dict[str, Any]) -> None:
        turn = data.get("turn")
        if not isinstance(turn, dict) or not all(
            isinstance(turn.get(k), bool) for k in ("lock", "bar", "token")
        ):
            raise StateError(_("turn must be {lock, bar, token} true/false"))
        if self._phase == Phase.MAIN and any(turn.values()):
            raise StateError(_("no blocking action or token before the main action") + " [DSC-2]")
        self._lock_done, self._bar_done, self._earned = turn["lock"], turn["bar"], turn["token"]
        passes, quiet = data.get("passes"), data.get("quiet_turns")
        if passes not in (0, 1) or isinstance(passes, bool):
            raise StateError(_("passes must be 0 or 1"))
        limit = self.opts["quiet_limit"] or None
        if not isinstance(quiet, int) or isinstance(quiet, bool) or quiet < 0 or (
            limit is not None and quiet > limit
        ):
            raise StateError(_("quiet_turns must be from 0 to {limit}").format(
                                 limit=limit) + " [DSC-7]")
        if quiet == limit and self._result is None:
            raise StateError(_("{limit} quiet turns end the game").format(
                                 limit=limit) + " [DSC-7]")
        self._passes, self._quiet = passes, quiet
        seen = data.get("seen")
        if seen is None:  # a drawn position (a diagram): count it once if a turn begins here
            start = self._phase == Phase.MAIN and self._result is None
            seen = {self._start_key(): 1} if start else {}
        if not isinstance(seen, dict) or not all(
            isinstance(k, str) and len(k) < 200 and isinstance(v, int) and not isinstance(v, bool)
            and 1 <= v <= REPETITION_LIMIT for k, v in seen.items()
        ):
            raise StateError(_("seen must map start-of-turn positions to counts 1 to 3")
                + " [DSC-7]")
        if self._result is None and REPETITION_LIMIT in seen.values():
            raise StateError(_("a position seen three times ends the game") + " [DSC-7]")
        self._reps = dict(seen)

    # --- the diagram (see the module docstring) ----------------------------------------------
    def diagram(self) -> str:
        board = self._board
        ranks = []
        for rank in "321":
            discs = []
            for f in "abc":
                d = DISC_INDEX[f + rank]
                base = d * HOLES_PER_DISC
                holes = bytes(board[base:base + HOLES_PER_DISC]).translate(_BOARD_TEXT).decode()
                discs.append(self.disc_colour(d) + holes)
            ranks.append(",".join(discs))

        def pair(values: list[str]) -> str:
            return ",".join(v or "-" for v in values)

        if self._phase >= _MAIN:
            starts = []
            for p in (0, 1):
                names = [DISC_NAMES[d] for d in _bits(self._start[p])]
                starts.append("".join(
                    n.upper() if self._home[p] >> DISC_INDEX[n] & 1 else n for n in names
                ))
            start = ",".join(starts)
        else:
            start = "-"
        flags = "".join(c for c, on in zip("lbt", (self._lock_done, self._bar_done,
                                                   self._earned), strict=True) if on)
        fields = [
            "/".join(ranks),
            f"{self._to_move}{'acmb'[self._phase]}",
            "s" + (str(self._silver) if self._silver >= 0 else "-"),
            start,
            pair([HOLE_NAMES[h] if h >= 0 else "" for h in self._lock]),
            pair([LINE_NAMES[b] if b >= 0 else "" for b in self._bar]),
            pair([self.tokens(p) for p in (0, 1)]),
            flags or "-",
            str(self._passes),
            str(self._quiet),
        ]
        if self._result is not None:
            winners = ",".join(map(str, self._result.winners)) or "-"
            fields += ["over", winners, self._result.reason]
        return " ".join(fields)

    @classmethod
    def _read_diagram(cls, text: str) -> tuple[dict[str, Any], dict[str, str]]:
        fields = text.split(" ")
        if len(fields) < 10 or (len(fields) > 10 and (fields[10] != "over" or len(fields) < 13)):
            raise StateError(
                _("a Discs diagram is the board (rank 3 first, ranks split by '/', "
                  "discs by ','), the player and phase (0m), the silver player (s1), "
                  "the starting discs, locks, barriers, tokens, this turn's flags, "
                  "passes and quiet turns (see rulebox.games.discs.rules)")
            )
        ranks = fields[0].split("/")
        to_phase, silver, start = fields[1], fields[2], fields[3]
        if (
            len(ranks) != 3
            or len(to_phase) != 2
            or to_phase[0] not in "01"
            or to_phase[1] not in "acmb"
            or silver not in ("s-", "s0", "s1")
            or not plain_digits(fields[8])
            or not plain_digits(fields[9])
        ):
            raise StateError(_("not a Discs diagram: {text!r}").format(text=text[:60]))
        colours = {}
        pins: list[list[str]] = [[], []]
        for rank, line in zip("321", ranks, strict=True):
            discs = line.split(",")
            if len(discs) != 3:
                raise StateError(_("rank {rank} of the diagram needs 3 discs, a to c").format(
                                     rank=rank))
            for f, disc in zip("abc", discs, strict=True):
                name = f + rank
                if len(disc) != 1 + HOLES_PER_DISC or set(disc[1:]) - set(".01"):
                    raise StateError(
                        _("disc {name}: {disc!r} is a colour R G B (or ?) and five "
                          "holes c ne nw se sw, each . 0 or 1").format(name=name, disc=disc[:12])
                    )
                colours[name] = disc[0].upper()
                base = DISC_INDEX[name] * HOLES_PER_DISC
                for k, ch in enumerate(disc[1:]):
                    if ch != ".":
                        pins[int(ch)].append(HOLE_NAMES[base + k])

        def pair(token: str) -> list[str | None]:
            parts = token.split(",")
            if len(parts) != 2:
                raise StateError(_("{token!r} must be two values split by ',' (- for "
                                   "none)").format(token=token[:30]))
            return [None if v == "-" else v for v in parts]

        starts: list[list[str]] = [[], []]
        homes: list[list[str]] = [[], []]
        if start != "-":
            for p, text_p in enumerate(pair(start)):
                names = [(text_p or "")[i:i + 2] for i in range(0, len(text_p or ""), 2)]
                starts[p] = [n.lower() for n in names]
                homes[p] = [n.lower() for n in names if n.isupper()]
        tokens = pair(fields[6])
        flags = fields[7]
        if flags != "-" and (set(flags) - set("lbt") or len(set(flags)) != len(flags)):
            raise StateError(_("this turn's flags are some of l b t, or -"))
        position: dict[str, Any] = {
            "phase": _PHASE_NAMES["acmb".index(to_phase[1])],
            "to_move": int(to_phase[0]),
            "discs": "".join(colours[DISC_NAMES[d]] for d in ARRANGE_ORDER),
            "silver": None if silver == "s-" else int(silver[1]),
            "pins": [sorted(p) for p in pins],
            "start": starts,
            "home": homes,
            "locks": pair(fields[4]),
            "barriers": pair(fields[5]),
            "tokens": [t or "" for t in tokens],
            "turn": {"lock": "l" in flags, "bar": "b" in flags, "token": "t" in flags},
            "passes": int(fields[8]),
            "quiet_turns": int(fields[9]),
            "result": None,
        }
        if len(fields) > 10:
            winners = fields[11]
            if winners not in ("-", "0", "1"):
                raise StateError(_("after over comes the winner (0 or 1, - for none) and why"))
            position["result"] = {
                "winners": [] if winners == "-" else [int(winners)],
                "reason": " ".join(fields[12:]),
            }
        return position, {}

    def position_key(self) -> Any:
        return (self._start_key(), self._phase, self._lock_done, self._bar_done, self._earned,
                self._passes, self._quiet, self._result is not None)

    # --- in words (issue 17; the texts live in words.py) ---------------------------------------
    def describe(self, move: Any) -> str:
        return _describe(self, self.as_move(move))

    def highlights(self) -> list[str]:
        return _highlights(self)

    # --- for the renderer and explain -----------------------------------------------------------
    def describe_phase(self) -> str:
        """Whose turn it is and what they may do, in words (the end: who won and why), by the
        seats' names and in the current language."""
        from rulebox.games.discs.render import _phase  # the render imports this module

        return _phase(self)


__all__ = ["Discs", "Phase"]
