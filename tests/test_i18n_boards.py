"""The boards' own words in the reader's language (issue 23, the audit's leftovers): the
terminal's drawings (Columns' rank labels, 36 to 1's symbol headings) in German and Russian,
counts in each language's plural forms (no hand-made ``tile(s)``), no English word filled into
a translated sentence, and ``scripts/i18n.py``'s checkers finding what the audit found."""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_javascript

from rulebox.cli.board import board_lines
from rulebox.core.errors import InvalidMoveError
from rulebox.core.game import Game
from rulebox.core.registry import game_entry, game_ids, new_game
from rulebox.i18n import catalog_json, ngettext, use_language
from rulebox.match.table import Seat, Table
from tests.i18n_helpers import play, tool

ROOT = Path(__file__).resolve().parent.parent
WORD = re.compile(r"[^\W\d_]{2,}")






def _drawing(game: Game, lang: str) -> list[str]:
    with use_language(lang):
        text = game_entry(game.id).render(game, None).plain
        n = board_lines(game, None)
    return text.split("\n")[:n]


def _vocabulary(lang: str) -> set[str]:
    """The words the catalogue's ``lang`` translations use themselves."""
    found: set[str] = set()
    for text in catalog_json(lang)["messages"].values():
        for form in text if isinstance(text, list) else [text]:
            found.update(w.lower() for w in WORD.findall(form))
    return found


# --- the terminal's drawings ---------------------------------------------------------------------
@pytest.mark.parametrize("game_id", sorted(game_ids()))
def test_the_terminal_drawing_has_no_english_word_in_german_or_russian(game_id: str) -> None:
    for game in (play(game_id, 4, 2), play(game_id, 4, 14)):
        english = {w.lower() for line in _drawing(game, "en") for w in WORD.findall(line)}
        for lang in ("de", "ru"):
            own = _vocabulary(lang)
            drawn = " ".join(_drawing(game, lang))
            left = {w for w in WORD.findall(drawn) if w.lower() in english - own}
            assert not left, (lang, left, drawn)
            if lang == "ru":
                # Russian words are Cyrillic: a Latin word in a Russian drawing is English
                latin = [w for w in WORD.findall(drawn) if re.fullmatch(r"[A-Za-z]+", w)]
                assert not latin, (latin, drawn)


def test_columns_names_its_ranks_in_each_language() -> None:
    game = play("columns", 1, 6)
    assert any(line.lstrip().startswith("rank 3 ") for line in _drawing(game, "en"))
    assert any(line.lstrip().startswith("Reihe 3 ") for line in _drawing(game, "de"))
    assert any(line.lstrip().startswith("ряд 3 ") for line in _drawing(game, "ru"))
    # the drawing keeps its columns: the pins' names stand under the same cells
    for lang in ("de", "ru"):
        lines = _drawing(game, lang)
        labels = next(line for line in lines if "a3" in line)
        assert labels.index("b3") - labels.index("a3") == 6


def test_36to1_headings_agree_with_their_numbers() -> None:
    game = play("36to1", 2, 0)
    heads = {lang: _drawing(game, lang)[0] for lang in ("en", "de", "ru")}
    assert "2 hammers" in heads["en"] and "3 circles" in heads["en"]
    assert "2 Hämmer" in heads["de"] and "4 Ziegel" in heads["de"]
    for words in ("1 капля", "2 молотка", "3 круга", "4 кирпича", "5 колесо", "6 стрела"):
        assert words in heads["ru"], heads["ru"]
    # the cubes stand under their headings in every language
    for lang in heads:
        grid = _drawing(game, lang)
        files = grid[1]
        assert files.split() == list("abcdef"), (lang, files)
    # a card's words too: "or 3 circles" reads "или 3 круга" (not "3 круги")
    with use_language("ru"):
        text = game_entry("36to1").render(game, None).plain
    assert not re.search(r"\d (круги|молотки|кирпичи)\b", text), text


# --- plurals and whole sentences -----------------------------------------------------------------
def test_no_message_makes_a_plural_by_hand() -> None:
    assert tool.handmade_plurals() == []
    catalog = Catalog()
    catalog.add("you have {n} tile(s) left")
    catalog.add(("{n} tile", "{n} tiles"))
    assert tool.handmade_plurals(catalog) == [
        "pot: a hand-made plural (use ngettext): 'you have {n} tile(s) left'"]


