"""Columba (Laurent Escoffier, Ludocom 2012): the rules CB-1..CB-12 and CB-16 of RULINGS.md.

The territory is a dict from square key (see :mod:`cards`) to the top item there, a tuple
``(kind, colour, turn, who, card)``: a wild pigeon ``FIELD`` of a card (``card`` is its id,
``turn`` the turn it was laid), a domesticated pigeon ``TILE`` (``who`` laid it on ``turn``) or a
``FALCON`` (``who`` laid it; ``card`` is the colour of a tile under it, or ``None``). Only
the top item counts, so nothing else under it is kept. Dovecotes
stand on squares (``_cotes``: key -> (owner, large)).

Regions are the orthogonally connected squares of one colour (falcons and empty squares
separate them); a region holding a dovecote is its owner's estate. Regions are computed by a
flood fill when first needed after a change and cached.

The turn: the player to move always holds a card (drawn as part of the previous ``end``, from
the deck order fixed at set-up). ``place`` lays it (phase ``place``); completing the objective
leads to phase ``goal`` (``goal`` / ``nogoal``, after which the old objective card is in hand);
otherwise phase ``actions``: ``cote``, ``tile``, ``buy``, ``raise``, ``falcon`` in any order, and
``end``. The game is over at the ``end`` of a turn in which the deck ran out (CB-11).

Undo keeps one snapshot of the mutable state per move (the state is small).
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any, Self

from rulebox.core.errors import IllegalMoveError, OptionError
from rulebox.core.game import TERMINAL, Game, Outcome
from rulebox.core.options import OptionSpec, choice_option, int_option
from rulebox.core.rng import rng
from rulebox.games.columba.cards import (
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
    STRIDE,
    key,
    sq_text,
)
from rulebox.games.columba.moves import (
    BUY,
    END,
    GOAL,
    NOGOAL,
    RAISE,
    ColumbaMove,
    parse_columba_move,
)

FIELD, TILE, FALCON = 0, 1, 2
KIND_NAMES = ("field", "tile", "falcon")

PLACE, GOAL_PHASE, ACTIONS, OVER = "place", "goal", "actions", "over"
PHASES = (PLACE, GOAL_PHASE, ACTIONS, OVER)

SEATS = ("red", "purple", "yellow", "green")
TILES_PER_COLOUR = 15
FALCONS = 12
PENALTY = 4
COTES = {2: (3, 1), 3: (2, 1), 4: (1, 1)}
"""(small, large) dovecotes per player by number of players (CB-1)."""

# Outside neighbours of each card field (OFFSETS order), relative to the card's top-left, and
# the pairs of card fields that touch each other.
_FIELD_OUTSIDE = ((-1, -STRIDE), (STRIDE - 1, 2 * STRIDE), (2, -STRIDE + 1),
                  (STRIDE + 2, 2 * STRIDE + 1))
_FIELD_PAIRS = ((0, 1), (0, 2), (1, 3), (2, 3))

_MOVES: dict[tuple[str, int, int], ColumbaMove] = {}


def _mv(verb: str, sq: int, arg: int) -> ColumbaMove:
    """Move values are shared (cheap to list thousands of times)."""
    k = (verb, sq, arg)
    m = _MOVES.get(k)
    if m is None:
        m = _MOVES[k] = ColumbaMove(verb, sq, arg)
    return m


def _place_moves(k0: int) -> tuple[ColumbaMove, ...]:
    """The 4 ``place`` moves on top-left ``k0`` (shared values)."""
    ms = _PLACES.get(k0)
    if ms is None:
        ms = _PLACES[k0] = tuple(_mv("place", k0, r) for r in range(4))
    return ms


_PLACES: dict[int, tuple[ColumbaMove, ...]] = {}


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


PLAYERS_OPTION = int_option("players", 2, "number of players (4 = two teams, 0+2 against 1+3)",
                            2, 4)
DECK_OPTION = OptionSpec(
    "deck", None,
    "order of the shuffled cards, ids comma-separated, first starts the territory (CB-16); "
    "a shorter list plays a shorter game; P is the Pond (with pond=1)",
    parse=_parse_deck, show=lambda v: ",".join(v),
)


VARIANT_OPTION = choice_option(
    "variant", "standard", "standard rules, or the children's game (CB-13)", ("standard", "kids"))
POND_OPTION = int_option("pond", 0, "1: shuffle the Pond card into the deck (CB-14)", 0, 1)
ROLES = ("architect", "farmerswife", "marshal", "peasant", "thief", "falconer")
"""The 6 Officia roles (CB-15); each but the falconer's is a verb."""


def _parse_roles(text: str) -> tuple[str, ...]:
    names = tuple(t.strip().lower().replace("'", "").replace(" ", "")
                  for t in text.split(",") if t.strip())
    bad = [r for r in names if r not in ROLES]
    if bad:
        raise ValueError(f"unknown role {bad[0][:20]!r} (roles: {', '.join(ROLES)})")
    if len(set(names)) != len(names):
        raise ValueError("each role is dealt once")
    return names


