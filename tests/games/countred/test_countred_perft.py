"""Perft: legal-move counts from the start position, stored in ``perft.json``.

The counts (leaf nodes of the move tree; a finished game is a leaf, as in
``rulebox.core.perft``) are checked twice: against the engine (``legal_moves`` /
``apply_unchecked`` / ``undo``) and against a small reference written here straight from
RULINGS.md (CR-1..CR-11), which shares no code with the engine's move generator.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulebox.core.perft import perft
from rulebox.games.countred.rules import CountRed

DATA = json.loads((Path(__file__).parent / "perft.json").read_text(encoding="utf-8"))
CASES = [(c["options"], c.get("position"), c["counts"]) for c in DATA["cases"]]
IDS = [c.get("name", "start") + " " + " ".join(f"{k}={v}" for k, v in sorted(c["options"].items()))
       for c in DATA["cases"]]


def engine_game(options: dict, position: dict | None) -> CountRed:
    if position is None:
        return CountRed.new(options)
    return CountRed.from_json(
        {"game": "countred", "options": options, "history": [], "position": position}
    )


# --- the reference ----------------------------------------------------------------------------
# A field is (column 0-3, row 1-4); a piece is (red, number); a state is (fields, formers, locks).
FIELDS = [(c, r) for r in range(1, 5) for c in range(4)]


def value(f: tuple[int, int]) -> int:
    return 4 - f[1]


def around(f: tuple[int, int]) -> list[tuple[int, int]]:
    return [g for g in FIELDS if g != f and abs(g[0] - f[0]) <= 1 and abs(g[1] - f[1]) <= 1]


def reds(stack: list[tuple[bool, int]]) -> int:
    return sum(1 for red, _ in stack if red)


def ref_start() -> dict:
    board = {f: [((f[0] + f[1]) % 2 == 0, value(f))] for f in FIELDS}
    return {"board": board, "former": {}, "locked": set()}


def ref_load(position: dict) -> dict:
    """The reference state of a drawn position (perft.json's ``position``)."""
    def field(name: str) -> tuple[int, int]:
        return "ABCD".index(name[0]), int(name[1])

    board: dict[tuple[int, int], list[tuple[bool, int]]] = {f: [] for f in FIELDS}
    for name, pieces in position["fields"].items():
        board[field(name)] = [(p[0] == "r", int(p[1])) for p in pieces]
    former = {field(n): who for n, who in position.get("formed_by", {}).items()}
    return {"board": board, "former": former, "locked": {field(n) for n in position["locked"]}}


def ref_moves(st: dict, parity: int, player: int, free: bool) -> list[str]:
    board, out = st["board"], []
    for s in FIELDS:
        if not board[s]:
            continue
        piece = board[s][-1]
        if len(board[s]) == 2:
            if st["former"][s] != player:
                continue
            if not free and reds(board[s]) % 2 != parity:
                continue
        else:
            if s in st["locked"]:
                continue
            if (sum(reds(board[g]) for g in around(s)) + piece[0]) % 2 != parity:
                continue
        after = dict(board)
        after[s] = board[s][:-1]
        for t in FIELDS:
            if t == s or len(board[t]) == 2:
                continue
            if board[t]:
                count = reds(board[t]) + piece[0]
            else:
                if piece[1] != value(t):
                    continue
                count = sum(reds(after[g]) for g in around(t)) + piece[0]
            if count % 2 == parity:
                out.append(f"{'ABCD'[s[0]]}{s[1]}-{'ABCD'[t[0]]}{t[1]}")
    return out


def ref_play(st: dict, move: str, player: int) -> tuple[dict, bool, bool]:
    """The state after ``move``, whether it made a four, whether it made a new three."""
    s = ("ABCD".index(move[0]), int(move[1]))
    t = ("ABCD".index(move[3]), int(move[4]))
    board = {f: list(v) for f, v in st["board"].items()}
    former, locked = dict(st["former"]), set(st["locked"])
    piece = board[s].pop()
    former.pop(s, None)
    board[t].append(piece)
    if len(board[t]) == 2:
        former[t] = player
    column = [(t[0], r) for r in range(1, 5)]
    bases = [board[f][0][0] if board[f] else None for f in column]
    four = None not in bases and len(set(bases)) == 1
    three = False
    for lo in (0, 1):
        window = column[lo : lo + 3]
        colours = {board[f][0][0] if board[f] else None for f in window}
        if len(colours) == 1 and None not in colours and not all(f in locked for f in window):
            locked |= set(window)
            three = True
    return {"board": board, "former": former, "locked": locked}, four, three


def ref_perft(st: dict, to_move: int, depth: int, par: tuple[int, int], free: bool) -> int:
    moves = ref_moves(st, par[to_move], to_move, free)
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        nxt, four, three = ref_play(st, move, to_move)
        if four:  # the game is over: a leaf
            total += 1
            continue
        who = to_move if three else 1 - to_move
        if not ref_moves(nxt, par[who], who, free):
            who = 1 - who
            if not ref_moves(nxt, par[who], who, free):  # neither can move: a leaf
                total += 1
                continue
        total += ref_perft(nxt, who, depth - 1, par, free)
    return total


# --- the tests ----------------------------------------------------------------------------------
@pytest.mark.parametrize(("options", "position", "counts"), CASES, ids=IDS)
def test_perft_matches_the_stored_counts(
    options: dict, position: dict | None, counts: list[int]
) -> None:
    game = engine_game(options, position)
    before = game.to_json()
    assert [perft(game, d) for d in range(1, len(counts) + 1)] == counts
    assert game.to_json() == before, "perft undoes every move"


def _reference_counts(options: dict, position: dict | None, depth: int) -> list[int]:
    even = int(options["even"])
    par = (0, 1) if even == 0 else (1, 0)
    free = options.get("stack_lift") == "free"
    if position is None:
        state, first = ref_start(), int(options["first"])
    else:
        state, first = ref_load(position), position["to_move"]
    return [ref_perft(state, first, d, par, free) for d in range(1, depth + 1)]


@pytest.mark.parametrize(("options", "position", "counts"), CASES, ids=IDS)
def test_perft_counts_agree_with_the_reference_to_depth_2(
    options: dict, position: dict | None, counts: list[int]
) -> None:
    assert _reference_counts(options, position, 2) == counts[:2]


@pytest.mark.slow  # about 12 s in all; CI runs it in its own step (pytest -m slow)
@pytest.mark.parametrize(("options", "position", "counts"), CASES, ids=IDS)
def test_perft_counts_agree_with_the_reference(
    options: dict, position: dict | None, counts: list[int]
) -> None:
    assert _reference_counts(options, position, len(counts)) == counts


def test_perft_data_covers_both_parities_and_both_stack_lift_rules() -> None:
    starts = {(o["first"], o["even"]) for o, p, _ in CASES if p is None}
    assert starts == {("0", "0"), ("0", "1"), ("1", "0"), ("1", "1")}
    assert {o["stack_lift"] for o, _, _ in CASES} == {"seed", "free"}
