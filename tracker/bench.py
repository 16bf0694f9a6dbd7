"""Throughput: ``python -m tracker.bench VIDEO [--model FILE]``.

Decodes the video alone, then analyses it (decode + activity + table reads + events), in one
run, and prints both rates and their ratio (the machine is shared, so the ratio is the figure).
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time


def decode_only(path: str) -> tuple[int, float]:
    from vision.video import VideoSource

    start = time.perf_counter()
    n = sum(1 for _ in VideoSource(path))
    return n, time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tracker.bench", description=__doc__.splitlines()[0])
    parser.add_argument("video")
    parser.add_argument("--model", help="tile model (default: models/tiles.onnx)")
    parser.add_argument("--threads", type=int, default=1, help="onnxruntime threads")
    args = parser.parse_args(argv)

    from tracker.run import analyze_video
    from tracker.tracker import TableTracker, TrackerConfig
    from vision.calibration import calibrate_video
    from vision.detector import DEFAULT_MODEL, TileDetector
    from vision.video import VideoSource

    frames, decode_s = decode_only(args.video)
    calibration = calibrate_video(args.video)
    detector = TileDetector(args.model or DEFAULT_MODEL, threads=args.threads)
    tracker = TableTracker(calibration, detector, TrackerConfig())
    result = analyze_video(VideoSource(args.video), tracker, progress=False)
    decode_fps = frames / decode_s
    analyze_fps = result.frames / result.seconds
    out = {
        "video": args.video,
        "frames": frames,
        "size": [calibration.width, calibration.height],
        "decode_fps": round(decode_fps, 1),
        "analyze_fps": round(analyze_fps, 1),
        "ratio": round(analyze_fps / decode_fps, 3),
        "table_reads": result.reads,
        "hand_looks": tracker.hand_looks,
        "max_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
