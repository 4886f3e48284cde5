"""Count Red (Walter Rehm, 1998 as Gembel): the rules CR-1..CR-13 of RULINGS.md.

The position is kept in flat lists over the 16 fields: the bottom and top piece of each field
(0 for none) and who formed each stack; the locked fields are a bit mask. Caches make move
generation cheap and are updated on every change of a field (``_put``): ``_r[f]`` (red pieces on
``f``) and four bit masks over the fields: empty fields, single red pieces, single black pieces,
and ``_odd``, the fields with an odd number of red pieces around them (the parity is all the
rules ever ask of a count). The generator then finds the targets of a piece with a few mask
operations and turns a mask into moves by table lookup, a byte at a time. ``_key`` packs the
repetition position of CR-12 (both pieces of every field and its lock, 9 bits per field) into
one exact integer.

The legal moves of the player to move are generated once per move and cached: the turn order
needs them anyway, because a player without a legal move is skipped (CR-11).

``illegal_reason`` does not use the caches: it counts from the board, says which rule a move
breaks and why, and so doubles as an independent check of the fast generator (see the tests).

The diagram (:meth:`CountRed.diagram`, read by ``from_diagram`` and the engine's ``load``) is one
line: the board row by row as it is drawn (row 4 first, rows separated by ``/``, fields ``A``-``D``
separated by ``,``), each field's pieces bottom first (``r2`` red 2, ``b3`` black 3, ``.`` an
empty field), then ``:P`` for a stack formed by player P (CR-7) and ``#`` for a locked field
(CR-10); then the player to move, ``e0`` or ``e1`` (the player who moves on even counts, CR-2; it
sets the option ``even``), the moves since the last new three (CR-13), and how often the
current position has occurred (CR-12). Like FEN, the diagram leaves out the earlier positions
of the repetition table; the JSON state keeps them. A finished game ends in ``over``, the
winner (``-`` for none) and the reason. The start with ``even=0 first=0``, and the position
after ``D4-A3`` (player 0 stacks black 0 on black 1)::

    r0,b0,r0,b0/b1,r1,b1,r1/r2,b2,r2,b2/b3,r3,b3,r3 0 e0 0 1
    r0,b0,r0,./b1b0:0,r1,b1,r1/r2,b2,r2,b2/b3,r3,b3,r3 1 e0 1 1
"""

from __future__ import annotations

import functools
import re
from typing import Any, NamedTuple, Self

from rulebox.core.errors import Illegal, StateError
from rulebox.core.game import TERMINAL, Game, Outcome
from rulebox.core.numerals import plain_digits
from rulebox.core.options import choice_option, int_option
from rulebox.core.rng import rng
from rulebox.games.countred.moves import (
    CLAIM,
    COLUMN_FIELDS,
    COLUMNS,
    FIELD_INDEX,
    FIELD_NAMES,
    MOVES,
    NEIGHBOURS,
    NUM_FIELDS,
    NUMBER,
    PIECE_BY_TEXT,
    RED,
    VALUE,
    CountRedMove,
    parse_countred_move,
    piece_text,
    piece_words,
    start_piece,
)
from rulebox.games.countred.words import SEAT_NAMES
from rulebox.games.countred.words import describe as _describe
from rulebox.games.countred.words import highlights as _highlights
from rulebox.i18n import N_, _, ngettext, use_language

FIFTY = 50
"""Moves without a new three that draw the game (CR-13)."""
CLAIM_AT = 3
"""Occurrence of a position from which the player to move may claim a draw (CR-12)."""
DRAW_AT = 5
"""Occurrence of a position that draws the game at once (CR-12)."""

PARITY_WORDS = (N_("even"), N_("odd"))
"""English message ids: translated where shown (``_(PARITY_WORDS[p])``)."""

_FIELD_BITS = 9  # bottom (4 bits), top (4 bits), lock (1 bit)
_ALL = (1 << NUM_FIELDS) - 1
_NEIGHBOUR_MASK = tuple(sum(1 << g for g in NEIGHBOURS[f]) for f in range(NUM_FIELDS))
_VALUE_MASK = tuple(sum(1 << f for f in range(NUM_FIELDS) if VALUE[f] == v) for v in range(4))


def _moves_by_byte(src: int, high: bool) -> tuple[tuple[CountRedMove, ...], ...]:
    """For each byte b: the moves from ``src`` to the fields whose bits are set in b (the low
    or the high 8 fields)."""
    base = 8 if high else 0
    return tuple(
        tuple(MOVES[src][base + i] for i in range(8) if b >> i & 1) for b in range(256)
    )


_LOW = tuple(_moves_by_byte(s, False) for s in range(NUM_FIELDS))
_HIGH = tuple(_moves_by_byte(s, True) for s in range(NUM_FIELDS))
_LOCK_BIT = 1 << 8
_WINDOWS = ((0, 1, 2), (1, 2, 3))  # rows of a column that make a three (CR-10)
_WINDOWS_THROUGH = tuple(tuple(w for w in _WINDOWS if row in w) for row in range(4))
_FIELDS = tuple(range(NUM_FIELDS))
_CELL = re.compile(r"^(\.|(?:[rRbB][0-3]){1,2})(?::([01]))?(#?)$")
_START = "r0,b0,r0,b0/b1,r1,b1,r1/r2,b2,r2,b2/b3,r3,b3,r3 0 e0 0 1"


