"""The ``rulebox`` command: play, engine, replay, rules, bench, games, agents, tournament, serve,
train. Every bad value is refused with the reason and exit code 2."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from rulebox import __version__
from rulebox.core.errors import RuleboxError
from rulebox.i18n import N_, _, ngettext


def _options(pairs: Sequence[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for pair in pairs:
        key, eq, value = pair.partition("=")
        if not eq or not key:
            raise RuleboxError(_("options are written key=value, not {pair!r}").format(
                                   pair=pair[:40]))
        out[key.lower()] = value
    return out


HELP = {
    "tournament": N_("a seat-rotated round robin of agents, in worker processes"),
    "serve": N_("the browser game: web client, JSON API and WebSockets in one process"),
    "train": N_("tune a game's evaluation weights by self-play (needs numpy)"),
    "verify": N_("check that a finished 36 to 1 or Columba game was dealt as committed"),
    "review": N_("evaluate every move of a saved game: marks, best moves, the decisive moment"),
    "analyze": N_("a game's balance by seeded self-play (report.html, metrics.json)"),
}
"""One clean line of help for the commands whose modules are optional."""


def _description(mod: object) -> str:
    """A module's docstring as a command's description: no reST backticks."""
    return (getattr(mod, "__doc__", None) or "").replace("``", "").strip()


def _whole(text: str, least: int, what: str) -> int:
    """``text`` as a whole number of at least ``least`` (``what`` says why not, ``{n}`` the
    number)."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("{text!r} is not a whole number").format(text=text)) from None
    if n < least:
        raise argparse.ArgumentTypeError(what.format(n=n))
    return n


def _count(text: str) -> int:
    """A count of games: a whole number, 1 or more."""
    return _whole(text, 1, _("{n} games: a match has at least 1 game"))


def _seed(text: str) -> int:
    """A whole number, 0 or more."""
    return _whole(text, 0, _("{n}: must be 0 or more"))


def _seconds(text: str) -> float:
    """A time in seconds, more than 0 and at most an hour."""
    try:
        t = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_("{text!r} is not a number of seconds").format(
                                             text=text)) from None
    if not 0 < t <= 3600:
        raise argparse.ArgumentTypeError(
            _("{text} seconds: the time must be more than 0 and at most 3600").format(text=text))
    return t


