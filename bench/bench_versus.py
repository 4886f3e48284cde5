"""Engine against engine through the line protocol: today's agents against those of another
rulebox version (a git revision), or any two agent specs, in seat-rotated seeded games.

    python bench/bench_versus.py countred --a best --b best --b-rev 4fd02cb \\
        --games 200 --time 1 --seed 7 --workers 2 --log bench/results/v_cr_best_v1.jsonl

Each side is a separate ``rulebox engine`` process (PROTOCOL.md), so an older version plays with
its own rules code and agents, exactly as it was: ``--b-rev`` checks that revision out once into
a git worktree under ``.bench-cache/`` and runs its ``src``. Commit ``4fd02cb`` is ``best-v1``,
the agents before the evaluation and search rework of issue 16. A referee in this process checks
every move against today's rules and keeps the result, so neither engine is trusted.

Both engines start every game with the same ``new <game> seed=S``: a hidden deck is the same for
both, and a card drawn by a move is drawn alike on both sides. Game ``2k`` and ``2k+1`` use the
same seed with the seats swapped. Results are appended to ``--log`` as each game ends; running
the same command again plays only the games still missing. Prints the score of A with a 95%
interval and the Elo difference; with ``--report`` only the standing in the log.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import asdict, dataclass
from pathlib import Path

from rulebox.core import new_game
from rulebox.match.ratings import elo_difference, score_interval

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / ".bench-cache"


class EngineError(RuntimeError):
    """An engine answered ``?`` or died."""


class Engine:
    """One ``rulebox engine`` process running the rulebox found in ``src``."""

    def __init__(self, src: Path) -> None:
        code = (
            "import sys; sys.path.insert(0, sys.argv[1]); "
            "from rulebox.cli.main import main; sys.exit(main(['engine']))"
        )
        env = dict(os.environ)
        env.pop("PYTHONPATH", None)
        self.proc = subprocess.Popen(
            [sys.executable, "-c", code, str(src)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
            env=env,
        )

    def ask(self, line: str) -> list[str]:
        """Send one command; the result lines (``EngineError`` on ``?``)."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        out: list[str] = []
        while True:
            got = self.proc.stdout.readline()
            if got == "":
                raise EngineError(f"engine died after {line!r}")
            got = got.rstrip("\n")
            if got == "" and out:
                break
            out.append(got)
        head = out[0]
        if head.startswith("?"):
            raise EngineError(f"{line!r}: {head[1:].strip()}")
        first = head[1:].strip()
        return ([first] if first else []) + out[1:]

    def close(self) -> None:
        """End the session."""
        with contextlib.suppress(EngineError, BrokenPipeError, OSError):
            self.ask("quit")
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()


_WORKTREE_LOCK = threading.Lock()


def source_dir(rev: str | None) -> Path:
    """The ``src`` directory of a revision (today's checkout when ``rev`` is ``None``)."""
    if rev is None:
        return ROOT / "src"
    with _WORKTREE_LOCK:
        where = CACHE / f"rev-{rev}"
        if not (where / "src").is_dir():
            CACHE.mkdir(exist_ok=True)
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(where), rev],
                check=True,
                capture_output=True,
            )
        return where / "src"


@dataclass
class GameResult:
    """One finished game of the match."""

    index: int
    seed: int
    a_seat: int
    returns: list[float]
    plies: int
    a_slowest: float
    b_slowest: float
    error: str = ""

    def a_points(self) -> float:
        """1 for a win of A, 0.5 for a draw, 0 for a loss."""
        mine, theirs = self.returns[self.a_seat], self.returns[1 - self.a_seat]
        return 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0


