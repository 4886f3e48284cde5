"""Shared test settings: the tiers, and Hypothesis's profile.

The tiers (``pytest`` alone runs the first; README's test command runs them all):

- the developer's loop: everything not marked below, in parallel (pytest-xdist, ``-n auto``);
- ``browser``: every test under ``tests/web/`` (Chromium through Playwright);
- ``cluster``: every test in ``tests/server/test_cluster_*.py`` (several server processes,
  Redis, restarts; real time);
- ``slow``: the files of :data:`SLOW_FILES` (full-depth reference checks), and any test marked
  ``@pytest.mark.slow`` by hand.

The markers are given here by folder and file name, so a new test in one of those places is in
its tier without a decorator. ``pytest -m browser`` (or ``cluster``, ``slow``) selects one tier.

Hypothesis runs the same examples on every run (``derandomize``): the test command is repeatable,
as every seeded test here is. ``HYPOTHESIS_PROFILE=explore pytest tests/core`` searches new
examples at random (1,000 where a test does not set its own count); a failure it finds
becomes an ``@example`` of its test.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

os.environ.setdefault("NO_COLOR", "1")

settings.register_profile("repeatable", derandomize=True, print_blob=True)
settings.register_profile("explore", derandomize=False, max_examples=1000, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))

TESTS = Path(__file__).resolve().parent

BROWSER_DIRS = (TESTS / "web",)
"""Folders whose tests drive Chromium: marked ``browser``."""

CLUSTER_GLOB = "test_cluster_*.py"
"""Files (under ``tests/server/``) whose tests start several server processes, Redis or
restarts: marked ``cluster``."""

SLOW_FILES: frozenset[Path] = frozenset()
"""Files whose every test is slow: marked ``slow``."""


def tier(path: Path) -> str | None:
    """The tier of the tests in the file at ``path``: ``browser``, ``cluster``, ``slow`` or
    ``None`` (the developer's loop)."""
    path = path.resolve()
    if any(path.is_relative_to(folder) for folder in BROWSER_DIRS):
        return "browser"
    if path.parent == TESTS / "server" and path.match(CLUSTER_GLOB):
        return "cluster"
    if path in SLOW_FILES:
        return "slow"
    return None


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark each test with its file's tier; then the browser tests last, whatever the order on
    the command line: Playwright's sync API keeps an event loop running in the main thread
    until the session ends, so a test after them that calls ``asyncio.run`` would fail for a
    reason that is not its own."""
    for item in items:
        name = tier(item.path)
        if name is not None:
            item.add_marker(getattr(pytest.mark, name))
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)

