"""vision.hand_rows: standing rows measured on synthetic images with a known row (a uniform bar
on green felt, as a far camera shows one), for every table edge."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.calibration import Calibration
from vision.hand_rows import HandRowMeter, HandRows, _runs, _to_table

CAL = Calibration(width=1280, height=720, homography=[[0.6, 0, 640], [0, 0.6, 360], [0, 0, 1]])
FELT = (70, 110, 40)  # BGR green
LEFT, V, W, GAP = -250.0, 432.0, 26.0, 9.0  # the renderer's hand row (mm, seat frame)


def _bar(image: np.ndarray, edge: int, u0: float, u1: float, colour=(200, 170, 180)) -> None:
    """A standing row's top seen from above, u0..u1 mm along the edge's row."""
    u = np.array([u0, u1, u1, u0])
    v = np.array([V - 8, V - 8, V + 14, V + 14])
    x, y = _to_table(edge, u, v)
    px = CAL.table_to_image(np.stack([x, y], 1)).round().astype(np.int32)
    cv2.fillPoly(image, [px], colour)


def _table(rows: dict[int, tuple[int, bool]]) -> np.ndarray:
    """Felt with, per edge, (tiles in the row, a drawn tile apart)."""
    img = np.zeros((720, 1280, 3), np.uint8)
    img[:] = (40, 50, 60)
    half = CAL.felt_half_mm
    felt = CAL.table_to_image(np.array([[-half, -half], [half, -half], [half, half], [-half, half]]))
    cv2.fillPoly(img, [felt.round().astype(np.int32)], FELT)
    for e, (n, drawn) in rows.items():
        _bar(img, e, LEFT, LEFT + n * W)
        if drawn:
            _bar(img, e, LEFT + n * W + GAP, LEFT + (n + 1) * W + GAP)
    img = cv2.GaussianBlur(img, (3, 3), 1.1)
    noise = np.random.default_rng(0).normal(0, 3, img.shape)
    return np.clip(img + noise, 0, 255).astype(np.uint8)


def test_rows_of_known_size_are_measured_on_every_edge():
    meter = HandRowMeter(CAL)
    want = {0: (13, False), 1: (10, True), 2: (7, False), 3: (13, True)}
    rows = meter.measure(_table(want))
    assert rows.apart.tolist() == [False, True, False, True]
    assert not rows.clipped.any()
    # lengths to within 2 px (the image is 0.6 px a mm; the blur widens a bar by about a px)
    assert np.allclose(rows.length, [13 * W, 10 * W, 7 * W, 13 * W], atol=4.0)
    assert rows.count(W).tolist() == [13, 11, 7, 14]
    assert np.allclose(rows.drawn_left[[1, 3]], [LEFT + 10 * W + GAP, LEFT + 13 * W + GAP], atol=4.0)


def test_a_missing_row_is_not_measured_and_a_bar_out_of_the_band_is_clipped():
    meter = HandRowMeter(CAL)
    img = _table({0: (13, False)})
    _bar(img, 2, -400.0, 100.0)  # runs past the band's left end: not a row we can measure
    rows = meter.measure(img)
    assert rows.count(W).tolist() == [13, -1, -1, -1]
    assert rows.clipped[2] and np.isnan(rows.length[1])
    assert HandRows.none().count(W).tolist() == [-1, -1, -1, -1]


def test_the_felt_colour_is_taken_from_the_image():
    # another felt (blue): the same row is found, nothing else
    meter = HandRowMeter(CAL)
    img = _table({1: (12, False)})
    blue = np.all(np.abs(img.astype(int) - FELT) < 25, axis=2)
    img[blue] = (140, 80, 30)
    assert meter.measure(img).count(W).tolist() == [-1, 12, -1, -1]


def test_a_row_near_the_felts_colour_is_measured_from_its_faces_strip():
    # hanchan-jansou-0: teal backs on blue felt; only the white strip of the tiles' faces, a
    # quarter of the band (two of its seven lines), differs from the felt
    meter = HandRowMeter(CAL)
    img = _table({})
    for e, n in ((0, 13), (3, 10)):
        u = np.array([LEFT, LEFT + n * W, LEFT + n * W, LEFT])
        v = np.array([V + 6, V + 6, V + 14, V + 14])
        px = CAL.table_to_image(np.stack(_to_table(e, u, v), 1)).round().astype(np.int32)
        cv2.fillPoly(img, [px], (225, 225, 225))
    assert meter.measure(img).count(W).tolist() == [13, -1, -1, 10]


def test_runs_bridge_short_gaps_and_drop_short_runs():
    on = np.array([1, 1, 1, 0, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 1], bool)
    assert _runs(on, max_gap=1, min_run=3).tolist() == [[0, 6], [10, 14]]
    assert _runs(np.zeros(5, bool), 1, 1).shape == (0, 2)


def test_the_row_end_counts_a_tile_apart_and_is_unknown_where_clipped():
    nan = np.nan
    rows = HandRows(
        left=np.array([-250.0, -250.0, nan, -400.0]),
        right=np.array([90.0, 90.0, nan, 50.0]),
        drawn_left=np.array([nan, 99.0, nan, nan]),
        drawn_right=np.array([nan, 125.0, nan, nan]),
        clipped=np.array([False, False, True, True]),
    )
    end = rows.end
    assert end[:2].tolist() == [90.0, 125.0]
    assert np.isnan(end[2:]).all()
    # measured on an image: the drawn tile's right end
    meter = HandRowMeter(CAL)
    got = meter.measure(_table({0: (13, False), 1: (13, True)})).end
    assert np.allclose(got[:2], [LEFT + 13 * W, LEFT + 14 * W + GAP], atol=4.0)


def test_a_short_light_strip_on_an_empty_edge_is_no_row():
    # the relaxed threshold (one line) lets a 60 mm strip on one band line through: too short to
    # be a row measured on so little
    meter = HandRowMeter(CAL)
    img = _table({0: (13, False)})
    u = np.array([-100.0, -40.0, -40.0, -100.0])
    v = np.array([V + 15, V + 15, V + 17, V + 17])
    px = CAL.table_to_image(np.stack(_to_table(2, u, v), 1)).round().astype(np.int32)
    cv2.fillPoly(img, [px], (235, 235, 235))
    assert meter.measure(img).count(W).tolist() == [13, -1, -1, -1]


def _glare(image: np.ndarray, edge: int, u: float, v: float, radius_mm: float, lift: float) -> None:
    """A lamp's glare on the felt: lighter felt of the same hue, fading from its centre."""
    x, y = _to_table(edge, np.array([u]), np.array([v]))
    cx, cy = CAL.table_to_image(np.stack([x, y], 1))[0]
    yy, xx = np.mgrid[: image.shape[0], : image.shape[1]]
    r = radius_mm * 0.6  # px
    fall = np.clip(1.0 - np.hypot(xx - cx, yy - cy) / r, 0.0, 1.0)[..., None]
    felt = np.all(np.abs(image.astype(int) - FELT) < 20, axis=2)[..., None]
    lit = image + lift * fall * felt
    image[:] = np.clip(lit, 0, 255).astype(np.uint8)


