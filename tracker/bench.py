"""Throughput: ``python -m tracker.bench VIDEO [--model FILE]``.

Decodes the video alone, then analyses it (decode + activity + table reads + events), in one
run, and prints both rates, their ratio and the rates per CPU-second of the process (on a shared
machine wall-clock rates follow the load; CPU time mostly does not).
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time

from tracker.figures import measured_on
from tracker.lift_model import LiftModel, LiftModelError, add_lift_argument, lift_model_path
from vision.reader_options import add_reader_argument, reader_options


def cpu_seconds() -> float:
    """CPU time of this process (all threads): on a shared machine, the cost that load does not hide."""
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def decode_only(path: str) -> tuple[int, float, float]:
    from vision.video import VideoSource

    start, cpu = time.perf_counter(), cpu_seconds()
    n = sum(1 for _ in VideoSource(path))
    return n, time.perf_counter() - start, cpu_seconds() - cpu


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tracker.bench", description=__doc__.splitlines()[0])
    parser.add_argument("video")
    parser.add_argument("--model", help="tile model (default: models/tiles.onnx)")
    parser.add_argument("--threads", type=int, default=1, help="onnxruntime threads")
    add_reader_argument(parser)
    add_lift_argument(parser)
    args = parser.parse_args(argv)

    from tracker.run import analyze_video
    from tracker.table.layout import RULES_BY_NAME
    from tracker.tracker import TableTracker, TrackerConfig
    from vision.calibration import calibrate_video
    from vision.detector import DEFAULT_MODEL, ModelError, TileDetector
    from vision.video import VideoSource

    try:  # before decoding: a missing --model / --reader / --lift-model is one line, not a late traceback
        detector = TileDetector(
            args.model or DEFAULT_MODEL,
            threads=args.threads,
            **reader_options(args).detector_kwargs(),
            absent_classes=RULES_BY_NAME[TrackerConfig().rules].absent_tiles,  # as analyze reads
        )
        path = lift_model_path(args)
        lift = LiftModel(path) if path is not None else None
    except (ModelError, LiftModelError) as err:
        print(f"tracker.bench: {err}", file=sys.stderr)
        return 2
    frames, decode_s, decode_cpu = decode_only(args.video)
    calibration = calibrate_video(args.video)
    tracker = TableTracker(calibration, detector, TrackerConfig(), lift)
    cpu = cpu_seconds()
    result = analyze_video(VideoSource(args.video), tracker, progress=False)
    analyze_cpu = cpu_seconds() - cpu
    decode_fps = frames / decode_s
    analyze_fps = result.frames / result.seconds
    out = {
        "video": args.video,
        "frames": frames,
        "size": [calibration.width, calibration.height],
        "decode_fps": round(decode_fps, 1),
        "analyze_fps": round(analyze_fps, 1),
        "ratio": round(analyze_fps / decode_fps, 3),
        # frames per CPU-second: what the rates would be on an otherwise idle core
        "decode_fps_cpu": round(frames / decode_cpu, 1) if decode_cpu else None,
        "analyze_fps_cpu": round(result.frames / analyze_cpu, 1) if analyze_cpu else None,
        "table_reads": result.reads,
        "hand_looks": tracker.hand_looks,
        "max_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "measured_on": measured_on(),
    }
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
