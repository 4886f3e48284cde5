"""``rulebox tournament <game> --agents A,B,C --games N``: a seat-rotated round robin in worker
processes, with a progress bar, a results table, ratings and the first player's win rate.

An agent is an agent spec (:mod:`rulebox.match.agents`): ``name[:key=value,...]``, e.g.
``mcts:iterations=2000,c=0.5`` or ``alphabeta:depth=3``; agents are separated by commas or spaces
(``--agents random,mcts:iterations=500,c=0.5``: a piece that is only ``key=value`` belongs to the
agent before it). The old ``mcts:iterations=500:c=0.5`` still reads the same.

``--ray [ADDRESS]`` plays the games as Ray tasks instead: on a local Ray with ``--workers`` CPUs
when no address is given, on the cluster at ADDRESS otherwise (``auto``, ``ray://head:10001``).
The results are those of the local run for the same seeds (needs ``pip install 'rulebox[ray]'``).
"""

from __future__ import annotations

import argparse
import json
import math
import os

from rulebox.core.errors import RuleboxError
from rulebox.core.options import option_pairs


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The tournament's command-line arguments."""
    parser.add_argument("game", help="game id (see rulebox games)")
    parser.add_argument(
        "--agents", required=True,
        help="agents separated by commas or spaces, each name[:key=value,...] "
             "(e.g. random,mcts:iterations=500,c=0.5)",
    )
    parser.add_argument("--games", type=int, default=10, help="games per group of agents")
    parser.add_argument("--workers", type=int, default=None,
                        help="worker processes (default: the number of CPUs); with --ray and "
                             "no address, the CPUs of the local Ray")
    parser.add_argument("--ray", nargs="?", const="local", default=None, metavar="ADDRESS",
                        help="play the games as Ray tasks: on a local Ray, or on the cluster "
                             "at ADDRESS (auto, ray://head:10001); the same results as without "
                             "(needs pip install 'rulebox[ray]')")
    parser.add_argument("--seed", type=int, default=0, help="tournament seed (default 0)")
    parser.add_argument("--time", type=float, default=None,
                        help="seconds per turn for agents that set neither time= nor iterations=")
    parser.add_argument("--option", "-o", action="append", default=[], metavar="KEY=VALUE",
                        help="a game option (repeatable), e.g. -o players=3")
    parser.add_argument("--csv", metavar="FILE", help="write one row per game to FILE")
    parser.add_argument("--json", metavar="FILE", help="write the full results to FILE")
    parser.add_argument("--log", metavar="FILE",
                        help="append each finished game to FILE (JSON lines); run the same "
                             "command again to go on where it stopped")
    parser.add_argument("--report", action="store_true",
                        help="with --log: show the results of the games in the log so far, "
                             "and play none")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def _fmt_ci(value: float, ci: float) -> str:
    if math.isinf(ci):
        return f"{value:+.0f} ± ∞"
    return f"{value:+.0f} ± {ci:.0f}"


