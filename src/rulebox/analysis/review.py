"""A saved game reviewed move by move, as lichess and BGA players expect (issue 22).

For every move of a record the review gives, from the mover's point of view:

- ``best``: the move the reviewing agent (``best`` by default) prefers in the position;
- ``before``: the win probability of the mover before the move, taken as the value of the
  position after the agent's preferred move (what the mover could have kept);
- ``after``: the mover's win probability after the move actually played;
- ``loss = max(0, before - after)`` and a mark from :data:`THRESHOLDS`.

Values. The agents do not expose a root value through the protocol (``alphabeta`` keeps a
``last`` search result; MCTS keeps none), so the value of a position is the game's heuristic
``values(game)`` (:mod:`rulebox.ai.heuristics`, a guess at every player's return within the
game's ``return_bounds``) one ply after the agent's search chose the move: the search decides
which move, the evaluation says how good the position after it is. A finished position is worth
its result (1 for a winner, 0 for a loser, 0.5 for a draw). A return ``v`` in bounds
``(lo, hi)`` is the win probability ``(v - lo) / (hi - lo)`` (a return of 0 in -1..1 is 0.5).

Hidden information. In 36 to 1 and Columba a position is never evaluated from the true hidden
order: the mover's probabilities are averaged over ``worlds`` determinizations
(``game.determinize(mover, rng)``, a deal consistent with what the mover has seen) and the move
is played on those worlds, never on the real game (which would draw the real next card). The
agent chooses its move through the protocol, which lets it see only ``determinize`` too. Only
the last point (the finished game, whose deal is revealed) uses the true returns.

Marks (:data:`THRESHOLDS`, a drop in the mover's win probability, as lichess marks a drop in
"winning chances"): inaccuracy from 0.05, mistake from 0.10, blunder from 0.20. A forced move
(one legal move) is never marked.

The decisive moment: the move after which the side that got the final result held it in every
later evaluation: the first ply ``k`` such that the eventual winner's win probability (the
solitaire's probability of the result it got: of winning when won, of losing when lost) stays
above 0.5 at every point from ``k`` on. A draw (or a series that never settles) has as its
decisive moment the move with the largest loss, if any.

The review is kept in the record as a ``review`` section (:data:`REVIEW_FORMAT`), so a game is
reviewed once; :func:`write_review` adds it to the record's JSON without touching the rest.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rulebox.core.errors import StateError
from rulebox.core.game import Game
from rulebox.core.registry import game_entry
from rulebox.match.records import MAX_RECORD_BYTES, Record

REVIEW_FORMAT = "rulebox-review/1"

THRESHOLDS: dict[str, float] = {"inaccuracy": 0.05, "mistake": 0.10, "blunder": 0.20}
"""The smallest drop in the mover's win probability that earns each mark."""

MARK_SIGNS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
"""The annotation symbols of the marks (as in chess notation)."""

WORLDS = 8
"""Determinizations a hidden-information position is averaged over."""

Values = Callable[[Game], list[float]]
Chooser = Callable[[Game], Any]


def mark_of(loss: float) -> str | None:
    """The mark a loss of win probability earns (``None`` below an inaccuracy)."""
    found = None
    for name, limit in sorted(THRESHOLDS.items(), key=lambda kv: kv[1]):
        if loss >= limit - 1e-12:
            found = name
    return found


def probability(value: float, bounds: tuple[float, float]) -> float:
    """A return (or a guess at one) as a win probability, clamped to 0..1."""
    lo, hi = bounds
    if hi <= lo:
        return 0.5
    return min(1.0, max(0.0, (value - lo) / (hi - lo)))


def final_probs(game: Game) -> list[float]:
    """A finished game's "probabilities": 1 for a winner, 0 for a loser, 0.5 each for a drawn
    game of several players (a solitaire without a winner is lost: 0)."""
    outcome = game.outcome()
    n = game.num_players
    if outcome is None:
        return [0.5] * n
    if outcome.winners:
        return [1.0 if p in outcome.winners else 0.0 for p in range(n)]
    return [0.0] * n if n == 1 else [0.5] * n


