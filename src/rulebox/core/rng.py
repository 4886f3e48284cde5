"""Seeded randomness. Every random choice in rulebox flows from an explicit seed."""

from __future__ import annotations

import random
import secrets

SEED_BITS = 128
SEED_LIMIT = 2**SEED_BITS
"""Seeds are ``0 <= seed < SEED_LIMIT`` (the ``seed=`` option of every game)."""


def fresh_seed() -> int:
    """A new seed from the operating system, for games started without one: 128 bits, so that
    nobody can search the seeds for the deal (issue 19)."""
    return secrets.randbits(SEED_BITS)


def rng(seed: int, *salt: object) -> random.Random:
    """A ``random.Random`` fixed by ``seed`` and an optional salt (so that two uses differ).

    Every bit of ``seed`` counts: an ``int`` seeds ``random.Random`` with all of its bits, and
    the salted text is hashed whole (SHA-512), so that seeds differing only in their high bits
    give different streams."""
    if not salt:
        return random.Random(seed)
    return random.Random(f"{seed}:" + ":".join(str(s) for s in salt))
