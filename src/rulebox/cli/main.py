"""The ``rulebox`` command: play, engine, replay, rules, bench, games, agents, tournament, serve,
train."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from rulebox import __version__
from rulebox.core.errors import RuleboxError


def _options(pairs: Sequence[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for pair in pairs:
        key, eq, value = pair.partition("=")
        if not eq or not key:
            raise RuleboxError(f"options are written key=value, not {pair[:40]!r}")
        out[key.lower()] = value
    return out


def cmd_play(args: argparse.Namespace) -> int:
    from rulebox.cli.play import make_console, play_match
    from rulebox.cli.seats import make_seats
    from rulebox.core.registry import game_entry
    from rulebox.match.records import load_record
    from rulebox.match.table import Table

    console = make_console()
    default = args.level if args.level else None
    if args.load:
        record = load_record(args.load)
        if args.game and args.game != record.game:
            raise RuleboxError(f"{args.load} is a game of {record.game}, not {args.game}")
        entry = game_entry(record.game)
        probe = entry.cls.new(record.options)
        seats = make_seats(probe.id, probe.num_players, args.seat, args.time, default)
        try:
            table = Table.from_record(record, seats)
        except RuleboxError as e:
            raise RuleboxError(f"{args.load}: {e}") from None
        console.print(f"loaded {args.load}: {record.game}, {len(record.moves)} moves")
    else:
        if not args.game:
            raise RuleboxError("which game? e.g. rulebox play columns (see rulebox games)")
        options = _options(args.options)
        if args.seed is not None:
            options["seed"] = str(args.seed)
        game = game_entry(args.game).cls.new(options)
        seats = make_seats(game.id, game.num_players, args.seat, args.time, default)
        table = Table(game, seats)
    game = table.game
    console.print(f"[bold]{game.title}[/bold]  " + " ".join(
        f"{k}={v}" for k, v in game.public_options().items()))
    return play_match(table, args.games, console, time=args.time, save=args.save)


def cmd_engine(args: argparse.Namespace) -> int:
    from rulebox.engine import run

    return run()


def cmd_rules(args: argparse.Namespace) -> int:
    from rulebox.core.registry import game_entry

    entry = game_entry(args.game)
    text = entry.rules_text()
    if sys.stdout.isatty():
        from rich.console import Console
        from rich.markdown import Markdown

        Console().print(Markdown(text))
    else:
        sys.stdout.write(text)
    return 0


def cmd_games(args: argparse.Namespace) -> int:
    from rulebox.core.registry import game_entry, game_ids

    for g in game_ids():
        entry = game_entry(g)
        counts = "/".join(str(n) for n in entry.cls.player_counts)
        print(f"{g:10} {entry.title} ({counts} players)")
    return 0


def cmd_agents(args: argparse.Namespace) -> int:
    from rulebox.ai.base import agent_entries

    for e in agent_entries(args.game):
        games = "all games" if e.games is None else ", ".join(e.games)
        print(f"{e.name:10} {e.description} [{games}]")
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    from rulebox.cli.bench import bench

    playouts, plies, elapsed = bench(args.game, args.seconds, args.seed, _options(args.options))
    print(f"{args.game}: {playouts} random playouts, {plies} plies in {elapsed:.2f} s "
          f"({plies / max(playouts, 1):.1f} plies per game)")
    print(f"playouts/s={playouts / elapsed:.1f} plies/s={plies / elapsed:.0f}")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    from rulebox.cli.replay import replay

    return replay(args.file, step=args.step)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rulebox",
        description="Five published board games, played exactly by their rulebooks.",
    )
    parser.add_argument("--version", action="version", version=f"rulebox {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("play", help="play a game in the terminal (against the computer by default)")
    p.add_argument("game", nargs="?", help="columns, 36to1, countred, columba, discs")
    p.add_argument("options", nargs="*", metavar="key=value", help="game options (see rules)")
    p.add_argument("--seat", action="append", default=[], metavar="N=WHO",
                   help="who plays seat N: human, computer, or an agent (N=mcts:time=2); "
                        "default: seat 0 human, the others the strongest agent")
    p.add_argument("--level", help="the computer's agent or level (easy, medium, hard, best)")
    p.add_argument("--time", type=float, default=1.0, help="seconds per computer turn (1)")
    p.add_argument("--seed", type=int, help="seed for the game's chance")
    p.add_argument("--games", type=int, default=1, help="play a match of N games")
    p.add_argument("--load", metavar="FILE", help="continue a saved game record")
    p.add_argument("--save", metavar="FILE", help="save the record when the game ends")
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("engine", help="speak the engine line protocol on stdin/stdout")
    p.set_defaults(func=cmd_engine)

    p = sub.add_parser("rules", help="print a game's rules with the rule IDs")
    p.add_argument("game")
    p.set_defaults(func=cmd_rules)

    p = sub.add_parser("games", help="list the games")
    p.set_defaults(func=cmd_games)

    p = sub.add_parser("agents", help="list the agents")
    p.add_argument("game", nargs="?")
    p.set_defaults(func=cmd_agents)

    p = sub.add_parser("replay", help="step through a saved game record")
    p.add_argument("file")
    p.add_argument("--step", action="store_true",
                   help="wait for Enter between moves (the default on a terminal)")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("bench", help="random playouts per second")
    p.add_argument("game")
    p.add_argument("options", nargs="*", metavar="key=value")
    p.add_argument("--seconds", type=float, default=5.0)
    p.add_argument("--seed", type=int, default=1)
    p.set_defaults(func=cmd_bench)

    for name, module in (("tournament", "rulebox.cli.tournament"), ("serve", "rulebox.cli.serve"),
                         ("train", "rulebox.cli.train"), ("verify", "rulebox.cli.verify")):
        try:
            mod = importlib.import_module(module)
        except ImportError:
            continue
        helptext = (mod.__doc__ or name).strip().splitlines()[0]
        p = sub.add_parser(name, help=helptext)
        mod.add_arguments(p)
        p.set_defaults(func=mod.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except RuleboxError as e:
        print(f"rulebox: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
