"""A table's texts kept to be said in each reader's language (:class:`Words`), the seats as
people read them, and the table's events (moves, announcements, draws, endings)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rulebox.i18n import N_, _, language, ngettext


def ngettext_noop(singular: str, plural: str) -> tuple[str, str]:
    """Mark a plural message for the catalogue without translating it now (extracted like
    ``ngettext``; translated where shown, see :class:`Words`)."""
    return singular, plural


LEVEL_WORDS: dict[str, str] = {"easy": N_("easy"), "medium": N_("medium"), "hard": N_("hard"),
                               "best": N_("best")}
"""The computer's levels (``rulebox.ai.levels``) as a reader says them: a seat played by a
level reads ``dark (schwer)``; an agent's own name (``mcts``) stays as it is."""


@dataclass(frozen=True)
class SeatRef:
    """A seat as people read it (``dark (mcts)``: the seat's name, then who sits there;
    ``player 1 (mcts)`` only for a seat the game does not name), written in the language of the
    context that shows it: the table keeps these, never the words of one language."""

    player: int
    seat_name: str
    """The game's English name of the seat (a message id: ``dark``), ``""`` when it is only
    ``player N``."""
    who: str
    """``you``, ``person`` or the agent's name."""

    def __str__(self) -> str:
        who = _(self.who) if self.who in ("you", "person") or self.who in LEVEL_WORDS \
            else self.who
        if not self.seat_name:
            return _("player {n} ({who})").format(n=self.player, who=who)
        return _("{seat} ({who})").format(seat=_(self.seat_name), who=who)

    def to_json(self) -> list[Any]:
        return [self.player, self.seat_name, self.who]


@dataclass(frozen=True)
class SeatList:
    """Seats joined with ``and`` in the language that shows them."""

    seats: tuple[SeatRef, ...]

    def __str__(self) -> str:
        return _(" and ").join(str(s) for s in self.seats)


@dataclass(frozen=True)
class Words:
    """A table's text kept as its English message id and parameters, so that each reader sees
    it in their own language (a saved table, or a server's table read in several): translated
    when :meth:`shown` (``plural`` with ``ngettext`` on the parameter ``n``). Parameters are
    numbers, text that is no language (moves, agent names, an exception's text),
    :class:`SeatRef` and :class:`SeatList`. A game's own line (an announcement, made by the
    game in the current language) is kept as ``said`` in every shipped language, its English as
    ``msgid`` (:meth:`Table.said`)."""

    msgid: str
    params: tuple[tuple[str, Any], ...] = ()
    plural: str = ""
    said: tuple[tuple[str, str], ...] = ()

    def shown(self) -> str:
        """The text in the current language."""
        if self.said:
            return dict(self.said).get(language(), self.msgid)
        values = dict(self.params)
        if self.plural:
            text = ngettext(self.msgid, self.plural, int(values.get("n", 1)))
        else:
            text = _(self.msgid)
        try:
            return text.format(**values)
        except (KeyError, IndexError, ValueError):  # a broken translation: the English
            return self.msgid.format(**values)

    def to_json(self) -> dict[str, Any]:
        def value(v: Any) -> Any:
            if isinstance(v, SeatRef):
                return {"seat": v.to_json()}
            if isinstance(v, SeatList):
                return {"seats": [s.to_json() for s in v.seats]}
            return v

        out: dict[str, Any] = {"msgid": self.msgid,
                               "params": {k: value(v) for k, v in self.params}}
        if self.plural:
            out["plural"] = self.plural
        if self.said:
            out["said"] = dict(self.said)
        return out

    @classmethod
    def from_json(cls, data: Any) -> Words | None:
        """The inverse of :meth:`to_json`; ``None`` for anything else (an older table)."""
        if not isinstance(data, dict) or not isinstance(data.get("msgid"), str):
            return None

        def seat(x: Any) -> SeatRef:
            return SeatRef(int(x[0]), str(x[1]), str(x[2]))

        params: list[tuple[str, Any]] = []
        raw = data.get("params")
        for k, v in (raw.items() if isinstance(raw, dict) else ()):
            try:
                if isinstance(v, dict) and "seat" in v:
                    v = seat(v["seat"])
                elif isinstance(v, dict) and "seats" in v:
                    v = SeatList(tuple(seat(x) for x in v["seats"]))
                elif not isinstance(v, (str, int, float)):
                    return None
            except (TypeError, ValueError, IndexError, KeyError):
                return None
            params.append((str(k), v))
        said = data.get("said")
        lines = tuple((str(k), str(v)) for k, v in said.items()) if isinstance(said, dict) else ()
        return cls(data["msgid"], tuple(params), str(data.get("plural") or ""), lines)


@dataclass(frozen=True)
class Event:
    """Something the table announces: ``kind`` (``move``, ``bonus_move``, ``skipped``,
    ``token``, ``objective``, ``undo``, ``reshuffle``, ``draw_offer``, ``draw_declined``,
    ``draw_agreed``, ``resigned``, ``agent_error``, ``game_over``, ``flag`` (a loss on time);
    the server adds ``joined``, ``left``, ``back``, ``expired``), a line for people, the
    player it concerns, the ply it happened at and its number in the table's event list."""

    index: int
    kind: str
    text: str
    player: int | None = None
    ply: int = 0
    words: Words | None = field(default=None, compare=False)
    """The line kept as a message id and parameters when the table made it (:class:`Words`):
    ``text`` is the line in the language of the context that made it, :meth:`shown` (and the
    ``text`` of :meth:`to_json`, which payloads are built from) says it in the current one."""

    def shown(self) -> str:
        """The line in the current language."""
        return self.words.shown() if self.words is not None else self.text

    def to_json(self) -> dict[str, Any]:
        out = {"index": self.index, "kind": self.kind, "text": self.shown(),
               "player": self.player, "ply": self.ply}
        if self.words is not None:
            out["words"] = self.words.to_json()
        return out

    @property
    def is_announcement(self) -> bool:
        """Whether it says what a move did beyond itself (the rules' announcements)."""
        return self.kind in ("bonus_move", "skipped", "three", "token", "objective",
                             "announcement")
