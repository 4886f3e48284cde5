"""The message catalogue (issue 23): every message of the code is in the .pot, every shipped
language translates every one with the same placeholders and all its plural forms, the
committed .mo files are the compiled .po files, and the places that show text to people mark
it for translation (scripts/i18n.py, docs/LANGUAGES.md)."""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from rulebox.cli.text import plural, yes_words
from rulebox.core.registry import game_entry
from rulebox.i18n import catalog_json, use_language
from rulebox.match.table import Seat, Table
from tests.i18n_helpers import tool

ROOT = Path(__file__).resolve().parent.parent




# --- the shipped catalogues -----------------------------------------------------------------------
@pytest.mark.parametrize("lang", ["de", "ru"])
def test_every_message_id_is_translated(lang: str) -> None:
    todo = [m.id for m in tool.missing(lang)]
    assert todo == [], f"{len(todo)} untranslated in {lang} (python scripts/i18n.py missing)"


@pytest.mark.parametrize("lang", ["de", "ru"])
def test_translations_keep_placeholders_and_plural_forms_and_the_mo_is_compiled(
        lang: str) -> None:
    found = [p for p in tool.problems(lang) if "untranslated" not in p]
    assert found == []


def test_pybabel_extract_runs_and_the_committed_pot_is_up_to_date(tmp_path: Path) -> None:
    pybabel = shutil.which("pybabel") or str(Path(sys.executable).with_name("pybabel"))
    out = tmp_path / "rulebox.pot"
    command = [pybabel, *tool.pybabel_command(out)[1:]]
    proc = subprocess.run(command, cwd=ROOT, capture_output=True, timeout=300)
    assert proc.returncode == 0, proc.stderr.decode()
    with open(out, "rb") as f:
        extracted = {tool.key(m) for m in read_po(f) if m.id}
    committed = {tool.key(m) for m in tool.read_catalog(tool.POT) if m.id}
    assert len(extracted) > 500  # the terminal, the engine, the games, the server, the web
    assert extracted - committed == set(), "run: python scripts/i18n.py extract"
    assert committed - extracted == set(), "run: python scripts/i18n.py extract"
    # the tool's own extraction (the same babel.cfg) agrees with the command line's
    assert {tool.key(m) for m in tool.extract() if m.id} == extracted


def test_known_messages_are_in_the_pot() -> None:
    ids = {tool.key(m)[1] for m in tool.read_catalog(tool.POT)}
    assert "there is no piece on {src}" in ids  # a Count Red refusal (CR-3)
    assert "{n} move" in ids  # a plural of the terminal
    assert "Your turn" in ids  # the web client's t()
    assert "usage: play <move>" in ids  # the engine


def test_web_messages_inside_template_literals_are_extracted(tmp_path: Path) -> None:
    from babel.messages.extract import extract_from_file
    from babel.messages.frontend import parse_mapping_cfg

    with open(ROOT / "babel.cfg", encoding="utf-8") as f:
        method_map, options_map = parse_mapping_cfg(f, "babel.cfg")
    pattern, method = next((p, m) for p, m in method_map if m == "javascript")
    options = dict(options_map[pattern])
    keywords = {**tool.KEYWORDS, **options.pop("keywords", {})}
    src = tmp_path / "demo.js"
    src.write_text('el("span", {}, `${n} ${t("(you)")} ${tn("{n} cube", "{n} cubes", n)}`);\n'
                   'x = t("plain");\n', encoding="utf-8")
    found = [m[1] for m in extract_from_file(method, str(src), keywords=keywords,
                                             options=options)]
    assert found == [("(you)"), ("{n} cube", "{n} cubes"), "plain"]


# --- the check itself fails on a broken catalogue -------------------------------------------------
def _template() -> Catalog:
    template = Catalog(domain="rulebox")
    template.add("{name} plays {move}")
    template.add("a red {n}")
    template.add("%(count)s cubes")
    template.add(("{n} move", "{n} moves"))
    template.add(" and ")
    return template