def cmd_play(args: argparse.Namespace) -> int:
    from rulebox.cli import saves
    from rulebox.cli.play import make_console, play_match
    from rulebox.cli.seats import make_seats
    from rulebox.cli.text import clean, yes_words
    from rulebox.core.registry import game_entry
    from rulebox.match.table import Table

    console = make_console()
    default = args.level if args.level else None
    full_screen = not args.plain and sys.stdout.isatty() and sys.stdin.isatty()
    load = args.load
    asks = sys.stdin.isatty() and sys.stdout.isatty()
    if not load and not args.game and asks and saves.unfinished_last() is not None:
        record = saves.unfinished_last()
        assert record is not None
        try:
            answer = input(ngettext(
                "continue your unfinished game of {game} ({n} move)? [Y/n] ",
                "continue your unfinished game of {game} ({n} moves)? [Y/n] ",
                len(record.moves)).format(game=clean(record.game), n=len(record.moves))
            ).strip().lower()
        except EOFError:
            answer = "n"
        if answer in ("", "y", "yes", *yes_words()):
            load = saves.LAST
        else:  # declined: nothing to play, which is no error; say what to do instead
            from rulebox.core.registry import game_ids

            print(_("not continued; it stays saved (`rulebox play --load last` continues it). "
                    "A new game: rulebox play GAME ({games})").format(
                        games=", ".join(game_ids())))
            return 0
    if load:
        path = saves.resolve(load)
        record = saves.read_record(path)
        if args.game and args.game != record.game:
            raise RuleboxError(_("{file} is a game of {game}, not {wanted}").format(
                                   file=clean(load), game=clean(record.game),
                                   wanted=args.game))
        try:
            record.replay()  # every move checked, and the result against the moves
        except RuleboxError as e:
            raise RuleboxError(f"{clean(load)}: {e}") from None
        if record.result is not None:
            raise RuleboxError(_("{file}: that game is over ({result}); `rulebox "
                                 "replay` shows it").format(
                                   file=clean(load), result=clean(record.result)))
        entry = game_entry(record.game)
        probe = entry.cls.new(record.options)
        # people sit where they sat (a hot-seat game stays one); --seat says otherwise
        people = [f"{i}=human" for i, who in enumerate(record.players[:probe.num_players])
                  if who == "human"]
        seats = make_seats(probe.id, probe.num_players, people + list(args.seat), args.time,
                           default)
        try:
            table = Table.from_record(record, seats)
        except RuleboxError as e:
            raise RuleboxError(f"{clean(load)}: {e}") from None
        loaded = ngettext("loaded {file}: {game}, {n} move", "loaded {file}: {game}, {n} moves",
                          len(record.moves)).format(file=clean(path), game=record.game,
                                                    n=len(record.moves))
    else:
        if not args.game:
            raise RuleboxError(_("which game? e.g. rulebox play columns (see rulebox games)"))
        options = _options(args.options)
        if args.seed is not None:
            options["seed"] = str(args.seed)
        game = game_entry(args.game).cls.new(options)
        seats = make_seats(game.id, game.num_players, args.seat, args.time, default)
        # a seed given fixes the computer's choices too: the same command plays the same game
        table = Table(game, seats) if args.seed is None else Table(game, seats, args.seed)
        loaded = ""
    autosave = saves.Autosave()
    if full_screen:
        from rulebox.tui.app import run_app

        return run_app(table, games=args.games, time=args.time, save=args.save,
                       autosave=autosave, note=loaded)
    if loaded:
        console.print(loaded)
    game = table.game
    console.print(f"[bold]{game.title}[/bold]  " + " ".join(
        f"{k}={v}" for k, v in game.public_options().items()))
    return play_match(table, args.games, console, time=args.time, save=args.save,
                      autosave=autosave)


def cmd_engine(args: argparse.Namespace) -> int:
    from rulebox.engine import run

    # the engine speaks English unless --lang or RULEBOX_LANG asks otherwise (not the locale)
    return run(lang=getattr(args, "engine_lang", None) or getattr(args, "lang", None))


def _rules_language(text: str) -> str:
    """A language of the rules texts (``--lang``): ``en``, ``de`` or ``ru``."""
    from rulebox.i18n import LANGUAGES, _, normalize

    lang = normalize(text)
    if lang is None:
        raise argparse.ArgumentTypeError(_("unknown language {lang}: choose one of {choices}")
                                         .format(lang=repr(text), choices=", ".join(LANGUAGES)))
    return lang


def cmd_rules(args: argparse.Namespace) -> int:
    from rulebox.core.registry import game_entry
    from rulebox.i18n import resolve

    entry = game_entry(args.game)
    # --lang of `rules`, then a --lang before the command, then RULEBOX_LANG, then the locale
    lang = getattr(args, "rules_lang", None) or resolve(getattr(args, "lang", None))
    text = _rulings_here(entry.rules_text(lang))
    if sys.stdout.isatty() and not args.plain:
        import os

        from rich.console import Console
        from rich.markdown import Markdown

        console = Console()
        if "R" not in os.environ.get("LESS", ""):  # less shows colours with -R
            os.environ["LESS"] = os.environ.get("LESS", "") + " -R"
        with console.pager(styles=True):
            console.print(Markdown(text))
    else:
        sys.stdout.write(text)
    return 0


