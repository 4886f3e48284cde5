"""Issue 23: the rules texts in German and Russian (``rules.de.md``, ``rules.ru.md`` beside each
game's English ``rules.md``), ``GameEntry.rules_text(lang)``, ``rulebox rules --lang`` and the
server's ``GET /api/rules/{game}`` in the request's language.

A translation keeps every rule ID in its place, the headings, and every piece of notation, option
and field name (the English text's code spans) unchanged."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rulebox.core.registry import game_entry, game_ids
from rulebox.i18n import use_language

GAMES = ["columns", "36to1", "countred", "columba", "discs"]
LANGS = ["de", "ru"]
PREFIX = {"columns": "COL", "36to1": "S36", "countred": "CR", "columba": "CB", "discs": "DSC"}
RULINGS = Path(os.environ.get("RULEBOX_RULINGS", "/work/shared/RULINGS.md"))
RULE_COUNT = {"columns": 10, "36to1": 10, "countred": 15, "columba": 16, "discs": 7}
"""The rule IDs of RULINGS.md per game (read from RULINGS.md itself where it is at hand)."""

ID = r"\b(?:COL|S36|CR|CB|DSC)-\d+\b"


def english(game: str) -> str:
    return game_entry(game).rules_text("en")


def rulings_ids(game: str) -> list[str]:
    """The rule IDs RULINGS.md gives the game, in its order."""
    if RULINGS.is_file():
        ids = re.findall(r"\*\*(" + PREFIX[game] + r"-\d+)\*\*", RULINGS.read_text("utf-8"))
        if ids:
            return list(dict.fromkeys(ids))
    return [f"{PREFIX[game]}-{i}" for i in range(1, RULE_COUNT[game] + 1)]


def first_seen(text: str) -> list[str]:
    """Every rule ID of a text, once each, in the order it first appears."""
    return list(dict.fromkeys(re.findall(ID, text)))


def rule_items(text: str) -> list[str]:
    """The rule IDs that open a list item (``- **CR-4** ...``, ``- **S36-1 Removing ...``), in
    order."""
    return re.findall(r"^\s*- \*\*(" + ID[2:-2] + r")\b", text, flags=re.M)


def headings(text: str) -> list[int]:
    """The level of every Markdown heading, in order."""
    return [len(m.group(1)) for m in re.finditer(r"^(#+) ", text, flags=re.M)]


def code_spans(text: str) -> set[str]:
    """Every inline code span (notation, options, field names, commands)."""
    return set(re.findall(r"`([^`\n]+)`", text))


def test_every_game_has_both_translations() -> None:
    assert set(GAMES) <= set(game_ids())
    for game in GAMES:
        for lang in LANGS:
            assert game_entry(game).rules_text(lang) != english(game), (game, lang)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_every_rule_id_in_its_place(game: str, lang: str) -> None:
    text = game_entry(game).rules_text(lang)
    en = english(game)
    # every ID of RULINGS.md and of the English text, in the same order as in English
    for rid in rulings_ids(game):
        assert re.search(rf"\b{rid}\b", text), f"{game} {lang}: {rid} missing"
    assert first_seen(text) == first_seen(en)
    assert rule_items(text) == rule_items(en)
    assert len(re.findall(ID, text)) == len(re.findall(ID, en))


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_headings_and_notation_unchanged(game: str, lang: str) -> None:
    text = game_entry(game).rules_text(lang)
    en = english(game)
    assert headings(text) == headings(en)
    missing = code_spans(en) - code_spans(text)
    assert not missing, f"{game} {lang}: notation changed or dropped: {sorted(missing)}"
    # the notation tables keep their rows, each with its notation in order
    def rows(t: str) -> list[list[str]]:
        return [re.findall(r"`([^`]+)`", line) for line in t.splitlines()
                if line.startswith("|") and "`" in line]

    assert rows(text) == rows(en)
    # drawings (Discs' board) keep their lines; only a legend right of the board is translated
    def drawings(t: str) -> list[list[str]]:
        blocks = re.findall(r"^```\n(.*?)^```", t, flags=re.M | re.S)
        return [[line[:34].rstrip() for line in b.splitlines()] for b in blocks]

    assert drawings(text) == drawings(en)


@pytest.mark.parametrize("game", GAMES)
def test_translations_are_in_their_language(game: str) -> None:
    de = game_entry(game).rules_text("de")
    ru = game_entry(game).rules_text("ru")
    assert re.findall(r"\b(?:der|die|und|ist)\b", de)
    # Cyrillic only in the rulebook quotes the English text has too
    assert len(re.findall("[а-яё]", de)) == len(re.findall("[а-яё]", english(game)))
    cyrillic = len(re.findall("[а-яёА-ЯЁ]", ru))
    latin = len(re.findall("[a-zA-Z]", re.sub(r"`[^`]*`", "", ru)))
    assert cyrillic > 3 * latin, f"{game}: the Russian text is not mostly Russian"


def test_rulebooks_own_terms() -> None:
    """Gembel's German words and Columba's Russian ones."""
    de = game_entry("countred").rules_text("de")
    for word in ("Figur", "Parität", "Dreierreihe", "Bonuszug", "gesperrt", "Entstapeln", "Remis"):
        assert word in de
    ru = game_entry("columba").rules_text("ru")
    for word in ("имени", "голубятн", "сокол", "одомашненн", "мини-доск", "«Цель»"):
        assert word in ru


def test_rules_text_follows_the_current_language() -> None:
    entry = game_entry("countred")
    with use_language("de"):
        assert entry.rules_text() == entry.rules_text("de")
    with use_language("ru"):
        assert entry.rules_text() == entry.rules_text("ru")
        assert entry.rules_text("en") == english("countred")
    with use_language("en"):
        assert entry.rules_text() == english("countred")
    assert entry.rules_text("fr_FR") == entry.rules_text()  # not shipped: the current language


def rulebox(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items()
            if k not in ("RULEBOX_LANG", "LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE")}
    exe = shutil.which("rulebox") or str(Path(sys.executable).parent / "rulebox")
    return subprocess.run([exe, *args], capture_output=True,
                          text=True, encoding="utf-8", env={**base, **(env or {})}, timeout=60)


def test_cli_rules_lang_de() -> None:
    out = rulebox("rules", "countred", "--lang", "de", "--plain")
    assert out.returncode == 0, out.stderr
    assert "Dreierreihe" in out.stdout and "Bonuszug" in out.stdout and "**CR-10**" in out.stdout
    assert out.stdout == game_entry("countred").rules_text("de")


def test_cli_rules_language_from_environment() -> None:
    ru = rulebox("rules", "columba", "--plain", env={"RULEBOX_LANG": "ru", "LANG": "de_DE.UTF-8"})
    assert ru.returncode == 0, ru.stderr
    assert "голубятн" in ru.stdout and "**CB-3**" in ru.stdout
    de = rulebox("rules", "countred", "--plain", env={"LANG": "de_DE.UTF-8"})
    assert "Dreierreihe" in de.stdout
    first = rulebox("rules", "countred", "--plain", env={"RULEBOX_LANG": "ru", "LC_ALL": "C"})
    assert "**CR-10** Тройка" in first.stdout
    # --lang wins over the environment
    forced = rulebox("rules", "countred", "--lang", "en", "--plain", env={"RULEBOX_LANG": "ru"})
    assert "Count Red is a game for two" in forced.stdout


def test_cli_rules_unknown_language_refused() -> None:
    out = rulebox("rules", "countred", "--lang", "fr")
    assert out.returncode == 2
    assert out.stdout == ""
    assert "unknown language 'fr'" in out.stderr and "en, de, ru" in out.stderr


def test_server_rules_in_the_request_language(tmp_path: Path) -> None:
    pytest.importorskip("fastapi")
    httpx = pytest.importorskip("httpx")
    import asyncio

    from rulebox.server.app import create_app

    app = create_app(f"sqlite:///{tmp_path / 'rulebox.db'}")

    async def get(path: str, headers: dict[str, str]) -> dict[str, object]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as c:
            r = await c.get(path, headers=headers)
            assert r.status_code == 200, r.text
            return dict(r.json())

    de = asyncio.run(get("/api/rules/countred", {"Accept-Language": "de-DE,de;q=0.9"}))
    assert de["text"] == game_entry("countred").rules_text("de")
    ru = asyncio.run(get("/api/rules/columba?lang=ru", {"Accept-Language": "de"}))
    assert ru["text"] == game_entry("columba").rules_text("ru")
    en = asyncio.run(get("/api/rules/countred", {}))
    assert en["text"] == english("countred")


def test_rules_text_falls_back_to_english(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game without a text in the language asked for answers its English rules."""
    import dataclasses

    package = tmp_path / "rulebox_untranslated_game"
    package.mkdir()
    (package / "__init__.py").write_text("", "utf-8")
    (package / "rules.md").write_text("# Untranslated\n\n- **XX-1** English only.\n", "utf-8")
    (package / "rules.de.md").write_text("# Unübersetzt\n\n- **XX-1** Nur Deutsch.\n", "utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    entry = dataclasses.replace(game_entry("countred"), package="rulebox_untranslated_game")
    assert entry.rules_text("ru") == "# Untranslated\n\n- **XX-1** English only.\n"
    assert entry.rules_text("de").startswith("# Unübersetzt")
    with use_language("ru"):
        assert entry.rules_text().startswith("# Untranslated")
