"""The message catalogue's tooling (docs/LANGUAGES.md): extract, update, fill, compile, check.

    python scripts/i18n.py extract         # the code -> src/rulebox/locale/rulebox.pot
    python scripts/i18n.py update          # the .pot -> de/ru .po (translations kept, no fuzzy)
    python scripts/i18n.py missing [LANG]  # the ids still untranslated (--json: a map to fill)
    python scripts/i18n.py fill LANG FILE  # translations from a JSON map {msgid: text | [forms]}
    python scripts/i18n.py compile         # each .po -> its .mo (committed; gettext reads it)
    python scripts/i18n.py check           # exit 1 on any problem, listing each
    python scripts/i18n.py all             # extract, update, compile, check

Extraction uses Babel's own extractors with the mapping of ``babel.cfg`` (Python files of
``src/rulebox``, the web client's ``.js``) and the keywords ``_ gettext ngettext:1,2
pgettext:1c,2 N_ ngettext_noop:1,2`` (and ``t tn:1,2`` in the web client's files, from
babel.cfg), as ``pybabel extract`` does. The .pot and .po files carry no source locations and
are sorted, so they change only when a message does. In a JSON map for ``fill`` a message with
a context is written ``context`` + ``"\\u0004"`` + ``msgid`` (as gettext keys it).
"""

from __future__ import annotations

import argparse
import io
import json
import re
import string
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from rulebox.i18n import declension  # the one reading of a declined translation

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "src" / "rulebox" / "locale"
POT = LOCALE / "rulebox.pot"
SHIPPED = ("de", "ru")
"""The translated languages (English is the source text)."""

KEYWORDS: dict[str, Any] = {
    "_": None,
    "gettext": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
    "N_": None,
    "ngettext_noop": (1, 2),
    "noun": ((1, "c"), 2),
    "noun_noop": ((1, "c"), 2),
}
"""Babel's keyword specs for Python: ``_ gettext ngettext:1,2 pgettext:1c,2 N_
ngettext_noop:1,2`` (the last marks a plural translated where shown, rulebox.match.table);
babel.cfg adds ``t tn:1,2`` for the web client's files only (a Python name ``t`` is no
message)."""

PYBABEL_KEYWORDS = ["-k", "_", "-k", "gettext", "-k", "ngettext:1,2", "-k", "pgettext:1c,2",
                    "-k", "N_", "-k", "ngettext_noop:1,2",
                    "-k", "noun:1c,2", "-k", "noun_noop:1c,2"]
"""The same keywords for the ``pybabel extract`` command line (``--no-default-keywords``;
``t tn:1,2`` come from babel.cfg)."""

NPLURALS = {"de": 2, "ru": 3}
PLURAL_FORMS = {
    "de": "nplurals=2; plural=(n != 1);",
    "ru": "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && "
          "(n%100<10 || n%100>=20) ? 1 : 2);",
}

_PERCENT = re.compile(r"%\((\w+)\)[-#0 +]*\d*(?:\.\d+)?[diouxXeEfFgGcrs]")


def pybabel_command(output: str | Path) -> list[str]:
    """The ``pybabel extract`` command that writes the .pot to ``output`` (run it at the root)."""
    return ["pybabel", "extract", "-F", "babel.cfg", "--no-default-keywords", *PYBABEL_KEYWORDS,
            "--no-location", "--sort-output", "--omit-header", "-o", str(output), "."]


def extract() -> Catalog:
    """A catalogue of every marked message in the code, as ``pybabel extract`` finds them."""
    with open(ROOT / "babel.cfg", encoding="utf-8") as f:
        method_map, options_map = parse_mapping_cfg(f, str(ROOT / "babel.cfg"))
    catalog = Catalog(project="rulebox", domain="rulebox", charset="utf-8")

    def keep(dirname: str) -> bool:
        name = Path(dirname).name
        return not name.startswith((".", "_")) and name not in ("node_modules", "tests", "bench")

    for filename, _lineno, message, comments, context in extract_from_dir(
            str(ROOT), method_map, options_map, keywords=KEYWORDS,
            directory_filter=keep, strip_comment_tags=True):
        if isinstance(message, tuple) and not all(message):
            continue
        if not message:
            continue
        catalog.add(message, None, [(filename, _lineno)], auto_comments=comments,
                    context=context)
    return catalog


def _dump_po(catalog: Catalog, omit_header: bool = False) -> bytes:
    buf = io.BytesIO()
    write_po(buf, catalog, width=100, no_location=True, omit_header=omit_header,
             sort_output=True, ignore_obsolete=True, include_previous=False)
    return buf.getvalue()


