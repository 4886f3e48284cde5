"""Seeded randomness. Every random choice in rulebox flows from an explicit seed."""

from __future__ import annotations

import random
import secrets

SEED_LIMIT = 2**63


def fresh_seed() -> int:
    """A new seed from the operating system, for games started without one."""
    return secrets.randbelow(2**31)


def rng(seed: int, *salt: object) -> random.Random:
    """A ``random.Random`` fixed by ``seed`` and an optional salt (so that two uses differ)."""
    if not salt:
        return random.Random(seed)
    return random.Random(f"{seed}:" + ":".join(str(s) for s in salt))
