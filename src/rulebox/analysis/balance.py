"""A game's balance measured by seeded self-play (``rulebox analyze``, issue 22).

Each game is played to the end by computer seats; what the rules produce at every ply is kept:
who moved, how many legal moves there were (the branching factor), and who led by the game's
evaluation (:mod:`rulebox.ai.heuristics`: the seat with the highest ``values``; in a solitaire,
whether the value is above the middle of the return bounds, i.e. a win foreseen). From the games
:func:`metrics` computes:

- ``seats``: each seat's win rate with its 95% Wilson interval, the first mover's (the player
  who moved first, which Count Red draws from the seed) and the draw rate; ``teams``: how often
  each set of winners won together (Columba with 4 players: the teams 0+2 and 1+3);
- ``length``: plies and turns (a turn ends when the mover changes) with mean, spread, quartiles;
- ``branching``: legal moves per ply, mean and standard deviation at each ply over the games
  still running, and over all plies;
- ``decisiveness``: at each ply, how often the leader by the evaluation went on to win (over the
  decided games still running), and per game the ply from which the leader was the winner at
  every later ply (the game effectively decided), as plies and as a share of the game;
- ``scores`` where a game scores (Columba's points, Columns' roundels, 36 to 1's cubes left):
  per seat mean and distribution;
- ``agents``: each agent's score when two or more agents play (seats rotated).

Scheduling: game ``g`` seats the agents rotated by ``g`` (``agents[(seat + g) % k]``); with two
or more agents a deal (the game seed ``seed * 1_000_003 + g // seats``) is played once in each
rotation, with one agent every game has its own deal (``seed * 1_000_003 + g``). Each seat's
agent gets a seed from the game seed and the seat, so a run bounded by ``iterations=`` (or with
agents without a clock: ``random``, ``greedy``) repeats exactly.
"""

from __future__ import annotations

import json
import math
import os
import statistics
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any

from rulebox.core.game import Game
from rulebox.match.agents import AgentSpec
from rulebox.match.ratings import wilson_interval
from rulebox.match.tournament import SEED_STRIDE, agent_settings

LOG_FORMAT = "rulebox-analysis-log/1"
METRICS_FORMAT = "rulebox-analysis/1"

GameFactory = Callable[[dict[str, str]], Game]


@dataclass(frozen=True)
class Job:
    """One game to play: the variant (options), the agents by seat, the seed."""

    index: int
    game_id: str
    variant: int
    options: tuple[tuple[str, str], ...]
    seats: tuple[str, ...]
    seed: int
    time: float | None = None


def schedule(
    game_id: str,
    agents: Sequence[str],
    games: int,
    seats: int,
    variants: Sequence[Mapping[str, str]],
    seed: int = 0,
    time_: float | None = None,
) -> list[Job]:
    """``games`` games for every variant, seats rotated (module docstring)."""
    jobs: list[Job] = []
    k = len(agents)
    for v, options in enumerate(variants):
        for g in range(games):
            deal = g if k == 1 else g // max(1, seats)
            jobs.append(Job(
                len(jobs), game_id, v, tuple(sorted(options.items())),
                tuple(agents[(s + g) % k] for s in range(seats)),
                seed * SEED_STRIDE + deal, time_,
            ))
    return jobs


def _leader(game: Game, values: Callable[[Game], list[float]]) -> int | list[int]:
    """The seat the evaluation puts first; several seats (a list) when they tie for first
    (teammates share a value); in a solitaire 0 for a foreseen win and -1 for a foreseen
    loss; -2 when the evaluation fails on the position (counted in the metrics as
    ``evaluation_failures``, so a broken evaluation does not stop a run)."""
    try:
        vals = values(game)
    except Exception:  # a bug in a game's evaluation: reported, not fatal
        return -2
    if len(vals) == 1:
        lo, hi = game.return_bounds
        return 0 if vals[0] > (lo + hi) / 2 else -1
    top = max(vals)
    best = [i for i, v in enumerate(vals) if v >= top - 1e-9]
    return best[0] if len(best) == 1 else best


def leads(lead: int | list[int], winners: Sequence[int], players: int) -> bool:
    """Whether the evaluation's leader ``lead`` is the result ``winners``: one seat among the
    winners, or tied seats (fewer than all) that all won (a team)."""
    if isinstance(lead, list):
        return 0 < len(lead) < players and set(lead) <= set(winners)
    return lead >= 0 and lead in winners


