"""``rulebox replay FILE``: step through a saved game, every move checked by the rules."""

from __future__ import annotations

import sys

from rich.text import Text

from rulebox.cli.play import make_console
from rulebox.core.registry import game_entry
from rulebox.match.records import load_record


def replay(path: str, step: bool = False) -> int:
    """Show the record's game move by move. On a terminal (or with ``step``), Enter goes on,
    ``b`` goes back, ``q`` stops; through a pipe every position is printed in turn."""
    console = make_console()
    record = load_record(path)
    final = record.replay()  # refuses a record that breaks the rules, saying where
    entry = game_entry(record.game)
    interactive = step or sys.stdin.isatty()
    console.print(Text(f"{entry.title}: {len(record.moves)} moves; players: "
                       + ", ".join(record.players), style="bold"))
    i = 0
    while True:
        game = record.replay(upto=i)
        head = "start" if i == 0 else f"after move {i}: {record.moves[i - 1]}"
        console.rule(head)
        console.print(entry.render(game, None))
        if i >= len(record.moves):
            break
        if interactive:
            try:
                answer = input("[Enter] next, b back, q quit > ").strip().lower()
            except EOFError:
                break
            if answer == "q":
                break
            if answer == "b":
                i = max(0, i - 1)
                continue
        i += 1
    outcome = final.outcome()
    if record.result and outcome is not None:
        console.print(Text(f"result: {outcome.result_line()} ({outcome.reason})", style="bold"))
    elif outcome is None:
        console.print("the game was not finished")
    return 0
