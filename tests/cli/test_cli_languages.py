"""The terminal and the engine in German and Russian (issue 23): the terminal speaks the
language of ``--lang``, then ``RULEBOX_LANG``, then the locale; the engine English unless
``--lang`` or ``RULEBOX_LANG`` asks otherwise (programs parse it; the locale alone never
changes it). Refusals stay one line: the reason translated, ``illegal:`` and the rule ID not."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest
from textual.widgets import Input

from rulebox.cli.seats import make_seats
from rulebox.core.registry import game_entry
from rulebox.engine import Engine, engine_language
from rulebox.i18n import resolve, set_language, use_language
from rulebox.match.table import Table
from rulebox.tui.app import EndScreen, GameApp, MoveLog, Question

BASE = {k: v for k, v in os.environ.items()
        if k not in ("RULEBOX_LANG", "LANG", "LC_ALL", "LC_MESSAGES", "LANGUAGE")}
BASE.update(NO_COLOR="1", COLUMNS="100")


def rulebox(*args: str, stdin: str = "", env: dict[str, str] | None = None,
            data: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rulebox.cli.main", *args],
                          input=stdin.encode(), capture_output=True, timeout=120,
                          env={**BASE, "RULEBOX_DATA": str(data), **(env or {})})


@pytest.fixture(autouse=True)
def _english_afterwards() -> object:
    yield
    set_language("en")


def test_count_red_in_german_at_the_terminal(tmp_path: Path) -> None:
    """Count Red's rulebook is German (Gembel): --lang de."""
    proc = rulebox("play", "countred", "--plain", "--lang", "de", "--seed", "1",
                   "--seat", "1=random", "--time", "0.1",
                   stdin="?\nA1-A1\nzz\nquit\nj\n", data=tmp_path)
    out = proc.stdout.decode()
    assert proc.returncode == 0, proc.stderr.decode()
    # the goal, the prompt and the help in German
    assert "Vier untere Figuren einer Farbe in einer Spalte gewinnen (CR-9)" in out
    assert "Erster (du) > " in out
    assert "Befehle:" in out and "deinen letzten Zug zurücknehmen" in out
    assert "42 erlaubte Züge nach Feld: A1 7, D1 7, B2 7, C3 7, A4 7, D4 7" in out
    # a refusal: one line, the reason in German, the protocol's word and the rule ID as ever
    assert "\nillegal: ein Zug von A1 nach A1 ist kein Zug [CR-3]\n" in out
    assert "fehlerhafter Zug 'zz': schreibe einen Zug als <von>-<nach>" in out
    assert "tippe ? für Hilfe und die erlaubten Züge" in out
    # quit asks in German and takes the German yes
    assert "die Partie verlassen? Sie ist gespeichert" in out and "[j/N]" in out
    assert "Partie angehalten; sie ist gespeichert" in out
    assert "illegal: a move" not in out and "type ? for help" not in out


def test_columba_in_russian_at_the_terminal(tmp_path: Path) -> None:
    """Columba's rulebook is Russian: RULEBOX_LANG=ru (no --lang)."""
    proc = rulebox("play", "columba", "--plain", "--seed", "1", "--seat", "1=random",
                   "--time", "0.1", stdin="?\nplace 9,9 r0\nfalcon 0,0\nquit\nд\n",
                   env={"RULEBOX_LANG": "ru"}, data=tmp_path)
    out = proc.stdout.decode()
    assert proc.returncode == 0, proc.stderr.decode()
    assert ("побеждает тот, у кого больше всего очков за имения; незавершённая карта «Цель» "
            "отнимает 4 очка (CB-11)") in out
    assert "красный (вы) > " in out
    assert "Команды:" in out and "отменить ваш последний ход" in out
    assert "72 допустимых хода:" in out  # 72: the form of 2-4 (хода), not of 5 (ходов)
    assert ("\nillegal: карта должна закрывать поля или касаться территории по стороне поля "
            "[CB-2]\n") in out
    assert "\nillegal: сначала выложите карту с руки (C03) командой place x,y rN [CB-2]\n" in out
    assert "[д/Н]" in out and "партия остановлена; она сохранена" in out


def test_the_terminal_follows_the_locale_and_lang_wins(tmp_path: Path) -> None:
    script = "A1-A1\nquit\ny\n"
    args = ("play", "countred", "--plain", "--seed", "1", "--seat", "1=random")
    by_locale = rulebox(*args, stdin=script, env={"LANG": "de_DE.UTF-8"}, data=tmp_path)
    assert "illegal: ein Zug von A1 nach A1 ist kein Zug [CR-3]" in by_locale.stdout.decode()
    over_env = rulebox("--lang", "en", *args, stdin=script, env={"RULEBOX_LANG": "ru"},
                       data=tmp_path)
    assert "illegal: a move from A1 to A1 is not a move [CR-3]" in over_env.stdout.decode()
    env_over_locale = rulebox(*args, stdin=script,
                              env={"RULEBOX_LANG": "ru", "LANG": "de_DE.UTF-8"}, data=tmp_path)
    assert "illegal: ход с A1 на A1 — не ход [CR-3]" in env_over_locale.stdout.decode()
    bad = rulebox("play", "countred", "--lang", "fr", data=tmp_path)
    assert bad.returncode == 2 and "unknown language 'fr'" in bad.stderr.decode()


