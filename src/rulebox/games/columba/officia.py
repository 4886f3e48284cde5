"""Columba's Officia roles (CB-15): dealing them, when a power may be used, the moves it offers,
and what it does. The falconer has no verb: his power changes the price and number of falcons
(``Columba._cost``, ``Columba._acquire_problem``).

The powers are functions of the game (``g``), called by the rules; they read and change its
position like the rules' own methods do.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulebox.core.errors import OptionError
from rulebox.core.options import OptionSpec, int_option
from rulebox.core.rng import rng
from rulebox.games.columba.cards import CARDS, COLOUR_NAMES, sq_text
from rulebox.games.columba.moves import ColumbaMove, shared_move
from rulebox.games.columba.pieces import ACTIONS, GOAL_PHASE, PLACE
from rulebox.games.columba.territory import Cotes, find_regions
from rulebox.i18n import N_, Noun, _, noun_noop, pgettext

if TYPE_CHECKING:
    from rulebox.games.columba.rules import Columba

ROLES = ("architect", "farmerswife", "marshal", "peasant", "thief", "falconer")
"""The 6 Officia roles (CB-15); each but the falconer's is a verb."""
VERBS = ROLES[:-1]
"""The roles whose power is a move of its own."""

ROLE_WORDS: dict[str, str] = {
    "architect": noun_noop("noun: role", "the architect"),
    "farmerswife": noun_noop("noun: role", "the farmer's wife"),
    "marshal": noun_noop("noun: role", "the marshal"),
    "peasant": noun_noop("noun: role", "the peasant"),
    "thief": noun_noop("noun: role", "the thief"),
    "falconer": noun_noop("noun: role", "the falconer"),
}
"""Each role as a noun phrase (the rulebooks' office names: Architekt, Bäuerin, ...;
архитектор, жена фермера, ...), declined by its sentence (``{role:gen}``)."""


def role_words(role: str) -> Noun:
    """The role ``role`` (``farmerswife``) as a noun phrase to put into a sentence."""
    return Noun("noun: role", ROLE_WORDS[role])


def role_title(role: str) -> str:
    """The role's name alone, as a label (``[Bäuerin]``, ``жена фермера: ...``); the command
    word (``farmerswife``) stays as it is typed."""
    return {"architect": pgettext("role", "architect"),
            "farmerswife": pgettext("role", "farmer's wife"),
            "marshal": pgettext("role", "marshal"), "peasant": pgettext("role", "peasant"),
            "thief": pgettext("role", "thief"),
            "falconer": pgettext("role", "falconer")}.get(role, role)


def _parse_roles(text: str) -> tuple[str, ...]:
    names = tuple(t.strip().lower().replace("'", "").replace(" ", "")
                  for t in text.split(",") if t.strip())
    bad = [r for r in names if r not in ROLES]
    if bad:
        raise ValueError(f"unknown role {bad[0][:20]!r} (roles: {', '.join(ROLES)})")
    if len(set(names)) != len(names):
        raise ValueError("each role is dealt once")
    return names


OFFICIA_OPTION = int_option("officia", 0, N_("1: deal each player an Officia role (CB-15)"), 0, 1)
ROLES_HELP = N_("the Officia roles in seat order, comma-separated (CB-16): architect, "
                "farmerswife, marshal, peasant, thief, falconer")
"""The help of ``roles``, one literal for the catalogue (the role names stay as written)."""
assert ROLES_HELP.endswith(": " + ", ".join(ROLES))
ROLES_OPTION = OptionSpec(
    "roles", None, ROLES_HELP, parse=_parse_roles, show=lambda v: ",".join(v))


def deal_roles(g: Columba, n: int) -> list[str]:
    """The roles of the ``n`` seats: from ``roles=``, else dealt by the seed (and then put in
    force, so that ``new`` echoes them); none without ``officia=1``."""
    officia = bool(g.opts.get("officia"))
    given = g.opts.get("roles")
    if given is not None and not officia:
        raise OptionError(_("roles= needs officia=1") + " [CB-15]")
    if officia and g.opts.get("variant") == "kids":
        raise OptionError(_("the children's game has no Officia (no tiles)") + " [CB-13]")
    if not officia:
        return []
    if given is not None:
        if len(given) != n:
            raise OptionError(_("roles= must name {n} roles, one per seat").format(
                                  n=n) + " [CB-16]")
        return list(given)
    dealt = rng(g.opts["seed"], "columba-roles").sample(ROLES, n)
    g.opts["roles"] = tuple(dealt)  # in force, so `new` echoes it
    return dealt


