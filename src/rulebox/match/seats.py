"""Who sits at a table: a person at this screen (:attr:`SeatKind.PERSON`), a person elsewhere
(:attr:`SeatKind.REMOTE`, e.g. a browser with its own token) or the computer with an
:class:`~rulebox.match.agents.AgentSpec`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from rulebox.match.agents import PERSON_NAMES, AgentSpec


class SeatKind(StrEnum):
    """Who plays a seat."""

    PERSON = "person"
    """A person at this screen (the terminal, a hot-seat browser)."""
    REMOTE = "remote"
    """A person elsewhere (their own browser and token)."""
    COMPUTER = "computer"
    """An agent."""


@dataclass(frozen=True)
class Seat:
    """One seat: its kind, the agent of a computer seat, and a label for people to read."""

    kind: SeatKind
    agent: AgentSpec | None = None
    label: str = ""

    @classmethod
    def person(cls, label: str = "human") -> Seat:
        return cls(SeatKind.PERSON, None, label)

    @classmethod
    def remote(cls, label: str = "human") -> Seat:
        return cls(SeatKind.REMOTE, None, label)

    @classmethod
    def computer(cls, spec: AgentSpec | str, label: str | None = None) -> Seat:
        s = AgentSpec.parse(spec) if isinstance(spec, str) else spec
        return cls(SeatKind.COMPUTER, s, label if label is not None else f"computer ({s.name})")

    @classmethod
    def parse(cls, text: str, game_id: str, *, remote: bool = False) -> Seat:
        """A seat from text: ``human`` (also ``person``, ``me``) or an agent spec (checked
        by making the agent once; ``computer`` is the game's strongest agent)."""
        word = text.strip().lower()
        if word in PERSON_NAMES:
            return cls.remote() if remote else cls.person()
        spec = AgentSpec.parse(text)
        level = spec.name if text.strip().lower().startswith("computer:") else None
        resolved = spec.check(game_id)
        label = (f"computer ({level})" if level else
                 "computer" if spec.is_computer_default else f"computer ({resolved.name})")
        return cls(SeatKind.COMPUTER, resolved, label)

    @property
    def is_computer(self) -> bool:
        return self.kind == SeatKind.COMPUTER

    @property
    def is_person(self) -> bool:
        return self.kind != SeatKind.COMPUTER

    @property
    def spec_text(self) -> str:
        """``human`` or the agent spec (what records list as the players)."""
        return self.agent.label if self.agent is not None else "human"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind.value, "agent": self.spec_text if self.agent else None,
                "label": self.label}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Seat:
        kind = SeatKind(data["kind"])
        agent = data.get("agent")
        return cls(kind, AgentSpec.parse(agent) if agent else None, str(data.get("label", "")))
