"""The table: one game with its seats and everything around the rules, written once.

Every surface drives a :class:`Table` and only translates: the terminal (``rulebox play``), the
server (:mod:`rulebox.server.service`), tournaments (:mod:`rulebox.match.tournament`) and the
engine's ``genmove``. boardgame.io's ``Master`` is the model: before anything touches the game
the table checks that the game goes on, that the seat is the one to move and that the move was
made on the current version.

What the table owns:

- **Seats**: a person at this screen (:attr:`SeatKind.PERSON`), a person elsewhere
  (:attr:`SeatKind.REMOTE`, e.g. a browser with its own token) or the computer with an
  :class:`~rulebox.match.agents.AgentSpec`.
- **Versions**: every change (a move, an undo, a draw offer or answer, a resignation) adds one.
  A move may name the version it was made on; a stale one is refused with
  :class:`StaleVersion` (the server answers 409 with the current version), so a double click or
  a retry of one action of a multi-action turn cannot be applied twice.
- **The computer's turn**: one loop (:meth:`Table.play_computers`, or :meth:`decision` /
  :meth:`play_decision` for a surface that thinks elsewhere). ``time=`` is the budget of the
  whole turn (:class:`rulebox.ai.budget.TurnClock`). **Failure policy**: an agent that raises
  (or answers an illegal move) is never replaced by another move: the failure is logged (logger
  ``rulebox.match``, with the traceback), announced as an ``agent_error`` event, and ends the
  game: the failing seat forfeits (the others win; a solitaire is lost). Same at the terminal,
  on the server and in tournaments.
- **Undo** back to the asking person's last decision, against the computer or at a table whose
  other people share the screen (not against a remote person). **Undo never reveals the
  future**: in a game with hidden information the table then calls
  ``game.reshuffle_unseen(rng)`` with fresh randomness it records (the seed in :attr:`log`), so
  the next draw is a new draw; the record marks that takebacks happened. (Search keeps its
  exact ``Game.undo``; this is the table's policy.)
- **Resign; draw offers**: a person answers; the computer accepts by one rule,
  :meth:`computer_accepts_draw`. A move lets a pending offer lapse.
- **Rematch**, one seed policy: a fresh shuffle (a new seed from OS randomness; the
  ``deck=`` and ``roles=`` options dropped, so cards and Officia roles are dealt anew) unless the
  players ask for the same deal; the game's own rule first where it has one (Count Red, CR-15:
  the loser starts, parities swap).
- **Fair deals** (:mod:`rulebox.match.fairness`): a table may hold a :class:`Deal`, the
  commitment to its hidden order; its reshuffles after an undo are then drawn from the deal's
  key, so that the reveal at the end accounts for every card. :attr:`arranged` says that the
  creator fixed the deal (``seed=`` or ``deck=``).
- **Clocks** (issue 17, :mod:`rulebox.match.clock`): an optional time control (``5+3`` or
  ``3d``) driven by :attr:`Table.time_source`. The clock starts with the first move (the first
  turn is not timed), a computer's clock does not run, and a fallen flag (:meth:`check_time`,
  also checked before every move) ends the game with ``Ending`` how ``"time"``: that seat
  loses, the other side wins (with more than two players everyone else). An undo is refused
  once the game is over, however it ended (``game_over``).
- **Announcements** as :class:`Event` values (bonus move, skipped player, token earned,
  objective completed; :mod:`rulebox.match.announce`), numbered so a surface shows each once.
"""

from __future__ import annotations

import json
import logging
import random
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from rulebox.ai.budget import DEFAULT_TIME, TurnClock, more_decisions_follow
from rulebox.core.errors import IllegalMoveError, RuleboxError, StateError
from rulebox.core.game import TERMINAL, Game, Termination
from rulebox.core.numerals import plain_digits
from rulebox.core.registry import game_entry, new_game
from rulebox.i18n import LANGUAGES, N_, _, ngettext, use_language
from rulebox.match.agents import AgentSpec
from rulebox.match.announce import announcer, kind_of
from rulebox.match.clock import Clock
from rulebox.match.ending import AgentFailure, Ending, StaleVersion, TableError
from rulebox.match.fairness import Deal, reshuffle_seed, server_seed
from rulebox.match.records import Record
from rulebox.match.replay import movers_of, position_at, replay_log, replay_movers
from rulebox.match.seats import Seat, SeatKind
from rulebox.match.words import Event, SeatList, SeatRef, Words, ngettext_noop

__all__ = [
    "AgentFailure", "Decision", "Ending", "Event", "Seat", "SeatKind", "SeatList", "SeatRef",
    "StaleVersion", "Table", "TableError", "Words", "ngettext_noop", "position_at",
    "replay_log",
]

log = logging.getLogger("rulebox.match")