def play_one(args: argparse.Namespace, index: int) -> GameResult:
    """Play game ``index`` of the match."""
    seed = args.seed + index // 2
    a_seat = index % 2
    specs = {a_seat: args.a, 1 - a_seat: args.b}
    srcs = {a_seat: source_dir(args.a_rev), 1 - a_seat: source_dir(args.b_rev)}
    options = " ".join([f"seed={seed}", *args.option])
    engines = {seat: Engine(srcs[seat]) for seat in (0, 1)}
    referee = new_game(args.game, dict(o.split("=", 1) for o in [f"seed={seed}", *args.option]))
    slowest = {0: 0.0, 1: 0.0}
    plies = 0
    error = ""
    try:
        for eng in engines.values():
            eng.ask(f"new {args.game} {options}")
        while not referee.is_terminal() and plies < args.max_plies:
            seat = referee.current_player()
            spec = specs[seat]
            name, _, rest = spec.partition(":")
            settings = [s for s in rest.split(",") if s] if rest else []
            line = " ".join(["genmove", name, f"time={args.time}", f"seed={seed * 1000 + plies}",
                             *settings])
            t0 = time.perf_counter()
            (move,) = engines[seat].ask(line)[:1]
            slowest[seat] = max(slowest[seat], time.perf_counter() - t0)
            referee.apply(referee.parse(move))
            engines[1 - seat].ask(f"play {move}")
            plies += 1
    except Exception as e:  # a broken game is recorded, and the match goes on
        error = f"{type(e).__name__}: {e}"
    finally:
        for eng in engines.values():
            eng.close()
    returns = [float(r) for r in referee.returns()] if referee.is_terminal() else [0.0, 0.0]
    if not referee.is_terminal() and not error:
        error = f"not over after {plies} plies"
    return GameResult(index, seed, a_seat, returns, plies, slowest[a_seat],
                      slowest[1 - a_seat], error)


def read_log(path: Path | None) -> dict[int, GameResult]:
    """The games already in the log."""
    done: dict[int, GameResult] = {}
    if path is None or not path.exists():
        return done
    for line in path.read_text().splitlines():
        data = json.loads(line)
        if "index" in data:
            done[data["index"]] = GameResult(**data)
    return done


def report(args: argparse.Namespace, results: list[GameResult]) -> None:
    """Print the standing of A against B."""
    good = [r for r in results if not r.error]
    w = sum(1 for r in good if r.a_points() == 1.0)
    d = sum(1 for r in good if r.a_points() == 0.5)
    lo_ = sum(1 for r in good if r.a_points() == 0.0)
    n = w + d + lo_
    if not n:
        print("no finished games")
        return
    score = (w + d / 2) / n
    slo, shi = score_interval(w, d, lo_)
    a = f"{args.a}" + (f"@{args.a_rev}" if args.a_rev else "")
    b = f"{args.b}" + (f"@{args.b_rev}" if args.b_rev else "")
    first = sum(1 for r in good if r.returns[0] > r.returns[1])
    print(
        f"{args.game}: {a} vs {b} at {args.time}s a move: {w}-{d}-{lo_} of {n}, score "
        f"{score:.3f} (95% CI {slo:.3f}-{shi:.3f}), Elo {elo_difference(score):+.0f} "
        f"[{elo_difference(slo):+.0f}, {elo_difference(shi):+.0f}]; first seat won {first}; "
        f"slowest move A {max(r.a_slowest for r in good):.2f}s, B "
        f"{max(r.b_slowest for r in good):.2f}s; errors {len(results) - len(good)}",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game")
    parser.add_argument("--a", default="best", help="agent spec of side A (name:key=value,...)")
    parser.add_argument("--b", default="best", help="agent spec of side B")
    parser.add_argument("--a-rev", default=None, help="git revision for A (default: this checkout)")
    parser.add_argument("--b-rev", default="4fd02cb", help="git revision for B (best-v1: 4fd02cb)")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--time", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--max-plies", type=int, default=2000)
    parser.add_argument("--option", action="append", default=[], help="game option key=value")
    parser.add_argument("--log", type=Path, default=None)
    parser.add_argument("--report", action="store_true", help="only print the standing in --log")
    args = parser.parse_args()
    if args.b_rev in ("", "none", "HEAD-checkout"):
        args.b_rev = None
    done = read_log(args.log)
    if args.report:
        report(args, list(done.values()))
        return
    todo = [i for i in range(args.games) if i not in done]
    results = list(done.values())
    lock = threading.Lock()
    with ThreadPoolExecutor(max_workers=max(1, args.workers)) as pool:
        futures = [pool.submit(play_one, args, i) for i in todo]
        for fut in as_completed(futures):
            r = fut.result()
            with lock:
                results.append(r)
                if args.log is not None:
                    with args.log.open("a") as f:
                        f.write(json.dumps(asdict(r)) + "\n")
                mark = {1.0: "A", 0.5: "=", 0.0: "B"}[r.a_points()] if not r.error else "!"
                print(f"game {r.index:3} seed {r.seed} A seat {r.a_seat}: {mark} "
                      f"{r.plies} plies {r.error}", flush=True)
    report(args, results)


if __name__ == "__main__":
    main()