def write_pot(catalog: Catalog) -> bool:
    """Write the .pot (without its volatile header); answers whether it changed."""
    data = _dump_po(catalog, omit_header=True)
    old = POT.read_bytes() if POT.exists() else b""
    if old == data:
        return False
    POT.parent.mkdir(parents=True, exist_ok=True)
    POT.write_bytes(data)
    return True


def read_catalog(path: Path, locale: str | None = None) -> Catalog:
    """A .po or .pot file."""
    with open(path, "rb") as f:
        return read_po(f, locale=locale, domain="rulebox")


def po_path(lang: str) -> Path:
    """The .po of ``lang``."""
    return LOCALE / lang / "LC_MESSAGES" / "rulebox.po"


def _new_catalog(lang: str) -> Catalog:
    catalog = Catalog(locale=lang, domain="rulebox", project="rulebox", charset="utf-8",
                      fuzzy=False)
    return catalog


def _fix_header(catalog: Catalog, lang: str) -> None:
    catalog.fuzzy = False
    catalog._num_plurals = NPLURALS[lang]  # type: ignore[assignment]
    catalog._plural_expr = PLURAL_FORMS[lang].split("plural=", 1)[1].rstrip(";")  # type: ignore[assignment]
    # a fixed revision date: the file changes only when a message does
    catalog.revision_date = catalog.creation_date


def update(langs: Iterable[str] = SHIPPED) -> list[str]:
    """Merge the .pot into each language's .po: new ids added untranslated, translations of
    ids still in the code kept, ids gone from the code dropped (no fuzzy matching)."""
    template = read_catalog(POT)
    changed = []
    for lang in langs:
        path = po_path(lang)
        catalog = read_catalog(path, lang) if path.exists() else _new_catalog(lang)
        before = _dump_po(catalog) if path.exists() else b""
        catalog.update(template, no_fuzzy_matching=True, update_header_comment=False,
                       keep_user_comments=True, update_creation_date=False)
        catalog.obsolete.clear()
        _fix_header(catalog, lang)
        data = _dump_po(catalog)
        if data != before:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
            changed.append(lang)
    return changed


def mo_bytes(po: Path, lang: str) -> bytes:
    """The compiled .mo of a .po (what ``compile`` writes)."""
    catalog = read_catalog(po, lang)
    buf = io.BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    return buf.getvalue()


def compile_all(langs: Iterable[str] = SHIPPED) -> list[str]:
    """Write each .mo next to its .po; answers the languages whose .mo changed."""
    changed = []
    for lang in langs:
        po = po_path(lang)
        data = mo_bytes(po, lang)
        mo = po.with_suffix(".mo")
        if not mo.exists() or mo.read_bytes() != data:
            mo.write_bytes(data)
            changed.append(lang)
    return changed


def placeholders(text: str) -> set[str]:
    """The named placeholders of a message: ``{name}`` (with any conversion or format spec, as
    the text shows it) and ``%(name)s``."""
    found: set[str] = set()
    try:
        for _lit, field, spec, conv in string.Formatter().parse(text):
            if field is not None:
                if spec in ALL_CASES:
                    spec = "<case>"  # each language names the case its own sentence needs
                found.add("{" + field + ("!" + conv if conv else "") + (":" + spec if spec else "")
                          + "}")
    except ValueError:
        found.add("<unbalanced braces>")
    found.update(m.group(0) for m in _PERCENT.finditer(text))
    return found


ALL_CASES = ("nom", "gen", "dat", "acc", "ins", "prep")
"""The cases a placeholder may ask of a noun phrase (``{piece:acc}``); ``CASES`` says which a
language has (German four, Russian six)."""

CASES = {"de": ("nom", "acc", "dat", "gen"), "ru": ALL_CASES}
NOUN_CONTEXT = "noun: "


def case_fields(text: str) -> dict[str, str]:
    """The placeholders of ``text`` that ask a case of a noun phrase, with the case
    (``{piece:acc}`` -> ``{"piece": "acc"}``)."""
    out: dict[str, str] = {}
    try:
        for _lit, field, spec, _conv in string.Formatter().parse(text):
            if field is not None and spec in ALL_CASES:
                out[field] = spec
    except ValueError:
        pass
    return out


