"""Issue 33: seeded random games of all five games, rendered in German and in Russian as a
player reads them (the notation help, every move line of the log, the announcements, the
board's words, the refusals of 200 random illegal moves, the ending), hold none of the faults
the review found nor their kind: English left in, the computer's level or an Officia role as
its English id, a variant the glossary rejects, a noun phrase put in without its case."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

import pytest

from rulebox import i18n
from rulebox.cli.board import board_lines
from rulebox.cli.text import notation_lines
from rulebox.core.errors import RuleboxError
from rulebox.core.game import Game
from rulebox.core.registry import game_entry
from rulebox.i18n import use_language
from rulebox.match.announce import announcer
from rulebox.match.table import SeatRef
from tests.i18n_helpers import tool

GAMES = ("countred", "columns", "discs", "36to1", "columba")
OPTIONS = {"columba": {"officia": "1", "pond": "1"}}
REFUSALS = 200

ENGLISH = re.compile(
    r"\b(the|and|of|to|on|at|by|from|onto|with|is|are|not|may|must|moves?|places|plays|lays|stacks|"
    r"takes|turns|counts|column|row|piece|stack|roundel|blocker|pin|disc|hole|cube|card|tile|"
    r"falcon|estate|dovecote|pigeon|objective|reserve|supply|wins|draw|player|level|left|"
    r"turn|field|square|colour|red|black|green|blue|white|grey|brown|yellow|purple|first|"
    r"second|light|dark|none|empty|locked|legal|illegal move)\b")
"""English words that are no notation, command or option of any game."""

_ARG = r"(?:[ =](?:[\w.+-]*[\d,|=<>][\w,.|=:+<>-]*|[A-Z]{1,2}|[a-z]?[A-Z]{1,2}|rN|x,y))"
COMMANDS = re.compile(
    r"`[^`]*`|\b(?:place|goal|nogoal|cote small|cote large|cote|tile|buy|raise|falcon|end|"
    r"claim|arrange|choose silver|choose black|choose|lock|unlock|bar|unbar|pass|explain|"
    r"discards|estates|roles|architect|farmerswife|marshal|peasant|thief|moves|status|"
    r"notation|officia|pond|players|deck|variant|kids|seed|green|stack_lift|lookahead|"
    r"fragile|continue|literal|standard|free|silver|black|large)\b" + _ARG + "*")
"""Notation, commands and option words with their arguments (``place x,y rN``, ``buy XY``,
``stack_lift=free``), which stay as they are typed."""

LEVELS = re.compile(r"\((easy|medium|hard|best)\)")
ROLE_IDS = re.compile(r"\b(architect|farmerswife|marshal|peasant|thief|falconer)\b")


def _rejected(lang: str) -> list[re.Pattern[str]]:
    """The glossary's rejected variants that hold in every message (not only in some)."""
    return [re.compile(r.pattern) for r in tool.glossary(lang) if not r.where]


def _refusals(game_id: str, seed: int, lang: str) -> list[str]:
    """The refusals of ``REFUSALS`` random illegal moves, each tried in a position of a seeded
    random game: moves legal elsewhere in the game, and the same with a word changed."""
    entry = game_entry(game_id)
    rng = random.Random(seed)
    pool: list[str] = []
    game = entry.cls.new({"seed": str(seed), **OPTIONS.get(game_id, {})})
    positions: list[Game] = []
    while not game.is_terminal() and len(positions) < 300:
        legal = game.legal_moves()
        pool += [str(m) for m in rng.sample(legal, min(5, len(legal)))]
        positions.append(game.clone())
        game.apply(rng.choice(legal))
    out: list[str] = []
    tries = 0
    while len(out) < REFUSALS and tries < 50 * REFUSALS:
        tries += 1
        where = rng.choice(positions).clone()
        text = rng.choice(pool)
        if rng.random() < 0.2:
            words = text.split()
            words[rng.randrange(len(words))] = rng.choice(pool).split()[0]
            text = " ".join(words)
        with use_language(lang):
            try:
                where.apply(text)
            except RuleboxError as e:
                out.append(str(e))
    assert len(out) == REFUSALS, f"{game_id}: only {len(out)} refusals in {tries} tries"
    return out


