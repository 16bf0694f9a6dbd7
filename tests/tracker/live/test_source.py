import threading

import numpy as np

from tracker.live.source import VideoSource


class FlakyCamera:
    """Opens on the n-th attempt, then serves ``frames`` frames and drops."""

    attempts = 0

    def __init__(self, target, open_on=(2, 4), frames=3):
        FlakyCamera.attempts += 1
        self.open = FlakyCamera.attempts in open_on
        self.left = frames

    def isOpened(self):
        return self.open

    def read(self):
        if not self.open or self.left == 0:
            return False, None
        self.left -= 1
        return True, np.zeros((2, 2, 3), np.uint8)

    def get(self, prop):
        return 30.0

    def release(self):
        self.open = False


def test_a_dropping_camera_is_reopened_with_growing_backoff_and_frames_keep_counting():
    FlakyCamera.attempts = 0
    statuses = []
    source = VideoSource("0", backoff=(0.01, 0.04), opener=FlakyCamera, on_status=statuses.append)
    stop = threading.Event()
    frames = []
    for frame in source.frames(stop):
        frames.append(frame)
        if len(frames) == 6:
            stop.set()
    assert [f.index for f in frames] == list(range(6))
    assert FlakyCamera.attempts == 4  # fail, open (3 frames), fail, open
    assert source.reopens == 3
    assert statuses.count("live") == 2
    assert any(s.startswith("reconnecting in 0.0") for s in statuses)
    assert any(s.startswith("source dropped") for s in statuses)
    times = [f.t for f in frames]
    assert times == sorted(times)


def test_a_file_plays_at_its_rate_and_ends(tmp_path):
    from tests.tracker.live.conftest import VIDEO

    source = VideoSource(str(VIDEO), speed=30.0)
    stop = threading.Event()
    seen = []
    for frame in source.frames(stop):
        seen.append(frame)
        if len(seen) == 45:
            break
    assert seen[-1].index == 44 and abs(seen[-1].t - 44 / 30) < 1e-6
    # 45 frames at 30x of 30 fps take about 50 ms of wall time, paced not flooded
    assert seen[-1].wall - seen[0].wall >= 44 / 900 * 0.9
