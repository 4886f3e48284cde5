"""Issue 33: a noun phrase put into a sentence takes the case the sentence declares
(``{piece:acc}``), and one glossary per language rejects the variants the catalogue must not use
(docs/glossary.de.md, docs/glossary.ru.md). The checks live in ``scripts/i18n.py`` (``check``);
these tests run them on the shipped catalogue and show that each catches its fault."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.catalog import Catalog

from rulebox import i18n
from rulebox.i18n import Noun, use_language
from tests.i18n_helpers import tool


def _catalog(lang: str, *messages: tuple[str | None, str, str]) -> Catalog:
    catalog = Catalog(locale=lang, domain="rulebox")
    for context, msgid, msgstr in messages:
        catalog.add(msgid, msgstr, context=context)
    return catalog


# --- cases ------------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", ["de", "ru"])
def test_every_shipped_sentence_declares_the_case_of_its_noun_phrases(lang: str) -> None:
    catalog = tool.read_catalog(tool.po_path(lang), lang)
    assert tool.case_problems(catalog, lang) == []


def test_the_code_puts_no_noun_phrase_into_a_sentence_without_its_case() -> None:
    assert tool.undeclared_in_code() == []


def test_a_translation_without_the_case_of_an_inserted_noun_phrase_is_caught() -> None:
    catalog = _catalog("de", (None, "{seat} moves {piece:acc} from {src} to {dst}",
                              "{seat} zieht {piece} von {src} nach {dst}"))
    found = tool.case_problems(catalog, "de")
    assert len(found) == 1 and "does not declare its case" in found[0]
    # a case German does not have, and a case on a placeholder the English fills with no noun
    catalog = _catalog("de", (None, "{seat} moves {piece:acc} from {src}",
                              "{seat} zieht {piece:prep} von {src:dat}"))
    found = tool.case_problems(catalog, "de")
    assert any("'prep'" in f for f in found) and any("{src}" in f for f in found)


def test_a_declension_short_of_a_case_is_caught() -> None:
    catalog = _catalog("ru", ("noun: piece", "red {number}",
                              "nom: красная фигура {number} | acc: красную фигуру {number}"))
    found = tool.case_problems(catalog, "ru")
    assert found and "lacks gen, dat, ins, prep" in found[0]
    catalog = _catalog("de", ("noun: piece", "red {number}",
                              "nom: die rote {number} | acc: die rote | dat: der roten {number}"
                              " | gen: der roten {number}"))
    assert any("the acc form" in f for f in tool.case_problems(catalog, "de"))


def test_code_that_fills_a_noun_phrase_into_an_undeclared_placeholder_is_caught(
        tmp_path: Path) -> None:
    source = tmp_path / "words.py"
    source.write_text(
        "from rulebox.i18n import Noun, _, noun\n"
        "def piece(n: int) -> Noun:\n"
        "    return noun('noun: piece', 'red {number}', number=n)\n"
        "def say(seat: str) -> str:\n"
        "    p = piece(2)\n"
        "    return (_('{seat} moves {piece} home').format(seat=seat, piece=p)\n"
        "            + _('{seat} lifts {piece:acc}').format(seat=seat, piece=piece(1)))\n",
        encoding="utf-8")
    found = tool.undeclared_in_code([source])
    assert len(found) == 1 and "'{seat} moves {piece} home'" in found[0]


def test_a_noun_phrase_takes_the_case_its_sentence_asks_for() -> None:
    red2 = Noun("noun: piece", "red {number}", number=2)
    with use_language("de"):
        assert f"{red2:acc}" == "die rote 2" and f"{red2:dat}" == "der roten 2"
    with use_language("ru"):
        assert f"{red2:acc}" == "красную фигуру 2" and f"{red2:prep}" == "красной фигуре 2"
        assert str(red2) == "красная фигура 2"
    with use_language("en"):
        assert f"{red2:acc}" == "red 2"


def test_a_noun_phrase_put_in_without_a_case_is_recorded() -> None:
    i18n.undeclared.clear()
    with use_language("ru"):
        assert "{p}".format(p=Noun("noun: piece", "red {number}", number=1)) == \
            "красная фигура 1"
    assert i18n.undeclared == ["noun: piece 'red {number}'"]
    i18n.undeclared.clear()


# --- glossaries -------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", ["de", "ru"])
def test_no_catalogue_message_uses_a_variant_the_glossary_rejects(lang: str) -> None:
    assert tool.glossary_problems(lang) == []


@pytest.mark.parametrize("lang", ["de", "ru"])
def test_each_glossary_lists_each_term_once_with_rejected_variants(lang: str) -> None:
    terms = tool.glossary_terms(lang)
    assert len(terms) > 30 and len(terms) == len(set(terms))
    rejected = tool.glossary(lang)
    assert len(rejected) > 25


def test_the_glossary_check_catches_a_rejected_variant() -> None:
    catalog = _catalog(
        "de",
        (None, "{seat} claims a draw by repetition", "{seat} verlangt Remis wegen Wiederholung"),
        (None, "the card would capture {pigeons}", "die Karte würde {pigeons} erbeuten"),
        # a variant rejected only where the English says "deck": Count Red's Stapel stays
        (None, "the deck is empty", "der Stapel ist leer"),
        (None, "the stack on {field}", "der Stapel auf {field}"),
    )
    found = tool.glossary_problems("de", catalog)
    assert len(found) == 3
    assert not any("the stack on" in f for f in found)
    catalog = _catalog("ru",
                       (None, "a card may not cover {where}", "карта не может накрыть {where}"),
                       (None, "column {column}", "колонка {column}"))
    assert len(tool.glossary_problems("ru", catalog)) == 2