def case_problems(catalog: Catalog, lang: str) -> list[str]:
    """Inserted noun phrases whose case a sentence does not declare, and declensions short of
    a case: each placeholder the English id fills with a noun phrase (``{piece:acc}``) names a
    case of ``lang`` in every form of the translation (``{piece:dat}``, never ``{piece}``); a
    noun phrase (context ``noun: ...``) is translated as a declension with a form for every case
    of ``lang`` (German nom acc dat gen; Russian also ins prep), each form with the id's
    placeholders."""
    out: list[str] = []
    cases = CASES[lang]
    for message in catalog:
        if not message.id or not all(_strings(message)):
            continue
        ids = _ids(message)
        wanted = {f for i in ids for f in case_fields(i)}
        for form in _strings(message):
            given = case_fields(form)
            for field in sorted(wanted):
                if field not in given:
                    if "{" + field in form:
                        out.append(f"{lang}: {ids[0]!r}: {{{field}}} is a noun phrase and "
                                   f"{form!r} does not declare its case")
                elif given[field] not in cases:
                    out.append(f"{lang}: {ids[0]!r}: {form!r} asks the case "
                               f"{given[field]!r} of {{{field}}}; {lang} has {', '.join(cases)}")
            for field in sorted(set(given) - wanted):
                out.append(f"{lang}: {ids[0]!r}: {form!r} declines {{{field}}}, which the "
                           f"English id does not fill with a noun phrase")
        if (message.context or "").startswith(NOUN_CONTEXT):
            text = _strings(message)[0]
            forms = declension(text)
            lacking = [c for c in cases if c not in forms]
            if lacking:
                out.append(f"{lang}: {message.context}: {ids[0]!r}: the declension {text!r} "
                           f"lacks {', '.join(lacking)}")
            for case, form in forms.items():
                if placeholders(form) != placeholders(ids[0]):
                    out.append(f"{lang}: {message.context}: {ids[0]!r}: the {case} form "
                               f"{form!r} has other placeholders than the English")
    return out


def undeclared_in_code(files: Iterable[Path] | None = None) -> list[str]:
    """Message ids whose English fills a noun phrase into a placeholder without a case: a
    ``.format(...)`` of a marked message whose argument is a :class:`rulebox.i18n.Noun` (a call
    of ``noun(...)``, or of a function of the same module that answers a ``Noun``, or a name
    bound to one in the same function) while the id's placeholder names no case."""
    import ast

    out: list[str] = []
    for f in sorted((ROOT / "src" / "rulebox").rglob("*.py")) if files is None else files:
        text = f.read_text(encoding="utf-8")
        if "Noun" not in text and "noun(" not in text:
            continue
        tree = ast.parse(text)
        makers = {"noun", "Noun"} | {
            n.name for n in ast.walk(tree)
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.returns is not None
            and "Noun" in ast.unparse(n.returns)}

        def is_noun(node: Any, bound: set[str], makers: set[str] = makers) -> bool:
            if isinstance(node, ast.Call):
                fn = node.func
                name = fn.id if isinstance(fn, ast.Name) else (
                    fn.attr if isinstance(fn, ast.Attribute) else "")
                return name in makers
            return isinstance(node, ast.Name) and node.id in bound

        for func in ast.walk(tree):
            if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)):
                continue
            bound = {t.id for n in ast.walk(func) if isinstance(n, ast.Assign)
                     and is_noun(n.value, set()) for t in n.targets if isinstance(t, ast.Name)}
            for node in ast.walk(func):
                if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                        and node.func.attr == "format"
                        and isinstance(node.func.value, ast.Call)):
                    continue
                marked = node.func.value
                name = marked.func.id if isinstance(marked.func, ast.Name) else ""
                if name not in ("_", "gettext", "ngettext", "pgettext"):
                    continue
                literals = [a.value for a in marked.args
                            if isinstance(a, ast.Constant) and isinstance(a.value, str)]
                if name == "pgettext":
                    literals = literals[1:]
                for kw in node.keywords:
                    if kw.arg is None or not is_noun(kw.value, bound):
                        continue
                    for literal in literals:
                        if "{" + kw.arg in literal and kw.arg not in case_fields(literal):
                            rel = f.relative_to(ROOT) if ROOT in f.parents else f
                            out.append(f"code: {rel}:{node.lineno}: {literal!r} puts a noun "
                                       f"phrase into {{{kw.arg}}} without its case "
                                       f"({{{kw.arg}:acc}}, ...)")
    return list(dict.fromkeys(out))  # a function and its module both walk a call


GLOSSARY = {lang: ROOT / "docs" / f"glossary.{lang}.md" for lang in ("de", "ru")}
"""One glossary per language: each term once, with the variants the catalogue must not use."""


@dataclass(frozen=True)
class Rejected:
    """A variant a glossary rejects: ``pattern`` (a regular expression over a translation),
    checked only in messages whose English id matches ``where`` (every message when empty)."""

    term: str
    pattern: str
    where: str


def _cells(row: str) -> list[str]:
    """A Markdown table row's cells (``\\|`` is a ``|`` inside a cell)."""
    cells = re.split(r"(?<!\\)\|", row.strip().strip("|"))
    return [c.strip().replace("\\|", "|") for c in cells]


