"""Game records: a saved game as JSON, replayed through the rules when it is loaded.

A record holds the game id, its options (the seed among them), the players, every move in
canonical notation, the result and the dates, and the rulebox version that wrote it. Loading a
record replays every move through the rules and refuses a record that breaks them, saying where.

A game in which moves were taken back says so: ``takebacks`` counts the undos, and ``log`` (then
present) lists every change in order, ``!undo`` and ``!reshuffle SEED`` (the fresh shuffle of the
unseen cards after an undo, :mod:`rulebox.match.table`) among the moves, so that the replay
deals exactly what was dealt. ``ending`` says how a game ended at the table (a resignation, an
agreed draw, a forfeit) when the rules did not end it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rulebox import __version__
from rulebox.core.errors import RuleboxError, StateError, UnknownNameError
from rulebox.core.game import Game
from rulebox.core.registry import game_entry
from rulebox.match.replay import position_at, replay_log

RECORD_FORMAT = "rulebox-record/1"
MAX_RECORD_BYTES = 16 << 20


def _now() -> str:
    return datetime.now(UTC).replace(microsecond=0).isoformat()


@dataclass
class Record:
    """One game, as saved."""

    game: str
    options: dict[str, str]
    players: list[str]
    moves: list[str] = field(default_factory=list)
    result: str | None = None
    started: str = field(default_factory=_now)
    finished: str | None = None
    version: str = __version__
    takebacks: int = 0
    log: list[str] | None = None
    ending: str | None = None
    review: dict[str, Any] | None = None
    """``rulebox review``'s marks and values (see :mod:`rulebox.analysis.review`), kept so a
    game is reviewed once; ``None`` until reviewed."""

    @classmethod
    def of(cls, game: Game, players: list[str], started: str | None = None) -> Record:
        """The record of a game as it stands."""
        outcome = game.outcome()
        return cls(
            game=game.id,
            options=game.options(),
            players=list(players),
            moves=[str(m) for m in game.history],
            result=outcome.result_line() if outcome else None,
            started=started or _now(),
            finished=_now() if outcome else None,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "format": RECORD_FORMAT,
            "game": self.game,
            "options": dict(self.options),
            "seed": self.options.get("seed"),
            "players": list(self.players),
            "moves": list(self.moves),
            "result": self.result,
            "started": self.started,
            "finished": self.finished,
            "rulebox": self.version,
            "takebacks": self.takebacks,
            **({"log": list(self.log)} if self.log is not None else {}),
            **({"ending": self.ending} if self.ending is not None else {}),
            **({"review": self.review} if self.review is not None else {}),
        }

    @classmethod
    def from_json(cls, data: Any) -> Record:
        """Read a record's JSON, refusing anything malformed with ``StateError``."""
        if not isinstance(data, dict):
            raise StateError("a record is a JSON object")
        if data.get("format") != RECORD_FORMAT:
            raise StateError(f"not a rulebox record (format {str(data.get('format'))[:40]!r})")
        game, options, players, moves = (
            data.get("game"), data.get("options"), data.get("players"), data.get("moves"),
        )
        if not isinstance(game, str):
            raise StateError("the record names no game")
        if not isinstance(options, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in options.items()
        ):
            raise StateError("the record's options must be key: text pairs")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise StateError("the record's players must be a list of names")
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise StateError("the record's moves must be a list of moves in notation")
        result = data.get("result")
        if result is not None and not isinstance(result, str):
            raise StateError("the record's result must be text")
        log = data.get("log")
        if log is not None and (not isinstance(log, list)
                                or not all(isinstance(m, str) for m in log)):
            raise StateError("the record's log must be a list of moves and takebacks")
        takebacks = data.get("takebacks", 0)
        if not isinstance(takebacks, int) or isinstance(takebacks, bool) or takebacks < 0:
            raise StateError("the record's takebacks must be a count")
        ending = data.get("ending")
        return cls(
            game=game,
            options=dict(options),
            players=list(players),
            moves=list(moves),
            result=result,
            started=str(data.get("started") or ""),
            finished=data.get("finished") if isinstance(data.get("finished"), str) else None,
            version=str(data.get("rulebox") or ""),
            takebacks=takebacks,
            log=None if log is None else list(log),
            ending=ending if isinstance(ending, str) else None,
            review=data["review"] if isinstance(data.get("review"), dict) else None,
        )

    def replay(self, upto: int | None = None) -> Game:
        """The game after ``upto`` moves (all by default), every move checked by the rules."""
        try:
            entry = game_entry(self.game)
        except UnknownNameError as e:
            raise StateError(str(e)) from None
        try:
            game = entry.cls.new(self.options)
        except RuleboxError as e:
            raise StateError(f"the record's options are refused: {e}") from None
        if self.log is not None:
            game = replay_log(self.game, self.options, self.log)
            if [str(m) for m in game.history] != self.moves:
                raise StateError("the record's log does not lead to its moves")
            if upto is not None:  # as the game stood then, with the cards dealt then
                return position_at(self.game, self.options, self.log, self.moves[:upto])
            return self._checked(game)
        moves = self.moves if upto is None else self.moves[:upto]
        for i, text in enumerate(moves, start=1):
            try:
                game.apply(text)
            except RuleboxError as e:
                raise StateError(f"move {i} ({text[:40]!r}) breaks the rules: {e}") from None
        return self._checked(game) if upto is None else game

    def _checked(self, game: Game) -> Game:
        if self.result is not None and self.ending is None:
            outcome = game.outcome()
            actual = outcome.result_line() if outcome else "ongoing"
            if actual != self.result:
                raise StateError(
                    f"the record says the result is {self.result!r}, the moves give {actual!r}"
                )
        return game


def save_record(record: Record, path: str | Path) -> None:
    """Write a record as indented JSON."""
    Path(path).write_text(json.dumps(record.to_json(), indent=1) + "\n", encoding="utf-8")


def load_record(path: str | Path) -> Record:
    """Read a record file; ``StateError`` for anything unreadable or malformed."""
    p = Path(path)
    try:
        if p.stat().st_size > MAX_RECORD_BYTES:
            raise StateError(f"{p} is too large to be a record")
        data = json.loads(p.read_text(encoding="utf-8"))
    except OSError as e:
        raise StateError(f"cannot read {p}: {e.strerror}") from None
    except (ValueError, RecursionError) as e:
        raise StateError(f"{p} is not valid JSON: {e}") from None
    return Record.from_json(data)