TABLE_FORMAT = 1
DRAW_PLAYOUTS = 200
"""Random playouts behind the computer's answer to a draw offer."""
DRAW_THRESHOLD = -0.1
"""The computer accepts a draw when its mean playout return is below this."""
SEED_LIMIT = 2**62


@dataclass(frozen=True)
class Decision:
    """One decision of a computer seat: who, with which agent and settings (its share of the
    turn's clock and its seed already in ``spec``), on which version."""

    player: int
    spec: AgentSpec
    version: int


@dataclass
class Table:
    """A game, its seats and the life of the game around the rules (see the module text)."""

    game: Game
    seats: list[Seat]
    seed: int = field(default_factory=lambda: secrets.randbits(128))
    version: int = 0
    ending: Ending | None = None
    draw_offer: int | None = None
    takeback_offer: int | None = None
    """The seat asking the others to let it take back its last turn (issue 27)."""
    events: list[Event] = field(default_factory=list)
    movers: list[int] = field(default_factory=list)
    log: list[str] = field(default_factory=list)
    """Every change to the game in order: a move, ``!undo``, ``!reshuffle SEED``; replaying it
    from the options rebuilds the game exactly, reshuffles included."""
    takebacks: int = 0
    started: str = field(default_factory=lambda: _now())
    deal: Deal | None = None
    """The commitment to the hidden order (:mod:`rulebox.match.fairness`), if one was made."""
    arranged: bool = False
    """Whether the creator fixed the deal (``seed=`` or ``deck=``): every seat is told."""
    clock: Clock | None = None
    """The time control's clock (:mod:`rulebox.match.clock`), ``None`` for an untimed game."""
    time_source: Callable[[], float] = field(default=time.time, repr=False, compare=False)
    """Where the table reads the time (epoch seconds) for its clock; tests pass their own."""
    updated: str = field(default_factory=lambda: _now())
    """When the table last changed (ISO time)."""
    rng: random.Random = field(init=False, repr=False)
    _clock: tuple[int, int, TurnClock] | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        if len(self.seats) != self.game.num_players:
            raise TableError("bad_seats", ngettext(
                "{title} has {num_players} seat, not {n_seats}",
                "{title} has {num_players} seats, not {n_seats}", self.game.num_players).format(
                    title=self.entry.title, num_players=self.game.num_players,
                    n_seats=len(self.seats)))
        self.rng = random.Random(self.seed)
        if not self.movers and self.game.history:
            self.movers = movers_of(self.game)
        if not self.log:
            self.log = [str(m) for m in self.game.history]
        self._check_end()

    # --- construction -------------------------------------------------------------------------
    @classmethod
    def new(cls, game_id: str, options: Mapping[str, Any], seats: Sequence[Seat],
            seed: int | None = None) -> Table:
        """A table for a new game of ``game_id`` with ``options``."""
        game = new_game(game_id, options)
        return cls(game, list(seats), secrets.randbits(128) if seed is None else seed)

    @property
    def entry(self) -> Any:
        return game_entry(self.game.id)

    # --- reading ------------------------------------------------------------------------------
    def over(self) -> bool:
        """Whether the game has ended (by the rules or at the table)."""
        return self.ending is not None

    def to_move(self) -> int | None:
        """The seat to move, or ``None`` when the game is over."""
        if self.ending is not None:
            return None
        p = self.game.current_player()
        return None if p == TERMINAL else p

    def computer_to_move(self) -> int | None:
        """The seat to move if it is a computer's."""
        p = self.to_move()
        return p if p is not None and self.seats[p].is_computer else None

    def players(self) -> list[str]:
        """Each seat as a record lists it: ``human`` or the agent spec."""
        return [s.spec_text for s in self.seats]

    def events_since(self, index: int) -> list[Event]:
        """The events numbered ``index`` and later."""
        return [e for e in self.events if e.index >= index]

    def announcements(self, since: int = 0) -> list[Event]:
        """The rules' announcements among the events since ``since``."""
        return [e for e in self.events_since(since) if e.is_announcement]

    def event(self, kind: str, text: str | Words, player: int | None = None) -> Event:
        """Add an event (not a change of the game: no new version), e.g. the server's presence
        notices; ``text`` as :class:`Words` is said in each reader's language."""
        words = text if isinstance(text, Words) else None
        line = text.shown() if isinstance(text, Words) else text
        ev = Event(len(self.events), kind, line, player, len(self.game.history), words)
        self.events.append(ev)
        return ev

    @staticmethod
    def said(make: Callable[[], list[str]]) -> list[Words]:
        """Lines a game makes in the current language (its announcements), made in every shipped
        language, so that each reader of the table sees them in theirs (issue 23): as
        :class:`Words` with the English line as the id and each language's in ``said``."""
        with use_language("en"):
            english = list(make())
        if not english:  # most moves announce nothing: asked once
            return []
        made: dict[str, list[str]] = {"en": english}
        for lang in LANGUAGES[1:]:
            with use_language(lang):
                made[lang] = list(make())
        if any(len(lines) != len(english) for lines in made.values()):
            return [Words(line) for line in english]  # a hook that says more in one language
        return [Words(line, said=tuple((lang, made[lang][i]) for lang in LANGUAGES))
                for i, line in enumerate(english)]

    def words(self, msgid: str | tuple[str, str], **params: Any) -> Words:
        """A table text: ``msgid`` (marked with ``N_``, or :func:`ngettext_noop` for a plural
        on ``n``) and its parameters; ``name``/``who`` given as a seat number are kept as the
        seat (:class:`SeatRef`), as a tuple of seat numbers as :class:`SeatList`."""
        values: list[tuple[str, Any]] = []
        for k, v in params.items():
            if k in ("name", "who") and isinstance(v, int):
                v = self.seat_ref(v)
            elif k in ("name", "who") and isinstance(v, tuple):
                v = SeatList(tuple(self.seat_ref(q) for q in v))
            values.append((k, v))
        if isinstance(msgid, tuple):
            return Words(msgid[0], tuple(values), msgid[1])
        return Words(msgid, tuple(values))

    def _bump(self) -> None:
        self.version += 1
        self.updated = _now()
        if self.ending is not None and self.clock is not None and self.clock.running is not None:
            self.clock.stop(self.time_source())  # an ending stops the clock

    def _check_end(self) -> None:
        if self.ending is None and self.game.is_terminal():
            outcome = self.game.outcome()
            if outcome is not None:
                self.ending = Ending.of(outcome)
                self.draw_offer = None
                self.event("game_over", outcome.reason)

    # --- moves --------------------------------------------------------------------------------
    def check_version(self, version: int | None) -> None:
        """Refuse a request made on another version than the current one."""
        if version is not None and version != self.version:
            raise StaleVersion(version, self.version)

    def play(self, seat: int | None, move: Any, *, version: int | None = None) -> Any:
        """Play ``move`` (text or value) for ``seat`` (``None``: whoever is to move, as at a
        one-screen table); answers the move value. Refused, with nothing changed, when the game
        is over, it is not ``seat``'s turn, ``version`` is stale or the rules say no."""
        self.check_version(version)
        self.check_time()
        p = self.to_move()
        if p is None:
            raise TableError("game_over", _("the game is over"))
        if seat is not None and seat != p:
            raise TableError("not_your_turn",
                             _("it is player {p}'s turn ({seat_name})").format(
                                 p=p, seat_name=_(self.entry.seat_name(p))))
        value = self.game.parse(move) if isinstance(move, str) else move
        if not isinstance(move, str):
            self.game.check_move(value)
        self._apply(p, value)
        return value

    def _apply(self, p: int, move: Any) -> None:
        hook = announcer(self.game.id)
        before = self.game.position_json() if hook is not None else None
        self.game.apply_unchecked(move)
        self.movers.append(p)
        self.log.append(str(move))
        self._bump()
        self.draw_offer = None  # a move lets a pending offer lapse
        self.takeback_offer = None
        self.event("move", self.words(N_("{name} plays {move}"), name=p, move=str(move)), p)
        if hook is not None and before is not None:
            for words in self.said(lambda: hook(self.game, p, before)):
                self.event(kind_of(words.msgid), words, p)
        if self._clock is not None and self.game.current_player() != self._clock[0]:
            self._clock = None
        self._check_end()
        self._clock_after_move(p)

    # --- the time control ---------------------------------------------------------------------
    def _clock_after_move(self, p: int) -> None:
        """After a move of ``p``: when the turn passed on, ``p``'s time stops (the increment
        added) and the next person's runs; a computer's clock does not run (module
        :mod:`rulebox.match.clock`). The first turn of the game is not timed."""
        c = self.clock
        if c is None:
            return
        nxt = self.to_move()
        if nxt == p:
            return  # a multi-action turn goes on
        runs = nxt if nxt is not None and self.seats[nxt].is_person else None
        c.end_turn(p, runs, self.time_source())

    def _restart_clock(self) -> None:
        """After an undo: the time so far is charged, and the seat to move runs from now."""
        c = self.clock
        if c is None:
            return
        now = self.time_source()
        c.stop(now)
        p = self.to_move()
        if p is not None and self.seats[p].is_person and len(self.game.history) > 0:
            c.start(p, now)

    def check_time(self, now: float | None = None) -> Ending | None:
        """End the game if the running seat's time ran out by ``now`` (the table's time
        source when ``None``): ``Ending`` how ``"time"``, that seat loses and the other side
        wins (everyone else with more than two players; a solitaire is lost). Answers the
        ending, or ``None`` when no flag fell."""
        c = self.clock
        if c is None or self.ending is not None:
            return None
        now = self.time_source() if now is None else now
        p = c.flagged(now)
        if p is None:
            return None
        c.stop(now)
        winners = tuple(self.opponents(p)) if self.game.num_players > 1 else ()
        if winners:
            words = self.words(ngettext_noop("{name} ran out of time; {who} wins",
                                              "{name} ran out of time; {who} win"),
                                name=p, who=winners, n=len(winners))
        else:
            words = self.words(N_("{name} ran out of time"), name=p)
        self.ending = Ending(Termination.TIME, words.shown(), winners, words=words)
        self.draw_offer = None
        self._bump()
        self.event("flag", words, p)
        return self.ending

    # --- the computer -------------------------------------------------------------------------
    def decision(self) -> Decision | None:
        """The next decision of a computer seat (``None`` if no computer is to move): the
        agent with its share of the turn's clock as ``time=`` and a seed of this seat and ply."""
        p = self.computer_to_move()
        if p is None:
            return None
        spec = self.seats[p].agent
        assert spec is not None  # a computer seat always has a spec (Seat.computer)
        spec = spec.resolve(self.game.id)
        extra: dict[str, str] = {}
        base = spec.get("seed")
        seed = int(base) if base is not None and plain_digits(base) else p
        extra["seed"] = str((seed * 1_000_003 + len(self.game.history) * 7919
                             + self.seed) % SEED_LIMIT)
        timed = spec.get("time") is not None
        if spec.get("iterations") is None or timed:
            start = self._turn_start(p)
            fresh = (self._clock is None or self._clock[:2] != (p, start)
                     or self._clock[2].restarts())
            if fresh and not timed and not more_decisions_follow(self.game):
                pass  # a turn of one decision and no clock given: the agent's own default
            else:
                if fresh:
                    self._clock = (p, start, TurnClock(float(spec.get("time") or DEFAULT_TIME)))
                assert self._clock is not None
                extra["time"] = f"{self._clock[2].share(self.game):.3f}"
        return Decision(p, spec.with_settings(extra, override=True), self.version)

    def _turn_start(self, p: int) -> int:
        """The ply at which ``p``'s current turn began."""
        n = len(self.movers)
        while n > 0 and self.movers[n - 1] == p:
            n -= 1
        return n

    def play_decision(self, decision: Decision, move: Any) -> Any:
        """Play the move an agent chose for ``decision``; an illegal answer is an agent
        failure (the policy above). A decision made on an old version is refused
        (:class:`StaleVersion`): think again."""
        self.check_version(decision.version)
        try:
            value = self.game.parse(move) if isinstance(move, str) else move
            if not isinstance(move, str):
                self.game.check_move(value)
        except RuleboxError as e:
            self.fail(decision, AgentFailure(_("answered an illegal move {move!r}: {error}").format(
                move=str(move)[:60], error=e), e.rule if isinstance(e, IllegalMoveError) else None))
            return None
        self._apply(decision.player, value)
        return value

    def fail(self, decision: Decision, error: BaseException) -> Ending:
        """The failure policy: log it, announce it, and the failing seat forfeits."""
        p = decision.player
        log.error("agent %s failed for player %d of a %s game at ply %d: %s",
                  decision.spec.label, p, self.game.id, len(self.game.history), error,
                  exc_info=error if not isinstance(error, AgentFailure) else None)
        words = self.words(N_("{name} ({agent}) failed: {error}"), name=p,
                            agent=decision.spec.name,
                            error=f"{type(error).__name__}: {error}"[:240])
        self.event("agent_error", words, p)
        n = self.game.num_players
        winners = tuple(q for q in self.opponents(p)) if n > 1 else ()
        rule = error.rule if isinstance(error, AgentFailure) else None
        self.ending = Ending(Termination.FORFEIT, words.shown(), winners, words=words,
                             rule=rule)
        self.draw_offer = None
        self._bump()
        return self.ending

    def think(self, decision: Decision) -> Any:
        """Let the agent of ``decision`` choose, in this process (from a clone)."""
        agent = decision.spec.make(self.game.id)
        return agent.choose(self.game.clone())

    def play_computers(self, *, stop_at_person: bool = True, limit: int | None = None) -> list[Any]:
        """The computer's turn, in one loop: play computer decisions until a person is to move
        or the game ends (``limit``: at most that many). Answers the moves played."""
        played: list[Any] = []
        while (d := self.decision()) is not None and (limit is None or len(played) < limit):
            try:
                move = self.think(d)
            except Exception as e:  # the failure policy: reported, never replaced
                self.fail(d, e)
                break
            value = self.play_decision(d, move)
            if value is None:
                break
            played.append(value)
        return played

    # --- undo ---------------------------------------------------------------------------------
    def may_undo(self, seat: int | None) -> bool:
        """Whether ``seat`` may take moves back: a person, with no remote person at the table
        (against the computer, or people sharing this screen)."""
        if seat is None or not 0 <= seat < len(self.seats) or not self.seats[seat].is_person:
            return False
        return all(s.kind != SeatKind.REMOTE for i, s in enumerate(self.seats) if i != seat)

    def can_undo(self, seat: int | None) -> bool:
        """Whether an undo by ``seat`` would take something back now."""
        if not self.may_undo(seat) or self.ending is not None:
            return False
        return any(self.seats[m].is_person for m in self.movers[self.game.undo_floor:])

    def undo(self, seat: int | None, *, version: int | None = None) -> list[str]:
        """Take back moves until the last decision of a person is undone (the asker's, against
        the computer; the last person's, at a shared screen); answers the moves taken back, last
        first. In a game with hidden information the unseen cards are then reshuffled."""
        self.check_version(version)
        if seat is None:
            seat = next((i for i, s in enumerate(self.seats) if s.is_person), None)
        if not self.may_undo(seat):
            raise TableError("no_undo", _("moves can be taken back only against the "
                                          "computer or at a table whose people share "
                                          "the screen"))
        if self.ending is not None:  # an undo never un-finishes a game (issue 17)
            raise TableError("game_over", _("the game ended: {reason}").format(
                                              reason=self.ending.reason))
        if not self.can_undo(seat):
            raise TableError("nothing_to_undo", _("there is no move of yours to undo"))
        undone: list[str] = []
        while self.movers:
            mover = self.movers.pop()
            undone.append(str(self.game.undo()))
            self.log.append("!undo")
            if self.seats[mover].is_person:
                break
        self.draw_offer = None
        self._clock = None
        self._restart_clock()
        self.takebacks += 1
        self._bump()
        self.event("undo", "took back " + ", ".join(undone), seat)
        if self.game.has_hidden_information:
            self._reshuffle()
        return undone

    def _reshuffle(self) -> None:
        """Fresh, recorded randomness for the cards still unseen (``reshuffle_unseen``)."""
        if self.deal is not None:
            seed = reshuffle_seed(self.deal.key, sum(s.startswith("!reshuffle ")
                                                     for s in self.log))
        else:
            seed = self.rng.randrange(SEED_LIMIT)
        reshuffle = getattr(self.game, "reshuffle_unseen", None)
        if reshuffle is None:
            return
        reshuffle(random.Random(seed))
        self.log.append(f"!reshuffle {seed}")
        self.event("reshuffle", "the cards not yet seen are shuffled again")

    # --- resign and draws ---------------------------------------------------------------------
    def opponents(self, p: int) -> list[int]:
        """The other side: the other team in a four-seat team game, else everyone else."""
        n = self.game.num_players
        if n == 4 and getattr(self.game, "teams", True):
            return [q for q in range(n) if q % 2 != p % 2]
        return [q for q in range(n) if q != p]

    def resign(self, seat: int) -> Ending:
        """``seat`` gives up: the other side wins (a solitaire is lost)."""
        self._open(seat)
        winners = tuple(self.opponents(seat)) if self.game.num_players > 1 else ()
        if winners:
            words = self.words(ngettext_noop("{name} resigns; {who} wins",
                                              "{name} resigns; {who} win"),
                                name=seat, who=winners, n=len(winners))
        else:
            words = self.words(N_("{name} resigns"), name=seat)
        self.ending = Ending(Termination.RESIGNED, words.shown(), winners, words=words)
        self.draw_offer = None
        self._bump()
        self.event("resigned", words, seat)
        return self.ending

    def _open(self, seat: int) -> None:
        if self.ending is not None:
            raise TableError("game_over", _("the game is over"))
        if not 0 <= seat < len(self.seats) or not self.seats[seat].is_person:
            raise TableError("wrong_seat", _("only a person at the table may do that"))

    def offer_draw(self, seat: int) -> str:
        """``seat`` offers a draw: ``"agreed"`` (the other side had offered, or the computer
        accepts by :meth:`computer_accepts_draw`), ``"declined"`` (the computer declines) or
        ``"offered"`` (a person answers with :meth:`answer_draw`)."""
        self._open(seat)
        if self.game.num_players < 2:
            raise TableError("no_draw", _("a solitaire has no one to agree with"))
        if self.draw_offer is not None and self.draw_offer != seat:
            return self.agree()
        others = self.opponents(seat)
        if all(self.seats[q].is_computer for q in others):
            if all(self.computer_accepts_draw(q) for q in others):
                return self.agree()
            self._bump()
            self.event("draw_declined",
                        self.words(N_("{name} declines the draw"), name=others[0]), others[0])
            return "declined"
        self.draw_offer = seat
        self._bump()
        self.event("draw_offer", self.words(N_("{name} offers a draw"), name=seat), seat)
        return "offered"

    def answer_draw(self, seat: int, accept: bool) -> str:
        """A person answers the pending offer of the other side (or withdraws their own:
        ``accept`` false on one's own offer)."""
        self._open(seat)
        offer = self.draw_offer
        if offer is None:
            raise TableError("no_offer", _("there is no draw offer"))
        if accept:
            if offer == seat:
                raise TableError("no_offer", _("there is no draw offer of the other side"))
            return self.agree()
        self.draw_offer = None
        self._bump()
        said = (N_("{name} withdraws the draw offer") if offer == seat
                else N_("{name} declines the draw"))
        self.event("draw_declined", self.words(said, name=seat), seat)
        return "declined"

    # --- takebacks between people and abandoned games (issue 27) -------------------------------
    def _takeback_moves(self, seat: int) -> int:
        """How many moves a takeback of ``seat``'s last turn takes back (the other side's turn
        after it too); refused with ``no_takeback`` when the table has no takebacks (not two
        people) or ``seat`` has no turn to take back."""
        if len(self.seats) != 2 or not all(s.kind == SeatKind.REMOTE for s in self.seats):
            raise TableError("no_takeback", _("takebacks are between two people at two "
                                              "screens; against the computer use undo"))
        movers = self.movers[self.game._undo_floor:]
        n = len(movers)
        while n and movers[n - 1] != seat:
            n -= 1
        if n == 0:
            raise TableError("no_takeback", _("you have no move to take back"))
        while n and movers[n - 1] == seat:
            n -= 1
        return len(movers) - n

    def hidden_draw_since(self, count: int, tries: int = 3) -> bool:
        """Whether the last ``count`` moves revealed hidden information: replayed after the
        unseen cards were shuffled otherwise (``tries`` fixed orders), some seat's view (or the
        spectators') would differ, or a move would not go. Games without hidden information
        never do."""
        if not self.game.has_hidden_information or count == 0:
            return False
        moves = list(self.game.history[-count:])
        views = [json.dumps(self.game.view(p), sort_keys=True, default=str)
                 for p in [None, *range(self.game.num_players)]]
        start = self.game.clone()
        for _i in range(count):
            start.undo()
        reshuffle = getattr(start, "reshuffle_unseen", None)
        if reshuffle is None:
            return True  # cannot tell: refuse rather than leak
        for k in range(tries):
            other = start.clone()
            reshuffle(random.Random(7919 * (k + 1)))
            try:
                for m in moves:
                    other.apply(str(m))
            except RuleboxError:
                return True
            if [json.dumps(other.view(p), sort_keys=True, default=str)
                    for p in [None, *range(other.num_players)]] != views:
                return True
        return False

    def ask_takeback(self, seat: int) -> str:
        """``seat`` asks to take back its last turn; the other person answers with
        :meth:`answer_takeback`. Refused across a hidden draw (``hidden_draw``)."""
        self._open(seat)
        count = self._takeback_moves(seat)
        if self.hidden_draw_since(count):
            raise TableError("hidden_draw", _("a card or tile was revealed since that move: "
                                              "it cannot be taken back"))
        self.takeback_offer = seat
        self._bump()
        self.event("takeback_offer",
                    self.words(N_("{name} asks to take back a move"), name=seat), seat)
        return "asked"

    def answer_takeback(self, seat: int, accept: bool) -> str:
        """The other person accepts (the asker's last turn, and the answerer's turn after it,
        are taken back) or declines; the asker may withdraw (``accept`` false)."""
        self._open(seat)
        asker = self.takeback_offer
        if asker is None or (accept and asker == seat):
            raise TableError("no_request", _("there is no takeback request to answer"))
        self.takeback_offer = None
        if not accept:
            self._bump()
            said = (N_("{name} withdraws the takeback request") if asker == seat
                    else N_("{name} declines the takeback"))
            self.event("takeback_declined", self.words(said, name=seat), seat)
            return "declined"
        count = self._takeback_moves(asker)
        if self.hidden_draw_since(count):
            self._bump()
            raise TableError("hidden_draw", _("a card or tile was revealed since that move: "
                                              "it cannot be taken back"))
        for _i in range(count):
            self.movers.pop()
            self.game.undo()
            self.log.append("!undo")
        self.draw_offer = None
        self._clock = None
        self._restart_clock()
        self.takebacks += 1
        self._bump()
        self.event("takeback", self.words(N_("{name} takes back the last turn"),
                                            name=asker), asker)
        return "taken"

    def cancel(self) -> Ending:
        """End a game that has not started (an open game whose creator cancels it): nobody
        wins, nothing counts (``Ending`` how ``"cancelled"``)."""
        if self.ending is not None:
            raise TableError("game_over", _("the game is over"))
        words = self.words(N_("the game was cancelled before it started"))
        self.ending = Ending(Termination.CANCELLED, words.shown(), (), words=words)
        self._bump()
        self.event("cancelled", words)
        return self.ending

    def claim_abandoned(self, seat: int, draw: bool) -> Ending:
        """``seat`` ends the game its opponents left (the server decides that they did): a win
        of ``seat``'s side, or a draw."""
        self._open(seat)
        gone = self.opponents(seat)
        winners = () if draw else tuple(q for q in range(len(self.seats)) if q not in gone)
        words = (self.words(N_("{name} calls it a draw: the other side left"), name=seat)
                 if draw else
                 self.words(N_("{name} wins: the other side left"), name=seat))
        self.ending = Ending(Termination.ABANDONED, words.shown(), winners, words=words)
        self.draw_offer = None
        self.takeback_offer = None
        self._bump()
        self.event("abandoned", words, seat)
        return self.ending

    def agree(self) -> str:
        """End the game in a draw by agreement (both sides agreed; also a table stored with its
        agreement before tables kept endings)."""
        agreed = self.words(N_("draw by agreement"))
        self.ending = Ending(Termination.AGREED, agreed.shown(), words=agreed)
        self.draw_offer = None
        self._bump()
        self.event("draw_agreed", self.words(N_("draw agreed")))
        return "agreed"

    def expire(self, reason: str) -> Ending:
        """End an abandoned game (``Ending`` how ``"expired"``, no winner): the server's
        ending of a game nobody moved in for too long."""
        self.ending = Ending(Termination.EXPIRED, reason, ())
        self.draw_offer = None
        self._bump()
        self.event("expired", reason)
        return self.ending

    def computer_accepts_draw(self, q: int, playouts: int = DRAW_PLAYOUTS) -> bool:
        """The computer's one rule: it accepts when random playouts from what seat ``q`` may
        see (hidden parts redrawn by ``determinize``) give it a mean return below
        :data:`DRAW_THRESHOLD`, i.e. it is losing. Seeded by the ply: the same position, the
        same answer."""
        rng = random.Random(len(self.game.history))
        total = 0.0
        for _i in range(playouts):
            g = self.game.determinize(q, rng)
            while not g.is_terminal():
                moves = g.legal_moves()
                g.apply_unchecked(moves[rng.randrange(len(moves))])
            total += g.returns()[q]
        return total / playouts < DRAW_THRESHOLD

    # --- rematch ------------------------------------------------------------------------------
    def rematch_options(self, same_deal: bool = False) -> dict[str, str]:
        """The options of the next game (see the seed policy in the module text)."""
        prev = self.game.options()
        rule = self.entry.extra.get("rematch")
        opts = dict(prev)
        if callable(rule):
            outcome = self.ending.as_outcome() if self.ending is not None else None
            if outcome is not None and self.ending is not None and self.ending.how == "agreed":
                outcome = None
            opts = dict(rule(prev, outcome))
        if same_deal:
            for key in ("seed", "deck", "roles"):
                if key in prev:
                    opts[key] = prev[key]
        else:
            opts.pop("deck", None)
            opts.pop("roles", None)
            opts["seed"] = str(server_seed())  # the server deals the hidden order itself
        return opts

    def rematch(self, same_deal: bool = False) -> Table:
        """A new table with the same seats after this game ended."""
        if self.ending is None:
            raise TableError("not_over", _("a rematch follows a finished game"))
        try:
            game = new_game(self.game.id, self.rematch_options(same_deal))
        except RuleboxError as e:
            raise TableError("no_rematch", _("no rematch: {e}").format(e=e)) from None
        clock = (Clock.new(self.clock.control, game.num_players)
                 if self.clock is not None else None)  # the same time control again
        return Table(game, list(self.seats), secrets.randbits(128),
                     arranged=same_deal, clock=clock,  # the same deal again is a known one
                     time_source=self.time_source)

    # --- words --------------------------------------------------------------------------------
    def name(self, p: int) -> str:
        """``dark (mcts)``: the seat's name in the game, then who plays it (in the current
        language; ``player 1 (mcts)`` for a seat the game does not name)."""
        return str(self.seat_ref(p))

    def seat_ref(self, p: int) -> SeatRef:
        """Seat ``p`` as :meth:`name` says it, kept to be said in any language."""
        seat = self.seats[p]
        persons = sum(s.is_person for s in self.seats)
        if seat.is_person:
            who = N_("you") if persons == 1 else N_("person")
        else:
            assert seat.agent is not None
            who = seat.agent.name
        with use_language("en"):  # the English name is the message id, said when shown
            seat_name = self.entry.seat_name(p)
        return SeatRef(p, "" if seat_name == f"player {p}" else seat_name, who)

    def describe_end(self) -> str:
        """The result in words."""
        e = self.ending
        if e is None:
            return _("the game goes on")
        if e.how != "rules":
            return e.shown()
        assert e.outcome is not None
        if e.winners:
            who = _(" and ").join(self.name(w) for w in e.winners)
            text = ngettext("{who} wins: {reason}", "{who} win: {reason}", len(e.winners)).format(
                who=who, reason=e.reason)
        else:
            text = _("no winner: {reason}").format(reason=e.reason)
        if e.outcome.scores is not None:
            text += " " + _("(score {scores})").format(
                scores=", ".join(str(s) for s in e.outcome.scores))
        return text

    @classmethod
    def from_record(cls, record: Record, seats: Sequence[Seat]) -> Table:
        """A table that goes on from a saved record (its log, when moves were taken back)."""
        record.replay()  # every move checked; a record that breaks the rules says where
        steps = record.log if record.log is not None else record.moves
        game, movers = replay_movers(record.game, record.options, steps)
        return cls(game, list(seats), secrets.randbits(128), log=list(steps), movers=movers,
                   takebacks=record.takebacks, started=record.started or _now())

    def hint(self, seconds: float) -> Any:
        """What the strongest agent would play for the player to move."""
        spec = AgentSpec.parse("computer").resolve(self.game.id)
        agent = spec.make(self.game.id, time=str(seconds), seed=str(len(self.game.history)))
        return agent.choose(self.game.clone())

    # --- records and storage ------------------------------------------------------------------
    def record(self) -> Record:
        """The game record (the log and a count of takebacks when moves were taken back)."""
        rec = Record.of(self.game, self.players(), self.started)
        if self.ending is not None and self.ending.how != "rules":
            rec.result = self.ending.result_line()
            rec.ending = self.ending.reason
            # resigned, agreed, forfeit: finished as surely as by the rules
            rec.finished = rec.finished or _now()
        rec.takebacks = self.takebacks
        if self.takebacks:
            rec.log = list(self.log)
        return rec

    def to_json(self) -> dict[str, Any]:
        """The whole table (the game's state, seats aside, which surfaces keep)."""
        return {
            "table": TABLE_FORMAT,
            "game": self.game.id,
            "options": self.game.options(),
            "history": [str(m) for m in self.game.history],
            "position": self.game.position_json(),
            "log": list(self.log) if self.takebacks else None,
            "seed": self.seed,
            "version": self.version,
            "ending": self.ending.to_json() if self.ending and self.ending.how != "rules"
            else None,
            "draw_offer": self.draw_offer,
            "takeback_offer": self.takeback_offer,
            "takebacks": self.takebacks,
            "events": [e.to_json() for e in self.events[-50:]],
            "event_count": len(self.events),
            "started": self.started,
            "deal": self.deal.reveal if self.deal is not None else None,
            "arranged": self.arranged,
            "clock": self.clock.to_json() if self.clock is not None else None,
            "updated": self.updated,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any], seats: Sequence[Seat]) -> Table:
        """Rebuild a table from :meth:`to_json` (or a plain ``Game.to_json`` state)."""
        if "table" not in data:
            game = game_entry(str(data.get("game"))).cls.from_json(dict(data))
            return cls(game, list(seats), secrets.randbits(128))
        gid = str(data["game"])
        steps = data.get("log") or data.get("history") or []
        game, movers = replay_movers(gid, dict(data["options"]), steps)
        if game.position_json() != data.get("position"):
            raise StateError(_("the table's log does not lead to its position"))
        t = cls(game, list(seats), int(data.get("seed", 0)), version=int(data["version"]),
                log=[str(s) for s in steps], takebacks=int(data.get("takebacks", 0)),
                started=str(data.get("started") or _now()), movers=movers)
        t.rng = random.Random(t.seed * 1_000_003 + t.version)  # fresh after a reload
        e = data.get("ending")
        if e:
            t.ending = Ending.from_json(e)
        t.draw_offer = data.get("draw_offer")
        t.takeback_offer = data.get("takeback_offer")
        if data.get("deal"):
            t.deal = Deal.parse(str(data["deal"]))
        t.arranged = bool(data.get("arranged", False))
        if data.get("clock"):
            t.clock = Clock.from_json(data["clock"])
        t.updated = str(data.get("updated") or t.started)
        count = int(data.get("event_count", 0))
        kept = [Event(int(x["index"]), str(x["kind"]), str(x["text"]), x.get("player"),
                      int(x.get("ply", 0)), Words.from_json(x.get("words")))
                for x in data.get("events") or []]
        t.events = ([Event(i, "earlier", "", None, 0) for i in range(count - len(kept))]
                    + kept)
        return t


def _now() -> str:
    return datetime.now(UTC).replace(microsecond=0).isoformat()