def _catalog(lang: str, **over: object) -> Catalog:
    good: dict[object, object] = {
        "{name} plays {move}": "{name} spielt {move}" if lang == "de" else "{name} играет {move}",
        "a red {n}": "eine rote {n}" if lang == "de" else "красная {n}",
        "%(count)s cubes": "%(count)s Würfel" if lang == "de" else "%(count)s кубиков",
        ("{n} move", "{n} moves"): (("{n} Zug", "{n} Züge") if lang == "de"
                                    else ("{n} ход", "{n} хода", "{n} ходов")),
        " and ": " und " if lang == "de" else " и ",
    }
    for k, v in over.items():
        good[{"plays": "{name} plays {move}", "red": "a red {n}", "cubes": "%(count)s cubes",
              "moves": ("{n} move", "{n} moves"), "and": " and "}[k]] = v
    catalog = Catalog(locale=lang, domain="rulebox")
    for msgid, text in good.items():
        if text is not None:
            catalog.add(msgid, text)  # type: ignore[arg-type]
    return catalog


@pytest.mark.parametrize("lang", ["de", "ru"])
def test_a_complete_catalogue_passes(lang: str) -> None:
    assert tool.check_catalog(_template(), _catalog(lang), lang) == []


@pytest.mark.parametrize(("lang", "change", "says"), [
    ("de", {"plays": None}, "untranslated"),
    ("ru", {"plays": ""}, "untranslated"),
    ("de", {"plays": "{name} spielt"}, "placeholders"),  # {move} dropped
    ("ru", {"plays": "{name} играет {move} {extra}"}, "placeholders"),  # one added
    ("de", {"red": "eine rote {m}"}, "placeholders"),  # renamed
    ("ru", {"cubes": "кубиков: %(n)s"}, "placeholders"),  # %(count)s dropped
    ("ru", {"moves": ("{n} ход", "{n} ходов")}, "plural forms"),  # Russian needs 3
    ("de", {"moves": ("{n} Zug",)}, "plural forms"),
    ("de", {"and": "und"}, "spaces"),
])
def test_the_check_fails_on_a_broken_translation(lang: str, change: dict[str, object],
                                                 says: str) -> None:
    found = tool.check_catalog(_template(), _catalog(lang, **change), lang)
    assert found and any(says in p for p in found), found


def test_a_singular_may_leave_out_the_number_but_keeps_every_other_placeholder() -> None:
    template = Catalog(domain="rulebox")
    template.add(("{n} cube left on {cell}", "{n} cubes left on {cell}"))
    ok = Catalog(locale="de", domain="rulebox")
    ok.add(("{n} cube left on {cell}", "{n} cubes left on {cell}"),
           ("ein Würfel übrig auf {cell}", "{n} Würfel übrig auf {cell}"))
    assert tool.check_catalog(template, ok, "de") == []
    bad = Catalog(locale="de", domain="rulebox")
    bad.add(("{n} cube left on {cell}", "{n} cubes left on {cell}"),
            ("ein Würfel übrig", "{n} Würfel übrig auf {cell}"))
    assert tool.check_catalog(template, bad, "de")


def test_a_stale_mo_is_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    locale = tmp_path / "locale"
    for lang in ("de", "ru"):
        d = locale / lang / "LC_MESSAGES"
        d.mkdir(parents=True)
        shutil.copy(tool.po_path(lang), d / "rulebox.po")
        shutil.copy(tool.po_path(lang).with_suffix(".mo"), d / "rulebox.mo")
    monkeypatch.setattr(tool, "LOCALE", locale)
    monkeypatch.setattr(tool, "ROOT", tmp_path)
    assert not any(".mo" in p for p in tool.problems("de"))
    po = locale / "de" / "LC_MESSAGES" / "rulebox.po"
    po.write_text(po.read_text(encoding="utf-8").replace('msgstr "ja"', 'msgstr "jawohl"', 1),
                  encoding="utf-8")
    assert any(".mo is not the compiled .po" in p for p in tool.problems("de"))