class Evaluator:
    """Win probabilities and the preferred move, seen from one seat.

    ``values`` defaults to the game's heuristic (the result once a game is over);
    ``chooser`` to the agent ``agent`` (an AgentSpec text, e.g. ``best:time=0.5``)."""

    def __init__(
        self,
        game_id: str,
        agent: str = "best",
        time: float | None = 0.5,
        iterations: int | None = None,
        seed: int = 0,
        worlds: int = WORLDS,
        values: Values | None = None,
        chooser: Chooser | None = None,
    ) -> None:
        from rulebox.ai.heuristics import heuristic
        from rulebox.match.agents import AgentSpec

        self.game_id = game_id
        self.worlds = max(1, worlds)
        self.seed = seed
        self._values = values if values is not None else heuristic(game_id).values
        spec = AgentSpec.parse(agent).resolve(game_id)
        extra: dict[str, str] = {"seed": str(seed)}
        if iterations is not None:
            extra["iterations"] = str(iterations)
        elif time is not None:
            extra["time"] = repr(time)
        self.spec = spec.with_settings(extra)
        self._chooser = chooser
        self._agent: Any = None

    @property
    def label(self) -> str:
        """The reviewing agent as a spec (or ``custom`` for a chooser given in code)."""
        return "custom" if self._chooser is not None else self.spec.label

    def choose(self, game: Game) -> Any:
        """The preferred move of the player to move."""
        if self._chooser is not None:
            return self._chooser(game)
        if self._agent is None:
            self._agent = self.spec.make(self.game_id)
        return self._agent.choose(game)

    def _probs_of(self, game: Game) -> list[float]:
        if game.is_terminal():
            return final_probs(game)
        bounds = game.return_bounds
        return [probability(float(v), bounds) for v in self._values(game)]

    def worlds_of(self, game: Game, viewer: int, ply: int) -> list[Game]:
        """The positions to evaluate for ``viewer``: the game itself without hidden
        information, else ``worlds`` determinizations from ``viewer``'s view (seeded by ply)."""
        if not game.has_hidden_information or game.is_terminal():
            return [game]
        rand = random.Random(f"{self.seed}:{ply}:{viewer}")
        return [game.determinize(viewer, rand) for _ in range(self.worlds)]

    def probs_after(self, worlds: list[Game], move: Any | None) -> list[float]:
        """Every player's win probability after ``move`` (``None``: as it stands), averaged
        over ``worlds``."""
        total: list[float] = []
        for world in worlds:
            child = world
            if move is not None:
                child = world.clone()
                child.apply_unchecked(move)
            p = self._probs_of(child)
            total = p if not total else [a + b for a, b in zip(total, p, strict=True)]
        return [t / len(worlds) for t in total]


def _positions(record: Record, new: Callable[[dict[str, str]], Game] | None = None) -> list[Game]:
    """The position before every move of the record, and the final one (``new`` makes the
    start from the options: the registered game's by default)."""
    if new is None:
        if record.log is not None:
            return [record.replay(upto=i) for i in range(len(record.moves))] + [record.replay()]
        try:
            new = game_entry(record.game).cls.new
        except Exception as e:  # an unknown game: a bad record
            raise StateError(str(e)) from None
    game = new(dict(record.options))
    out = [game.clone()]
    for i, text in enumerate(record.moves, start=1):
        try:
            game.apply(text)
        except Exception as e:  # any rules error: a broken record
            raise StateError(f"move {i} ({text[:40]!r}) breaks the rules: {e}") from None
        out.append(game.clone())
    return out


def review_record(
    record: Record,
    evaluator: Evaluator | None = None,
    progress: Callable[[int, int], None] | None = None,
    new: Callable[[dict[str, str]], Game] | None = None,
) -> dict[str, Any]:
    """The review of a record (the ``review`` section, see the module docstring); ``new``
    makes the start position from the options (a game outside the registry, in tests)."""
    ev = evaluator or Evaluator(record.game)
    positions = _positions(record, new)
    final = positions[-1]
    n_players = final.num_players
    start = positions[0]
    start_worlds = ev.worlds_of(start, max(0, start.current_player()), 0)
    start_probs = ev.probs_after(start_worlds, None)
    moves_out: list[dict[str, Any]] = []
    for i, text in enumerate(record.moves):
        if progress is not None:
            progress(i, len(record.moves))
        game = positions[i]
        mover = game.current_player()
        played = game.parse(text)
        legal = game.legal_moves()
        worlds = ev.worlds_of(game, mover, i)
        best = played if len(legal) <= 1 else ev.choose(game)
        last = i == len(record.moves) - 1 and final.is_terminal()
        after_probs = (ev._probs_of(final) if last
                       else ev.probs_after(worlds, played))
        best_probs = after_probs if best == played else ev.probs_after(worlds, best)
        before, after = best_probs[mover], after_probs[mover]
        if best != played and after > before:  # the evaluation prefers the move played
            before = after
        loss = max(0.0, before - after) if len(legal) > 1 else 0.0
        mark = mark_of(loss) if len(legal) > 1 else None
        moves_out.append({
            "ply": i + 1, "player": mover, "move": text, "best": game.move_text(best),
            "before": round(before, 4), "after": round(after, 4), "loss": round(loss, 4),
            "mark": mark, "probs": [round(p, 4) for p in after_probs],
            "choices": len(legal),
        })
    decisive = decisive_ply(moves_out, final, n_players)
    summary: dict[str, dict[str, int]] = {
        str(p): {name: 0 for name in THRESHOLDS} for p in range(n_players)}
    for m in moves_out:
        if m["mark"]:
            summary[str(m["player"])][m["mark"]] += 1
    outcome = final.outcome()
    return {
        "format": REVIEW_FORMAT,
        "agent": ev.label,
        "values": "heuristic one ply after the agent's choice",
        "thresholds": dict(THRESHOLDS),
        "worlds": ev.worlds if final.has_hidden_information else 1,
        "start": [round(p, 4) for p in start_probs],
        "moves": moves_out,
        "decisive": decisive,
        "summary": summary,
        "result": outcome.result_line() if outcome else None,
        "created": datetime.now(UTC).replace(microsecond=0).isoformat(),
    }


