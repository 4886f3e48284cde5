"""``rulebox analyze <game> [key=value ...] --games N --agents A[,B] --out DIR``: a game's balance.

Plays N seeded games for every variant (seats rotated, in worker processes, a progress bar;
``--log FILE`` keeps every finished game so that a stopped run resumes) and writes
DIR/report.html with its figures (PNG and SVG) and DIR/metrics.json: seat and first-mover
advantage with 95% intervals, draws, wins by team, game length in plies and turns, branching
factor per ply, how often the leader by the evaluation at ply k won (and the ply where games are
effectively decided), score distributions. ``--vary key=v1,v2`` plays every combination of the
values side by side (36 to 1: ``--vary green=0,1,2,3 --vary end=continue,literal``; Count Red:
``--vary first=0,1``; Columba: ``--vary players=2,3,4``).

``rulebox analyze --from-json RESULTS --out DIR`` draws a tournament's results instead
(``rulebox tournament --json RESULTS`` or its ``--log``): ratings with intervals, score heat map.
"""

from __future__ import annotations

import argparse
import os
import sys

from rulebox.i18n import _


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``analyze`` sub-command's arguments."""
    parser.add_argument("game", nargs="?", help=_("game id (see rulebox games)"))
    parser.add_argument("options", nargs="*", metavar="key=value", help=_("the game's options"))
    parser.add_argument("--games", type=int, default=100, help=_("games per variant (100)"))
    parser.add_argument("--agents", default="greedy",
                        help=_("agents, comma-separated when more than one: A or A,B "
                               "(greedy); settings with ':' as in mcts:iterations=200"))
    parser.add_argument("--vary", action="append", default=[], metavar="KEY=V1,V2",
                        help=_("an option to vary (repeatable: every combination)"))
    parser.add_argument("--out", required=True, metavar="DIR", help=_("where the report goes"))
    parser.add_argument("--seed", type=int, default=0, help=_("run seed (0)"))
    parser.add_argument("--time", type=float, default=None,
                        help=_("seconds a move for agents without time= or iterations="))
    parser.add_argument("--workers", type=int, default=None,
                        help=_("worker processes (default: CPUs - 1, at least 1)"))
    parser.add_argument("--log", metavar="FILE", help=_("keep finished games here; "
                                                        "resume from it"))
    parser.add_argument("--from-json", metavar="RESULTS",
                        help=_("draw a tournament's results (--json file or --log) instead"))
    parser.add_argument("--quiet", action="store_true", help=_("no progress bar"))


def _agents(text: str) -> list[str]:
    from rulebox.match.agents import AgentSpec

    out: list[str] = []
    for part in text.split(","):
        if not part.strip():
            continue
        if "=" in part and ":" not in part and out:  # a setting of the previous agent
            out[-1] = out[-1] + "," + part.strip()
            continue
        out.append(part.strip())
    return [AgentSpec.parse(a).label for a in out]


def run(args: argparse.Namespace) -> int:
    """Play and report, or draw a tournament's results."""
    from rulebox.analysis.report import (
        read_tournament,
        write_report,
        write_tournament_report,
    )

    if args.from_json:
        try:
            summary = read_tournament(args.from_json)
        except (OSError, ValueError, KeyError) as e:
            print(f"rulebox analyze: {e}", file=sys.stderr)
            return 2
        path = write_tournament_report(summary, args.out)
        print(_("wrote {path}").format(path=path))
        return 0
    if not args.game:
        print(_("rulebox analyze: name a game (or --from-json RESULTS)"), file=sys.stderr)
        return 2
    from rulebox.analysis.balance import analyze, expand_variants, headline
    from rulebox.core.registry import new_game
    from rulebox.match.agents import AgentSpec

    try:
        base = expand_variants(args.options)[0]
        variants = [{**base, **v} for v in expand_variants(args.vary)]
        agents = _agents(args.agents)
        if not agents or args.games < 1:
            raise ValueError(_("name at least one agent and one game"))
        for v in variants:
            new_game(args.game, {**v, "seed": "0"})  # refuse bad options before playing
            for a in agents:
                AgentSpec.parse(a).make(args.game)
    except ValueError as e:
        print(f"rulebox analyze: {e}", file=sys.stderr)
        return 2
    workers = args.workers or max(1, (os.cpu_count() or 2) - 1)
    total = args.games * len(variants)
    progress = None
    if not args.quiet:
        from rich.progress import Progress

        progress = Progress(transient=False)
    on_result = None
    if progress is not None:
        progress.start()
        task = progress.add_task(f"{args.game}", total=total)

        def on_result(_r: dict[str, object]) -> None:
            progress.advance(task)

    try:
        doc = analyze(args.game, agents, args.games, variants, args.seed, workers, args.time,
                      args.log, on_result)
    finally:
        if progress is not None:
            progress.stop()
    path = write_report(doc, args.out)
    for line in headline(doc):
        print(line)
    print(_("wrote {path}").format(path=path))
    return 0


def main(argv: list[str] | None = None) -> int:
    """``python -m rulebox.cli.analyze``."""
    parser = argparse.ArgumentParser(prog="rulebox analyze", description=__doc__)
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
