"""Helpers of the browser tests: a small API client and screenshots."""

from __future__ import annotations

import json
import os
import urllib.request
from pathlib import Path
from typing import Any


class Api:
    """A few calls of the JSON API (to set games up and check what the page shows)."""

    def __init__(self, base: str) -> None:
        self.base = base

    def call(self, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        req = urllib.request.Request(self.base + path, data=data, headers=headers, method=method)
        with urllib.request.urlopen(req, timeout=30) as r:
            return json.load(r)

    def create(self, game: str, seats: list[str], hotseat: bool = False, **options: str) -> Any:
        return self.call("POST", "/api/games", {"game": game, "seats": seats,
                                                 "options": options, "hotseat": hotseat})


def screenshot(page: Any, name: str, keep_mouse: bool = False) -> None:
    """Keep a screenshot of the page when RULEBOX_SCREENSHOT_DIR is set."""
    folder = os.environ.get("RULEBOX_SCREENSHOT_DIR")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.evaluate("window.scrollTo(0, 0)")
        if not keep_mouse:
            page.mouse.move(0, 0)
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)


SOCKET_STATE = ("window.rulebox && window.rulebox.socket && window.rulebox.socket.readyState === 1"
                " && window.rulebox.state && Array.isArray(window.rulebox.state.presence)"
                " && window.rulebox.state.presence.some(Boolean)")
"""A page's condition once its socket is open and the state the socket brought is drawn (the
page's own seat is present in it): later states of the opening (presence) change no entry."""


def settle(page: Any) -> None:
    """Wait until the page's socket is open and its first state drawn (:data:`SOCKET_STATE`)."""
    page.wait_for_function(SOCKET_STATE)


RECORD_MOVES = """
window.__moves = [];
const plainFetch = window.fetch.bind(window);
window.fetch = (url, init) => {
  const moves = init && init.method === "POST"
    && /\\/api\\/games\\/[^/]+\\/moves(\\?|$)/.test(String(url));
  if (!moves) return plainFetch(url, init);
  const move = JSON.parse(init.body).move;
  window.__moves.push("sent " + move);
  return plainFetch(url, init).then((r) => { window.__moves.push("answered " + move); return r; });
};
"""
"""An init script: the page's POSTs of moves, in the order the page sends them and gets their
answers, in ``window.__moves`` (``sent Rb2``, ``answered Rb2``): a test reads what the page
did, in the page's own order, instead of waiting a while to see that nothing came."""


def record_moves(page: Any) -> None:
    """Record the moves ``page`` posts from its next navigation on (:data:`RECORD_MOVES`)."""
    page.add_init_script(RECORD_MOVES)


def moves_sent(page: Any) -> list[str]:
    """What :func:`record_moves` has recorded so far."""
    return list(page.evaluate("window.__moves"))
