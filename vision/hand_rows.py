"""Standing rows measured from the pixels: where each seat's row of standing tiles begins and ends.

A camera far from the table (720p, ~18 px a tile, blur, H.264) shows a standing row as one
uniform bar: its tiles are not separable, so a detector boxes a few of them and counting boxes
fails. The bar itself is plain to see against the felt. For each seat edge this samples the
hand band of the calibrated table plane into a strip (``u`` along the row at ``step_mm``, a few
lines across it), marks the samples that are not felt-coloured, and finds the runs of such
columns along ``u``: the longest is the row, and a short run just right of it is the drawn tile
set apart. A length becomes a count with the tile pitch (``count``), which the caller calibrates
from a row of known size (``pitch_for``): the bar seen is the tiles' tops, a little larger than
their footprint on the plane.

Struct of arrays over the 4 edges; one ``cv2.remap`` a read. Classical, no model.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from tracker.zones import to_local
from vision.calibration import Calibration

TILE_W_MM = 26.0
# mm a standing tile along a measured row: the tops seen are a little larger than the 26 mm
# footprint (measured on the renderer's low camera: 26.2-26.9); a deal calibrates it per edge
NOMINAL_PITCH_MM = 26.7
# a deal's row of 13 outside this is not a row of 13. Perspective stretches the tops of a row near
# a tilted camera: rows of 13 measured 26.4-28.8 mm a tile over the evaluation set's deals. A
# dealer's 14 with its drawn tile merged into the bar (its gap blurred away) is 14 pitches and a
# gap over 13: 29.3 and more there
PITCH_RANGE = (25.0, 29.0)
# mm a standing row's bar measures over its tiles' pitches (a row of 4 measured 125 mm where one of
# 13 measured 360 on hanchan-jansou-0's tilted camera: 26.1 a tile and 20.6 over; taken lower)
ROW_OVERHANG_MM = 12.0
# (u_min, u_max, v_min, v_max) mm in each edge's frame where standing tiles' tops are seen
ROW_BAND = (-310.0, 250.0, 418.0, 452.0)
# the felt's colour is sampled on a grid of FELT_GRID x FELT_GRID points over FELT_REACH of the
# felt (30 mm apart on a 990 mm felt: points between a row and the felt's edge too) and smoothed
# over FELT_SIGMA_CELLS cells; samples further than FELT_SPREAD from the free samples' median are
# not felt (a glare spot measured 23-28 from it; ivory faces and most backs 78 and more), nor are
# those in a busy band (BUSY_MARGIN_MM around it) unless the free felt around them is as theirs
FELT_GRID = 32
FELT_REACH = 0.97
FELT_SIGMA_CELLS = 1.5
FELT_SPREAD = 40.0
BUSY_MARGIN_MM = 10.0
# the shortest row measured on an edge whose tiles differ from the felt on only a line or two
RELAXED_MIN_MM = 3 * TILE_W_MM


def _to_table(edge: int, u: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Edge-local (u, v) mm -> table (x, y) mm (as ``tracker.zones.to_table``, vectorised)."""
    x, y = u, v
    for _ in range(edge % 4):
        x, y = y, -x
    return x, y


