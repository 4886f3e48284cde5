"""Columba's turn machine: which action may come in which phase, playing each action, and the
named undo record taken before it.

The turn: the player to move always holds a card (drawn as part of the previous ``end``, from
the deck order fixed at set-up). ``place`` lays it (phase ``place``); completing the objective
leads to phase ``goal`` (``goal`` / ``nogoal``, after which the old objective card is in hand);
otherwise phase ``actions``: ``cote``, ``tile``, ``buy``, ``raise``, ``falcon`` (and the
Officia powers) in any order, and ``end``. The game is over at the ``end`` of a turn in which
the deck ran out (CB-11).

Undo keeps one :class:`Snapshot` of the mutable position per move (the position is small).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from rulebox.games.columba.cards import CARDS, COLOUR_NAMES, OFFSETS, sq_text
from rulebox.games.columba.moves import ColumbaMove
from rulebox.games.columba.officia import VERBS, power_problem, use_power
from rulebox.games.columba.pieces import ACTIONS, GOAL_PHASE, OVER, PLACE
from rulebox.games.columba.territory import FALCON, FIELD, TILE, Cotes, Regions, Square
from rulebox.i18n import _

if TYPE_CHECKING:
    from rulebox.games.columba.rules import Columba


class Snapshot(NamedTuple):
    """The undo record: the whole mutable position before a move, by name (python-chess's
    ``_BoardState``). Its containers are copies, never changed in place: clones share records,
    and :meth:`restore` copies them back out. (A NamedTuple: taken at every move, it must be
    cheap to build.)"""

    squares: dict[int, Square]
    cotes: Cotes
    deck: list[str]
    hand: str | None
    phase: str
    to_move: int
    turn: int
    objectives: list[str | None]
    slots: list[list[bool]]
    reserves: list[list[int]]
    supply: list[int]
    cotes_left: list[list[int]]
    chicks: list[list[int]]
    adults: list[int]
    falcons: int
    cote_done: bool
    falcon_done: int
    turn_tiles: list[int]
    under: dict[int, list[int]]
    power: bool
    marshal: int | None
    second: str | None
    freed: frozenset[int]
    bare: frozenset[int]

    @classmethod
    def take(cls, g: Columba) -> Snapshot:
        """A copy of ``g``'s position."""
        return cls(
            squares=dict(g._sq), cotes=dict(g._cotes), deck=list(g._deck), hand=g._hand,
            phase=g._phase, to_move=g._to_move, turn=g._turn, objectives=list(g._obj),
            slots=[list(s) for s in g._slots], reserves=[list(r) for r in g._reserve],
            supply=list(g._supply), cotes_left=[list(c) for c in g._cotes_left],
            chicks=[list(c) for c in g._chicks], adults=list(g._adults), falcons=g._falcons,
            cote_done=g._cote_done, falcon_done=g._falcon_done,
            turn_tiles=list(g._turn_tiles), under={k: list(v) for k, v in g._under.items()},
            power=g._power, marshal=g._marshal, second=g._second, freed=g._freed,
            bare=g._bare,
        )

    def restore(self, g: Columba) -> None:
        """Set ``g``'s position to copies of this record (which stays as it is)."""
        self.hand_over(g)
        Snapshot.take(g).hand_over(g)  # fresh copies: the record itself is never changed

    def hand_over(self, g: Columba) -> None:
        """Give ``g`` this record's own containers: only for a record nobody else holds (one
        just taken), which must not be used again."""
        g._sq, g._cotes, g._deck, g._hand = self.squares, self.cotes, self.deck, self.hand
        g._phase, g._to_move, g._turn = self.phase, self.to_move, self.turn
        g._obj, g._slots, g._reserve = self.objectives, self.slots, self.reserves
        g._supply, g._cotes_left, g._chicks = self.supply, self.cotes_left, self.chicks
        g._adults, g._falcons = self.adults, self.falcons
        g._cote_done, g._falcon_done, g._turn_tiles = (self.cote_done, self.falcon_done,
                                                       self.turn_tiles)
        g._under, g._power, g._marshal = self.under, self.power, self.marshal
        g._second, g._freed, g._bare = self.second, self.freed, self.bare
        g._dirty()