def glossary(lang: str, text: str | None = None) -> list[Rejected]:
    """The rejected variants of ``docs/glossary.<lang>.md`` (its tables: English, the word,
    rejected variants in backticks, ids they are checked in, source)."""
    text = GLOSSARY[lang].read_text(encoding="utf-8") if text is None else text
    out: list[Rejected] = []
    for row in text.splitlines():
        if not row.startswith("|") or row.startswith("| ---") or row.startswith("| English"):
            continue
        cells = _cells(row)
        if len(cells) < 4:
            continue
        wheres = re.findall(r"`([^`]+)`", cells[3])
        for pattern in re.findall(r"`([^`]+)`", cells[2]):
            out.append(Rejected(cells[0], pattern, wheres[0] if wheres else ""))
    return out


def glossary_terms(lang: str, text: str | None = None) -> list[str]:
    """The English terms of a glossary's rows, in order (each term is listed once)."""
    text = GLOSSARY[lang].read_text(encoding="utf-8") if text is None else text
    return [_cells(r)[0] for r in text.splitlines()
            if r.startswith("|") and not r.startswith(("| ---", "| English"))]


def glossary_problems(lang: str, catalog: Catalog | None = None,
                      rejected: list[Rejected] | None = None) -> list[str]:
    """Translations of ``lang`` that use a variant its glossary rejects."""
    catalog = read_catalog(po_path(lang), lang) if catalog is None else catalog
    rejected = glossary(lang) if rejected is None else rejected
    compiled = [(r, re.compile(r.pattern), re.compile(r.where, re.I | re.S) if r.where else None)
                for r in rejected]
    out: list[str] = []
    for message in catalog:
        if not message.id or (message.context or "").startswith("role"):
            continue
        ids = _ids(message)
        for r, pattern, where in compiled:
            if where is not None and not any(where.search(i) for i in ids):
                continue
            for form in _strings(message):
                m = pattern.search(form)
                if m:
                    out.append(f"{lang}: {ids[0]!r}: {form!r} uses {m.group(0)!r}, which the "
                               f"glossary rejects for {r.term!r}")
                    break
    return out


def _ids(message: Message) -> list[str]:
    return list(message.id) if isinstance(message.id, (list, tuple)) else [message.id]


def _strings(message: Message) -> list[str]:
    if isinstance(message.string, (list, tuple)):
        return list(message.string)
    return [message.string or ""]


def key(message: Message) -> tuple[str | None, str]:
    """A message's identity: its context and its (singular) id."""
    return message.context, _ids(message)[0]


def check_catalog(template: Catalog, catalog: Catalog, lang: str) -> list[str]:
    """What is wrong with the catalogue of ``lang`` against the template (the .pot): ids
    untranslated or fuzzy, plurals short of a form (German 2, Russian 3), placeholders dropped
    or added (``{name}``, ``%(name)s``; a singular may leave out ``{n}``), spaces lost around a
    message, a Plural-Forms header of the wrong count."""
    out: list[str] = []
    if catalog.num_plurals != NPLURALS[lang]:
        out.append(f"{lang}: Plural-Forms has {catalog.num_plurals} forms, needs {NPLURALS[lang]}")
    for message in template:
        if not message.id:
            continue
        have = catalog.get(_ids(message)[0], context=message.context)
        if have is None or have.fuzzy or not all(_strings(have)):
            out.append(f"{lang}: untranslated: {_ids(message)[0]!r}")
        elif message.pluralizable and len(_strings(have)) != NPLURALS[lang]:
            out.append(f"{lang}: {_ids(message)[0]!r}: {len(_strings(have))} plural forms, "
                       f"needs {NPLURALS[lang]}")
    for message in catalog:
        if not message.id or not all(_strings(message)):
            continue
        ids = _ids(message)
        strings = _strings(message)
        wanted = set().union(*(placeholders(i) for i in ids))
        for form in strings:
            got = placeholders(form)
            # a singular form may leave out the number ({n}: "ein Würfel"), nothing else
            allowed_missing = {p for p in wanted if message.pluralizable and p.startswith("{n")}
            if got - wanted or (wanted - got) - allowed_missing:
                out.append(f"{lang}: {ids[0]!r}: placeholders {sorted(got)} in {form!r}, "
                           f"the English has {sorted(wanted)}")
            if (form[:1].isspace(), form[-1:].isspace()) != (ids[0][:1].isspace(),
                                                            ids[0][-1:].isspace()):
                out.append(f"{lang}: {ids[0]!r}: {form!r} does not keep the spaces around it")
    return out


