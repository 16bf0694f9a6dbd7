"""Riichi sticks: the 1000-point stick a player lays across the table, between its river and the
centre, when its riichi is accepted. No model: a stick is a long thin bright bar on the felt.

Each seat's stick zone is sampled once per read into a small top-down patch in that seat's frame
(``u`` mm to the player's right, ``v`` mm from the centre toward the player; maps built once per
calibration). In a patch a stick is a band of rows, a few mm high, in which most pixels across the
stick's length are bright and unsaturated (white lacquer), with the felt (or the centre panel)
above and below it. River tiles are ivory too, but a row of them is a tile high (35 mm) and the
margin of its faces is followed by their symbols, not by felt.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from pydantic import BaseModel, ConfigDict

from tracker.zones import to_table
from vision.calibration import Calibration


class StickZone(BaseModel):
    """Where a seat's stick may lie and what it looks like, mm in the seat's frame."""

    model_config = ConfigDict(frozen=True)

    u_half: float = 80.0  # the patch spans u in [-u_half, u_half]
    v_min: float = 80.0  # toward the centre (the panel's edge is at 100)
    v_max: float = 140.0  # toward the player (a camera's tilt shifts the stick's top a little)
    core_mm: float = 70.0  # the middle of the stick's 90 mm: bright (a red dot in its centre)
    ends_mm: float = 116.0  # past the stick's ends: felt (a row of river tiles runs on)
    band_mm: tuple[float, float] = (3.0, 14.0)  # the stick is 8 mm wide
    bright_v: int = 165  # HSV value of a white stick under the table's light
    max_saturation: int = 90
    row_share: float = 0.8  # of the core, bright in a stick row
    clear_share: float = 0.3  # at most this bright past the ends, and just above and below the band
    mm_per_px: float = 1.0


@dataclass(frozen=True)
class StickReadings:
    """One read of the four stick zones (struct of arrays, index = table edge 0..3 as in
    ``vision.calibration.EDGES``): ``present`` (4,) bool; ``v_mm`` (4,) float, the band's centre
    (nan where none); ``length_mm`` (4,) float, the longest bright stretch of any row."""

    present: np.ndarray
    v_mm: np.ndarray
    length_mm: np.ndarray

    @staticmethod
    def none() -> StickReadings:
        return StickReadings(np.zeros(4, bool), np.full(4, np.nan), np.zeros(4))


class StickFinder:
    """``find(image) -> StickReadings`` for one calibration (remap grids built once)."""

    def __init__(self, calibration: Calibration, zone: StickZone | None = None) -> None:
        self.zone = zone or StickZone()
        z = self.zone
        self.u = np.arange(-z.u_half, z.u_half + 1e-6, z.mm_per_px)
        self.v = np.arange(z.v_min, z.v_max + 1e-6, z.mm_per_px)
        uu, vv = np.meshgrid(self.u, self.v)
        maps = []
        for edge in range(4):
            x, y = to_table(edge, uu, vv)  # seat (u, v) mm -> table mm (edge 0 bottom, 1 right, ...)
            px = calibration.table_to_image(np.stack([x.ravel(), y.ravel()], axis=1))
            maps.append(px.reshape(len(self.v), len(self.u), 2).astype(np.float32))
        # the four patches stacked as one (4 * rows, cols) map: one remap per read
        self._map = np.concatenate(maps, axis=0)

    def patches(self, image: np.ndarray) -> np.ndarray:
        """(4, rows, cols, 3) top-down patches of the stick zones (rows: v from the centre out)."""
        flat = cv2.remap(image, self._map[..., 0], self._map[..., 1], cv2.INTER_LINEAR, borderValue=0)
        return flat.reshape(4, len(self.v), len(self.u), -1)

    def find(self, image: np.ndarray) -> StickReadings:
        return self.read_patches(self.patches(image))

    def read_patches(self, patches: np.ndarray) -> StickReadings:
        z = self.zone
        hsv = cv2.cvtColor(patches.reshape(-1, patches.shape[2], 3), cv2.COLOR_BGR2HSV)
        hsv = hsv.reshape(patches.shape)
        bright = (hsv[..., 2] >= z.bright_v) & (hsv[..., 1] <= z.max_saturation)  # (4, R, C)
        middle = np.abs(self.u) <= z.core_mm / 2
        ends = np.abs(self.u) >= z.ends_mm / 2
        # a stick row: bright along the middle of the stick (its red dot aside), felt past its ends
        core = bright[..., middle].mean(axis=2)
        outside = bright[..., ends].mean(axis=2)
        long_row = (core >= z.row_share) & (outside <= z.clear_share)
        share = bright.mean(axis=2)  # (4, R)
        present = np.zeros(4, bool)
        v_mm = np.full(4, np.nan)
        length = (_longest_run(bright) * z.mm_per_px).max(axis=1).astype(np.float64)
        lo, hi = (int(round(b / z.mm_per_px)) for b in z.band_mm)
        gap = max(1, int(round(3.0 / z.mm_per_px)))
        for e in range(4):
            for r0, r1 in _bands(long_row[e]):
                height = r1 - r0
                if not lo <= height <= hi or r0 - gap - 1 < 0 or r1 + gap + 1 > len(self.v):
                    continue  # too thin or thick for a stick, or cut by the patch's edge
                # felt a little above and below (the row right at its edge is half stick)
                above = share[e, r0 - gap - 1 : r0 - 1].max()
                below = share[e, r1 + 1 : r1 + gap + 1].max()
                if above <= z.clear_share and below <= z.clear_share:
                    present[e] = True
                    v_mm[e] = float(self.v[(r0 + r1 - 1) // 2])
                    break
        return StickReadings(present, v_mm, length)


def _longest_run(mask: np.ndarray) -> np.ndarray:
    """Longest run of True along the last axis, per row: (..., R, C) -> (..., R) int."""
    m = mask.astype(np.int32)
    # cumulative count that resets at each False
    c = np.cumsum(m, axis=-1)
    reset = np.maximum.accumulate(np.where(m == 0, c, 0), axis=-1)
    return (c - reset).max(axis=-1)


def _bands(rows: np.ndarray) -> list[tuple[int, int]]:
    """[start, stop) of each run of True in a 1-D bool array."""
    padded = np.concatenate([[False], rows, [False]]).astype(np.int8)
    d = np.diff(padded)
    return list(zip(np.nonzero(d == 1)[0].tolist(), np.nonzero(d == -1)[0].tolist()))
