"""tracker.temporal: an edge is read once it settles after motion, even while another edge moves;
a confirming read comes when asked; the still table is read now and then."""

from __future__ import annotations

import numpy as np

from tracker.temporal import StillnessGate

STILL = np.zeros(5)
RIGHT = np.array([0.0, 0.05, 0.0, 0.0, 0.0])
BOTH = np.array([0.0, 0.05, 0.05, 0.0, 0.0])


def test_reads_once_after_settling_and_periodically_when_idle():
    gate = StillnessGate(settle=2, idle_every=10)
    pattern = [STILL] * 3 + [RIGHT] * 4 + [STILL] * 15
    reads = [i for i, a in enumerate(pattern) if gate.update(a)]
    assert reads[:2] == [1, 8]  # start, then the 2nd still frame after motion (frames 7, 8)
    assert reads[2] == 18  # ten frames after the last read while nothing moves
    assert gate.trusted.all()


def test_a_settled_edge_is_read_while_another_still_moves():
    gate = StillnessGate(settle=2, idle_every=1000)
    gate.update(STILL), gate.update(STILL)  # the start read
    seq = [gate.update(a) for a in [BOTH, BOTH, RIGHT, RIGHT, RIGHT, RIGHT]]
    assert seq == [False, False, False, True, False, False]  # top edge settled on its 2nd still frame
    assert gate.trusted.tolist() == [True, False, True, True]


def test_motion_is_remembered_per_edge_until_consumed():
    gate = StillnessGate()
    gate.update(RIGHT)
    assert gate.consume_moved().tolist() == [False, True, False, False]
    assert not gate.consume_moved().any()


def test_a_confirming_read_comes_when_asked():
    gate = StillnessGate(settle=2, idle_every=1000)
    seq = [gate.update(a) for a in [STILL, STILL, RIGHT, STILL, STILL]]
    assert seq == [False, True, False, False, True]
    gate.confirm(1)
    assert gate.update(STILL) is True
    assert gate.update(STILL) is False
