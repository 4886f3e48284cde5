"""Columba in words (issue 17): each action as a player says it, and the estate that decided a
finished game.

``describe`` is called on the position before the action and, where that is the simplest honest
way, plays it on a copy to tell what it did: ``red lays C17 on 2,3 and captures 2 white``,
``... and completes the objective``, ``red places a small dovecote on 1,1``, ``red buys a
falcon chick (pays white, black)``, ``red places a falcon on 4,0 in purple's estate``, ``red
ends the turn``.

Public information only. The card in hand, the objectives, reserves and the territory are in
every seat's view; the deck's order is not. So ``goal`` says ``takes a new objective`` (the
card comes off the deck: it is public once taken, never before) and ``end`` never names the
card the next player draws.

``highlights`` names the squares of the winning side's largest estate (the tie-break of CB-11,
and the heart of a win on points); ``[]`` for a draw.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulebox.games.columba.cards import COLOURS, OFFSETS, POND_ID, sq_text
from rulebox.games.columba.moves import ColumbaMove
from rulebox.games.columba.pieces import GOAL_PHASE
from rulebox.i18n import N_, Noun, _, ngettext, noun_noop

if TYPE_CHECKING:
    from rulebox.games.columba.rules import Columba

SEAT_NAMES: tuple[str, ...] = (N_("red"), N_("purple"), N_("yellow"), N_("green"))
"""The player colours by seat (RULINGS.md, Columba), as ``pieces.SEATS``."""

COLOUR_WORDS: tuple[str, ...] = (N_("white"), N_("grey"), N_("brown"), N_("black"))
"""The pigeon colours by number (``cards.COLOURS``), translated where shown."""


TILE_WORDS: tuple[str, ...] = (
    noun_noop("noun: tile", "a white tile"), noun_noop("noun: tile", "a grey tile"),
    noun_noop("noun: tile", "a brown tile"), noun_noop("noun: tile", "a black tile"),
)
"""A domesticated tile of each pigeon colour, as a noun phrase (the colour agrees with the
noun: ein weißes Haustauben-Plättchen, белый тайл), declined by its sentence."""


def _colour(c: int) -> str:
    return _(COLOUR_WORDS[c])


def _tile(c: int) -> Noun:
    return Noun("noun: tile", TILE_WORDS[c])


def _count(c: int, n: int) -> str:
    """``2 white`` (pigeons of one colour), with the plural of the current language."""
    if c == 0:
        return ngettext("{n} white", "{n} white", n).format(n=n)
    if c == 1:
        return ngettext("{n} grey", "{n} grey", n).format(n=n)
    if c == 2:
        return ngettext("{n} brown", "{n} brown", n).format(n=n)
    return ngettext("{n} black", "{n} black", n).format(n=n)


def _pays(pay: tuple[int, ...]) -> str:
    return ", ".join(_colour(c) for c in pay)


def _card_name(card: str | None) -> str:
    if card == POND_ID:
        return _("the Pond")
    return card or "?"


def captures(game: Columba, move: ColumbaMove) -> list[int]:
    """Pigeons ``place`` captures, counted by colour (CB-3): every covered square but the
    marshal's (CB-15); none in the children's game (CB-13)."""
    out = [0] * len(COLOURS)
    if game.opts.get("variant") == "kids":
        return out
    marshal = game.turn_powers()[1]
    squares = game.squares()
    for off in OFFSETS:
        k = move.sq + off
        s = squares.get(k)
        if s is not None and k != marshal:
            out[s[1]] += 1
    return out


def describe(game: Columba, move: ColumbaMove) -> str:
    """``move`` (legal in ``game``) in words, with who takes it and what it does."""
    move = game.canonical(move)
    p = game.current_player()
    seat = game.seat_name(p)
    v = move.verb
    where = sq_text(move.sq)
    if v == "place":
        text = _("{seat} lays {card} on {square}").format(
            seat=seat, card=_card_name(game.hand), square=where)
        taken = [_count(c, n) for c, n in enumerate(captures(game, move)) if n]
        if taken:
            text = _("{move} and captures {pigeons}").format(move=text, pigeons=", ".join(taken))
        return _completes(game, move, text)
    if v == "goal":
        return _("{seat} takes a new objective").format(seat=seat)
    if v == "nogoal":
        return _("{seat} takes no new objective").format(seat=seat)
    if v == "cote":
        if move.arg:
            return _("{seat} places a large dovecote on {square}").format(seat=seat,
                                                                          square=where)
        return _("{seat} places a small dovecote on {square}").format(seat=seat, square=where)
    if v == "tile":
        return _("{seat} places {tile:acc} on {square}").format(
            seat=seat, tile=_tile(move.arg), square=where)
    if v in ("buy", "raise"):
        return _falcon_deal(game, move, seat)
    if v == "falcon":
        owner = game.estate_owner(move.sq)
        if owner < 0:
            return _("{seat} places a falcon on {square}").format(seat=seat, square=where)
        return _("{seat} places a falcon on {square} in {owner}'s estate").format(
            seat=seat, square=where, owner=game.seat_name(owner))
    if v == "architect":
        if move.arg:
            return _("{seat} moves the dovecote on {square} to {to}").format(
                seat=seat, square=where, to=sq_text(move.sq2))
        return _("{seat} swaps the small dovecote on {square} for a large one").format(
            seat=seat, square=where)
    if v == "farmerswife":
        text = _("{seat} moves {tile:acc} from the reserve onto the objective").format(
            seat=seat, tile=_tile(move.arg))
        return _completes(game, move, text)
    if v == "thief":
        text = _("{seat} steals {tile:acc} from {victim} onto the objective").format(
            seat=seat, tile=_tile(move.arg), victim=game.seat_name(move.sq2))
        return _completes(game, move, text)
    if v == "marshal":
        return _("{seat} pays {tile:acc}: the card will cover {square} without "
                 "capturing").format(seat=seat, tile=_tile(move.arg), square=where)
    if v == "peasant":
        colour = game.squares()[move.sq][1]
        return _("{seat} slides {tile:acc} under the dovecote on {square}").format(
            seat=seat, tile=_tile(colour), square=where)
    return _("{seat} ends the turn").format(seat=seat)


def _completes(game: Columba, move: ColumbaMove, text: str) -> str:
    """``text`` and, if ``move`` fills the objective's last slot (CB-4), say so."""
    after = game.clone()
    after.apply_unchecked(move)
    if after.phase == GOAL_PHASE:
        return _("{move} and completes the objective").format(move=text)
    return text


def _falcon_deal(game: Columba, move: ColumbaMove, seat: str) -> str:
    p = game.current_player()
    pays = _pays(move.pay)
    if move.verb == "raise":
        return _("{seat} raises a falcon chick to an adult (pays {tiles})").format(
            seat=seat, tiles=pays)
    after = game.clone()
    after.apply_unchecked(move)
    if after.falcons_of(p)[1] > game.falcons_of(p)[1]:  # the falconer's second: an adult
        return _("{seat} buys an adult falcon (pays {tiles})").format(seat=seat, tiles=pays)
    return _("{seat} buys a falcon chick (pays {tiles})").format(seat=seat, tiles=pays)


def highlights(game: Columba) -> list[str]:
    """The squares of the winning side's largest estate (dovecote included), in key order;
    ``[]`` for a draw or a game that goes on."""
    outcome = game.outcome()
    if outcome is None or not outcome.winners:
        return []
    best: list[int] = []
    for owner, _cote, _large, members in game.estates():
        if owner in outcome.winners and len(members) > len(best):
            best = members
    return [sq_text(k) for k in sorted(best)]
