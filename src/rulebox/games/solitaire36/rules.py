"""36 to 1 (Daniel Bernsen, Green Box of Games): the rules S36-1..S36-10 of RULINGS.md.

The position is the grid (one colour per cell, or empty), the face-up cards (at most two, in the
order they lie), the draw pile and the discard pile. The grid is also kept as bit masks (all
cubes, and the cubes of each colour; see :mod:`board`), an index that ``_remove`` / ``_restore``
keep in step with the grid, so that move generation is a few integer operations per card.

Draws belong to the move that causes them (S36-1, S36-3): the order of the draw pile is fixed by
``deck=`` or the seed when the game begins (S36-10) and is hidden from the player
(``view`` lists the unseen cards as a set; ``determinize`` reshuffles them).

The diagram (:meth:`Solitaire36.diagram`, read by ``from_diagram`` and the engine's ``load``) is
one line of four fields: the grid rank by rank as it is drawn (rank 6 first, ranks separated by
``/``, files ``a``-``f``, a colour letter ``R Y G B K W`` or ``.`` for an empty cell), the
face-up cards as they lie, the draw pile (next card first) and the discard pile (first
discarded first), cards separated by ``,`` and ``-`` for none. The pile order is hidden from the
player: a diagram is the server's full position, never a view. With ``green=`` or
``grid=random`` in force the options must be given as well. A loaded position must be one
that some shuffle and some play reach (:mod:`reach` says what is checked: discards that must
have removed a cube, and the cubes gone paired with the cards that removed them). The start of
deal ``seed=1``, cut short here (``...``) for the docs::

    WWWWWW/KKKKKK/BBBBBB/GGGGGG/YYYYYY/RRRRRR G5,B4 W2,G3,R6,...,B2,Y6 -
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, NamedTuple, Self

from rulebox.core.errors import Illegal, OptionError, StateError
from rulebox.core.game import TERMINAL, Game, Outcome
from rulebox.core.options import OptionSpec, choice_option, int_option
from rulebox.core.rng import rng
from rulebox.games.solitaire36.board import (
    CARD_CODES,
    CARD_COLOUR,
    CARD_FILE_MASK,
    CARD_GREEN_SET,
    CARD_INDEX,
    CARD_SYMBOL,
    CELL_NAMES,
    COLOUR_NAMES,
    COLOURS,
    FILES,
    NUM_CARDS,
    NUM_CELLS,
    SIZE,
    STANDARD_GRID,
    bits,
    cell_file,
    deck_cards,
    sort_cards,
    with_neighbour,
)
from rulebox.games.solitaire36.moves import (
    DISCARD,
    MOVES,
    RANK_MOVES,
    S36Move,
    parse_s36_move,
)
from rulebox.games.solitaire36.reach import impossibility
from rulebox.games.solitaire36.words import SEAT_NAMES, symbol_word
from rulebox.games.solitaire36.words import describe as _describe
from rulebox.games.solitaire36.words import highlights as _highlights
from rulebox.i18n import N_, _, ngettext

EMPTY = -1
"""The colour of an empty cell."""
TOTAL_CUBES = NUM_CELLS
COLOURS_I = tuple(range(len(COLOURS)))


def _card_from_text(token: str) -> int:
    """A card code in any case (``y4``, ``Y5G``) as a card number; ``ValueError`` if none."""
    t = token.strip()
    code = t[:1].upper() + t[1:].lower()
    card = CARD_INDEX.get(code)
    if card is None:
        raise ValueError(
            f"{t[:12]!r} is not a card (a colour R Y G B K W, a symbol 1-6, and g for a green card)"
        )
    return card


def parse_deck(text: str) -> tuple[int, ...]:
    """``deck=`` text (comma-separated card codes, first card first) as card numbers.

    Only the syntax and duplicates are checked here; whether the cards are exactly the deck in
    force depends on ``green=`` and is checked when the game is set up (S36-10).
    """
    tokens = [t for t in text.replace(" ", ",").split(",") if t.strip()]
    cards = tuple(_card_from_text(t) for t in tokens)
    seen: set[int] = set()
    for card in cards:
        if card in seen:
            raise ValueError(f"card {CARD_CODES[card]} is listed twice; every card is unique")
        seen.add(card)
    return cards


def show_deck(cards: Sequence[int]) -> str:
    """The canonical ``deck=`` text."""
    return ",".join(CARD_CODES[c] for c in cards)


def _normalise_deck(value: Any) -> tuple[int, ...] | None:
    """``deck`` as given in code (text, card numbers or codes) as card numbers."""
    if value is None:
        return None
    if isinstance(value, str):
        return parse_deck(value)
    if isinstance(value, Sequence):
        if all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            if any(not 0 <= v < NUM_CARDS for v in value):
                raise ValueError("card numbers out of range")
            return parse_deck(show_deck(value))
        if all(isinstance(v, str) for v in value):
            return parse_deck(",".join(value))
    raise ValueError("deck must be comma-separated card codes")


OPTIONS: tuple[OptionSpec, ...] = (
    choice_option(
        "end",
        "continue",
        N_("S36-6: continue = play on with the face-up cards after the pile runs out; literal "
           "= the game ends when the last card is drawn (unwinnable with the standard deck)"),
        ("continue", "literal"),
    ),
    int_option("green", 0, N_("S36-7: green sets shuffled into the deck (beginners)"), 0, 3),
    choice_option(
        "grid",
        "standard",
        N_("S36-8: standard = one colour per row; random = cubes in random order (experts)"),
        ("standard", "random"),
    ),
    OptionSpec(
        "deck",
        None,
        N_("S36-10: the shuffled deck, comma-separated card codes, first card first "
           "(the first two are laid face up); the seed decides it otherwise"),
        parse=parse_deck,
        show=show_deck,
    ),
)


class _Undo(NamedTuple):
    """The undo record of a move: the face-up slot of the card used, the colour of the cube it
    removed (``EMPTY`` for a discard), and whether a card was drawn into the slot."""

    slot: int
    colour: int
    drew: bool


_UNDO_RECORDS: tuple[tuple[tuple[_Undo, _Undo], ...], ...] = tuple(
    tuple((_Undo(slot, colour, False), _Undo(slot, colour, True)) for colour in (*COLOURS_I, EMPTY))
    for slot in range(2)
)
"""``_UNDO_RECORDS[slot][colour][drew]``: every undo record, made once (``colour`` ``EMPTY`` is -1,
the last entry), so that a move builds none on the search's hot path."""