def marshal_can_place(g: Columba, k: int) -> bool:
    """Whether the card in hand could then be laid over ``k`` (the marshal's square)."""
    saved = g._marshal
    g._marshal = k
    try:
        return bool(g._placements())
    finally:
        g._marshal = saved


def cotes_after(g: Columba, cotes: Cotes, p: int) -> bool:
    """Whether the tiles laid this turn could still end the turn with these dovecotes."""
    return g._pending_ok(p, find_regions(g._sq, cotes), g._turn_tiles)


def power_problem(g: Columba, move: ColumbaMove, p: int) -> tuple[str, str] | None:
    """Why ``p`` may not use this Officia power now (CB-15), or ``None``."""
    v = move.verb
    if not g._roles:
        return _("this game has no Officia roles (officia=0)"), "CB-15"
    if g._roles[p] != v:
        return _("that is the power of {v:gen}; you are {role:nom}").format(
            v=role_words(v), role=role_words(g._roles[p])), "CB-15"
    if g._power:
        return _("the power of {v:gen} is used once per turn").format(v=role_words(v)), "CB-15"
    if g._phase == GOAL_PHASE:
        return _("your objective is complete: say goal or nogoal first"), "CB-4"
    c = _(COLOUR_NAMES[move.arg])
    if v == "marshal":
        if g._phase != PLACE:
            return _("the marshal pays before the card is laid"), "CB-15"
        if not g._reserve[p][move.arg]:
            return _("you have no {c} tile in your reserve").format(c=c), "CB-15"
        where = sq_text(move.sq)
        if move.sq not in g._sq:
            return _("{where} is empty: there is no pigeon to cover").format(where=where), "CB-15"
        label, _regs, owner = g._regions()
        if not g._coverable(move.sq, p, label, owner):
            return (_("the card may not cover {where} (a dovecote, a falcon, the Pond, "
                      "or a square you may not capture in)").format(where=where), "CB-15")
        if not marshal_can_place(g, move.sq):
            return _("the card in hand cannot be laid over {where}").format(where=where), "CB-15"
        return None
    if g._phase != ACTIONS:
        return _("the power of {v:gen} comes after the card").format(v=role_words(v)), "CB-15"
    if v in ("farmerswife", "thief"):
        obj = g._obj[p]
        if v == "thief":
            victim = move.sq2
            if not 0 <= victim < g.num_players or victim == p:
                return _("steal from another player (a seat number)"), "CB-15"
            if not g._reserve[victim][move.arg]:
                return _("player {victim} has no {c} tile in reserve").format(
                    victim=victim, c=c), "CB-15"
        elif not g._reserve[p][move.arg]:
            return _("you have no {c} tile in your reserve").format(c=c), "CB-15"
        if obj is None:
            return _("you have no objective to put the tile on"), "CB-15"
        if not any(f == move.arg and not s
                   for f, s in zip(CARDS[obj].fields, g._slots[p], strict=True)):
            return _("your objective has no free {c} slot").format(c=c), "CB-15"
        return None
    where = sq_text(move.sq)
    cote = g._cotes.get(move.sq)
    if cote is None or cote[0] != p:
        return _("you have no dovecote on {where}").format(where=where), "CB-15"
    if v == "peasant":
        colour = g._sq[move.sq][1]
        if not g._reserve[p][colour]:
            return (_("the estate on {where} is {colour}: you have no such tile in "
                      "reserve").format(where=where, colour=_(COLOUR_NAMES[colour])), "CB-15")
        return None
    # the architect
    if not move.arg:
        if cote[1]:
            return _("the dovecote on {where} is large already").format(where=where), "CB-15"
        if not g._cotes_left[p][1]:
            return _("you have no large dovecote in reserve"), "CB-15"
        return None
    dest = move.sq2
    there = sq_text(dest)
    if dest == move.sq:
        return _("the dovecote is on {there} already").format(there=there), "CB-15"
    if not g._cote_spot(dest):
        return (_("a dovecote may not stand on {there} (empty, a falcon, a dovecote, "
                  "a tile on the bare table, or a card laid this turn)").format(
                    there=there), "CB-6")
    label, _regs, owner = g._regions()
    if owner[label[dest]] != -1 and label[dest] != label[move.sq]:
        return _("{there} is in an estate already").format(there=there), "CB-9"
    if g._turn_tiles:
        cotes = dict(g._cotes)
        del cotes[move.sq]
        cotes[dest] = cote
        if not cotes_after(g, cotes, p):
            return (_("the tiles you laid this turn would no longer belong to an estate"),
                    "CB-7")
    return None


