"""The boards' own words in the reader's language (issue 23): every game's board drawn at a fixed
position in English, German and Russian, and what the drawing says (its SVG texts, its titles,
its aria-labels) compared: a German or Russian board shows no English word and no English
word's initial (Columba's falcon ``F``, its large dovecote's ``L``); only notation (PROTOCOL.md:
pins, cells, fields, holes, colour and piece letters) stays as it is.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from rulebox.core.registry import new_game
from rulebox.i18n import catalog_json
from rulebox.server.testing import ServerProcess
from tests.web.web_helpers import Api

# Columba, 2 players, seed 3: both players build a large dovecote, the second raises a falcon
COLUMBA = (
    "place 1,-1 r0|cote large 0,0|end|place 3,-1 r90|cote large 2,-1|end|place 1,2 r180|"
    "cote small 4,-1|end|place 1,3 r0|cote small 2,0|end|place 1,5 r90|cote small 2,4|end|"
    "place 0,7 r180|cote small 1,6|end|place -2,6 r0|cote small 3,-1|end|place -1,-2 r90|"
    "cote small -1,6|end|place 4,1 r180|end|place -3,5 r270|end|place -1,3 r0|end|"
    "place 1,8 r180|goal|place 3,-3 r270|buy WB|tile K 2,-2|tile G 3,-2|end|place 5,1 r0|end|"
    "place -1,3 r0|goal|place -2,0 r0|raise WG|falcon 0,-1"
).split("|")

CASES: dict[str, tuple[int, dict[str, str], int | list[str]]] = {
    # game: (seats, options, plies played by a seeded choice, or the moves themselves)
    "columns": (2, {}, 14),
    "countred": (2, {"seed": "4"}, 10),
    "discs": (2, {"seed": "2"}, 12),
    "36to1": (1, {"seed": "0"}, 6),
    "columba": (2, {"seed": "3", "players": "2"}, COLUMBA),
}

NOTATION = {
    "columns": r"[a-d][1-3]|[RSDT]",
    "countred": r"[A-D][1-4]?",
    "discs": r"[a-c][1-3](?:\.(?:c|ne|nw|se|sw))?",
    "36to1": r"[a-f] · [1-6]|[a-f][1-6]|[RYGBKW]",
    "columba": r"-?\d+,-?\d+",
}
"""A drawing's text that is notation (PROTOCOL.md), the same in every language."""

TITLES = {
    "columns": {"en": ["light roundel", "dark single blocker"], "de": ["Rundling (hell)"],
                "ru": ["светлый рондель"]},
    "36to1": {"en": ["column a: 1 drop", "column c: 3 circles"], "de": ["Spalte c: 3 Kreise"],
              "ru": ["вертикаль c: 3 круга"]},
    "columba": {"en": ["falcon, owner: ", "large dovecote, owner: "],
                "de": ["Falke, Besitzer: ", "großer Taubenschlag, Besitzer: "],
                "ru": ["сокол, владелец: ", "большая голубятня, владелец: "]},
}
"""Titles each board must have at its position, by their start, in each language."""

LETTERS = re.compile(r"[^\W\d_]")
WORD = re.compile(r"[A-Za-z]{2,}")

COLLECT = """(svg) => {
  const out = [];
  for (const n of svg.querySelectorAll("text")) out.push(["text", n.textContent.trim()]);
  for (const n of svg.querySelectorAll("title")) out.push(["title", n.textContent.trim()]);
  for (const n of [svg, ...svg.querySelectorAll("[aria-label]")]) {
    if (n.hasAttribute("aria-label")) out.push(["aria-label", n.getAttribute("aria-label")]);
  }
  return out;
}"""


def _vocabulary(lang: str) -> set[str]:
    """The Latin-letter words the catalogue's ``lang`` translations use themselves (German
    ``in``, ``hell``, ``Start`` are German words too): a board may show them."""
    found: set[str] = set()
    for text in catalog_json(lang)["messages"].values():
        for form in text if isinstance(text, list) else [text]:
            found.update(w.lower() for w in WORD.findall(form))
    return found


