"""The game review in the browser (issue 22): a finished game offers "Review"; the evaluation
graph is drawn from the review data, a click on a point shows that position in the replay with
the best move, the marks appear in the move log; the HTML balance report loads in Chromium."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from rulebox.server.testing import ServerProcess
from tests.web.web_helpers import Api, screenshot


def finished_columns(api: Api, seed: int = 3) -> tuple[str, list[str]]:
    """A Columns game between two people on one screen, played at random to its end."""
    g = api.create("columns", ["human", "human"], hotseat=True)
    tokens = [s["token"] for s in g["seats"]]
    rand = random.Random(seed)
    while True:
        st = api.call("GET", f"/api/games/{g['id']}", token=tokens[0])
        if st["over"]:
            return g["id"], st["history"]
        who = st["to_move"]
        st = api.call("GET", f"/api/games/{g['id']}", token=tokens[who])
        api.call("POST", f"/api/games/{g['id']}/moves", {"move": rand.choice(st["legal"])},
                 token=tokens[who])


def test_review_graph_marks_and_replay(page: Any, server: ServerProcess, api: Api) -> None:
    gid, history = finished_columns(api)
    review = api.call("GET", f"/api/games/{gid}/review")
    assert [m["move"] for m in review["review"]["moves"]] == history
    marked = [m for m in review["review"]["moves"] if m["mark"]]
    assert marked, "a game played at random has mistakes"
    page.goto(f"{server.url}/game/{gid}#watch")
    page.click("#review-btn")
    page.wait_for_selector("#review-graph")
    points = page.locator("#review-graph circle.pt")
    assert points.count() == len(history)
    # the marks in the move log are the review's
    for m in marked:
        li = page.locator(f"#moves li[data-ply='{m['ply']}']")
        assert f"mark-{m['mark']}" in (li.get_attribute("class") or "")
    # a click on a point shows that position in the replay, and the best move after it
    target = marked[0]["ply"] - 1 if marked[0]["ply"] > 1 else 1
    page.locator(f"#review-graph circle.pt[data-ply='{target}']").click()
    page.wait_for_function(
        f"document.getElementById('status').textContent.includes('after move {target} of')")
    best = review["review"]["moves"][target]["best"]  # the move after ply `target`
    assert best in page.locator("#review-best").inner_text()
    screenshot(page, "review_columns")
    # not over: no review
    g = api.create("columns", ["human", "human"], hotseat=True)
    import urllib.error

    try:
        api.call("GET", f"/api/games/{g['id']}/review")
        raise AssertionError("a game that goes on has no review")
    except urllib.error.HTTPError as e:
        assert e.code == 409


def test_the_balance_report_loads_in_chromium(page: Any, tmp_path: Path) -> None:
    import pytest

    pytest.importorskip("matplotlib")
    from rulebox.analysis.balance import analyze
    from rulebox.analysis.report import write_report

    doc = analyze("countred", ["greedy", "random"], 6, variants=[{"first": "0"}, {"first": "1"}])
    path = write_report(doc, tmp_path / "report")
    console: list[str] = []
    page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
    page.goto(path.as_uri())
    imgs = page.locator("img")
    assert imgs.count() >= 4
    page.wait_for_load_state("load")
    widths = page.evaluate("[...document.images].map((i) => i.complete && i.naturalWidth)")
    assert all(w and w > 100 for w in widths), widths
    assert "first mover wins" in page.content()
    assert not console, console
