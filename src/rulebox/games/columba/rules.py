"""Columba (Laurent Escoffier, Ludocom 2012): the rules CB-1..CB-16 of RULINGS.md.

The game class: set-up, what a player may see and do, the checks of each rule, the legal moves,
scoring, copies and serialisation. By concern, the rest lives beside it:

* :mod:`cards` the cards and the grid; :mod:`pieces` the numbers of pieces and the phases;
* :mod:`territory` the squares, regions and estates (one flood fill; CB-9 decided on the regions
  after a placement);
* :mod:`turn` the turn machine (which action in which phase, playing it) and the named undo
  record;
* :mod:`officia` the Officia roles (CB-15);
* :mod:`state` reading a drawn position back (it imports none of this module at run time);
* :mod:`diagram` the text diagram (:meth:`Columba.diagram`, read by ``from_diagram`` and the
  engine's ``load``): the players and variant, then the grid from its top-left square row by
  row (``.`` empty, ``W G B K`` a card's field, ``w g b k`` a domesticated tile, ``F`` a
  falcon), whose each item is, the cards with the turns they were laid, the turns of tiles and
  falcons, marks (dovecotes, wild tiles, a falcon's tile), the turn, phase and hand, this turn's
  flags, each player's public state and the deck. The start of ``seed=3``::

      2 0,0 WK/WW aa/aa a=C17@-1 - - t0 0p C18 - S1:WGKB/-/-/0 S2:WGBK/-/-/0 C03,C01,...

``_freed`` holds the tiles that a falcon cut off from every estate (wild again, CB-3 c) and that
no estate has taken back since. ``_bare`` holds the squares no card was ever laid on that hold a
tile (or a falcon over such a tile): a tile laid on the bare table is a pigeon, not a card's
field, so a card that covers nothing may not dock with it (CB-2) and no dovecote stands on it
(CB-6); every other square of the territory is a card's, whatever lies on it now.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any, Self

from rulebox.core.errors import AmbiguousMoveError, Illegal, OptionError
from rulebox.core.game import TERMINAL, Game, Outcome
from rulebox.core.options import OptionSpec, choice_option, int_option
from rulebox.core.rng import rng
from rulebox.games.columba import diagram as _diagram
from rulebox.games.columba.cards import (
    CANONICAL,
    CARDS,
    COLOUR_NAMES,
    COLOURS,
    DECK_IDS,
    EDGE_NEIGHBOURS,
    NEIGHBOURS,
    OFFSETS,
    POND_ID,
    ROTATIONS,
    STARTING_IDS,
    key,
    sq_text,
)
from rulebox.games.columba.moves import (
    END,
    GOAL,
    NOGOAL,
    ColumbaMove,
    paid_move,
    parse_columba_move,
    place_moves,
    shared_move,
)
from rulebox.games.columba.officia import (
    OFFICIA_OPTION,
    ROLES,
    ROLES_OPTION,
    deal_roles,
    power_moves,
)
from rulebox.games.columba.pieces import (
    ACTIONS,
    COTES,
    FALCONS,
    GOAL_PHASE,
    OVER,
    PENALTY,
    PHASES,
    PLACE,
    SEATS,
    TILES_PER_COLOUR,
)
from rulebox.games.columba.state import load_position
from rulebox.games.columba.territory import (
    FALCON,
    FIELD,
    KIND_NAMES,
    TILE,
    WILD,
    Cotes,
    Regions,
    Square,
    find_regions,
    joins_estates,
)
from rulebox.games.columba.turn import Snapshot, action_problem, play
from rulebox.games.columba.words import SEAT_NAMES
from rulebox.games.columba.words import describe as _describe
from rulebox.games.columba.words import highlights as _highlights
from rulebox.i18n import N_, _, ngettext

__all__ = ["ACTIONS", "COTES", "FALCON", "FALCONS", "FIELD", "GOAL_PHASE", "KIND_NAMES", "OVER",
           "PENALTY", "PHASES", "PLACE", "ROLES", "SEATS", "TILE", "TILES_PER_COLOUR", "WILD",
           "Columba"]


def _parse_deck(text: str) -> tuple[str, ...]:
    ids = tuple(t.strip().upper() for t in text.split(",") if t.strip())
    unknown = [c for c in ids if c not in DECK_IDS and c != POND_ID]
    if unknown:
        raise ValueError(f"unknown card {unknown[0][:10]!r} (cards are C01..C30, P the Pond)")
    if len(set(ids)) != len(ids):
        dup = next(c for c in ids if ids.count(c) > 1)
        raise ValueError(f"card {dup} is listed twice")
    if len(ids) < 2:
        raise ValueError("the deck needs at least 2 cards (one starts the territory)")
    return ids


PLAYERS_OPTION = int_option("players", 2,
                            N_("number of players (4 = two teams, 0+2 against 1+3)"), 2, 4)
DECK_OPTION = OptionSpec(
    "deck", None,
    N_("order of the shuffled cards, ids comma-separated, first starts the territory (CB-16); "
       "a shorter list plays a shorter game; P is the Pond (with pond=1)"),
    parse=_parse_deck, show=lambda v: ",".join(v),
)


VARIANT_OPTION = choice_option(
    "variant", "standard", N_("standard rules, or the children's game (CB-13)"),
    ("standard", "kids"))
POND_OPTION = int_option("pond", 0, N_("1: shuffle the Pond card into the deck (CB-14)"), 0, 1)


class Columba(Game):
    """A game of Columba for 2, 3 or 4 players (4: two teams)."""

    id = "columba"
    title = "Columba"
    player_counts = (2, 3, 4)
    option_specs = (PLAYERS_OPTION, DECK_OPTION, VARIANT_OPTION, POND_OPTION, OFFICIA_OPTION,
                    ROLES_OPTION)
    max_moves = 3000
    return_bounds = (-1.0, 1.0)
    has_hidden_information = True
    seat_names = SEAT_NAMES

    # --- set-up -------------------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return int(self.opts.get("players") or 2)

    def _setup(self) -> None:
        n = self.num_players
        self._kids = self.opts.get("variant") == "kids"
        pond = bool(self.opts.get("pond"))
        order = self.opts.get("deck")
        if order is None:
            cards = list(DECK_IDS) + ([POND_ID] if pond else [])
            rng(self.opts["seed"], "columba-deck").shuffle(cards)
        else:
            cards = list(order)
            if POND_ID in cards and not pond:
                raise OptionError(_("the deck lists the Pond (P): add pond=1") + " [CB-14]")
        self._roles: list[str] = deal_roles(self, n)
        self._friends: tuple[tuple[int, ...], ...] = tuple(
            (p, (p + 2) % 4) if n == 4 else (p,) for p in range(n)
        )
        self._sq: dict[int, Square] = {}
        self._cotes: Cotes = {}
        self._lay(key(0, 0), cards[0], 0, -1)
        self._deck: list[str] = list(reversed(cards[1:]))  # the top card is last
        # the children's game has no objectives (CB-13)
        self._obj: list[str | None] = [None if self._kids else STARTING_IDS[p] for p in range(n)]
        self._slots: list[list[bool]] = [[False] * 4 for _ in range(n)]
        self._reserve: list[list[int]] = [[0] * 4 for _ in range(n)]
        self._supply: list[int] = [TILES_PER_COLOUR] * 4
        small, large = COTES[n]
        self._cotes_left: list[list[int]] = [[small, large] for _ in range(n)]
        self._chicks: list[list[int]] = [[] for _ in range(n)]
        self._adults: list[int] = [0] * n
        self._falcons = FALCONS
        self._to_move = 0
        self._turn = 0
        self._phase = PLACE
        self._hand: str | None = self._deck.pop()
        self._cote_done = False
        self._falcon_done = 0  # falcons acquired this turn (CB-8, CB-15)
        self._turn_tiles: list[int] = []
        self._under: dict[int, list[int]] = {}  # the peasant's tiles under dovecotes (CB-15)
        self._power = False  # an Officia power used this turn
        self._marshal: int | None = None  # the square the marshal's card must cover
        self._second: str | None = None  # the falconer's second falcon, lost unless placed
        self._freed: frozenset[int] = frozenset()  # tiles a falcon cut off (CB-3 c)
        self._bare: frozenset[int] = frozenset()  # tiles on squares no card was laid on
        self._undo: list[Snapshot] = []  # one record per move (turn.Snapshot)
        self._dirty()

    def role(self, p: int) -> str | None:
        """Player ``p``'s Officia role, if the game has them."""
        return self._roles[p] if self._roles else None

    def under(self) -> dict[int, list[int]]:
        """Tiles the peasant slid under dovecotes: dovecote square -> colours (read only)."""
        return self._under

    def turn_powers(self) -> tuple[bool, int | None, str | None]:
        """This turn: Officia power used, the marshal's square, the falconer's pending falcon."""
        return self._power, self._marshal, self._second

    def _dirty(self) -> None:
        self._reg: Regions | None = None
        self._legal: list[ColumbaMove] | None = None

    def _lay(self, k0: int, card: str, rot: int, turn: int) -> None:
        for off, colour in zip(OFFSETS, ROTATIONS[card][rot], strict=True):
            self._sq[k0 + off] = (FIELD, colour, turn, -1, card)

    # --- state queries ----------------------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if self._phase == OVER else self._to_move

    @property
    def phase(self) -> str:
        """``place``, ``goal``, ``actions`` or ``over``."""
        return self._phase

    @property
    def hand(self) -> str | None:
        """The card the player to move must place, if any."""
        return self._hand

    @property
    def turn_number(self) -> int:
        """Turns played before this one (the first turn is 0)."""
        return self._turn

    def cards_left(self) -> int:
        """Cards still in the deck."""
        return len(self._deck)

    def partner(self, p: int) -> int | None:
        """The partner of ``p`` in a 4-player game."""
        return self._friends[p][1] if len(self._friends[p]) > 1 else None

    def squares(self) -> dict[int, tuple[Any, ...]]:
        """The territory: key -> (kind, colour, turn, who, card) of the top item (read only)."""
        return self._sq

    def cotes(self) -> dict[int, tuple[int, bool]]:
        """Dovecotes on the territory: key -> (owner, large) (read only)."""
        return self._cotes

    def objective(self, p: int) -> tuple[str | None, list[bool]]:
        """Player ``p``'s objective card (or ``None``) and which of its 4 slots are filled."""
        return self._obj[p], list(self._slots[p])

    def reserve(self, p: int) -> list[int]:
        """Domesticated tiles in ``p``'s reserve, by colour."""
        return list(self._reserve[p])

    def supply(self) -> list[int]:
        """Domesticated tiles left in the supply, by colour."""
        return list(self._supply)

    def cotes_left(self, p: int) -> tuple[int, int]:
        """(small, large) dovecotes ``p`` has still to place."""
        s, lg = self._cotes_left[p]
        return s, lg

    def falcons_of(self, p: int) -> tuple[int, int]:
        """(chicks, adults in hand) of player ``p``."""
        return len(self._chicks[p]), self._adults[p]

    def falcon_supply(self) -> int:
        return self._falcons

    def turn_flags(self) -> tuple[bool, int, list[int]]:
        """This turn: dovecote placed, falcons acquired (0, 1, or 2 for the Falconer, CB-15),
        squares of tiles placed."""
        return self._cote_done, self._falcon_done, list(self._turn_tiles)

    # --- regions and estates --------------------------------------------------------------------
    def _regions(self) -> Regions:
        """(label of each pigeon square, members of each region, owner of each region or -1),
        cached until the next change."""
        if self._reg is None:
            self._reg = find_regions(self._sq, self._cotes)
        return self._reg

    def _regions_after(self, changes: dict[int, tuple[Any, ...]]) -> Regions:
        """The regions as they would be with ``changes`` laid (square -> new top item)."""
        return find_regions({**self._sq, **changes}, self._cotes)

    def freed(self) -> frozenset[int]:
        """Tiles a falcon has cut off from every estate: wild again, capturable (CB-3 c)."""
        return self._freed

    def bare(self) -> frozenset[int]:
        """Squares no card was ever laid on, holding a tile laid on the bare table (or a falcon
        over one): pigeons, not a card's fields (CB-2, CB-6)."""
        return self._bare

    def is_card_square(self, k: int) -> bool:
        """Whether a card was laid on square ``k``, whatever lies on it now (CB-2)."""
        return k in self._sq and k not in self._bare

    def estates(self) -> list[tuple[int, int, bool, list[int]]]:
        """Every estate: (owner, dovecote square, large, squares)."""
        label, regs, _owner = self._regions()
        return [(p, k, large, regs[label[k]]) for k, (p, large) in sorted(self._cotes.items())]

    def estate_owner(self, k: int) -> int:
        """The owner of the estate square ``k`` belongs to, or -1."""
        label, _regs, owner = self._regions()
        rid = label.get(k)
        return -1 if rid is None else owner[rid]

    def scores(self) -> list[int]:
        """Each player's score as things stand (CB-6, CB-11), penalty included."""
        out = [0] * self.num_players
        for p, _k, large, members in self.estates():
            out[p] += len(members) * (2 if large else 1)
        for k, tiles in self._under.items():
            out[self._cotes[k][0]] += 2 * len(tiles)  # the peasant's tiles (CB-15)
        for p in range(self.num_players):
            if self._obj[p] is not None:
                out[p] -= PENALTY
        return out

    def largest_estate(self, p: int) -> int:
        """Pigeons in ``p``'s largest estate (the tie-break of CB-11)."""
        return max((len(m) for o, _k, _l, m in self.estates() if o == p), default=0)

    # --- the pieces of a rule check ------------------------------------------------------------
    def _who(self, p: int) -> str:
        return _(SEATS[p])

    def _cover_problem(self, k: int, p: int) -> Illegal | None:
        """Why the card may not cover square ``k`` to capture (CB-3), or ``None``."""
        s = self._sq[k]
        where = sq_text(k)
        if s[0] == FALCON:
            return Illegal(
                _("a card may not cover the falcon on {where}").format(where=where), "CB-3")
        if k in self._cotes:
            return Illegal(
                _("a card may not cover the dovecote on {where}").format(where=where), "CB-3")
        if s[4] == POND_ID:
            return Illegal(_("nothing may cover the Pond ({where})").format(where=where), "CB-14")
        label, _regs, owner = self._regions()
        o = owner[label[k]]
        friends = self._friends[p]
        if s[0] == FIELD:
            if o != -1 and o not in friends:
                return Illegal(_("{where} is in {who}'s estate; only its owner may capture "
                          "there").format(where=where, who=self._who(o)), "CB-10")
            return None
        # a domesticated tile
        if s[2] == self._turn:
            return Illegal(_("the tile on {where} was laid this turn; it may be captured a "
                      "round later at the earliest").format(where=where), "CB-3")
        if o == -1:
            if k in self._freed:
                return None  # (c) a falcon cut it off from every estate
            return Illegal(_("the tile on {where} is in no estate, but no falcon cut it off: "
                      "it is still domesticated and may not be captured (only a falcon "
                      "makes a tile wild)").format(where=where), "CB-3")
        if o == p:
            if s[3] == p and s[2] < self._turn:
                return None  # (a)
            if s[3] == p:
                return Illegal(_("the tile on {where} was laid this turn; you may capture "
                          "your own estate's tile only a round later").format(where=where), "CB-3")
            return Illegal(_("the tile on {where} was laid by {who}; in your own estate you "
                      "may capture only tiles you laid yourself").format(
                        where=where, who=self._who(s[3])), "CB-3")
        if o in friends:
            return None  # (b) the partner's estate
        return Illegal(_("{where} is in {who}'s estate; only its owner may capture there").format(
                    where=where, who=self._who(o)), "CB-10")

    def _capture_problem(self, covered: list[int], p: int) -> Illegal | None:
        """Why these squares may not be captured together by ``p`` (CB-3, CB-4, CB-12). The Pond
        is laid by the standard card rules, so it may capture too (CB-14)."""
        if self._kids:
            return self._kids_cover_problem(covered, p)
        obj = self._obj[p]
        if obj is None:
            return Illegal(_("you have no objective, so you cannot capture: lay the card so "
                      "that it covers nothing and touches the territory"), "CB-4")
        for k in covered:
            why = self._cover_problem(k, p)
            if why:
                return why
        need = [0, 0, 0, 0]
        wild = [0, 0, 0, 0]
        sq = self._sq
        for k in covered:
            s = sq[k]
            need[s[1]] += 1
            if s[0] == FIELD:
                wild[s[1]] += 1
        free = [0, 0, 0, 0]
        for colour, filled in zip(CARDS[obj].fields, self._slots[p], strict=True):
            if not filled:
                free[colour] += 1
        for c in range(4):
            if need[c] > free[c]:
                word = _(COLOUR_NAMES[c])
                return Illegal(_("the card would capture {pigeons} but your objective has "
                          "{slots}").format(
                            pigeons=ngettext("{n} {colour} pigeon", "{n} {colour} pigeons",
                                             need[c]).format(n=need[c], colour=word),
                            slots=ngettext("{n} free {colour} slot", "{n} free {colour} slots",
                                           free[c]).format(n=free[c], colour=word)), "CB-3")
            if wild[c] > self._supply[c]:
                return Illegal(ngettext("the supply has only {n} {colour} tile left",
                                 "the supply has only {n} {colour} tiles left",
                                 self._supply[c]).format(
                            n=self._supply[c], colour=_(COLOUR_NAMES[c])), "CB-12")
        return None

    def _kids_cover_problem(self, covered: list[int], p: int) -> Illegal | None:
        """The children's game: a card may cover fields outside opponents' estates (CB-13)."""
        for k in covered:
            where = sq_text(k)
            if k in self._cotes:
                return Illegal(_("a card may not cover the dovecote on {where}").format(
                    where=where), "CB-13")
            if self._sq[k][4] == POND_ID:
                return Illegal(
                    _("nothing may cover the Pond ({where})").format(where=where), "CB-14")
            o = self.estate_owner(k)
            if o != -1 and o not in self._friends[p]:
                return Illegal(_("{where} is in {who}'s estate").format(
                    where=where, who=self._who(o)), "CB-13")
        return None

    def _position_problem(self, k0: int, p: int) -> Illegal | None:
        """Why no rotation of a card may lie on top-left ``k0`` (CB-2, CB-3), or ``None``."""
        sq = self._sq
        covered = [k0 + o for o in OFFSETS if k0 + o in sq]
        m = self._marshal
        if m is not None:
            if m not in covered:
                return Illegal(_("the marshal's card must cover {square}").format(
                    square=sq_text(m)), "CB-15")
            covered.remove(m)
            return self._capture_problem(covered, p) if covered else None
        if not covered:
            touched = [k0 + e for e in EDGE_NEIGHBOURS if k0 + e in sq]
            if any(k not in self._bare for k in touched):
                return None
            if touched:
                return Illegal(_("a card that covers nothing must touch another card along a side; "
                          "the tile on {square} lies on the bare table and is not a card").format(
                            square=sq_text(min(touched))), "CB-2")
            return Illegal(_("the card must cover fields or touch the territory along an edge "
                      "of a field"), "CB-2")
        return self._capture_problem(covered, p)

    def _card_joins(self, k0: int, rot: int) -> bool:
        """Whether the card in hand on ``k0`` turned ``rot`` would leave two dovecotes in one
        region, on the regions as they are after it (CB-9)."""
        card = self._hand
        assert card is not None
        changes = {k0 + off: (FIELD, colour, self._turn, -1, card)
                   for off, colour in zip(OFFSETS, ROTATIONS[card][rot], strict=True)}
        return joins_estates(self._sq, self._cotes, changes)

    @staticmethod
    def _unattached(tiles: Iterable[int], reg: Regions) -> list[int]:
        """The tiles among ``tiles`` that belong to no estate (CB-7: anyone's will do)."""
        label, _regs, owner = reg
        return [t for t in tiles if owner[label[t]] == -1]

    def _cote_spot(self, k: int) -> bool:
        """Whether a dovecote may stand on ``k`` as far as the square goes (CB-6): a pigeon on
        a card's field (a tile on the bare table is not one), no dovecote there yet, not a
        field of a card laid this turn."""
        s = self._sq.get(k)
        return (s is not None and s[0] != FALCON and k not in self._cotes
                and k not in self._bare and not (s[0] == FIELD and s[2] == self._turn))

    def _can_still_cote(self, p: int) -> bool:
        return not self._cote_done and (self._cotes_left[p][0] + self._cotes_left[p][1]) > 0

    def _pending_ok(self, p: int, reg: Regions, tiles: list[int]) -> bool:
        """Whether the turn can still end with every tile laid this turn in an estate (anyone's,
        CB-7): either they all are, or ``p`` may still place a dovecote and they all lie in one
        region without one, where a dovecote may stand."""
        loose = self._unattached(tiles, reg)
        if not loose:
            return True
        if not self._can_still_cote(p):
            return False
        label, regs, owner = reg
        rids = {label[t] for t in loose}
        if len(rids) != 1:
            return False
        rid = rids.pop()
        return owner[rid] == -1 and any(self._cote_spot(k) for k in regs[rid])

    def _tile_problem(self, k: int, c: int, p: int) -> Illegal | None:
        """Why ``p`` may not lay a tile of colour ``c`` on ``k`` (CB-7, CB-9), or ``None``."""
        sq = self._sq
        s = sq.get(k)
        where = sq_text(k)
        reg = self._regions()
        label, _regs, owner = reg
        if s is None:
            if not any(k + d in sq for d in NEIGHBOURS):
                return Illegal(_("{where} is not next to the territory; a tile goes on a wild "
                          "pigeon or on an empty square next to the territory").format(
                            where=where), "CB-7")
        elif s[0] == FALCON:
            return Illegal(
                _("a tile may not cover the falcon on {where}").format(where=where), "CB-7")
        elif s[0] == TILE:
            return Illegal(
                _("a tile may not cover another tile ({where})").format(where=where), "CB-7")
        elif s[4] == POND_ID:
            return Illegal(_("nothing may cover the Pond ({where})").format(where=where), "CB-14")
        elif k in self._cotes:
            return Illegal(
                _("a tile may not cover the dovecote on {where}").format(where=where), "CB-7")
        else:
            o = owner[label[k]]
            if o != -1 and o not in self._friends[p]:
                return Illegal(_("{where} is in {who}'s estate; a tile may not cover an "
                          "opponent's pigeon").format(where=where, who=self._who(o)), "CB-7")
        code = self._tile_effect(k, c, p)
        if code == 1:
            return Illegal(_("a {colour} tile on {where} would join two estates").format(
                       colour=_(COLOUR_NAMES[c]), where=where), "CB-9")
        if code == 2 and s is None and self._can_still_cote(p):
            return Illegal(_("a tile on {where} would lie on the bare table in no estate: it "
                      "must belong to one by the end of the turn, and a dovecote may not "
                      "stand on it (a tile there is a pigeon, not a card's field)").format(
                        where=where), "CB-7")
        if code == 2:
            return Illegal(_("a tile on {where} would not belong to an estate by the end of "
                      "the turn (every tile laid this turn must, and you could not "
                      "make it so)").format(where=where), "CB-7")
        return None

    def _tile_effect(self, k: int, c: int, p: int) -> int:
        """For a tile that may go on ``k`` as far as the square goes: 0 if it may, 1 if it would
        join two estates (CB-9), 2 if the turn could then no longer end (CB-7).

        A tile is one square: the region it makes is its own square and the regions of its
        colour next to it, so the regions before it decide CB-9 exactly. Only when it covers a
        pigeon of another colour in a region holding this turn's tiles may it cut that region
        apart; then CB-7 is decided on the regions after it."""
        sq = self._sq
        s = sq.get(k)
        reg = self._regions()
        label, regs, owner = reg
        joined: set[int] = set()
        for d in NEIGHBOURS:
            t = sq.get(k + d)
            if t is not None and t[1] == c and t[0] != FALCON:
                joined.add(label[k + d])
        if s is not None and s[1] == c:
            joined.add(label[k])
        estates = [rid for rid in joined if owner[rid] != -1]
        if len(estates) > 1:
            return 1
        turn_tiles = self._turn_tiles
        new_owner = owner[estates[0]] if estates else -1
        if not turn_tiles:
            if new_owner != -1:
                return 0
            # a tile outside the estates: only a dovecote still to come can save it, on the
            # tile if it covers a card's field, else on a card's field it joins (CB-6)
            if not self._can_still_cote(p):
                return 2
            if s is not None:
                return 0
            return 0 if any(self._cote_spot(q) for r in joined for q in regs[r]) else 2
        tiles = [*turn_tiles, k]
        if s is not None and s[1] != c and any(label[t] == label[k] for t in turn_tiles):
            after = self._regions_after({k: (TILE, c, self._turn, p, None)})
            return 0 if self._pending_ok(p, after, tiles) else 2
        loose_regions: set[int] = set()
        for square in tiles:
            if square == k or label[square] in joined:
                if new_owner == -1:
                    loose_regions.add(-2)
            elif owner[label[square]] == -1:
                loose_regions.add(label[square])
        if not loose_regions:
            return 0
        if not self._can_still_cote(p) or len(loose_regions) != 1:
            return 2
        rid = loose_regions.pop()
        if rid == -2:
            # the region the tile makes has no dovecote: one may stand on the tile if it covers
            # a card's field, else on a card's field of a region it joins (CB-6)
            if s is not None:
                return 0
            return 0 if any(self._cote_spot(q) for r in joined for q in regs[r]) else 2
        return 0 if any(self._cote_spot(q) for q in regs[rid]) else 2

    def _cote_problem(self, k: int, large: int, p: int) -> Illegal | None:
        """Why ``p`` may not place a dovecote on ``k`` (CB-6, CB-9), or ``None``."""
        where = sq_text(k)
        if self._cote_done:
            return Illegal(_("you have already placed a dovecote this turn"), "CB-6")
        if self._cotes_left[p][large] == 0:
            return Illegal(_("you have no large dovecote left") if large else
                           _("you have no small dovecote left"), "CB-1")
        s = self._sq.get(k)
        if s is None:
            return Illegal(
                _("a dovecote stands on a pigeon; {where} is empty").format(where=where), "CB-6")
        if s[0] == FALCON:
            return Illegal(_("a dovecote may not stand on the falcon on {where}").format(
                where=where), "CB-6")
        if k in self._cotes:
            return Illegal(_("there is already a dovecote on {where}").format(where=where), "CB-6")
        if s[0] == FIELD and s[2] == self._turn:
            return Illegal(_("{where} is a field of a card laid this turn; a dovecote may not "
                      "go on it").format(where=where), "CB-6")
        if k in self._bare:
            return Illegal(
                _("the tile on {where} lies on the bare table, not on a card: a dovecote "
                      "stands on a card's field, and a tile there is a pigeon, not a "
                      "field").format(where=where), "CB-6")
        reg = self._regions()
        label, _regs, owner = reg
        o = owner[label[k]]
        if o != -1 and o != p:
            return Illegal(
                _("{where} is in {who}'s estate").format(where=where, who=self._who(o)), "CB-6")
        if o == p:
            return Illegal(_("{where} is already in your estate; a second dovecote there "
                      "would make two estates one").format(where=where), "CB-9")
        loose = self._unattached(self._turn_tiles, reg)
        if any(label[t] != label[k] for t in loose):
            return Illegal(_("the tiles you laid this turn must belong to an estate when the "
                      "turn ends; this dovecote would leave {square} outside").format(
                        square=", ".join(
                        sq_text(t) for t in loose if label[t] != label[k])), "CB-7")
        return None

    def _falcon_problem(self, k: int, p: int) -> Illegal | None:
        where = sq_text(k)
        if self._adults[p] == 0:
            return Illegal(_("you have no adult falcon to place"), "CB-8")
        s = self._sq.get(k)
        if s is None:
            return Illegal(
                _("a falcon covers a pigeon; {where} is empty").format(where=where), "CB-8")
        if s[0] == FALCON:
            return Illegal(
                _("a falcon may not cover another falcon ({where})").format(where=where), "CB-8")
        if s[4] == POND_ID:
            return Illegal(_("nothing may cover the Pond ({where})").format(where=where), "CB-14")
        if k in self._cotes:
            return Illegal(
                _("a falcon may never cover a dovecote ({where})").format(where=where), "CB-8")
        o = self.estate_owner(k)
        if o == -1 or o in self._friends[p]:
            return Illegal(_("a falcon goes on a pigeon of an opponent's estate; {where} is "
                      "{what}").format(
                        where=where,
                        what=_("in no estate") if o == -1 else _("not an opponent's")), "CB-8")
        tiles = self._turn_tiles
        if tiles:  # this turn's tiles may extend an opponent's estate (CB-7)
            if k in tiles:
                return Illegal(_("the tile on {where} was laid this turn and must belong to "
                          "an estate when the turn ends; a falcon may not cover it").format(
                            where=where), "CB-7")
            after = self._regions_after({k: (FALCON, -1, self._turn, p, None)})
            if not self._pending_ok(p, after, tiles):
                return Illegal(_("a falcon on {where} would cut the tiles you laid this turn "
                          "off every estate").format(where=where), "CB-7")
        return None

    # --- moves --------------------------------------------------------------------------------
    def _coverable(self, k: int, p: int, label: dict[int, int], owner: list[int]) -> bool:
        """Whether ``p`` may cover square ``k`` to capture, colours and counts aside (CB-3)."""
        s = self._sq[k]
        if s[0] == FALCON or k in self._cotes or s[4] == POND_ID:
            return False
        if s[0] == TILE and s[2] == self._turn:
            return False  # laid this turn (only possible with Officia)
        o = owner[label[k]]
        if o == -1:
            return s[0] == FIELD or k in self._freed  # (c): only a falcon frees a tile
        if s[0] == FIELD or self._kids:
            return o in self._friends[p]
        if o == p:
            return s[3] == p and s[2] < self._turn
        return o in self._friends[p]

    def _placements(self) -> list[ColumbaMove]:
        p = self._to_move
        assert self._hand is not None
        rots = tuple(sorted(set(CANONICAL[self._hand])))  # each distinct layout once
        sq = self._sq
        label, _regs, owner = self._regions()
        obj = self._obj[p]
        cover: set[int] = set()
        free = [0, 0, 0, 0]
        supply = self._supply
        if self._kids:  # any 1-4 coverable fields (CB-13): no slots, no supply
            obj = "kids"
            free = [4, 4, 4, 4]
            supply = [4, 4, 4, 4]
            cover = {k for k in sq if self._coverable(k, p, label, owner)}
        elif obj is not None:
            for colour, filled in zip(CARDS[obj].fields, self._slots[p], strict=True):
                if not filled:
                    free[colour] += 1
            cover = {k for k in sq if self._coverable(k, p, label, owner)}
        # top-lefts where a card touches two estates: only there may it join them (CB-9): a
        # region holding both dovecotes after the card runs through the card, and leaves it
        # into each estate as it was before
        multi: set[int] = set()
        if len(self._cotes) >= 2:
            near: dict[int, set[int]] = {}
            for k, rid in label.items():
                if owner[rid] != -1:
                    for e in EDGE_NEIGHBOURS:
                        near.setdefault(k - e, set()).add(rid)
            multi = {k0 for k0, rids in near.items() if len(rids) > 1}
        s1, s2, s3 = OFFSETS[1], OFFSETS[2], OFFSETS[3]
        out: list[ColumbaMove] = []
        # top-lefts where the card covers something, then those where it only touches
        marshal = self._marshal
        if marshal is None:
            covering = {q - o for q in sq for o in OFFSETS}
            bare = self._bare  # a tile on the bare table is no card to dock with (CB-2)
            touching = {q - e for q in sq if q not in bare for e in EDGE_NEIGHBOURS} - covering
        else:  # the marshal's card covers his square, uncaptured (CB-15)
            covering = {marshal - o for o in OFFSETS}
            touching = set()
        if obj is not None or marshal is not None:
            for k0 in sorted(covering):
                need = [0, 0, 0, 0]
                wild = [0, 0, 0, 0]
                ok = True
                for q in (k0, k0 + s1, k0 + s2, k0 + s3):
                    s = sq.get(q)
                    if s is None or q == marshal:
                        continue
                    if q not in cover:
                        ok = False
                        break
                    need[s[1]] += 1
                    if s[0] == FIELD:
                        wild[s[1]] += 1
                if ok and all(need[c] <= free[c] and wild[c] <= supply[c] for c in range(4)):
                    self._place_all(out, k0, rots, multi)
        for k0 in sorted(touching):
            self._place_all(out, k0, rots, multi)
        return out

    def _place_all(self, out: list[ColumbaMove], k0: int, rots: tuple[int, ...],
                   multi: set[int]) -> None:
        """Add the distinct rotations ``rots`` of a card on ``k0`` that join no estates (CB-9)."""
        if self._turn_tiles:  # only with Officia: a card after tiles (CB-15)
            out.extend(shared_move("place", k0, r) for r in rots
                       if not self._card_joins(k0, r) and self._card_keeps_tiles(k0, r))
        elif k0 in multi:
            out.extend(shared_move("place", k0, r) for r in rots if not self._card_joins(k0, r))
        elif len(rots) == 4:
            out.extend(place_moves(k0))
        else:
            out.extend(shared_move("place", k0, r) for r in rots)

    def _card_keeps_tiles(self, k0: int, rot: int) -> bool:
        """Whether the tiles laid this turn could still end it in an estate after this card
        (CB-7). Tiles come before a card only when an Officia power completed the objective."""
        card = self._hand
        assert card is not None
        after = self._regions_after({k0 + off: (FIELD, colour, self._turn, -1, card)
                                     for off, colour in zip(OFFSETS, ROTATIONS[card][rot],
                                                            strict=True)})
        return self._pending_ok(self._to_move, after, self._turn_tiles)

    def _actions(self) -> list[ColumbaMove]:
        p = self._to_move
        out: list[ColumbaMove] = []
        reg = self._regions()
        label, regs, owner = reg
        if self._pending_ok_now(p, reg):
            out.append(END)
        sq = self._sq
        if self._can_still_cote(p):
            small, large = self._cotes_left[p]
            loose = self._unattached(self._turn_tiles, reg)
            need = {label[t] for t in loose}
            if len(need) <= 1:
                for rid, members in enumerate(regs):
                    if owner[rid] != -1 or (need and rid not in need):
                        continue
                    for k in members:
                        if self._cote_spot(k):
                            if small:
                                out.append(shared_move("cote", k, 0))
                            if large:
                                out.append(shared_move("cote", k, 1))
        colours = [c for c in range(4) if self._reserve[p][c]]
        if colours:
            friends = self._friends[p]
            cotes = self._cotes
            spots = set()
            for k, s in sq.items():
                if (s[0] == FIELD and s[4] != POND_ID and k not in cotes
                        and (owner[label[k]] == -1 or owner[label[k]] in friends)):
                    spots.add(k)
                for d in NEIGHBOURS:
                    if k + d not in sq:
                        spots.add(k + d)
            effect = self._tile_effect
            for k in sorted(spots):
                for c in colours:
                    if effect(k, c, p) == 0:
                        out.append(shared_move("tile", k, c))
        for verb, problem in (("buy", self._buy_problem), ("raise", self._raise_problem)):
            if problem(p) is None:
                out += [paid_move(verb, pay) for pay in self._payments(p, self._cost(p, verb))]
        if self._roles:
            out += power_moves(self, p)
        if self._adults[p]:
            friends = self._friends[p]
            for rid, members in enumerate(regs):
                if owner[rid] == -1 or owner[rid] in friends:
                    continue
                for k in members:
                    if self._falcon_problem(k, p) is None:
                        out.append(shared_move("falcon", k, 0))
        return out

    def _pending_ok_now(self, p: int, reg: Regions) -> bool:
        return not self._unattached(self._turn_tiles, reg)

    def _falconer(self, p: int) -> bool:
        return bool(self._roles) and self._roles[p] == "falconer"

    def _acquire_problem(self, p: int) -> Illegal | None:
        if self._falconer(p):
            if self._falcon_done >= 2:
                return Illegal(_("the falconer acquires at most two falcons a turn"), "CB-15")
        elif self._falcon_done:
            return Illegal(_("you have already acquired a falcon this turn"), "CB-8")
        return None

    def _cost(self, p: int, verb: str) -> int:
        """Tiles paid for ``buy`` / ``raise`` now: 2 (CB-8); the falconer 1, and 1 + 1 for his
        second ``buy`` of the turn, which gives an adult at once (CB-15)."""
        if not self._falconer(p):
            return 2
        return 2 if verb == "buy" and self._falcon_done else 1

    def _payments(self, p: int, count: int) -> list[tuple[int, ...]]:
        """The distinct ways to pay ``count`` (1 or 2) tiles from ``p``'s reserve, as sorted
        colour tuples: the player chooses which tiles pay (CB-8)."""
        res = self._reserve[p]
        if count == 1:
            return [(c,) for c in range(4) if res[c]]
        return [(a, b) for a in range(4) for b in range(a, 4)
                if res[a] and res[b] and (a != b or res[a] >= 2)]

    def _pay_problem(self, p: int, verb: str, pay: tuple[int, ...]) -> Illegal | None:
        """Why ``p`` may not pay with the tiles ``pay`` for ``verb`` (CB-8, CB-15), or ``None``."""
        cost = self._cost(p, verb)
        rule = "CB-15" if self._falconer(p) else "CB-8"
        what = _("a falcon chick") if verb == "buy" else _("raising a chick")
        if self._falconer(p) and verb == "buy" and self._falcon_done:
            what = _("the falconer's second falcon (an adult at once)")
        if len(pay) != cost:
            return Illegal(
                ngettext("{what} costs {n} tile: write {verb} and the colour of {n} tile "
                             "from your reserve",
                             "{what} costs {n} tiles: write {verb} and the colours of {n} tiles "
                             "from your reserve", cost).format(what=what, n=cost, verb=verb), rule)
        for c in set(pay):
            if pay.count(c) > self._reserve[p][c]:
                return Illegal(ngettext("you have {n} {colour} tile in your reserve, not {count}",
                                 "you have {n} {colour} tiles in your reserve, not {count}",
                                 self._reserve[p][c]).format(
                            n=self._reserve[p][c], colour=_(COLOUR_NAMES[c]),
                            count=pay.count(c)), "CB-8")
        return None

    def _buy_problem(self, p: int) -> Illegal | None:
        why = self._acquire_problem(p)
        if why:
            return why
        if self._falcons == 0:
            return Illegal(_("there are no falcons left in the supply"), "CB-12")
        cost = self._cost(p, "buy")
        if sum(self._reserve[p]) < cost:
            return Illegal(ngettext("a falcon costs {n} tile from your reserve",
                            "a falcon costs {n} tiles from your reserve", cost).format(
                n=cost), "CB-8")
        return None

    def _raise_problem(self, p: int) -> Illegal | None:
        why = self._acquire_problem(p)
        if why:
            return why
        if not any(t < self._turn for t in self._chicks[p]):
            if self._chicks[p]:
                return Illegal(
                    _("a chick may be raised only on a later turn than it was bought"), "CB-8")
            return Illegal(_("you have no falcon chick to raise"), "CB-8")
        cost = self._cost(p, "raise")
        if sum(self._reserve[p]) < cost:
            return Illegal(ngettext("raising a chick costs {n} tile from your reserve",
                            "raising a chick costs {n} tiles from your reserve", cost).format(
                n=cost), "CB-8")
        return None

    def legal_moves(self) -> list[ColumbaMove]:
        if self._legal is None:
            if self._phase == PLACE:
                self._legal = self._placements()
                if self._roles:
                    self._legal += power_moves(self, self._to_move)
            elif self._phase == GOAL_PHASE:
                self._legal = [GOAL, NOGOAL] if self._deck else [NOGOAL]
            elif self._phase == ACTIONS:
                self._legal = self._actions()
            else:
                self._legal = []
        return list(self._legal)

    def parse_move(self, text: str) -> ColumbaMove:
        return parse_columba_move(text)

    def parse(self, text: str) -> ColumbaMove:
        """Resolve ``text`` to the legal move it means, in its canonical form: another spelling
        of the same placement (C23 turned r180 lies as r0) is that placement, and a bare
        ``buy`` / ``raise`` is the one way to pay; where there are several, it is refused as
        ambiguous (``AmbiguousMoveError``) with the choices listed (CB-8)."""
        if isinstance(text, str) and not self.is_terminal():
            move = self.parse_move(text)
            bare = move.verb in ("buy", "raise") and not move.pay
            if bare and action_problem(self, move) is None:
                why = self._ambiguity(move)
                if why is not None:
                    raise AmbiguousMoveError(_("{why}").format(why=why) + " [CB-8]")
        return self.canonical(super().parse(text))

    def canonical(self, move: ColumbaMove) -> ColumbaMove:
        """The canonical value of a legal ``move`` (as listed by :meth:`legal_moves`)."""
        v = move.verb
        if v == "place" and self._hand is not None:
            rot = CANONICAL[self._hand][move.arg]
            return move if rot == move.arg else shared_move("place", move.sq, rot)
        if v in ("buy", "raise") and not move.pay:
            p = self._to_move
            choices = self._payments(p, self._cost(p, v))
            return paid_move(v, choices[0]) if choices else move
        return move

    def _ambiguity(self, move: ColumbaMove) -> str | None:
        """For a bare ``buy`` / ``raise``: why it does not say which tiles pay, or ``None``
        when every way to pay is the same (CB-8)."""
        p = self._to_move
        choices = self._payments(p, self._cost(p, move.verb))
        if len(choices) < 2:
            return None
        return (f"{move.verb!r} could be paid in {len(choices)} ways: "
                + ", ".join(str(paid_move(move.verb, c)) for c in choices)
                + "; name the colours of the tiles you pay")

    def illegal_reason(self, move: Any) -> Illegal | None:
        if not isinstance(move, ColumbaMove):
            return Illegal(_("{move!r} is not a Columba action").format(move=move), "CB-2")
        why = action_problem(self, move)
        if why is not None:
            return why
        if move.verb in ("buy", "raise") and not move.pay:
            ambiguous = self._ambiguity(move)
            if ambiguous is not None:
                return Illegal(ambiguous, "CB-8")
        return None

    # --- playing ------------------------------------------------------------------------------
    def apply_unchecked(self, move: ColumbaMove) -> None:
        """Play a legal action; another spelling of a placement or a bare ``buy`` / ``raise``
        is recorded in its canonical form (:meth:`canonical`)."""
        move = self.canonical(move)
        self._undo.append(Snapshot.take(self))
        play(self, move)
        self._history.append(move)

    def _undo_last(self) -> None:
        self._undo.pop().restore(self)

    # --- the end ------------------------------------------------------------------------------
    def sides(self) -> list[tuple[int, ...]]:
        """The sides that win or lose together: two teams with 4 players, else each player."""
        n = self.num_players
        return [(0, 2), (1, 3)] if n == 4 else [(p,) for p in range(n)]

    def outcome(self) -> Outcome | None:
        if self._phase != OVER:
            return None
        scores = self.scores()
        sides = self.sides()
        totals = [sum(scores[p] for p in side) for side in sides]
        best = max(totals)
        tied = [i for i, t in enumerate(totals) if t == best]
        # made in the current language each time it is asked (the reader's)
        shown = ", ".join(
            f"{'+'.join(_(SEATS[p]) for p in side)} {t}"
            for side, t in zip(sides, totals, strict=True)
        )
        if len(tied) == 1:
            return Outcome(sides[tied[0]], tuple(scores),
                           _("most points: {shown}").format(shown=shown))
        big = [max(self.largest_estate(p) for p in sides[i]) for i in tied]
        top = max(big)
        still = [i for i, b in zip(tied, big, strict=True) if b == top]
        if len(still) == 1:
            return Outcome(sides[still[0]], tuple(scores),
                           ngettext("tied on points ({shown}); the largest estate ({top} pigeon) "
                                    "decides",
                                    "tied on points ({shown}); the largest estate ({top} pigeons) "
                                    "decides", top).format(shown=shown, top=top))
        names = _(" and ").join("+".join(_(SEATS[p]) for p in sides[i]) for i in still)
        return Outcome((), tuple(scores),
                       _("a draw between {names}: tied on points ({shown}) and on the largest "
                         "estate").format(names=names, shown=shown) + " [CB-11]", "CB-11")

    def _drawn_players(self) -> set[int]:
        """The players of the sides still tied after both tie-breaks (CB-11: a draw)."""
        scores = self.scores()
        sides = self.sides()
        totals = [sum(scores[p] for p in side) for side in sides]
        tied = [i for i, t in enumerate(totals) if t == max(totals)]
        big = {i: max(self.largest_estate(p) for p in sides[i]) for i in tied}
        top = max(big.values())
        return {p for i in tied if big[i] == top for p in sides[i]}

    def returns(self) -> list[float]:
        """+1 for the winning side, -1 for the others; in a draw the sides still tied get 0
        and any side behind them -1."""
        out = self.outcome()
        n = self.num_players
        if out is None:
            return [0.0] * n
        if not out.winners:
            drawn = self._drawn_players()
            return [0.0 if p in drawn else -1.0 for p in range(n)]
        return [1.0 if p in out.winners else -1.0 for p in range(n)]

    # --- copies and serialisation -------------------------------------------------------------
    def clone(self) -> Self:
        g = self._bare_copy()
        g._friends = self._friends
        g._kids = self._kids
        g._roles = self._roles
        Snapshot.take(self).hand_over(g)
        g._undo = list(self._undo)  # undo records are never changed in place
        return g

    def _player_json(self, p: int) -> dict[str, Any]:
        small, large = self._cotes_left[p]
        return {
            "objective": self._obj[p],
            "slots": list(self._slots[p]),
            "reserve": {COLOURS[c]: self._reserve[p][c] for c in range(4)},
            "cotes": {"small": small, "large": large},
            "chicks": sorted(self._chicks[p]),
            "adults": self._adults[p],
        }

    def _square_json(self, k: int, s: tuple[Any, ...]) -> list[Any]:
        kind, colour, turn, who, card = s
        if kind == FIELD:
            return ["field", COLOURS[colour], card, turn]
        if kind == TILE:
            return ["tile", COLOURS[colour], who, turn, *([WILD] if k in self._freed else [])]
        return ["falcon", who, turn, None if card is None else COLOURS[card]]

    def position_json(self) -> dict[str, Any]:
        """``squares``: ``"x,y"`` -> ``["field", colour, card, turn laid]``,
        ``["tile", colour, player, turn laid]`` (with a fifth item ``"wild"`` for a tile a falcon
        cut off from every estate, CB-3 c) or ``["falcon", player, turn laid, colour of the
        tile under it or null]``;
        ``deck``: the cards still to draw, top first (server-side state); ``bare`` (only when
        there are any): the squares no card was ever laid on, where a tile lies on the bare
        table (or a falcon over such a tile), CB-2, CB-6."""
        pos: dict[str, Any] = {
            "to_move": self._to_move,
            "phase": self._phase,
            "turn": self._turn,
            "hand": self._hand,
            "deck": list(reversed(self._deck)),
            "squares": {sq_text(k): self._square_json(k, s) for k, s in sorted(self._sq.items())},
            "cotes": {sq_text(k): [p, "large" if large else "small"]
                      for k, (p, large) in sorted(self._cotes.items())},
            "players": [self._player_json(p) for p in range(self.num_players)],
            "supply": {COLOURS[c]: self._supply[c] for c in range(4)},
            "falcons": self._falcons,
            "this_turn": {"cote": self._cote_done, "falcon": self._falcon_done,
                          "tiles": [sq_text(k) for k in self._turn_tiles],
                          "power": self._power,
                          "marshal": None if self._marshal is None else sq_text(self._marshal),
                          "second": self._second},
            "roles": list(self._roles),
            "under": {sq_text(k): [COLOURS[c] for c in v] for k, v in sorted(self._under.items())},
        }
        if self._bare:
            pos["bare"] = [sq_text(k) for k in sorted(self._bare)]
        return pos

    def view(self, player: int | None) -> dict[str, Any]:
        """Everything but the order of the deck: its size is public, its order is not."""
        pos = self.position_json()
        pos["cards_left"] = len(pos.pop("deck"))
        return {
            "game": self.id,
            "options": self.public_options(),
            "to_move": self.current_player(),
            "position": pos,
            "history": list(self._move_texts()),
            "scores": self.scores(),
        }

    def determinize(self, player: int, rng: random.Random) -> Self:
        g = self.clone()
        # shuffle a sorted copy, so that the result cannot depend on the hidden order
        g._deck = sorted(g._deck)
        rng.shuffle(g._deck)
        g._dirty()
        return g

    def reshuffle_unseen(self, rng: random.Random) -> None:
        """Shuffle the draw pile (the only cards nobody has seen) with ``rng``; every view, the
        territory, the hands and the history stay as they are.

        The result depends only on ``rng`` and on which cards are unseen (a sorted copy is
        shuffled). The recorded start of the game is rewritten so that its deck holds the cards
        drawn so far in the order they came, then the new order, and so are the undo records'
        decks: ``to_json`` / ``from_json`` replay the history to this very position, and undo
        goes back to positions that lead here."""
        start = self._drawn_start
        if start is None:
            start = type(self).new(self.options()).position_json()
        order = sorted(self._deck)
        rng.shuffle(order)  # top first
        drawn = start["deck"][:len(start["deck"]) - len(order)]
        deck = drawn + order
        self._deck = order[::-1]  # the next card to draw is the last
        self._drawn_start = {**start, "deck": deck}
        self._undo = [rec._replace(deck=deck[len(deck) - len(rec.deck):][::-1])
                      for rec in self._undo]
        self._legal = None

    def position_key(self) -> Any:
        return (
            self._to_move, self._phase, self._turn, self._hand, tuple(self._deck),
            tuple(sorted(self._sq.items())), tuple(sorted(self._cotes.items())),
            tuple(self._obj), tuple(map(tuple, self._slots)), tuple(map(tuple, self._reserve)),
            tuple(self._supply), tuple(map(tuple, self._cotes_left)),
            tuple(tuple(sorted(c)) for c in self._chicks), tuple(self._adults), self._falcons,
            self._cote_done, self._falcon_done, tuple(self._turn_tiles),
            tuple((k, tuple(v)) for k, v in sorted(self._under.items())), self._power,
            self._marshal, self._second, tuple(self._roles), tuple(sorted(self._freed)),
            tuple(sorted(self._bare)),
        )

    # --- in words (issue 17; the texts live in words.py) ---------------------------------------
    def describe(self, move: Any) -> str:
        return _describe(self, self.as_move(move))

    def highlights(self) -> list[str]:
        return _highlights(self)

    # --- the text diagram ----------------------------------------------------------------------
    def diagram(self) -> str:
        """The position on one line (the form is in :mod:`rulebox.games.columba.diagram`)."""
        return _diagram.write(self.position_json(), self.num_players, self._kids,
                              bool(self.opts.get("pond")))

    @classmethod
    def _read_diagram(cls, text: str) -> tuple[dict[str, Any], dict[str, str]]:
        return _diagram.read(text)

    # --- loading a drawn position -------------------------------------------------------------
    def _load_position(self, data: dict[str, Any]) -> None:
        load_position(self, data)
        self._undo = []
        self._dirty()