def _moves(game: str, options: dict[str, str], plan: int | list[str]) -> list[str]:
    """The moves to play: ``plan`` itself, or that many seeded choices among the legal moves
    (the same every run: the game and the choice are seeded)."""
    if isinstance(plan, list):
        return plan
    g = new_game(game, options)
    rng = random.Random(7)
    out: list[str] = []
    for _n in range(plan):
        if g.is_terminal():
            break
        legal = sorted(str(m) for m in g.legal_moves())
        # a turn ends when it can (Discs), so that every phase of the game shows
        move = "end" if "end" in legal and rng.random() < 0.5 else rng.choice(legal)
        g.apply(g.parse_move(move))
        out.append(move)
    return out


def _texts(page: Any, server: ServerProcess, gid: str, tokens: str, lang: str
           ) -> list[tuple[str, str]]:
    """What the board's drawing says in ``lang``: (kind, text) of its SVG texts, titles and
    aria-labels."""
    page.goto(server.url + "/")
    page.wait_for_selector("#lang")
    page.select_option("#lang", lang)
    page.wait_for_function(f"document.documentElement.lang === {json.dumps(lang)}")
    page.goto(f"{server.url}/game/{gid}#t={tokens}")
    page.wait_for_selector(".board")
    page.wait_for_function("window.rulebox && window.rulebox.state.legal.length > 0")
    assert page.evaluate("document.documentElement.lang") == lang
    # Columba draws its card faces once deck.json is in: wait for a territory with squares
    page.wait_for_function("document.querySelectorAll('.board [aria-label]').length > 4")
    return [(k, v) for k, v in page.eval_on_selector(".board", COLLECT) if v]


@pytest.mark.parametrize("game", list(CASES))
def test_the_board_speaks_the_readers_language(page: Any, server: ServerProcess, api: Api,
                                               game: str) -> None:
    seats, options, plan = CASES[game]
    g = api.create(game, ["human"] * seats, hotseat=True, **options)
    tokens = [s["token"] for s in g["seats"]]
    for move in _moves(game, options, plan):
        st = api.call("GET", f"/api/games/{g['id']}", token=tokens[0])
        api.call("POST", f"/api/games/{g['id']}/moves", {"move": move}, tokens[st["to_move"]])

    shown = {lang: _texts(page, server, g["id"], ",".join(tokens), lang)
             for lang in ("en", "de", "ru")}
    notation = re.compile(rf"(?:{NOTATION[game]})")

    def words(text: str) -> bool:
        """Whether a drawn text carries letters that are not notation."""
        return bool(LETTERS.search(text)) and not notation.fullmatch(text)

    english = shown["en"]
    assert english, "the board says something"
    # what the English board writes in words, and the English words of its labels
    english_texts = {text for kind, text in english if kind == "text" and words(text)}
    english_words = {w.lower() for _kind, text in english for w in WORD.findall(text)}
    for lang in ("de", "ru"):
        assert len(shown[lang]) == len(english), (lang, "the same drawing")
        own = _vocabulary(lang)
        left = [text for kind, text in shown[lang] if kind == "text" and text in english_texts]
        assert not left, (lang, "drawn in English", left)
        for kind, text in shown[lang]:
            english_left = {w for w in WORD.findall(text) if w.lower() in english_words
                            and w.lower() not in own and not notation.fullmatch(w)}
            assert not english_left, (lang, kind, text, english_left)
    # what is drawn without words (a piece's shape, a column's symbol, a falcon, a dovecote)
    # is named by its title in each language
    titles = {lang: [t for k, t in shown[lang] if k == "title"] for lang in shown}
    for lang, wanted in TITLES.get(game, {}).items():
        for start in wanted:
            assert any(t.startswith(start) for t in titles[lang]), (lang, start, titles[lang])