def test_the_help_is_in_the_language_asked(tmp_path: Path) -> None:
    german = rulebox("--lang", "de", "play", "--help", data=tmp_path).stdout.decode()
    assert "Sekunden pro Computerzug, mehr als 0 (1)" in german
    russian = rulebox("play", "--help", env={"RULEBOX_LANG": "ru"}, data=tmp_path)
    assert "секунд на ход компьютера, больше 0 (1)" in russian.stdout.decode()
    english = rulebox("play", "--help", env={"LANG": "C"}, data=tmp_path).stdout.decode()
    assert "seconds per computer turn, more than 0 (1)" in english


def test_the_order_of_the_choice() -> None:
    assert resolve("ru", {"RULEBOX_LANG": "de", "LANG": "de_DE.UTF-8"}) == "ru"
    assert resolve(None, {"RULEBOX_LANG": "de", "LANG": "ru_RU.UTF-8"}) == "de"
    assert resolve(None, {"LANG": "ru_RU.UTF-8"}) == "ru"
    assert resolve(None, {"LANG": "fr_FR.UTF-8"}) == "en"
    # the engine: never the locale
    assert engine_language(None, {"LANG": "de_DE.UTF-8"}) == "en"
    assert engine_language(None, {"RULEBOX_LANG": "ru", "LANG": "de_DE.UTF-8"}) == "ru"
    assert engine_language("de", {"RULEBOX_LANG": "ru"}) == "de"


ENGINE_SCRIPT = "new countred seed=1\nplay A1-A1\nplay zz\nview 7\nfrobnicate\nresult\n"


def test_the_engine_speaks_german_with_lang_de(tmp_path: Path) -> None:
    proc = rulebox("engine", "--lang", "de", stdin=ENGINE_SCRIPT, data=tmp_path)
    out = proc.stdout.decode()
    assert "? illegal: ein Zug von A1 nach A1 ist kein Zug [CR-3]\n" in out
    assert "? fehlerhafter Zug 'zz'" in out
    assert "? kein Spieler 7: Spieler sind 0 bis 1\n" in out
    assert "? unbekannter Befehl 'frobnicate'\n" in out
    assert "= ongoing\n" in out  # protocol words stay


def test_the_engine_stays_english_under_a_german_locale(tmp_path: Path) -> None:
    proc = rulebox("engine", stdin=ENGINE_SCRIPT, env={"LANG": "de_DE.UTF-8",
                                                        "LC_ALL": "de_DE.UTF-8"}, data=tmp_path)
    out = proc.stdout.decode()
    assert "? illegal: a move from A1 to A1 is not a move [CR-3]\n" in out
    assert "? unknown command 'frobnicate'\n" in out
    russian = rulebox("engine", stdin=ENGINE_SCRIPT, env={"RULEBOX_LANG": "ru"}, data=tmp_path)
    assert "? illegal: ход с A1 на A1 — не ход [CR-3]\n" in russian.stdout.decode()


def test_an_engine_keeps_its_language_whatever_the_context() -> None:
    with use_language("ru"):
        engine = Engine()
        assert engine.handle("new countred seed=1") == "= countred even=0 first=0 " \
            "seed=1 stack_lift=seed\n\n"
        assert engine.handle("play A1-A1") == \
            "? illegal: a move from A1 to A1 is not a move [CR-3]\n\n"
    german = Engine("de")
    german.handle("new countred seed=1")
    assert german.handle("play A1-A1") == \
        "? illegal: ein Zug von A1 nach A1 ist kein Zug [CR-3]\n\n"


def test_the_full_screen_in_german() -> None:
    set_language("de")
    game = game_entry("countred").cls.new({"seed": "1"})
    table = Table(game, make_seats(game.id, 2, ["1=random"], 0.05), seed=7)

    async def drive() -> None:
        app = GameApp(table, time=0.05)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            box = app.query_one("#cmd", Input)
            assert box.placeholder == "ein Zug oder ? für Hilfe"
            box.value = "A1-A1"
            await pilot.press("enter")
            await pilot.pause()
            shown = app.message.plain
            assert shown == "illegal: ein Zug von A1 nach A1 ist kein Zug [CR-3]"
            log = " ".join(e.plain for e in app.query_one("#log", MoveLog).entries)
            assert "tippe ? für Hilfe und die erlaubten Züge" in log
            box.value = "?"
            await pilot.press("enter")
            await pilot.pause()
            helptext = "\n".join(app.panel)
            assert "Befehle:" in helptext and "Esc schließt diese Tafel" in helptext
            box.value = "resign"
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.screen, Question)
            assert "Diese Partie aufgeben?" in app.screen.question
            await pilot.press("j")  # ja
            await pilot.pause()
            assert isinstance(app.screen, EndScreen)
            assert "gibt auf" in app.screen.message
            await pilot.press("q")

    asyncio.run(drive())
