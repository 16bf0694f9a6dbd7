"""Alert evidence: the box of the alerting seat's zones, the picture cut from a kept frame."""

from __future__ import annotations

import cv2
import numpy as np

from rules_check.alert import Alert, Evidence
from tracker.evidence import THUMB_WIDTH, EventFrames, evidence_box, evidence_jpeg, zone_boxes
from tracker.zones import ZoneBands, to_table
from vision.calibration import Calibration

CAL = Calibration(width=1280, height=720, homography=[[0.6, 0, 640], [0, 0.6, 360], [0, 0, 1]])


def _alert(frame: int, box=None) -> Alert:
    return Alert(
        id="k01-a0001", code="river_layout", seat=0, rules="mleague", penalty="warning",
        frame=frame, message="x", evidence=Evidence(box=box),
    )  # fmt: skip


def test_a_seats_river_box_holds_its_river_and_no_other_seats():
    bands = ZoneBands()
    boxes = zone_boxes(CAL, bands)
    u0, u1, v0, v1 = bands.river
    for edge in range(4):
        x1, y1, x2, y2 = evidence_box("river_layout", edge, boxes)
        for e in range(4):
            mid = CAL.table_to_image(np.array([to_table(e, (u0 + u1) / 2, (v0 + v1) / 2)]))[0]
            inside = x1 <= mid[0] <= x2 and y1 <= mid[1] <= y2
            assert inside == (e == edge), (edge, e)
    hand, wall = evidence_box("tile_count_short", 0, boxes), evidence_box("early_draw", 0, boxes)
    assert wall[1] < hand[1] and wall[3] == hand[3]  # the wall lies before the hand (toward the centre)
    assert evidence_box("some_new_code", 0, boxes) is None  # not one seat's: the whole frame


def test_the_picture_is_the_box_with_a_margin_at_most_thumb_wide():
    image = np.zeros((720, 1280, 3), np.uint8)
    image[300:340, 600:700] = (0, 0, 255)
    crop = cv2.imdecode(np.frombuffer(evidence_jpeg(image, [600, 300, 700, 340]), np.uint8), cv2.IMREAD_COLOR)
    assert crop.shape[:2] == (40 + 80, 100 + 80)  # the box and 40 px around it (its neighbours)
    assert crop[60, 90, 2] > 200 and crop[5, 5].max() < 30
    whole = cv2.imdecode(np.frombuffer(evidence_jpeg(image, None), np.uint8), cv2.IMREAD_COLOR)
    assert whole.shape[1] == THUMB_WIDTH


def test_frames_are_kept_for_their_alerts_within_bounds():
    frames = EventFrames(keep_frames=100, most=3)
    for f in range(0, 50, 10):
        frames.add(f, np.full((40, 60, 3), f, np.uint8))
    assert sorted(frames._images) == [20, 30, 40]  # at most three
    frames.add(200, np.full((40, 60, 3), 200, np.uint8))
    assert sorted(frames._images) == [200]  # none older than keep_frames
    now = np.full((40, 60, 3), 77, np.uint8)

    def grey(jpeg: bytes) -> float:
        return float(cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_GRAYSCALE).mean())

    assert abs(grey(frames.picture(_alert(200), now)) - 200) < 3  # its own frame
    assert abs(grey(frames.picture(_alert(30), now)) - 77) < 3  # gone: the frame at hand
    assert frames.picture(_alert(30), None) is None
