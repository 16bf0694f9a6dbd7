"""Reading tiles: a hand's standing row, a river slot's votes, a detector class as a game code.
Pure functions over ``tracker.zones.TableView`` arrays (mm in a seat's frame)."""

from __future__ import annotations

from collections import Counter

import numpy as np

from tracker import tiles
from tracker.zones import TableView

TILE_W, TILE_H = 26.0, 35.0  # mm, for slot spacing
_CODES = np.asarray(tiles.MODEL_CLASSES, dtype=object)


def standing_row(hand: TableView, min_step_mm: float = 0.5 * TILE_W) -> TableView:
    """One hand's standing tiles, one detection per tile: two closer than half a tile's width are
    one tile seen twice (a detector boxing its top and its side), the surer one kept."""
    row = hand.select(hand.standing)
    if len(row) < 2:
        return row
    order = np.argsort(row.u)
    keep: list[int] = [int(order[0])]
    for i in order[1:].tolist():
        if row.u[i] - row.u[keep[-1]] < min_step_mm:
            if row.confidence[i] > row.confidence[keep[-1]]:
                keep[-1] = i
        else:
            keep.append(i)
    return row.select(np.array(sorted(keep, key=lambda j: row.u[j])))


def row_holes(u: np.ndarray, apart: bool, gap_mm: float = 8.0) -> int:
    """Places in a standing row (``u`` mm; the drawn tile set apart excluded) where neighbours
    stand a tile or more apart: tiles the detector missed."""
    s = np.sort(u)[: len(u) - 1 if apart else len(u)]
    if len(s) < 2:
        return 0
    return int((np.diff(s) > TILE_W + gap_mm).sum())


def drawn_apart(u: np.ndarray, gap_mm: float = 5.0) -> bool:
    """Do standing tiles at ``u`` (mm) end, at the player's right, in one tile set apart?"""
    if len(u) < 2:
        return False
    s = np.sort(u)
    step = s[-1] - s[-2]
    return bool(TILE_W + gap_mm < step < 2 * TILE_W - gap_mm)  # wider: a tile the detector missed


def pick_code(votes: Counter) -> str:
    """The most seen code, a known tile before ``?``."""
    known = [(n, c) for c, n in votes.items() if c != "?"]
    return max(known)[1] if known else "?"


def game_code(class_id: int, bonus: bool) -> str:
    """A detector class as a game tile code: backs and standing tiles are unknown (``?``), and so
    is a flower or season where the rules have none (the detector confused it)."""
    code = str(_CODES[class_id])
    if code in (tiles.BACK, tiles.STANDING) or (not bonus and tiles.is_bonus(code)):
        return "?"
    return code
