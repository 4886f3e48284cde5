"""Perft: count the leaf nodes of the legal-move tree to a fixed depth (as in chess engines).

Uses ``legal_moves`` and ``apply_unchecked``/``undo`` only, so it checks move generation and
make/unmake together.
"""

from __future__ import annotations

from rulebox.core.game import Game


def perft(game: Game, depth: int) -> int:
    """Leaf nodes at ``depth`` plies (a finished game counts as a leaf)."""
    if depth == 0 or game.is_terminal():
        return 1
    moves = game.legal_moves()
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        game.apply_unchecked(move)
        total += perft(game, depth - 1)
        game.undo()
    return total
