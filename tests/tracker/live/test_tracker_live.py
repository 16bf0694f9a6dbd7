"""The live server runs the camera tracker (issue 5) as well as the replay: the tracker with tile
readings from the truth keyframes (the tracker's own test double) over the sample clip, its
events and alert streamed to a client and the alert stored."""

import json

from websockets.sync.client import connect

from tests.tracker.live.conftest import CLIP, VIDEO, free_port, http, receive


def test_the_camera_tracker_feeds_the_live_pages(tmp_path):
    from tests.tracker.oracle import TruthDetector
    from tracker.live.server import LiveConfig, LiveMonitor
    from tracker.tracker import TableTracker, TrackerConfig
    from vision.calibration import calibrate_video

    truth = json.loads((CLIP / "truth.json").read_text(encoding="utf-8"))
    calibration = calibrate_video(VIDEO)

    class TrackerWithTruthReadings:
        def __init__(self):
            self.detector = TruthDetector(truth)
            self.tracker = TableTracker(calibration, self.detector, TrackerConfig(crop=False))

        def process(self, image, frame, t):
            self.detector.frame = frame
            return self.tracker.process(image, frame, t)

        def finish(self):
            return self.tracker.finish()

    config = LiveConfig(
        source=str(VIDEO), db=str(tmp_path / "a.sqlite"), port=free_port(), token="t", paced=False
    )
    monitor = LiveMonitor(config, TrackerWithTruthReadings)
    monitor.start(start_pipeline=False)
    try:
        kinds, alerts = [], []
        with connect(f"ws://127.0.0.1:{config.port}/ws", open_timeout=10, max_size=None) as ws:
            monitor.pipeline.start()
            while "end_kyoku" not in kinds:
                for message in receive(ws, 120):
                    if message["type"] == "update":
                        kinds += [e["type"] for e in message["events"]]
                        alerts += message["alerts"]
        assert monitor.pipeline.error is None
        assert kinds.count("dahai") == 38 and "pon" in kinds and "hora" in kinds
        raised = [(a["alert"]["code"], a["alert"]["seat"]) for a in alerts]
        # the staged meld orientation is seen; nothing is raised that the clip does not stage
        # (the early draw, when the tracker catches it: from a camera it stands alone, no
        # dead-hand alert follows it)
        assert ("meld_orientation", 0) in raised
        assert set(raised) <= {("meld_orientation", 0), ("early_draw", 2)}
        stored = http("GET", f"http://127.0.0.1:{config.port}/api/alerts")[1]["alerts"]
        assert [r["id"] for r in stored] == [a["id"] for a in reversed(alerts)]  # newest first
        assert all(r["thumb"] is not None for r in stored)
    finally:
        monitor.close()
