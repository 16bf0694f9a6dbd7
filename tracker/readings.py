"""Reading tiles: a hand's standing row, a river slot's votes, a detector class as a game code.
Pure functions over ``tracker.zones.TableView`` arrays (mm in a seat's frame)."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import numpy as np

from tracker import tiles
from tracker.zones import TILE_H, TILE_W, TableView

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


def one_per_tile(
    river: TableView,
    min_step_mm: float = 0.6 * TILE_W,
    row_mm: float = 0.5 * TILE_H,
    alike_step_mm: float = 0.7 * TILE_W,
) -> tuple[TableView, np.ndarray]:
    """One river's tiles, one detection per tile, and ``doubled`` (M,) bool: the tiles seen twice.
    Tiles of a row lie a tile's width apart (26 mm; 30 beside a sideways one), so two detections
    closer than ``min_step_mm`` along a row are one tile boxed twice (8-15 mm apart on the
    evaluation clips), or a sideways tile read as two upright ones: the surer kept, at the pair's
    middle; how it lies is unknown. (At 0.75 of a tile, a new discard boxed off-centre toward its
    neighbour was swallowed by it and read late: discards out of order.) Two boxes of one face are
    one tile up to ``alike_step_mm`` apart (set 8 hanchan-jansou-mleague-hanchan 22901: a 4s boxed
    again 16 mm on, at 0.25, read as a discard out of turn, then a false 先摸). Not much further:
    at 0.75 of a tile, set 8 hanchan-jansou-0 10729 (low camera, neighbours measured 19-20 mm
    apart) lost a 4s read 2s beside a 2s."""
    if len(river) < 2:
        return river, np.zeros(len(river), bool)
    keep: list[int] = []
    u = river.u.astype(np.float32).copy()
    doubled = np.zeros(len(river), bool)
    ids = river.class_ids
    for i in np.argsort(-river.confidence, kind="stable").tolist():
        twin = next(
            (
                j
                for j in keep
                if abs(u[j] - u[i]) < (alike_step_mm if ids[j] == ids[i] else min_step_mm)
                and abs(river.v[j] - river.v[i]) < row_mm
            ),
            None,
        )
        if twin is None:
            keep.append(i)
        elif not doubled[twin]:
            doubled[twin] = True
            u[twin] = 0.5 * (u[twin] + u[i])
    idx = np.array(sorted(keep))
    out = river.select(idx)
    return replace(out, u=u[idx]), doubled[idx]


def one_per_place(
    meld_row: TableView, max_overlap: float = 0.4, same_row_mm: float = 0.6 * TILE_W
) -> TableView:
    """A meld area's (or an open hand's) tiles, one detection per place. Laid tiles never overlap
    (26 mm apart, 30.5 beside a sideways one), so a detection covering more than ``max_overlap``
    of a surer one's width along the row is that tile or its neighbours boxed again (a tile being
    laid, half covered): dropped. A kakan's added tile lies a tile's width closer to the centre
    (``v``) than the sideways tile it sits on, so only detections within ``same_row_mm`` across
    are compared. One (N, N) clash matrix; a detection is kept when no surer kept one clashes with
    it, found by a few whole-array passes (a box straddling two tiles, itself dropped, must not drop them)."""
    n = len(meld_row)
    if n < 2:
        return meld_row
    half = np.where(meld_row.sideways, TILE_H, TILE_W) / 2.0
    u, v = meld_row.u.astype(np.float64), meld_row.v.astype(np.float64)
    overlap = np.minimum((u + half)[:, None], (u + half)[None]) - np.maximum(
        (u - half)[:, None], (u - half)[None]
    )
    narrower = 2.0 * np.minimum(half[:, None], half[None])
    clash = (overlap > max_overlap * narrower) & (np.abs(v[:, None] - v[None]) < same_row_mm)
    rank = np.empty(n, np.int64)
    rank[np.argsort(-meld_row.confidence, kind="stable")] = np.arange(n)
    beaten = clash & (rank[None, :] < rank[:, None])  # [i, j]: a surer j clashes with i
    keep = np.ones(n, bool)
    for _ in range(n):  # the greedy pick's fixed point: settles within the longest chain of clashes
        settled = ~(beaten & keep[None, :]).any(axis=1)
        if np.array_equal(settled, keep):
            break
        keep = settled
    return meld_row.select(keep)


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
    """The most seen tile (votes: code -> weight), a known tile before ``?``. A red five and a
    plain one are the same kind: the kind is chosen on both's votes, then the face with more
    of them; a tie is a plain five (one five in four is red: a red five is claimed only when it
    was seen more). No rules are applied here: a five read red stays red under MCR too (the
    record keeps what was seen). Other ties go to the code seen first."""
    by_kind: dict[str, float] = {}
    for c, n in votes.items():
        if c != "?":
            by_kind[tiles.deaka(c)] = by_kind.get(tiles.deaka(c), 0.0) + n
    if not by_kind:
        return "?"
    kind = max(by_kind, key=by_kind.__getitem__)  # the first seen of equals
    red = next((c for c in votes if c != kind and tiles.deaka(c) == kind), None)
    return red if red is not None and votes[red] > votes.get(kind, 0.0) else kind


def game_code(class_id: int, bonus: bool) -> str:
    """A detector class as a game tile code: backs and standing tiles are unknown (``?``), and so
    is a flower or season where the rules have none (the detector confused it)."""
    code = str(_CODES[class_id])
    if code in (tiles.BACK, tiles.STANDING) or (not bonus and tiles.is_bonus(code)):
        return "?"
    return code