def missing(lang: str) -> list[Message]:
    """The messages of the .pot that ``lang`` does not translate (in full)."""
    template = read_catalog(POT)
    path = po_path(lang)
    catalog = read_catalog(path, lang) if path.exists() else _new_catalog(lang)
    out = []
    for message in template:
        if not message.id:
            continue
        have = catalog.get(_ids(message)[0], context=message.context)
        if have is None or have.fuzzy or not all(_strings(have)) or (
                message.pluralizable and len(_strings(have)) != NPLURALS[lang]):
            out.append(message)
    return out


def problems(lang: str) -> list[str]:
    """Everything wrong with one shipped language (:func:`check_catalog`), and a .mo that is
    not the compiled .po."""
    path = po_path(lang)
    if not path.exists():
        return [f"{lang}: no {path.relative_to(ROOT)}"]
    catalog = read_catalog(path, lang)
    out = (check_catalog(read_catalog(POT), catalog, lang) + case_problems(catalog, lang)
           + glossary_problems(lang, catalog))
    mo = path.with_suffix(".mo")
    if not mo.exists() or mo.read_bytes() != mo_bytes(path, lang):
        out.append(f"{lang}: {mo.relative_to(ROOT)} is not the compiled .po (run compile)")
    return out


_HANDMADE_PLURAL = re.compile(r"\w\(s\)|\w\(es\)")


def handmade_plurals(catalog: Catalog | None = None) -> list[str]:
    """Message ids that make a plural by hand (``tile(s)``): a count goes through
    ``ngettext``/``tn`` so that each language says it in its own forms (Russian three)."""
    catalog = extract() if catalog is None else catalog
    return [f"pot: a hand-made plural (use ngettext): {_ids(m)[0]!r}"
            for m in catalog if m.id and any(_HANDMADE_PLURAL.search(i) for i in _ids(m))]


_JS_CALL = re.compile(r"\btn?\(\s*$")


def unextracted_js(catalog: Catalog | None = None,
                   files: Iterable[Path] | None = None) -> list[str]:
    """``t("...")``/``tn("...", ...)`` calls of the web client that extraction misses: Babel's
    JavaScript extractor drops a call made inside another's arguments (``t("{a}", { a: tn(...)
    })``), so its message is never translated. Make such a call apart, into a variable."""
    catalog = extract() if catalog is None else catalog
    ids = {_ids(m)[0] for m in catalog if m.id}
    out = []
    for f in sorted((ROOT / "src" / "rulebox" / "web").rglob("*.js")) if files is None else files:
        src = f.read_text(encoding="utf-8")
        for start, quote, literal in js_strings(src):
            line_start = src.rfind("\n", 0, start) + 1
            if quote == "`" or not _JS_CALL.search(src[line_start:start]):
                continue
            text = literal.encode().decode("unicode_escape") if "\\" in literal else literal
            if text not in ids:
                where = f.relative_to(ROOT) if ROOT in f.parents else f
                out.append(f"pot: {where}:{src.count(chr(10), 0, start) + 1}: "
                           f"{text!r} is not extracted (a t()/tn() inside another's arguments)")
    return out


def pot_problems() -> list[str]:
    """The committed .pot against the code: ids the code has and the .pot lacks, and back."""
    extracted = extract()
    code = {key(m) for m in extracted if m.id}
    pot = {key(m) for m in read_catalog(POT) if m.id} if POT.exists() else set()
    out = [f"pot: not extracted yet: {k[1]!r}" for k in sorted(code - pot, key=str)]
    out += [f"pot: no longer in the code: {k[1]!r}" for k in sorted(pot - code, key=str)]
    return (out + handmade_plurals(extracted) + unextracted_js(extracted)
            + undeclared_in_code())


# --- strings not marked for translation ----------------------------------------------------------
ERROR_MESSAGE_ARG: dict[str, int] = {
    "RuleboxError": 0, "InvalidMoveError": 1, "IllegalMoveError": 0, "Illegal": 0,
    "AmbiguousMoveError": 0, "GameOverError": 0, "NothingToUndoError": 0, "OptionError": 0,
    "StateError": 0, "UnknownNameError": 0, "TableError": 1, "StaleVersion": -1,
    "AgentFailure": 0, "ClockError": 0, "FairnessError": 0, "EngineError": 0, "ApiError": 2,
    "ArgumentTypeError": 0,
}
"""The errors people read and which argument is the message (``-1``: none)."""

OUTPUT_CALLS = {"print", "say", "notify", "ask", "confirm", "Question", "Static", "Text",
                "rule", "status", "EndScreen", "read", "append"}
"""Calls that show their first argument to people in the terminal (cli/, tui/)."""

