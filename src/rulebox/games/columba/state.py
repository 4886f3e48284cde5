"""Reading a drawn Columba position (``Columba.position_json`` data) back, refusing anything
corrupt with ``StateError``: unknown cards or colours, a detached territory, two dovecotes in one
region, tile or falcon counts that do not add up (CB-12), fields that are no card as it could
have been laid (``laid_cards``: the printed colours in one placement, CB-2), a covered Pond
(CB-14), and so on.

It imports the rules module only for type checking: ``rules`` imports this one."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

from rulebox.core.errors import StateError
from rulebox.games.columba.cards import (
    CARDS,
    COLOUR_INDEX,
    COLOUR_NAMES,
    COLOURS,
    DECK_IDS,
    OFFSETS,
    POND_ID,
    ROTATIONS,
    STARTING_IDS,
    key,
    sq_text,
)
from rulebox.games.columba.officia import ROLES
from rulebox.games.columba.pieces import (
    ACTIONS,
    COTES,
    FALCONS,
    GOAL_PHASE,
    PHASES,
    PLACE,
    TILES_PER_COLOUR,
)
from rulebox.games.columba.territory import FALCON, FIELD, TILE, WILD, is_connected
from rulebox.i18n import _

if TYPE_CHECKING:
    from rulebox.games.columba.rules import Columba


_LAYOUT_CHECKED: ContextVar[bool] = ContextVar("columba_layout_checked", default=True)


@contextmanager
def unchecked_layout() -> Iterator[None]:
    """Within this block, loading skips :meth:`_Loader.laid_cards` (whether the fields are
    real cards as they could have been laid): for rule tests that draw colour patterns no deck
    lays, never for the engine or the server. Everything else is still checked."""
    token = _LAYOUT_CHECKED.set(False)
    try:
        yield
    finally:
        _LAYOUT_CHECKED.reset(token)


def load_position(game: Columba, data: dict[str, Any]) -> None:
    """Set ``game`` to the position ``data`` describes, or raise ``StateError``."""
    _Loader(game, data).load()


def _int(v: Any, what: str, lo: int = 0, hi: int = 10**6) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise StateError(_("{what} must be a whole number from {lo} to {hi}").format(
                             what=what, lo=lo, hi=hi))
    return v


def _square_key(text: Any) -> int:
    if not isinstance(text, str):
        raise StateError(_("square {text!r} must be written x,y").format(text=text))
    parts = text.split(",")
    try:
        x, y = (int(t) for t in parts)
    except ValueError:
        raise StateError(_("square {text!r} must be written x,y").format(text=text[:20])) from None
    if not (-500 < x < 500 and -500 < y < 500):
        raise StateError(_("square {text!r} is out of range").format(text=text[:20]))
    return key(x, y)


def _colour(v: Any, what: str) -> int:
    if not isinstance(v, str) or v.upper() not in COLOUR_INDEX:
        raise StateError(_("{what}: colour must be one of {colours}").format(
                             what=what, colours=', '.join(COLOURS)))
    return COLOUR_INDEX[v.upper()]


class _Loader:
    """Reads and validates :meth:`Columba.position_json` data into a game."""

    def __init__(self, game: Columba, data: dict[str, Any]) -> None:
        self.g = game
        self.d = data
        self.n = game.num_players

    def load(self) -> None:
        g, d, n = self.g, self.d, self.n
        if not isinstance(d, dict):
            raise StateError(_("the position must be an object"))
        phase = d.get("phase")
        if phase not in PHASES:
            raise StateError(_("phase must be one of {phases}").format(phases=', '.join(PHASES)))
        g._phase = phase
        g._to_move = _int(d.get("to_move"), "to_move", 0, n - 1)
        g._turn = _int(d.get("turn"), "turn", 0, 10_000)
        hand = d.get("hand")
        if (hand is None) != (phase != PLACE):
            raise StateError(_("a card is in hand exactly when the phase is place") + " [CB-2]")
        if hand is not None and hand not in CARDS:
            raise StateError(_("unknown card in hand {hand!r}").format(hand=str(hand)[:10]))
        g._hand = hand
        deck = d.get("deck")
        allowed = set(DECK_IDS) | ({POND_ID} if g.opts.get("pond") else set())
        if not isinstance(deck, list) or any(c not in allowed for c in deck):
            raise StateError(_("deck must be a list of card ids C01..C30 (and P with pond=1)"))
        g._deck = list(reversed(deck))
        self.roles()
        self.squares()
        self.cotes()
        self.under()
        self.players()
        self.supply()
        self.this_turn()
        self.cards()
        if _LAYOUT_CHECKED.get():
            self.laid_cards()

    def roles(self) -> None:
        g = self.g
        roles = self.d.get("roles", [])
        if g.opts.get("officia"):
            if (not isinstance(roles, list) or len(roles) != self.n
                    or any(r not in ROLES for r in roles) or len(set(roles)) != self.n):
                raise StateError(_("roles must name {n} different Officia roles").format(
                                     n=self.n) + " [CB-15]")
        elif roles:
            raise StateError(_("roles without officia=1") + " [CB-15]")
        g._roles = list(roles)

    def under(self) -> None:
        g = self.g
        raw = self.d.get("under", {})
        if not isinstance(raw, dict):
            raise StateError(_("under must be an object of x,y -> colours"))
        g._under = {}
        for text, colours in raw.items():
            k = _square_key(text)
            if k not in g._cotes or not isinstance(colours, list) or not colours:
                raise StateError(_("under {text}: tiles lie only under a dovecote").format(
                                     text=text) + " [CB-15]")
            if not g._roles or g._roles[g._cotes[k][0]] != "peasant":
                raise StateError(_("under {text}: only the peasant slides tiles under").format(
                                     text=text) + " [CB-15]")
            g._under[k] = [_colour(c, f"under {text}") for c in colours]

    def squares(self) -> None:
        g = self.g
        raw = self.d.get("squares")
        if not isinstance(raw, dict) or not raw:
            raise StateError(_("squares must be a non-empty object of x,y -> item"))
        g._sq = {}
        freed: set[int] = set()
        for text, item in raw.items():
            k = _square_key(text)
            if not isinstance(item, list) or not item:
                raise StateError(_("square {text}: bad item {item!r}").format(
                                     text=text, item=item))
            kind = item[0]
            if kind == "field" and len(item) == 4:
                c = _colour(item[1], f"square {text}")
                card = item[2]
                if card not in CARDS:
                    raise StateError(_("square {text}: unknown card {card!r}").format(
                                         text=text, card=str(card)[:10]))
                turn = _int(item[3], f"square {text}: turn", -1, g._turn)
                g._sq[k] = (FIELD, c, turn, -1, card)
            elif kind == "tile" and len(item) in (4, 5):
                c = _colour(item[1], f"square {text}")
                who = _int(item[2], f"square {text}: player", 0, self.n - 1)
                turn = _int(item[3], f"square {text}: turn", 0, g._turn)
                g._sq[k] = (TILE, c, turn, who, None)
                if len(item) == 5:
                    if item[4] != WILD:
                        raise StateError(_("square {text}: a tile's fifth item can "
                                           "only be {wild!r} (cut off by a falcon, "
                                           "CB-3)").format(text=text, wild=WILD))
                    freed.add(k)
            elif kind == "falcon" and len(item) == 4:
                who = _int(item[1], f"square {text}: player", 0, self.n - 1)
                turn = _int(item[2], f"square {text}: turn", 0, g._turn)
                under = None if item[3] is None else _colour(item[3], f"square {text}")
                g._sq[k] = (FALCON, -1, turn, who, under)
            else:
                raise StateError(_("square {text}: item must be a field, tile or falcon").format(
                                     text=text))
        if not is_connected(g._sq):
            raise StateError(_("the territory must be one connected area") + " [CB-2]")
        g._freed = frozenset(freed)
        self.bare()

    def bare(self) -> None:
        """``bare``: the squares no card was laid on; only a tile (or a falcon over a tile)
        lies on the bare table (CB-2, CB-7)."""
        g = self.g
        raw = self.d.get("bare", [])
        if not isinstance(raw, list):
            raise StateError(_("bare must be a list of squares x,y"))
        bare = set()
        for text in raw:
            k = _square_key(text)
            s = g._sq.get(k)
            if s is None or s[0] == FIELD or (s[0] == FALCON and s[4] is None):
                raise StateError(_("bare {text}: only a tile, or a falcon over a tile, lies on "
                                   "a square no card was laid on").format(text=text) + " [CB-2]")
            bare.add(k)
        g._bare = frozenset(bare)

    def cotes(self) -> None:
        g = self.g
        raw = self.d.get("cotes", {})
        if not isinstance(raw, dict):
            raise StateError(_("cotes must be an object of x,y -> [player, small|large]"))
        g._cotes = {}
        for text, item in raw.items():
            k = _square_key(text)
            if (not isinstance(item, list) or len(item) != 2
                    or item[1] not in ("small", "large")):
                raise StateError(_("dovecote {text}: must be [player, small|large]").format(
                                     text=text))
            p = _int(item[0], f"dovecote {text}: player", 0, self.n - 1)
            s = g._sq.get(k)
            if s is None or s[0] == FALCON:
                raise StateError(_("dovecote {text} must stand on a pigeon").format(
                                     text=text) + " [CB-6]")
            if k in g._bare:
                raise StateError(_("dovecote {text} stands on a tile on the bare table; a "
                                   "dovecote stands on a card's field").format(
                                     text=text) + " [CB-6]")
            g._cotes[k] = (p, item[1] == "large")
        g._dirty()
        label, _regs, owner = g._regions()
        rids = [label[k] for k in g._cotes]
        if len(set(rids)) != len(rids):
            raise StateError(_("two dovecotes stand in one region: estates may not be "
                               "joined") + " [CB-9]")
        for k in sorted(g._freed):
            if owner[label[k]] != -1:
                raise StateError(_("the tile on {square} is marked wild (cut off by a "
                                   "falcon) but lies in an estate").format(
                                     square=sq_text(k)) + " [CB-3]")

    def players(self) -> None:
        g, n = self.g, self.n
        raw = self.d.get("players")
        if not isinstance(raw, list) or len(raw) != n:
            raise StateError(_("players must list {n} players").format(n=n))
        g._obj, g._slots, g._reserve, g._cotes_left, g._chicks, g._adults = [], [], [], [], [], []
        placed = [[0, 0] for _ in range(n)]
        for p, (owner, large) in g._cotes.items():
            placed[owner][int(large)] += 1
            del p
        small0, large0 = COTES[n]
        for p, pl in enumerate(raw):
            if not isinstance(pl, dict):
                raise StateError(_("player {p} must be an object").format(p=p))
            obj = pl.get("objective")
            if obj is not None and obj not in CARDS:
                raise StateError(_("player {p}: unknown objective {obj!r}").format(
                                     p=p, obj=str(obj)[:10]))
            slots = pl.get("slots")
            if not isinstance(slots, list) or len(slots) != 4 or not all(
                isinstance(b, bool) for b in slots
            ):
                raise StateError(_("player {p}: slots must be 4 true/false values").format(p=p))
            if obj is None and any(slots):
                raise StateError(_("player {p}: filled slots without an objective").format(p=p))
            if all(slots):
                raise StateError(_("player {p}: a full objective is settled at once").format(
                                     p=p) + " [CB-4]")
            if g._phase == GOAL_PHASE and p == g._to_move and (obj is None or any(slots)):
                raise StateError(_("in the goal phase the completed objective's tiles "
                                   "are in the reserve already") + " [CB-4]")
            res = pl.get("reserve")
            if not isinstance(res, dict) or set(res) != set(COLOURS):
                raise StateError(_("player {p}: reserve must give W, G, B and K").format(p=p))
            cotes = pl.get("cotes")
            if not isinstance(cotes, dict) or set(cotes) != {"small", "large"}:
                raise StateError(_("player {p}: cotes must give small and large").format(p=p))
            s_left = _int(cotes["small"], f"player {p}: small dovecotes", 0, small0)
            l_left = _int(cotes["large"], f"player {p}: large dovecotes", 0, large0)
            if s_left + placed[p][0] != small0 or l_left + placed[p][1] != large0:
                raise StateError(_("player {p}: dovecotes left and placed must make "
                                   "{small0} small and {large0} large").format(
                                     p=p, small0=small0, large0=large0) + " [CB-1]")
            chicks = pl.get("chicks")
            if not isinstance(chicks, list):
                raise StateError(_("player {p}: chicks must be a list of turns").format(p=p))
            g._obj.append(obj)
            g._slots.append(list(slots))
            g._reserve.append([_int(res[c], f"player {p}: reserve {c}", 0, 15) for c in COLOURS])
            g._cotes_left.append([s_left, l_left])
            g._chicks.append([_int(t, f"player {p}: chick", 0, g._turn) for t in chicks])
            g._adults.append(_int(pl.get("adults"), f"player {p}: adults", 0, FALCONS))

    def supply(self) -> None:
        g = self.g
        raw = self.d.get("supply")
        if not isinstance(raw, dict) or set(raw) != set(COLOURS):
            raise StateError(_("supply must give W, G, B and K"))
        g._supply = [_int(raw[c], f"supply {c}", 0, TILES_PER_COLOUR) for c in COLOURS]
        g._falcons = _int(self.d.get("falcons"), "falcons", 0, FALCONS)
        for c in range(4):
            total = g._supply[c] + sum(r[c] for r in g._reserve)
            total += sum(1 for s in g._sq.values() if s[0] == TILE and s[1] == c)
            total += sum(1 for s in g._sq.values() if s[0] == FALCON and s[4] == c)
            total += sum(v.count(c) for v in g._under.values())
            for p in range(self.n):
                obj = g._obj[p]
                if obj is not None:
                    total += sum(1 for col, f in zip(CARDS[obj].fields, g._slots[p], strict=True)
                                 if f and col == c)
            if total != TILES_PER_COLOUR:
                raise StateError(_("there must be {tiles_per_colour} {colour} tiles in "
                                   "all, not {total}").format(
                                     tiles_per_colour=TILES_PER_COLOUR, colour=_(COLOUR_NAMES[c]),
                                     total=total) + " [CB-12]")
        falcons = g._falcons + sum(len(c) for c in g._chicks) + sum(g._adults)
        falcons += sum(1 for s in g._sq.values() if s[0] == FALCON)
        if falcons != FALCONS:
            raise StateError(_("there must be {falcons} falcons in all, not {falcons2}").format(
                                 falcons=FALCONS, falcons2=falcons) + " [CB-12]")

    def this_turn(self) -> None:
        g = self.g
        raw = self.d.get("this_turn", {"cote": False, "falcon": 0, "tiles": []})
        if not isinstance(raw, dict):
            raise StateError(_("this_turn must be an object"))
        cote, falcon, tiles = raw.get("cote"), raw.get("falcon"), raw.get("tiles")
        if isinstance(falcon, bool):
            falcon = int(falcon)
        if not isinstance(cote, bool) or not isinstance(falcon, int) or not isinstance(
            tiles, list
        ):
            raise StateError(_("this_turn must give cote (true/false), falcon (a "
                               "count) and tiles"))
        limit = 2 if g._falconer(g._to_move) else 1
        g._cote_done, g._falcon_done = cote, _int(falcon, "this_turn falcon", 0, limit)
        power, marshal, second = raw.get("power", False), raw.get("marshal"), raw.get("second")
        if not isinstance(power, bool) or second not in (None, "buy", "raise"):
            raise StateError(_("this_turn: power is true/false, second is null, buy or raise"))
        if (power or marshal is not None or second is not None) and not g._roles:
            raise StateError(_("this_turn: Officia powers without officia=1") + " [CB-15]")
        g._power, g._second = power, second
        g._marshal = None if marshal is None else _square_key(marshal)
        if g._marshal is not None and (g._phase != PLACE or g._marshal not in g._sq
                                       or not power or g._roles[g._to_move] != "marshal"):
            raise StateError(_("this_turn: a marshal's square needs the marshal's card in hand"))
        if second is not None and g._falcon_done != 2:
            raise StateError(_("this_turn: a second falcon needs two acquired this turn"))
        if second is not None and not g._adults[g._to_move]:
            raise StateError(_("this_turn: the falconer's second falcon is an adult in "
                               "hand until it is placed") + " [CB-15]")
        g._turn_tiles = [_square_key(t) for t in tiles]
        for k in g._turn_tiles:
            s = g._sq.get(k)
            if s is None or s[0] != TILE or s[2] != g._turn or s[3] != g._to_move:
                raise StateError(_("{square} is not a tile laid this turn by the "
                                   "player to move").format(square=sq_text(k)))
        if g._phase != ACTIONS and (cote or falcon or tiles) and not g._roles:
            raise StateError(_("dovecotes, tiles and falcons come after the card") + " [CB-5]")

    def cards(self) -> None:
        g = self.g
        seen: list[str] = list(g._deck)
        if g._hand is not None:
            seen.append(g._hand)
        seen += [o for o in g._obj if o is not None]
        dup = {c for c in seen if seen.count(c) > 1}
        if dup:
            raise StateError(_("card {dup} is in two places at once").format(dup=sorted(dup)[0]))
        on_board = {s[4] for s in g._sq.values() if s[0] == FIELD}
        clash = on_board & set(seen)
        if clash:
            raise StateError(_("card {clash} is on the territory and elsewhere").format(
                                 clash=sorted(clash)[0]))

    def laid_cards(self) -> None:
        """The cards as they could have been laid: only cards of this game (the deck in force
        and the players' starting objectives), each card's visible fields where one placement
        of it in one of its 4 rotations puts them, in its printed colours, laid on one turn,
        its other fields covered by things laid since; the Pond never covered (CB-14); no more
        cards left to draw than the turn allows (CB-2). A card that lies wholly covered is
        seen nowhere, so a missing card is no error (the Pond's aside)."""
        g, n = self.g, self.n
        kids = g.opts.get("variant") == "kids"
        given = g.opts.get("deck")
        if given is not None:
            in_force = set(given)
        else:
            in_force = set(DECK_IDS) | ({POND_ID} if g.opts.get("pond") else set())
        starting = set() if kids else set(STARTING_IDS[:n])

        def unknown(card: str, where: str) -> StateError:
            what = (_("the deck in force") if card not in STARTING_IDS
                    else _("a seat of this game"))
            return StateError(_("{where}: card {card} is not in this game (it is not "
                                "in {what})").format(
                                  where=where, card=card, what=what) + " [CB-1]")

        for p, obj in enumerate(g._obj):
            if obj is None:
                continue
            if kids:
                raise StateError(_("player {p} holds objective {obj}, but the "
                                   "children's game has no objectives").format(
                                     p=p, obj=obj) + " [CB-13]")
            if obj in STARTING_IDS and obj != STARTING_IDS[p]:
                raise StateError(_("player {p} holds {obj}, the starting objective of "
                                   "player {index}; each player starts with their own "
                                   "and new ones come from the deck").format(
                                     p=p, obj=obj, index=STARTING_IDS.index(obj)) + " [CB-1, CB-4]")
            if obj not in in_force | starting:
                raise unknown(obj, f"player {p}'s objective")
        if g._hand is not None and g._hand not in in_force | starting:
            raise unknown(g._hand, "the card in hand")
        for card in g._deck:
            if card not in in_force:
                raise unknown(card, "the deck")
        fields: dict[str, list[tuple[int, int, int]]] = {}
        for k, s in sorted(g._sq.items()):
            if s[0] == FIELD:
                fields.setdefault(s[4], []).append((k, s[1], s[2]))
        first = [c for c, fs in fields.items() if fs[0][2] == -1]
        if len(first) > 1:
            raise StateError(_("cards {first} are all marked as laid before the first "
                               "turn, but only one card starts the territory").format(
                                 first=', '.join(sorted(first))) + " [CB-1]")
        for card, fs in fields.items():
            where = sq_text(fs[0][0])
            if card not in in_force | starting:
                raise unknown(card, f"square {where}")
            self.one_placement(card, fs)
        if POND_ID in in_force:
            if POND_ID in fields and len(fields[POND_ID]) != 4:
                raise StateError(_("part of the Pond is covered, but nothing may ever "
                                   "cover the Pond") + " [CB-14]")
            elsewhere = [*g._deck, g._hand, *g._obj]
            if POND_ID not in fields and POND_ID not in elsewhere:
                raise StateError(_("the Pond is nowhere (not on the territory, in "
                                   "hand, held or in the deck), but nothing may ever "
                                   "cover it") + " [CB-14]")
        most = len(in_force) - 2 - g._turn
        if len(g._deck) > max(most, 0):
            raise StateError(_("{n_deck} cards are left to draw, but on turn {turn} at "
                               "least {turn2} of the {n_in_force} cards have been "
                               "drawn (one starts the territory, one is drawn each "
                               "turn)").format(
                                 n_deck=len(g._deck), turn=g._turn, turn2=g._turn + 2,
                                 n_in_force=len(in_force)) + " [CB-1, CB-2]")

    def one_placement(self, card: str, fs: list[tuple[int, int, int]]) -> None:
        """Refuse the visible fields ``fs`` (square, colour, turn) of ``card`` unless one
        placement of the card (top-left and rotation) shows exactly these colours on these
        squares, all laid on one turn, its other squares covered since (CB-2, CB-3)."""
        sq = self.g._sq
        bare = self.g._bare
        printed = "/".join(CARDS[card].rows)
        where = ", ".join(sq_text(k) for k, _c, _t in fs[:6])
        if len(fs) > 4:
            raise StateError(_("{n_fs} fields are labelled {card} ({where}, ...), but "
                               "a card has 4 fields").format(
                                 n_fs=len(fs), card=card, where=where) + " [CB-2]")
        turns = {t for _k, _c, t in fs}
        if len(turns) > 1:
            raise StateError(_("the fields of {card} ({where}) are marked as laid on "
                               "different turns, but a card is laid at once").format(
                                 card=card, where=where) + " [CB-2]")
        turn = fs[0][2]
        fits_squares = False
        for off in OFFSETS:
            k0 = fs[0][0] - off
            at = [k - k0 for k, _c, _t in fs]
            if not all(a in OFFSETS for a in at):
                continue
            fits_squares = True
            for rot in range(4):
                colours = ROTATIONS[card][rot]
                if any(colours[OFFSETS.index(a)] != c for a, (_k, c, _t) in zip(at, fs,
                                                                                 strict=True)):
                    continue
                hidden = [k0 + o for o in OFFSETS if o not in at]
                if all(k in sq and sq[k][2] >= turn and k not in bare for k in hidden):
                    return
        if not fits_squares:
            raise StateError(_("the fields labelled {card} ({where}) do not lie within "
                               "one 2 x 2 card").format(card=card, where=where) + " [CB-2]")
        shown = ", ".join(f"{sq_text(k)} {COLOURS[c]}" for k, c, _t in fs)
        raise StateError(_("the fields labelled {card} ({shown}) are not card {card} "
                           "(printed {printed}) laid in any of its 4 rotations, with "
                           "its other fields covered by things laid since turn {turn} "
                           "(not by tiles on the bare table)").format(
                             card=card, shown=shown, printed=printed, turn=turn) + " [CB-2]")