def play_one(job: Job, factory: GameFactory | None = None) -> dict[str, Any]:
    """Play one game to the end and return what :func:`metrics` reads (JSON-able)."""
    from rulebox.ai.heuristics import heuristic
    from rulebox.core.registry import new_game

    start = time.perf_counter()
    options = dict(job.options)
    options["seed"] = str(job.seed)
    game = factory(options) if factory is not None else new_game(job.game_id, options)
    values = heuristic(job.game_id).all_values
    agents = []
    for seat, label in enumerate(job.seats):
        spec = AgentSpec.parse(label)
        settings = agent_settings(spec, seat, job.seed, job.time)
        agents.append(AgentSpec(spec.name, tuple(settings.items())).make(job.game_id))
    first = game.current_player()
    branching: list[int] = []
    leaders: list[int | list[int]] = []
    turns = 0
    last_mover = None
    limit = game.max_moves * 4 + 100
    error = None
    while not game.is_terminal():
        mover = game.current_player()
        if mover != last_mover:
            turns += 1
            last_mover = mover
        legal = game.legal_moves()
        branching.append(len(legal))
        leaders.append(_leader(game, values))
        try:
            move = agents[mover].choose(game)
            game.apply(move)
        except Exception as e:  # an agent's failure is recorded, the run goes on
            error = f"{type(e).__name__}: {e}"[:200]
            break
        if len(branching) > limit:
            error = f"no end after {len(branching)} moves"
            break
    outcome = game.outcome()
    return {
        "index": job.index, "variant": job.variant, "seed": job.seed,
        "seats": list(job.seats), "first": first,
        "winners": list(outcome.winners) if outcome else [],
        "returns": [float(r) for r in game.returns()],
        "scores": list(outcome.scores) if outcome and outcome.scores is not None else None,
        "plies": len(branching), "turns": turns, "branching": branching, "leaders": leaders,
        "reason": outcome.reason if outcome else "unfinished",
        "seconds": round(time.perf_counter() - start, 3), "error": error,
    }


# --- running, with a log to resume --------------------------------------------------------------
def log_header(game_id: str, agents: Sequence[str], games: int, seed: int,
               variants: Sequence[Mapping[str, str]], time_: float | None) -> dict[str, Any]:
    """What identifies a run in its log: the same header, the same games."""
    return {"format": LOG_FORMAT, "game": game_id, "agents": list(agents), "games": games,
            "seed": seed, "variants": [dict(sorted(v.items())) for v in variants],
            "time": time_}


def read_log(path: str, header: Mapping[str, Any]) -> dict[int, dict[str, Any]]:
    """The finished games of this run in its log (none without a file); a log of another run
    raises ``ValueError``; a line cut short is skipped."""
    if not os.path.exists(path) or os.path.getsize(path) == 0:
        return {}
    found: dict[int, dict[str, Any]] = {}
    with open(path, encoding="utf-8") as f:
        try:
            head = json.loads(f.readline())
        except ValueError:
            raise ValueError(f"{path} is not an analysis log") from None
        if head != dict(header):
            raise ValueError(f"{path} is the log of another run (game, agents, games, seed, "
                             "variants or time differ); name a new file")
        for line in f:
            try:
                r = json.loads(line)
                found[int(r["index"])] = r
            except (ValueError, KeyError, TypeError):
                continue
    return found


def run(
    jobs: Sequence[Job],
    workers: int = 1,
    log: str | None = None,
    header: Mapping[str, Any] | None = None,
    on_result: Callable[[dict[str, Any]], None] | None = None,
    factory: GameFactory | None = None,
) -> list[dict[str, Any]]:
    """Play the jobs not yet in ``log`` (in ``workers`` processes), append each result to the
    log, and return every result in job order."""
    done: dict[int, dict[str, Any]] = {}
    if log is not None and header is not None:
        done = read_log(log, header)
        if not os.path.exists(log) or os.path.getsize(log) == 0:
            with open(log, "w", encoding="utf-8") as f:
                f.write(json.dumps(dict(header)) + "\n")
    todo = [j for j in jobs if j.index not in done]
    for r in done.values():
        if on_result is not None:
            on_result(r)

    def keep(r: dict[str, Any]) -> None:
        done[r["index"]] = r
        if log is not None:
            with open(log, "a", encoding="utf-8") as f:
                f.write(json.dumps(r) + "\n")
        if on_result is not None:
            on_result(r)

    if workers <= 1 or factory is not None:
        for j in todo:
            keep(play_one(j, factory))
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = [pool.submit(play_one, j) for j in todo]
            for fut in as_completed(futures):
                keep(fut.result())
    return [done[j.index] for j in jobs if j.index in done]


# --- metrics ------------------------------------------------------------------------------------
def _rate(k: float, n: int) -> dict[str, Any]:
    lo, hi = wilson_interval(k, n) if n else (0.0, 1.0)
    return {"count": k, "games": n, "rate": k / n if n else 0.0, "ci95": [lo, hi]}