PYTHON_CHECKED = ("src/rulebox/core", "src/rulebox/games", "src/rulebox/engine.py",
                  "src/rulebox/cli", "src/rulebox/tui", "src/rulebox/match/table.py",
                  "src/rulebox/match/announce.py", "src/rulebox/server")
PYTHON_SKIPPED = ("src/rulebox/cli/serve.py", "src/rulebox/cli/tournament.py",
                  "src/rulebox/cli/train.py", "src/rulebox/cli/bench.py",
                  "src/rulebox/server/testing.py")
"""Operators' tools (their output is for the people who run servers and tournaments, and is
written in English like the log lines) and the test helpers."""

ALLOWED = {
    "rulebox", "seed", "--- ", "MOVE", "illegal: ", "fair: ", "Ctrl-C", "rulebox review: ",
}
"""Text that is no language: names, notation, protocol keywords, symbols."""

_WORD = re.compile(r"[A-Za-z]{2,}")
_MARKUP = re.compile(r"\[/?[a-z ]*\]|\{[^{}]*\}|\\[nrt]|%\(\w+\)\w")


_NOT_WORDS = re.compile(r"\[[A-Z0-9]{1,4}-[\w.]+(?:, [A-Z0-9]{1,4}-[\w.]+)*\]"  # [CR-9]
                        r"|^rulebox(?: \w+)?: "  # the program's name before its message
                        r"|\b\w+/s=")  # a measurement's unit: playouts/s=


def _is_language(text: str) -> bool:
    """Whether a literal reads as words (not a symbol, a rule ID, a format slot or markup
    alone)."""
    if text.strip() in ALLOWED or text in ALLOWED:
        return False
    bare = _MARKUP.sub(" ", _NOT_WORDS.sub(" ", text))
    return bool(_WORD.search(bare))


def _literal_text(node: Any) -> str | None:
    """The text of a string literal, an f-string or a ``+`` of them; ``None`` for anything
    that is not written out here (a name, a call such as ``_()``)."""
    import ast

    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(str(v.value) if isinstance(v, ast.Constant) else "{}" for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        parts = [_literal_text(node.left), _literal_text(node.right)]
        found = [p for p in parts if p is not None]
        return " ".join(found) if found else None
    return None


_RULE_ID = re.compile(r"^[A-Z0-9]{1,4}-[\w.]+$")


def _is_rule(node: Any) -> bool:
    """Whether ``node`` is a rule ID written out (``"CB-8"``) or a name holding one (``rule``)."""
    import ast

    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return bool(_RULE_ID.match(node.value))
    name = node.id if isinstance(node, ast.Name) else (
        node.attr if isinstance(node, ast.Attribute) else "")
    return "rule" in name.lower()


def unmarked_python(path: Path, text: str | None = None) -> list[str]:
    """Person-facing literals of a Python file not given to ``_()``/``ngettext()``: the
    message of an error people read, a reason returned with its rule ID (``return (reason,
    "CB-8")``), in the terminal (``cli/``, ``tui/``) what is printed, said, asked or drawn (Rich
    ``Text``, Textual ``Static``), and in a game's drawing for the terminal (``render.py``) the
    words written into it (an f-string with words: ``f"rank {rank}"``)."""
    import ast

    src = path.read_text(encoding="utf-8") if text is None else text
    tree = ast.parse(src)
    rel = str(path.relative_to(ROOT)) if path.is_absolute() and ROOT in path.parents else str(path)
    terminal = "/cli/" in rel or "/tui/" in rel or rel.startswith(("cli/", "tui/"))
    drawing = Path(rel).name == "render.py"
    # notation built to be parsed (parse_move(f"falcon {square}")) is no text people read
    parsed = {id(arg) for node in ast.walk(tree) if isinstance(node, ast.Call)
              for arg in node.args
              if "parse" in (node.func.id if isinstance(node.func, ast.Name) else
                             node.func.attr if isinstance(node.func, ast.Attribute) else "")}
    # names bound to text written out (HELP = "write ..."; hints = {"place": "write ..."}): an
    # error given such a name shows that text
    bound: dict[str, list[Any]] = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Name):
                    if isinstance(node.value, ast.Dict):
                        bound.setdefault(target.id, []).extend(
                            v for v in node.value.values if v is not None)
                    else:
                        bound.setdefault(target.id, []).append(node.value)

    def shown(arg: Any) -> list[Any]:
        """The literals an argument shows: itself, or what a name, ``name[key]`` or
        ``name.get(key, default)`` stands for."""
        if isinstance(arg, ast.Name):
            return [v for v in bound.get(arg.id, []) if _literal_text(v) is not None]
        if isinstance(arg, ast.Subscript) and isinstance(arg.value, ast.Name):
            return shown(arg.value)
        if (isinstance(arg, ast.Call) and isinstance(arg.func, ast.Attribute)
                and arg.func.attr == "get" and isinstance(arg.func.value, ast.Name)):
            return shown(arg.func.value) + [a for d in arg.args[1:2] for a in shown(d)]
        return [arg]

    out: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Tuple) and len(node.elts) == 2 and _is_rule(node.elts[1]):
            literal = _literal_text(node.elts[0])
            if literal is not None and _is_language(literal):
                out.append(f"{rel}:{node.lineno}: {literal[:70]!r}")
            continue
        if drawing and isinstance(node, ast.JoinedStr) and id(node) not in parsed:
            literal = _literal_text(node)
            if literal is not None and _is_language(literal):
                out.append(f"{rel}:{node.lineno}: {literal[:70]!r}")
            continue
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else (
            func.attr if isinstance(func, ast.Attribute) else "")
        args: list[Any] = []
        if name in ERROR_MESSAGE_ARG and ERROR_MESSAGE_ARG[name] >= 0:
            i = ERROR_MESSAGE_ARG[name]
            args = node.args[i:i + 1]
        elif terminal and name in OUTPUT_CALLS:
            args = node.args[:1] + [k.value for k in node.keywords if k.arg == "placeholder"]
        for arg in (a for given in args for a in shown(given)):
            literal = _literal_text(arg)
            if literal is not None and _is_language(literal):
                out.append(f"{rel}:{arg.lineno}: {literal[:70]!r}")
    return out


