"""A live source that drops: the monitor reopens it with backoff and the pages keep the state."""

import json
import time

import numpy as np

from tests.tracker.live.conftest import free_port, http, wait_for
from tracker.analysis import FrameResult


class DroppingStream:
    """Serves 40 frames, drops, refuses two reopenings, then serves frames again (at ~300 fps)."""

    attempts = 0

    def __init__(self, target):
        DroppingStream.attempts += 1
        self.n = DroppingStream.attempts
        self.open = self.n in (1, 4)
        self.left = 40 if self.n == 1 else 10_000

    def isOpened(self):
        return self.open

    def read(self):
        if not self.open or self.left == 0:
            return False, None
        self.left -= 1
        time.sleep(0.003)  # a camera delivers frames at its own pace
        return True, np.zeros((8, 8, 3), np.uint8)

    def get(self, prop):
        return 30.0

    def release(self):
        self.open = False


class FirstFrameState:
    """Reports one table state on the first frame it sees (what a tracker does at the deal)."""

    def __init__(self):
        self.seen = 0

    def process(self, image, frame, t):
        self.seen += 1
        state = {"kyoku": 1, "bakaze": "E", "marker": "kept"} if self.seen == 1 else None
        return FrameResult(frame=frame, t=t, state=state)

    def finish(self):
        return FrameResult(frame=self.seen, t=0.0)


def test_a_dropped_stream_is_reopened_and_the_pages_keep_the_last_state(tmp_path):
    from tracker.live.server import LiveConfig, LiveMonitor

    DroppingStream.attempts = 0
    config = LiveConfig(source="rtsp://127.0.0.1:9/table", db=str(tmp_path / "a.sqlite"), port=free_port())
    monitor = LiveMonitor(config, FirstFrameState)
    monitor.source.opener = DroppingStream
    monitor.source.backoff = (0.05, 0.2)
    statuses = []
    publish = monitor.pipeline.publish
    monitor.pipeline.publish = lambda text: (statuses.append(json.loads(text).get("source")), publish(text))
    monitor.start()
    try:
        wait_for(lambda: DroppingStream.attempts >= 4 and monitor.pipeline.frames > 100, timeout=30)
        snapshot = http("GET", f"http://127.0.0.1:{config.port}/api/state")[1]
        assert snapshot["state"]["marker"] == "kept"  # the state from before the drop
        assert snapshot["source"] == "live"
        said = [s for s in statuses if s]
        assert said[0] == "live" and any(s.startswith("source dropped") for s in said)
        assert any(s.startswith("reconnecting in") for s in said) and said[-1] == "live"
        assert monitor.source.reopens == 3
        assert monitor.pipeline.error is None
    finally:
        monitor.close()
