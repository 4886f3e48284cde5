"""Round-robin tournaments between agents, seats rotated, seeded, in parallel worker processes.

Every group of agents (each pair for a two-player game; each agent alone for a solitaire; each
set of ``k`` agents for a ``k``-seat game, or the agents repeated round the table when there are
fewer agents than seats) plays ``games`` games, the seating rotated from game to game so that
every agent sits in every seat equally often. Game ``g`` of a group uses the game seed
``seed * 1_000_003 + g // seats``: the same deal is played once in each rotation of the seats
(duplicate play, which takes the luck of the deal and of who starts out of the comparison), and
every group plays the same deals (a solitaire tournament with seed 0 plays deals 0, 1, 2, ...).
Each agent gets a seed derived from the game seed and its seat, so a tournament repeats exactly
when its agents are bounded by ``iterations=`` (the clock makes ``time=`` agents vary).

Ratings come from every pair of seats held by different agents (:mod:`rulebox.match.ratings`).

The games run in this process, in worker processes, or as Ray tasks on a cluster
(:mod:`rulebox.match.ray_runner`); all three call :func:`play_game` on the same jobs and put the
results back in job order, so where the games ran never changes the results.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import Any

from rulebox.match.agents import AgentSpec, split_agent_list
from rulebox.match.ratings import PairResult, Rating, bradley_terry, score_interval, wilson_interval

__all__ = ["AgentSpec", "GameJob", "GameResult", "run_tournament", "split_agent_list"]

SEED_STRIDE = 1_000_003


@dataclass(frozen=True)
class GameJob:
    """One game to play: which agents sit where, with which seed and options."""

    index: int
    game_id: str
    seats: tuple[AgentSpec, ...]
    seed: int
    options: tuple[tuple[str, str], ...] = ()
    time: float | None = None


@dataclass
class GameResult:
    """What one game produced."""

    index: int
    seed: int
    seats: list[str]
    returns: list[float]
    winners: list[int]
    first_player: int
    plies: int
    reason: str
    seconds: float
    max_move_seconds: dict[str, float] = field(default_factory=dict)
    error: str | None = None


JobMap = Callable[[Callable[[GameJob], GameResult], Sequence[GameJob]], Iterable[GameResult]]
"""Something that calls a function on every job and answers the results in any order, such as
:meth:`rulebox.match.ray_runner.RayCluster.map`."""


def agent_settings(spec: AgentSpec, seat: int, seed: int, time: float | None) -> dict[str, str]:
    """The settings an agent gets in a game: its own, a seed of the game and seat, and the
    tournament's ``time`` (seconds a turn) unless it sets ``time`` or ``iterations`` itself."""
    settings = dict(spec.settings)
    settings.setdefault("seed", str((seed * 7919 + seat * 104729) % (2**62)))
    if time is not None and "time" not in settings and "iterations" not in settings:
        settings["time"] = repr(time)
    return settings


def play_game(job: GameJob) -> GameResult:
    """Play one game to the end at a table of computer seats: the one way a tournament's game
    is played, in this process, in a worker process or as a Ray task. Everything it depends
    on is in ``job`` (the agents' seeds come from the game seed and the seat). The table's
    failure policy applies: an agent that fails forfeits the game, the event goes on."""
    from rulebox.core.registry import new_game
    from rulebox.match.table import Seat, Table

    start = time.perf_counter()
    options = dict(job.options)
    options["seed"] = str(job.seed)
    game = new_game(job.game_id, options)
    labels = [s.label for s in job.seats]
    seats = [Seat.computer(AgentSpec(spec.name, tuple(
        agent_settings(spec, seat, job.seed, job.time).items())), spec.label)
        for seat, spec in enumerate(job.seats)]
    table = Table(game, seats, job.seed)
    first = game.current_player()
    slowest: dict[str, float] = {}
    limit = game.max_moves * 4 + 100
    error = None
    while not table.over():
        p = table.to_move()
        assert p is not None
        t0 = time.perf_counter()
        table.play_computers(limit=1)
        dt = time.perf_counter() - t0
        if dt > slowest.get(labels[p], 0.0):
            slowest[labels[p]] = dt
        if len(game.history) > limit:
            error = f"no end after {len(game.history)} moves"
            break
    ending = table.ending
    plies = len(game.history)
    n = game.num_players
    if ending is not None and ending.how == "forfeit":
        error = ending.reason
    if error is None and ending is not None:
        returns = [float(x) for x in game.returns()]
        winners = list(ending.winners)
        reason = ending.reason
    else:
        lo, hi = game.return_bounds
        bad = game.current_player() if game.current_player() >= 0 else -1
        returns = [lo if i == bad else hi for i in range(n)] if n > 1 else [lo]
        winners = [i for i in range(n) if i != bad] if n > 1 else []
        reason = "error"
    return GameResult(
        job.index, job.seed, labels, returns, winners, first, plies, reason,
        time.perf_counter() - start, slowest, error,
    )