def _spread(xs: Sequence[float]) -> dict[str, float]:
    if not xs:
        return {"mean": 0.0, "sd": 0.0, "min": 0.0, "q1": 0.0, "median": 0.0, "q3": 0.0,
                "max": 0.0}
    q = statistics.quantiles(xs, n=4, method="inclusive") if len(xs) > 1 else [xs[0]] * 3
    return {"mean": statistics.fmean(xs), "sd": statistics.pstdev(xs), "min": min(xs),
            "q1": q[0], "median": q[1], "q3": q[2], "max": max(xs)}


def decided_at(result: Mapping[str, Any]) -> int | None:
    """The ply (1-based: before the move of that ply) from which the evaluation's leader was
    the eventual result at every later ply; ``None`` for a drawn or failed game."""
    leaders: list[int | list[int]] = result["leaders"]
    if result.get("error") or not leaders:
        return None
    players = len(result["seats"])
    if players == 1:
        want = [0] if result["winners"] else [-1]
    elif result["winners"]:
        want = list(result["winners"])
    else:
        return None

    def held(lead: int | list[int]) -> bool:
        if players == 1:
            return lead in want
        return leads(lead, want, players)

    k = len(leaders)
    while k > 0 and held(leaders[k - 1]):
        k -= 1
    return k + 1 if k < len(leaders) else len(leaders) + 1


def metrics(results: Sequence[Mapping[str, Any]], seats: int) -> dict[str, Any]:
    """The balance figures of one variant's games (module docstring)."""
    ok = [r for r in results if not r.get("error")]
    n = len(ok)
    out: dict[str, Any] = {"games": n, "errors": len(results) - n}
    solitaire = seats == 1
    if solitaire:
        out["win"] = _rate(sum(1 for r in ok if r["winners"]), n)
    else:
        out["seats"] = [_rate(sum(1 for r in ok if s in r["winners"]), n) for s in range(seats)]
        out["first_mover"] = _rate(sum(1 for r in ok if r["first"] in r["winners"]), n)
        out["draw"] = _rate(sum(1 for r in ok if not r["winners"]), n)
        teams = Counter("+".join(map(str, sorted(r["winners"]))) for r in ok if r["winners"])
        out["teams"] = {t: _rate(c, n) for t, c in sorted(teams.items())}
        agents = sorted({a for r in ok for a in r["seats"]})
        if len(agents) > 1:
            out["agents"] = {}
            for a in agents:
                mine = [r for r in ok if a in r["seats"]]
                won = sum(1 for r in mine if any(r["seats"][w] == a for w in r["winners"]))
                drawn = sum(1 for r in mine if not r["winners"])
                out["agents"][a] = {**_rate(won, len(mine)), "draws": drawn,
                                    "score": (won + drawn / 2) / max(1, len(mine))}
    plies = [r["plies"] for r in ok]
    out["length"] = {"plies": _spread(plies), "turns": _spread([r["turns"] for r in ok]),
                     "plies_hist": sorted(Counter(plies).items())}
    longest = max(plies, default=0)
    per_ply: list[dict[str, float]] = []
    for k in range(longest):
        bs = [r["branching"][k] for r in ok if len(r["branching"]) > k]
        per_ply.append({"n": len(bs), "mean": statistics.fmean(bs),
                        "sd": statistics.pstdev(bs)})
    out["evaluation_failures"] = sum(1 for r in ok for x in r["leaders"] if x == -2)
    every = [b for r in ok for b in r["branching"]]
    out["branching"] = {"overall": _spread(every), "per_ply": per_ply}
    curve: list[dict[str, float]] = []
    decided = [r for r in ok if (r["winners"] or solitaire)]
    for k in range(longest):
        hits = total = 0
        for r in decided:
            if len(r["leaders"]) > k:
                total += 1
                lead = r["leaders"][k]
                if solitaire:
                    hits += (lead == 0) == bool(r["winners"])
                else:
                    hits += leads(lead, r["winners"], seats)
        curve.append({"n": total, "rate": hits / total if total else 0.0})
    at: list[tuple[int, int]] = []
    for r in decided:
        a = decided_at(r)
        if a is not None:
            at.append((a, r["plies"]))
    out["decisiveness"] = {
        "leader_wins_at_ply": curve,
        "decided_at_ply": _spread([a for a, _ in at]),
        "decided_at_share": _spread([(a - 1) / p for a, p in at if p]),
        "leader_wins_overall": _rate(
            sum(c["rate"] * c["n"] for c in curve), int(sum(c["n"] for c in curve))),
    }
    scored = [r for r in ok if r.get("scores") is not None]
    if scored:
        width = len(scored[0]["scores"])
        out["scores"] = {
            "per_seat": [_spread([float(r["scores"][s]) for r in scored]) for s in range(width)],
            "hist": [sorted(Counter(r["scores"][s] for r in scored).items())
                     for s in range(width)],
        }
    return out