@dataclass(frozen=True)
class HandRows:
    """One read of the four rows (index = edge). ``left``, ``right`` (4,) mm: the row's ends along
    ``u`` (NaN: no row seen); ``drawn_left``, ``drawn_right`` (4,) mm: a tile set apart at the
    right (NaN: none); ``clipped`` (4,) bool: the row runs into the strip's end (not measured)."""

    left: np.ndarray
    right: np.ndarray
    drawn_left: np.ndarray
    drawn_right: np.ndarray
    clipped: np.ndarray

    @property
    def length(self) -> np.ndarray:
        """(4,) mm of the row without the tile apart (NaN where none)."""
        return self.right - self.left

    @property
    def end(self) -> np.ndarray:
        """(4,) mm: where the row ends at the right, a tile apart included (NaN: not measured).
        While a discard is in the air this tells tsumogiri (the row ends where it ended before
        the draw) from tedashi (the drawn tile still stands apart, right of that)."""
        end = np.where(np.isnan(self.drawn_right), self.right, self.drawn_right)
        return np.where(self.clipped, np.nan, end)

    @property
    def apart(self) -> np.ndarray:
        """(4,) bool: a drawn tile stands apart at the row's right."""
        return ~np.isnan(self.drawn_left)

    def count(self, pitch_mm: np.ndarray | float) -> np.ndarray:
        """(4,) int standing tiles (the one apart included), -1 where not measured. ``pitch_mm``
        is a row of 13's length over 13; a row's bar is its tiles' pitches and ``ROW_OVERHANG_MM``
        more (blur, the tops' edges), which that pitch spreads over 13 tiles: a short row is
        counted with it taken off (hanchan-jansou-0 5590: 4 tiles measured 125 mm, at a 27.7 mm
        pitch 4.5 tiles, read 5, a false tile_count_excess)."""
        step = pitch_mm - ROW_OVERHANG_MM / 13
        n = np.rint((self.length - ROW_OVERHANG_MM) / step)
        n = n + self.apart
        ok = ~np.isnan(n) & ~self.clipped & (n >= 1)
        return np.where(ok, np.nan_to_num(n), -1).astype(np.int64)

    @staticmethod
    def none() -> HandRows:
        nan = np.full(4, np.nan)
        return HandRows(nan, nan.copy(), nan.copy(), nan.copy(), np.ones(4, bool))


def pitch_for(length_mm: float, tiles: int) -> float:
    """The pitch (``HandRows.count``'s) of a row of ``tiles`` measured ``length_mm`` long:
    calibration from a known row (a row of 13: its length over 13)."""
    return (length_mm - ROW_OVERHANG_MM) / tiles + ROW_OVERHANG_MM / 13


