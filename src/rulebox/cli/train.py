"""``rulebox train <game>``: tune a game's evaluation weights by self-play (needs numpy:
``pip install 'rulebox[train]'``).

Writes ``rulebox/ai/weights/<game>.json`` in the package (or ``--out FILE``), which the game's
heuristic loads by default; the file's ``meta`` holds the full command, the seed, the data sizes
and the fit. The same command writes the same file byte for byte, whether the self-play games
run in this process, in ``--workers`` processes or as Ray tasks (``--ray [ADDRESS]``: a local
Ray, or the cluster at ADDRESS; needs ``pip install 'rulebox[ray]'``). See docs/TRAINING.md.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulebox.core.errors import RuleboxError
from rulebox.core.options import option_pairs
from rulebox.i18n import _
from rulebox.match.ray_runner import RayCluster, need_ray

if TYPE_CHECKING:
    from rich.console import Console

    from rulebox.ai.train import FeatureSet, TrainConfig


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The command's arguments."""
    parser.add_argument("game", help="game id (see rulebox games)")
    parser.add_argument("--seed", type=int, default=1, help="seed of everything random (1)")
    parser.add_argument("--games", type=int, default=200,
                        help="self-play games per generation (200)")
    parser.add_argument("--generations", type=int, default=3,
                        help="generations: each plays with the weights fitted so far (3)")
    parser.add_argument("--agent", default="model",
                        help="who plays: model (one ply on the current weights, the default) or "
                             "an agent bounded by iterations=, e.g. alphabeta:iterations=500")
    parser.add_argument("--epsilon", type=float, default=0.1,
                        help="share of random moves in self-play (0.1)")
    parser.add_argument("--moves", type=int, default=0,
                        help="the model player looks at this many legal moves at most, drawn at "
                             "random (0: all)")
    parser.add_argument("--skip-opening", type=int, default=4,
                        help="moves at the start of a game played at random and not sampled (4)")
    parser.add_argument("--per-game", type=int, default=12,
                        help="positions sampled at most from one game (12)")
    parser.add_argument("--holdout", type=float, default=0.2,
                        help="share of games held out of the fit, to measure it (0.2)")
    parser.add_argument("--l2", type=float, default=None,
                        help="L2 strength (default: chosen by 4-fold cross-validation)")
    parser.add_argument("--prior", default="zero", choices=("zero", "defaults"),
                        help="what L2 pulls the weights towards: zero (the default) or the "
                             "hand-set defaults")
    parser.add_argument("--players", default="",
                        help="player counts cycled from game to game, e.g. 2,3,4")
    parser.add_argument("--option", "-o", action="append", default=[], metavar="KEY=VALUE",
                        help="a game option (repeatable)")
    parser.add_argument("--workers", type=int, default=None,
                        help="worker processes (1; the file does not depend on it); with --ray "
                             "and no address, the CPUs of the local Ray (default: all)")
    parser.add_argument("--ray", nargs="?", const="local", default=None, metavar="ADDRESS",
                        help="play the self-play games as Ray tasks: on a local Ray, or on the "
                             "cluster at ADDRESS (auto, ray://head:10001); the same file as "
                             "without (needs pip install 'rulebox[ray]')")
    parser.add_argument("--out", metavar="FILE",
                        help="write here instead of the package's weights file")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def _config(args: argparse.Namespace) -> Any:
    from rulebox.ai.train import TrainConfig
    from rulebox.core.registry import game_entry

    entry = game_entry(args.game)
    options = option_pairs(args.option or [])
    try:
        players = tuple(int(p) for p in str(args.players).split(",") if p.strip())
    except ValueError:
        raise RuleboxError(f"--players is a list of player counts, not {args.players!r}") from None
    counts = entry.cls.player_counts
    for n in players:
        if n not in counts:
            raise RuleboxError(f"{entry.id} is played by {counts} players, not {n}")
    if not players and len(counts) > 1:
        players = tuple(counts)
    config = TrainConfig(
        entry.id, seed=args.seed, games=args.games, generations=args.generations,
        agent=args.agent, epsilon=args.epsilon, moves=args.moves, skip_opening=args.skip_opening,
        per_game=args.per_game, holdout=args.holdout, l2=args.l2, prior=args.prior,
        players=players,
        options=tuple(sorted(options.items())),
    )
    config.check()
    return config


