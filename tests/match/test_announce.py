"""Announcements of what a move did beyond itself: a Discs token earned (DSC-5) names its
colour in the reader's language, never the notation letter."""

from __future__ import annotations

import random

import pytest

from rulebox.core.registry import game_entry
from rulebox.i18n import use_language
from rulebox.match.announce import announcer

WORD = {"en": ("red", "green", "blue"), "de": ("rote", "grüne", "blaue"),
        "ru": ("красный", "зелёный", "синий")}


@pytest.mark.parametrize("lang", ["en", "de", "ru"])
def test_a_discs_token_is_announced_by_its_colour(lang: str) -> None:
    game = game_entry("discs").cls.new({"seed": "0"})
    rng = random.Random(0)
    hook = announcer("discs")
    assert hook is not None
    lines: list[str] = []
    while not game.is_terminal() and not lines:
        before, mover = game.position_json(), game.current_player()
        game.apply(rng.choice(game.legal_moves()))
        with use_language(lang):
            lines = hook(game, mover, before)
    assert len(lines) == 1 and lines[0].endswith(" [DSC-5]")
    words = lines[0].removesuffix(" [DSC-5]").split()
    assert any(w.strip(":,.").lower() in WORD[lang] for w in words), lines
    assert not {"R", "G", "B"} & set(words), lines
