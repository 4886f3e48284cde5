"""Columba drawn as text: the territory as a grid with coordinates, then each player's board.

Every square is three characters, so the grid reads without colour too:

* first, the pigeon's colour: ``W G B K`` a wild pigeon (a card's field), ``w g b k`` a
  domesticated tile; ``F`` a falcon;
* second, the owner (seat number) of the estate the square belongs to, ``.`` if none (for a
  falcon: who laid it);
* third, ``S`` / ``L`` a small / large dovecote, ``p`` the Pond, ``*`` laid this turn, ``!`` a
  tile a falcon cut off from every estate (wild again, CB-3 c), ``_`` a tile on the bare table
  (no card under it: no card docks with it and no dovecote stands on it, CB-2, CB-6; the key
  explains ``_`` only when the territory has one).
"""

from __future__ import annotations

from rich.text import Text

from rulebox.games.columba.cards import (
    CARDS,
    COLOURS,
    DECK_NOTE,
    POND_ID,
    ROTATIONS,
    sq_text,
    xy,
)
from rulebox.games.columba.moves import ColumbaMove
from rulebox.games.columba.officia import role_title, role_words
from rulebox.games.columba.pieces import ACTIONS, GOAL_PHASE, PLACE
from rulebox.games.columba.rules import Columba
from rulebox.games.columba.territory import FALCON, FIELD
from rulebox.i18n import N_, _, ngettext

BG = ("black on grey93", "black on grey58", "white on dark_orange3", "white on grey11")
PLAYER_STYLE = ("bold red", "bold magenta", "bold yellow", "bold green")


def _cell(game: Columba, k: int, owner_of: dict[int, int]) -> tuple[str, str]:
    s = game.squares().get(k)
    if s is None:
        return " · ", "dim"
    kind, colour, turn, who, card = s
    if kind == FALCON:
        return f"F{who}!", "bold white on red"
    letter = COLOURS[colour] if kind == FIELD else COLOURS[colour].lower()
    o = owner_of.get(k, -1)
    mark = " "
    cote = game.cotes().get(k)
    if cote is not None:
        mark = "L" if cote[1] else "S"
    elif card == POND_ID:
        mark = "p"
    elif turn == game.turn_number and game.phase != "over":
        mark = "*"
    elif k in game.freed():
        mark = "!"
    elif k in game.bare():
        mark = "_"
    return f"{letter}{o if o >= 0 else '.'}{mark}", BG[colour]


def _card_text(card: str, rot: int = 0) -> str:
    f = ROTATIONS[card][rot]
    return f"{COLOURS[f[0]]}{COLOURS[f[1]]}/{COLOURS[f[2]]}{COLOURS[f[3]]}"


def render(game: Columba, player: int | None = None) -> Text:
    """The territory, every player's objective, reserve, dovecotes, falcons and score, and the
    card in hand. Nothing of the deck's order is shown (only how many cards are left)."""
    drawing, key, facts, status = render_parts(game, player)
    return Text.assemble(drawing, key, facts, status)


