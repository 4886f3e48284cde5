"""Shared test settings.

Hypothesis runs the same examples on every run (``derandomize``): the test command is repeatable,
as every seeded test here is. ``HYPOTHESIS_PROFILE=explore pytest tests/core`` searches new
examples at random (1,000 where a test does not set its own count); a failure it finds
becomes an ``@example`` of its test.
"""

import os

from hypothesis import settings

os.environ.setdefault("NO_COLOR", "1")

settings.register_profile("repeatable", derandomize=True, print_blob=True)
settings.register_profile("explore", derandomize=False, max_examples=1000, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))


def pytest_collection_modifyitems(items: list) -> None:  # type: ignore[type-arg]
    """The browser tests last, whatever the order on the command line: Playwright's sync API
    keeps an event loop running in the main thread until the session ends, so a test after
    them that calls ``asyncio.run`` would fail for a reason that is not its own."""
    items.sort(key=lambda item: "tests/web/" in item.nodeid.replace("\\", "/")
               or item.nodeid.startswith("web/"))
