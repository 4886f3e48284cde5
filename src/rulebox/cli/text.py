"""Words for the terminal, shared by the line mode and the full screen: numbers that agree with
their nouns, text from files made safe to print, what wins each game, the end of a game and of a
match in one message, the short help and the grouped summary of the legal moves.

Nothing here reads input or prints; :mod:`rulebox.cli.play` and :mod:`rulebox.tui` do."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from rulebox.core.game import Game
from rulebox.core.numerals import plain_digits
from rulebox.core.registry import game_entry
from rulebox.i18n import N_, _, ngettext, pgettext

GOALS: dict[str, str] = {
    "columns": N_("When the player to move cannot place, the most roundels on level 5 win "
                  "(COL-8, COL-9; ties: level 4, then lower)."),
    "countred": N_("Four bottom pieces of one colour in one column win (CR-9); 50 moves "
                   "without a new three are a draw (CR-13)."),
    "discs": N_("The first to hold a token of each of the 3 colours wins at once (DSC-6)."),
    "36to1": N_("You win when exactly one cube is left (S36-5)."),
    "columba": N_("When the deck is used up, the most points from estates win; an objective "
                  "not completed costs 4 (CB-11)."),
}
"""What wins each game, in one line (the rule IDs say where the rulebook has it); English
message ids, translated where shown (:func:`goal`)."""

KIDS_GOAL = N_("When the deck is used up, the most points from estates win (CB-13).")
TEAMS = N_("Teams: players 0 and 2 against 1 and 3; partners add their scores.")

COUNTED: dict[str, Callable[[int], str]] = {
    "game": lambda n: ngettext("{n} game", "{n} games", n),
    "move": lambda n: ngettext("{n} move", "{n} moves", n),
    "legal move": lambda n: ngettext("{n} legal move", "{n} legal moves", n),
    "player": lambda n: ngettext("{n} player", "{n} players", n),
    "place": lambda n: ngettext("{n} place", "{n} places", n),
    "turn": lambda n: ngettext("{n} turn", "{n} turns", n),
    "size": lambda n: ngettext("{n} size", "{n} sizes", n),
    "square": lambda n: ngettext("{n} square", "{n} squares", n),
    "colour": lambda n: ngettext("{n} colour", "{n} colours", n),
    "corner pair": lambda n: ngettext("{n} corner pair", "{n} corner pairs", n),
    "hole": lambda n: ngettext("{n} hole", "{n} holes", n),
    "line": lambda n: ngettext("{n} line", "{n} lines", n),
    "kind": lambda n: ngettext("{n} kind", "{n} kinds", n),
}
"""Each counted noun of the terminal with its plural forms in the current language (Russian
has three: 1 ход, 2 хода, 5 ходов)."""

_CONTROL = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|[\x00-\x08"
                      r"\x0b-\x1f\x7f-\x9f]")


def plural(n: int, word: str, words: str | None = None) -> str:
    """``1 player``, ``2 players`` in the current language for the nouns of :data:`COUNTED`
    (``words`` for an irregular English plural of any other noun, which stays English)."""
    form = COUNTED.get(word)
    if form is not None:
        return form(n).format(n=n)
    return f"{n} {word if n == 1 else (words or word + 's')}"


def yes_words() -> tuple[str, ...]:
    """The answers that mean yes in the current language (``y``/``yes`` always do)."""
    return ("y", "yes", pgettext("answer", "y").lower(), pgettext("answer", "yes").lower())


def clean(text: Any, limit: int = 200) -> str:
    """Text from a file or another person, safe to print: terminal escape sequences and other
    control characters removed (a name could otherwise move the cursor or retitle the window),
    cut to ``limit`` characters."""
    s = _CONTROL.sub("", str(text)).replace("\x1b", "")
    return s if len(s) <= limit else s[: limit - 1] + "…"


def agree(text: str) -> str:
    """Mend number agreement in text a render module writes (``1 pigeons``, ``purple (player 1)
    win``); the renders themselves should say it so (see docs/TERMINAL.md)."""
    text = re.sub(r"\b1 (pigeon|player|point|cube|card|tile|move|game)s\b", r"1 \1", text)
    text = text.replace("(player, ", "(")  # 36 to 1's one seat is named "player"
    return re.sub(r"^(\s*(?:Game over: )?\w+ \(player \d\)) win\b", r"\1 wins", text,
                  flags=re.MULTILINE)


def goal(game: Game) -> str:
    """What wins this game (and variant), with the teams when four play as two."""
    if game.id == "columba" and game.options().get("variant") == "kids":
        text = _(KIDS_GOAL)
    else:
        text = _(GOALS[game.id]) if game.id in GOALS else ""
    if game.num_players == 4 and getattr(game, "teams", True):
        text += " " + _(TEAMS)
    return text


def side_totals(table: Any) -> str:
    """``team 0+2: 31, team 1+3: 27`` with four players in teams and a score, else ``""``."""
    e = table.ending
    game = table.game
    if e is None or e.outcome is None or e.outcome.scores is None or game.num_players != 4:
        return ""
    if not getattr(game, "teams", True):
        return ""
    s = list(e.outcome.scores)
    return _("team 0+2: {a}, team 1+3: {b}").format(a=f"{s[0] + s[2]:g}", b=f"{s[1] + s[3]:g}")


def end_message(table: Any) -> str:
    """The one message at the end of a game: who won and why, the scores (team totals with
    four players)."""
    e = table.ending
    if e is None:
        return _("the game goes on")
    if e.how != "rules":
        return clean(e.shown(), 300)
    reason = agree(e.reason)
    if e.winners:
        who = _(" and ").join(table.name(w) for w in e.winners)
        text = ngettext("{who} wins: {reason}", "{who} win: {reason}", len(e.winners)).format(
            who=who, reason=reason)
    elif table.game.num_players == 1:
        text = _("lost: {reason}").format(reason=reason)
    else:
        text = _("no winner: {reason}").format(reason=reason)
    if e.outcome is not None and e.outcome.scores is not None and table.game.num_players > 1:
        text += " " + _("(score {scores})").format(
            scores=", ".join(f"{s:g}" for s in e.outcome.scores))
        totals = side_totals(table)
        if totals:
            text += "; " + totals
    return agree(text)


def match_message(names: Sequence[str], score: Sequence[float], games: int) -> str:
    """Who won the match: ``player 0 (you) wins the match 2-1`` or ``the match is drawn``."""
    best = max(score)
    leaders = [i for i, s in enumerate(score) if s == best]
    line = "-".join(f"{s:g}" for s in score)
    if len(leaders) == 1 and len(score) > 1:
        return _("{name} wins the match {score} ({games})").format(
            name=names[leaders[0]], score=line, games=plural(games, "game"))
    if len(score) == 1:
        return ngettext("{n} game won of {games}", "{n} games won of {games}",
                        int(score[0])).format(n=int(score[0]), games=games)
    return _("the match is drawn {score} ({games})").format(score=line,
                                                            games=plural(games, "game"))


# --- help ---------------------------------------------------------------------------------
NOUNS: dict[str, tuple[str, ...]] = {
    "place": ("place", "turn"),
    "cote": ("size", "square"),
    "tile": ("colour", "square"),
    "falcon": ("square",),
    "choose": ("colour", "corner pair"),
    "lock": ("hole",),
    "bar": ("line",),
}
"""What each word of a Columba or Discs move names, for the grouped summary."""

ALWAYS = 24
"""Up to this many legal moves are listed in full in the help."""


def move_groups(game: Game) -> list[tuple[str, int, str]]:
    """The legal moves grouped by kind: (key, count, a short description)."""
    moves = [str(m) for m in game.legal_moves()]
    groups: dict[str, list[str]] = {}
    for m in moves:
        groups.setdefault(_kind(m), []).append(m)
    out = []
    for key, ms in groups.items():
        parts = [m.split() for m in ms]
        desc = ""
        if key in NOUNS and all(len(p) == len(NOUNS[key]) + 1 for p in parts):
            counts = [len({p[i + 1] for p in parts}) for i in range(len(NOUNS[key]))]
            desc = " x ".join(plural(c, noun) for c, noun in zip(counts, NOUNS[key], strict=True))
        out.append((key, len(ms), desc))
    return out


def _kind(move: str) -> str:
    """The group of a move: its first word, the card before ``:``, the field before ``-``, or
    the piece letter (Columns)."""
    if " " in move:
        return move.split()[0]
    if ":" in move:
        return move.split(":")[0]
    if "-" in move:
        return move.split("-")[0]
    if len(move) > 1 and move[0].isupper() and move[1].islower():
        return move[0]
    return move


def move_summary(game: Game, limit: int = 6) -> list[str]:
    """A few lines on what may be played now: every move when there are few, else the groups
    (``place C17: 12 places x 4 turns; type `moves place` for the list``)."""
    moves = sorted({str(m) for m in game.legal_moves()}, key=_natural)
    if not moves:
        return [_("no legal moves now")]
    if len(moves) <= ALWAYS:
        return [f"{plural(len(moves), 'legal move')}: " + " ".join(moves)]
    groups = move_groups(game)
    hand = _hand(game)
    lines = []
    if len(groups) <= 12 and all(not d for _k, _n, d in groups) and len(groups) > 1:
        body = ", ".join(f"{k} {n}" for k, n, _d in groups)
        lines.append(_("{moves} by {kind}: {body}").format(
            moves=plural(len(moves), "legal move"), kind=_kind_word(game), body=body))
        lines.append(_("type `moves X` for those of one kind, `moves` for all"))
        return lines
    lines.append(f"{plural(len(moves), 'legal move')}:")
    for key, n, desc in groups[:limit]:
        name = f"{key} {hand}" if key == "place" and hand else key
        text = desc or plural(n, "move")
        lines.append("  " + _("{name}: {text}; type `moves {key}` for the list").format(
            name=name, text=text, key=key))
    if len(groups) > limit:
        more = len(groups) - limit
        lines.append("  " + ngettext("... and {n} more kind; `moves` lists all",
                                     "... and {n} more kinds; `moves` lists all", more).format(
            n=more))
    return lines


def _kind_word(game: Game) -> str:
    if game.id == "columns":
        return _("piece")
    if game.id == "countred":
        return _("field")
    if game.id == "36to1":
        return _("card")
    return _("kind")


def _hand(game: Game) -> str:
    try:
        pos = game.position_json()
    except Exception:  # a nicety never breaks the screen
        return ""
    hand = pos.get("hand") if isinstance(pos, dict) else None
    return hand if isinstance(hand, str) else ""


def _natural(s: str) -> tuple[Any, ...]:
    return tuple(int(t) if plain_digits(t.lstrip("-")) else t
                 for t in re.split(r"(-?\d+)", s) if t)


def moves_of_kind(game: Game, kind: str) -> list[str]:
    """The legal moves of one group (all of them for an empty ``kind``), in natural order
    (``-2,-1`` before ``-1,-1`` before ``0,-2``) and each once."""
    moves = sorted({str(m) for m in game.legal_moves()}, key=_natural)
    if not kind:
        return moves
    k = kind.strip()
    return [m for m in moves if _kind(m).lower() == k.lower()]


def notation_lines(game: Game) -> list[str]:
    """The game's notation help without what this variant lacks (Columba's kids variant has
    no objectives, tiles, falcons or roles; without ``officia=1`` no roles)."""
    entry = game_entry(game.id)
    lines = entry.notation_help.splitlines()
    shown = entry.notation_text().splitlines()
    if len(shown) != len(lines):  # a translation keeps the lines (scripts/i18n.py check)
        shown = lines
    if game.id != "columba":
        return shown
    opts = game.options()
    kids = opts.get("variant") == "kids"
    officia = opts.get("officia") in ("1", "true", "yes", "on")
    out: list[str] = []
    skipping = False
    for line, said in zip(lines, shown, strict=True):
        word = line.strip().split(" ")[0] if line.strip() else ""
        if line.startswith("Officia") or line.startswith("Options:"):
            skipping = not officia or line.startswith("Options:")
            if skipping:
                continue
        elif not line.startswith(" "):
            skipping = False
        if skipping:
            continue
        if (kids and word in ("goal", "tile", "buy", "falcon")) or (
                kids and line.startswith("                    ")):
            continue
        out.append(said)
    return out


def commands(table: Any, seat: int | None, *, full_screen: bool = False) -> list[str]:
    """The commands that work in this game and at this table, one short line each (at most 40
    characters: they fit the full screen's side panel)."""
    game = table.game
    entry = game_entry(game.id)
    def cmd(usage: str, what: str) -> str:
        return f"{usage:13} {what}"

    cmds = [cmd(_("MOVE"), _("play it (`notation`: how)")),
            cmd(_("moves [KIND]"), _("the legal moves (of a kind)"))]
    cmds.append(cmd("board", _("the board again")) if not full_screen else
                cmd("status", _("holdings and scores in full")))
    cmds.append(cmd("history", _("the moves so far")))
    if seat is not None and table.may_undo(seat):
        cmds.append(cmd("undo", _("take back your last move")))
    cmds.append(cmd("hint", _("what the computer would play")))
    if entry.explain is not None:
        cmds.append(cmd("explain X", _("a piece, card or field")))
    if game.num_players == 2:
        cmds.append(cmd("draw", _("offer a draw")))
    if game.num_players in (1, 2, 4):
        cmds.append(cmd("resign", _("give up (asks first)")))
    cmds.append(cmd(_("save FILE"), _("save the record")))
    cmds.append(cmd("quit", _("leave (asks; the game is saved)")))
    return cmds


def short_help(table: Any, seat: int | None, *, full_screen: bool = False) -> list[str]:
    """The whole short help: the goal, the commands and the moves now, a screenful at most."""
    from rulebox.cli.board import text_parts  # the board module uses this one's words

    lines = [goal(table.game), _("Commands:")]
    lines += ["  " + c for c in commands(table, seat, full_screen=full_screen)]
    # what the letters of the moves mean before the moves are counted by them (Columns'
    # R S D T, Count Red's fields' pieces)
    key, _facts, _status = text_parts(table.game, seat)
    lines += [line.strip() for line in key]
    lines += move_summary(table.game)
    return lines
