"""Issue 23 and 17 follow-up: seats by their names in every text a person reads; the terminal's
board texts in the reader's language, split by structure (not by English words); game results
made in the reader's language (also on a server, whoever ended the game); the lobby's option
help translated per request."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rulebox.cli.board import board_lines, render, text_parts
from rulebox.core.game import Game
from rulebox.core.registry import game_entry
from rulebox.i18n import use_language
from rulebox.match.announce import announcer
from rulebox.match.table import SeatRef
from tests.i18n_helpers import play

GAMES = ("columns", "countred", "discs", "36to1", "columba")

ENGLISH_WORDS = re.compile(
    r"\b(To move|Your move|Game over|player|holds|moves on|counts|tokens|starting discs|"
    r"turns without|Face up|Cubes left|discarded|Estates|reserve|dovecotes left|Supply|"
    r"objective|wins|roundels|formed by|locked field|upper case|arranges|no pins yet|"
    r"main action|blocking actions|cards left|pigeon)\b")
"""English words of the old renders' legends, facts and status lines."""


def _notation(line: str) -> list[str]:
    """A drawing's line without its words (two or more letters) and spacing: what is notation."""
    return re.sub(r"[^\W\d_]{2,}", " ", line).split()




def _to_end(game_id: str, seed: int) -> Game:
    return play(game_id, seed, 100_000)


# --- 1. seats by their names ------------------------------------------------------------------
def test_a_seat_is_said_by_its_name_then_who_sits_there() -> None:
    with use_language("en"):
        assert str(SeatRef(0, "light", "you")) == "light (you)"
        assert str(SeatRef(1, "dark", "mcts")) == "dark (mcts)"
        assert str(SeatRef(1, "second", "person")) == "second (person)"
        assert str(SeatRef(2, "", "random")) == "player 2 (random)"  # a seat with no name
    with use_language("de"):
        assert str(SeatRef(1, "second", "person")) == "Zweiter (Mensch)"


def test_announcements_name_the_seats() -> None:
    # Count Red's bonus move (CR-10): the seed and moves of tests/match/test_table.py
    moves = ("C3-B4 D2-B1 D4-B2 C1-D1 A1-A3 B1-C4 B4-C3 D1-B1 B2-C3 B4-D1 A4-D3 D1-A2 C2-D1 "
             "A2-D4 C3-B4 A2-D2").split()
    game = game_entry("countred").cls.new({"seed": "1", "even": "0", "first": "0",
                                           "stack_lift": "free"})
    hook = announcer("countred")
    assert hook is not None
    said: list[str] = []
    for m in moves:
        before, mover = game.position_json(), game.current_player()
        game.apply(m)
        with use_language("en"):
            said += hook(game, mover, before)
    assert "three in a column: D1, D2, D3 are locked; second earns a bonus move [CR-10]" in said
    # Discs: a token earned (DSC-5), found in a seeded random game
    game = game_entry("discs").cls.new({"seed": "0"})
    rng = random.Random(0)
    hook = announcer("discs")
    assert hook is not None
    tokens: list[str] = []
    while not game.is_terminal() and not tokens:
        before, mover = game.position_json(), game.current_player()
        game.apply(rng.choice(game.legal_moves()))
        with use_language("en"):
            tokens = hook(game, mover, before)
    assert tokens and re.fullmatch(r"(first|second) earns the \w+ token \[DSC-5\]", tokens[0])
    assert not any("player" in line for line in said + tokens)


@pytest.mark.parametrize("game_id", ["columns", "countred", "discs", "columba"])
def test_renders_and_endings_name_the_seats(game_id: str) -> None:
    for game in (play(game_id, 3, 7), _to_end(game_id, 3)):
        with use_language("en"):
            text = game_entry(game_id).render(game, None).plain
        words = text.split("\n", board_lines(game, None))[-1]  # below the drawing
        assert not re.search(r"\bplayer \d", words, re.IGNORECASE), words


def test_count_red_explains_with_seat_names() -> None:
    explain = game_entry("countred").explain
    assert explain is not None
    game = game_entry("countred").cls.new({"seed": "1", "even": "0", "first": "0"})
    with use_language("en"):
        text = explain(game, "B2")
    assert "first (to move), on even counts" in text and "second, on odd counts" in text
    assert "player" not in text.lower()


