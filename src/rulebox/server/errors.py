"""Refused requests: :class:`ApiError` (an HTTP status, a short code, a message for a person) and
the translation of the table's and the rules' refusals into it."""

from __future__ import annotations

from typing import Any

from rulebox.core.errors import (
    AmbiguousMoveError,
    GameOverError,
    IllegalMoveError,
    InvalidMoveError,
    RuleboxError,
    StateError,
)
from rulebox.match.ending import TableError

STATUS: dict[str, int] = {
    "stale": 409, "not_your_turn": 409, "game_over": 409, "nothing_to_undo": 409,
    "no_draw": 409, "no_offer": 409, "not_over": 409, "no_rematch": 409, "declined": 409,
    "no_undo": 403, "wrong_seat": 403, "bad_seats": 400,
}
"""The HTTP status of each table refusal."""


class ApiError(Exception):
    """A refused request: an HTTP status, a short code and a message for a person."""

    def __init__(self, status: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.extra = extra

    def body(self) -> dict[str, Any]:
        """The JSON error body: ``{"error": {"code", "message", ...}}``."""
        return {"error": {"code": self.code, "message": self.message, **self.extra}}


def table_error(e: TableError) -> ApiError:
    """The table's refusal as an API error (its status from :data:`STATUS`)."""
    return ApiError(STATUS.get(e.code, 409), e.code, str(e), **e.extra)


def rules_error(e: RuleboxError, text: str) -> ApiError:
    """The rules' refusal of move text as an API error."""
    if isinstance(e, GameOverError):
        return ApiError(409, "game_over", str(e))
    if isinstance(e, IllegalMoveError):
        return ApiError(422, "illegal", str(e), rule=e.rule, reason=e.reason)
    if isinstance(e, AmbiguousMoveError):
        return ApiError(400, "ambiguous", str(e))
    if isinstance(e, InvalidMoveError | StateError):
        return ApiError(400, "malformed", str(e))
    return ApiError(400, "malformed", str(e) or f"{text[:40]!r} is not a move of this game")
