"""The message catalogue: every text a person reads, in English, German and Russian.

One gettext catalogue (domain ``rulebox``, ``src/rulebox/locale/<lang>/LC_MESSAGES/``) holds
the messages of the terminal, the engine's refusal reasons, the server's errors and the web
client (which loads the same catalogue as JSON, :func:`catalog_json`). The English text is the
message id; German and Russian are translations made with Babel (docs/LANGUAGES.md). Rule IDs,
move notation and JSON field names are never translated.

Mark a message where it is written, with named placeholders filled after translation::

    from rulebox.i18n import _, ngettext

    raise IllegalMoveError(_("field {field} is not empty").format(field=f), rule="CR-6")
    ngettext("{n} cube", "{n} cubes", n).format(n=n)

The language is per context (a :class:`contextvars.ContextVar`): the terminal sets it once
(``--lang``, then ``RULEBOX_LANG``, then the locale), the server per request (the client's
choice, then ``Accept-Language``). A text is translated when it is made, in the language of
the context that makes it.
"""

from __future__ import annotations

import gettext as _gettext
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from importlib import resources
from typing import Any

LANGUAGES: tuple[str, ...] = ("en", "de", "ru")
"""The shipped languages; English is the source text."""

LANGUAGE_NAMES: dict[str, str] = {"en": "English", "de": "Deutsch", "ru": "Русский"}
"""Each language by its own name (for a language switch)."""

DOMAIN = "rulebox"

PLURALS: dict[str, str] = {
    "en": "nplurals=2; plural=(n != 1);",
    "de": "nplurals=2; plural=(n != 1);",
    "ru": "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && "
          "(n%100<10 || n%100>=20) ? 1 : 2);",
}
"""The plural rule of each language, as gettext writes it (also sent to the web client)."""

_current: ContextVar[str | None] = ContextVar("rulebox_language", default=None)
_default: str | None = None
_cache: dict[str, _gettext.NullTranslations] = {}


def normalize(lang: str | None) -> str | None:
    """A shipped language from a tag such as ``de``, ``de_DE.UTF-8``, ``ru-RU`` or ``C``;
    ``None`` when the tag names none of them."""
    if not lang:
        return None
    tag = re.split(r"[_.@\-]", lang.strip().lower(), maxsplit=1)[0]
    return tag if tag in LANGUAGES else None