def _read(game_id: str, seed: int, lang: str) -> Iterator[tuple[str, str]]:
    """What a player reads in a seeded random game of ``game_id``, as (where, text)."""
    entry = game_entry(game_id)
    game = entry.cls.new({"seed": str(seed), **OPTIONS.get(game_id, {})})
    rng = random.Random(seed)
    hook = announcer(game_id)
    with use_language(lang):
        yield from (("notation", line) for line in notation_lines(game))
    plies = 0
    while not game.is_terminal():
        move = rng.choice(game.legal_moves())
        with use_language(lang):
            yield "log", game.describe(move)
        before, mover = game.position_json(), game.current_player()
        game.apply(move)
        if hook is not None:
            with use_language(lang):
                yield from (("announcement", line) for line in hook(game, mover, before))
        plies += 1
        if plies % 25 == 1:
            with use_language(lang):
                text = entry.render(game, None).plain
            yield from (("board", line) for line in
                        text.split("\n")[board_lines(game, None):] if line.strip())
    with use_language(lang):
        text = entry.render(game, None).plain
        outcome = game.outcome()
    yield from (("board", line) for line in text.split("\n")[board_lines(game, None):]
                if line.strip())
    assert outcome is not None
    yield "ending", outcome.reason
    yield from (("refusal", r) for r in _refusals(game_id, seed, lang))


def _faults(where: str, text: str, lang: str, rejected: list[re.Pattern[str]]) -> list[str]:
    faults = []
    words = COMMANDS.sub(" ", re.sub(r"\[[A-Z0-9, .-]+\]", " ", text))
    words = words.replace("illegal: ", "", 1) if where == "refusal" else words
    found = ENGLISH.search(words)
    if found:
        faults.append(f"English {found.group(0)!r}")
    if LEVELS.search(text):
        faults.append("a level's id")
    if where != "notation" and ROLE_IDS.search(COMMANDS.sub(" ", text)):
        faults.append("a role's id")
    for pattern in rejected:
        m = pattern.search(text)
        if m:
            faults.append(f"the rejected variant {m.group(0)!r}")
    return [f"{where}: {fault}: {text}" for fault in faults]


@pytest.mark.parametrize("lang", ["de", "ru"])
@pytest.mark.parametrize("game_id", GAMES)
def test_a_seeded_game_reads_without_the_faults_of_issue_33(game_id: str, lang: str) -> None:
    rejected = _rejected(lang)
    i18n.undeclared.clear()
    faults: list[str] = []
    kinds: set[str] = set()
    for where, text in _read(game_id, 5, lang):
        kinds.add(where)
        faults += _faults(where, text, lang, rejected)
    assert {"notation", "log", "board", "ending", "refusal"} <= kinds
    assert i18n.undeclared == [], "noun phrases put in without their case"
    assert faults == [], "\n".join(sorted(set(faults))[:40])


@pytest.mark.parametrize("lang", ["de", "ru"])
def test_the_computers_level_reads_in_the_readers_language(lang: str) -> None:
    with use_language(lang):
        for level in ("easy", "medium", "hard", "best"):
            shown = str(SeatRef(1, "dark", level))
            assert level not in shown and "(" in shown, shown
        assert str(SeatRef(1, "dark", "mcts")).endswith("(mcts)")  # an agent keeps its name


def test_the_faults_are_found_where_they_are() -> None:
    rejected = _rejected("ru")
    assert _faults("log", "второй ставит чёрная 2 on C1", "ru", rejected)
    assert _faults("board", "побеждает тёмный (hard)", "ru", rejected)
    assert _faults("refusal", "illegal: это сила роли architect [CB-15]", "ru", rejected)
    assert not _faults("refusal", "illegal: напишите marshal C x,y [CB-15]", "ru", rejected)


@pytest.mark.parametrize("lang", ["de", "ru"])
def test_every_games_option_and_value_has_a_label_in_the_readers_language(lang: str) -> None:
    from rulebox.core.options import option_label, option_value_label
    from rulebox.core.registry import game_ids

    for game_id in game_ids():
        for spec in game_entry(game_id).cls.option_specs:
            with use_language(lang):
                label = option_label(spec.name)
                values = [option_value_label(str(c)) for c in spec.choices]
            assert label != spec.name or spec.name == "officia", (game_id, spec.name)
            assert all(v != c for v, c in zip(values, spec.choices, strict=True) if c != "standard"
                       or lang == "ru"), (game_id, spec.name, values)
    with use_language("en"):
        assert option_label("stack_lift") == "stack_lift"  # English shows what is typed