class Solitaire36(Game):
    """A game of 36 to 1. The only player is player 0."""

    id = "36to1"
    title = "36 to 1"
    player_counts = (1,)
    option_specs = OPTIONS
    max_moves = NUM_CARDS
    """Every move uses up one card (S36-1, S36-3); the largest deck (green=3) has 54."""
    return_bounds = (-1.0, 1.0)
    has_hidden_information = True
    seat_names = SEAT_NAMES

    # --- set-up -------------------------------------------------------------------------------
    def _setup(self) -> None:
        seed = self.opts["seed"]
        cards = deck_cards(self.opts["green"])
        try:
            given = _normalise_deck(self.opts["deck"])
        except ValueError as e:
            raise OptionError(_("bad option deck: {e}").format(e=e)) from None
        if given is None:
            order = list(cards)
            rng(seed, "deck").shuffle(order)
        else:
            self.opts["deck"] = given
            _check_deck(given, cards, self.opts["green"])
            order = list(given)
        colours = list(STANDARD_GRID)
        if self.opts["grid"] == "random":
            rng(seed, "grid").shuffle(colours)
        self._set_grid(colours)
        self._faceup: list[int] = order[:2]
        self._pile: list[int] = order[:1:-1]  # the next card to draw is the last
        self._discard: list[int] = []
        self._undo: list[_Undo] = []
        self._legal: list[S36Move] | None = None

    def _set_grid(self, colours: Sequence[int]) -> None:
        self._grid: list[int] = list(colours)
        self._masks: list[int] = [0] * len(COLOURS)
        occ = 0
        for cell, colour in enumerate(colours):
            if colour != EMPTY:
                self._masks[colour] |= 1 << cell
                occ |= 1 << cell
        self._occ: int = occ

    @property
    def literal_end(self) -> bool:
        """Whether ``end=literal`` (S36-6) is in force."""
        return bool(self.opts["end"] == "literal")

    # --- what the position shows --------------------------------------------------------------
    def cubes_left(self) -> int:
        """How many cubes are still on the grid."""
        return self._occ.bit_count()

    def occupied(self) -> int:
        """The cells that hold a cube, as a bit mask (bit ``cell``)."""
        return self._occ

    def cube(self, cell: int) -> int:
        """The colour (0-5) of the cube on ``cell``, or ``EMPTY``."""
        return self._grid[cell]

    def faceup(self) -> list[int]:
        """The face-up cards, in the order they lie."""
        return list(self._faceup)

    def discards(self) -> list[int]:
        """The discard pile, first discarded first (public, S36-4)."""
        return list(self._discard)

    def pile_size(self) -> int:
        """How many cards are left in the draw pile."""
        return len(self._pile)

    def unseen(self) -> list[int]:
        """The cards still in the draw pile, as a sorted set (their order stays hidden)."""
        return sort_cards(self._pile)

    def deck(self) -> list[int]:
        """Every card of the deck in force (S36-7), in card order."""
        return deck_cards(self.opts["green"])

    def targets(self, card: int) -> int:
        """The cells (a bit mask) whose cube ``card`` may remove now: the card's colour or its
        symbol column (S36-1), and a cube with an orthogonal neighbour (S36-2)."""
        return with_neighbour(self._occ) & self.matches(card)

    def matches(self, card: int) -> int:
        """The cells (a bit mask) whose cube matches ``card`` by colour or column (S36-1),
        whether or not it has a neighbour."""
        return self._occ & (self._masks[CARD_COLOUR[card]] | CARD_FILE_MASK[card])

    # --- the turn -----------------------------------------------------------------------------
    def _moves(self) -> list[S36Move]:
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate()
        return legal

    def _generate(self) -> list[S36Move]:
        occ = self._occ
        if occ & (occ - 1) == 0:  # one cube left: won (S36-5)
            return []
        pile = self._pile
        if not pile and self.opts["end"] == "literal":  # S36-6
            return []
        near = with_neighbour(occ)
        masks = self._masks
        out: list[S36Move] = []
        for card in self._faceup:
            targets = near & (masks[CARD_COLOUR[card]] | CARD_FILE_MASK[card])
            if targets:
                ranks = RANK_MOVES[card]
                rank = 0
                while targets:
                    chunk = targets & 63
                    if chunk:
                        out.extend(ranks[rank][chunk])
                    targets >>= 6
                    rank += 1
            elif pile:  # S36-3: only an unusable card, and only while the pile lasts
                out.append(MOVES[card][DISCARD])
        return out

    def current_player(self) -> int:
        return 0 if self._moves() else TERMINAL

    def legal_moves(self) -> list[S36Move]:
        return list(self._moves())

    def parse_move(self, text: str) -> S36Move:
        return parse_s36_move(text)

    def illegal_reason(self, move: Any) -> Illegal | None:
        if not isinstance(move, S36Move):
            return Illegal(_("{move!r} is not a 36 to 1 move").format(move=move), "S36-1")
        if move in self._moves():
            return None
        card = move.card
        code = CARD_CODES[card]
        if card not in self._faceup:
            if card in self._discard:
                return Illegal(
                    _("{code} is on the discard pile, and no card comes back from it").format(
                        code=code), "S36-4"
                )
            if card >= len(self.deck()):
                return Illegal(
                    _("{code} is a green card of set {card_green_set}, which is not in "
                      "this deck (green={opt})").format(
                        code=code, card_green_set=CARD_GREEN_SET[card], opt=self.opts['green']),
                    "S36-7",
                )
            shown = _(" and ").join(CARD_CODES[c] for c in self._faceup) or _("none")
            return Illegal(_("{code} is not face up (face up: {shown})").format(
                               code=code, shown=shown), "S36-1")
        if move.is_discard:
            targets = self.targets(card)
            if targets:
                cells = ", ".join(CELL_NAMES[c] for c in bits(targets))
                return Illegal(
                    _("{code} can still remove a cube ({cells}), so it may not be "
                      "discarded").format(code=code, cells=cells),
                    "S36-3",
                )
            return Illegal(
                _("the draw pile is empty, so a card can no longer be discarded for a new one"),
                "S36-3",
            )
        cell = move.cell
        name = CELL_NAMES[cell]
        colour = self._grid[cell]
        if colour == EMPTY:
            return Illegal(_("there is no cube on {name}").format(name=name), "S36-1")
        f = cell_file(cell)
        if colour != CARD_COLOUR[card] and f != CARD_SYMBOL[card]:
            s = CARD_SYMBOL[card]
            return Illegal(
                _("{code} removes a {colour} cube or a cube in the {symbol} column "
                  "({file}); the cube on {name} is {colour2} and stands in the "
                  "{symbol2} column ({file2})").format(
                    code=code, colour=_(COLOUR_NAMES[CARD_COLOUR[card]]), symbol=symbol_word(s),
                    file=FILES[s], name=name, colour2=_(COLOUR_NAMES[colour]),
                    symbol2=symbol_word(f), file2=FILES[f]),
                "S36-1",
            )
        return Illegal(
            _("the cube on {name} has no orthogonally adjacent cube, so it cannot be "
              "removed").format(name=name),
            "S36-2",
        )

    def apply_unchecked(self, move: S36Move) -> None:
        faceup = self._faceup
        slot = faceup.index(move.card)
        cell = move.cell
        if cell == DISCARD:
            colour = EMPTY
        else:
            colour = self._grid[cell]
            self._grid[cell] = EMPTY
            bit = 1 << cell
            self._occ ^= bit
            self._masks[colour] ^= bit
        self._discard.append(move.card)
        pile = self._pile
        if pile:
            faceup[slot] = pile.pop()
            self._undo.append(_UNDO_RECORDS[slot][colour][1])
        else:
            del faceup[slot]
            self._undo.append(_UNDO_RECORDS[slot][colour][0])
        self._history.append(move)
        self._legal = None

    def _undo_last(self) -> None:
        move: S36Move = self._history[-1]
        record = self._undo.pop()
        slot, colour = record.slot, record.colour
        card = self._discard.pop()
        if record.drew:
            self._pile.append(self._faceup[slot])
            self._faceup[slot] = card
        else:
            self._faceup.insert(slot, card)
        if colour != EMPTY:
            cell = move.cell
            bit = 1 << cell
            self._grid[cell] = colour
            self._occ |= bit
            self._masks[colour] |= bit
        self._legal = None

    # --- the end ------------------------------------------------------------------------------
    def outcome(self) -> Outcome | None:
        if self._moves():
            return None
        n = self.cubes_left()
        if n == 1:
            return Outcome((0,), (1,), _("won: one cube left"))
        # made in the current language each time it is asked (the reader's)
        if self.literal_end and not self._pile:
            why = _("the last card was drawn") + " (end=literal)"
        else:
            why = _("no card can remove a cube and none can be discarded for a new one")
        return Outcome((), (n,), ngettext("lost: {why}; {n} cube left",
                                          "lost: {why}; {n} cubes left", n).format(why=why, n=n))

    def returns(self) -> list[float]:
        """+1 for a win; a loss with n cubes left scores -(n - 1) / 35, so that fewer cubes
        left is better and every loss is below every win (-1/35 with 2 cubes, -1 with 36)."""
        if self._moves():
            return [0.0]
        n = self.cubes_left()
        return [1.0 if n == 1 else -(n - 1) / (TOTAL_CUBES - 1)]

    # --- copies and serialisation -------------------------------------------------------------
    def clone(self) -> Self:
        g = self._bare_copy()
        g._grid = list(self._grid)
        g._masks = list(self._masks)
        g._occ = self._occ
        g._faceup = list(self._faceup)
        g._pile = list(self._pile)
        g._discard = list(self._discard)
        g._undo = list(self._undo)
        g._legal = self._legal  # never mutated in place, only replaced
        return g

    def grid_rows(self) -> list[str]:
        """The grid as six strings of colour letters (``.`` empty), rank 1 first."""
        return [
            "".join("." if c == EMPTY else COLOURS[c] for c in self._grid[r * SIZE:(r + 1) * SIZE])
            for r in range(SIZE)
        ]

    def position_json(self) -> dict[str, Any]:
        """``grid``: ranks 1-6 as strings of colour letters (``.`` empty), files a-f;
        ``faceup``: the face-up cards as they lie; ``pile``: the draw pile, next card first;
        ``discard``: the discard pile, first discarded first."""
        return {
            "grid": self.grid_rows(),
            "faceup": [CARD_CODES[c] for c in self._faceup],
            "pile": [CARD_CODES[c] for c in reversed(self._pile)],
            "discard": [CARD_CODES[c] for c in self._discard],
        }

    def _load_position(self, data: dict[str, Any]) -> None:
        if not isinstance(data, dict):
            raise StateError(_("the position must be an object"))
        rows = data.get("grid")
        if not (
            isinstance(rows, list)
            and len(rows) == SIZE
            and all(isinstance(r, str) and len(r) == SIZE for r in rows)
        ):
            raise StateError(_("grid must be 6 strings of 6 colour letters (ranks 1-6, "
                               "files a-f)"))
        colours: list[int] = []
        for r, row in enumerate(rows):
            for f, ch in enumerate(row.upper()):
                if ch == ".":
                    colours.append(EMPTY)
                    continue
                if ch not in COLOURS:
                    raise StateError(
                        _("{file}{r}: {ch!r} is not a colour (R Y G B K W or .)").format(
                            file=FILES[f], r=r + 1, ch=ch)
                    )
                colour = COLOURS.index(ch)
                if self.opts["grid"] == "standard" and colour != STANDARD_GRID[r * SIZE + f]:
                    raise StateError(
                        _("{file}{r}: a {colour} cube cannot stand in rank {r} of the "
                          "standard grid (rank {r} is {colour2})").format(
                            file=FILES[f], r=r + 1, colour=COLOUR_NAMES[colour],
                            colour2=COLOUR_NAMES[STANDARD_GRID[r * SIZE]]) + " [S36-8]"
                    )
                colours.append(colour)
        for colour in range(len(COLOURS)):
            if colours.count(colour) > SIZE:
                raise StateError(_("there are only 6 {colour} cubes").format(
                                     colour=COLOUR_NAMES[colour]))
        cubes = sum(c != EMPTY for c in colours)
        if cubes == 0:
            raise StateError(_("the grid is empty; the last cube can never be removed")
                + " [S36-2]")
        piles = {}
        for key in ("faceup", "pile", "discard"):
            value = data.get(key)
            if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
                raise StateError(_("{key} must be a list of card codes").format(key=key))
            try:
                piles[key] = [_card_from_text(c) for c in value]
            except ValueError as e:
                raise StateError(_("{key}: {e}").format(key=key, e=e)) from None
        faceup, pile, discard = piles["faceup"], piles["pile"], piles["discard"]
        everything = faceup + pile + discard
        deck = self.deck()
        if len(set(everything)) != len(everything) or sorted(everything) != deck:
            raise StateError(
                _("the face-up cards, draw pile and discard pile must hold each of the "
                  "{n_deck} cards of the deck (green={opt}) exactly once").format(
                    n_deck=len(deck), opt=self.opts['green'])
            )
        if len(faceup) > 2 or (pile and len(faceup) != 2):
            raise StateError(_("two cards lie face up while the draw pile lasts, never "
                               "more") + " [S36-1]")
        if TOTAL_CUBES - cubes > len(discard):
            raise StateError(
                _("{total_cubes} cubes are gone but only {n_discard} cards were used").format(
                    total_cubes=TOTAL_CUBES - cubes, n_discard=len(discard)) + " [S36-1]"
            )
        standard = STANDARD_GRID if self.opts["grid"] == "standard" else None
        why = impossibility(colours, standard, faceup, pile, discard, self.literal_end)
        if why:
            raise StateError(_("no play reaches this position: {why}").format(why=why))
        self._set_grid(colours)
        self._faceup = faceup
        self._pile = pile[::-1]
        self._discard = discard
        self._undo = []
        self._legal = None

    # --- the diagram (see the module docstring) ----------------------------------------------
    def diagram(self) -> str:
        def cards(codes: list[str]) -> str:
            return ",".join(codes) or "-"

        pos = self.position_json()
        return " ".join((
            "/".join(reversed(pos["grid"])),
            cards(pos["faceup"]),
            cards(pos["pile"]),
            cards(pos["discard"]),
        ))

    @classmethod
    def _read_diagram(cls, text: str) -> tuple[dict[str, Any], dict[str, str]]:
        fields = text.split(" ")
        rows = fields[0].split("/")
        if len(fields) != 4 or len(rows) != SIZE:
            raise StateError(
                _("a 36 to 1 diagram is the grid (six ranks, rank 6 first, split by "
                  "'/'), the face-up cards, the draw pile (next first) and the discard "
                  "pile, cards split by ',' and '-' for none")
            )
        faceup, pile, discard = ([] if f == "-" else f.split(",") for f in fields[1:])
        return {"grid": rows[::-1], "faceup": faceup, "pile": pile, "discard": discard}, {}

    def view(self, player: int | None) -> dict[str, Any]:
        """The grid, the face-up cards, the discard pile (S36-4), how many cards are left and
        which cards are unseen (sorted: counting cards is part of the game), never their order."""
        outcome = self.outcome()
        return {
            "game": self.id,
            "options": self.public_options(),
            "to_move": self.current_player(),
            "grid": self.grid_rows(),
            "faceup": [CARD_CODES[c] for c in self._faceup],
            "discard": [CARD_CODES[c] for c in self._discard],
            "pile_count": len(self._pile),
            "unseen": [CARD_CODES[c] for c in self.unseen()],
            "cubes_left": self.cubes_left(),
            "history": list(self._move_texts()),
            "result": "ongoing" if outcome is None else outcome.result_line(),
        }

    def determinize(self, player: int, rng: random.Random) -> Self:
        """A copy with the draw pile reshuffled by ``rng`` (the only hidden part)."""
        g = self.clone()
        # shuffle a sorted copy, so that the result cannot depend on the hidden order
        g._pile = sorted(g._pile)
        rng.shuffle(g._pile)
        g._legal = None
        return g

    def reshuffle_unseen(self, rng: random.Random) -> None:
        """Shuffle the draw pile (the only unseen cards) in place; the grid, the face-up cards,
        the discard pile, the undo records and every view stay as they are.

        The start of the game is rewritten so that its pile holds the cards drawn so far in the
        order they came and then the new order, so that ``to_json`` / ``from_json`` replay the
        history to this very position."""
        start = self._drawn_start
        if start is None:
            start = type(self).new(self.options()).position_json()
        drawn_so_far = len(start["pile"]) - len(self._pile)
        order = sort_cards(self._pile)  # shuffle a sorted copy: the old order cannot leak
        rng.shuffle(order)
        self._pile[:] = order[::-1]  # the next card to draw is the last
        new_start = {
            **start,
            "pile": start["pile"][:drawn_so_far] + [CARD_CODES[c] for c in order],
        }
        if new_start != start or self._drawn_start is not None:
            self._drawn_start = new_start  # (the same order again: the options' start stands)

    def position_key(self) -> Any:
        return (tuple(self._grid), tuple(sorted(self._faceup)), tuple(self._pile))

    # --- in words (issue 17; the texts live in words.py) ---------------------------------------
    def describe(self, move: Any) -> str:
        return _describe(self, self.as_move(move))

    def highlights(self) -> list[str]:
        return _highlights(self)


def _check_deck(given: Sequence[int], cards: list[int], green: int) -> None:
    """Refuse a ``deck=`` that is not exactly the deck in force (S36-10, S36-7)."""
    want = set(cards)
    have = set(given)
    if have == want and len(given) == len(cards):
        return
    parts = []
    missing = sort_cards(want - have)
    extra = sort_cards(have - want)
    if missing:
        parts.append("missing " + ",".join(CARD_CODES[c] for c in missing))
    if extra:
        parts.append("not in this deck " + ",".join(CARD_CODES[c] for c in extra))
    raise OptionError(
        _("bad option deck: it must list each of the {n_cards} cards of the deck "
          "(green={green}) exactly once; {parts}").format(
            n_cards=len(cards), green=green, parts="; ".join(parts)) + " [S36-10]"
    )
