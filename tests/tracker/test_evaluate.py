"""tracker.evaluate: standing-hand counts at the truth's stable moments."""

from __future__ import annotations

import numpy as np

from tracker import events as ev
from tracker.evaluate import score_stable_counts, stable_moments


def _scene(frame: int, standing: list[int]) -> dict:
    tiles = [{"code": "standing", "seat": s, "zone": "hand"} for s in range(4) for _ in range(standing[s])]
    tiles.append({"code": "1m", "seat": 0, "zone": "river"})
    return {"frame": frame, "tiles": tiles}


def test_a_stable_moment_is_each_second_of_a_table_where_nothing_moved_for_a_second():
    # changes at 0, 10 (a carry: 4 frames), 14, then 100; at 10 frames a second of play
    scenes = [
        _scene(0, [13] * 4),
        _scene(10, [12, 13, 13, 13]),
        _scene(14, [13, 13, 13, 13]),
        _scene(100, [14, 13, 13, 13]),
    ]
    frames, standing = stable_moments(scenes, fps=10.0, end_frame=125)
    assert frames.tolist() == [24, 34, 44, 54, 64, 74, 84, 94, 110, 120]
    assert standing[0].tolist() == [13, 13, 13, 13] and standing[-1].tolist() == [14, 13, 13, 13]


def test_stable_counts_score_the_latest_report_of_the_kyoku_with_coverage_apart():
    frames = np.array([50, 60, 200])
    standing = np.array([[13, 13, 13, 13], [14, 13, 13, 13], [13, 13, 13, 13]])
    reports = [
        ev.HandCount(actor=0, count=13, frame=40),
        ev.HandCount(actor=1, count=13, frame=45),
        ev.HandCount(actor=1, count=12, frame=55),  # wrong from 55 on
        ev.HandCount(actor=2, count=13, frame=10),  # before the second kyoku: stale at 200
    ]
    got = score_stable_counts(frames, standing, [0, 150], reports, lambda s: s)
    # seat 0: 13 at 50 right, 13 at 60 wrong (14 held), none in kyoku 2; seat 1: 13 right, 12 wrong;
    # seat 2: right, right, stale; seat 3: nothing reported
    assert (got["moments"], got["reported"], got["right"]) == (12, 6, 4)
    assert got["coverage"] == 0.5 and got["right_of_reported"] == 0.6667 and got["right_of_moments"] == 0.3333


def test_a_wrong_result_is_named_by_what_it_was_read_as():
    from tracker.evaluate import _result_error

    ron = {"type": "hora", "actor": 1, "target": 3}
    assert _result_error({"type": "ryukyoku"}, ron) == "ron read as ryukyoku"
    assert _result_error({"type": "hora", "actor": 1, "target": 1}, ron) == "ron read as tsumo"
    assert _result_error(ron, {"type": "hora", "actor": 2, "target": 2}) == "tsumo read as ron"
    assert _result_error({"type": "hora", "actor": 0, "target": 3}, ron) == "ron: other seat"