RULINGS_HERE = (
    ("Rule IDs are those of the project's RULINGS.md; where RULINGS.md and the rulebook differ, "
     "RULINGS.md wins.", "The rule IDs are the project's rulings, every one in this text; where "
     "a ruling and the rulebook differ, the ruling wins."),
    ("Rule IDs are those of rulebox's RULINGS.", "The rule IDs are rulebox's rulings, every one "
     "in this text."),
    ("(RULINGS.md, section ", "(the rulings in this text, section "),
    ("RULINGS.md (", "the ruling ("),
    ("RULINGS.md", "the rulings in this text"),
)
"""The rules pages refer to RULINGS.md, which is not shipped: the page itself carries every
ruling with its ID, so the references point to it (the pages belong in their games' packages;
this mends what is shown until they say it themselves)."""


def _rulings_here(text: str) -> str:
    """A rules page with its references to RULINGS.md pointing to what exists."""
    import re

    for old, new in RULINGS_HERE:
        pattern = r"\s+".join(re.escape(word) for word in old.split(" "))
        text = re.sub(pattern, new.replace("\\", "\\\\"), text)
    return text


def cmd_games(args: argparse.Namespace) -> int:
    from rulebox.core.registry import game_entry, game_ids

    for g in game_ids():
        entry = game_entry(g)
        counts = entry.cls.player_counts
        many = ngettext("{counts} player", "{counts} players", max(counts)).format(
            counts="/".join(str(n) for n in counts))
        print(f"{g:10} {entry.title} ({many})")
    return 0


