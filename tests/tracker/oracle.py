"""Test double: a "detector" that reads the renderer's truth keyframes instead of pixels.

It lets the tracker's zone, time and event logic be tested and measured without a trained model
(and shows what the tracker does with perfect tile readings). Never used by the product.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from tracker.tiles import class_id
from vision.detections import TileDetections


class TruthDetector:
    """``detect(image, tile_px)`` returns the tiles of the latest keyframe at or before ``frame``.

    Set ``frame`` before each ``tracker.process`` (``run_tracker`` does). Keyframes are the
    renderer's quiet moments, so between them this shows the table as it last stood still.
    """

    def __init__(self, truth: dict) -> None:
        self.frames = np.array([k["frame"] for k in truth["keyframes"]])
        self.dets = [self._convert(k["tiles"]) for k in truth["keyframes"]]
        self.frame = 0

    @staticmethod
    def _convert(items: list[dict]) -> TileDetections:
        if not items:
            return TileDetections.empty()
        angles = np.array([(round(i["angle"] / 90.0) % 4) * 90 for i in items], np.int64)
        return TileDetections(
            boxes=np.array([i["box"] for i in items], np.float32),
            class_ids=np.array([class_id(i["code"]) for i in items], np.int64),
            angles=angles,
            face_up=np.array([i["face_up"] for i in items], bool),
            confidence=np.ones(len(items), np.float32),
        )

    def detect(self, image: np.ndarray, tile_px: float) -> TileDetections:
        k = int(np.searchsorted(self.frames, self.frame, side="right")) - 1
        return self.dets[k] if k >= 0 else TileDetections.empty()


def run_tracker(clip_dir: str | Path, calibration=None, config=None):
    """Run the tracker over a rendered clip with truth readings; return (tracker, results)."""
    from tracker.tracker import TableTracker, TrackerConfig
    from vision.calibration import calibrate_video
    from vision.video import VideoSource

    clip_dir = Path(clip_dir)
    truth = json.loads((clip_dir / "truth.json").read_text())
    detector = TruthDetector(truth)
    cal = calibration or calibrate_video(clip_dir / "video.mp4")
    tracker = TableTracker(cal, detector, config or TrackerConfig(crop=False))
    results = []
    for frame, t, image in VideoSource(clip_dir / "video.mp4"):
        detector.frame = frame
        results.append(tracker.process(image, frame, t))
    results.append(tracker.finish())
    return tracker, results


def main(argv: list[str] | None = None) -> int:
    """``python -m tests.tracker.oracle CLIPDIR OUTDIR``: the analysis outputs with truth readings."""
    import sys

    from tracker.run import analyze_video, write_outputs
    from tracker.tracker import TableTracker, TrackerConfig
    from vision.calibration import calibrate_video
    from vision.video import VideoSource

    clip_dir, out_dir = (Path(a) for a in (argv or sys.argv[1:]))
    truth = json.loads((clip_dir / "truth.json").read_text())
    detector = TruthDetector(truth)
    tracker = TableTracker(calibrate_video(clip_dir / "video.mp4"), detector, TrackerConfig(crop=False))
    video = VideoSource(clip_dir / "video.mp4")

    class _Feed:  # tell the double which frame it is looking at
        def process(self, image, frame, t):
            detector.frame = frame
            return tracker.process(image, frame, t)

        def finish(self):
            return tracker.finish()

    result = analyze_video(video, _Feed(), progress=False)
    result.reads = tracker.reads
    edge = tracker.seat0_edge
    result.seat0_edge = ("bottom", "right", "top", "left")[edge] if edge is not None else None
    write_outputs(result, out_dir, "mleague", {"detector": "truth keyframes (test double)"})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
