"""tracker.temporal: the table is read once it settles after motion, and again when asked."""

from __future__ import annotations

import numpy as np

from tracker.temporal import StillnessGate

STILL = np.zeros(5)
MOVING = np.array([0.0, 0.05, 0.0, 0.0, 0.0])


def test_reads_once_after_settling_and_periodically_when_idle():
    gate = StillnessGate(settle=2, idle_every=10)
    pattern = [STILL] * 3 + [MOVING] * 4 + [STILL] * 15
    reads = [i for i, a in enumerate(pattern) if gate.update(a)]
    assert reads[:2] == [1, 8]  # start, then the 2nd still frame after motion (frames 7, 8)
    assert reads[2] == 18  # ten frames after the last read while nothing moves


def test_motion_is_remembered_per_edge_until_consumed():
    gate = StillnessGate()
    gate.update(MOVING)
    assert gate.consume_moved().tolist() == [False, True, False, False]
    assert not gate.consume_moved().any()


def test_a_confirming_read_comes_when_asked_and_motion_cancels_it():
    gate = StillnessGate(settle=2, idle_every=1000)
    seq = [gate.update(a) for a in [MOVING, STILL, STILL]]
    assert seq == [False, False, True]
    gate.confirm(1)
    assert gate.update(STILL) is True
    gate.confirm(2)
    assert gate.update(MOVING) is False and gate.update(STILL) is False