def power_moves(g: Columba, p: int) -> list[ColumbaMove]:
    """The Officia power of ``p`` that may be used now (CB-15)."""
    role = g._roles[p] if g._roles else None
    if role is None or role == "falconer" or g._power:
        return []
    res = g._reserve[p]
    out: list[ColumbaMove] = []
    if role == "marshal":
        if g._phase != PLACE or not any(res):
            return []
        label, _regs, owner = g._regions()
        for k in sorted(g._sq):
            if g._coverable(k, p, label, owner) and marshal_can_place(g, k):
                out.extend(shared_move("marshal", k, c) for c in range(4) if res[c])
        return out
    if g._phase != ACTIONS:
        return []
    cands: list[ColumbaMove] = []
    if role == "farmerswife":
        cands = [shared_move("farmerswife", 0, c) for c in range(4) if res[c]]
    elif role == "thief":
        cands = [ColumbaMove("thief", 0, c, v) for v in range(g.num_players) if v != p
                 for c in range(4) if g._reserve[v][c]]
    elif role == "peasant":
        cands = [shared_move("peasant", k, 0) for k, (o, _l) in sorted(g._cotes.items())
                 if o == p]
    elif role == "architect":
        mine = [k for k, (o, _l) in sorted(g._cotes.items()) if o == p]
        cands = [shared_move("architect", k, 0) for k in mine]
        label, _regs, owner = g._regions()
        spots = [d for d in sorted(g._sq) if g._cote_spot(d)]
        for k in mine:
            cands += [ColumbaMove("architect", k, 1, d) for d in spots
                      if owner[label[d]] == -1 or label[d] == label[k]]
    return [m for m in cands if power_problem(g, m, p) is None]


def use_power(g: Columba, move: ColumbaMove, p: int) -> None:
    """Play the Officia power ``move`` of ``p`` (checked already)."""
    v = move.verb
    g._power = True
    if v == "architect":
        owner, large = g._cotes[move.sq]
        if move.arg:
            del g._cotes[move.sq]
            g._cotes[move.sq2] = (owner, large)
            if move.sq in g._under:
                g._under[move.sq2] = g._under.pop(move.sq)
        else:
            g._cotes[move.sq] = (owner, True)
            g._cotes_left[p][1] -= 1
            g._cotes_left[p][0] += 1
    elif v == "farmerswife":
        g._reserve[p][move.arg] -= 1
        _fill_slot(g, p, move.arg)
    elif v == "thief":
        g._reserve[move.sq2][move.arg] -= 1
        _fill_slot(g, p, move.arg)
    elif v == "marshal":
        g._reserve[p][move.arg] -= 1
        g._supply[move.arg] += 1
        g._marshal = move.sq
    elif v == "peasant":
        colour = g._sq[move.sq][1]
        g._reserve[p][colour] -= 1
        g._under[move.sq] = [*g._under.get(move.sq, []), colour]


def _fill_slot(g: Columba, p: int, colour: int) -> None:
    """A tile of ``colour`` onto a free slot of ``p``'s objective; a full objective goes to
    the reserve and the player must say goal or nogoal (CB-4)."""
    obj = g._obj[p]
    assert obj is not None
    fields = CARDS[obj].fields
    slots = g._slots[p]
    for i in range(4):
        if not slots[i] and fields[i] == colour:
            slots[i] = True
            break
    if all(slots):
        for c in fields:
            g._reserve[p][c] += 1
        g._slots[p] = [False] * 4
        g._phase = GOAL_PHASE
