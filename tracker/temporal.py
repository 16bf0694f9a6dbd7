"""Time: when to trust what the camera shows. A zone's content is read only once the table has
been still for a few frames after something moved (an arm came and went), and again now and then
while nothing moves. Pure bookkeeping over the activity meter's per-region readings."""

from __future__ import annotations

import numpy as np


class StillnessGate:
    """``update(activity) -> bool``: read the table on this frame?

    True on the ``settle``-th still frame after motion, and every ``idle_every`` frames while still.
    ``moved`` (4,) bool: which edges saw motion since the last read (their hands may have changed).
    """

    def __init__(self, threshold: float = 0.002, settle: int = 2, idle_every: int = 90) -> None:
        self.threshold = threshold
        self.settle = settle
        self.idle_every = idle_every
        self.still = 0
        self.since_read = 0
        self.moved = np.zeros(4, bool)
        self._pending = True  # read once at the start
        self._confirm_at: int | None = None  # still frames after which a confirming read is due

    def update(self, activity: np.ndarray) -> bool:
        moving = activity[:4] > self.threshold
        self.since_read += 1
        if moving.any():
            self.still = 0
            self.moved |= moving
            self._pending = True
            self._confirm_at = None
            return False
        self.still += 1
        due = self._confirm_at is not None and self.still >= self._confirm_at
        if (self._pending and self.still >= self.settle) or due or self.since_read >= self.idle_every:
            self._pending = False
            self._confirm_at = None
            self.since_read = 0
            return True
        return False

    def confirm(self, after: int) -> None:
        """Ask for one more read ``after`` still frames from now (to confirm a new sighting)."""
        self._confirm_at = self.still + after

    def consume_moved(self) -> np.ndarray:
        out = self.moved.copy()
        self.moved[:] = False
        return out