# --- plural forms at run time --------------------------------------------------------------------
@pytest.mark.parametrize(("lang", "expected"), [
    ("en", ["1 move", "2 moves", "5 moves", "11 moves", "21 moves", "22 moves"]),
    ("de", ["1 Zug", "2 Züge", "5 Züge", "11 Züge", "21 Züge", "22 Züge"]),
    ("ru", ["1 ход", "2 хода", "5 ходов", "11 ходов", "21 ход", "22 хода"]),
])
def test_counts_agree_with_their_noun_in_each_language(lang: str, expected: list[str]) -> None:
    with use_language(lang):
        assert [plural(n, "move") for n in (1, 2, 5, 11, 21, 22)] == expected


def test_the_web_catalogue_carries_every_plural_form() -> None:
    ru = catalog_json("ru")
    assert ru["messages"]["{n} move"] == ["{n} ход", "{n} хода", "{n} ходов"]
    assert "nplurals=3" in ru["plural"]
    assert catalog_json("de")["messages"]["Your turn"] == "Du bist am Zug"
    assert catalog_json("en")["messages"] == {}


def test_yes_in_each_language() -> None:
    with use_language("de"):
        assert {"y", "yes", "j", "ja"} <= set(yes_words())
    with use_language("ru"):
        assert {"y", "yes", "д", "да"} <= set(yes_words())


# --- refusals: the reason translated, the rule ID and the protocol's words not ------------------
def test_a_refusal_is_one_line_with_the_rule_id_outside_the_translation() -> None:
    game = game_entry("countred").cls.new({"seed": "1"})
    for lang, reason in (("en", "a move from A1 to A1 is not a move"),
                         ("de", "ein Zug von A1 nach A1 ist kein Zug"),
                         ("ru", "ход с A1 на A1 — не ход")):
        with use_language(lang):
            illegal = game.illegal_reason(game.parse_move("A1-A1"))
            assert illegal is not None
            assert (illegal.reason, illegal.rule) == (reason, "CR-3")
            assert str(illegal.error()) == f"illegal: {reason} [CR-3]"
            assert "\n" not in str(illegal.error())


# --- the table's texts are said in the reader's language -----------------------------------------
def test_the_tables_events_are_shown_in_each_readers_language_also_after_a_reload() -> None:
    game = game_entry("columns").cls.new({"seed": "2"})
    table = Table(game, [Seat.person(), Seat.person()], seed=5)
    with use_language("en"):
        table.play(0, "Ra1")
        table.resign(1)
    move, resigned = table.events[-2], table.events[-1]
    assert move.text.endswith("plays Ra1")
    with use_language("de"):
        assert move.shown() == "hell (Mensch) spielt Ra1"
        assert resigned.shown().startswith("dunkel (Mensch) gibt auf; hell")
        assert table.ending is not None and table.ending.shown().endswith("gewinnt")
    with use_language("ru"):
        assert move.to_json()["text"] == "светлый (человек) играет Ra1"
        assert "сдаётся; побеждает светлый" in resigned.shown()
    saved = table.to_json()
    again = Table.from_json(saved, [Seat.person(), Seat.person()])
    with use_language("de"):
        assert again.events[-2].shown() == "hell (Mensch) spielt Ra1"
        assert again.ending is not None and "gibt auf" in again.ending.shown()


# --- the places that show text to people mark it --------------------------------------------------
def test_no_person_facing_python_string_is_left_unmarked() -> None:
    found = [f for f in tool.unmarked() if not f.startswith("src/rulebox/web/")]
    assert found == [], "mark these with _() / ngettext():\n" + "\n".join(found)


def test_no_person_facing_web_string_is_left_unmarked() -> None:
    found = [f for f in tool.unmarked() if f.startswith("src/rulebox/web/")]
    assert found == [], "wrap these in t() / tn():\n" + "\n".join(found)