class HandRowMeter:
    """``measure(image) -> HandRows`` for the 4 edges' hand bands.

    ``band`` (u_min, u_max, v_min, v_max) mm in each edge's frame: where standing tiles (their
    tops, as the camera sees them) can lie; a sample is a tile's where its colour is more than
    ``threshold`` from the felt's near it (``felt_near``)."""

    def __init__(
        self,
        calibration: Calibration,
        band: tuple[float, float, float, float] = ROW_BAND,
        step_mm: float = 1.0,
        lines: int = 7,
        min_share: float = 0.4,
        min_run_mm: float = 12.0,
        max_gap_mm: float = 3.0,
        threshold: float = 22.0,
        busy: tuple[tuple[float, float, float, float], ...] | None = None,
    ) -> None:
        u0, u1, v0, v1 = band
        self.u = np.arange(u0, u1 + 1e-6, step_mm)
        self.step = step_mm
        self.min_share = min_share
        self.min_run = int(round(min_run_mm / step_mm))
        self.max_gap = int(round(max_gap_mm / step_mm))
        self.threshold = threshold
        vs = np.linspace(v0, v1, lines)
        uu, vv = np.meshgrid(self.u, vs)  # (lines, n_u)
        maps = []
        for e in range(4):
            x, y = _to_table(e, uu.ravel(), vv.ravel())
            px = calibration.table_to_image(np.stack([x, y], 1)).reshape(lines, len(self.u), 2)
            maps.append(px)
        px = np.concatenate(maps, 0).astype(np.float32)  # (4 * lines, n_u, 2)
        self.lines = lines
        self.map_x = np.ascontiguousarray(px[..., 0])
        self.map_y = np.ascontiguousarray(px[..., 1])
        # felt samples: a grid over the felt, without the bands where tiles lie (``busy``, each
        # edge's; backs near the felt's colour would pass for felt). Each band sample is compared
        # with the felt near it, interpolated from this grid, not with one colour for the whole
        # table: a lamp's glare lightens the felt under it by more than ``threshold``
        # (hanchan-jansou-mleague-hanchan: a glare spot beside a row's end was read as a drawn
        # tile set apart, every turn a hand of 14)
        busy = busy if busy is not None else (band,)
        reach = FELT_REACH * calibration.felt_half_mm
        g = np.linspace(-reach, reach, FELT_GRID)
        gx, gy = np.meshgrid(g, g)
        free = np.ones(gx.shape, bool)
        for e in range(4):
            gu, gv = to_local(np.stack([gx.ravel(), gy.ravel()], 1), e).T.reshape(2, *gx.shape)
            for b0, b1, c0, c1 in busy:
                m = BUSY_MARGIN_MM
                free &= ~((gu > b0 - m) & (gu < b1 + m) & (gv > c0 - m) & (gv < c1 + m))
        self.felt_free = free.astype(np.float32)
        fpx = calibration.table_to_image(np.stack([gx.ravel(), gy.ravel()], 1)).astype(np.float32)
        self.felt_x = np.ascontiguousarray(fpx[:, 0].reshape(FELT_GRID, FELT_GRID))
        self.felt_y = np.ascontiguousarray(fpx[:, 1].reshape(FELT_GRID, FELT_GRID))
        # where each band sample falls on that grid (fractional cell index, x along columns)
        band_xy = [_to_table(e, uu, vv) for e in range(4)]
        x, y = np.concatenate([b[0] for b in band_xy]), np.concatenate([b[1] for b in band_xy])
        cell = (FELT_GRID - 1) / (2 * reach)
        self.grid_x = np.ascontiguousarray(((x + reach) * cell).astype(np.float32))
        self.grid_y = np.ascontiguousarray(((y + reach) * cell).astype(np.float32))

    def tile_mask(self, image: np.ndarray) -> np.ndarray:
        """(4, lines, n_u) bool: samples that are not felt."""
        lab = cv2.cvtColor(
            cv2.remap(image, self.map_x, self.map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE),
            cv2.COLOR_BGR2LAB,
        ).astype(np.float32)
        dist = _colour_distance(lab, self.felt_near(image))
        return (dist > self.threshold).reshape(4, self.lines, len(self.u))

    def felt_near(self, image: np.ndarray) -> np.ndarray:
        """(4 * lines, n_u, 3) Lab: the felt's colour near each band sample. The grid's samples
        off the busy bands within ``FELT_SPREAD`` of their median colour (lit or shaded felt; not
        a tile, a wall or an arm, which differ by far more), and those on a busy band as the free
        felt around them is, are averaged with Gaussian weights around each point; a point with no
        felt near it takes the median."""
        grid = cv2.cvtColor(
            cv2.remap(image, self.felt_x, self.felt_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE),
            cv2.COLOR_BGR2LAB,
        ).astype(np.float32)
        free = self.felt_free > 0
        median = np.median(grid[free] if free.any() else grid.reshape(-1, 3), axis=0)
        near = _colour_distance(grid, median) < FELT_SPREAD
        free_felt = (near & free).astype(np.float32)
        # a busy band's sample is felt where it is within ``threshold`` of the free felt around
        # it (a lamp's glare lightens the felt on a row as beside it); a back the row measure
        # would see differs from that felt by more, whatever its hue
        around = _local(grid, free_felt, median)
        felt = (near & (free | (_colour_distance(grid, around) < self.threshold))).astype(np.float32)
        local = _local(grid, felt, median)
        return cv2.remap(local, self.grid_x, self.grid_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)

    def measure(self, image: np.ndarray) -> HandRows:
        mask = self.tile_mask(image)
        share = mask.mean(axis=1)  # (4, n_u): the band's lines each column shows a tile on
        # tiles whose backs are near the felt's colour (teal on blue) show only their white
        # faces' strip, one to three of the band's lines: a row is the columns at half its
        # edge's common share, one line at least, ``min_share`` at most
        common = np.percentile(share, 95, axis=1)[:, None]
        need = np.clip(0.5 * common, 0.9 / self.lines, self.min_share)
        cols = share >= need
        # a run goes on through columns at half that (one line at least) as long as it has some
        # columns at ``need``: a row whose faces' strip differs from the felt on one line here,
        # two there (green backs on green felt: t6-confusing_nakis_1 418) is one row, its drawn
        # tile beside it, not a row cut where its strip thins
        weak = share >= np.maximum(0.5 * need, 0.9 / self.lines)
        # (on so few lines a short run may be a light strip of anything: a row there must be long)
        relaxed = need[:, 0] < self.min_share
        out = HandRows.none()
        for e in range(4):
            runs = _runs(weak[e], self.max_gap, self.min_run)
            runs = runs[[bool(cols[e, a:b].any()) for a, b in runs.tolist()]].reshape(-1, 2)
            if not len(runs):
                continue
            main = int(np.argmax(runs[:, 1] - runs[:, 0]))
            a, b = runs[main]
            if relaxed[e] and (b - a) * self.step < RELAXED_MIN_MM:
                continue
            out.left[e], out.right[e] = self.u[a], self.u[b - 1] + self.step
            out.clipped[e] = a == 0 or b == len(self.u)
            if main + 1 < len(runs):
                c, d = runs[main + 1]
                gap = (c - b) * self.step
                width = (d - c) * self.step
                # the drawn tile: a tile's width, a few mm to less than a tile right of the row
                if gap <= TILE_W_MM and 0.6 * TILE_W_MM <= width <= 1.5 * TILE_W_MM:
                    out.drawn_left[e], out.drawn_right[e] = self.u[c], self.u[d - 1] + self.step
                    out.clipped[e] |= d == len(self.u)
        return out