def render_parts(game: Columba, player: int | None = None) -> tuple[Text, Text, Text, Text]:
    """The render in its parts, whatever the language: the drawing (the territory, the first
    lines), the key to its codes, the facts (estates, each player's board, the supply) and the
    status (whose turn and what to do, or the end), in the order :func:`render` shows them."""
    out = Text()
    owner_of: dict[int, int] = {}
    values: list[str] = []
    for owner, k, large, members in game.estates():
        for q in members:
            owner_of[q] = owner
        per = 2 if large else 1
        extra = len(game.under().get(k, []))
        bonus = (" + " + ngettext("{n} peasant tile", "{n} peasant tiles", extra).format(n=extra)
                 + " x 2" if extra else "")
        where = (_("large dovecote at {square}") if large
                 else _("small dovecote at {square}")).format(square=sq_text(k))
        values.append(f"{game.seat_name(owner)}: {where}, {_pigeons(len(members))} x {per}"
                      f"{bonus} = {len(members) * per + 2 * extra}")
    coords = [xy(k) for k in game.squares()]
    xs = [c[0] for c in coords]
    ys = [c[1] for c in coords]
    x0, x1, y0, y1 = min(xs) - 1, max(xs) + 1, min(ys) - 1, max(ys) + 1
    from rulebox.games.columba.cards import key as square_key

    out.append("     " + "".join(f"{x:^4}" for x in range(x0, x1 + 1)) + "\n")
    for y in range(y0, y1 + 1):
        out.append(f"{y:>4} ")
        for x in range(x0, x1 + 1):
            text, style = _cell(game, square_key(x, y), owner_of)
            out.append(text, style=style)
            out.append(" ")
        out.append("\n")
    key = Text(_("  W/G/B/K wild pigeon, w/g/b/k domesticated tile, F falcon; then estate owner; "
                 "S/L dovecote, p Pond, * laid this turn, ! a tile a falcon cut off (wild "
                 "again)") + "\n", style="dim")
    if game.bare():
        key.append(_("  _ a tile on the bare table: not a card, so a card that covers "
                     "nothing may not dock with it (CB-2) and no dovecote stands on it "
                     "(CB-6)") + "\n", style="dim")
    facts = Text()
    facts.append("\n" + _("Estates:") + "\n" if values else "\n" + _("No estates yet.") + "\n")
    for line in values:
        facts.append(f"  {line}\n")
    scores = game.scores()
    facts.append("\n")
    for p in range(game.num_players):
        obj, slots = game.objective(p)
        if obj is None:
            goal = _("no objective")
        else:
            f = CARDS[obj].fields
            marks = [COLOURS[f[i]] + ("+" if slots[i] else "-") for i in range(4)]
            goal = _("objective {objective}").format(objective=obj) + (
                f" [{marks[0]} {marks[1]} / {marks[2]} {marks[3]}]")
        res = " ".join(f"{COLOURS[c]}{n}" for c, n in enumerate(game.reserve(p)))
        small_left, large_left = game.cotes_left(p)
        chicks, adults = game.falcons_of(p)
        mate = game.partner(p)
        team = (" " + _("(team with {seat})").format(seat=game.seat_name(mate))
                if mate is not None else "")
        facts.append(f" {game.seat_name(p):>6} ", style=PLAYER_STYLE[p])
        role = game.role(p)
        office = f" [{role_title(role)}]" if role else ""
        facts.append((f"{team}{office}: " if team or office else " ") + _(
            "{goal}; reserve {reserve}; dovecotes left {small} small {large} large; falcons "
            "{chicks} chick {adults} adult; score {score}").format(
            goal=goal, reserve=res, small=small_left, large=large_left, chicks=chicks,
            adults=adults, score=scores[p]) + "\n")
        if role:
            facts.append(f"         {role_title(role)}: {_(POWERS[role])}\n", style="dim")
    rules = []
    if game.opts.get("variant") == "kids":
        rules.append(_("children's game (CB-13): cards and dovecotes only"))
    if game.opts.get("pond"):
        rules.append(_("the Pond is in play (CB-14): p marks its fields"))
    if game.role(0) is not None:
        rules.append(_("Officia (CB-15): roles in brackets"))
        _power, marshal, second = game.turn_powers()
        if marshal is not None:
            rules.append(_("the marshal's card must cover {square}").format(
                square=sq_text(marshal)))
        if second is not None:
            rules.append(_("the falconer's second falcon is lost unless placed this turn"))
    if rules:
        facts.append(" " + _("Variant:") + " " + "; ".join(rules) + "\n")
    supply = " ".join(f"{COLOURS[c]}{n}" for c, n in enumerate(game.supply()))
    facts.append("\n " + _("Supply: tiles {tiles}, falcons {falcons}. Deck: {cards} cards left "
                           "(the project's own deck: {note})").format(
        tiles=supply, falcons=game.falcon_supply(), cards=game.cards_left(),
        note=_short_note()) + "\n")
    status = Text()
    outcome = game.outcome()
    if outcome is None:
        p = game.current_player()
        status.append("\n " + _("To move: {seat}, turn {turn}:").format(
            seat=game.seat_name(p), turn=game.turn_number + 1) + " ", style="bold")
        if game.phase == PLACE and game.hand is not None:
            hand = game.hand
            turns = ", ".join(f"r{90 * r} {_card_text(hand, r)}" for r in range(4))
            status.append(_("lay card {card} with place x,y rN; turned: {turns} (top row/bottom "
                            "row)").format(card=hand, turns=turns) + "\n", style="bold")
        elif game.phase == GOAL_PHASE:
            status.append(_("objective complete: goal (take a new one) or nogoal") + "\n",
                          style="bold")
        elif game.phase == ACTIONS:
            cote, falcon, tiles = game.turn_flags()
            done = []
            if cote:
                done.append(_("dovecote placed"))
            if falcon:
                done.append(_("falcon acquired"))
            if tiles:
                done.append(ngettext("{n} tile laid", "{n} tiles laid", len(tiles)).format(
                    n=len(tiles)))
            status.append(_("cote, tile, buy XY, raise XY (XY: the tiles you pay), falcon or "
                            "end") + (f" ({', '.join(done)})" if done else "") + "\n",
                          style="bold")
    else:
        names = _(" and ").join(game.seat_name(w) for w in outcome.winners)
        who = (ngettext("{who} wins", "{who} win", len(outcome.winners)).format(who=names)
               if outcome.winners else _("a draw"))
        status.append("\n " + _("Game over: {who}: {reason}").format(
            who=who, reason=outcome.reason) + "\n", style="bold")
    return out, key, facts, status


