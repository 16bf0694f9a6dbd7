"""vision.sticks: riichi sticks found on rendered frames of the bundled clip (seat 2 riichis; its
stick lies from the acceptance at frame 1290 on), none before, and hand-made patches: a thin bar
is a stick; a tile-high bright block or a bar running past a stick's ends is not."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.calibration import Calibration, calibrate_frames
from vision.sticks import StickFinder, StickZone
from vision.video import VideoSource, first_frames

CLIP = Path(__file__).resolve().parents[2] / "tracker" / "samples" / "demo-kyoku"
FELT = (150, 80, 40)  # BGR blue felt
WHITE = (235, 240, 240)


@pytest.fixture(scope="module")
def frames() -> tuple[Calibration, dict[int, np.ndarray]]:
    cal = calibrate_frames(first_frames(CLIP / "video.mp4", 1.0))
    want = {600, 1250, 1400, 2200}
    got = {}
    for frame, _, image in VideoSource(CLIP / "video.mp4"):
        if frame in want:
            got[frame] = image
        if frame >= max(want):
            break
    return cal, got


def test_the_stick_of_an_accepted_riichi_is_found_at_its_seat_only(frames):
    cal, images = frames
    finder = StickFinder(cal)
    for frame in (1400, 2200):
        found = finder.find(images[frame])
        # seat 2 sits at the top edge (edge 2) of this clip: its stick, between river and centre
        assert found.present.tolist() == [False, False, True, False], frame
        assert 100 <= found.v_mm[2] <= 120 and found.length_mm[2] >= 80
    for frame in (600, 1250):  # before the riichi is accepted: no stick anywhere
        assert not finder.find(images[frame]).present.any(), frame


def _patches(draw) -> np.ndarray:
    """Four felt patches in a finder's layout, ``draw(patch, u_to_col, v_to_row)`` on edge 1."""
    zone = StickZone()
    u = np.arange(-zone.u_half, zone.u_half + 1e-6)
    v = np.arange(zone.v_min, zone.v_max + 1e-6)
    out = np.empty((4, len(v), len(u), 3), np.uint8)
    out[:] = FELT
    draw(out[1], lambda x: int(round(x + zone.u_half)), lambda y: int(round(y - zone.v_min)))
    return out


def _finder() -> StickFinder:
    cal = Calibration(width=1280, height=720, homography=[[0.6, 0, 640], [0, 0.6, 360], [0, 0, 1]])
    return StickFinder(cal)


def test_a_thin_bar_is_a_stick_and_tile_shapes_are_not():
    def stick(p, col, row):
        p[row(101) : row(109), col(-45) : col(45)] = WHITE
        p[row(103) : row(107), col(-2) : col(2)] = (40, 40, 200)  # its red dot

    def tiles_row(p, col, row):  # a river row's faces: 35 mm high
        p[row(114) : row(140), col(-78) : col(78)] = WHITE

    def long_bar(p, col, row):  # thin, but running on past where a stick ends
        p[row(101) : row(109), col(-78) : col(78)] = WHITE

    finder = _finder()
    got = finder.read_patches(_patches(stick))
    assert got.present.tolist() == [False, True, False, False] and 102 <= got.v_mm[1] <= 108
    assert not finder.read_patches(_patches(tiles_row)).present.any()
    assert not finder.read_patches(_patches(long_bar)).present.any()
    assert not finder.read_patches(_patches(lambda p, col, row: None)).present.any()
