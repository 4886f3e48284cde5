"""``rulebox replay FILE``: step through a saved game, every move checked by the rules.

On a terminal (or with ``--step``) one key a step: Enter or ``n`` the next move, ``b`` back,
a number jumps to that move, ``s`` to the start, ``e`` to the end, ``q`` stops; the keys are
listed once at the start and again after a key that means nothing. Through a pipe every
position is printed in turn."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.text import Text

from rulebox.analysis.review import note_for, valid_review
from rulebox.cli.board import marked
from rulebox.cli.play import make_console
from rulebox.cli.saves import read_record, resolve
from rulebox.cli.text import clean, end_message
from rulebox.core.numerals import plain_digits
from rulebox.core.registry import game_entry
from rulebox.i18n import N_, _, ngettext
from rulebox.match.records import Record

KEYS = N_("keys: Enter/n next, b back, a number jumps to that move, s start, e end, q quit")


def _input(prompt: str) -> str | None:
    try:
        return input(prompt)
    except EOFError:
        return None


def step_to(answer: str, i: int, total: int) -> int | None:
    """Where a key leads from move ``i`` of ``total`` (``None``: a key that means nothing;
    ``-1``: quit)."""
    a = answer.strip().lower()
    if a in ("", "n", "next"):
        return min(i + 1, total)
    if a in ("b", "back", "p"):
        return max(0, i - 1)
    if a in ("s", "start", "0"):
        return 0
    if a in ("e", "end"):
        return total
    if a in ("q", "quit", "exit"):
        return -1
    if plain_digits(a):
        return min(int(a), total)
    return None


def replay(path: str, step: bool = False, start: int = 0,
           read: Callable[[str], str | None] = _input, console: Console | None = None) -> int:
    """Show the record's game move by move (see the module text)."""
    console = console or make_console()
    record = read_record(resolve(path))
    final = record.replay()  # refuses a record that breaks the rules, saying where
    review = record.review if valid_review(record.review, record) else None
    entry = game_entry(record.game)
    interactive = step or sys.stdin.isatty()
    total = len(record.moves)
    console.print(Text(ngettext("{title}: {n} move; players: {players}",
                                "{title}: {n} moves; players: {players}", total).format(
        title=entry.title, n=total, players=", ".join(clean(p, 60) for p in record.players)),
        style="bold"))
    if interactive:
        console.print(_(KEYS), style="dim")
    i = min(start, total)
    while True:
        show(console, record, i, review)
        if interactive:
            answer = read(_("move {i}/{total} > ").format(i=i, total=total))
            if answer is None:
                break
            nxt = step_to(answer, i, total)
            while nxt is None:
                console.print(_("{answer!r} means nothing here; {keys}").format(
                                  answer=clean(answer, 20), keys=_(KEYS)))
                answer = read(_("move {i}/{total} > ").format(i=i, total=total))
                nxt = -1 if answer is None else step_to(answer, i, total)
            if nxt < 0:
                break
            if nxt == i == total:
                break
            i = nxt
        else:
            if i >= total:
                break
            i += 1
    outcome = final.outcome()
    if record.ending:
        console.print(Text(_("result: {result}").format(result=clean(record.ending)),
                           style="bold"))
    elif record.result and outcome is not None:
        console.print(Text(_("result: {result}").format(
            result=f"{outcome.result_line()} ({outcome.reason})"), style="bold"))
    elif outcome is None:
        console.print(_("the game was not finished"))
    return 0


def show(console: Console, record: Record, i: int,
         review: dict[str, Any] | None = None) -> None:
    """The position after move ``i`` with its counter and the move marked; with a review (of
    ``rulebox review``) the move's values and mark beside it."""
    total = len(record.moves)
    game = record.replay(upto=i)
    head = (_("move 0 of {total}: the start").format(total=total) if i == 0
            else _("move {i} of {total}: {move}").format(i=i, total=total,
                                                         move=record.moves[i - 1]))
    head += review_note(review, i)
    console.rule(head)
    console.print(marked(game, None))


def review_note(review: dict[str, Any] | None, i: int) -> str:
    """Move ``i``'s note from a stored review, or nothing when the review (read from a file
    anyone may have edited) does not hold one in the expected form."""
    try:
        return clean(note_for(review, i), 120)
    except (KeyError, TypeError, ValueError, AttributeError):
        return ""


__all__ = ["KEYS", "end_message", "replay", "step_to"]
