"""Columba in the browser (issue 14): the player chooses the colours that pay for a falcon
(CB-8), and a card that reads the same turned 180 degrees is laid as its one listed placement.

Skipped without ``/usr/bin/chromium`` (see ``conftest``)."""

from __future__ import annotations

from typing import Any

from rulebox.server.testing import ServerProcess
from tests.web.test_web_games import open_hotseat, state
from tests.web.web_helpers import Api


def click_and_wait(page: Any, selector: str) -> None:
    ply = state(page)["ply"]
    page.click(selector)
    page.wait_for_function(f"window.rulebox.state.ply > {ply}")


def test_columba_buy_offers_a_choice_of_colours(page: Any, server: ServerProcess,
                                                api: Api) -> None:
    # C14 (WG/BK) starts the territory; C01 laid on it covers W, G, B and K: S1 is complete and
    # its four tiles, one of each colour, are red's reserve: six ways to pay for a chick
    open_hotseat(page, server, api, "columba", 2, deck="C14,C01,C02,C03,C05")
    page.wait_for_selector("#rot-label")
    click_and_wait(page, '[data-cell="0,0"]')
    click_and_wait(page, '[data-move="nogoal"]')
    target = next(m for m in state(page)["legal"] if m.startswith("place")).split()[1]
    page.wait_for_selector(f'[data-cell="{target}"].hot')
    click_and_wait(page, f'[data-cell="{target}"]')
    page.wait_for_selector('[data-pay="buy"]')
    buttons = page.locator('[data-pay="buy"] button')
    assert buttons.count() == 6
    assert sorted(buttons.nth(i).get_attribute("data-move") for i in range(6)) == [
        "buy BK", "buy GB", "buy GK", "buy WB", "buy WG", "buy WK"]
    click_and_wait(page, '[data-move="buy GK"]')
    st = state(page)
    assert st["history"][-1] == "buy GK"
    reserve = st["view"]["position"]["players"][0]["reserve"]
    assert reserve == {"W": 1, "G": 0, "B": 1, "K": 0}


def test_columba_symmetric_card_turned_half_way_is_its_listed_placement(
        page: Any, server: ServerProcess, api: Api) -> None:
    # C23 (BG/GB) reads the same turned 180 degrees: r180 lays as r0
    open_hotseat(page, server, api, "columba", 2, deck="C14,C23,C02")
    page.wait_for_selector("#rot-label")
    page.click("#rot-right")
    page.click("#rot-right")
    assert page.inner_text("#rot-label") == "r180"
    assert page.locator(".cell.hot").count() > 0
    click_and_wait(page, '[data-cell="2,0"]')
    assert state(page)["history"][-1] == "place 2,0 r0"