def action_problem(g: Columba, move: ColumbaMove) -> tuple[str, str] | None:
    """Why the player to move may not take ``move`` now (the phase first, then the rule of
    the action), or ``None``."""
    p = g._to_move
    v = move.verb
    phase = g._phase
    if phase == OVER:
        return _("the game is over"), "CB-11"
    if g._kids and v in ("goal", "nogoal", "tile", "buy", "raise", "falcon"):
        return (_("the children's game has only cards and dovecotes: no objectives, "
                  "tiles or falcons"), "CB-13")
    if v in VERBS:
        return power_problem(g, move, p)
    if phase == PLACE and v != "place":
        return (_("first lay the card in hand ({hand}) with place x,y rN").format(
            hand=g._hand), "CB-2")
    if phase == GOAL_PHASE and v not in ("goal", "nogoal"):
        return (_("your objective is complete: say goal (take a new one) or nogoal first"),
                "CB-4")
    if v == "place":
        if phase != PLACE:
            return _("you have no card in hand to lay this turn"), "CB-2"
        why = g._position_problem(move.sq, p)
        if why:
            return why
        if g._card_joins(move.sq, move.arg):
            return _("laid so, the card would join two estates into one"), "CB-9"
        if g._turn_tiles and not g._card_keeps_tiles(move.sq, move.arg):
            return (_("laid so, the card would cut the tiles you laid this turn off "
                      "every estate"), "CB-7")
        return None
    if v == "goal":
        if phase != GOAL_PHASE:
            return _("you may take a new objective only when you complete one"), "CB-4"
        if not g._deck:
            return _("the deck is empty: there is no new objective to take"), "CB-4"
        return None
    if v == "nogoal":
        if phase != GOAL_PHASE:
            return _("nogoal answers a completed objective; yours is not complete"), "CB-4"
        return None
    if v == "end":
        loose = g._unattached(g._turn_tiles, g._regions())
        if loose:
            return (_("every tile laid this turn must belong to an estate when the "
                      "turn ends; {square} does not").format(
                        square=", ".join(sq_text(t) for t in loose)), "CB-7")
        return None
    if v == "cote":
        return g._cote_problem(move.sq, move.arg, p)
    if v == "tile":
        if g._reserve[p][move.arg] == 0:
            return _("you have no {colour} tile in your reserve").format(
                       colour=_(COLOUR_NAMES[move.arg])), "CB-7"
        return g._tile_problem(move.sq, move.arg, p)
    if v in ("buy", "raise"):
        why = g._buy_problem(p) if v == "buy" else g._raise_problem(p)
        if why is None and move.pay:
            why = g._pay_problem(p, v, move.pay)
        return why
    if v == "falcon":
        return g._falcon_problem(move.sq, p)
    return _("unknown action {v!r}").format(v=v), "CB-2"


def play(g: Columba, move: ColumbaMove) -> None:
    """Play the legal, canonical action ``move`` of the player to move (no undo record, no
    history: the caller keeps those)."""
    p = g._to_move
    v = move.verb
    before = g._regions() if v == "falcon" else None
    if v == "place":
        _place(g, move.sq, move.arg, p)
    elif v == "goal":
        old = g._obj[p]
        g._obj[p] = g._deck.pop()
        g._slots[p] = [False] * 4
        g._hand = old
        g._phase = PLACE
    elif v == "nogoal":
        g._hand = g._obj[p]
        g._obj[p] = None
        g._slots[p] = [False] * 4
        g._phase = PLACE
    elif v == "end":
        _end(g, p)
    elif v == "cote":
        g._cotes[move.sq] = (p, bool(move.arg))
        g._cotes_left[p][move.arg] -= 1
        g._cote_done = True
    elif v == "tile":
        if move.sq not in g._sq:  # on the bare table: a pigeon, not a card's field (CB-6)
            g._bare = g._bare | {move.sq}
        g._sq[move.sq] = (TILE, move.arg, g._turn, p, None)
        g._reserve[p][move.arg] -= 1
        g._turn_tiles = [*g._turn_tiles, move.sq]
    elif v == "buy":
        _pay(g, p, move.pay)
        g._falcons -= 1
        g._falcon_done += 1
        if g._falcon_done == 2:  # the falconer's second: an adult at once (CB-15)
            g._second = "buy"
            g._adults[p] += 1
        else:
            g._chicks[p] = [*g._chicks[p], g._turn]
    elif v == "raise":
        _pay(g, p, move.pay)
        chicks = sorted(g._chicks[p])
        chicks.pop(0)
        g._chicks[p] = chicks
        g._adults[p] += 1
        g._falcon_done += 1
        if g._falcon_done == 2:
            g._second = "raise"
    elif v in VERBS:
        use_power(g, move, p)
    elif v == "falcon":
        g._second = None  # a falcon placed after the falconer's second one keeps it
        under = g._sq[move.sq]
        # a tile under a falcon stays there (counted for CB-12), out of play
        g._sq[move.sq] = (FALCON, -1, g._turn, p, under[1] if under[0] == TILE else None)
        g._adults[p] -= 1
    g._dirty()
    if before is not None:
        _free_cut_off(g, before)
    elif g._freed and v in ("place", "tile", "cote", "architect"):
        _keep_freed(g)