class _ThreeUndo(NamedTuple):
    """What a new three (CR-10) changed beyond the move: the locks and the repetition table
    before it (the table starts afresh after a three)."""

    locks: int
    seen: dict[int, int]


class _MoveUndo(NamedTuple):
    """The undo record of a move (make/unmake): both fields as they were, who moved, the
    legal moves and the fifty-move count before, and what the move changed in the repetition
    table (CR-12): the key it counted (-1: none, the game ended) or, after a new three, the
    table it replaced."""

    legal: list[CountRedMove]
    src: int
    src_bottom: int
    src_top: int
    src_former: int
    dst: int
    dst_bottom: int
    dst_top: int
    dst_former: int
    player: int
    fifty: int
    counted: int
    three: _ThreeUndo | None


_new = tuple.__new__
"""Builds a record without the NamedTuple's Python-level ``__new__`` (about 0.25 us less a move,
on the search's hot path): ``_new(_MoveUndo, (values in field order))``."""


class _ClaimUndo(NamedTuple):
    """The undo record of a draw claim (CR-12): only the legal moves before it."""

    legal: list[CountRedMove]


class CountRed(Game):
    """A game of Count Red. The pieces belong to no one; each player has a parity (CR-2)."""

    id = "countred"
    title = "Count Red"
    player_counts = (2,)
    option_specs = (
        int_option("first", None, N_("who moves first (CR-2; drawn from the seed if omitted)"),
                   0, 1),
        int_option(
            "even", None, N_("who moves on even counts (CR-2; drawn from the seed if omitted)"),
            0, 1
        ),
        choice_option(
            "stack_lift",
            "seed",
            N_("lifting from a stack (CR-5): seed = the stack's red count must have the "
               "former's parity; free = the former may always lift"),
            ("seed", "free"),
        ),
    )
    # At most one three per column (a second one would be a four), so at most 4 threes; each
    # is followed by at most 50 moves (CR-13); one more move for a claim.
    max_moves = 5 * FIFTY + 1
    return_bounds = (-1.0, 1.0)
    seat_names = SEAT_NAMES

    # --- setup --------------------------------------------------------------------------------
    def _setup(self) -> None:
        draw = rng(self.opts["seed"], "countred", "start")
        first, even = draw.randrange(2), draw.randrange(2)
        if self.opts.get("first") is None:
            self.opts["first"] = first
        if self.opts.get("even") is None:
            self.opts["even"] = even
        even_player = self.opts["even"]
        self._parity: tuple[int, int] = (0, 1) if even_player == 0 else (1, 0)
        self._strict: bool = self.opts["stack_lift"] == "seed"
        self._clear()
        for f in _FIELDS:
            self._put(f, start_piece(f), 0)
        self._resolve_turn(self.opts["first"])

    def _clear(self) -> None:
        """An empty board with no history (the start of ``_setup`` and ``_load_position``)."""
        self._bot: list[int] = [0] * NUM_FIELDS
        self._top: list[int] = [0] * NUM_FIELDS
        self._former: list[int] = [-1] * NUM_FIELDS
        self._locks: int = 0  # bit f: field f is locked
        self._r: list[int] = [0] * NUM_FIELDS
        self._empty: int = _ALL  # bit masks over the fields, see the module docstring
        self._single_red: int = 0
        self._single_black: int = 0
        self._odd: int = 0
        self._key: int = 0
        self._to_move: int = 0
        self._fifty: int = 0
        self._seen: dict[int, int] = {}
        self._legal: list[CountRedMove] = []
        self._over: Outcome | None = None
        self._end: tuple[str, int, int, int] = ("", 0, 0, 0)
        """How the game ended (kind, seat, count, colour): the reason is said from it in the
        language of whoever asks (:func:`_ending_text`); ``_over`` keeps the English."""
        self._undo_stack: list[_MoveUndo | _ClaimUndo] = []

    def _put(self, f: int, bottom: int, top: int) -> None:
        """Set the pieces of field ``f`` and keep the caches and the key up to date."""
        reds = RED[bottom] + RED[top]
        if (reds ^ self._r[f]) & 1:
            self._odd ^= _NEIGHBOUR_MASK[f]
        self._r[f] = reds
        self._key ^= ((self._bot[f] | self._top[f] << 4) ^ (bottom | top << 4)) << (
            _FIELD_BITS * f
        )
        self._bot[f] = bottom
        self._top[f] = top
        bit = 1 << f
        keep = ~bit
        empty, red, black = self._empty & keep, self._single_red & keep, self._single_black & keep
        if not bottom:
            empty |= bit
        elif not top:
            if reds:
                red |= bit
            else:
                black |= bit
        self._empty, self._single_red, self._single_black = empty, red, black

    # --- reading the position -----------------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if self._over is not None else self._to_move

    def parity(self, player: int) -> int:
        """0 if ``player`` moves on even counts, 1 if on odd counts (CR-2)."""
        return self._parity[player]

    def pieces(self, field: int) -> tuple[int, ...]:
        """The pieces on a field, bottom first (piece codes of :mod:`.moves`)."""
        b, t = self._bot[field], self._top[field]
        return (b, t) if t else (b,) if b else ()

    def former(self, field: int) -> int | None:
        """Who formed the stack on ``field`` (CR-7), or ``None`` if it holds no stack."""
        return self._former[field] if self._top[field] else None

    def is_locked(self, field: int) -> bool:
        """Whether ``field`` is locked by a three (CR-10)."""
        return bool(self._locks >> field & 1)

    def moves_without_three(self) -> int:
        """Moves played since the last new three (CR-13 draws at 50)."""
        return self._fifty

    def occurrences(self) -> int:
        """How often the current position has occurred (CR-12)."""
        return self._seen.get(self._full_key(), 0)

    def _full_key(self) -> int:
        return (self._key << 1) | self._to_move

    def red_count(self, field: int) -> int:
        """Red pieces on ``field`` (0, 1 or 2), counted from the board."""
        return RED[self._bot[field]] + RED[self._top[field]]

    # --- fast move generation ---------------------------------------------------------------
    def _generate(self, player: int) -> list[CountRedMove]:
        """Every legal move of ``player`` in this position (CR-3..CR-8), from the caches.

        A count's parity is the parity of the red pieces around a field (``_odd``) plus the
        moved piece if red; for a target next to the source, the moved red piece no longer
        counts there, which flips that parity (CR-6).
        """
        par = self._parity[player]
        odd = self._odd
        even = ~odd & _ALL
        mine, other = (odd, even) if par else (even, odd)  # around-counts of my parity or not
        red, black = self._single_red, self._single_black
        # CR-4: a single piece counts the red around it, plus itself if red; not if locked
        sources = ((black & mine) | (red & other)) & ~self._locks
        # CR-5: the top of a stack, only by its former (and with his parity unless free)
        top, former, r = self._top, self._former, self._r
        stacks = _ALL & ~(self._empty | red | black)
        while stacks:
            low = stacks & -stacks
            s = low.bit_length() - 1
            if former[s] == player and not (self._strict and (r[s] & 1) != par):
                sources |= low
            stacks ^= low
        empty, bot = self._empty, self._bot
        # CR-7: a red piece needs a single of red count 1 - par, a black one of red count par
        onto_for_red, onto_for_black = (black, red) if par else (red, black)
        out: list[CountRedMove] = []
        while sources:
            low = sources & -sources
            s = low.bit_length() - 1
            sources ^= low
            p = top[s] or bot[s]
            free = empty & _VALUE_MASK[NUMBER[p]]  # CR-6: the number matches the value
            if RED[p]:
                near = _NEIGHBOUR_MASK[s]
                targets = (free & near & mine) | (free & ~near & other) | onto_for_red
            else:
                targets = (free & mine) | onto_for_black
            targets &= ~low
            out += _LOW[s][targets & 255]
            out += _HIGH[s][targets >> 8]
        return out

    def legal_moves(self) -> list[CountRedMove]:
        return list(self._legal)

    def parse_move(self, text: str) -> CountRedMove:
        return parse_countred_move(text)

    # --- the turn -------------------------------------------------------------------------------
    def _resolve_turn(self, candidate: int) -> int:
        """Give the turn to ``candidate``, or skip them (CR-11); count the position (CR-12).

        Returns the full repetition key recorded, or -1 if the game ended without one.
        """
        moves = self._generate(candidate)
        if not moves:
            candidate ^= 1
            moves = self._generate(candidate)
            if not moves:
                self._to_move = candidate ^ 1
                self._legal = []
                self._over = self._ended((), "stuck")
                return -1
        self._to_move = candidate
        key = (self._key << 1) | candidate
        seen = self._seen
        n = seen.get(key, 0) + 1
        seen[key] = n
        if n >= CLAIM_AT:
            if n >= DRAW_AT:
                self._legal = []
                self._over = self._ended((), "repeated", n=n)
                return key
            moves.append(CLAIM)
        self._legal = moves
        return key

    def apply_unchecked(self, move: CountRedMove) -> None:
        s, t = move.src, move.dst
        p = self._to_move
        if s < 0:  # claim (CR-12)
            self._undo_stack.append(_ClaimUndo(self._legal))
            n = self._seen.get(self._full_key(), 0)
            self._over = self._ended((), "claimed", p=p, n=n)
            self._legal = []
            self._history.append(move)
            return
        bot, top, former = self._bot, self._top, self._former
        sb, st, sf, tb, tt, tf = bot[s], top[s], former[s], bot[t], top[t], former[t]
        legal, fifty = self._legal, self._fifty
        counted = -1
        three: _ThreeUndo | None = None
        if st:
            piece = st
            self._put(s, sb, 0)
            former[s] = -1
        else:
            piece = sb
            self._put(s, 0, 0)
        self._history.append(move)
        if tb:  # stacking (CR-7)
            self._put(t, tb, piece)
            former[t] = p
        else:  # a new base: a four (CR-9) or a three (CR-10) can only come from this
            self._put(t, piece, 0)
            column = COLUMN_FIELDS[t & 3]
            colours = [RED[bot[f]] if bot[f] else -1 for f in column]
            c = colours[t >> 2]
            if colours.count(c) == 4:
                self._over = self._ended((p,), "four", p=p, n=t & 3, c=c)
                self._legal = []
                self._undo_stack.append(
                    _MoveUndo(legal, s, sb, st, sf, t, tb, tt, tf, p, fifty, counted, three))
                return
            # Only a window through the new base can be a new three; its field was empty, so
            # it was not locked, and "not all three locked before" (CR-10) always holds.
            row = t >> 2
            for window in _WINDOWS_THROUGH[row]:
                if colours[window[0]] == colours[window[1]] == colours[window[2]] == c:
                    three = _ThreeUndo(self._locks, self._seen)
                    for i in window:
                        f = column[i]
                        if not self._locks >> f & 1:
                            self._locks |= 1 << f
                            self._key ^= _LOCK_BIT << (_FIELD_BITS * f)
                    self._seen = {}
                    self._fifty = 0
                    counted = self._resolve_turn(p)  # the bonus move (CR-10, CR-11)
                    self._undo_stack.append(
                        _MoveUndo(legal, s, sb, st, sf, t, tb, tt, tf, p, fifty, counted, three))
                    return
        self._fifty += 1
        if self._fifty >= FIFTY:
            self._over = self._ended((), "fifty")
            self._legal = []
            self._to_move = p ^ 1
        else:
            counted = self._resolve_turn(p ^ 1)
        self._undo_stack.append(  # the common case, built without __new__ (see _new)
            _new(_MoveUndo, (legal, s, sb, st, sf, t, tb, tt, tf, p, fifty, counted, three)))

    def _undo_last(self) -> None:
        record = self._undo_stack.pop()
        self._over = None
        self._legal = record.legal
        if isinstance(record, _ClaimUndo):
            return
        three = record.three
        if three is not None:  # a three: the locks and the repetition table come back
            locks = three.locks
            for f in _FIELDS:
                if (self._locks ^ locks) >> f & 1:
                    self._key ^= _LOCK_BIT << (_FIELD_BITS * f)
            self._locks = locks
            self._seen = dict(three.seen)
        else:
            key = record.counted
            if key >= 0:
                n = self._seen[key] - 1
                if n:
                    self._seen[key] = n
                else:
                    del self._seen[key]
        t, s = record.dst, record.src
        self._put(t, record.dst_bottom, record.dst_top)
        self._former[t] = record.dst_former
        self._put(s, record.src_bottom, record.src_top)
        self._former[s] = record.src_former
        self._to_move = record.player
        self._fifty = record.fifty

    # --- checking a move, with reasons (independent of the caches) ------------------------------
    def illegal_reason(self, move: Any) -> Illegal | None:
        if not isinstance(move, CountRedMove):
            return Illegal(_("{move!r} is not a Count Red move").format(move=move), "CR-3")
        if move.is_claim:
            n = self.occurrences()
            if n < CLAIM_AT:
                return Illegal(
                    _("a draw can be claimed when the position occurs for the third "
                      "time; this one has occurred {times}").format(times=_times(n)),
                    "CR-12",
                )
            return None
        return self.why_illegal(self._to_move, move.src, move.dst)

    def lift_count(self, s: int) -> tuple[int, str]:
        """The count for lifting the top piece of ``s`` (CR-4 or CR-5) and how it comes out."""
        if self._top[s]:
            n = self.red_count(s)
            return n, _("the stack itself, no neighbours")
        piece = self._bot[s]
        around = sum(self.red_count(g) for g in NEIGHBOURS[s])
        if RED[piece]:
            return around + 1, _("{n} on the neighbouring fields + the piece itself").format(
                n=around)
        return around, _("on the neighbouring fields; the black piece itself does not count")

    def set_count(self, s: int, t: int) -> tuple[int, str]:
        """The count for setting the top piece of ``s`` on ``t`` (CR-6 or CR-7)."""
        piece = self._top[s] or self._bot[s]
        red = RED[piece]
        if self._bot[t]:
            n = red + self.red_count(t)
            return n, _("the new stack, no neighbours")
        around = sum(self.red_count(g) - (red if g == s else 0) for g in NEIGHBOURS[t])
        if red:
            return around + red, _("{n} around {field} after the move + the piece itself").format(
                n=around, field=FIELD_NAMES[t])
        return around, _("{n} around {field} after the move; the black piece itself does not "
                         "count").format(n=around, field=FIELD_NAMES[t])

    def why_illegal(self, player: int, s: int, t: int) -> Illegal | None:
        """An :class:`Illegal` (reason, rule) if ``player`` may not move the top piece of ``s``
        to ``t``, else ``None`` (CR-8: both the lift and the setting must be legal). Counts from
        the board itself, not from the generator's caches."""
        src, dst = FIELD_NAMES[s], FIELD_NAMES[t]
        if s == t:
            return Illegal(_("a move from {src} to {src} is not a move").format(src=src), "CR-3")
        if self._top[t]:
            return Illegal(_("{dst} already holds two pieces; a field holds at most 2").format(
                               dst=dst), "CR-3")
        return self.lift_problem(player, s) or self.set_problem(player, s, t)

    def lift_problem(self, player: int, s: int) -> Illegal | None:
        """An :class:`Illegal` (reason, rule) if ``player`` may not lift the top piece of ``s``
        (CR-4, CR-5)."""
        src = FIELD_NAMES[s]
        if not self._bot[s]:
            return Illegal(_("there is no piece on {src}").format(src=src), "CR-3")
        piece = self._top[s] or self._bot[s]
        n, how = self.lift_count(s)  # the words only for a refusal: a legal move needs none
        if self._top[s]:
            if self._former[s] != player:
                return Illegal(
                    _("only the player who formed the stack on {src} ({former}) may lift its "
                      "top piece").format(src=src, former=self.seat_name(self._former[s])),
                    "CR-5",
                )
            if self._strict and n % 2 != self._parity[player]:
                return Illegal(
                    _("lifting the {name:acc} from the stack on {src} counts {reds} "
                      "({how}): {parity_word}, but you move on {mine} counts").format(
                        name=piece_words(piece), src=src, reds=_reds(n), how=how,
                        parity_word=_(PARITY_WORDS[n % 2]),
                        mine=_(PARITY_WORDS[self._parity[player]])),
                    "CR-5",
                )
            return None
        if self.is_locked(s):
            return Illegal(
                _("{src} is locked and holds a single piece, which cannot be lifted").format(
                    src=src), "CR-4")
        if n % 2 != self._parity[player]:
            return Illegal(
                _("lifting the {name:acc} from {src} counts {reds} ({how}): {parity_word}, "
                  "but you move on {mine} counts").format(
                    name=piece_words(piece), src=src, reds=_reds(n), how=how,
                    parity_word=_(PARITY_WORDS[n % 2]),
                    mine=_(PARITY_WORDS[self._parity[player]])),
                "CR-4",
            )
        return None

    def set_problem(self, player: int, s: int, t: int) -> Illegal | None:
        """An :class:`Illegal` (reason, rule) if ``player`` may not set the top piece of ``s`` on
        ``t`` once lifted (CR-6, CR-7); ``t`` is another field holding at most one piece."""
        dst = FIELD_NAMES[t]
        piece = self._top[s] or self._bot[s]
        if not self._bot[t] and NUMBER[piece] != VALUE[t]:
            return Illegal(
                _("the {name:nom} may only be set on an empty field worth {number}; {dst} "
                  "is worth {value}").format(
                    name=piece_words(piece), number=NUMBER[piece], dst=dst, value=VALUE[t]),
                "CR-6",
            )
        n, how = self.set_count(s, t)
        if n % 2 == self._parity[player]:
            return None
        if self._bot[t]:
            what = _("stacking the {name:acc} on the {below:acc} at {dst}").format(
                name=piece_words(piece), below=piece_words(self._bot[t]), dst=dst)
            rule = "CR-7"
        else:
            what = _("setting the {name:acc} on {dst}").format(name=piece_words(piece), dst=dst)
            rule = "CR-6"
        return Illegal(
            _("{what} counts {reds} ({how}): {parity_word}, but you move on "
              "{parity_word2} counts").format(
                what=what, reds=_reds(n), how=how, parity_word=_(PARITY_WORDS[n % 2]),
                parity_word2=_(PARITY_WORDS[self._parity[player]])),
            rule,
        )

    # --- the end --------------------------------------------------------------------------------
    def outcome(self) -> Outcome | None:
        over = self._over
        if over is None or not self._end[0]:
            return over
        return Outcome(over.winners, None, _ending_text(*self._end), over.rule)

    def _ended(self, winners: tuple[int, ...], kind: str, p: int = 0, n: int = 0,
               c: int = 0) -> Outcome:
        """The ending ``kind`` (see :func:`_ending_text`) kept to be said in any language; the
        outcome made here says it in English (the position's JSON and text keep that)."""
        self._end = (kind, p, n, c)
        with use_language("en"):
            return Outcome(winners, None, _ending_text(kind, p, n, c), ENDING_RULES[kind])

    def returns(self) -> list[float]:
        out = self._over
        if out is None or not out.winners:
            return [0.0, 0.0]
        w = out.winners[0]
        return [1.0 if i == w else -1.0 for i in range(2)]

    # --- copies and serialisation ---------------------------------------------------------------
    def clone(self) -> Self:
        g = self._bare_copy()
        g._parity = self._parity
        g._strict = self._strict
        g._bot = list(self._bot)
        g._top = list(self._top)
        g._former = list(self._former)
        g._locks = self._locks
        g._r = list(self._r)
        g._empty = self._empty
        g._single_red = self._single_red
        g._single_black = self._single_black
        g._odd = self._odd
        g._key = self._key
        g._to_move = self._to_move
        g._fifty = self._fifty
        g._seen = dict(self._seen)
        g._legal = self._legal  # never changed in place
        g._over = self._over
        g._end = self._end
        g._undo_stack = list(self._undo_stack)  # records are never changed; undo copies `seen`
        return g

    def position_json(self) -> dict[str, Any]:
        """``fields``: each field's pieces bottom first (``r2`` red 2, ``b3`` black 3);
        ``formed_by``: who formed each stack; ``locked``: the locked fields; ``fifty``: moves
        since the last three; ``seen``: how often each position since the last three occurred
        (in the text of :func:`position_text`); ``over``: the result once the game has ended."""
        over = self._over
        return {
            "to_move": self._to_move,
            "fields": {
                FIELD_NAMES[f]: [piece_text(p) for p in self.pieces(f)] for f in _FIELDS
            },
            "formed_by": {FIELD_NAMES[f]: self._former[f] for f in _FIELDS if self._top[f]},
            "locked": [FIELD_NAMES[f] for f in _FIELDS if self.is_locked(f)],
            "fifty": self._fifty,
            "seen": {position_text(k): n for k, n in sorted(self._seen.items())},
            "over": None
            if over is None
            else {"winners": list(over.winners), "reason": over.reason},
        }

    # --- the diagram (see the module docstring) ----------------------------------------------
    def diagram(self) -> str:
        rows = []
        for row in reversed(range(4)):
            cells = []
            for col in range(4):
                f = row * 4 + col
                cell = "".join(piece_text(p) for p in self.pieces(f)) or "."
                if self._top[f]:
                    cell += f":{self._former[f]}"
                if self.is_locked(f):
                    cell += "#"
                cells.append(cell)
            rows.append(",".join(cells))
        text = (f"{'/'.join(rows)} {self._to_move} e{self._parity.index(0)} {self._fifty} "
                f"{self.occurrences()}")
        over = self._over
        if over is not None:
            winners = ",".join(map(str, over.winners)) or "-"
            text += f" over {winners} {over.reason}"
        return text

    @classmethod
    def _read_diagram(cls, text: str) -> tuple[dict[str, Any], dict[str, str]]:
        fields = text.split(" ")
        rows = fields[0].split("/")
        if (
            len(fields) < 5
            or len(rows) != 4
            or fields[1] not in ("0", "1")
            or fields[2] not in ("e0", "e1")
            or not plain_digits(fields[3])
            or not plain_digits(fields[4])
            or (len(fields) > 5 and (fields[5] != "over" or len(fields) < 8))
        ):
            raise StateError(
                _("a Count Red diagram is the board (row 4 first, rows split by '/', "
                  "fields by ','), the player to move, e0 or e1 (who moves on even "
                  "counts), the moves since the last three and the occurrences of the "
                  "position, e.g. {start!r}").format(start=_START)
            )
        board: dict[str, list[str]] = {}
        formed: dict[str, int] = {}
        locked: list[str] = []
        key_rows = []
        for row, line in zip("4321", rows, strict=True):
            cells = line.split(",")
            if len(cells) != 4:
                raise StateError(_("row {row} of the diagram needs 4 fields, A to D: "
                                   "{line!r}").format(row=row, line=line[:40]))
            key_cells = []
            for col, cell in zip(COLUMNS, cells, strict=True):
                name = col + row
                m = _CELL.match(cell)
                if not m:
                    raise StateError(
                        _("{name}: {cell!r} is not a field (pieces such as r2 or b3r2, "
                          "then :P for a stack's former and # if locked; . for empty)").format(
                            name=name, cell=cell[:20])
                    )
                pieces, former, lock = m.group(1), m.group(2), m.group(3)
                pieces = "" if pieces == "." else pieces.lower()
                board[name] = [pieces[i:i + 2] for i in range(0, len(pieces), 2)]
                if former is not None:
                    formed[name] = int(former)
                if lock:
                    locked.append(name)
                key_cells.append(pieces + lock)
            key_rows.append(",".join(key_cells))
        position: dict[str, Any] = {
            "to_move": int(fields[1]),
            "fields": board,
            "formed_by": formed,
            "locked": locked,
            "fifty": int(fields[3]),
            "seen": {"/".join(reversed(key_rows)) + f" {fields[1]}": int(fields[4])}
            if fields[4] != "0" else {},  # a finished game may not have counted its position
            "over": None,
        }
        if len(fields) > 5:
            winners = fields[6]
            if winners not in ("-", "0", "1"):
                raise StateError(_("after over comes the winner (0 or 1, - for none) and why"))
            position["over"] = {
                "winners": [] if winners == "-" else [int(winners)],
                "reason": " ".join(fields[7:]),
            }
        return position, {"even": fields[2][1]}

    def _load_position(self, data: dict[str, Any]) -> None:
        if not isinstance(data, dict):
            raise StateError(_("the position must be an object"))
        unknown = set(data) - {"to_move", "fields", "formed_by", "locked", "fifty", "seen", "over"}
        if unknown:
            raise StateError(_("unknown keys in the position: {unknown}").format(
                                 unknown=', '.join(sorted(unknown))))
        self._clear()
        to_move = data.get("to_move")
        if to_move not in (0, 1) or isinstance(to_move, bool):
            raise StateError(_("to_move must be 0 or 1"))
        fields = data.get("fields")
        if not isinstance(fields, dict) or set(fields) - set(FIELD_NAMES):
            raise StateError(_("fields must map field names A1..D4 to lists of pieces"))
        count: dict[int, int] = {}
        for f in _FIELDS:
            items = fields.get(FIELD_NAMES[f], [])
            if not isinstance(items, list) or len(items) > 2:
                raise StateError(_("{field}: at most 2 pieces, as a list").format(
                                     field=FIELD_NAMES[f]) + " [CR-3]")
            codes = []
            for item in items:
                if not isinstance(item, str) or item.lower() not in PIECE_BY_TEXT:
                    raise StateError(_("{field}: bad piece {item!r} (r0..r3, b0..b3)").format(
                                         field=FIELD_NAMES[f], item=item))
                code = PIECE_BY_TEXT[item.lower()]
                codes.append(code)
                count[code] = count.get(code, 0) + 1
            codes += [0, 0]
            self._put(f, codes[0], codes[1])
        for f in _FIELDS:
            if self._bot[f] and NUMBER[self._bot[f]] != VALUE[f]:
                raise StateError(
                    _("the bottom piece on {field} is a {piece_words:nom}; a piece only "
                      "comes to rest on an empty field of its own value, {value}").format(
                        field=FIELD_NAMES[f], piece_words=piece_words(self._bot[f]),
                        value=VALUE[f]) + " [CR-1, CR-6]"
                )
        if any(count.get(p, 0) != 2 for p in PIECE_BY_TEXT.values()):
            raise StateError(
                _("the board must hold the 16 pieces, two of each colour and number") + " [CR-1]"
            )
        formed = data.get("formed_by", {})
        if not isinstance(formed, dict) or set(formed) - set(FIELD_NAMES):
            raise StateError(_("formed_by must map stacked fields to players"))
        for f in _FIELDS:
            who = formed.get(FIELD_NAMES[f])
            if self._top[f]:
                if who not in (0, 1) or isinstance(who, bool):
                    raise StateError(_("the stack on {field} needs its former (0 or 1)").format(
                                         field=FIELD_NAMES[f]))
                self._former[f] = who
            elif who is not None:
                raise StateError(_("{field} holds no stack, so no one formed one there").format(
                                     field=FIELD_NAMES[f]))
        locked = data.get("locked", [])
        if not isinstance(locked, list) or not all(
            isinstance(x, str) and x.upper() in FIELD_INDEX for x in locked
        ):
            raise StateError(_("locked must be a list of field names"))
        for name in locked:
            f = FIELD_INDEX[name.upper()]
            if not self._bot[f]:
                raise StateError(_("the locked field {name} must hold a piece").format(
                                     name=name) + " [CR-10]")
            if not self.is_locked(f):
                self._locks |= 1 << f
                self._key ^= _LOCK_BIT << (_FIELD_BITS * f)
        self._check_locks()
        fifty = data.get("fifty", 0)
        if not isinstance(fifty, int) or isinstance(fifty, bool) or not 0 <= fifty <= FIFTY:
            raise StateError(_("fifty must be a whole number from 0 to {fifty}").format(
                                 fifty=FIFTY) + " [CR-13]")
        self._fifty = fifty
        self._to_move = to_move
        over = data.get("over")
        four = self._four()
        if over is not None:
            self._load_over(over, four)
        elif four is not None:
            raise StateError(_("column {column} holds a four, so the game is over").format(
                                 column=COLUMNS[four]) + " [CR-9]")
        elif fifty >= FIFTY:
            raise StateError(_("after {fifty} moves without a three the game is over").format(
                                 fifty=FIFTY) + " [CR-13]")
        seen = data.get("seen")
        if seen is None:
            seen = {position_text(self._full_key()): 1}
        if not isinstance(seen, dict):
            raise StateError(_("seen must map positions to how often they occurred"))
        for text, n in seen.items():
            if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= DRAW_AT:
                raise StateError(_("seen: occurrences must be 1 to {draw_at}").format(
                                     draw_at=DRAW_AT))
            self._seen[parse_position_text(text)] = n
        if over is not None:
            return
        legal = self._generate(to_move)
        if not legal:
            raise StateError(
                _("player {to_move} is to move but has no legal move; such a player is "
                  "skipped").format(to_move=to_move) + " [CR-11]"
            )
        n = self._seen.get(self._full_key(), 0)
        if not 1 <= n < DRAW_AT:
            raise StateError(
                _("seen must count the current position (1 to 4 times; the fifth draws)")
                    + " [CR-12]"
            )
        if n >= CLAIM_AT:
            legal.append(CLAIM)
        self._legal = legal

    def _load_over(self, over: Any, four: int | None) -> None:
        if not isinstance(over, dict) or not isinstance(over.get("reason"), str):
            raise StateError(_("over must be null or {winners, reason}"))
        winners = over.get("winners")
        if winners not in ([], [0], [1]):
            raise StateError(_("over.winners must be [], [0] or [1]"))
        if winners and four is None:
            raise StateError(_("a game is won only by a four, and the board holds none")
                + " [CR-9]")
        rule = next((r for r in ENDING_RULES.values() if f"[{r}]" in over["reason"]), None)
        self._over = Outcome(tuple(winners), None, over["reason"], rule)
        self._end = ("", 0, 0, 0)  # a loaded reason is said as it was saved

    def _four(self) -> int | None:
        """The column holding four bases of one colour, if any (CR-9)."""
        for col, column in enumerate(COLUMN_FIELDS):
            colours = {RED[self._bot[f]] if self._bot[f] else -1 for f in column}
            if len(colours) == 1 and -1 not in colours:
                return col
        return None

    def _check_locks(self) -> None:
        """Locks come only from threes: every locked field is part of three locked fields with
        bases of one colour in a column, and every such three is locked (CR-10)."""
        covered = [False] * NUM_FIELDS
        for column in COLUMN_FIELDS:
            for window in _WINDOWS:
                fields = [column[i] for i in window]
                colours = {RED[self._bot[f]] if self._bot[f] else -1 for f in fields}
                if len(colours) == 1 and -1 not in colours:
                    if not all(self.is_locked(f) for f in fields) and self._four() is None:
                        names = ", ".join(FIELD_NAMES[f] for f in fields)
                        raise StateError(_("the three on {names} must be locked").format(
                                             names=names) + " [CR-10]")
                    for f in fields:
                        covered[f] = True
        for f in _FIELDS:
            if self.is_locked(f) and not covered[f]:
                raise StateError(_("{field} is locked but is part of no three").format(
                                     field=FIELD_NAMES[f]) + " [CR-10]")

    def position_key(self) -> Any:
        """The repetition position of CR-12 plus who formed each stack (it decides who may
        unstack)."""
        return self._full_key(), tuple(self._former[f] for f in _FIELDS if self._top[f])

    # --- in words (issue 17; the texts live in words.py) ---------------------------------------
    def describe(self, move: Any) -> str:
        return _describe(self, self.as_move(move))

    def highlights(self) -> list[str]:
        return _highlights(self)