def test_the_python_checker_finds_what_is_not_marked(tmp_path: Path) -> None:
    src = tmp_path / "cli" / "demo.py"
    src.parent.mkdir()
    src.write_text(
        'from rulebox.i18n import _\n'
        'def f(console, where, move):\n'
        '    raise IllegalMoveError(f"there is no piece on {where}", "CR-3")\n'
        '    raise IllegalMoveError(_("there is no piece on {where}").format(where=where),'
        ' "CR-3")\n'
        '    raise StateError("bad state " + where)\n'
        '    raise TableError("stale", "the game has changed")\n'
        '    raise InvalidMoveError(move, "expected a field")\n'
        '    raise InvalidMoveError(move)\n'
        '    console.print("type ? for help")\n'
        '    console.print(_("type ? for help"))\n'
        '    console.print(f"{move} [CR-9]")\n'
        '    console.print("--- ")\n'
        '    print("seed")\n', encoding="utf-8")
    found = tool.unmarked_python(src)
    assert [line.split(": ", 1)[1] for line in found] == [
        "'there is no piece on {}'", "'bad state '", "'the game has changed'",
        "'expected a field'", "'type ? for help'"]


def test_the_web_checker_finds_what_is_not_marked(tmp_path: Path) -> None:
    src = tmp_path / "demo.js"
    src.write_text(
        'import { el, toast } from "./dom.js";\n'
        'node.textContent = "Your turn";\n'
        'node.textContent = t("Your turn");\n'
        'toast("Copied");\n'
        'toast(t("Copied"));\n'
        'const b = el("button", { class: "x", "aria-label": "Close" }, "Close the panel");\n'
        'const c = el("button", { "aria-label": t("Close") }, t("Close"));\n'
        'const d = el("span", {}, `${n} · ${tn("{n} move", "{n} moves", n)}`);\n'
        'const e = el("span", {}, `moves left: ${n}`);\n'
        'el("span", {}, "seed");\n'
        '// toast("a comment")\n', encoding="utf-8")
    found = [line.split(": ", 1)[1] for line in tool.unmarked_js(src)]
    assert found == ["'Your turn'", "'Copied'", "'Close'", "'Close the panel'",
                     "'moves left:  '"]


def test_the_tool_lists_what_is_untranslated() -> None:
    out = io.StringIO()
    sys_stdout = sys.stdout
    try:
        sys.stdout = out
        assert tool.main(["missing", "de"]) == 0
    finally:
        sys.stdout = sys_stdout
    assert out.getvalue().startswith("# de: ")


# --- the server: errors and the table's events in each request's language ------------------------
@pytest.fixture(scope="module")
def server_url(tmp_path_factory: pytest.TempPathFactory) -> object:
    pytest.importorskip("fastapi")
    pytest.importorskip("uvicorn")
    from rulebox.server.testing import ServerProcess

    folder = tmp_path_factory.mktemp("i18n-server")
    srv = ServerProcess(f"sqlite:///{folder / 'rulebox.db'}", log=folder / "server.log").start()
    yield srv.url
    srv.stop()


def test_the_server_answers_in_each_requests_language(server_url: str) -> None:
    import httpx

    with httpx.Client(base_url=server_url, timeout=30) as client:
        g = client.post("/api/games", json={"game": "columns", "seats": ["human", "human"],
                                             "options": {"seed": "5"}}).json()
        gid, token = g["id"], g["seats"][0]["token"]
        auth = {"Authorization": f"Bearer {token}"}
        refused = client.post(f"/api/games/{gid}/moves", json={"move": "Ra9"},
                              headers={**auth, "Accept-Language": "de-DE,de;q=0.9"})
        assert refused.status_code >= 400
        assert "es gibt keinen Stab a9 (Stäbe sind a1 bis d3)" in refused.json()["error"]["message"]
        played = client.post(f"/api/games/{gid}/moves", json={"move": "Ra1"},
                             headers={**auth, "Accept-Language": "ru"})
        assert played.status_code == 200, played.text
        texts = {}
        for lang in ("en", "de", "ru"):
            st = client.get(f"/api/games/{gid}?lang={lang}", headers=auth).json()
            texts[lang] = [e["text"] for e in st["events"] if e["kind"] == "move"]
        assert texts["en"] == ["light (person) plays Ra1"]
        assert texts["de"] == ["hell (Mensch) spielt Ra1"]
        assert texts["ru"] == ["светлый (человек) играет Ra1"]
        ru = client.get("/api/i18n/ru").json()
        assert ru["messages"]["{n} move"] == ["{n} ход", "{n} хода", "{n} ходов"]