def test_glare_on_the_felt_beside_a_row_is_no_drawn_tile():
    # hanchan-jansou-mleague-hanchan: a glare spot lightening the felt past a row of 13 by more
    # than the threshold (L +46, hue the felt's) read as a drawn tile apart, a hand of 14
    meter = HandRowMeter(CAL)
    img = _table({3: (13, False), 0: (13, False)})
    _glare(img, 3, LEFT + 13 * W + 40, V, 90.0, 70.0)
    rows = meter.measure(img)
    assert rows.count(W).tolist() == [13, -1, -1, 13]
    assert not rows.apart.any()
    # a drawn tile in that glare is still one
    img = _table({3: (13, True)})
    _glare(img, 3, LEFT + 13 * W + 40, V, 90.0, 70.0)
    assert meter.measure(img).count(W).tolist() == [-1, -1, -1, 14]


def _strip(image: np.ndarray, edge: int, u0: float, u1: float, v0: float, v1: float) -> None:
    """The white strip of standing tiles' faces, u0..u1 along the row, v0..v1 across it (mm)."""
    u = np.array([u0, u1, u1, u0])
    v = np.array([v0, v0, v1, v1])
    px = CAL.table_to_image(np.stack(_to_table(edge, u, v), 1)).round().astype(np.int32)
    cv2.fillPoly(image, [px], (225, 225, 225))


def test_a_faces_strip_that_thins_along_the_row_is_one_row_with_its_drawn_tile():
    # t6-confusing_nakis_1 418: green backs on green felt; the faces' strip showed on two or
    # three of the band's lines along most of the row and on one at its right end. The row was
    # cut where it thinned (12 tiles) and its drawn tile, on two lines, was no longer beside it
    meter = HandRowMeter(CAL)
    img = _table({})
    _strip(img, 0, LEFT, LEFT + 8 * W, V + 2, V + 14)  # three lines
    _strip(img, 0, LEFT + 8 * W, LEFT + 13 * W, V + 12, V + 14)  # one line
    _strip(img, 0, LEFT + 13 * W + GAP, LEFT + 14 * W + GAP, V + 6, V + 14)  # the drawn tile, two
    rows = meter.measure(img)
    assert rows.count(W).tolist() == [14, -1, -1, -1]
    assert rows.apart[0] and np.isclose(rows.length[0], 13 * W, atol=4.0)


NEAR_FELT = (60, 150, 40)  # BGR: a lighter green back, 33 from FELT (over the threshold)


def _fill(image: np.ndarray, edge: int, u0: float, u1: float, v0: float, v1: float, colour) -> None:
    u = np.array([u0, u1, u1, u0])
    v = np.array([v0, v0, v1, v1])
    px = CAL.table_to_image(np.stack(_to_table(edge, u, v), 1)).round().astype(np.int32)
    cv2.fillPoly(image, [px], colour)


@pytest.mark.parametrize("colour", [NEAR_FELT, (127, 172, 102), (137, 182, 112), (19, 53, 0)])
def test_backs_near_the_felts_colour_filling_the_band_are_no_felt(colour):
    # the felt's grid has points on the rows (v 418 and 449 here): taken for felt, the felt near a
    # row of backs near its colour (of another hue, or the felt's own lighter or darker) would be
    # the row's own colour, and the row would vanish
    meter = HandRowMeter(CAL)
    img = _table({})
    for e in range(4):
        _fill(img, e, LEFT, LEFT + 13 * W, 416.0, 454.0, colour)
    assert meter.measure(img).count(W).tolist() == [13, 13, 13, 13]


def test_a_short_row_is_counted_without_the_bars_overhang():
    # hanchan-jansou-0 5590 (tilted camera): 4 tiles after three calls measured 125 mm where a row
    # of 13 measured 360 (27.7 mm over 13): 4.5 such pitches, read 5 (a false tile_count_excess)
    nan = np.nan
    rows = HandRows(
        left=np.array([0.0, 0.0, 0.0, nan]),
        right=np.array([125.0, 360.0, 27.7 * 7 + 6, nan]),
        drawn_left=np.full(4, nan),
        drawn_right=np.full(4, nan),
        clipped=np.zeros(4, bool),
    )
    assert rows.count(27.7).tolist() == [4, 13, 7, -1]
