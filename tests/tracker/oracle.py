"""Test double: a "detector" that reads the renderer's truth instead of pixels.

It lets the tracker's zone, time and event logic be tested and measured without a trained model
(and shows what the tracker does with perfect tile readings). Never used by the product.

Truth at any frame: a clip rendered with a ``synth.json`` beside it (``mjmon synth`` writes one) is
replayed through the renderer's own scene steps (``ClipRenderer.scene_truth``), giving the tiles
as they lie at every frame, the moment a tile is lifted from a hand included. Without one, only
the truth keyframes (the renderer's quiet moments after a discard or call) are known, and between
them the double shows the table as it last stood still.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from tracker.tiles import class_id
from tracker.tracker import TableTracker
from vision.detections import TileDetections


class TruthDetector:
    """``detect(image, tile_px)`` returns the tiles of the latest truth moment at or before
    ``frame`` (set it before each ``tracker.process``; ``run_tracker`` does)."""

    def __init__(self, truth: dict, scenes: list[dict] | None = None) -> None:
        moments = scenes if scenes is not None else truth["keyframes"]
        self.every_frame = scenes is not None
        self.frames = np.array([k["frame"] for k in moments])
        self.dets = [self._convert(k["tiles"]) for k in moments]
        self.frame = 0

    @classmethod
    def for_clip(cls, clip_dir: str | Path) -> TruthDetector:
        """Truth at every frame when the clip can be replayed, else at its keyframes. A replay that
        does not reproduce the stored keyframes (the renderer changed since) is refused."""
        from datasets.synth.pipeline import replay_renderer

        clip_dir = Path(clip_dir)
        truth = json.loads((clip_dir / "truth.json").read_text())
        renderer = replay_renderer(clip_dir)
        if renderer is None:
            return cls(truth)
        scenes = list(renderer.scene_truth())
        double = cls(truth, scenes)
        keyed = cls(truth)
        for frame, want in zip(keyed.frames.tolist(), keyed.dets):
            double.frame = frame
            got = double.detect(None, 0.0)
            if len(got) != len(want) or not np.array_equal(got.boxes, want.boxes):
                raise ValueError(f"{clip_dir}: the replayed scene differs from truth.json at frame {frame}")
        return double

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

    def detect(self, image: np.ndarray | None, tile_px: float) -> TileDetections:
        k = int(np.searchsorted(self.frames, self.frame, side="right")) - 1
        return self.dets[k] if k >= 0 else TileDetections.empty()


class TruthReadTracker(TableTracker):
    """The tracker with its one pixel-reading seat (``_detect``) reading a ``TruthDetector``: truth
    boxes are in full-image pixels already, so a region read keeps the tiles centred in it."""

    def _detect(self, image: np.ndarray, box: tuple[int, int, int, int] | None = None) -> TileDetections:
        found = self.detector.detect(image, self.tile_px)
        if box is None or not len(found):
            return found
        x0, y0, x1, y1 = box
        c = found.centres
        inside = (c[:, 0] >= x0) & (c[:, 0] < x1) & (c[:, 1] >= y0) & (c[:, 1] < y1)
        return found[inside]


def run_tracker(clip_dir: str | Path, calibration=None, config=None):
    """Run the tracker over a rendered clip with truth readings; return (tracker, results)."""
    from tracker.tracker import TrackerConfig
    from vision.calibration import calibrate_video
    from vision.video import VideoSource

    clip_dir = Path(clip_dir)
    detector = TruthDetector.for_clip(clip_dir)
    cal = calibration or calibrate_video(clip_dir / "video.mp4")
    tracker = TruthReadTracker(cal, detector, config or TrackerConfig(crop=False))
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
    from tracker.tracker import TrackerConfig
    from vision.calibration import calibrate_video
    from vision.video import VideoSource

    clip_dir, out_dir = (Path(a) for a in (argv or sys.argv[1:]))
    detector = TruthDetector.for_clip(clip_dir)
    tracker = TruthReadTracker(calibrate_video(clip_dir / "video.mp4"), detector, TrackerConfig(crop=False))
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
    moments = "every frame (replayed scene)" if detector.every_frame else "truth keyframes"
    write_outputs(result, out_dir, "mleague", {"detector": f"truth at {moments} (test double)"})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