def _columba_after(moves: str) -> Game:
    game = new_game("columba", {"seed": "3", "players": "2"})
    for m in moves.split("|"):
        game.apply(game.parse_move(m))
    return game


def test_columbas_tile_counts_say_each_languages_plural() -> None:
    game = _columba_after("place 1,-1 r0|cote large 0,0|end|place 3,-1 r90|cote large 2,-1|end|"
                          "place 1,2 r180")
    said = {}
    for lang in ("en", "de", "ru"):
        with use_language(lang):
            why = game.illegal_reason(game.parse_move("buy WK"))
        assert why is not None and why.rule == "CB-8"
        said[lang] = why.reason
    assert said["en"] == "a falcon costs 2 tiles from your reserve"
    assert said["de"] == "ein Falke kostet 2 Plättchen aus deinem Vorrat"
    assert said["ru"] == "сокол стоит 2 тайла с вашей мини-доски"
    # every form of the counted messages, 1, 2 and 5 in Russian
    with use_language("ru"):
        forms = [ngettext("the supply has only {n} {colour} tile left",
                          "the supply has only {n} {colour} tiles left", n).format(
                              n=n, colour="белый") for n in (1, 2, 5)]
    assert forms == ["в общем запасе остался только 1 тайл (белый)",
                     "в общем запасе осталось только 2 тайла (белый)",
                     "в общем запасе осталось только 5 тайлов (белый)"]


def test_a_malformed_move_is_explained_in_the_readers_language() -> None:
    game = new_game("columba", {"seed": "3", "players": "2"})
    with use_language("ru"), pytest.raises(InvalidMoveError) as caught:
        game.parse_move("buy 9")
    text = str(caught.value)
    assert "напишите buy XY" in text and "write" not in text and "colours" not in text
    discs = new_game("discs", {})
    with use_language("de"), pytest.raises(InvalidMoveError) as caught:
        discs.parse_move("zzz")
    assert "schreibe einen Stiftzug" in str(caught.value) and "write" not in str(caught.value)


def test_no_english_word_is_filled_into_a_translated_refusal() -> None:
    # 36 to 1: a card's colour and column named in the reader's language
    game = new_game("36to1", {"seed": "0"})
    card = next(str(m).split(":")[0] for m in game.legal_moves())
    colour = card[0]
    target = next(c for c in (f"{f}{r}" for f in "abcdef" for r in "123456")
                  if game.position_json()["grid"][int(c[1]) - 1]["abcdef".index(c[0])]
                  not in (colour, ".") and "abcdef".index(c[0]) != int(card[1]) - 1)
    with use_language("ru"):
        why = game.illegal_reason(game.parse_move(f"{card}:{target}"))
    assert why is not None and why.rule == "S36-1"
    english = {"red", "yellow", "green", "blue", "black", "white", "drop", "hammers",
               "circles", "bricks", "wheel", "arrow"}
    assert not english & set(WORD.findall(why.reason)), why.reason


# --- the checkers --------------------------------------------------------------------------------
def test_the_web_checker_reads_what_a_board_draws(tmp_path: Path) -> None:
    src = tmp_path / "board.js"
    src.write_text(
        'g.append(svg("text", { x: cx, y: cy, class: "falcon-f" }, "F"));\n'
        'g.append(svg("text", { x, y, class: "disc-name home" }, "home"));\n'
        'g.append(svg("text", { x, y, class: "disc-name" }, d));\n'
        'g.append(svg("text", { x, y, class: "star" }, "★"));\n'
        'g.append(svg("text", { x, y, "aria-hidden": "true" }, `${f} · ${i + 1}`));\n'
        'g.append(svg("title", {}, t("falcon, owner: {seat}", { seat })));\n'
        'g.append(svg("text", { x, y, class: "home" }, t("home")));\n', encoding="utf-8")
    found = [line.split(": ", 1)[1] for line in tool.unmarked_js(src)]
    assert found == ["'F'", "'home'"]


