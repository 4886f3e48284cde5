"""What a reader sees: the payload of a game for one seat (or a spectator), built from
``view(seat)`` only plus the public facts, the result and the move log in the reader's language,
and the catalogue, rules texts and assets of the games. Nothing here changes a game."""

from __future__ import annotations

import contextlib
import re
from importlib import resources
from typing import Any

from rulebox.ai.base import agent_entries
from rulebox.core.errors import RuleboxError
from rulebox.core.options import option_label, option_value_label
from rulebox.core.registry import game_entry, game_ids
from rulebox.i18n import _, language, ngettext
from rulebox.match.agents import LOBBY_TIMES
from rulebox.match.replay import position_at
from rulebox.server.errors import ApiError
from rulebox.server.live import LiveGame

LEVELS = ("easy", "medium", "hard")
"""Computer levels offered by the lobby (``computer:LEVEL``, :mod:`rulebox.match.agents`)."""

DEFAULT_LEVEL = "medium"

EVENTS_SHOWN = 30
"""The last events a payload carries (the browser shows the announcements among them)."""

_RULE_REFS = re.compile(r"\s*[\[(]\s*[A-Z]{1,4}-\d+[a-z]?(?:\s*[,;/]\s*[A-Z]{1,4}-\d+[a-z]?)*"
                        r"\s*[\])]")


# --- the catalogue ---------------------------------------------------------------------------
def catalog() -> dict[str, Any]:
    """Every game with its options, seats and the agents that play it."""
    games = []
    for gid in game_ids():
        entry = game_entry(gid)
        cls = entry.cls
        games.append({
            "id": gid,
            "title": entry.title,
            "player_counts": list(cls.player_counts),
            "hidden_information": cls.has_hidden_information,
            "seat_names": [entry.seat_name(p) for p in range(max(cls.player_counts))],
            "options": [
                {"name": s.name, "default": None if s.default is None else str(s.default),
                 "help": _(s.help) if s.help else "", "choices": list(s.choices),
                 "label": option_label(s.name),
                 "choice_labels": [option_value_label(str(c)) for c in s.choices]}
                for s in cls.option_specs
            ],
            "agents": [{"name": e.name,
                        "description": _(e.description) if e.description else ""}
                       for e in agent_entries(gid)],
            "notation": entry.notation_text(),
        })
    return {"games": games, "levels": list(LEVELS), "default_level": DEFAULT_LEVEL,
            "level_times": {k: LOBBY_TIMES[k] for k in LEVELS}}


def rules(game_id: str) -> dict[str, Any]:
    """The rules text of a game (its ``rules.md``) and its notation."""
    try:
        entry = game_entry(game_id)
    except RuleboxError as e:
        raise ApiError(404, "unknown_game", str(e)) from None
    try:
        text = entry.rules_text(language())  # the request's language (English if none)
    except (FileNotFoundError, OSError, ModuleNotFoundError):
        text = f"# {entry.title}\n\n(The rules text of this game is not written yet.)\n"
    return {"game": entry.id, "title": entry.title, "text": text,
            "notation": entry.notation_text()}


def asset(game_id: str, name: str) -> bytes:
    """A JSON data file shipped in a game's package (its printed components)."""
    try:
        entry = game_entry(game_id)
    except RuleboxError:
        raise ApiError(404, "unknown_game", _("no such game")) from None
    stem, _sep, ext = name.partition(".")
    if ext != "json" or not stem.replace("_", "").isalnum():
        raise ApiError(404, "no_such_asset", _("assets are JSON files of the game's package"))
    try:
        return resources.files(entry.package).joinpath(name).read_bytes()
    except (FileNotFoundError, OSError, ModuleNotFoundError):
        raise ApiError(404, "no_such_asset", _("{title} has no {name}").format(
                                                 title=entry.title, name=name)) from None