def from_environment(env: dict[str, str] | None = None) -> str:
    """The language the environment asks for: ``RULEBOX_LANG``, then the locale (``LC_ALL``,
    ``LC_MESSAGES``, ``LANG``, ``LANGUAGE``), then English."""
    env = dict(os.environ) if env is None else env
    for name in ("RULEBOX_LANG", "LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = env.get(name)
        if not value:
            continue
        for part in value.split(":"):
            lang = normalize(part)
            if lang is not None:
                return lang
        if name == "RULEBOX_LANG":
            continue  # an unknown RULEBOX_LANG falls through to the locale
    return "en"


def resolve(explicit: str | None = None, env: dict[str, str] | None = None) -> str:
    """The language to use: ``explicit`` (``--lang``) when it names a shipped language, then
    :func:`from_environment`."""
    return normalize(explicit) or from_environment(env)


def negotiate(accept_language: str | None) -> str | None:
    """The best shipped language of an HTTP ``Accept-Language`` header (``None``: none)."""
    if not accept_language:
        return None
    best: tuple[float, int, str] | None = None
    for i, item in enumerate(accept_language.split(",")[:20]):
        tag, _sep, params = item.strip().partition(";")
        lang = normalize(tag)
        if lang is None:
            continue
        q = 1.0
        m = re.search(r"q=([0-9.]+)", params)
        if m:
            try:
                q = float(m.group(1))
            except ValueError:
                q = 0.0
        if q > 0 and (best is None or (q, -i) > (best[0], best[1])):
            best = (q, -i, lang)
    return best[2] if best else None


def language() -> str:
    """The language of the current context."""
    lang = _current.get()
    if lang is not None:
        return lang
    global _default
    if _default is None:
        _default = from_environment()
    return _default


def set_language(lang: str | None) -> str:
    """Set the language of the current context (and the process default); answers it."""
    global _default
    chosen = normalize(lang) or "en"
    _default = chosen
    _current.set(chosen)
    return chosen


@contextmanager
def use_language(lang: str | None) -> Iterator[str]:
    """Use ``lang`` within a ``with`` block (a request, a test)."""
    chosen = normalize(lang) or "en"
    token = _current.set(chosen)
    try:
        yield chosen
    finally:
        _current.reset(token)


def translations(lang: str | None = None) -> _gettext.NullTranslations:
    """The compiled catalogue of ``lang`` (default: the current language)."""
    lang = normalize(lang) or language()
    cached = _cache.get(lang)
    if cached is not None:
        return cached
    trans: _gettext.NullTranslations = _gettext.NullTranslations()
    if lang != "en":
        try:
            path = resources.files("rulebox").joinpath(
                "locale", lang, "LC_MESSAGES", f"{DOMAIN}.mo")
            with path.open("rb") as f:
                trans = _gettext.GNUTranslations(f)
        except (FileNotFoundError, OSError):
            trans = _gettext.NullTranslations()
    _cache[lang] = trans
    return trans


def gettext(message: str) -> str:
    """``message`` in the current language (the English text when it has no translation)."""
    return translations().gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of ``singular``/``plural`` for the number ``n`` in the current language
    (Russian has three)."""
    return translations().ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the current language, told apart from the same English word used
    elsewhere by ``context``."""
    return translations().pgettext(context, message)


CASES: dict[str, tuple[str, ...]] = {
    "en": ("nom", "gen", "dat", "acc", "ins", "prep"),
    "de": ("nom", "acc", "dat", "gen"),
    "ru": ("nom", "gen", "dat", "acc", "ins", "prep"),
}
"""The grammatical cases a sentence may ask of an inserted noun phrase, per language (the
format spec of its placeholder: ``{piece:acc}``). English declines nothing and takes any."""

NOUN_CONTEXT = "noun: "
"""The context prefix of a noun phrase's message (``noun: piece``): its translation is a
declension, one form per case of the language (:class:`Noun`)."""

_FORM = re.compile(r"\s*(nom|gen|dat|acc|ins|prep):\s*")

undeclared: list[str] = []
"""Noun phrases put into a sentence whose placeholder named no case (``{piece}`` instead of
``{piece:acc}``), in German or Russian, as ``"noun: <kind> '<message>'"`` (kept for the tests; the
phrase is shown in the nominative)."""


def declension(text: str) -> dict[str, str]:
    """The forms of a noun phrase's translation by case: ``"nom: die rote {number} | acc: die
    rote {number} | dat: der roten {number}"`` -> ``{"nom": ..., "acc": ..., "dat": ...}``. A
    text without cases is the one form of every case."""
    if not _FORM.match(text):
        return {}
    forms: dict[str, str] = {}
    for part in text.split("|"):
        m = _FORM.match(part)
        if m:
            forms[m.group(1)] = part[m.end():].strip()
    return forms


class Noun:
    """A noun phrase to put into a translated sentence, declined by the case the sentence asks
    for in its placeholder: ``_("{seat} stacks {piece:acc} onto {below:acc}")``. Its message is
    extracted with its context (``noun("noun: piece", "red {number}", number=2)``) and
    translated as a declension (:func:`declension`); English is the message itself."""

    __slots__ = ("context", "fields", "message")

    def __init__(self, context: str, message: str, **fields: Any) -> None:
        self.context = context
        self.message = message
        self.fields = fields

    def form(self, case: str = "nom") -> str:
        """The phrase in ``case`` in the current language (a case the language lacks, or a
        form the catalogue lacks: the nominative)."""
        text = pgettext(self.context, self.message)
        forms = declension(text)
        chosen = forms.get(case) or forms.get("nom") or text
        return chosen.format(**self.fields)

    def __format__(self, spec: str) -> str:
        if not spec and language() != "en":
            undeclared.append(f"{self.context} {self.message!r}")
            del undeclared[:-100]
        return self.form(spec or "nom")

    def __str__(self) -> str:
        return self.form("nom")

    def __repr__(self) -> str:
        return f"Noun({self.context!r}, {self.message!r}, **{self.fields!r})"


def noun(context: str, message: str, **fields: Any) -> Noun:
    """A :class:`Noun` (marks ``message`` with its ``context`` for the catalogue)."""
    return Noun(context, message, **fields)


def noun_noop(context: str, message: str) -> str:
    """Mark a noun phrase kept as a constant (``noun_noop("noun: cube", "the red cube on
    {cell}")``) for the catalogue; make it a :class:`Noun` where it is shown."""
    return message


def N_(message: str) -> str:
    """Mark ``message`` for the catalogue without translating it now (a constant translated
    where it is shown, with :func:`gettext`)."""
    return message


_ = gettext


def catalog_json(lang: str | None) -> dict[str, Any]:
    """The catalogue of ``lang`` for the web client: ``{"lang", "plural", "messages"}``, where
    ``messages`` maps each English id to its translation, and each plural's English singular
    to the list of its forms (Russian: three). English answers an empty map."""
    chosen = normalize(lang) or "en"
    trans = translations(chosen)
    messages: dict[str, Any] = {}
    raw = getattr(trans, "_catalog", {})
    plurals: dict[str, dict[int, str]] = {}
    for key, value in raw.items():
        if isinstance(key, tuple):
            msgid, index = key
            plurals.setdefault(str(msgid), {})[int(index)] = str(value)
        elif key:
            messages[str(key)] = str(value)
    for msgid, forms in plurals.items():
        messages[msgid] = [forms[i] for i in sorted(forms)]
    return {"lang": chosen, "plural": PLURALS[chosen], "messages": messages}


def reset_cache() -> None:
    """Forget loaded catalogues (after recompiling them)."""
    _cache.clear()