def test_the_python_checker_reads_reasons_hints_and_drawings(tmp_path: Path) -> None:
    rules = tmp_path / "rules.py"
    rules.write_text(
        'from rulebox.i18n import N_, _\n'
        'HELP = "write place x,y rN or end"\n'
        'MARKED = N_("write falcon x,y")\n'
        'def pay(what, cost, rule):\n'
        '    if cost:\n'
        '        return (f"{what} costs {cost} tile(s)", rule)\n'
        '    return (_("a falcon costs {n} tiles").format(n=cost), "CB-8")\n'
        'def bad(text, word):\n'
        '    hints = {"place": "write place x,y rN"}\n'
        '    raise InvalidMoveError(text, hints.get(word, HELP))\n'
        'def good(text):\n'
        '    raise InvalidMoveError(text, _(MARKED))\n', encoding="utf-8")
    found = [line.split(": ", 1)[1] for line in tool.unmarked_python(rules)]
    assert sorted(found) == sorted(["'{} costs {} tile(s)'", "'write place x,y rN'",
                                    "'write place x,y rN or end'"])
    render = tmp_path / "render.py"
    render.write_text(
        'def draw(out, rank, level, word):\n'
        '    label = f"rank {rank}" if level == 3 else ""\n'
        '    out.append(f"{label:>6} {level} ")\n'
        '    move = parse_move(f"falcon {word}")\n', encoding="utf-8")
    found = [line.split(": ", 1)[1] for line in tool.unmarked_python(render)]
    assert found == ["'rank {}'"]


def test_every_web_message_is_extracted(tmp_path: Path) -> None:
    assert tool.unextracted_js() == []
    # Babel's JavaScript extractor drops a tn() made inside t()'s arguments: found
    src = tmp_path / "demo.js"
    src.write_text(
        'x = t("falcons: {chicks}", { chicks: tn("{n} chick", "{n} chicks", n) });\n'
        'const adults = tn("{n} adult", "{n} adults", k);\n'
        'y = t("falcons: {adults}", { adults });\n', encoding="utf-8")
    catalog = Catalog()
    with open(src, "rb") as f:
        for _line, _func, message, _comments in extract_javascript(
                f, {"t": None, "tn": (1, 2)}, [], {}):
            if isinstance(message, str) or (isinstance(message, tuple) and all(message)):
                catalog.add(message)
    found = tool.unextracted_js(catalog, [src])
    assert [line.split(": ", 2)[2] for line in found] == [
        "'{n} chick' is not extracted (a t()/tn() inside another's arguments)"]


@pytest.mark.parametrize(("singular", "plural", "forms"), [
    ("{n} turn in a row without a new token", "{n} turns in a row without a new token",
     ["1 ход подряд", "2 хода подряд", "5 ходов подряд"]),
    ("This position has occurred {n} time: `claim` draws.",
     "This position has occurred {n} times: `claim` draws.",
     ["встречалась 21 раз:", "встречалась 3 раза:", "встречалась 5 раз:"]),
    ("{n} chick", "{n} chicks", ["1 птенец", "2 птенца", "5 птенцов"]),
    ("{n} inaccuracy", "{n} inaccuracies", ["1 неточность", "2 неточности", "5 неточностей"]),
])
def test_counts_shown_on_boards_and_in_endings_take_russians_three_forms(
        singular: str, plural: str, forms: list[str]) -> None:
    numbers = [int(re.search(r"\d+", f).group()) for f in forms]  # type: ignore[union-attr]
    with use_language("ru"):
        said = [ngettext(singular, plural, n).format(n=n) for n in numbers]
    for text, form in zip(said, forms, strict=True):
        assert form in text, (text, form)
    web = catalog_json("ru")["messages"][singular]
    assert isinstance(web, list) and len(web) == 3


@pytest.mark.parametrize(("lang", "game", "args", "words", "english"), [
    ("ru", "36to1", ["--seed", "1"], ["1 капля", "2 молотка", "3 круга", "4 кирпича"],
     ["drop", "hammers", "circles", "bricks", "wheel", "arrow"]),
    ("de", "columns", ["--seat", "1=random", "--time", "0.1"], ["Reihe 3", "Reihe 2", "Reihe 1"],
     ["rank"]),
])
def test_rulebox_play_draws_the_board_in_the_language_asked(
        tmp_path: Path, lang: str, game: str, args: list[str], words: list[str],
        english: list[str]) -> None:
    env = {k: v for k, v in os.environ.items()
           if k not in ("RULEBOX_LANG", "LANG", "LC_ALL", "LC_MESSAGES", "LANGUAGE")}
    yes = {"ru": "д", "de": "j"}[lang]
    proc = subprocess.run(
        [sys.executable, "-m", "rulebox.cli.main", "play", game, "--plain", "--lang", lang,
         *args], input=f"quit\n{yes}\n".encode(), capture_output=True, timeout=120,
        env={**env, "NO_COLOR": "1", "COLUMNS": "120", "RULEBOX_DATA": str(tmp_path)})
    out = proc.stdout.decode()
    assert proc.returncode == 0, proc.stderr.decode()
    for w in words:
        assert w in out, (w, out)
    found = {w for w in WORD.findall(out) if w.lower() in english}
    assert not found, (found, out)