def groups(agents: Sequence[AgentSpec], seats: int) -> list[tuple[AgentSpec, ...]]:
    """The groups that meet: every combination of ``seats`` agents (each agent alone for a
    solitaire), or the agents repeated round the table when there are fewer than seats."""
    if seats == 1:
        return [(a,) for a in agents]
    if len(agents) >= seats:
        return list(itertools.combinations(agents, seats))
    return [tuple(agents[i % len(agents)] for i in range(seats))]


def schedule(
    game_id: str,
    agents: Sequence[AgentSpec],
    games: int,
    seed: int = 0,
    options: Mapping[str, str] | None = None,
    time: float | None = None,
    seats: int | None = None,
) -> list[GameJob]:
    """Every game of the tournament, seats rotated within each group."""
    from rulebox.core.registry import new_game

    opts = tuple(sorted((options or {}).items()))
    if seats is None:
        seats = new_game(game_id, dict(opts)).num_players
    jobs: list[GameJob] = []
    for group in groups(agents, seats):
        for g in range(games):
            r = g % seats
            seating = group[r:] + group[:r]
            # the same deal (game seed) for each rotation of the seats, and for every group
            game_seed = seed * SEED_STRIDE + g // seats
            jobs.append(GameJob(len(jobs), game_id, seating, game_seed, opts, time))
    return jobs


# --- the results log: one JSON line a game, so a long tournament can stop and go on later ----
LOG_FORMAT = "rulebox-tournament-log/1"


class LogError(ValueError):
    """A results log that cannot be used for this tournament."""


def log_header(
    game_id: str, agents: Sequence[AgentSpec], games: int, seed: int,
    options: Mapping[str, str] | None, time: float | None,
) -> dict[str, Any]:
    """What identifies a tournament in its log: the same header, the same games."""
    return {"format": LOG_FORMAT, "game": game_id, "agents": [a.label for a in agents],
            "games": games, "seed": seed, "options": dict(sorted((options or {}).items())),
            "time": time}


def result_from_json(data: Any) -> GameResult:
    """A :class:`GameResult` from its JSON form; ``ValueError`` if it is not one."""
    if not isinstance(data, dict):
        raise ValueError("not an object")
    try:
        r = GameResult(
            index=int(data["index"]), seed=int(data["seed"]),
            seats=[str(x) for x in data["seats"]],
            returns=[float(x) for x in data["returns"]],
            winners=[int(x) for x in data["winners"]], first_player=int(data["first_player"]),
            plies=int(data["plies"]), reason=str(data["reason"]),
            seconds=float(data["seconds"]),
            max_move_seconds={str(k): float(v)
                              for k, v in dict(data.get("max_move_seconds") or {}).items()},
            error=None if data.get("error") is None else str(data["error"]),
        )
    except (KeyError, TypeError) as e:
        raise ValueError(f"not a game result ({e})") from None
    return r


