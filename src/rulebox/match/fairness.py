"""Fair deals anyone can check: a commitment to the hidden order before the first move, the
order revealed at the end (docs/FAIRNESS.md).

For the games with a hidden deck (36 to 1, Columba) the server writes, before the first move,
a *reveal*: a short text holding the whole hidden order, the key from which every reshuffle
after an undo is drawn, and a random salt. Every payload carries its SHA-256 (the
*commitment*); once the game is over it carries the reveal too. Anyone then checks that
``sha256(reveal.encode()).hexdigest() == commitment`` and replays the game against the revealed
order (:func:`verify`; ``rulebox verify RECORD``; the browser's button).

The reveal's format (version 1), lines ending in ``\\n``::

    rulebox-fair-deal 1
    game 36to1
    seed 2841...        (the game's seed: it chose everything else, e.g. a random grid)
    deck G5,B4,W2,...
    reshuffle 3f1c...  (64 hex digits)
    salt 9a0b...        (32 hex digits)

``deck`` is the game's ``deck=`` option text: the cards in the order they come, first first.
The reshuffle seed number ``n`` (0, 1, ...; the table's log writes ``!reshuffle SEED``) is
:func:`reshuffle_seed` of the key: ``int(sha256(f"{key}:{n}").hexdigest()[:32], 16)``.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rulebox.core.errors import RuleboxError
from rulebox.core.game import Game
from rulebox.core.numerals import plain_digits
from rulebox.core.registry import new_game
from rulebox.core.rng import fresh_seed
from rulebox.match.replay import apply_step

FORMAT = "rulebox-fair-deal 1"
FAIR_GAMES = ("36to1", "columba")
"""The games whose deal is committed to (a hidden deck)."""
ARRANGING_OPTIONS = ("seed", "deck")
"""Options that fix the deal: a game created with one of them is an arranged deal."""
SEED_BITS = 128
"""The server's deals come from this many bits of OS randomness."""


class FairnessError(RuleboxError):
    """A reveal that does not match its commitment, or a game that does not replay on it."""


def server_seed() -> int:
    """A fresh 128-bit seed from the operating system (``rulebox.core.rng.fresh_seed``, the
    whole range of the games' ``seed=`` option); the hidden order of a server's deal does not
    come from it but from :func:`server_deal`."""
    return fresh_seed()


def server_deal(game_id: str, options: Mapping[str, str]) -> Game:
    """A new game whose hidden order is shuffled by the operating system's randomness
    (``secrets.SystemRandom``: 32 bits or more drawn per card, far above :data:`SEED_BITS` in
    all, so that every one of the n! orders is equally likely: log2(36!) = 138 bits for 36 to
    1, log2(30!) = 108 bits for Columba, all there is; not a function of any seed). The seed
    decides only the rest (e.g. a random grid). Games without a hidden deck are made as
    they are."""
    game = new_game(game_id, options)
    if game_id not in FAIR_GAMES:
        return game
    order = deal_order(game)
    secrets.SystemRandom().shuffle(order)
    return dealt(game_id, game.options(), order)


def arranged(options: Mapping[str, Any]) -> bool:
    """Whether the creator fixed the deal (``seed=`` or ``deck=`` given)."""
    return any(k in options for k in ARRANGING_OPTIONS)


def deal_order(game: Game) -> list[str]:
    """The whole hidden order of a game that has not begun, as ``deck=`` card ids, first
    first; checked by dealing a game from it (the same start position)."""
    if game.history:
        raise FairnessError("the order is read before the first move")
    pos = game.position_json()
    if game.id == "36to1":
        order = [*pos["faceup"], *pos["pile"]]
    elif game.id == "columba":
        first = pos["squares"]["0,0"][2] if isinstance(pos["squares"], dict) else None
        order = [str(first), *([pos["hand"]] if pos.get("hand") else []), *pos["deck"]]
    else:
        raise FairnessError(f"{game.id} has no hidden deck")
    again = dealt(game.id, game.options(), order)
    if again.position_json() != pos:
        raise FairnessError("the order read does not deal this game")
    return [str(c) for c in order]