# --- what a seat sees ------------------------------------------------------------------------
def payload(live: LiveGame, seat: int | None, elsewhere: frozenset[int] = frozenset()
            ) -> dict[str, Any]:
    """The game as ``seat`` may see it (``None``: a spectator). Built from ``view(seat)``
    only, plus the public facts: seats, whose turn, the result, the table's events (the
    announcements among them) and, on the seat's own turn, its legal moves. ``elsewhere``: the
    seats with sockets on other processes of a cluster."""
    table = live.table
    game = table.game
    view = game.view(seat)
    if "history" in view:
        history: list[str] | None = list(view["history"])
    elif game.has_hidden_information:
        history = None  # the game keeps its move list to itself
    else:
        history = [str(m) for m in game.history]
    ending = table.ending
    result: dict[str, Any] | None = None
    if ending is not None:
        scores = ending.outcome.scores if ending.outcome is not None else None
        result = {"winners": list(ending.winners),
                  "scores": None if scores is None else list(scores),
                  "reason": ending.reason, "how": ending.how,
                  "line": ending.result_line(), **result_words(live)}
    to_move = table.to_move()
    legal: list[str] = []
    if seat is not None and to_move == seat and not table.seats[seat].is_computer:
        legal = sorted(str(m) for m in game.legal_moves())
    events = [e.to_json() for e in table.events[-EVENTS_SHOWN:]
              if e.text and (e.kind != "move" or history is not None)]
    fresh = (game.outcome() if ending is not None and ending.how == "rules"
             and game.is_terminal() else None)
    for e in events:
        if e["kind"] == "draw_declined":
            e["kind"] = "declined"  # the contract's name (issue 17)
        elif e["kind"] == "game_over" and fresh is not None:
            e["text"] = fresh.reason  # the rules' reason in the reader's language
    return {
        "id": live.id,
        "game": live.entry.id,
        "title": live.entry.title,
        "options": game.public_options(),
        "version": table.version,
        "you": seat,
        "hotseat": live.hotseat,
        "seats": [{"player": i, "name": live.entry.seat_name(i), "kind": r.kind,
                   "label": r.label} for i, r in enumerate(live.records)],
        "to_move": to_move,
        "over": result is not None,
        "result": result,
        "ply": len(game.history),
        "history": history,
        "legal": legal,
        "can_undo": table.can_undo(seat),
        "draw_offer": table.draw_offer,
        "rematch": live.rematch,
        "can_offer_draw": (seat is not None and result is None and len(live.records) > 1
                           and not table.seats[seat].is_computer),
        "takebacks": table.takebacks,
        "events": events,
        "arranged": table.arranged,
        "fairness": fairness(live),
        "view": view,
        **table_extras(live, seat, history, elsewhere),
    }


def fairness(live: LiveGame) -> dict[str, Any] | None:
    """The commitment to the deal (36 to 1, Columba; docs/FAIRNESS.md): ``commitment`` and
    ``arranged`` from the start; once the game is over also ``reveal`` (whose SHA-256 is the
    commitment) and ``log`` (every step, takebacks included) to replay it on."""
    table = live.table
    if table.deal is None:
        return None
    out: dict[str, Any] = {"commitment": table.deal.commitment, "arranged": table.arranged}
    if table.over():
        out["reveal"] = table.deal.reveal
        out["log"] = list(table.log)
        out["options"] = table.game.public_options()
    return out


def table_extras(live: LiveGame, seat: int | None, history: list[str] | None,
                 elsewhere: frozenset[int] = frozenset()) -> dict[str, Any]:
    """The payload's fields of issue 17 (docs/SERVER.md): the move log in words and its last
    turn, the clock, presence, the computer thinking, and whether the bearer only watches."""
    table = live.table
    entries = move_log(live, history)
    clock = table.clock
    # a computer to move is deciding (here, or as a job of another process of a cluster)
    thinking = table.computer_to_move()
    return {
        "spectator": seat is None,
        "log": entries,
        "last": entries[-1] if entries else None,
        "clock": clock.payload(table.time_source()) if clock is not None else None,
        "presence": presence(live, elsewhere),
        "thinking": thinking,
    }


