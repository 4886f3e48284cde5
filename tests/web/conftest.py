"""Browser tests: a real server (SQLite) and Chromium driven by Playwright.

Skipped cleanly when ``/usr/bin/chromium`` or the ``playwright`` package is missing (Playwright's
own browser download is not used). Set ``RULEBOX_SCREENSHOT_DIR`` to keep a screenshot of each
game's board (``python scripts/screenshots.py --tests`` does, into docs/screenshots); without it
no picture is kept, so a test run leaves the checkout as it was. Each pytest-xdist worker has its
own server and browser.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rulebox.server.testing import ServerProcess
from tests.web.web_helpers import Api

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]



@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server on a fresh SQLite file."""
    pytest.importorskip("fastapi")
    pytest.importorskip("uvicorn")
    folder = tmp_path_factory.mktemp("web")
    # the browser tests share this server and play whole games through its API quickly: the
    # per-client rate limits (tested in tests/server/test_server_limits.py) are raised here
    srv = ServerProcess(f"sqlite:///{folder / 'rulebox.db'}", log=folder / "server.log",
                        args=["--create-per-minute", "6000", "--create-burst", "1000",
                              "--moves-per-second", "1000", "--moves-burst", "5000"]).start()
    yield srv
    srv.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Chromium from the system, headless (the tests are skipped without it)."""
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is missing")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A fresh page (laptop size); JavaScript errors fail the test."""
    ctx = browser.new_context(viewport={"width": 1180, "height": 860})
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.set_default_timeout(20_000)
    yield pg
    ctx.close()
    assert not errors, errors


@pytest.fixture
def api(server: ServerProcess) -> Api:
    return Api(server.url)
