"""Time: when to trust what the camera shows. Each table edge's region (its quarter of the felt)
is trusted once it has been still for a few frames after something moved there; the table is read
as soon as one edge that moved has settled, and only the settled edges' zones count in that read
(an arm still moving at another edge does not hold up a discard that has landed). Pure bookkeeping
over the activity meter's per-region readings."""

from __future__ import annotations

import numpy as np


class StillnessGate:
    """``update(activity) -> bool``: read the table on this frame? ``trusted`` (4,) bool then says
    which edges' zones the read may use.

    A read comes on the ``settle``-th still frame of an edge that moved, when asked for
    (``confirm``), and every ``idle_every`` frames while the whole table is still.
    ``moved`` (4,) bool: which edges saw motion since ``consume_moved`` was last called.
    """

    def __init__(self, threshold: float = 0.002, settle: int = 2, idle_every: int = 90) -> None:
        self.threshold = threshold
        self.settle = settle
        self.idle_every = idle_every
        self.still = np.zeros(4, np.int64)  # still frames in a row, per edge
        self.pending = np.ones(4, bool)  # moved (or never read) since its last trusted read
        self.trusted = np.zeros(4, bool)
        self.since_read = 0
        self.moved = np.zeros(4, bool)
        self._confirm_in: int | None = None  # frames until a confirming read is due

    def update(self, activity: np.ndarray) -> bool:
        moving = activity[:4] > self.threshold
        self.since_read += 1
        self.still = np.where(moving, 0, self.still + 1)
        self.pending |= moving
        self.moved |= moving
        settled = self.still >= self.settle
        if self._confirm_in is not None:
            self._confirm_in -= 1
        due = (
            (self.pending & settled).any()
            or (self._confirm_in is not None and self._confirm_in <= 0 and settled.any())
            or (self.since_read >= self.idle_every and settled.all())
        )
        if not due:
            return False
        self.trusted = settled.copy()
        self.pending &= ~settled
        self._confirm_in = None
        self.since_read = 0
        return True

    def confirm(self, after: int) -> None:
        """Ask for one more read ``after`` frames from now (to confirm a new sighting)."""
        self._confirm_in = after

    def consume_moved(self) -> np.ndarray:
        out = self.moved.copy()
        self.moved[:] = False
        return out
