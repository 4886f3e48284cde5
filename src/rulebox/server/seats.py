"""The seats of a server's game as stored: a person with a secret token (only its SHA-256 is
kept) or the computer with its agent spec, within the server's caps."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from rulebox.core.errors import RuleboxError
from rulebox.i18n import _
from rulebox.match.agents import AgentSpec
from rulebox.match.seats import Seat
from rulebox.server.errors import ApiError
from rulebox.server.limits import Limits


def hash_token(token: str) -> str:
    """What is stored of a seat's token."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


@dataclass
class SeatRecord:
    """A seat as stored: ``human`` (with its token's hash) or ``computer`` (its agent spec)."""

    kind: str  # "human" | "computer" | "open" (a free seat of an open game, issue 27)
    token_hash: str | None = None
    agent: str | None = None
    label: str = "human"
    name: str | None = None
    """The player's name (issue 27: accounts and guests); ``None`` for an unnamed seat."""
    guest: bool = False

    def to_record(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "token_hash": self.token_hash,
                               "agent": self.agent, "label": self.label}
        if self.name is not None:
            out.update(name=self.name, guest=self.guest)
        return out

    @classmethod
    def from_record(cls, data: dict[str, Any]) -> SeatRecord:
        agent = data.get("agent")
        settings = data.get("settings") or {}
        if agent and settings:  # stored before agent specs: a name and a settings object
            agent = AgentSpec(str(agent), tuple((str(k), str(v))
                                                for k, v in settings.items())).label
        return cls(data["kind"], data.get("token_hash"), agent, data.get("label", data["kind"]),
                   data.get("name"), bool(data.get("guest", False)))

    def seat(self, hotseat: bool, limits: Limits | None = None) -> Seat:
        """The table's seat: a person at this screen (hot-seat) or elsewhere, or the agent
        (within ``limits``' caps: a game stored before them thinks no longer than they allow)."""
        if self.kind == "computer":
            spec = AgentSpec.parse(self.agent or "computer")
            if limits is not None:
                spec = limits.cap(spec, strict=False)
            return Seat.computer(spec, self.label)
        return Seat.person() if hotseat else Seat.remote()


def resolve_seat(spec: Any, game_id: str, limits: Limits | None = None) -> SeatRecord:
    """Read a seat of ``POST /api/games``: ``human`` or an agent spec
    (:mod:`rulebox.match.agents`): ``computer`` (the strongest agent), ``computer:easy`` (the
    lobby's levels), ``mcts:time=1,iterations=500``. A bad spec, or one above ``limits``' caps,
    is refused with 400; the stored spec always has a ``time=``."""
    if not isinstance(spec, str) or not spec.strip() or len(spec) > 100:
        raise ApiError(400, "bad_seat", _("a seat is 'human', 'computer' or an agent spec"))
    try:
        seat = Seat.parse(spec, game_id, remote=True)
        agent = seat.agent
        if agent is not None and limits is not None:
            agent = limits.cap(agent, strict=True)
            agent.make(game_id)
    except RuleboxError as e:
        raise ApiError(400, "bad_seat", str(e)) from None
    if not seat.is_computer:
        return SeatRecord("human")
    assert agent is not None
    return SeatRecord("computer", agent=agent.label, label=seat.label)
