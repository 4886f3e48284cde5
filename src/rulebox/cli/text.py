"""Words for the terminal, shared by the line mode and the full screen: numbers that agree with
their nouns, text from files made safe to print, what wins each game, the end of a game and of a
match in one message, the short help and the grouped summary of the legal moves.

Nothing here reads input or prints; :mod:`rulebox.cli.play` and :mod:`rulebox.tui` do."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from rulebox.core.game import Game
from rulebox.core.registry import game_entry

GOALS: dict[str, str] = {
    "columns": "When the player to move cannot place, the most roundels on level 5 win (COL-8, "
               "COL-9; ties: level 4, then lower).",
    "countred": "Four bottom pieces of one colour in one column win (CR-9); 50 moves without "
                "a new three are a draw (CR-13).",
    "discs": "The first to hold a token of each of the 3 colours wins at once (DSC-6).",
    "36to1": "You win when exactly one cube is left (S36-5).",
    "columba": "When the deck is used up, the most points from estates win; an objective not "
               "completed costs 4 (CB-11).",
}
"""What wins each game, in one line (the rule IDs say where the rulebook has it)."""

KIDS_GOAL = "When the deck is used up, the most points from estates win (CB-13)."
TEAMS = "Teams: players 0 and 2 against 1 and 3; partners add their scores."

_CONTROL = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|[\x00-\x08"
                      r"\x0b-\x1f\x7f-\x9f]")


def plural(n: int, word: str, words: str | None = None) -> str:
    """``1 player``, ``2 players`` (``words`` for an irregular plural)."""
    return f"{n} {word if n == 1 else (words or word + 's')}"


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
        text = KIDS_GOAL
    else:
        text = GOALS.get(game.id, "")
    if game.num_players == 4 and getattr(game, "teams", True):
        text += " " + TEAMS
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
    return f"team 0+2: {s[0] + s[2]:g}, team 1+3: {s[1] + s[3]:g}"


def end_message(table: Any) -> str:
    """The one message at the end of a game: who won and why, the scores (team totals with
    four players)."""
    e = table.ending
    if e is None:
        return "the game goes on"
    if e.how != "rules":
        return clean(e.reason, 300)
    reason = agree(e.reason)
    if e.winners:
        who = " and ".join(table.name(w) for w in e.winners)
        text = f"{who} {'wins' if len(e.winners) == 1 else 'win'}: {reason}"
    elif table.game.num_players == 1:
        text = f"lost: {reason}"
    else:
        text = f"no winner: {reason}"
    if e.outcome is not None and e.outcome.scores is not None and table.game.num_players > 1:
        text += " (score " + ", ".join(f"{s:g}" for s in e.outcome.scores) + ")"
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
        return f"{names[leaders[0]]} wins the match {line} ({plural(games, 'game')})"
    if len(score) == 1:
        return f"{plural(int(score[0]), 'game')} won of {games}"
    return f"the match is drawn {line} ({plural(games, 'game')})"


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
        return ["no legal moves now"]
    if len(moves) <= ALWAYS:
        return [f"{plural(len(moves), 'legal move')}: " + " ".join(moves)]
    groups = move_groups(game)
    hand = _hand(game)
    lines = []
    if len(groups) <= 12 and all(not d for _k, _n, d in groups) and len(groups) > 1:
        body = ", ".join(f"{k} {n}" for k, n, _d in groups)
        lines.append(f"{plural(len(moves), 'legal move')} by {_kind_word(game)}: {body}")
        lines.append("type `moves X` for those of one kind, `moves` for all")
        return lines
    lines.append(f"{plural(len(moves), 'legal move')}:")
    for key, n, desc in groups[:limit]:
        name = f"{key} {hand}" if key == "place" and hand else key
        text = desc or plural(n, "move")
        lines.append(f"  {name}: {text}; type `moves {key}` for the list")
    if len(groups) > limit:
        lines.append(f"  ... and {len(groups) - limit} more kinds; `moves` lists all")
    return lines


def _kind_word(game: Game) -> str:
    return {"columns": "piece", "countred": "field", "36to1": "card"}.get(game.id, "kind")


def _hand(game: Game) -> str:
    try:
        pos = game.position_json()
    except Exception:  # a nicety never breaks the screen
        return ""
    hand = pos.get("hand") if isinstance(pos, dict) else None
    return hand if isinstance(hand, str) else ""


def _natural(s: str) -> tuple[Any, ...]:
    return tuple(int(t) if t.lstrip("-").isdigit() else t
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
    text = game_entry(game.id).notation_help
    lines = text.splitlines()
    if game.id != "columba":
        return lines
    opts = game.options()
    kids = opts.get("variant") == "kids"
    officia = opts.get("officia") in ("1", "true", "yes", "on")
    out: list[str] = []
    skipping = False
    for line in lines:
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
        out.append(line)
    return out


def commands(table: Any, seat: int | None, *, full_screen: bool = False) -> list[str]:
    """The commands that work in this game and at this table, one short line each (at most 40
    characters: they fit the full screen's side panel)."""
    game = table.game
    entry = game_entry(game.id)
    cmds = ["MOVE          play it (`notation`: how)",
            "moves [KIND]  the legal moves (of a kind)"]
    cmds.append("board         the board again" if not full_screen else
                "status        holdings and scores in full")
    cmds.append("history       the moves so far")
    if seat is not None and table.may_undo(seat):
        cmds.append("undo          take back your last move")
    cmds.append("hint          what the computer would play")
    if entry.explain is not None:
        cmds.append("explain X     a piece, card or field")
    if game.num_players == 2:
        cmds.append("draw          offer a draw")
    if game.num_players in (1, 2, 4):
        cmds.append("resign        give up (asks first)")
    cmds.append("save FILE     save the record")
    cmds.append("quit          leave (asks; the game is saved)")
    return cmds


def short_help(table: Any, seat: int | None, *, full_screen: bool = False) -> list[str]:
    """The whole short help: the goal, the commands and the moves now, a screenful at most."""
    lines = [goal(table.game), "Commands:"]
    lines += ["  " + c for c in commands(table, seat, full_screen=full_screen)]
    lines += move_summary(table.game)
    return lines
