"""Search, once, for deals of 36 to 1 that can be won; the results are kept in
``winning_deals.json`` and checked by ``test_s36_end.py``. Not a test (pytest does not collect it).

    /work/venv/bin/python tests/games/solitaire36/find_winning_deals.py

It searches seeds 0-4 with the default options and seeds 0-2 with ``green=1 end=literal`` (to show
that the literal end is only unwinnable with the standard deck) and stores every win it finds.

For each seeded deal the solver sees the whole deck (perfect information) and searches depth
first, with two prunings that cannot lose a win: a cube with no neighbour can never be removed
(S36-2), so a position with an isolated cube and more than one cube is lost; and every removal
uses up a card, so fewer cards than cubes-to-remove is lost. Positions already refuted are
remembered (the pile order is fixed, so the grid, the face-up set and the pile size identify a
position).
"""

from __future__ import annotations

import json
from pathlib import Path

from rulebox.games.solitaire36.board import with_neighbour
from rulebox.games.solitaire36.rules import Solitaire36


def solve(game: Solitaire36, budget: int = 200_000) -> list[str] | None:
    """A winning line of moves from ``game`` (perfect information), or ``None`` (also when the
    node budget runs out)."""
    refuted: set[tuple[tuple[int, ...], tuple[int, ...], int]] = set()
    line: list[str] = []
    nodes = 0

    def dfs() -> bool:
        nonlocal nodes
        nodes += 1
        if nodes > budget:
            return False
        occ = game._occ
        n = occ.bit_count()
        if n == 1:
            return True
        if with_neighbour(occ) != occ:
            return False
        if len(game._faceup) + len(game._pile) < n - 1:
            return False
        key = (tuple(game._grid), tuple(sorted(game._faceup)), len(game._pile))
        if key in refuted:
            return False
        for move in game.legal_moves():
            game.apply_unchecked(move)
            line.append(str(move))
            if dfs():
                return True
            line.pop()
            game.undo()
        refuted.add(key)
        return False

    return list(line) if dfs() else None


SEARCHES: tuple[tuple[dict[str, str], range], ...] = (
    ({}, range(5)),
    ({"green": "1", "end": "literal"}, range(3)),
)


def main() -> None:
    found = []
    for options, seeds in SEARCHES:
        for seed in seeds:
            game = Solitaire36.new({**options, "seed": str(seed)})
            position = game.position_json()
            deck = [*position["faceup"], *position["pile"]]
            line = solve(game)
            print(options, seed, "win" if line else "-", flush=True)
            if line:
                found.append({"options": options, "seed": seed, "deck": ",".join(deck),
                              "moves": line})
    out = Path(__file__).with_name("winning_deals.json")
    out.write_text(json.dumps(found, indent=1) + "\n")
    print(f"{len(found)} winning deals written to {out}")


if __name__ == "__main__":
    main()