ENDING_RULES = {"stuck": "CR-11", "repeated": "CR-12", "claimed": "CR-12", "four": "CR-9",
                "fifty": "CR-13"}
"""The rule that ends the game in each kind of ending (:func:`_ending_text` says it)."""


def _ending_text(kind: str, p: int, n: int, c: int) -> str:
    """An ending's reason in the current language, the rule ID outside the translated text:
    ``stuck`` (CR-11), ``repeated`` ``n`` times and ``claimed`` by ``p`` after ``n`` (CR-12),
    ``four`` of colour ``c`` (1: red) in column ``n`` made by ``p`` (CR-9), ``fifty`` (CR-13)."""
    if kind == "stuck":
        return _("neither player can move") + " [CR-11]"
    if kind == "repeated":
        # DRAW_AT is 5: the fifth occurrence draws (no other count ends a game)
        return _("the same position occurred for the fifth time") + " [CR-12]"
    if kind == "claimed":
        return ngettext("{seat} claimed a draw: the position occurred {n} time",
                        "{seat} claimed a draw: the position occurred {n} times",
                        n).format(seat=_(SEAT_NAMES[p]), n=n) + " [CR-12]"
    if kind == "four":
        # a colour with a number agrees with it: one sentence per colour
        return (_("{seat} made four red in column {column}") if c else
                _("{seat} made four black in column {column}")).format(
            seat=_(SEAT_NAMES[p]), column=COLUMNS[n]) + " [CR-9]"
    return _("{fifty} moves without a new three").format(fifty=FIFTY) + " [CR-13]"


