"""The lobby's "Your games" on an older server without ``POST /api/games/mine`` (issue 17): the
page asks ``GET /api/games/{id}`` for each stored game instead and lists the same things: the
title, your seat, the moves, and whose turn it is or the result.

Skipped without ``/usr/bin/chromium`` (see ``conftest``)."""

from __future__ import annotations

from typing import Any

import pytest

from rulebox.server.testing import ServerProcess
from tests.web.web_helpers import Api


def seat_link(page: Any, server: ServerProcess, gid: str, token: str) -> None:
    """Open a seat's link: this browser now sits at that game."""
    page.goto(f"{server.url}/game/{gid}#t={token}")
    page.wait_for_function(f"window.rulebox && window.rulebox.state && "
                           f"window.rulebox.state.id === '{gid}'")


# an older server answers 405 (its GET /api/games/{id} matches the path) or 404
@pytest.mark.parametrize("status", [404, 405])
def test_your_games_without_the_mine_endpoint(page: Any, server: ServerProcess, api: Api,
                                              status: int) -> None:
    asked: list[str] = []

    def older_server(route: Any) -> None:
        asked.append(route.request.method)
        route.fulfill(status=status, content_type="application/json",
                      body='{"detail": "Not Found"}' if status == 404 else
                      '{"detail": "Method Not Allowed"}')

    # your turn: Count Red against the computer, you are first (seat 0, to move)
    yours = api.create("countred", ["human", "computer:easy"], seed="4")
    # their turn: an online Columns game where you hold the second seat (dark)
    theirs = api.create("columns", ["human", "human"])
    # finished: a Columns game you resigned
    over = api.create("columns", ["human", "human"])
    api.call("POST", f"/api/games/{over['id']}/resign", {}, over["seats"][0]["token"])
    seat_link(page, server, yours["id"], yours["seats"][0]["token"])
    seat_link(page, server, theirs["id"], "," + theirs["seats"][1]["token"])
    seat_link(page, server, over["id"], over["seats"][0]["token"])
    # both seats of a hot-seat Discs game, and a game of 36 to 1
    both = api.create("discs", ["human", "human"], hotseat=True)
    seat_link(page, server, both["id"], ",".join(s["token"] for s in both["seats"]))
    solo = api.create("36to1", ["human"], seed="0")
    seat_link(page, server, solo["id"], solo["seats"][0]["token"])
    # a game whose seat was lost on the server (a stale token) is left out, not an error
    page.evaluate("localStorage.setItem('rulebox:zzzzzzzzzzzz', JSON.stringify(['nope']))")

    def listed() -> list[list[str]]:
        page.goto(server.url + "/")
        page.wait_for_function("document.querySelectorAll('#my-games li').length === 5")
        rows = page.eval_on_selector_all("#my-games li",
                                         "ns => ns.map(n => [n.dataset.id, n.innerText])")
        return rows

    current = listed()  # as a server with the endpoint lists them
    assert not asked
    page.route("**/api/games/mine*", older_server)
    older = listed()
    assert asked == ["POST"]  # the endpoint was asked once, then each game by GET
    assert older == current

    assert [r[0] for r in older] == [solo["id"], both["id"], over["id"], theirs["id"], yours["id"]]
    listed_by_id = dict(older)
    mine = listed_by_id[yours["id"]]
    assert "Count Red" in mine and "your turn" in mine and "you play first" in mine
    assert "your-turn" in page.get_attribute(f'#my-games li[data-id="{yours["id"]}"]', "class")
    waiting = listed_by_id[theirs["id"]]
    assert "Columns" in waiting and "you play dark" in waiting
    assert "light to move" in waiting and "your turn" not in waiting
    hotseat = listed_by_id[both["id"]]  # this browser holds both seats: not "you play first"
    assert "Discs" in hotseat and "every seat" in hotseat and "you play first" not in hotseat
    done = listed_by_id[over["id"]]
    assert "finished: " in done and "[" not in done  # the result in words, no rule ID
    # the link brings this browser back to its seat
    page.click(f'#my-games li[data-id="{theirs["id"]}"] a')
    page.wait_for_function(f"window.rulebox && window.rulebox.state && "
                           f"window.rulebox.state.id === '{theirs['id']}'")
    assert page.evaluate("window.rulebox.state.you") == 1
