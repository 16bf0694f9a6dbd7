"""Activity: where something moves over the table (arms, tiles in flight), per table edge.

Frame differencing on a small grey image; the changed pixels are counted per region (the four
seat edges' quarters of the felt and the centre), so the tracker trusts a zone only once its
region has been still for a few frames. An arm resting still over tiles is not seen by
differencing; the tracker also requires two still readings of a zone to agree before acting.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.calibration import Calibration

SMALL_WIDTH = 160
REGIONS = 5  # edges 0..3 (bottom, right, top, left quarters), 4 = outside the felt


class ActivityMeter:
    """``update(image) -> (5,) float``: share of each region's pixels that changed since the last frame."""

    def __init__(self, calibration: Calibration, threshold: int = 14) -> None:
        self.threshold = threshold
        w, h = calibration.width, calibration.height
        self.scale = SMALL_WIDTH / w
        self.size = (SMALL_WIDTH, max(1, round(h * self.scale)))
        sw, sh = self.size
        ys, xs = np.mgrid[0:sh, 0:sw].astype(np.float64)
        px = np.stack([xs.ravel(), ys.ravel()], 1) / self.scale
        mm = calibration.image_to_table(px)
        x, y = mm[:, 0], mm[:, 1]
        half = calibration.felt_half_mm
        on_felt = (np.abs(x) <= half + 60) & (np.abs(y) <= half + 60)
        # quarter by the diagonals: bottom (y > |x|), right, top, left
        edge = np.where(y >= np.abs(x), 0, np.where(x >= np.abs(y), 1, np.where(-y >= np.abs(x), 2, 3)))
        self.region = np.where(on_felt, edge, 4).astype(np.int64)
        self.region_size = np.bincount(self.region, minlength=REGIONS).astype(np.float64)
        self.region_size[self.region_size == 0] = 1
        self.prev: np.ndarray | None = None

    def update(self, image: np.ndarray) -> np.ndarray:
        small = cv2.resize(image, self.size, interpolation=cv2.INTER_AREA)
        grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
        grey = cv2.GaussianBlur(grey, (3, 3), 0)
        if self.prev is None:
            self.prev = grey
            return np.zeros(REGIONS)
        changed = cv2.absdiff(grey, self.prev).ravel() > self.threshold
        self.prev = grey
        return np.bincount(self.region[changed], minlength=REGIONS) / self.region_size
