"""``rulebox verify RECORD``: check that a finished 36 to 1 or Columba game was dealt fairly.

RECORD is the game as the server shows it once it is over (``GET /api/games/{id}`` saved to a
file, or the browser's "Check the deal" download), or ``-`` for standard input. The check
(docs/FAIRNESS.md): the revealed text hashes to the commitment the game carried from its first
move, its order deals the game with its options, every step of the game replays on that order
(each reshuffle after an undo with the seed the committed key gives), and the final position
is the one the record shows. Exit status 0: fair; 1: it does not hold (and why); 2: the file
is not such a record.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from rulebox.i18n import _, ngettext

MAX_RECORD = 4 * 1024 * 1024
"""Bytes a record may have at most (a finished game's payload is a few kB)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``verify`` sub-command's argument: the record file."""
    parser.add_argument("record", metavar="RECORD",
                        help=_("the finished game's JSON (GET /api/games/{id}), or - for stdin"))


def _read(name: str) -> Any:
    if name == "-":
        text = sys.stdin.read(MAX_RECORD + 1)
    else:
        path = Path(name)
        if not path.is_file():
            raise ValueError(_("{name}: not a regular file").format(name=name))
        with path.open("rb") as f:
            data = f.read(MAX_RECORD + 1)
        text = data.decode("utf-8")
    if len(text) > MAX_RECORD:
        raise ValueError(_("{name}: larger than {max_record} bytes").format(
                             name=name, max_record=MAX_RECORD))
    return json.loads(text)


def check(record: Any) -> str:
    """Verify a record (a game payload or its ``fairness`` object with ``game``); answers a
    line for people. ``FairnessError`` when the deal does not hold, ``ValueError`` when this
    is not a record of a finished game with a commitment."""
    from rulebox.match.fairness import verify

    if not isinstance(record, dict):
        raise ValueError(_("a record is a JSON object"))
    fair = record.get("fairness", record)
    if not isinstance(fair, dict) or "commitment" not in fair:
        raise ValueError(_("this record has no fairness commitment (36 to 1 and Columba only)"))
    if "reveal" not in fair or "log" not in fair:
        raise ValueError(_("the game is not over: the deal is revealed at its end"))
    options = fair.get("options", record.get("options"))
    log = fair["log"]
    if not isinstance(options, dict) or not isinstance(log, list) or \
            not all(isinstance(s, str) for s in log):
        raise ValueError(_("the record's options or log are malformed"))
    view = record.get("view") if isinstance(record.get("view"), dict) else None
    seat = record.get("you") if isinstance(record.get("you"), int) else None
    game = verify(str(fair["commitment"]), str(fair["reveal"]),
                  {str(k): str(v) for k, v in options.items()}, log, view, seat)
    what = _("arranged by its creator") if fair.get("arranged") else _("dealt by the server")
    return "fair: " + ngettext(
        "the {game} deal ({what}) matches commitment {commitment}..., and its {n} step replays "
        "on it",
        "the {game} deal ({what}) matches commitment {commitment}..., and all {n} steps replay "
        "on it", len(log)).format(game=game.id, what=what,
                                  commitment=str(fair["commitment"])[:16], n=len(log))


def run(args: argparse.Namespace) -> int:
    """Check the record; exit status 0 (fair), 1 (not), 2 (not a record)."""
    from rulebox.core.errors import RuleboxError
    from rulebox.match.fairness import FairnessError

    try:
        record = _read(args.record)
    except (OSError, ValueError, UnicodeDecodeError, RecursionError) as e:
        print(_("rulebox verify: cannot read the record: {e}").format(e=e), file=sys.stderr)
        return 2
    try:
        print(check(record))
    except FairnessError as e:
        print(_("NOT FAIR: {e}").format(e=e))
        return 1
    except (ValueError, RuleboxError) as e:
        print(f"rulebox verify: {e}", file=sys.stderr)
        return 2
    return 0


def main(argv: list[str] | None = None) -> int:
    """``python -m rulebox.cli.verify RECORD``."""
    parser = argparse.ArgumentParser(prog="rulebox verify", description=__doc__)
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