OFFICIA_OPTION = int_option("officia", 0, "1: deal each player an Officia role (CB-15)", 0, 1)
ROLES_OPTION = OptionSpec(
    "roles", None, "the Officia roles in seat order, comma-separated (CB-16): "
    + ", ".join(ROLES), parse=_parse_roles, show=lambda v: ",".join(v))


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
                raise OptionError("the deck lists the Pond (P): add pond=1 [CB-14]")
        self._roles: list[str] = self._deal_roles(n)
        self._friends: tuple[tuple[int, ...], ...] = tuple(
            (p, (p + 2) % 4) if n == 4 else (p,) for p in range(n)
        )
        self._sq: dict[int, tuple[Any, ...]] = {}
        self._cotes: dict[int, tuple[int, bool]] = {}
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
        self._undo: list[tuple[Any, ...]] = []
        self._dirty()

    def _deal_roles(self, n: int) -> list[str]:
        officia = bool(self.opts.get("officia"))
        given = self.opts.get("roles")
        if given is not None and not officia:
            raise OptionError("roles= needs officia=1 [CB-15]")
        if officia and self.opts.get("variant") == "kids":
            raise OptionError("the children's game has no Officia (no tiles) [CB-13]")
        if not officia:
            return []
        if given is not None:
            if len(given) != n:
                raise OptionError(f"roles= must name {n} roles, one per seat [CB-16]")
            return list(given)
        dealt = rng(self.opts["seed"], "columba-roles").sample(ROLES, n)
        self.opts["roles"] = tuple(dealt)  # in force, so `new` echoes it
        return dealt

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
        self._reg: tuple[dict[int, int], list[list[int]], list[int]] | None = None
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

    def turn_flags(self) -> tuple[bool, bool, list[int]]:
        """This turn: dovecote placed, falcon acquired, squares of tiles placed."""
        return self._cote_done, self._falcon_done, list(self._turn_tiles)

    # --- regions and estates --------------------------------------------------------------------
    def _regions(self) -> tuple[dict[int, int], list[list[int]], list[int]]:
        """(label of each pigeon square, members of each region, owner of each region or -1)."""
        if self._reg is not None:
            return self._reg
        sq = self._sq
        label: dict[int, int] = {}
        regs: list[list[int]] = []
        for k, s in sq.items():
            if k in label or s[0] == FALCON:
                continue
            c = s[1]
            rid = len(regs)
            label[k] = rid
            members = [k]
            stack = [k]
            while stack:
                a = stack.pop()
                for d in NEIGHBOURS:
                    b = a + d
                    if b not in label:
                        t = sq.get(b)
                        if t is not None and t[1] == c and t[0] != FALCON:
                            label[b] = rid
                            members.append(b)
                            stack.append(b)
            regs.append(members)
        owner = [-1] * len(regs)
        for k, (p, _large) in self._cotes.items():
            owner[label[k]] = p
        self._reg = (label, regs, owner)
        return self._reg

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
        return f"{SEATS[p]} (player {p})"

    def _cover_problem(self, k: int, p: int) -> tuple[str, str] | None:
        """Why the card may not cover square ``k`` to capture (CB-3), or ``None``."""
        s = self._sq[k]
        where = sq_text(k)
        if s[0] == FALCON:
            return f"a card may not cover the falcon on {where}", "CB-3"
        if k in self._cotes:
            return f"a card may not cover the dovecote on {where}", "CB-3"
        if s[4] == POND_ID:
            return f"nothing may cover the Pond ({where})", "CB-14"
        label, _regs, owner = self._regions()
        o = owner[label[k]]
        friends = self._friends[p]
        if s[0] == FIELD:
            if o != -1 and o not in friends:
                return (f"{where} is in {self._who(o)}'s estate; only its owner may capture "
                        "there", "CB-10")
            return None
        # a domesticated tile
        if s[2] == self._turn:
            return (f"the tile on {where} was laid this turn; it may be captured a round later "
                    "at the earliest", "CB-3")
        if o == -1:
            return None  # (c) cut off from every estate
        if o == p:
            if s[3] == p and s[2] < self._turn:
                return None  # (a)
            if s[3] == p:
                return (f"the tile on {where} was laid this turn; you may capture your own "
                        "estate's tile only a round later", "CB-3")
            return (f"the tile on {where} was laid by {self._who(s[3])}; in your own estate "
                    "you may capture only tiles you laid yourself", "CB-3")
        if o in friends:
            return None  # (b) the partner's estate
        return (f"{where} is in {self._who(o)}'s estate; only its owner may capture there",
                "CB-10")

    def _capture_problem(self, covered: list[int], p: int) -> tuple[str, str] | None:
        """Why these squares may not be captured together by ``p`` (CB-3, CB-4, CB-12)."""
        if self._hand == POND_ID:
            return "the Pond is laid without covering anything", "CB-14"
        if self._kids:
            return self._kids_cover_problem(covered, p)
        obj = self._obj[p]
        if obj is None:
            return ("you have no objective, so you cannot capture: lay the card so that it "
                    "covers nothing and touches the territory", "CB-4")
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
                return (f"the card would capture {need[c]} {COLOUR_NAMES[c]} pigeon(s) but your "
                        f"objective has {free[c]} free {COLOUR_NAMES[c]} slot(s)", "CB-3")
            if wild[c] > self._supply[c]:
                return (f"the supply has only {self._supply[c]} {COLOUR_NAMES[c]} tile(s) left",
                        "CB-12")
        return None

    def _kids_cover_problem(self, covered: list[int], p: int) -> tuple[str, str] | None:
        """The children's game: a card may cover fields outside opponents' estates (CB-13)."""
        for k in covered:
            where = sq_text(k)
            if k in self._cotes:
                return f"a card may not cover the dovecote on {where}", "CB-13"
            if self._sq[k][4] == POND_ID:
                return f"nothing may cover the Pond ({where})", "CB-14"
            o = self.estate_owner(k)
            if o != -1 and o not in self._friends[p]:
                return f"{where} is in {self._who(o)}'s estate", "CB-13"
        return None

    def _position_problem(self, k0: int, p: int) -> tuple[str, str] | None:
        """Why no rotation of a card may lie on top-left ``k0`` (CB-2, CB-3), or ``None``."""
        sq = self._sq
        covered = [k0 + o for o in OFFSETS if k0 + o in sq]
        m = self._marshal
        if m is not None:
            if m not in covered:
                return f"the marshal's card must cover {sq_text(m)}", "CB-15"
            covered.remove(m)
            return self._capture_problem(covered, p) if covered else None
        if not covered:
            if any(k0 + e in sq for e in EDGE_NEIGHBOURS):
                return None
            return ("the card must cover fields or touch the territory along an edge of a field",
                    "CB-2")
        return self._capture_problem(covered, p)

    def _card_joins(self, k0: int, colours: tuple[int, ...]) -> bool:
        """Whether a card with ``colours`` on ``k0`` would join two estates (CB-9)."""
        label, _regs, owner = self._regions()
        sq = self._sq
        parent = [0, 1, 2, 3]
        for a, b in _FIELD_PAIRS:
            if colours[a] == colours[b]:
                ra, rb = parent[a], parent[b]
                if ra != rb:
                    low, high = min(ra, rb), max(ra, rb)
                    parent = [low if x == high else x for x in parent]
        touched: dict[int, set[int]] = {}
        for i in range(4):
            c = colours[i]
            for off in _FIELD_OUTSIDE[i]:
                b = k0 + off
                t = sq.get(b)
                if t is not None and t[1] == c and t[0] != FALCON:
                    rid = label[b]
                    if owner[rid] != -1:
                        group = touched.setdefault(parent[i], set())
                        group.add(rid)
                        if len(group) > 1:
                            return True
        return False

    def _unattached(self, tiles: Iterable[int], p: int,
                    reg: tuple[dict[int, int], list[list[int]], list[int]]) -> list[int]:
        label, _regs, owner = reg
        friends = self._friends[p]
        return [t for t in tiles if owner[label[t]] not in friends]

    def _cote_spot(self, k: int) -> bool:
        """Whether a dovecote may stand on ``k`` as far as the square goes (CB-6)."""
        s = self._sq.get(k)
        return (s is not None and s[0] != FALCON and k not in self._cotes
                and not (s[0] == FIELD and s[2] == self._turn))

    def _can_still_cote(self, p: int) -> bool:
        return not self._cote_done and (self._cotes_left[p][0] + self._cotes_left[p][1]) > 0

    def _pending_ok(self, p: int, reg: tuple[dict[int, int], list[list[int]], list[int]],
                    tiles: list[int]) -> bool:
        """Whether the turn can still end with every tile laid this turn in an estate of ``p``
        (or the partner): either they all are, or ``p`` may still place a dovecote and they all
        lie in one group without one, where a dovecote may stand (CB-7)."""
        loose = self._unattached(tiles, p, reg)
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

    def _tile_problem(self, k: int, c: int, p: int) -> tuple[str, str] | None:
        """Why ``p`` may not lay a tile of colour ``c`` on ``k`` (CB-7, CB-9), or ``None``."""
        sq = self._sq
        s = sq.get(k)
        where = sq_text(k)
        reg = self._regions()
        label, _regs, owner = reg
        if s is None:
            if not any(k + d in sq for d in NEIGHBOURS):
                return (f"{where} is not next to the territory; a tile goes on a wild pigeon or "
                        "on an empty square next to the territory", "CB-7")
        elif s[0] == FALCON:
            return f"a tile may not cover the falcon on {where}", "CB-7"
        elif s[0] == TILE:
            return f"a tile may not cover another tile ({where})", "CB-7"
        elif s[4] == POND_ID:
            return f"nothing may cover the Pond ({where})", "CB-14"
        elif k in self._cotes:
            return f"a tile may not cover the dovecote on {where}", "CB-7"
        else:
            o = owner[label[k]]
            if o != -1 and o not in self._friends[p]:
                return (f"{where} is in {self._who(o)}'s estate; a tile may not cover an "
                        "opponent's pigeon", "CB-7")
        code = self._tile_effect(k, c, p)
        if code == 1:
            return f"a {COLOUR_NAMES[c]} tile on {where} would join two estates", "CB-9"
        if code == 2:
            return (f"a tile on {where} would not belong to your estate by the end of the turn "
                    "(every tile laid this turn must, and you could not make it so)", "CB-7")
        return None

    def _tile_effect(self, k: int, c: int, p: int) -> int:
        """For a tile that may go on ``k`` as far as the square goes: 0 if it may, 1 if it would
        join two estates (CB-9), 2 if the turn could then no longer end (CB-7)."""
        sq = self._sq
        s = sq.get(k)
        reg = self._regions()
        label, regs, owner = reg
        # regions of colour c that the tile joins
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
        friends = self._friends[p]
        new_owner = owner[estates[0]] if estates else -1
        if not turn_tiles:
            if new_owner in friends:
                return 0
            # a lone tile outside the estates: only a dovecote still to come can save it
            return 0 if new_owner == -1 and self._can_still_cote(p) else 2
        tiles = [*turn_tiles, k]
        # the tile may cut the region of another colour it covers: split it locally
        sub: dict[int, int] = {}
        sub_owner: list[int] = []
        sub_members: list[list[int]] = []
        if s is not None and s[1] != c and any(label[t] == label[k] for t in turn_tiles):
            members = set(regs[label[k]])
            members.discard(k)
            for start in members:
                if start in sub:
                    continue
                sid = len(sub_members)
                sub[start] = sid
                group = [start]
                stack = [start]
                while stack:
                    a = stack.pop()
                    for d in NEIGHBOURS:
                        b = a + d
                        if b in members and b not in sub:
                            sub[b] = sid
                            group.append(b)
                            stack.append(b)
                sub_members.append(group)
                cote = next((q for q in group if q in self._cotes), None)
                sub_owner.append(-1 if cote is None else self._cotes[cote][0])
        loose_regions: set[int] = set()
        for t in tiles:
            if t == k or label[t] in joined:
                rid, o = -2, new_owner
            elif t in sub:
                rid = -3 - sub[t]
                o = sub_owner[sub[t]]
            else:
                rid = label[t]
                o = owner[rid]
            if o not in friends:
                loose_regions.add(rid)
        if not loose_regions:
            return 0
        if not self._can_still_cote(p) or len(loose_regions) != 1:
            return 2
        rid = loose_regions.pop()
        if rid == -2:
            return 0 if new_owner == -1 else 2  # the tile's own square takes a dovecote
        if rid <= -3:
            sid = -3 - rid
            ok = sub_owner[sid] == -1 and any(self._cote_spot(q) for q in sub_members[sid])
        else:
            ok = owner[rid] == -1 and any(self._cote_spot(q) for q in regs[rid])
        return 0 if ok else 2

    def _cote_problem(self, k: int, large: int, p: int) -> tuple[str, str] | None:
        """Why ``p`` may not place a dovecote on ``k`` (CB-6, CB-9), or ``None``."""
        size = "large" if large else "small"
        where = sq_text(k)
        if self._cote_done:
            return "you have already placed a dovecote this turn", "CB-6"
        if self._cotes_left[p][large] == 0:
            return f"you have no {size} dovecote left", "CB-1"
        s = self._sq.get(k)
        if s is None:
            return f"a dovecote stands on a pigeon; {where} is empty", "CB-6"
        if s[0] == FALCON:
            return f"a dovecote may not stand on the falcon on {where}", "CB-6"
        if k in self._cotes:
            return f"there is already a dovecote on {where}", "CB-6"
        if s[0] == FIELD and s[2] == self._turn:
            return (f"{where} is a field of a card laid this turn; a dovecote may not go on it",
                    "CB-6")
        reg = self._regions()
        label, _regs, owner = reg
        o = owner[label[k]]
        if o != -1 and o != p:
            return f"{where} is in {self._who(o)}'s estate", "CB-6"
        if o == p:
            return (f"{where} is already in your estate; a second dovecote there would make two "
                    "estates one", "CB-9")
        loose = self._unattached(self._turn_tiles, p, reg)
        if any(label[t] != label[k] for t in loose):
            return ("the tiles you laid this turn must belong to your estate when the turn ends; "
                    "this dovecote would leave " + ", ".join(
                        sq_text(t) for t in loose if label[t] != label[k]) + " outside",
                    "CB-7")
        return None

    def _falcon_problem(self, k: int, p: int) -> tuple[str, str] | None:
        where = sq_text(k)
        if self._adults[p] == 0:
            return "you have no adult falcon to place", "CB-8"
        s = self._sq.get(k)
        if s is None:
            return f"a falcon covers a pigeon; {where} is empty", "CB-8"
        if s[0] == FALCON:
            return f"a falcon may not cover another falcon ({where})", "CB-8"
        if s[4] == POND_ID:
            return f"nothing may cover the Pond ({where})", "CB-14"
        if k in self._cotes:
            return f"a falcon may never cover a dovecote ({where})", "CB-8"
        o = self.estate_owner(k)
        if o == -1 or o in self._friends[p]:
            return (f"a falcon goes on a pigeon of an opponent's estate; {where} is "
                    + ("in no estate" if o == -1 else "not an opponent's"), "CB-8")
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
            return True
        if s[0] == FIELD or self._kids:
            return o in self._friends[p]
        if o == p:
            return s[3] == p and s[2] < self._turn
        return o in self._friends[p]

    def _placements(self) -> list[ColumbaMove]:
        p = self._to_move
        assert self._hand is not None
        rots = ROTATIONS[self._hand]
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
        # top-lefts where a card touches two estates: only there may it join them (CB-9)
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
            touching = {q - e for q in sq for e in EDGE_NEIGHBOURS} - covering
        else:  # the marshal's card covers his square, uncaptured (CB-15)
            covering = {marshal - o for o in OFFSETS}
            touching = set()
        if (obj is not None or marshal is not None) and self._hand != POND_ID:
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

    def _place_all(self, out: list[ColumbaMove], k0: int,
                   rots: tuple[tuple[int, int, int, int], ...], multi: set[int]) -> None:
        """Add the rotations of a card on ``k0`` that join no estates (CB-9)."""
        if self._turn_tiles:  # only with Officia: a card after tiles (CB-15)
            out.extend(_mv("place", k0, r) for r in range(4)
                       if not self._card_joins(k0, rots[r]) and self._card_keeps_tiles(k0, r))
        elif k0 in multi:
            out.extend(_mv("place", k0, r) for r in range(4) if not self._card_joins(k0, rots[r]))
        else:
            out.extend(_place_moves(k0))

    def _card_keeps_tiles(self, k0: int, rot: int) -> bool:
        """Whether the tiles laid this turn could still end it in an estate after this card
        (CB-7). Tiles come before a card only when an Officia power completed the objective."""
        p = self._to_move
        saved_sq, saved_reg = self._sq, self._reg
        sq = dict(saved_sq)
        for off, colour in zip(OFFSETS, ROTATIONS[self._hand][rot], strict=True):  # type: ignore[index]
            sq[k0 + off] = (FIELD, colour, self._turn, -1, self._hand)
        self._sq, self._reg = sq, None
        try:
            return self._pending_ok(p, self._regions(), self._turn_tiles)
        finally:
            self._sq, self._reg = saved_sq, saved_reg

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
            loose = self._unattached(self._turn_tiles, p, reg)
            need = {label[t] for t in loose}
            if len(need) <= 1:
                for rid, members in enumerate(regs):
                    if owner[rid] != -1 or (need and rid not in need):
                        continue
                    for k in members:
                        if self._cote_spot(k):
                            if small:
                                out.append(_mv("cote", k, 0))
                            if large:
                                out.append(_mv("cote", k, 1))
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
                        out.append(_mv("tile", k, c))
        if self._buy_problem(p) is None:
            out.append(BUY)
        if self._raise_problem(p) is None:
            out.append(RAISE)
        if self._roles:
            out += self._power_moves(p)
        if self._adults[p]:
            friends = self._friends[p]
            for rid, members in enumerate(regs):
                if owner[rid] == -1 or owner[rid] in friends:
                    continue
                for k in members:
                    if self._falcon_problem(k, p) is None:
                        out.append(_mv("falcon", k, 0))
        return out

    def _pending_ok_now(self, p: int, reg: tuple[dict[int, int], list[list[int]], list[int]]
                        ) -> bool:
        return not self._unattached(self._turn_tiles, p, reg)

    def _falconer(self, p: int) -> bool:
        return bool(self._roles) and self._roles[p] == "falconer"

    def _acquire_problem(self, p: int) -> tuple[str, str] | None:
        if self._falconer(p):
            if self._falcon_done >= 2:
                return "the falconer acquires at most two falcons a turn", "CB-15"
        elif self._falcon_done:
            return "you have already acquired a falcon this turn", "CB-8"
        return None

    def _buy_problem(self, p: int) -> tuple[str, str] | None:
        why = self._acquire_problem(p)
        if why:
            return why
        if self._falcons == 0:
            return "there are no falcons left in the supply", "CB-12"
        cost = 1 if self._falconer(p) else 2
        if sum(self._reserve[p]) < cost:
            return f"a falcon chick costs {cost} tile(s) from your reserve", "CB-8"
        return None

    def _raise_problem(self, p: int) -> tuple[str, str] | None:
        why = self._acquire_problem(p)
        if why:
            return why
        if not any(t < self._turn for t in self._chicks[p]):
            if self._chicks[p]:
                return "a chick may be raised only on a later turn than it was bought", "CB-8"
            return "you have no falcon chick to raise", "CB-8"
        cost = 1 if self._falconer(p) else 2
        if sum(self._reserve[p]) < cost:
            return f"raising a chick costs {cost} tile(s) from your reserve", "CB-8"
        return None

    def legal_moves(self) -> list[ColumbaMove]:
        if self._legal is None:
            if self._phase == PLACE:
                self._legal = self._placements()
                if self._roles:
                    self._legal += self._power_moves(self._to_move)
            elif self._phase == GOAL_PHASE:
                self._legal = [GOAL, NOGOAL] if self._deck else [NOGOAL]
            elif self._phase == ACTIONS:
                self._legal = self._actions()
            else:
                self._legal = []
        return list(self._legal)

    def parse_move(self, text: str) -> ColumbaMove:
        return parse_columba_move(text)

    def check_move(self, move: Any) -> None:
        if not isinstance(move, ColumbaMove):
            raise IllegalMoveError(f"{move!r} is not a Columba action", "CB-2")
        why = self._move_problem(move)
        if why is not None:
            raise IllegalMoveError(*why)

    def _move_problem(self, move: ColumbaMove) -> tuple[str, str] | None:
        p = self._to_move
        v = move.verb
        phase = self._phase
        if phase == OVER:
            return "the game is over", "CB-11"
        if self._kids and v in ("goal", "nogoal", "tile", "buy", "raise", "falcon"):
            return ("the children's game has only cards and dovecotes: no objectives, tiles or "
                    "falcons", "CB-13")
        if v in ROLES:
            return self._power_problem(move, p)
        if phase == PLACE and v != "place":
            return (f"first lay the card in hand ({self._hand}) with place x,y rN", "CB-2")
        if phase == GOAL_PHASE and v not in ("goal", "nogoal"):
            return ("your objective is complete: say goal (take a new one) or nogoal first",
                    "CB-4")
        if v == "place":
            if phase != PLACE:
                return "you have no card in hand to lay this turn", "CB-2"
            why = self._position_problem(move.sq, p)
            if why:
                return why
            if self._card_joins(move.sq, ROTATIONS[self._hand][move.arg]):  # type: ignore[index]
                return "laid so, the card would join two estates into one", "CB-9"
            if self._turn_tiles and not self._card_keeps_tiles(move.sq, move.arg):
                return ("laid so, the card would cut the tiles you laid this turn off your "
                        "estate", "CB-7")
            return None
        if v == "goal":
            if phase != GOAL_PHASE:
                return "you may take a new objective only when you complete one", "CB-4"
            if not self._deck:
                return "the deck is empty: there is no new objective to take", "CB-4"
            return None
        if v == "nogoal":
            if phase != GOAL_PHASE:
                return "nogoal answers a completed objective; yours is not complete", "CB-4"
            return None
        if v == "end":
            loose = self._unattached(self._turn_tiles, p, self._regions())
            if loose:
                return ("every tile laid this turn must belong to your estate when the turn "
                        "ends; " + ", ".join(sq_text(t) for t in loose) + " does not", "CB-7")
            return None
        if v == "cote":
            return self._cote_problem(move.sq, move.arg, p)
        if v == "tile":
            if self._reserve[p][move.arg] == 0:
                return f"you have no {COLOUR_NAMES[move.arg]} tile in your reserve", "CB-7"
            return self._tile_problem(move.sq, move.arg, p)
        if v == "buy":
            return self._buy_problem(p)
        if v == "raise":
            return self._raise_problem(p)
        if v == "falcon":
            return self._falcon_problem(move.sq, p)
        return f"unknown action {v!r}", "CB-2"

    # --- Officia (CB-15) ------------------------------------------------------------------------
    def _marshal_can_place(self, k: int) -> bool:
        """Whether the card in hand could then be laid over ``k`` (the marshal's square)."""
        saved = self._marshal
        self._marshal = k
        try:
            return bool(self._placements())
        finally:
            self._marshal = saved

    def _cotes_after(self, cotes: dict[int, tuple[int, bool]], p: int) -> bool:
        """Whether the tiles laid this turn could still end the turn with these dovecotes."""
        saved, saved_reg = self._cotes, self._reg
        self._cotes, self._reg = cotes, None
        try:
            return self._pending_ok(p, self._regions(), self._turn_tiles)
        finally:
            self._cotes, self._reg = saved, saved_reg

    def _power_problem(self, move: ColumbaMove, p: int) -> tuple[str, str] | None:
        """Why ``p`` may not use this Officia power now (CB-15), or ``None``."""
        v = move.verb
        if not self._roles:
            return "this game has no Officia roles (officia=0)", "CB-15"
        if self._roles[p] != v:
            return f"that is the {v}'s power; you are the {self._roles[p]}", "CB-15"
        if self._power:
            return f"the {v}'s power is used once per turn", "CB-15"
        if self._phase == GOAL_PHASE:
            return "your objective is complete: say goal or nogoal first", "CB-4"
        c = COLOUR_NAMES[move.arg]
        if v == "marshal":
            if self._phase != PLACE:
                return "the marshal pays before the card is laid", "CB-15"
            if self._hand == POND_ID:
                return "the Pond is laid without covering anything", "CB-14"
            if not self._reserve[p][move.arg]:
                return f"you have no {c} tile in your reserve", "CB-15"
            where = sq_text(move.sq)
            if move.sq not in self._sq:
                return f"{where} is empty: there is no pigeon to cover", "CB-15"
            label, _regs, owner = self._regions()
            if not self._coverable(move.sq, p, label, owner):
                return (f"the card may not cover {where} (a dovecote, a falcon, the Pond, or a "
                        "square you may not capture in)", "CB-15")
            if not self._marshal_can_place(move.sq):
                return f"the card in hand cannot be laid over {where}", "CB-15"
            return None
        if self._phase != ACTIONS:
            return f"the {v}'s power comes after the card", "CB-15"
        if v in ("farmerswife", "thief"):
            obj = self._obj[p]
            if v == "thief":
                victim = move.sq2
                if not 0 <= victim < self.num_players or victim == p:
                    return "steal from another player (a seat number)", "CB-15"
                if not self._reserve[victim][move.arg]:
                    return f"player {victim} has no {c} tile in reserve", "CB-15"
            elif not self._reserve[p][move.arg]:
                return f"you have no {c} tile in your reserve", "CB-15"
            if obj is None:
                return "you have no objective to put the tile on", "CB-15"
            if not any(f == move.arg and not s
                       for f, s in zip(CARDS[obj].fields, self._slots[p], strict=True)):
                return f"your objective has no free {c} slot", "CB-15"
            return None
        where = sq_text(move.sq)
        cote = self._cotes.get(move.sq)
        if cote is None or cote[0] != p:
            return f"you have no dovecote on {where}", "CB-15"
        if v == "peasant":
            colour = self._sq[move.sq][1]
            if not self._reserve[p][colour]:
                return (f"the estate on {where} is {COLOUR_NAMES[colour]}: you have no such "
                        "tile in reserve", "CB-15")
            return None
        # the architect
        if not move.arg:
            if cote[1]:
                return f"the dovecote on {where} is large already", "CB-15"
            if not self._cotes_left[p][1]:
                return "you have no large dovecote in reserve", "CB-15"
            return None
        dest = move.sq2
        there = sq_text(dest)
        if dest == move.sq:
            return f"the dovecote is on {there} already", "CB-15"
        if not self._cote_spot(dest):
            return (f"a dovecote may not stand on {there} (empty, a falcon, a dovecote, or a "
                    "card laid this turn)", "CB-6")
        label, _regs, owner = self._regions()
        if owner[label[dest]] != -1 and label[dest] != label[move.sq]:
            return f"{there} is in an estate already", "CB-9"
        if self._turn_tiles:
            cotes = dict(self._cotes)
            del cotes[move.sq]
            cotes[dest] = cote
            if not self._cotes_after(cotes, p):
                return ("the tiles you laid this turn would no longer belong to your estate",
                        "CB-7")
        return None

    def _power_moves(self, p: int) -> list[ColumbaMove]:
        """The Officia power of ``p`` that may be used now (CB-15)."""
        role = self._roles[p] if self._roles else None
        if role is None or role == "falconer" or self._power:
            return []
        res = self._reserve[p]
        out: list[ColumbaMove] = []
        if role == "marshal":
            if self._phase != PLACE or self._hand == POND_ID or not any(res):
                return []
            label, _regs, owner = self._regions()
            for k in sorted(self._sq):
                if self._coverable(k, p, label, owner) and self._marshal_can_place(k):
                    out.extend(_mv("marshal", k, c) for c in range(4) if res[c])
            return out
        if self._phase != ACTIONS:
            return []
        cands: list[ColumbaMove] = []
        if role == "farmerswife":
            cands = [_mv("farmerswife", 0, c) for c in range(4) if res[c]]
        elif role == "thief":
            cands = [ColumbaMove("thief", 0, c, v) for v in range(self.num_players) if v != p
                     for c in range(4) if self._reserve[v][c]]
        elif role == "peasant":
            cands = [_mv("peasant", k, 0) for k, (o, _l) in sorted(self._cotes.items()) if o == p]
        elif role == "architect":
            mine = [k for k, (o, _l) in sorted(self._cotes.items()) if o == p]
            cands = [_mv("architect", k, 0) for k in mine]
            label, _regs, owner = self._regions()
            spots = [d for d in sorted(self._sq) if self._cote_spot(d)]
            for k in mine:
                cands += [ColumbaMove("architect", k, 1, d) for d in spots
                          if owner[label[d]] == -1 or label[d] == label[k]]
        return [m for m in cands if self._power_problem(m, p) is None]

    # --- playing ------------------------------------------------------------------------------
    def _snapshot(self) -> tuple[Any, ...]:
        return (
            dict(self._sq), dict(self._cotes), list(self._deck), self._hand, self._phase,
            self._to_move, self._turn, list(self._obj), [list(s) for s in self._slots],
            [list(r) for r in self._reserve], list(self._supply),
            [list(c) for c in self._cotes_left], [list(c) for c in self._chicks],
            list(self._adults), self._falcons, self._cote_done, self._falcon_done,
            list(self._turn_tiles), {k: list(v) for k, v in self._under.items()}, self._power,
            self._marshal, self._second,
        )

    def _restore(self, snap: tuple[Any, ...]) -> None:
        (self._sq, self._cotes, self._deck, self._hand, self._phase, self._to_move, self._turn,
         self._obj, self._slots, self._reserve, self._supply, self._cotes_left, self._chicks,
         self._adults, self._falcons, self._cote_done, self._falcon_done,
         self._turn_tiles, self._under, self._power, self._marshal, self._second) = snap
        self._dirty()

    def apply_unchecked(self, move: ColumbaMove) -> None:
        self._undo.append(self._snapshot())
        p = self._to_move
        v = move.verb
        if v == "place":
            self._do_place(move.sq, move.arg, p)
        elif v == "goal":
            old = self._obj[p]
            self._obj[p] = self._deck.pop()
            self._slots[p] = [False] * 4
            self._hand = old
            self._phase = PLACE
        elif v == "nogoal":
            self._hand = self._obj[p]
            self._obj[p] = None
            self._slots[p] = [False] * 4
            self._phase = PLACE
        elif v == "end":
            if self._second is not None:
                self._forfeit_second(p)
            self._cote_done = False
            self._falcon_done = 0
            self._turn_tiles = []
            self._power = False
            if not self._deck:
                self._phase = OVER
            else:
                self._to_move = (p + 1) % self.num_players
                self._turn += 1
                self._hand = self._deck.pop()
                self._phase = PLACE
        elif v == "cote":
            self._cotes[move.sq] = (p, bool(move.arg))
            self._cotes_left[p][move.arg] -= 1
            self._cote_done = True
        elif v == "tile":
            self._sq[move.sq] = (TILE, move.arg, self._turn, p, None)
            self._reserve[p][move.arg] -= 1
            self._turn_tiles = [*self._turn_tiles, move.sq]
        elif v == "buy":
            self._pay(p, 1 if self._falconer(p) else 2)
            self._falcons -= 1
            self._chicks[p] = [*self._chicks[p], self._turn]
            self._falcon_done += 1
            if self._falcon_done == 2:
                self._second = "buy"
        elif v == "raise":
            self._pay(p, 1 if self._falconer(p) else 2)
            chicks = sorted(self._chicks[p])
            chicks.pop(0)
            self._chicks[p] = chicks
            self._adults[p] += 1
            self._falcon_done += 1
            if self._falcon_done == 2:
                self._second = "raise"
        elif v in ("architect", "farmerswife", "marshal", "peasant", "thief"):
            self._do_power(move, p)
        elif v == "falcon":
            self._second = None  # a falcon placed after the falconer's second one keeps it
            under = self._sq[move.sq]
            # a tile under a falcon stays there (counted for CB-12), out of play
            self._sq[move.sq] = (FALCON, -1, self._turn, p,
                                 under[1] if under[0] == TILE else None)
            self._adults[p] -= 1
        self._history.append(move)
        self._dirty()

    def _forfeit_second(self, p: int) -> None:
        """The falconer's second falcon of the turn was not placed: it goes back (CB-15)."""
        if self._second == "raise" and self._adults[p]:
            self._adults[p] -= 1
            self._falcons += 1
        elif self._second == "buy" and self._turn in self._chicks[p]:
            chicks = list(self._chicks[p])
            chicks.remove(self._turn)
            self._chicks[p] = chicks
            self._falcons += 1
        self._second = None

    def _fill_slot(self, p: int, colour: int) -> None:
        """A tile of ``colour`` onto a free slot of ``p``'s objective; a full objective goes to
        the reserve and the player must say goal or nogoal (CB-4)."""
        obj = self._obj[p]
        assert obj is not None
        fields = CARDS[obj].fields
        slots = self._slots[p]
        for i in range(4):
            if not slots[i] and fields[i] == colour:
                slots[i] = True
                break
        if all(slots):
            for c in fields:
                self._reserve[p][c] += 1
            self._slots[p] = [False] * 4
            self._phase = GOAL_PHASE

    def _do_power(self, move: ColumbaMove, p: int) -> None:
        v = move.verb
        self._power = True
        if v == "architect":
            owner, large = self._cotes[move.sq]
            if move.arg:
                del self._cotes[move.sq]
                self._cotes[move.sq2] = (owner, large)
                if move.sq in self._under:
                    self._under[move.sq2] = self._under.pop(move.sq)
            else:
                self._cotes[move.sq] = (owner, True)
                self._cotes_left[p][1] -= 1
                self._cotes_left[p][0] += 1
        elif v == "farmerswife":
            self._reserve[p][move.arg] -= 1
            self._fill_slot(p, move.arg)
        elif v == "thief":
            self._reserve[move.sq2][move.arg] -= 1
            self._fill_slot(p, move.arg)
        elif v == "marshal":
            self._reserve[p][move.arg] -= 1
            self._supply[move.arg] += 1
            self._marshal = move.sq
        elif v == "peasant":
            colour = self._sq[move.sq][1]
            self._reserve[p][colour] -= 1
            self._under[move.sq] = [*self._under.get(move.sq, []), colour]

    def _pay(self, p: int, count: int = 2) -> None:
        """Pay reserve tiles back to the supply: each from the colour the reserve holds most
        of (ties: W, G, B, K order). The rulebook leaves the choice to the player; rulebox fixes
        it so that ``buy`` and ``raise`` stay single words as PROTOCOL.md writes them."""
        res = self._reserve[p]
        for _ in range(count):
            c = max(range(4), key=lambda i: (res[i], -i))
            res[c] -= 1
            self._supply[c] += 1

    def _do_place(self, k0: int, rot: int, p: int) -> None:
        card = self._hand
        assert card is not None
        sq = self._sq
        obj = self._obj[p]
        slots = self._slots[p]
        captured = False
        marshal = self._marshal
        self._marshal = None
        for off in OFFSETS:
            s = sq.get(k0 + off)
            if s is not None and k0 + off == marshal and s[0] == TILE:
                self._supply[s[1]] += 1  # a tile the marshal covers goes back to the supply
            if s is None or self._kids or k0 + off == marshal:
                continue
            captured = True
            colour = s[1]
            if s[0] == FIELD:
                self._supply[colour] -= 1
            assert obj is not None
            fields = CARDS[obj].fields
            for i in range(4):
                if not slots[i] and fields[i] == colour:
                    slots[i] = True
                    break
        self._lay(k0, card, rot, self._turn)
        self._hand = None
        if captured and all(slots):
            assert obj is not None
            for colour in CARDS[obj].fields:
                self._reserve[p][colour] += 1
            self._slots[p] = [False] * 4  # its 4 tiles went to the reserve (CB-4)
            self._phase = GOAL_PHASE
        else:
            self._phase = ACTIONS

    def _undo_last(self) -> None:
        # a snapshot may be shared with clones: restore it, then take fresh copies of it
        self._restore(self._undo.pop())
        self._restore(self._snapshot())

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
        shown = ", ".join(
            f"{'+'.join(SEATS[p] for p in side)} {t}" for side, t in zip(sides, totals, strict=True)
        )
        if len(tied) == 1:
            return Outcome(sides[tied[0]], tuple(scores), f"most points: {shown}")
        big = [max(self.largest_estate(p) for p in sides[i]) for i in tied]
        top = max(big)
        still = [i for i, b in zip(tied, big, strict=True) if b == top]
        if len(still) == 1:
            return Outcome(sides[still[0]], tuple(scores),
                           f"tied on points ({shown}); the largest estate ({top} pigeons) decides")
        names = " and ".join("+".join(SEATS[p] for p in sides[i]) for i in still)
        return Outcome((), tuple(scores),
                       f"a draw between {names}: tied on points ({shown}) and on the largest "
                       "estate [CB-11]")

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
        g._restore(self._snapshot())
        g._undo = list(self._undo)  # snapshots are never mutated in place
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

    def _square_json(self, s: tuple[Any, ...]) -> list[Any]:
        kind, colour, turn, who, card = s
        if kind == FIELD:
            return ["field", COLOURS[colour], card, turn]
        if kind == TILE:
            return ["tile", COLOURS[colour], who, turn]
        return ["falcon", who, turn, None if card is None else COLOURS[card]]

    def position_json(self) -> dict[str, Any]:
        """``squares``: ``"x,y"`` -> ``["field", colour, card, turn laid]``,
        ``["tile", colour, player, turn laid]`` or ``["falcon", player, turn laid, colour of the
        tile under it or null]``;
        ``deck``: the cards still to draw, top first (server-side state)."""
        return {
            "to_move": self._to_move,
            "phase": self._phase,
            "turn": self._turn,
            "hand": self._hand,
            "deck": list(reversed(self._deck)),
            "squares": {sq_text(k): self._square_json(s) for k, s in sorted(self._sq.items())},
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

    def view(self, player: int | None) -> dict[str, Any]:
        """Everything but the order of the deck: its size is public, its order is not."""
        pos = self.position_json()
        pos["cards_left"] = len(pos.pop("deck"))
        return {
            "game": self.id,
            "options": self.public_options(),
            "to_move": self.current_player(),
            "position": pos,
            "history": [str(m) for m in self._history],
            "scores": self.scores(),
        }

    def determinize(self, player: int, rng: random.Random) -> Self:
        g = self.clone()
        # shuffle a sorted copy, so that the result cannot depend on the hidden order
        g._deck = sorted(g._deck)
        rng.shuffle(g._deck)
        g._dirty()
        return g

    def position_key(self) -> Any:
        return (
            self._to_move, self._phase, self._turn, self._hand, tuple(self._deck),
            tuple(sorted(self._sq.items())), tuple(sorted(self._cotes.items())),
            tuple(self._obj), tuple(map(tuple, self._slots)), tuple(map(tuple, self._reserve)),
            tuple(self._supply), tuple(map(tuple, self._cotes_left)),
            tuple(tuple(sorted(c)) for c in self._chicks), tuple(self._adults), self._falcons,
            self._cote_done, self._falcon_done, tuple(self._turn_tiles),
            tuple((k, tuple(v)) for k, v in sorted(self._under.items())), self._power,
            self._marshal, self._second, tuple(self._roles),
        )

    # --- loading a drawn position -------------------------------------------------------------
    def _load_position(self, data: dict[str, Any]) -> None:
        from rulebox.games.columba.state import load_position

        load_position(self, data)
        self._undo = []
        self._dirty()