def read_log(path: str, header: Mapping[str, Any], jobs: Sequence[GameJob]) -> list[GameResult]:
    """The finished games of this tournament in the log at ``path`` (none if there is no
    file). A log of another tournament raises :class:`LogError`; a line that is not a result of
    one of ``jobs`` (a line cut short when the run was stopped) is skipped."""
    import json
    import os

    if not os.path.exists(path) or os.path.getsize(path) == 0:
        return []
    by_index = {j.index: j for j in jobs}
    found: dict[int, GameResult] = {}
    with open(path, encoding="utf-8") as f:
        first = f.readline()
        try:
            head = json.loads(first)
        except ValueError:
            raise LogError(f"{path} is not a tournament log") from None
        if not isinstance(head, dict) or head.get("format") != LOG_FORMAT:
            raise LogError(f"{path} is not a tournament log")
        if head != dict(header):
            raise LogError(f"{path} is the log of another tournament (its game, agents, "
                           "games, seed, options or time differ); name a new file")
        for line in f:
            try:
                r = result_from_json(json.loads(line))
            except ValueError:
                continue
            job = by_index.get(r.index)
            if job is None or job.seed != r.seed or [a.label for a in job.seats] != r.seats:
                continue
            found[r.index] = r
    return [found[i] for i in sorted(found)]


def open_log(path: str, header: Mapping[str, Any]) -> Callable[[GameResult], None]:
    """Start (or continue) the log at ``path``; returns a function that appends one result."""
    import json
    import os

    new = not os.path.exists(path) or os.path.getsize(path) == 0
    if not new:  # a line cut short by a stop must not run into the next one
        with open(path, "rb") as raw:
            raw.seek(-1, os.SEEK_END)
            ends_clean = raw.read(1) == b"\n"
        if not ends_clean:
            with open(path, "a", encoding="utf-8") as f:
                f.write("\n")
    if new:
        with open(path, "w", encoding="utf-8") as f:
            f.write(json.dumps(dict(header)) + "\n")

    def append(result: GameResult) -> None:
        with open(path, "a", encoding="utf-8") as f:
            f.write(json.dumps(asdict(result)) + "\n")
            f.flush()

    return append


def run_jobs(
    jobs: Sequence[GameJob],
    workers: int = 1,
    on_result: Callable[[GameResult], None] | None = None,
    runner: JobMap | None = None,
) -> list[GameResult]:
    """Play the games, in ``workers`` processes (1: in this process), or through ``runner``
    when one is given (a :class:`~rulebox.match.ray_runner.RayCluster`'s ``map``: as Ray
    tasks); ``on_result`` as each finishes; results in job order."""
    results: list[GameResult] = []

    def collect(it: Iterator[GameResult]) -> None:
        for res in it:
            results.append(res)
            if on_result is not None:
                on_result(res)

    if runner is not None:
        collect(iter(runner(play_game, jobs)))
    elif workers <= 1:
        collect(play_game(j) for j in jobs)
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = [pool.submit(play_game, j) for j in jobs]
            from concurrent.futures import as_completed

            collect(f.result() for f in as_completed(futures))
    results.sort(key=lambda r: r.index)
    return results


@dataclass
class AgentStats:
    """One agent's record over the tournament."""

    label: str
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    returns: float = 0.0
    slowest_move: float = 0.0
    errors: int = 0

    @property
    def score(self) -> float:
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.0


@dataclass
class Summary:
    """A tournament's results: per agent, per pair, ratings and the first player's record."""

    game_id: str
    agents: list[str]
    results: list[GameResult]
    stats: dict[str, AgentStats]
    pairs: dict[tuple[str, str], list[float]]
    """(a, b) -> [a's wins, draws, a's losses] over games where both sat (a before b)."""
    ratings: list[Rating]
    first_player_wins: int
    decided_games: int
    solitaire: bool

    @property
    def first_player_win_rate(self) -> float:
        n = len(self.results)
        return self.first_player_wins / n if n else 0.0

    def to_json(self) -> dict[str, Any]:
        lo, hi = wilson_interval(self.first_player_wins, len(self.results))
        out: dict[str, Any] = {
            "game": self.game_id,
            "games": len(self.results),
            "first_player_win_rate": self.first_player_win_rate,
            "first_player_win_rate_ci95": [lo, hi],
            "draws": len(self.results) - self.decided_games,
            "agents": [],
            "pairs": [],
            "results": [asdict(r) for r in self.results],
        }
        rating = {r.name: r for r in self.ratings}
        for label in self.agents:
            s = self.stats[label]
            row: dict[str, Any] = {
                "agent": label, "games": s.games, "wins": s.wins, "draws": s.draws,
                "losses": s.losses, "score": s.score, "mean_return": s.returns / max(1, s.games),
                "slowest_move_seconds": s.slowest_move, "errors": s.errors,
            }
            if self.solitaire:
                row["win_rate_ci95"] = list(wilson_interval(s.wins, s.games))
            elif label in rating:
                row["elo"] = rating[label].elo
                row["elo_ci95"] = rating[label].ci95
            out["agents"].append(row)
        for (a, b), (w, d, lo_) in self.pairs.items():
            slo, shi = score_interval(w, d, lo_)
            out["pairs"].append({"a": a, "b": b, "a_wins": w, "draws": d, "a_losses": lo_,
                                 "a_score": (w + d / 2) / max(1, w + d + lo_),
                                 "a_score_ci95": [slo, shi]})
        return out