# --- 2. the terminal's board texts in the reader's language -------------------------------------
@pytest.mark.parametrize("game_id", GAMES)
def test_a_german_and_russian_render_has_no_english_words_below_the_drawing(game_id: str
                                                                          ) -> None:
    for game in (play(game_id, 5, 3), play(game_id, 5, 12), _to_end(game_id, 5)):
        with use_language("en"):
            english = game_entry(game_id).render(game, None)
        for lang in ("de", "ru"):
            with use_language(lang):
                shown = game_entry(game_id).render(game, None)
                status = text_parts(game, None)[2]
            n = board_lines(game, None)
            # the drawing's notation is the same in every language; only its words (Columns'
            # rank labels, 36 to 1's symbol headings) are the reader's
            assert [_notation(line) for line in shown.plain.split("\n")[:n]] == \
                [_notation(line) for line in english.plain.split("\n")[:n]]
            below = "\n".join(shown.plain.split("\n")[n:])
            found = ENGLISH_WORDS.findall(below)
            assert not found, (lang, found, below)
            assert status, "every render says whose turn it is, or the end"


@pytest.mark.parametrize("game_id", GAMES)
def test_the_terminal_splits_a_render_the_same_in_every_language(game_id: str) -> None:
    game = play(game_id, 2, 9)
    with use_language("en"):
        n_en = board_lines(game, None)
        en = text_parts(game, None)
    for lang in ("de", "ru"):
        with use_language(lang):
            assert board_lines(game, None) == n_en
            parts = text_parts(game, None)
        assert [len(p) for p in parts] == [len(p) for p in en]
    # a finished game: the terminal drops the render's own end line, in any language
    done = _to_end(game_id, 2)
    for lang in ("en", "de", "ru"):
        with use_language(lang):
            status = text_parts(done, None)[2]
            shown = render(done, None).plain
        lines = {line.strip() for line in shown.split("\n")}
        assert status and not any(line.strip() in lines for line in status)


# --- 3. results in the reader's language --------------------------------------------------------
@pytest.mark.parametrize("game_id", GAMES)
def test_an_outcome_is_said_in_the_language_of_whoever_asks(game_id: str) -> None:
    for seed in range(4):
        game = _to_end(game_id, seed)
        with use_language("de"):
            german = game.outcome()
        with use_language("en"):
            english = game.outcome()
        assert german is not None and english is not None
        assert german.winners == english.winners and german.scores == english.scores
        ids = re.findall(r"\[[A-Z0-9]+-\d+\]", english.reason)
        assert re.findall(r"\[[A-Z0-9]+-\d+\]", german.reason) == ids  # rule IDs kept
        assert german.reason != english.reason, (game_id, seed, english.reason)
        # the position keeps the English reason (a saved game reads the same everywhere)
        with use_language("de"):
            state = str(game.position_json())
        assert "Züge" not in state and "Spalte" not in state and "Spieler" not in state


@pytest.fixture(scope="module")
def server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    pytest.importorskip("fastapi")
    pytest.importorskip("uvicorn")
    pytest.importorskip("sqlalchemy")
    pytest.importorskip("httpx")
    from rulebox.server.testing import ServerProcess

    db = Path(tmp_path_factory.mktemp("db")) / "rulebox.db"
    log = Path(tmp_path_factory.mktemp("log")) / "server.log"
    srv = ServerProcess(f"sqlite:///{db}", log=log,
                        args=["--create-per-minute", "0", "--moves-per-second", "0"]).start()
    yield srv.url
    srv.stop()


