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
