"""Observations as tensors, built only from ``game.view(seat)``.

An observation is one flat ``float32`` vector: a block of planes ``(C, H, W)`` in row-major
order, then ``K`` scalars. :meth:`Observer.split` gives the two parts back. Everything is from the
observing seat's side: "own" is the observing seat (and in Columba with four players its
partner), "opp" the others. The encoders read nothing but the view (a JSON-able dict), so an
observation can never carry what the seat may not see (the draw pile's order, say); the
two-worlds tests check it. docs/RESEARCH.md lists every channel.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

View = dict[str, Any]


@dataclass(frozen=True)
class Observer:
    """How one game's views become tensors: plane and scalar names, shapes, the encoder."""

    game_id: str
    planes: tuple[str, ...]
    height: int
    width: int
    scalars: tuple[str, ...]
    fill: Callable[[View, int, np.ndarray, np.ndarray, Any], None]
    context: Any = None

    @property
    def size(self) -> int:
        """Length of the flat observation vector."""
        return len(self.planes) * self.height * self.width + len(self.scalars)

    def encode(self, view: View, seat: int) -> np.ndarray:
        """The observation of ``view`` (from ``game.view(seat)``) for ``seat``."""
        out = np.zeros(self.size, dtype=np.float32)
        planes, scalars = self.split(out)
        self.fill(view, seat, planes, scalars, self.context)
        return out

    def split(self, obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The planes ``(C, H, W)`` and the scalars ``(K,)`` of an observation (views, no copy)."""
        n = len(self.planes) * self.height * self.width
        return obs[:n].reshape(len(self.planes), self.height, self.width), obs[n:]


# --- Columns -----------------------------------------------------------------------------------
_COL_KINDS = "RSDT"


def _fill_columns(view: View, seat: int, planes: np.ndarray, sc: np.ndarray, _: Any) -> None:
    from rulebox.games.columns.geometry import FILES, LEVELS, RANKS
    from rulebox.games.columns.moves import STOCK, Kind

    pins: dict[str, list[str]] = view["position"]["pins"]
    numbers: dict[tuple[int, int], set[str]] = {}
    for name, units in pins.items():
        f, r = FILES.index(name[0]), RANKS.index(name[1])
        numbers[f, r] = {u[2:] for u in units if len(u) > 2}
    for name, units in pins.items():
        f, r = FILES.index(name[0]), RANKS.index(name[1])
        for level, unit in enumerate(units):
            side = 0 if int(unit[0]) == seat else 4
            planes[8 * level + side + _COL_KINDS.index(unit[1]), r, f] = 1
            num = unit[2:]
            if num and num in numbers.get((f + 1, r), ()):
                planes[8 * LEVELS + level, r, f] = 1
            if num and num in numbers.get((f, r + 1), ()):
                planes[9 * LEVELS + level, r, f] = 1
    left = view["left"]
    for i, k in enumerate(_COL_KINDS):
        sc[i] = left[seat][k] / STOCK[Kind(i)]
        sc[4 + i] = left[1 - seat][k] / STOCK[Kind(i)]
    sc[8] = 1.0 if view["to_move"] == seat else 0.0


def _columns() -> Observer:
    planes = [f"level{lv}_{side}_{k}" for lv in range(5) for side in ("own", "opp")
              for k in _COL_KINDS]
    planes += [f"level{lv}_joined_east" for lv in range(5)]
    planes += [f"level{lv}_joined_north" for lv in range(5)]
    scalars = [f"{side}_left_{k}" for side in ("own", "opp") for k in _COL_KINDS]
    return Observer("columns", tuple(planes), 3, 4, (*scalars, "to_move_is_me"), _fill_columns)


# --- 36 to 1 -----------------------------------------------------------------------------------
def _fill_36(view: View, seat: int, planes: np.ndarray, sc: np.ndarray, _: Any) -> None:
    from rulebox.games.solitaire36.board import (
        CARD_COLOUR,
        CARD_GREEN_SET,
        CARD_INDEX,
        CARD_SYMBOL,
        COLOURS,
        NUM_CARDS,
    )

    for r, row in enumerate(view["grid"]):
        for f, ch in enumerate(row):
            if ch in COLOURS:
                planes[COLOURS.index(ch), r, f] = 1

    def put(code: str, standard: int, green: int, value: float = 1.0) -> None:
        card = CARD_INDEX[code]
        c, s = CARD_COLOUR[card], CARD_SYMBOL[card]
        if CARD_GREEN_SET[card]:
            planes[green, c, s] += value
        else:
            planes[standard, c, s] = 1

    for slot, code in enumerate(view["faceup"][:2]):
        put(code, 6 + slot, 6 + slot)
        if CARD_GREEN_SET[CARD_INDEX[code]]:
            planes[8, CARD_COLOUR[CARD_INDEX[code]], CARD_SYMBOL[CARD_INDEX[code]]] = 1
    for code in view["unseen"]:
        put(code, 9, 10, 1 / 3)
    for code in view["discard"]:
        put(code, 11, 12, 1 / 3)
    sc[0] = view["pile_count"] / NUM_CARDS
    sc[1] = view["cubes_left"] / 36


def _solitaire36() -> Observer:
    planes = (
        "cube_R", "cube_Y", "cube_G", "cube_B", "cube_K", "cube_W",
        "faceup_slot0", "faceup_slot1", "faceup_green",
        "unseen_standard", "unseen_green", "discard_standard", "discard_green",
    )
    return Observer("36to1", planes, 6, 6, ("pile_count", "cubes_left"), _fill_36)


# --- Count Red ---------------------------------------------------------------------------------
_CR_PIECES = ("b0", "b1", "b2", "b3", "r0", "r1", "r2", "r3")


def _fill_countred(view: View, seat: int, planes: np.ndarray, sc: np.ndarray, _: Any) -> None:
    from rulebox.games.countred.moves import FIELD_INDEX

    pos = view["position"]
    for name, stack in pos["fields"].items():
        col, row = divmod(FIELD_INDEX[name], 4)[::-1]
        for level, piece in enumerate(stack[:2]):
            planes[8 * level + _CR_PIECES.index(piece), row, col] = 1
    for name, who in pos["formed_by"].items():
        col, row = divmod(FIELD_INDEX[name], 4)[::-1]
        planes[16 if who == seat else 17, row, col] = 1
    for name in pos["locked"]:
        col, row = divmod(FIELD_INDEX[name], 4)[::-1]
        planes[18, row, col] = 1
    opts = view["options"]
    sc[0] = 1.0 if int(opts["even"]) == seat else 0.0
    sc[1] = 1.0 if int(opts["first"]) == seat else 0.0
    sc[2] = 1.0 if opts.get("stack_lift") == "free" else 0.0
    sc[3] = pos["fifty"] / 50
    sc[4] = max(pos["seen"].values(), default=0) / 5
    sc[5] = 1.0 if view["to_move"] == seat else 0.0


def _countred() -> Observer:
    planes = tuple(f"bottom_{p}" for p in _CR_PIECES) + tuple(f"top_{p}" for p in _CR_PIECES)
    planes += ("formed_by_me", "formed_by_opp", "locked")
    scalars = ("i_move_on_even", "i_moved_first", "stack_lift_free", "fifty_count",
               "most_repeated_position", "to_move_is_me")
    return Observer("countred", planes, 4, 4, scalars, _fill_countred)


# --- Discs -------------------------------------------------------------------------------------
def _discs_context() -> dict[str, Any]:
    from rulebox.games.discs.geometry import (
        ARRANGE_ORDER,
        DISC_INDEX,
        HOLE_INDEX,
        HOLES_PER_DISC,
        NUM_HOLES,
        hole_xy,
    )

    cell = {h: (hole_xy(h)[1] + 1, hole_xy(h)[0] + 1) for h in range(NUM_HOLES)}
    disc_cells = {d: [cell[d * HOLES_PER_DISC + k] for k in range(HOLES_PER_DISC)]
                  for d in range(len(DISC_INDEX))}
    return {"cell": cell, "hole": HOLE_INDEX, "disc": DISC_INDEX, "disc_cells": disc_cells,
            "arrange": ARRANGE_ORDER}


def _fill_discs(view: View, seat: int, planes: np.ndarray, sc: np.ndarray, ctx: Any) -> None:
    pos = view["position"]
    cell, hole, disc = ctx["cell"], ctx["hole"], ctx["disc"]
    for r, f in cell.values():
        planes[0, r, f] = 1
    for p, pins in enumerate(pos["pins"]):
        for name in pins:
            planes[(1 if p == seat else 2, *cell[hole[name]])] = 1
    for i, letter in enumerate(pos["discs"]):
        if letter in "RGB":
            for r, f in ctx["disc_cells"][ctx["arrange"][i]]:
                planes[3 + "RGB".index(letter), r, f] = 1
    for p in range(2):
        side = 0 if p == seat else 1
        if pos["locks"][p]:
            planes[(6 + side, *cell[hole[pos["locks"][p]]])] = 1
        if pos["barriers"][p]:
            for name in pos["barriers"][p].split("-"):
                planes[(8 + side, *cell[hole[name]])] = 1
        for i, key in enumerate(("start", "home")):
            for d in pos[key][p]:
                for r, f in ctx["disc_cells"][disc[d]]:
                    planes[10 + 2 * i + side, r, f] = 1
        for letter in pos["tokens"][p]:
            sc[3 * side + "RGB".index(letter)] = 1
    sc[6 + ("arrange", "choose", "main", "block").index(pos["phase"])] = 1
    for i, key in enumerate(("lock", "bar", "token")):
        sc[10 + i] = 1.0 if pos["turn"][key] else 0.0
    sc[13] = pos["passes"] / 2
    limit = int(view["options"].get("quiet_limit", 100))
    sc[14] = pos["quiet_turns"] / max(limit, 1)
    sc[15] = 1.0 if pos["silver"] == seat else 0.0
    sc[16] = max(pos["seen"].values(), default=0) / 3
    sc[17] = 1.0 if view["to_move"] == seat else 0.0


def _discs() -> Observer:
    planes = ("hole", "own_pin", "opp_pin", "disc_R", "disc_G", "disc_B", "own_lock", "opp_lock",
              "own_barrier", "opp_barrier", "own_start", "opp_start", "own_home", "opp_home")
    scalars = ("own_token_R", "own_token_G", "own_token_B", "opp_token_R", "opp_token_G",
               "opp_token_B", "phase_arrange", "phase_choose", "phase_main", "phase_block",
               "turn_locked", "turn_barred", "turn_token", "passes", "quiet_turns",
               "i_am_silver", "most_repeated_position", "to_move_is_me")
    return Observer("discs", planes, 11, 11, scalars, _fill_discs, _discs_context())


# --- Columba -----------------------------------------------------------------------------------
_CB_COLOURS = "WGBK"
_CB_PHASES = ("place", "goal", "actions", "over")
_CB_BLOCK = 30
"""Scalars per player in Columba's observation."""


def _fill_columba(view: View, seat: int, planes: np.ndarray, sc: np.ndarray, win: Any) -> None:
    from rulebox.games.columba.cards import CARDS

    pos = view["position"]
    n = len(pos["players"])
    friends = {seat, (seat + 2) % 4} if n == 4 else {seat}
    x0, y0, size = win.x0, win.y0, win.size

    def at(text: str) -> tuple[int, int] | None:
        xs, ys = text.split(",")
        x, y = int(xs) - x0, int(ys) - y0
        return (y, x) if 0 <= x < size and 0 <= y < size else None

    for text, sq in pos["squares"].items():
        rc = at(text)
        if rc is None:
            continue
        planes[(17, *rc)] = 1
        if sq[0] == "field":
            planes[(_CB_COLOURS.index(sq[1]), *rc)] = 1
        elif sq[0] == "tile":
            planes[(4 + _CB_COLOURS.index(sq[1]), *rc)] = 1
            planes[(8 if sq[2] in friends else 9, *rc)] = 1
        else:
            planes[(10 if sq[1] in friends else 11, *rc)] = 1
    for text, (who, kind) in pos["cotes"].items():
        rc = at(text)
        if rc is not None:
            planes[(12 + (0 if who in friends else 2) + (kind == "large"), *rc)] = 1
    for text in pos["this_turn"]["tiles"]:
        rc = at(text)
        if rc is not None:
            planes[(16, *rc)] = 1
    # scalars: 4 player blocks of 30, from the observing seat round the table, then globals
    for i in range(n):
        p = (seat + i) % n
        pl = pos["players"][p]
        b = _CB_BLOCK * i
        for c, letter in enumerate(_CB_COLOURS):
            sc[b + c] = pl["reserve"][letter] / 15
        sc[b + 4] = pl["cotes"]["small"] / 4
        sc[b + 5] = pl["cotes"]["large"] / 4
        sc[b + 6] = len(pl["chicks"]) / 4
        sc[b + 7] = sum(1 for t in pl["chicks"] if t < pos["turn"]) / 4
        sc[b + 8] = pl["adults"] / 4
        for k, filled in enumerate(pl["slots"]):
            sc[b + 9 + k] = 1.0 if filled else 0.0
        if pl["objective"] is not None:
            for k, colour in enumerate(CARDS[pl["objective"]].fields):
                sc[b + 13 + 4 * k + colour] = 1
        sc[b + 29] = min(1.0, max(-1.0, view["scores"][p] / 100))
    g = 4 * _CB_BLOCK
    for c, letter in enumerate(_CB_COLOURS):
        sc[g + c] = pos["supply"][letter] / 15
    sc[g + 4] = pos["falcons"] / 12
    sc[g + 5] = pos["cards_left"] / 31
    sc[g + 6 + _CB_PHASES.index(pos["phase"])] = 1
    sc[g + 10] = pos["turn"] / 100
    if pos["hand"] is not None:
        for k, colour in enumerate(CARDS[pos["hand"]].fields):
            sc[g + 11 + 4 * k + colour] = 1
    sc[g + 27] = 1.0 if pos["this_turn"]["cote"] else 0.0
    sc[g + 28] = pos["this_turn"]["falcon"] / 2
    sc[g + 29] = 1.0 if view["to_move"] == seat else 0.0
    sc[g + 30 + n - 2] = 1


def _columba() -> Observer:
    from rulebox.env.actions import COLUMBA_WINDOW

    planes = tuple(f"field_{c}" for c in _CB_COLOURS) + tuple(f"tile_{c}" for c in _CB_COLOURS)
    planes += ("tile_own", "tile_opp", "falcon_own", "falcon_opp", "cote_small_own",
               "cote_large_own", "cote_small_opp", "cote_large_opp", "laid_this_turn",
               "occupied")
    block = [f"reserve_{c}" for c in _CB_COLOURS] + ["cotes_small", "cotes_large"]
    block += ["chicks", "chicks_raisable", "adults"]
    block += [f"slot{k}" for k in range(4)]
    block += [f"objective_field{k}_{c}" for k in range(4) for c in _CB_COLOURS] + ["score"]
    scalars = [f"seat+{i}_{name}" for i in range(4) for name in block]
    scalars += [f"supply_{c}" for c in _CB_COLOURS] + ["falcons", "cards_left"]
    scalars += [f"phase_{p}" for p in _CB_PHASES] + ["turn"]
    scalars += [f"hand_field{k}_{c}" for k in range(4) for c in _CB_COLOURS]
    scalars += ["cote_this_turn", "falcons_this_turn", "to_move_is_me"]
    scalars += ["players_2", "players_3", "players_4"]
    size = COLUMBA_WINDOW.size
    return Observer("columba", planes, size, size, tuple(scalars), _fill_columba,
                    COLUMBA_WINDOW)


_CB_BASE_PLANES = 18
_CB_BASE_SCALARS = 4 * _CB_BLOCK + 33


def _fill_columba_officia(view: View, seat: int, planes: np.ndarray, sc: np.ndarray,
                          win: Any) -> None:
    """Columba's observation, then the Officia's (CB-15): the peasant's tiles under each
    dovecote and the marshal's square (planes), each seat's role, the power used this turn and
    the falconer's second falcon waiting to be placed (scalars)."""
    from rulebox.games.columba.officia import ROLES

    _fill_columba(view, seat, planes, sc, win)
    pos = view["position"]
    x0, y0, size = win.x0, win.y0, win.size

    def at(text: str) -> tuple[int, int] | None:
        xs, ys = text.split(",")
        x, y = int(xs) - x0, int(ys) - y0
        return (y, x) if 0 <= x < size and 0 <= y < size else None

    for text, tiles in pos["under"].items():
        rc = at(text)
        if rc is not None:
            planes[(_CB_BASE_PLANES, *rc)] = min(1.0, len(tiles) / 4)
    marshal = pos["this_turn"].get("marshal")
    if marshal is not None:
        rc = at(marshal)
        if rc is not None:
            planes[(_CB_BASE_PLANES + 1, *rc)] = 1
    roles = pos["roles"]
    n = len(pos["players"])
    base = _CB_BASE_SCALARS
    for i in range(n):
        if roles:
            sc[base + len(ROLES) * i + ROLES.index(roles[(seat + i) % n])] = 1
    base += 4 * len(ROLES)
    sc[base] = 1.0 if pos["this_turn"].get("power") else 0.0
    sc[base + 1] = 1.0 if pos["this_turn"].get("second") is not None else 0.0


def _columba_officia() -> Observer:
    from rulebox.games.columba.officia import ROLES

    plain = _columba()
    planes = (*plain.planes, "under_cote", "marshal_square")
    scalars = (*plain.scalars, *(f"seat+{i}_role_{r}" for i in range(4) for r in ROLES),
               "power_used", "second_falcon_pending")
    return Observer("columba+officia", planes, plain.height, plain.width, scalars,
                    _fill_columba_officia, plain.context)


_BUILDERS = {
    "columns": _columns,
    "36to1": _solitaire36,
    "countred": _countred,
    "discs": _discs,
    "columba": _columba,
    "columba+officia": _columba_officia,
}


@functools.cache
def observer(game_id: str) -> Observer:
    """The observer of a game (built once)."""
    if game_id not in _BUILDERS:
        raise ValueError(f"no observer for {game_id!r} (games: {', '.join(sorted(_BUILDERS))})")
    return _BUILDERS[game_id]()
