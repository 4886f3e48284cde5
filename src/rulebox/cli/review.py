"""``rulebox review RECORD [--time T]``: every move of a saved game evaluated by the computer.

Prints, per move, the mover's win probability before and after the move, the move the agent
prefers, and the marks (inaccuracy from a drop of 0.05, mistake 0.10, blunder 0.20), then the
decisive moment. The review is written into the record (a ``review`` section), so a game is
reviewed once: a record that already has a review of its moves is only printed (``--force``
reviews it again). Hidden-information games are reviewed from what each mover could see.
docs/ANALYSIS.md explains how the values are taken.
"""

from __future__ import annotations

import argparse
import sys

from rulebox.i18n import _


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``review`` sub-command's arguments."""
    parser.add_argument("record", metavar="RECORD", help=_("a saved game record (JSON)"))
    parser.add_argument("--time", type=float, default=0.5,
                        help=_("seconds the agent thinks per position (0.5)"))
    parser.add_argument("--iterations", type=int, default=None,
                        help=_("a fixed search size instead of a clock (repeatable)"))
    parser.add_argument("--agent", default="best", help=_("the reviewing agent (best)"))
    parser.add_argument("--seed", type=int, default=0, help=_("seed of the agent (0)"))
    parser.add_argument("--force", action="store_true", help=_("review again"))
    parser.add_argument("--no-write", action="store_true",
                        help=_("print only; leave the record as it is"))


def run(args: argparse.Namespace) -> int:
    """Review the record (or print its review); exit status 2 for an unreadable record."""
    from rulebox.analysis.review import (
        Evaluator,
        read_record_json,
        review_lines,
        review_record,
        valid_review,
        write_review,
    )
    from rulebox.core.errors import RuleboxError
    from rulebox.match.records import Record

    try:
        data = read_record_json(args.record)
        record = Record.from_json(data)
    except RuleboxError as e:
        print(f"rulebox review: {e}", file=sys.stderr)
        return 2
    review = data.get("review")
    if args.force or not valid_review(review, record):
        if args.time is not None and not 0 < args.time <= 60:
            print("rulebox review: " + _("--time is 0 to 60 seconds"), file=sys.stderr)
            return 2
        evaluator = Evaluator(record.game, args.agent, args.time, args.iterations, args.seed)

        def progress(i: int, n: int) -> None:
            if sys.stderr.isatty():
                print("\r" + _("reviewing move {i} of {n}").format(i=i + 1, n=n), end="",
                      file=sys.stderr, flush=True)

        review = review_record(record, evaluator, progress)
        if sys.stderr.isatty():
            print(file=sys.stderr)
        if not args.no_write:
            write_review(args.record, review)
    for line in review_lines(record, review):
        print(line)
    return 0


def main(argv: list[str] | None = None) -> int:
    """``python -m rulebox.cli.review RECORD``."""
    parser = argparse.ArgumentParser(prog="rulebox review", description=__doc__)
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