def run(args: argparse.Namespace) -> int:
    """Train and write the weights; 0 on success, 2 on bad arguments."""
    from rich.console import Console
    from rich.markup import escape  # a message may hold brackets: pip install 'rulebox[ray]'

    err = Console(stderr=True)
    try:
        from rulebox.ai import train as training

        training.need_numpy()
        config = _config(args)
        fs = training.feature_set(config.game_id)
        if args.workers is not None and args.workers < 1:
            raise RuleboxError("--workers must be at least 1")
        if getattr(args, "ray", None) is not None:
            need_ray()
    except (RuleboxError, ValueError) as e:
        err.print(f"[red]error:[/red] {escape(str(e))}")
        return 2
    cluster: RayCluster | None = None
    if getattr(args, "ray", None) is not None:
        try:
            cluster = RayCluster(args.ray, args.workers).start()
        except RuleboxError as e:
            err.print(f"[red]error:[/red] {escape(str(e))}")
            return 2
    try:
        return _train(args, config, fs, err, cluster)
    finally:
        if cluster is not None:
            cluster.close()


def _train(args: argparse.Namespace, config: TrainConfig, fs: FeatureSet, err: Console,
           cluster: RayCluster | None) -> int:
    """Self-play (here, in worker processes or on ``cluster``), the fit, the file."""
    from rich.markup import escape
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from rulebox.ai import train as training
    from rulebox.ai.learned import forget_weights, shipped_path

    out = Path(args.out) if args.out else shipped_path(config.game_id)
    print(f"training {config.game_id}: {len(fs.names)} features, {config.generations} "
          f"generation(s) of {config.games} games, agent {config.agent}, seed {config.seed}")
    if cluster is not None:
        print(_("self-play as Ray tasks on {where}").format(where=cluster.describe()))
    sys.stdout.flush()
    interactive = err.is_terminal and not args.quiet
    progress = Progress(
        TextColumn("[progress.description]{task.description}"), BarColumn(),
        MofNCompleteColumn(), TimeElapsedColumn(), console=err, disable=not interactive,
    )

    def generation_done(generation: int, figures: Any) -> None:
        line = (f"generation {generation}: {figures['positions_train']} positions, "
                f"held-out log-loss {figures['held_out_log_loss']}, l2 {figures['l2']:g}, "
                f"{figures['mean_plies']} moves a game, first seat's mean result "
                f"{figures['first_seat_result']}")
        if interactive:
            progress.console.print(line)
        else:
            print(line)
            sys.stdout.flush()

    try:
        with progress:
            task = progress.add_task("self-play", total=config.games * config.generations)

            step = max(1, config.games // 5)
            played = [0]

            def game_done(generation: int, samples: Any) -> None:
                progress.update(task, advance=1,
                                description=f"generation {generation + 1}/{config.generations}")
                played[0] += 1
                done = played[0] - generation * config.games
                if not interactive and not args.quiet and done % step == 0 and done < config.games:
                    print(f"generation {generation}: {done} of {config.games} games played")
                    sys.stdout.flush()

            weights = training.train(config, args.workers or 1, game_done, generation_done,
                                     cluster.map if cluster is not None else None)
    except RuleboxError as e:
        err.print(f"[red]error:[/red] {escape(str(e))}")
        return 2
    out.parent.mkdir(parents=True, exist_ok=True)
    weights.save(out)
    forget_weights(config.game_id)
    fit = weights.meta["fit"]
    pos = weights.meta["positions"]
    print(f"{pos['train']} training and {pos['held_out']} held-out positions from "
          f"{weights.meta['games']} games; held-out log-loss {fit['held_out_log_loss_before']} "
          f"with the hand-set weights, {fit['held_out_log_loss_after']} fitted "
          f"({fit['held_out_log_loss_constant']} for a constant)")
    width = max(len(n) for n in weights.features)
    for name, w in zip(weights.features, weights.weights, strict=True):
        print(f"  {name:<{width}} {w:+.4f}   (was {weights.meta['start_weights'][name]:+.4f})")
    print(f"  {'bias':<{width}} {weights.bias:+.4f}")
    print(f"wrote {out}")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run as ``python -m rulebox.cli.train``."""
    parser = argparse.ArgumentParser(prog="rulebox train", description=__doc__)
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())