def _times(n: int) -> str:
    if n == 0:
        return _("never")
    if n == 1:
        return _("once")
    if n == 2:
        return _("twice")
    return ngettext("{n} time", "{n} times", n).format(n=n)


def _reds(n: int) -> str:
    return ngettext("{n} red piece", "{n} red pieces", n).format(n=n)


@functools.lru_cache(maxsize=1 << 14)  # a pure function of the key; states repeat it often
def position_text(full_key: int) -> str:
    """A repetition key (CR-12) as text: rows 1 to 4 separated by ``/``, fields A to D by ``,``,
    each field's pieces bottom first, ``#`` if locked, then the player to move:
    ``b3,r3,b3,r3/r2,b2,r2,b2/b1,r1,b1,r1/r0,b0,r0,b0 0``."""
    to_move, key = full_key & 1, full_key >> 1
    rows = []
    for row in range(4):
        cells = []
        for col in range(4):
            bits = key >> (_FIELD_BITS * (row * 4 + col))
            b, t = bits & 15, (bits >> 4) & 15
            cell = (piece_text(b) if b else "") + (piece_text(t) if t else "")
            cells.append(cell + ("#" if bits & _LOCK_BIT else ""))
        rows.append(",".join(cells))
    return "/".join(rows) + f" {to_move}"


def parse_position_text(text: Any) -> int:
    """The inverse of :func:`position_text`; ``StateError`` if the text is not one."""
    bad = StateError(_("seen: {text!r} is not a position").format(text=str(text)[:60]))
    if not isinstance(text, str):
        raise bad
    board, _sep, to_move = text.strip().partition(" ")
    rows = board.split("/")
    if to_move not in ("0", "1") or len(rows) != 4:
        raise bad
    key = 0
    for row, line in enumerate(rows):
        cells = line.split(",")
        if len(cells) != 4:
            raise bad
        for col, cell in enumerate(cells):
            bits = 0
            if cell.endswith("#"):
                bits, cell = _LOCK_BIT, cell[:-1]
            if len(cell) not in (0, 2, 4):
                raise bad
            codes = [PIECE_BY_TEXT.get(cell[i : i + 2].lower(), 0) for i in range(0, len(cell), 2)]
            if 0 in codes:
                raise bad
            codes += [0, 0]
            bits |= codes[0] | codes[1] << 4
            key |= bits << (_FIELD_BITS * (row * 4 + col))
    return (key << 1) | int(to_move)


__all__ = ["CountRed", "parse_position_text", "position_text"]