def _colour_distance(lab: np.ndarray, ref: np.ndarray) -> np.ndarray:
    """Lab distance with chroma weighing double: a tile's shadow on the felt is darker felt, not
    another colour."""
    d = lab - ref
    return np.sqrt(0.25 * d[..., 0] ** 2 + d[..., 1] ** 2 + d[..., 2] ** 2)


def _smooth(grid: np.ndarray) -> np.ndarray:
    return cv2.GaussianBlur(grid, (0, 0), FELT_SIGMA_CELLS, borderType=cv2.BORDER_REPLICATE)


def _local(grid: np.ndarray, felt: np.ndarray, median: np.ndarray) -> np.ndarray:
    """(G, G, 3): the Gaussian-weighted mean of the ``felt`` samples around each grid point
    (``median`` where none is near)."""
    weight = _smooth(felt)
    summed = _smooth(grid * felt[..., None])
    return np.where(weight[..., None] > 0.05, summed / np.maximum(weight, 1e-6)[..., None], median)


def _runs(on: np.ndarray, max_gap: int, min_run: int) -> np.ndarray:
    """(R, 2) [start, stop) index runs of ``on`` (gaps up to ``max_gap`` bridged, runs shorter
    than ``min_run`` dropped), in order along the axis."""
    x = np.concatenate([[False], on, [False]]).astype(np.int8)
    d = np.diff(x)
    starts, stops = np.nonzero(d == 1)[0], np.nonzero(d == -1)[0]
    if not len(starts):
        return np.zeros((0, 2), np.int64)
    # bridge short gaps
    keep = np.ones(len(starts), bool)
    keep[1:] = starts[1:] - stops[:-1] > max_gap
    group = np.cumsum(keep) - 1
    s = starts[keep]
    t = np.zeros(len(s), np.int64)
    np.maximum.at(t, group, stops)
    runs = np.stack([s, t], 1)
    return runs[(runs[:, 1] - runs[:, 0]) >= min_run]