def js_strings(src: str) -> list[tuple[int, str, str]]:
    """The string literals of a JavaScript source: (offset, quote, the text people would see:
    a template's text without its ``${...}`` parts). Comments are skipped; the code inside
    ``${...}`` is scanned too (a ``t()`` inside a template is a literal of its own)."""
    out: list[tuple[int, str, str]] = []

    def code(i: int, stop_at_brace: bool) -> int:
        depth = 0
        while i < len(src):
            c = src[i]
            if src.startswith("//", i):
                j = src.find("\n", i)
                i = len(src) if j < 0 else j
                continue
            if src.startswith("/*", i):
                j = src.find("*/", i + 2)
                i = len(src) if j < 0 else j + 2
                continue
            if c in "\"'":
                j = i + 1
                while j < len(src) and src[j] != c and src[j] != "\n":
                    j += 2 if src[j] == "\\" else 1
                out.append((i, c, src[i + 1:j]))
                i = j + 1
                continue
            if c == "`":
                i = template(i)
                continue
            if c == "{":
                depth += 1
            elif c == "}":
                if depth == 0 and stop_at_brace:
                    return i + 1
                depth -= 1
            i += 1
        return i

    def template(start: int) -> int:
        i = start + 1
        text = []
        while i < len(src) and src[i] != "`":
            if src[i] == "\\":
                text.append(src[i:i + 2])
                i += 2
            elif src.startswith("${", i):
                text.append(" ")
                i = code(i + 2, True)
            else:
                text.append(src[i])
                i += 1
        out.append((start, "`", "".join(text)))
        return i + 1

    code(0, False)
    return sorted(out)


_JS_SHOWN = re.compile(
    r"(?:\.textContent\s*=|\.innerText\s*=|\.title\s*=|\.placeholder\s*=|"
    r"[\"']aria-label[\"']\s*[:,]|\baria-label\s*:|\btitle\s*:|\bplaceholder\s*:|"
    r"\btoast\(|\balert\(|\bconfirm\(|\bprompt\(|"
    r"\bel\(\s*[\"'][\w-]+[\"']\s*,\s*(?:\{[^{}]*\}|null|undefined)\s*,(?:[^()]*?,)??)\s*$")
"""What a web page shows: a text content or title, an aria-label, a toast, and the children
of ``el(tag, attrs, ...)`` (text outside ``t()``/``tn()``)."""


_SVG_TEXT = re.compile(r"\bsvg\(\s*[\"'](?:text|tspan|title|desc)[\"']\s*,"
                       r".*(?:\}|null|undefined)\s*,\s*$")
"""A literal given as a child of an SVG ``text``/``tspan``/``title``/``desc`` element: drawn on
a board (after the attributes, on the same line)."""
_LETTER = re.compile(r"[^\W\d_]")


