"""Columba's rule tests draw positions as colour patterns (``drawn`` in ``test_columba_rules``,
every field labelled with one card), which no deck could lay: in those modules the loader's
layout check (``state.laid_cards``) is off. Every other module, and the engine, check it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from rulebox.games.columba.state import unchecked_layout

PATTERN_MODULES = frozenset({
    "test_columba_rules", "test_columba_rulebook", "test_columba_diagram",
    "test_columba_variants",
})
"""The modules whose positions are colour patterns rather than laid cards."""


@pytest.fixture(autouse=True)
def _pattern_positions(request: pytest.FixtureRequest) -> Iterator[None]:
    if request.module.__name__.rsplit(".", 1)[-1] in PATTERN_MODULES:
        with unchecked_layout():
            yield
    else:
        yield