def summarize(game_id: str, agents: Sequence[AgentSpec], results: Sequence[GameResult]) -> Summary:
    """Tally wins, draws and losses, pair results and ratings."""
    labels = [a.label for a in agents]
    stats = {label: AgentStats(label) for label in labels}
    pairs: dict[tuple[str, str], list[float]] = {}
    pair_results: list[PairResult] = []
    first_wins = 0
    decided = 0
    solitaire = all(len(r.seats) == 1 for r in results) and bool(results)
    for res in results:
        if res.winners:
            decided += 1
        if res.first_player in res.winners:
            first_wins += 1
        seen: set[str] = set()
        for seat, label in enumerate(res.seats):
            s = stats.setdefault(label, AgentStats(label))
            if label in seen:  # a team or repeated agent counts once per game
                continue
            seen.add(label)
            s.games += 1
            s.returns += res.returns[seat]
            s.slowest_move = max(s.slowest_move, res.max_move_seconds.get(label, 0.0))
            if res.error:
                s.errors += 1
            if seat in res.winners:
                s.wins += 1
            elif not res.winners and len(res.seats) > 1:
                s.draws += 1
            else:
                s.losses += 1
        for i, j in itertools.combinations(range(len(res.seats)), 2):
            a, b = res.seats[i], res.seats[j]
            if a == b:
                continue
            ri, rj = res.returns[i], res.returns[j]
            score = 1.0 if ri > rj else 0.0 if ri < rj else 0.5
            if labels.index(a) > labels.index(b):
                a, b, score = b, a, 1.0 - score
            pair_results.append(PairResult(a, b, score))
            tally = pairs.setdefault((a, b), [0, 0, 0])
            tally[0 if score == 1.0 else 2 if score == 0.0 else 1] += 1
    ratings = [] if solitaire else bradley_terry(pair_results, labels)
    return Summary(game_id, labels, list(results), stats, pairs, ratings, first_wins, decided,
                   solitaire)


def write_csv(summary: Summary, path: str) -> None:
    """One row per game: index, seed, seats, returns, winners, first player, plies, reason."""
    import csv

    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["game", "seed", "seats", "returns", "winners", "first_player", "plies",
                    "reason", "seconds", "error"])
        for r in summary.results:
            w.writerow([r.index, r.seed, " ".join(r.seats),
                        " ".join(f"{x:g}" for x in r.returns),
                        " ".join(map(str, r.winners)), r.first_player, r.plies, r.reason,
                        f"{r.seconds:.3f}", r.error or ""])


def run_tournament(
    game_id: str,
    agents: Sequence[AgentSpec | str],
    games: int,
    seed: int = 0,
    workers: int = 1,
    options: Mapping[str, str] | None = None,
    time: float | None = None,
    on_result: Callable[[GameResult], None] | None = None,
    runner: JobMap | None = None,
) -> Summary:
    """Schedule, play and summarize a tournament (``runner``: see :func:`run_jobs`)."""
    specs = [a if isinstance(a, AgentSpec) else AgentSpec.parse(a) for a in agents]
    jobs = schedule(game_id, specs, games, seed, options, time)
    results = run_jobs(jobs, workers, on_result, runner)
    return summarize(game_id, specs, results)
