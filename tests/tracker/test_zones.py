"""tracker.zones: tiles placed where the renderer's layout puts them land in the right edge and zone."""

from __future__ import annotations

import numpy as np

from datasets.scene import table_layout as tl
from datasets.scene.placements import to_table
from tracker.tiles import class_id
from tracker.zones import HAND, MELD, RIVER, WALL, assign, to_local
from vision.calibration import Calibration
from vision.detections import TileDetections

# a simple top-down camera: 0.6 px per mm, table centre at (640, 360)
CAL = Calibration(width=1280, height=720, homography=[[0.6, 0, 640], [0, 0.6, 360], [0, 0, 1]], corners_px=[])


def _detections(points: list[tuple[int, float, float, str, int]]) -> TileDetections:
    """(edge, u, v, code, extra quarter turns) in edge-local mm -> detections in image px."""
    xy = np.array([to_table(e, u, v) for e, u, v, _, _ in points])
    px = CAL.table_to_image(xy)
    half = 8.0
    boxes = np.concatenate([px - half, px + half], axis=1).astype(np.float32)
    angles = np.array([((e + q) % 4) * 90 for e, _, _, _, q in points], np.int64)
    ids = np.array([class_id(c) for *_, c, _ in points], np.int64)
    return TileDetections(boxes, ids, angles, ids < 45, np.ones(len(points), np.float32))


def test_layout_positions_fall_in_their_zones_for_every_edge():
    points = []
    expect = []
    for e in range(4):
        points += [
            (e, tl.RIVER_LEFT + 13, tl.RIVER_ROW0_V, "1m", 0),
            (e, tl.RIVER_LEFT + 13 + 5 * 26, tl.RIVER_ROW0_V - 3 * 35, "2m", 1),
            (e, 0.0, tl.WALL_V, "back", 0),
            (e, -200.0, tl.WALL_V, "back", 0),
            (e, tl.MELD_RIGHT - 13, tl.MELD_V, "C", 0),
            (e, tl.HAND_LEFT + 13, tl.HAND_V, "standing", 0),
            (e, 110.0, tl.HAND_V + 12, "standing", 0),  # a standing top seen a little outward
        ]
        expect += [(e, RIVER), (e, RIVER), (e, WALL), (e, WALL), (e, MELD), (e, HAND), (e, HAND)]
    view = assign(_detections(points), CAL)
    assert list(zip(view.edge.tolist(), view.zone.tolist())) == expect
    assert view.sideways.tolist() == [False, True, False, False, False, False, False] * 4
    assert np.allclose(view.u[:2], [tl.RIVER_LEFT + 13, tl.RIVER_LEFT + 13 + 130], atol=0.01)


def test_centre_panel_and_outside_are_no_zone():
    view = assign(_detections([(0, 0.0, 0.0, "1m", 0), (0, 0.0, 700.0, "1m", 0)]), CAL)
    assert view.zone.tolist() == [-1, -1] and view.edge.tolist() == [-1, -1]


def test_empty_detections_give_an_empty_view():
    assert len(assign(TileDetections.empty(), CAL)) == 0


def test_to_local_inverts_the_seat_frames():
    for e in range(4):
        xy = np.array([to_table(e, 50.0, 300.0)])
        assert np.allclose(to_local(xy, e), [[50.0, 300.0]])


def test_only_a_box_clearly_longer_across_the_rows_has_an_upright_tiles_shape():
    # one river tile per edge, boxed three ways: an upright tile's 26 x 35 mm, a square (a
    # turned 1p boxed short), a sideways tile's 35 x 26 mm; "across" is x for edges 1 and 3
    points, shapes = [], []
    for e in range(4):
        for across, along in ((35.0, 26.0), (30.0, 30.0), (26.0, 35.0)):
            points.append((e, tl.RIVER_LEFT + 13, tl.RIVER_ROW0_V, "1p", 0))
            w, h = (along, across) if e % 2 == 0 else (across, along)
            shapes.append((w * 0.6 / 2, h * 0.6 / 2))
    det = _detections(points)
    centres = det.centres
    half = np.array(shapes, np.float32)
    boxes = np.concatenate([centres - half, centres + half], axis=1).astype(np.float32)
    det = TileDetections(boxes, det.class_ids, det.angles, det.face_up, det.confidence)
    assert assign(det, CAL).tall.tolist() == [True, False, False] * 4


def test_a_turned_camera_still_tells_an_upright_tiles_box_from_a_sideways_ones():
    # the image turned 12 degrees to the table: an upright tile's axis-aligned box is then only
    # 1.12 times longer across its rows than along (a fixed 1.15 would call every tile unsure)
    a = np.deg2rad(12.0)
    cal = Calibration(
        width=1280,
        height=720,
        homography=[
            [0.6 * np.cos(a), -0.6 * np.sin(a), 640],
            [0.6 * np.sin(a), 0.6 * np.cos(a), 360],
            [0, 0, 1],
        ],
        corners_px=[],
    )
    points, boxes = [], []
    for e in range(4):
        for along, across in ((26.0, 35.0), (35.0, 26.0)):  # upright, then sideways
            u, v = tl.RIVER_LEFT + 13, tl.RIVER_ROW0_V
            points.append((e, u, v, "1p", 0))
            corners = [to_table(e, u + du * along / 2, v + dv * across / 2) for du, dv in _CORNERS]
            px = cal.table_to_image(np.array(corners))
            boxes.append([*px.min(axis=0), *px.max(axis=0)])
    det = _detections(points)
    det = TileDetections(np.array(boxes, np.float32), det.class_ids, det.angles, det.face_up, det.confidence)
    assert assign(det, cal).tall.tolist() == [True, False] * 4


_CORNERS = ((-1, -1), (1, -1), (1, 1), (-1, 1))


def test_a_back_just_past_the_wall_is_the_walls_and_an_ankans_back_is_a_melds():
    # hanchan-jansou-mleague-hanchan: wall tiles boxed at v 360, just inside the meld band, were
    # read as an ankan of three backs; an ankan's backs lie on the meld row (v 385), and a face-up
    # tile there, or a back beyond the wall's end, stays a meld's
    for e in range(4):
        view = assign(
            _detections(
                [
                    (e, 10.0, 360.0, "back", 0),
                    (e, 10.0, tl.MELD_V, "back", 0),
                    (e, 10.0, 360.0, "5p", 0),
                    (e, tl.MELD_RIGHT - 13, 360.0, "back", 0),
                ]
            ),
            CAL,
        )
        assert view.zone.tolist() == [WALL, MELD, MELD, MELD]