def analyze(
    game_id: str,
    agents: Sequence[str],
    games: int,
    variants: Sequence[Mapping[str, str]] | None = None,
    seed: int = 0,
    workers: int = 1,
    time_: float | None = None,
    log: str | None = None,
    on_result: Callable[[dict[str, Any]], None] | None = None,
    factory: GameFactory | None = None,
    seats: int | None = None,
) -> dict[str, Any]:
    """Play and measure: the ``metrics.json`` document (one entry per variant)."""
    variants = [dict(v) for v in (variants or [{}])]
    if seats is None:
        seats_of = [_seats(game_id, v, factory) for v in variants]
    else:
        seats_of = [seats] * len(variants)
    jobs: list[Job] = []
    for v, options in enumerate(variants):
        for j in schedule(game_id, agents, games, seats_of[v], [options], seed, time_):
            jobs.append(Job(len(jobs), j.game_id, v, j.options, j.seats, j.seed, j.time))
    header = log_header(game_id, agents, games, seed, variants, time_)
    results = run(jobs, workers, log, header, on_result, factory)
    return {
        "format": METRICS_FORMAT, "game": game_id, "agents": list(agents), "games": games,
        "seed": seed, "time": time_,
        "variants": [
            {"options": variants[v], "seats": seats_of[v],
             "metrics": metrics([r for r in results if r["variant"] == v], seats_of[v])}
            for v in range(len(variants))
        ],
    }


def _seats(game_id: str, options: Mapping[str, str], factory: GameFactory | None) -> int:
    from rulebox.core.registry import new_game

    game = factory(dict(options)) if factory else new_game(game_id, dict(options))
    return game.num_players


def expand_variants(pairs: Iterable[str]) -> list[dict[str, str]]:
    """``key=v1,v2`` pairs as every combination of their values (``[{}]`` without any)."""
    out: list[dict[str, str]] = [{}]
    for pair in pairs:
        key, eq, values = pair.partition("=")
        if not eq or not key.strip() or not values.strip():
            raise ValueError(f"a variant is written key=v1,v2, not {pair[:40]!r}")
        out = [{**o, key.strip().lower(): v.strip()} for o in out
               for v in values.split(",") if v.strip()]
    return out


def variant_label(options: Mapping[str, str]) -> str:
    """A variant's short name: ``green=1 end=literal`` (``default`` without options)."""
    return " ".join(f"{k}={v}" for k, v in sorted(options.items())) or "default"


def fmt_rate(r: Mapping[str, Any]) -> str:
    """``0.540 (0.470-0.608)``."""
    lo, hi = r["ci95"]
    return f"{r['rate']:.3f} ({lo:.3f}-{hi:.3f})"


def headline(doc: Mapping[str, Any]) -> list[str]:
    """The headline figures of a run as lines of text (one block per variant)."""
    lines: list[str] = []
    for v in doc["variants"]:
        m = v["metrics"]
        lines.append(f"{doc['game']} [{variant_label(v['options'])}] {m['games']} games"
                     + (f", {m['errors']} errors" if m["errors"] else ""))
        if "win" in m:
            lines.append(f"  win rate {fmt_rate(m['win'])}")
        else:
            for s, r in enumerate(m["seats"]):
                lines.append(f"  seat {s} wins {fmt_rate(r)}")
            lines.append(f"  first mover wins {fmt_rate(m['first_mover'])}; "
                         f"draws {fmt_rate(m['draw'])}")
        pl, tu = m["length"]["plies"], m["length"]["turns"]
        lines.append(f"  length {pl['mean']:.1f} plies (sd {pl['sd']:.1f}, {pl['min']:g}-"
                     f"{pl['max']:g}), {tu['mean']:.1f} turns")
        br = m["branching"]["overall"]
        lines.append(f"  branching {br['mean']:.1f} moves a ply (sd {br['sd']:.1f})")
        d = m["decisiveness"]
        lines.append(f"  evaluation leader wins {fmt_rate(d['leader_wins_overall'])} of "
                     f"ply positions; decided at ply {d['decided_at_ply']['median']:g} (median, "
                     f"{d['decided_at_share']['median'] * 100:.0f}% of the game)")
        if "scores" in m:
            means = ", ".join(f"{s['mean']:.2f}" for s in m["scores"]["per_seat"])
            lines.append(f"  mean score per seat: {means}")
    return lines


def to_jsonable(x: Any) -> Any:
    """Tuples as lists, NaN as ``None`` (JSON has no NaN)."""
    if isinstance(x, float) and math.isnan(x):
        return None
    if isinstance(x, dict):
        return {str(k): to_jsonable(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [to_jsonable(v) for v in x]
    return x


__all__ = ["Job", "analyze", "expand_variants", "headline", "metrics", "play_one"]