def _end(g: Columba, p: int) -> None:
    """``end``: the falconer's unplaced second falcon goes back, the next player draws, or the
    game is over when the deck ran out this turn (CB-11)."""
    if g._second is not None:
        _forfeit_second(g, p)
    g._cote_done = False
    g._falcon_done = 0
    g._turn_tiles = []
    g._power = False
    if not g._deck:
        g._phase = OVER
    else:
        g._to_move = (p + 1) % g.num_players
        g._turn += 1
        g._hand = g._deck.pop()
        g._phase = PLACE


def _place(g: Columba, k0: int, rot: int, p: int) -> None:
    """The card in hand onto top-left ``k0``: the covered pigeons fill objective slots (not the
    marshal's square, nor anything in the children's game); a full objective goes to the
    reserve (CB-3, CB-4)."""
    card = g._hand
    assert card is not None
    sq = g._sq
    obj = g._obj[p]
    slots = g._slots[p]
    captured = False
    marshal = g._marshal
    g._marshal = None
    for off in OFFSETS:
        s = sq.get(k0 + off)
        if s is not None and k0 + off == marshal and s[0] == TILE:
            g._supply[s[1]] += 1  # a tile the marshal covers goes back to the supply
        if s is None or g._kids or k0 + off == marshal:
            continue
        captured = True
        colour = s[1]
        if s[0] == FIELD:
            g._supply[colour] -= 1
        assert obj is not None
        fields = CARDS[obj].fields
        for i in range(4):
            if not slots[i] and fields[i] == colour:
                slots[i] = True
                break
    g._lay(k0, card, rot, g._turn)
    if g._bare:  # the squares under the card are a card's from now on (CB-2)
        g._bare = g._bare.difference(k0 + off for off in OFFSETS)
    g._hand = None
    if captured and all(slots):
        assert obj is not None
        for colour in CARDS[obj].fields:
            g._reserve[p][colour] += 1
        g._slots[p] = [False] * 4  # its 4 tiles went to the reserve (CB-4)
        g._phase = GOAL_PHASE
    else:
        g._phase = ACTIONS


def _pay(g: Columba, p: int, pay: tuple[int, ...]) -> None:
    """Pay the reserve tiles the player named back to the supply (CB-8)."""
    res = g._reserve[p]
    for c in pay:
        res[c] -= 1
        g._supply[c] += 1


def _forfeit_second(g: Columba, p: int) -> None:
    """The falconer's second falcon of the turn was not placed: it goes back (CB-15)."""
    if g._second is not None and g._adults[p]:  # an adult either way
        g._adults[p] -= 1
        g._falcons += 1
    g._second = None


def _free_cut_off(g: Columba, before: Regions) -> None:
    """After a falcon: the tiles it cut off from every estate are wild again (CB-3 c)."""
    label, _regs, owner = before
    after_label, _after_regs, after_owner = g._regions()
    freed = set(g._freed)
    for k, s in g._sq.items():
        if s[0] == TILE and owner[label[k]] != -1 and after_owner[after_label[k]] == -1:
            freed.add(k)
    g._freed = frozenset(freed)
    _keep_freed(g)


def _keep_freed(g: Columba) -> None:
    """A freed tile that was captured, covered, or taken into an estate again is free no
    more: only the falcon's cut makes a tile wild, not one long ago."""
    label, _regs, owner = g._regions()
    sq = g._sq
    g._freed = frozenset(k for k in g._freed
                         if sq.get(k, (FIELD,))[0] == TILE and owner[label[k]] == -1)