def decisive_ply(moves: list[dict[str, Any]], final: Game, n_players: int) -> int | None:
    """The ply of the decisive moment (module docstring), or ``None`` without moves."""
    if not moves:
        return None
    outcome = final.outcome()
    series: list[float] | None = None
    if outcome is not None and outcome.winners:
        w = outcome.winners[0]
        series = [m["probs"][w] for m in moves]
    elif outcome is not None and n_players == 1:
        series = [1.0 - m["probs"][0] for m in moves]
    if series is not None:
        k = len(series)
        while k > 0 and series[k - 1] > 0.5:
            k -= 1
        if k < len(series):
            return moves[k]["ply"]
    worst = max(moves, key=lambda m: (m["loss"], -m["ply"]))
    return worst["ply"] if worst["loss"] > 0 else None


# --- the review in the record -----------------------------------------------------------------
def read_record_json(path: str | Path) -> dict[str, Any]:
    """A record file's JSON (checked as a record; any ``review`` section kept)."""
    p = Path(path)
    try:
        if p.stat().st_size > MAX_RECORD_BYTES:
            raise StateError(f"{p} is too large to be a record")
        data = json.loads(p.read_text(encoding="utf-8"))
    except OSError as e:
        raise StateError(f"cannot read {p}: {e.strerror}") from None
    except (ValueError, RecursionError) as e:
        raise StateError(f"{p} is not valid JSON: {e}") from None
    Record.from_json(data)
    return data


def write_review(path: str | Path, review: dict[str, Any]) -> None:
    """Add (or replace) the record's ``review`` section, keeping everything else as it was."""
    data = read_record_json(path)
    data["review"] = review
    Path(path).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


def valid_review(data: Any, record: Record) -> bool:
    """Whether ``data`` is a review of exactly this record's moves."""
    return (isinstance(data, dict) and data.get("format") == REVIEW_FORMAT
            and isinstance(data.get("moves"), list)
            and [m.get("move") for m in data["moves"] if isinstance(m, dict)] == record.moves)


# --- text -------------------------------------------------------------------------------------
def move_note(entry: dict[str, Any]) -> str:
    """One move's evaluation and mark in a few words: ``62% -> 41% ?? (best Ra2)``."""
    text = f"{entry['before'] * 100:3.0f}% -> {entry['after'] * 100:3.0f}%"
    mark = entry.get("mark")
    if mark:
        text += f" {MARK_SIGNS[mark]:<2} {mark} (best {entry['best']})"
    return text


def review_lines(
    record: Record | dict[str, Any], review: dict[str, Any] | None = None
) -> list[str]:
    """The review as lines for a terminal: one per move (ply, player, move, evaluation before
    and after for the mover, mark, the preferred move), the decisive moment and the tally.
    ``record`` may be the record's JSON with its ``review`` section."""
    if review is None:
        review = record.get("review") if isinstance(record, dict) else None
    if not isinstance(review, dict):
        return ["(no review: rulebox review RECORD)"]
    lines = [f"review by {review.get('agent')} (win probability of the mover, "
             f"before -> after; marks from a drop of "
             + ", ".join(f"{v:.2f} {k}" for k, v in THRESHOLDS.items()) + ")"]
    decisive = review.get("decisive")
    for m in review.get("moves", []):
        flag = "  <- decisive" if m.get("ply") == decisive else ""
        lines.append(f"{m['ply']:4d}. P{m['player'] + 1} {m['move']:<14} {move_note(m)}{flag}")
    for p, tally in sorted(review.get("summary", {}).items()):
        lines.append(f"P{int(p) + 1}: " + ", ".join(f"{n} {k}" for k, n in tally.items()))
    if decisive is not None:
        lines.append(f"decisive moment: ply {decisive}")
    return lines


def load_review(path: str | Path) -> dict[str, Any] | None:
    """The review kept in a record file, if it has one of its moves (``None`` otherwise)."""
    try:
        data = read_record_json(path)
    except StateError:
        return None
    review = data.get("review")
    return review if valid_review(review, Record.from_json(data)) else None


def note_for(review: dict[str, Any] | None, ply: int) -> str:
    """The note of move ``ply`` (1-based) for a replay's header: ``"  62% -> 41% ?? blunder
    (best Ra2)"``, with ``"  decisive"`` at the decisive moment; ``""`` without a review."""
    if not review or ply < 1 or ply > len(review.get("moves", [])):
        return ""
    entry = review["moves"][ply - 1]
    return "  " + move_note(entry) + ("  decisive" if review.get("decisive") == ply else "")