def test_a_count_red_game_ended_in_german_reads_in_each_readers_language(server_url: str
                                                                         ) -> None:
    import httpx

    # a seeded random game to its end, played locally first to know its moves
    game = _to_end("countred", 11)
    moves = [str(m) for m in game.history]
    with httpx.Client(base_url=server_url, timeout=30) as client:
        r = client.post("/api/games", json={"game": "countred", "options": {"seed": "11"},
                                            "seats": ["human", "human"], "hotseat": True})
        assert r.status_code == 200, r.text
        g = r.json()
        tokens = [s["token"] for s in g["seats"]]
        st = client.get(f"/api/games/{g['id']}", headers={"Authorization": f"Bearer {tokens[0]}"}
                        ).json()
        for i, m in enumerate(moves):
            lang = "de" if i == len(moves) - 1 else "en"  # the last move asked in German
            r = client.post(f"/api/games/{g['id']}/moves",
                            json={"move": m, "version": st["version"]},
                            headers={"Authorization": f"Bearer {tokens[st['to_move']]}",
                                     "Accept-Language": lang})
            assert r.status_code == 200, (m, r.text)
            st = r.json()
        results: dict[str, Any] = {}
        over: dict[str, list[str]] = {}
        for lang in ("en", "de", "ru"):
            st = client.get(f"/api/games/{g['id']}", headers={"Accept-Language": lang}).json()
            results[lang] = st["result"]
            over[lang] = [e["text"] for e in st["events"] if e["kind"] == "game_over"]
    with use_language("en"):
        english = game.outcome()
    assert english is not None
    en, de, ru = (results[k]["text"] for k in ("en", "de", "ru"))
    assert re.sub(r"\s*\[[A-Z0-9]+-\d+\]", "", english.reason) in en
    assert en != de and en != ru and de != ru
    assert not ENGLISH_WORDS.findall(de) and "moves" not in de and "made" not in de
    assert results["en"]["line"] == results["de"]["line"] == english.result_line()
    # the move log's end entry too
    assert over["en"] == [english.reason] and over["de"] != over["en"] != over["ru"]


# --- 4. the lobby's option help per request ---------------------------------------------------
def test_the_catalogs_option_help_is_translated_per_request(server_url: str) -> None:
    import httpx

    with httpx.Client(base_url=server_url, timeout=30) as client:
        cats = {lang: client.get("/api/catalog", headers={"Accept-Language": lang}).json()
                for lang in ("en", "ru", "de")}

    def helps(cat: dict[str, Any]) -> dict[tuple[str, str], str]:
        return {(g["id"], o["name"]): o["help"] for g in cat["games"] for o in g["options"]}

    en, ru, de = helps(cats["en"]), helps(cats["ru"]), helps(cats["de"])
    assert en.keys() == ru.keys() == de.keys()
    assert en[("countred", "first")] == "who moves first (CR-2; drawn from the seed if omitted)"
    for key, text in en.items():
        assert ru[key] != text and de[key] != text, key
        assert re.search("[а-яё]", ru[key]), (key, ru[key])
        # rule IDs and option values stay as they are
        assert re.findall(r"[A-Z0-9]+-\d+", ru[key]) == re.findall(r"[A-Z0-9]+-\d+", text)


def test_the_full_screen_reads_a_german_render_by_its_parts() -> None:
    """The status panel beside the board shows the render's facts and its key (issue 35: the
    legend belongs on the screen) and takes the status line (whose turn) from the render's
    parts, in German as in English."""
    import asyncio

    from textual.widgets import Static

    from rulebox.cli.seats import make_seats
    from rulebox.match.table import Table
    from rulebox.tui.app import GameApp

    game = game_entry("countred").cls.new({"seed": "3", "first": "0", "even": "0"})
    table = Table(game, make_seats("countred", 2, ["1=random"], 0.05), seed=7)
    shown: dict[str, str] = {}

    async def drive(lang: str) -> None:
        with use_language(lang):
            app = GameApp(table)
            async with app.run_test(size=(160, 50)) as pilot:
                await pilot.pause()
                app.update_status()
                shown[lang] = str(app.query_one("#status", Static).render())

    for lang in ("en", "de"):
        asyncio.run(drive(lang))
    assert "first: moves on even counts" in shown["en"]
    # the key (legend) is on the screen too since issue 35, in the reader's language
    assert "red / black piece numbered N" in shown["en"]
    assert "rote / schwarze Figur mit der Zahl N" in shown["de"]
    assert "Erster: zieht, wenn die Anzahl gerade ist" in shown["de"], shown["de"]
    assert "red / black piece" not in shown["de"] and "To move" not in shown["de"]
    assert "moves on" not in shown["de"]


def test_discs_explains_with_seat_names_in_the_readers_language() -> None:
    game = game_entry("discs").cls.new({"seed": "1"})
    explain = game_entry("discs").explain
    assert explain is not None
    english = explain(game, "b2")
    assert english.startswith("b2 (disc b2, colour ?). first arranges the discs")
    assert "Player" not in english and "player" not in english
    with use_language("de"):
        german = explain(game, "b2")
    assert "Erster ordnet die Scheiben an" in german and "Scheibe b2" in german
    assert "arranges" not in german
