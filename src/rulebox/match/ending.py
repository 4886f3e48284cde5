"""How a game ended (:class:`Ending`): by the rules (the game's typed
:class:`~rulebox.core.game.Outcome`) or at the table (resigned, agreed, time, forfeit, expired),
with its :class:`~rulebox.core.game.Termination` and rule ID; and the table's refusals."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rulebox.core.errors import RuleboxError
from rulebox.core.game import Outcome, Termination
from rulebox.i18n import _
from rulebox.match.words import Words


@dataclass(frozen=True)
class Ending:
    """How the game ended: by the rules (``outcome``), or at the table (``resigned``,
    ``agreed``, ``time``, ``forfeit`` after an agent error, ``expired``): ``how`` is its
    :class:`Termination`, ``rule`` the rule ID that decided it (the rules' own, or the rule an
    agent's illegal answer broke), ``None`` where no rule did."""

    how: Termination
    reason: str
    winners: tuple[int, ...] = ()
    outcome: Outcome | None = None
    words: Words | None = field(default=None, compare=False)
    """The reason kept as a message id and parameters (the table's own endings: resigned,
    agreed, time, forfeit), see :class:`Words`."""
    rule: str | None = None

    @classmethod
    def of(cls, outcome: Outcome) -> Ending:
        """The ending the rules' ``outcome`` makes."""
        return cls(outcome.termination, outcome.reason, outcome.winners, outcome,
                   rule=outcome.rule)

    @property
    def by_rules(self) -> bool:
        """Whether the rules ended the game (not the table)."""
        return self.how == Termination.RULES

    def shown(self) -> str:
        """The reason in the current language (the reason as made when there are no words)."""
        return self.words.shown() if self.words is not None else _(self.reason)

    def result_line(self) -> str:
        """The engine protocol's result text (``over winner=...``)."""
        if self.outcome is not None:
            return self.outcome.result_line()
        who = ",".join(map(str, self.winners)) if self.winners else "none"
        return f"over winner={who}"

    def as_outcome(self) -> Outcome:
        """The ending as the protocol's typed :class:`Outcome`."""
        return self.outcome or Outcome(self.winners, None, self.reason, self.rule, self.how)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"how": str(self.how), "reason": self.reason,
                               "winners": list(self.winners)}
        if self.words is not None:
            out["words"] = self.words.to_json()
        if self.rule is not None:
            out["rule"] = self.rule
        return out

    @classmethod
    def from_json(cls, data: Any) -> Ending:
        """The inverse of :meth:`to_json` (a table's own ending)."""
        return cls(Termination(str(data["how"])), str(data["reason"]),
                   tuple(data.get("winners") or ()), words=Words.from_json(data.get("words")),
                   rule=str(data["rule"]) if data.get("rule") else None)


class TableError(RuleboxError):
    """A request the table refuses; ``code`` names why (the server maps it to a status)."""

    def __init__(self, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.code = code
        self.extra = extra


class StaleVersion(TableError):
    """A move made on a version that is no longer current."""

    def __init__(self, given: int, current: int) -> None:
        super().__init__("stale", _("the game has changed (version {current}, the move was made "
                                    "on {given}); look again").format(current=current,
                                                                       given=given),
                         version=current)
        self.current = current


class AgentFailure(RuleboxError):
    """An agent answered an illegal move (the table's failure policy: the seat forfeits);
    ``rule`` is the rule the move broke, where the rules named one."""

    def __init__(self, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.rule = rule