def _short_note() -> str:
    return _("printed faces unknown") if "not known" in DECK_NOTE else DECK_NOTE


POWERS = {
    "architect": N_("architect x,y x2,y2 moves an own dovecote; architect x,y large swaps a small "
                 "one for the large one in reserve (once a turn, after the card)"),
    "farmerswife": N_("farmerswife C puts a reserve tile on the objective (once a turn)"),
    "marshal": N_("marshal C x,y pays a tile; the next card covers x,y uncaptured (once a turn, "
               "before the card)"),
    "peasant": N_("peasant x,y slides a reserve tile of the estate's colour under the dovecote on "
               "x,y, 2 points each (once a turn)"),
    "thief": N_("thief P C takes a C tile from player P's reserve onto the objective (once a "
                "turn)"),
    "falconer": N_("falcons cost 1 + 1 tiles (buy X, raise X); a second buy a turn pays 1 + 1 "
                "(buy XY) for an adult at once, lost unless a falcon is placed after it"),
}


def explain(game: Columba, arg: str) -> str:
    """``explain card``: where the card in hand may go; ``explain estates``: every estate and
    its value; ``explain roles``: the Officia roles; ``explain x,y``: what lies on a square."""
    word = arg.strip().lower()
    if word in ("", "card", "hand"):
        if game.phase != PLACE or game.hand is None:
            return _("There is no card in hand to lay now.")
        moves: list[ColumbaMove] = [m for m in game.legal_moves() if m.verb == "place"]
        captures: list[str] = []
        touches: list[str] = []
        sq = game.squares()
        from rulebox.games.columba.cards import OFFSETS

        for m in moves:
            covered = [m.sq + o for o in OFFSETS if m.sq + o in sq]
            if covered:
                what = "".join(COLOURS[sq[k][1]] for k in covered)
                captures.append(_("{m} (captures {what})").format(m=m, what=what))
            else:
                touches.append(str(m))
        lines = [ngettext("Card {card} {faces} may go to {n} place.",
                          "Card {card} {faces} may go to {n} places.", len(moves)).format(
            card=game.hand, faces=_card_text(game.hand), n=len(moves))]
        if captures:
            lines.append(_("Capturing ({n_captures}): {captures}").format(
                             n_captures=len(captures), captures="; ".join(captures)))
        else:
            lines.append(_("No capture is possible (CB-3, CB-4)."))
        lines.append(_("Touching the territory ({n_touches}): {touche}{what}").format(
                         n_touches=len(touches), touche=", ".join(touches[:60]),
                         what=" ..." if len(touches) > 60 else ""))
        return "\n".join(lines)
    if word in ("roles", "role", "officia"):
        if game.role(0) is None:
            return _("This game has no Officia roles (officia=0).")
        power, _marshal, _second = game.turn_powers()
        lines = [f"{game.seat_name(p)}: {role_title(game.role(p) or '')} - "
                 f"{_(POWERS[game.role(p) or ''])}" for p in range(game.num_players)]
        p = game.current_player()
        role = game.role(p) if p >= 0 else None
        if role is not None and role != "falconer":
            lines.append((_("The power of {role:gen} has been used this turn.") if power else
                          _("The power of {role:gen} has not been used this turn.")).format(
                             role=role_words(role)))
        return "\n".join(lines)
    if word in ("estates", "estate", "score", "scores"):
        rows = [f"{game.seat_name(o)}: "
                + (_("large dovecote at {square}") if lg
                   else _("small dovecote at {square}")).format(square=sq_text(k))
                + f", {_pigeons(len(m))} -> "
                + ngettext("{n} point", "{n} points", len(m) * (2 if lg else 1)).format(
                    n=len(m) * (2 if lg else 1))
                for o, k, lg, m in game.estates()]
        rows.append(_("Scores now (an unfinished objective costs 4): {s}").format(
                        s=", ".join(str(s) for s in game.scores())))
        return "\n".join(rows)
    try:
        from rulebox.games.columba.moves import parse_columba_move

        k = parse_columba_move(f"falcon {word}").sq
    except ValueError:
        return _("explain card | estates | roles | x,y")
    s = game.squares().get(k)
    if s is None:
        return _("{square} is empty.").format(square=sq_text(k))
    kind, colour, turn, who, card = s
    owner = game.estate_owner(k)
    est = (_("in the estate of {seat}").format(seat=game.seat_name(owner)) if owner >= 0
           else _("in no estate"))
    if kind != FIELD and kind != FALCON and owner < 0:
        est += " " + (_("(a falcon cut it off: wild again, it may be captured, CB-3)")
                      if k in game.freed()
                      else _("(not cut off by a falcon: still domesticated, CB-3)"))
    if kind == FALCON:
        return _("{square}: a falcon laid by {seat} on turn {turn}.").format(
                   square=sq_text(k), seat=game.seat_name(who), turn=turn + 1)
    if kind == FIELD:
        return _("{square}: a wild {colour} pigeon of card {card}, {est}.").format(
                   square=sq_text(k), colour=COLOURS[colour], card=card, est=est)
    if k in game.bare():
        return (_("{square}: a domesticated {colour} tile laid by {seat} on turn {turn} on "
                  "the bare table (no card under it: no card docks with it, CB-2, and no "
                  "dovecote stands on it, CB-6), {est}.").format(
                    square=sq_text(k), colour=COLOURS[colour], seat=game.seat_name(who),
                    turn=turn + 1, est=est))
    return (_("{square}: a domesticated {colour} tile laid by {seat} on turn {turn}, "
              "{est}.").format(
                square=sq_text(k), colour=COLOURS[colour], seat=game.seat_name(who),
                turn=turn + 1,
                est=est))


def _pigeons(n: int) -> str:
    """``1 pigeon``, ``2 pigeons``."""
    return ngettext("{n} pigeon", "{n} pigeons", n).format(n=n)