def cmd_agents(args: argparse.Namespace) -> int:
    from rulebox.ai.base import agent_entries
    from rulebox.core.registry import game_entry

    if args.game:
        game_entry(args.game)  # an unknown game is refused, saying which exist
    for e in agent_entries(args.game):
        games = _("all games") if e.games is None else ", ".join(e.games)
        print(f"{e.name:10} {_(e.description)} [{games}]")
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    from rulebox.cli.bench import bench

    playouts, plies, elapsed = bench(args.game, args.seconds, args.seed, _options(args.options))
    print(_("{game}: {playouts} random playouts, {plies} plies in {seconds} s ({per} plies per "
            "game)").format(game=args.game, playouts=playouts, plies=plies,
                            seconds=f"{elapsed:.2f}", per=f"{plies / max(playouts, 1):.1f}"))
    print(f"playouts/s={playouts / elapsed:.1f} plies/s={plies / elapsed:.0f}")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    from rulebox.cli.replay import replay

    return replay(args.file, step=args.step, start=args.move)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rulebox",
        description=_("Five published board games, played exactly by their rulebooks."),
    )
    parser.add_argument("--version", action="version", version=f"rulebox {__version__}")
    parser.add_argument("--lang", type=_rules_language, metavar="en|de|ru",
                        help=_("the language of the texts (default: RULEBOX_LANG, then "
                               "the locale)"))
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("play", help=_("play a game in the terminal (against the "
                                      "computer by default)"),
                       description=_("Play a game against the computer, other people "
                                     "at this screen, or both. On a terminal the game "
                                     "fills the screen; --plain (or output that is not "
                                     "a terminal) keeps to lines. Every game is saved "
                                     "as it goes: --load last continues the last one."))
    p.add_argument("game", nargs="?", help="columns, 36to1, countred, columba, discs")
    p.add_argument("options", nargs="*", metavar="key=value", help=_("game options (see rules)"))
    p.add_argument("--seat", action="append", default=[], metavar="N=WHO",
                   help=_("who plays seat N: human, computer, or an agent "
                          "(N=mcts:time=2); default: seat 0 human, the others the "
                          "strongest agent"))
    p.add_argument("--level", help=_("the computer's agent or level (easy, medium, hard, best)"))
    p.add_argument("--time", type=_seconds, default=1.0,
                   help=_("seconds per computer turn, more than 0 (1)"))
    p.add_argument("--seed", type=_seed, help=_("seed for the game's chance (0 or more)"))
    p.add_argument("--games", type=_count, default=1, help=_("play a match of N games (1 or "
                                                             "more)"))
    p.add_argument("--load", metavar="FILE",
                   help=_("continue a saved game record (`last`: the last game played here)"))
    p.add_argument("--save", metavar="FILE", help=_("save the record when the game ends"))
    p.add_argument("--plain", action="store_true",
                   help=_("line by line, for scripts and screen readers (no full screen)"))
    p.add_argument("--lang", dest="play_lang", type=_rules_language, metavar="en|de|ru",
                   help=_("the language of the game's texts (default: RULEBOX_LANG, "
                          "then the locale)"))
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("engine", help=_("speak the engine line protocol on stdin/stdout"))
    p.add_argument("--lang", dest="engine_lang", type=_rules_language, metavar="en|de|ru",
                   help=_("the language of refusal reasons (default: RULEBOX_LANG, "
                          "else English; never the locale, since programs parse the "
                          "answers)"))
    p.set_defaults(func=cmd_engine)

    p = sub.add_parser("rules", help=_("print a game's rules with the rule IDs"))
    p.add_argument("game")
    p.add_argument("--plain", action="store_true", help=_("the Markdown text, without a pager"))
    p.add_argument("--lang", dest="rules_lang", type=_rules_language, metavar="en|de|ru",
                   help=_("the language of the text (default: RULEBOX_LANG, then the locale)"))
    p.set_defaults(func=cmd_rules)

    p = sub.add_parser("games", help=_("list the games"))
    p.set_defaults(func=cmd_games)

    p = sub.add_parser("agents", help=_("list the agents"))
    p.add_argument("game", nargs="?")
    p.set_defaults(func=cmd_agents)

    p = sub.add_parser("replay", help=_("step through a saved game record"))
    p.add_argument("file")
    p.add_argument("--step", action="store_true",
                   help=_("wait for a key between moves (the default on a terminal)"))
    p.add_argument("--move", type=_seed, default=0, metavar="N",
                   help=_("start at move N (0: the start)"))
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("bench", help=_("random playouts per second"))
    p.add_argument("game")
    p.add_argument("options", nargs="*", metavar="key=value")
    p.add_argument("--seconds", type=_seconds, default=5.0, help=_("how long (5)"))
    p.add_argument("--seed", type=_seed, default=1, help=_("seed of the playouts (1)"))
    p.set_defaults(func=cmd_bench)

    for name, module in (("tournament", "rulebox.cli.tournament"), ("serve", "rulebox.cli.serve"),
                         ("train", "rulebox.cli.train"), ("verify", "rulebox.cli.verify"),
                         ("review", "rulebox.cli.review"), ("analyze", "rulebox.cli.analyze")):
        try:
            mod = importlib.import_module(module)
        except ImportError:
            continue
        p = sub.add_parser(name, help=_(HELP[name]) if name in HELP else name,
                           description=_description(mod))
        mod.add_arguments(p)
        p.set_defaults(func=mod.run)
    return parser


def _language_asked(argv: Sequence[str]) -> str | None:
    """The value of a ``--lang`` anywhere on the command line (read before the parser is
    built, so that its help is in that language)."""
    for i, arg in enumerate(argv):
        if arg == "--lang" and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith("--lang="):
            return arg.split("=", 1)[1]
    return None


def main(argv: Sequence[str] | None = None) -> int:
    from rulebox.i18n import resolve, set_language

    words = list(sys.argv[1:] if argv is None else argv)
    set_language(resolve(_language_asked(words)))  # --help and usage errors in it too
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra:  # the command's own usage, not the top level's
        commands = next(a for a in parser._actions
                        if isinstance(a, argparse._SubParsersAction))
        own = commands.choices.get(getattr(args, "command", None) or "", parser)
        own.error(f"unrecognized arguments: {' '.join(extra)}")
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    # the terminal's language: --lang, then RULEBOX_LANG, then the locale (the engine and
    # `rules` choose their own, see cmd_engine and cmd_rules)
    set_language(resolve(getattr(args, "play_lang", None) or getattr(args, "lang", None)))
    try:
        return int(args.func(args) or 0)
    except RuleboxError as e:
        from rulebox.cli.text import clean

        print(f"rulebox: {clean(e, 1000)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