def unmarked_js(path: Path, text: str | None = None) -> list[str]:
    """Literals of a web client file shown to people and not wrapped in ``t()``/``tn()``
    (a regular-expression pass: what precedes each literal on its line). Text drawn into an
    SVG (``svg("text", {...}, "F")``) is reported when it has any letter at all: a board's
    notation comes from the position, so a letter written out in the code is a word or a word's
    initial (``F`` for falcon), which the reader's language would write otherwise."""
    src = path.read_text(encoding="utf-8") if text is None else text
    rel = str(path.relative_to(ROOT)) if path.is_absolute() and ROOT in path.parents else str(path)
    out = []
    for start, _quote, literal in js_strings(src):
        line_start = src.rfind("\n", 0, start) + 1
        before = src[line_start:start]
        if _SVG_TEXT.search(before) and _LETTER.search(_MARKUP.sub(" ", literal)):
            out.append(f"{rel}:{src.count(chr(10), 0, start) + 1}: {literal[:70]!r}")
            continue
        if not _JS_SHOWN.search(before):
            continue
        if _is_language(literal):
            out.append(f"{rel}:{src.count(chr(10), 0, start) + 1}: {literal[:70]!r}")
    return out


def unmarked() -> list[str]:
    """Every person-facing literal not marked for translation in the places checked."""
    found: list[str] = []
    for entry in PYTHON_CHECKED:
        base = ROOT / entry
        files = [base] if base.is_file() else sorted(base.rglob("*.py"))
        for f in files:
            if str(f.relative_to(ROOT)) not in PYTHON_SKIPPED:
                found += unmarked_python(f)
    for f in sorted((ROOT / "src" / "rulebox" / "web").rglob("*.js")):
        found += unmarked_js(f)
    return found


def fill(lang: str, source: Path) -> int:
    """Take translations from a JSON map ``{msgid: translation | [forms]}`` into the .po of
    ``lang``; answers how many were set. Ids not in the .po are reported and skipped."""
    data = json.loads(source.read_text(encoding="utf-8"))
    path = po_path(lang)
    catalog = read_catalog(path, lang)
    count = 0
    for key_text, text in data.items():
        context, sep, msgid = key_text.rpartition("\x04")
        message = catalog.get(msgid, context=context if sep else None)
        if message is None:
            print(f"{lang}: not in the catalogue: {msgid!r}", file=sys.stderr)
            continue
        if message.pluralizable:
            forms = text if isinstance(text, list) else [text] * NPLURALS[lang]
            message.string = tuple(forms)
        else:
            message.string = text if isinstance(text, str) else text[0]
        message.flags.discard("fuzzy")
        count += 1
    _fix_header(catalog, lang)
    path.write_bytes(_dump_po(catalog))
    return count


def main(argv: list[str] | None = None) -> int:
    """The command line."""
    parser = argparse.ArgumentParser(prog="scripts/i18n.py", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("extract", help="the code's messages -> rulebox.pot")
    sub.add_parser("update", help="rulebox.pot -> each .po (no fuzzy matching)")
    p = sub.add_parser("missing", help="list the untranslated ids")
    p.add_argument("langs", nargs="*", default=list(SHIPPED))
    p.add_argument("--json", action="store_true", help="as a JSON map to fill in")
    p = sub.add_parser("fill", help="translations from a JSON map into a .po")
    p.add_argument("lang", choices=SHIPPED)
    p.add_argument("file", type=Path)
    sub.add_parser("compile", help="each .po -> .mo")
    sub.add_parser("check", help="exit 1 on any problem")
    sub.add_parser("unmarked", help="person-facing strings not marked for translation")
    sub.add_parser("all", help="extract, update, compile, check")
    args = parser.parse_args(argv)

    if args.command in ("extract", "all"):
        catalog = extract()
        print(f"{len(catalog)} messages; rulebox.pot "
              + ("written" if write_pot(catalog) else "unchanged"))
    if args.command in ("update", "all"):
        print("updated: " + (", ".join(update()) or "none"))
    if args.command == "missing":
        for lang in args.langs:
            todo = missing(lang)
            if args.json:
                print(json.dumps({(m.context + "\x04" if m.context else "") + _ids(m)[0]:
                                  (["", "", ""][:NPLURALS[lang]]
                                               if m.pluralizable else "") for m in todo},
                                 ensure_ascii=False, indent=1))
            else:
                print(f"# {lang}: {len(todo)} untranslated")
                for m in todo:
                    print(_ids(m)[0])
        return 0
    if args.command == "fill":
        print(f"{fill(args.lang, args.file)} set")
        return 0
    if args.command == "unmarked":
        found = unmarked()
        for line in found:
            print(line)
        print(f"{len(found)} unmarked")
        return 1 if found else 0
    if args.command in ("compile", "all"):
        print("compiled: " + (", ".join(compile_all()) or "none changed"))
    if args.command in ("check", "all"):
        found = pot_problems() + [p for lang in SHIPPED for p in problems(lang)]
        for line in found:
            print(line)
        print(f"{len(found)} problems")
        return 1 if found else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