def presence(live: LiveGame, elsewhere: frozenset[int] = frozenset()) -> list[bool]:
    """Per seat: a socket of it is connected (here, or ``elsewhere``: on another process), or it
    is a computer's (at a hot-seat table the people share one screen: a socket of any seat is
    there for all)."""
    here = set(live.sockets.values()) | elsewhere
    if live.hotseat and here - {None}:
        here = set(range(len(live.records)))
    return [r.kind == "computer" or i in here for i, r in enumerate(live.records)]


def result_words(live: LiveGame) -> dict[str, Any]:
    """The result's ``text`` (in words, without rule IDs), its ``why`` (the reason with its
    rule IDs, as the end screen's "Why?" says it), both in the reader's language, the
    deciding ``rule`` (the ending's typed rule ID) and the pieces that decided it
    (``highlight``, from ``Game.highlights()``). The result's ``reason`` stays the stored
    (English) one."""
    table = live.table
    ending = table.ending
    if ending is None:
        return {}
    shown = ending.shown()
    if ending.how == "rules" and table.game.is_terminal():
        # the rules' reason made now, in the reader's language (the ending keeps the
        # language of the request that ended the game)
        with contextlib.suppress(Exception):
            fresh = table.game.outcome()
            if fresh is not None:
                shown = fresh.reason
    reason = _RULE_REFS.sub("", shown).strip()  # in the reader's language
    if ending.how == "rules" and ending.winners:
        who = _(" and ").join(live.entry.seat_name(w) for w in ending.winners)
        text = ngettext("{who} wins: {reason}", "{who} win: {reason}",
                        len(ending.winners)).format(who=who, reason=reason)
    elif ending.how == "rules" and table.game.num_players > 1:
        text = _("no winner: {reason}").format(reason=reason)
    else:
        text = reason
    highlight: list[str] = []
    if table.game.is_terminal():
        with contextlib.suppress(Exception):  # the end screen never fails on a mark
            highlight = [str(h) for h in table.game.highlights()]
    return {"text": text, "why": shown, "rule": ending.rule,
            "highlight": highlight}


def move_log(live: LiveGame, history: list[str] | None) -> list[dict[str, Any]] | None:
    """The move log in words, one entry per turn (consecutive plies of one seat), over the
    moves ``history`` the seat may see (``None``: hidden, no log)."""
    if history is None:
        return None
    table = live.table
    texts = _log_texts(live)
    entries: list[dict[str, Any]] = []
    for i, move in enumerate(history[: len(texts)]):
        p = table.movers[i] if i < len(table.movers) else None
        if entries and entries[-1]["player"] == p:
            last = entries[-1]
            last["to_ply"] = i + 1
            last["moves"].append(move)
            last["texts"].append(texts[i])
            continue
        entries.append({"turn": len(entries) + 1, "player": p,
                        "seat": live.entry.seat_name(p) if p is not None else None,
                        "from_ply": i + 1, "to_ply": i + 1, "moves": [move],
                        "texts": [texts[i]]})
    return entries


def _log_texts(live: LiveGame) -> list[str]:
    """``Game.describe`` of every move of the game in the current language, each on the
    position before it; cached per language and extended incrementally (an undo keeps the
    common beginning)."""
    game = live.game
    lang = language()
    moves = [str(m) for m in game.history]
    done, texts = live.log_texts.get(lang, ([], []))
    k = 0
    while k < min(len(done), len(moves)) and done[k] == moves[k]:
        k += 1
    if k == len(moves) and len(texts) >= k:
        return texts[:k]
    texts = texts[:k]
    try:
        g = game.clone()
        for _i in range(len(moves) - k):
            g.undo()
        for move in game.history[k:]:
            texts.append(g.describe(move))
            g.apply_unchecked(move)
    except Exception:  # a game that cannot step back: from the table's log, else notation
        with contextlib.suppress(Exception):
            g = position_at(game.id, game.options(), live.table.log, moves[:len(texts)])
            for move in game.history[len(texts):]:
                texts.append(g.describe(move))
                g.apply_unchecked(move)
        texts += [_("{seat} plays {move}").format(
            seat=live.entry.seat_name(live.table.movers[i]), move=moves[i])
            if i < len(live.table.movers) else moves[i]
            for i in range(len(texts), len(moves))]
    live.log_texts[lang] = (moves, texts)
    return texts