def dealt(game_id: str, options: Mapping[str, str], order: Sequence[str]) -> Game:
    """A new game with ``options`` dealt from ``order`` (the seed left out: it no longer
    decides the deck, and every other random choice it made is echoed in the options)."""
    opts = {k: v for k, v in options.items() if k not in ("seed", "deck")}
    opts["deck"] = ",".join(order)
    seed = options.get("seed")
    if seed is not None:
        opts["seed"] = seed
    return new_game(game_id, opts)


def reshuffle_seed(key: str, n: int) -> int:
    """The seed of the ``n``-th reshuffle (0 first) after an undo, from the reveal's key."""
    return int(hashlib.sha256(f"{key}:{n}".encode()).hexdigest()[:32], 16)


@dataclass(frozen=True)
class Deal:
    """A commitment and what it hides."""

    game: str
    seed: str
    order: tuple[str, ...]
    key: str
    salt: str

    @property
    def reveal(self) -> str:
        """The text whose SHA-256 is the commitment."""
        return (f"{FORMAT}\ngame {self.game}\nseed {self.seed}\ndeck {','.join(self.order)}\n"
                f"reshuffle {self.key}\nsalt {self.salt}\n")

    @property
    def commitment(self) -> str:
        return commitment_of(self.reveal)

    @classmethod
    def parse(cls, text: str) -> Deal:
        """Read a reveal (a ``FairnessError`` when it is not one)."""
        if not isinstance(text, str) or len(text) > 10_000:
            raise FairnessError("a reveal is a short text")
        lines = text.split("\n")
        if len(lines) != 7 or lines[0] != FORMAT or lines[6] != "":
            raise FairnessError(f"a reveal has six lines, the first {FORMAT!r}")
        fields: dict[str, str] = {}
        names = ("game", "seed", "deck", "reshuffle", "salt")
        for line, name in zip(lines[1:6], names, strict=True):
            head, _, value = line.partition(" ")
            if head != name or not value:
                raise FairnessError(f"line {name!r} is missing in the reveal")
            fields[name] = value
        if not plain_digits(fields["seed"]):
            raise FairnessError("the seed of a reveal is a whole number")
        return cls(fields["game"], fields["seed"], tuple(fields["deck"].split(",")),
                   fields["reshuffle"], fields["salt"])


def commitment_of(reveal: str) -> str:
    """The commitment of a reveal: its SHA-256 in hex."""
    return hashlib.sha256(reveal.encode("utf-8")).hexdigest()


def seal(game: Game) -> Deal | None:
    """A fresh commitment to a new game's deal (``None`` for a game without a hidden deck)."""
    if game.id not in FAIR_GAMES:
        return None
    return Deal(game.id, game.options()["seed"], tuple(deal_order(game)),
                secrets.token_hex(32), secrets.token_hex(16))


def verify(commitment: str, reveal: str, options: Mapping[str, str], log: Sequence[str],
           final_view: Mapping[str, Any] | None = None, seat: int | None = None) -> Game:
    """Check a finished game: the reveal matches the commitment, its deck deals the game with
    these (public) options, every step of the log replays (each reshuffle with the seed the key
    gives), and, when given, the final view of ``seat`` is what that replay shows. Answers the
    replayed game; a ``FairnessError`` says what does not hold."""
    if commitment_of(reveal) != str(commitment).lower():
        raise FairnessError("the reveal does not match the commitment")
    deal = Deal.parse(reveal)
    try:
        game = dealt(deal.game, {**options, "seed": deal.seed}, deal.order)
    except RuleboxError as e:
        raise FairnessError(f"the revealed order does not deal the game: {e}") from None
    done: list[int] = []

    def reshuffled(seed: int) -> None:
        if seed != reshuffle_seed(deal.key, len(done)):
            raise FairnessError(f"step {i}: reshuffle {len(done)} is not the one committed to")
        done.append(seed)

    for i, step in enumerate(log, start=1):
        try:
            apply_step(game, step, reshuffled)
        except FairnessError:
            raise
        except (RuleboxError, ValueError, IndexError) as e:
            raise FairnessError(f"step {i} ({step[:40]!r}) does not replay: {e}") from None
    if final_view is not None:
        mine = game.view(seat)
        theirs = dict(final_view)
        if _strip(mine) != _strip(theirs):
            raise FairnessError("the game shown differs from its replay on the revealed order")
    return game


def _strip(view: Mapping[str, Any]) -> dict[str, Any]:
    """A view without the fields that only echo options (compared apart)."""
    return {k: v for k, v in view.items() if k not in ("options",)}
