"""Fair deals in the browser (docs/FAIRNESS.md): the commitment shown from the start, the
"Check the deal" button at the end, and an arranged deal announced on the board and in the
lobby."""

from __future__ import annotations

from typing import Any

from rulebox.server.testing import ServerProcess
from tests.web.web_helpers import Api, screenshot


def _open(page: Any, server: ServerProcess, g: dict[str, Any]) -> None:
    page.goto(f"{server.url}/game/{g['id']}#t={g['seats'][0]['token']}")
    page.wait_for_selector(".board")
    page.wait_for_function("window.rulebox && window.rulebox.state")


def test_the_deal_is_committed_and_checked_in_the_page(page: Any, server: ServerProcess,
                                                       api: Api) -> None:
    g = api.create("36to1", ["human"])
    _open(page, server, g)
    commitment = page.evaluate("window.rulebox.state.fairness.commitment")
    assert len(commitment) == 64
    assert commitment[:16] in page.inner_text("#fairness")
    assert page.is_hidden("#verify-btn") or page.query_selector("#verify-btn") is None
    assert page.is_hidden("#arranged-note")
    api.call("POST", f"/api/games/{g['id']}/resign", {}, g["seats"][0]["token"])
    page.wait_for_selector("#verify-btn")
    page.click("#verify-btn")
    page.wait_for_function("document.querySelector('#verify-result') && "
                           "document.querySelector('#verify-result').textContent.length > 0")
    text = page.inner_text("#verify-result")
    assert "matches the commitment" in text, text
    assert page.get_attribute("#verify-record", "download") == f"rulebox-{g['id']}.json"
    screenshot(page, "fairness-36to1-checked")


def test_a_forged_reveal_is_flagged(page: Any, server: ServerProcess, api: Api) -> None:
    g = api.create("columba", ["human", "human"])
    _open(page, server, g)
    api.call("POST", f"/api/games/{g['id']}/resign", {}, g["seats"][0]["token"])
    page.wait_for_selector("#verify-btn")
    # what a cheating server would send: another reveal than the one committed to
    page.evaluate("window.rulebox.state.fairness.reveal += 'x'")
    page.click("#verify-btn")
    page.wait_for_function("document.querySelector('#verify-result').textContent.length > 0")
    assert "does NOT match" in page.inner_text("#verify-result")


def _one_move(api: Api, g: dict[str, Any]) -> None:
    """The seat to move plays its first legal move: "Watch a game" lists only games with a
    move (issue 28)."""
    for seat in g["seats"]:
        st = api.call("GET", f"/api/games/{g['id']}", token=seat["token"])
        if st["legal"]:
            api.call("POST", f"/api/games/{g['id']}/moves",
                     {"move": st["legal"][0], "version": st["version"]}, seat["token"])
            return
    raise AssertionError("no seat has a legal move")


def test_an_arranged_deal_is_announced(page: Any, server: ServerProcess, api: Api) -> None:
    g = api.create("columba", ["human", "human"], seed="12")
    guest = {"id": g["id"], "seats": [g["seats"][1]]}
    _open(page, server, guest)  # the other seat sees it too
    assert page.is_visible("#arranged-note")
    assert "Arranged deal" in page.inner_text("#arranged-note")
    _one_move(api, g)
    page.goto(server.url + "/")
    page.wait_for_selector(f".recent-list a[href='/game/{g['id']}#watch']")
    item = page.locator(".recent-list li", has=page.locator(f"a[href='/game/{g['id']}#watch']"))
    assert "arranged deal" in item.inner_text()


def test_no_deal_note_where_nothing_is_dealt(page: Any, server: ServerProcess, api: Api) -> None:
    """A seed= in Count Red fixes nothing a player could distrust (no cards): no "arranged
    deal" note on the board or in the lobby (it spoke of cards the game does not have)."""
    g = api.create("countred", ["human", "human"], seed="12")
    _open(page, server, g)
    assert page.evaluate("window.rulebox.state.arranged")
    assert page.is_hidden("#arranged-note")
    _one_move(api, g)
    page.goto(server.url + "/")
    page.wait_for_selector(f".recent-list a[href='/game/{g['id']}#watch']")
    item = page.locator(".recent-list li", has=page.locator(f"a[href='/game/{g['id']}#watch']"))
    assert "arranged deal" not in item.inner_text()
