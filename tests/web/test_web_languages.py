"""The browser in German and Russian (issue 23): the header's language switch (remembered in
localStorage ``rulebox.lang``), a few moves in each language, the server's refusal reason in
the page's language with its rule ID; a screenshot of each (``lang-<lang>-<game>.png``, kept in
docs/screenshots by ``python scripts/screenshots.py --tests``).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from rulebox.server.testing import ServerProcess
from tests.web.web_helpers import Api, screenshot

CASES = [
    # language, game, seats, options, an illegal move, its reason there, words on the page
    ("de", "countred", 2, {"seed": "4"}, "A1-A1",
     "ein Zug von A1 nach A1 ist kein Zug [CR-3]",
     ["fünf Brettspiele, genau nach ihren Spielregeln gespielt", "Züge", "Gib einen Zug ein"]),
    ("ru", "columba", 2, {"seed": "3"}, "place 9,9 r0",
     "карта должна закрывать поля или касаться территории по стороне поля [CB-2]",
     ["пять настольных игр, в точности по их правилам", "Ходы", "Введите ход"]),
]


def state(page: Any) -> dict[str, Any]:
    return page.evaluate("window.rulebox && window.rulebox.state")  # type: ignore[no-any-return]


def type_move(page: Any, move: str) -> None:
    """Play ``move`` through the page's own move form (Type a move)."""
    entry = page.locator("#move-entry")
    if entry.get_attribute("open") is None:
        page.click("#move-entry summary")
    page.fill("#move-input", move)
    page.press("#move-input", "Enter")


@pytest.mark.parametrize(("lang", "game", "n", "options", "illegal", "reason", "words"), CASES,
                         ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_switch_the_language_and_play_in_it(page: Any, server: ServerProcess, api: Api,
                                            lang: str, game: str, n: int,
                                            options: dict[str, str], illegal: str, reason: str,
                                            words: list[str]) -> None:
    page.goto(server.url + "/")
    page.wait_for_selector("#lang")
    page.select_option("#lang", lang)
    page.wait_for_function(f"document.documentElement.lang === {json.dumps(lang)}")
    assert page.evaluate("localStorage.getItem('rulebox.lang')") == lang
    page.wait_for_function(f"document.body.innerText.includes({json.dumps(words[0])})")

    g = api.create(game, ["human"] * n, hotseat=True, **options)
    tokens = ",".join(s["token"] for s in g["seats"])
    page.goto(f"{server.url}/game/{g['id']}#t={tokens}")  # the choice is remembered
    page.wait_for_selector(".board")
    page.wait_for_function("window.rulebox && window.rulebox.state.legal.length > 0")
    assert page.evaluate("document.documentElement.lang") == lang
    text = page.inner_text("body")
    for w in words[1:]:
        assert w in text, w

    # a refusal: the server's reason in this language, the rule ID as ever
    type_move(page, illegal)
    page.wait_for_function(f"document.body.innerText.includes({json.dumps(reason)})")
    assert state(page)["ply"] == 0
    # a few moves, typed in the page's own form
    for _ in range(4):
        st = state(page)
        if st["over"] or not st["legal"]:
            break
        ply = st["ply"]
        move = sorted(st["legal"])[0]
        type_move(page, move)
        page.wait_for_function(f"window.rulebox.state.ply > {ply}")
    assert state(page)["ply"] >= 3

    screenshot(page, f"lang-{lang}-{game}")

    # back to English: the same page says it in English
    page.select_option("#lang", "en")
    page.wait_for_function("document.documentElement.lang === 'en'")
    assert page.evaluate("localStorage.getItem('rulebox.lang')") == "en"