# Count Red, seed 4: the 33rd move makes a three in column B (CR-10), played by a German reader
COUNT_RED_THREE = (
    "C2-A3 D3-C4 D1-B4 A1-C3 B3-D3 C3-D2 D3-C3 C4-A2 C4-D4 A2-B3 C3-B2 B3-A4 B1-D1 D2-B1 A3-C3 "
    "C1-A1 B2-B1 D2-A1 B2-A2 A3-D3 C3-C2 A1-D3 C2-B2 A4-B2 D4-C3 A1-D4 D1-A1 D4-D1 B1-B3 D3-D4 "
    "C3-D3 B1-C3 B4-B1").split()


def test_a_games_announcement_reads_in_each_readers_language_also_after_a_reload() -> None:
    game = game_entry("countred").cls.new({"seed": "4"})
    table = Table(game, [Seat.person(), Seat.person()], seed=5)
    with use_language("de"):  # the mover reads German; the others read their own
        for move in COUNT_RED_THREE:
            table.play(table.to_move(), move)
    [three] = table.announcements()
    assert three.kind == "bonus_move"
    expected = {
        "en": "three in a column: B1, B2, B3 are locked; first earns a bonus move [CR-10]",
        "de": "Dreierreihe in einer Spalte: B1, B2, B3 sind gesperrt; Erster erhält einen "
              "Bonuszug [CR-10]",
        "ru": "тройка в столбце: B1, B2, B3 заблокированы; первый получает бонусный ход "
              "[CR-10]",
    }
    again = Table.from_json(table.to_json(), [Seat.person(), Seat.person()])
    [reloaded] = again.announcements()
    for lang, text in expected.items():
        with use_language(lang):
            assert three.shown() == text
            assert three.to_json()["text"] == text
            assert reloaded.shown() == text


@pytest.fixture(scope="module")
def server_url(tmp_path_factory: pytest.TempPathFactory) -> object:
    pytest.importorskip("fastapi")
    pytest.importorskip("uvicorn")
    from rulebox.server.testing import ServerProcess

    folder = tmp_path_factory.mktemp("i18n-boards-server")
    srv = ServerProcess(f"sqlite:///{folder / 'rulebox.db'}", log=folder / "server.log",
                        args=["--moves-per-second", "1000", "--moves-burst", "5000"]).start()
    yield srv.url
    srv.stop()


def test_the_end_screens_why_is_in_the_readers_language(server_url: str) -> None:
    import httpx

    with httpx.Client(base_url=server_url, timeout=30) as client:
        g = client.post("/api/games", json={"game": "columns", "seats": ["human", "human"],
                                            "hotseat": True}).json()
        tokens = [s["token"] for s in g["seats"]]
        rng = random.Random(3)
        for _n in range(200):
            st = client.get(f"/api/games/{g['id']}",
                            headers={"Authorization": f"Bearer {tokens[0]}"}).json()
            if st["over"]:
                break
            token = tokens[st["to_move"]]
            st = client.get(f"/api/games/{g['id']}",
                            headers={"Authorization": f"Bearer {token}"}).json()
            client.post(f"/api/games/{g['id']}/moves", json={"move": rng.choice(st["legal"])},
                        headers={"Authorization": f"Bearer {token}"})
        results = {lang: client.get(f"/api/games/{g['id']}?lang={lang}").json()["result"]
                   for lang in ("en", "ru")}
    en, ru = results["en"], results["ru"]
    assert en is not None and ru is not None
    assert ru["reason"] == en["reason"]  # the stored reason, as saved
    assert en["why"] == en["reason"] and ru["why"] != en["why"]
    english = {w.lower() for w in WORD.findall(en["why"])}
    assert english and not english & {w.lower() for w in WORD.findall(ru["why"])}, ru["why"]