def run(args: argparse.Namespace) -> int:
    """Run the tournament that ``args`` describe; 0 on success, 2 on bad arguments."""
    from rich.console import Console
    from rich.markup import escape  # a message may hold brackets: pip install 'rulebox[ray]'
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
    from rich.table import Table

    from rulebox.core.registry import game_entry, new_game
    from rulebox.i18n import _
    from rulebox.match.ratings import score_interval, wilson_interval
    from rulebox.match.ray_runner import RayCluster, need_ray
    from rulebox.match.tournament import (
        GameResult,
        LogError,
        log_header,
        open_log,
        read_log,
        run_jobs,
        schedule,
        split_agent_list,
        summarize,
        write_csv,
    )

    console = Console()
    if not console.is_terminal:  # a file or a pipe: room for every column
        console = Console(width=160)
    err = Console(stderr=True)
    try:
        entry = game_entry(args.game)
        options = option_pairs(getattr(args, "option", []) or [])
        specs = split_agent_list(str(args.agents))
        if not specs:
            raise RuleboxError("name at least one agent with --agents")
        if len({s.label for s in specs}) != len(specs):
            raise RuleboxError("name each agent once (vary a setting to tell two apart)")
        for spec in specs:  # fail early on unknown agents or settings
            spec.make(entry.id)
        if args.games < 1:
            raise RuleboxError("--games must be at least 1")
        new_game(entry.id, options)
        if getattr(args, "ray", None) is not None:
            need_ray()
    except (RuleboxError, ValueError) as e:
        err.print(f"[red]error:[/red] {escape(str(e))}")
        return 2
    workers = args.workers if args.workers else (os.cpu_count() or 1)
    jobs = schedule(entry.id, specs, args.games, args.seed, options, args.time)
    done: list[GameResult] = []
    log = None
    if getattr(args, "log", None):
        header = log_header(entry.id, specs, args.games, args.seed, options, args.time)
        try:
            done = read_log(args.log, header, jobs)
            if not getattr(args, "report", False):
                log = open_log(args.log, header)
        except (LogError, OSError) as e:
            err.print(f"[red]error:[/red] {escape(str(e))}")
            return 2
    finished = {r.index for r in done}
    todo = [j for j in jobs if j.index not in finished]
    cluster: RayCluster | None = None
    where = f"{workers} worker(s)"
    if getattr(args, "ray", None) is not None and todo and not getattr(args, "report", False):
        try:
            cluster = RayCluster(args.ray, workers).start()
            where = _("as Ray tasks on {where}").format(where=cluster.describe())
        except RuleboxError as e:
            err.print(f"[red]error:[/red] {escape(str(e))}")
            return 2
    console.print(
        f"[bold]{entry.title}[/bold]: {len(jobs)} games, agents "
        + ", ".join(s.label for s in specs) + f", seed {args.seed}, {where}"
    )
    if done:
        console.print(f"{len(done)} game(s) already played in {args.log}; "
                      f"playing the other {len(jobs) - len(done)}")
    if getattr(args, "report", False):
        if not getattr(args, "log", None):
            err.print("[red]error:[/red] --report needs --log FILE")
            return 2
        if not done:
            err.print(f"[red]error:[/red] no games of this tournament in {args.log} yet")
            return 2
        console.print(f"the {len(done)} of {len(jobs)} games played so far:")
        todo = []
    progress = Progress(
        TextColumn("[progress.description]{task.description}"), BarColumn(),
        MofNCompleteColumn(), TimeElapsedColumn(), console=err, disable=bool(args.quiet),
    )
    with progress:
        task = progress.add_task("playing", total=len(jobs), completed=len(done))

        def on_result(result: GameResult) -> None:
            progress.advance(task)
            if log is not None:
                log(result)

        try:
            results = run_jobs(todo, workers, on_result,
                               cluster.map if cluster is not None else None)
        finally:
            if cluster is not None:
                cluster.close()
    results = sorted(done + results, key=lambda r: r.index)
    summary = summarize(entry.id, specs, results)

    table = Table(title=f"{entry.title}: results")
    table.add_column("agent", no_wrap=True)
    table.add_column("games", justify="right")
    table.add_column("won", justify="right")
    table.add_column("drawn", justify="right")
    table.add_column("lost", justify="right")
    if summary.solitaire:
        table.add_column("win rate (95% CI)", justify="right")
    else:
        table.add_column("score", justify="right")
        table.add_column("Elo ± 95%", justify="right", no_wrap=True)
    table.add_column("mean return", justify="right")
    table.add_column("slowest move", justify="right")
    ratings = {r.name: r for r in summary.ratings}
    order = sorted(summary.agents, key=lambda a: -(ratings[a].elo if a in ratings else
                                                   summary.stats[a].score))
    for label in order:
        s = summary.stats[label]
        row = [label, str(s.games), str(s.wins), str(s.draws), str(s.losses)]
        if summary.solitaire:
            lo, hi = wilson_interval(s.wins, s.games)
            row.append(f"{s.wins / max(1, s.games):.1%} ({lo:.1%}-{hi:.1%})")
        else:
            row.append(f"{s.score:.3f}")
            r = ratings.get(label)
            row.append(_fmt_ci(r.elo, r.ci95) if r else "")
        row.append(f"{s.returns / max(1, s.games):+.3f}")
        row.append(f"{s.slowest_move:.3f}s")
        table.add_row(*row)
    if not summary.solitaire and summary.agents:
        table.caption = ("Bradley-Terry ratings on the Elo scale, relative to "
                         f"{summary.agents[0]}, with 95% intervals")
    console.print(table)
    if summary.pairs:
        pt = Table(title="pairs")
        for col in ("agent", "vs", "W-D-L", "score (95% CI)"):
            pt.add_column(col, no_wrap=True)
        for (a, b), (w, d, lo_) in summary.pairs.items():
            n = w + d + lo_
            slo, shi = score_interval(w, d, lo_)
            pt.add_row(a, b, f"{w:g}-{d:g}-{lo_:g}",
                       f"{(w + d / 2) / max(1, n):.3f} ({slo:.3f}-{shi:.3f})")
        console.print(pt)
    n = len(summary.results)
    if n and not summary.solitaire:
        lo, hi = wilson_interval(summary.first_player_wins, n)
        console.print(
            f"first player won {summary.first_player_wins}/{n} "
            f"({summary.first_player_win_rate:.1%}, 95% CI {lo:.1%}-{hi:.1%}); "
            f"{n - summary.decided_games} drawn"
        )
    errors = [res for res in summary.results if res.error]
    for res in errors[:5]:
        err.print(f"[yellow]game {res.index}:[/yellow] {res.error}")
    if args.csv:
        write_csv(summary, args.csv)
        console.print(f"wrote {args.csv}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(summary.to_json(), f, indent=1)
        console.print(f"wrote {args.json}")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run as ``python -m rulebox.cli.tournament``."""
    parser = argparse.ArgumentParser(prog="rulebox tournament", description=__doc__)
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())
