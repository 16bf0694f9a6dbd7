"""Speed benchmark: median ms to detect tiles in a 1024x1024 image, ours and the peer's.

    python -m models.bench [IMAGE] [--tile-px 24 32 40] [--runs 30] [--peer /tmp/peer-venv/bin/python]

IMAGE is resized to 1024x1024 (a rectified table image's size). Without IMAGE the benchmark makes
its own: a late frame of the bundled sample clip (full rivers and melds), calibrated from the clip's
first seconds and rectified to 1024x1024 as the tracker sees the felt; the tile width in that image
(~27 px) is then the default ``--tile-px``. Ours: ``TileDetector.detect`` with
2 onnxruntime threads at each ``--tile-px`` (the cost depends on it: the image is rescaled so tiles
are ``NATIVE_TILE_PX`` wide). Peer: ``mahjong-detector`` on the same 1024x1024 file, run ``--runs``
times through ``models/peer_runner.py`` in its own virtualenv.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

from models.evaluate import PEER_RUNNER
from tracker.figures import measured_on
from vision.reader_options import add_reader_argument, reader_options

SAMPLE_CLIP = Path(__file__).resolve().parents[1] / "tracker" / "samples" / "demo-kyoku" / "video.mp4"
SAMPLE_FRAME = 2400  # late in the kyoku: full rivers, three melds, a riichi stick


def sample_table_image(size: int = 1024) -> tuple[np.ndarray, float]:
    """The sample clip's felt, rectified to ``size`` px square, and its tile width in px."""
    from vision.calibration import TILE_W_MM, calibrate_frames
    from vision.video import VideoSource, first_frames

    calib = calibrate_frames(first_frames(SAMPLE_CLIP, 2.0))
    video = VideoSource(SAMPLE_CLIP)
    frame = next(image for index, _t, image in video if index == SAMPLE_FRAME)
    video.close()
    px_per_mm = size / (2 * calib.felt_half_mm)
    return calib.rectify(frame, px_per_mm), TILE_W_MM * px_per_mm


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m models.bench", description=__doc__.splitlines()[0])
    ap.add_argument("image", type=Path, nargs="?")
    ap.add_argument("--tile-px", type=float, nargs="+")
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--model", type=Path)
    ap.add_argument("--peer")
    add_reader_argument(ap)
    args = ap.parse_args(argv)

    from vision.detector import DEFAULT_MODEL, ModelError, TileDetector
    from vision.io import ImageError, read_image

    try:
        if args.image:
            image = cv2.resize(read_image(args.image), (1024, 1024), interpolation=cv2.INTER_AREA)
            sizes = args.tile_px or [24.0, 32.0, 40.0]
        else:
            image, sample_tile_px = sample_table_image()
            sizes = args.tile_px or [round(sample_tile_px, 1)]
        detector = TileDetector(
            args.model or DEFAULT_MODEL,
            threads=2,
            **reader_options(args).detector_kwargs(),
        )
    except (ImageError, ModelError) as err:
        print(f"bench: {err}", file=sys.stderr)
        return 2
    source = str(args.image) if args.image else f"{SAMPLE_CLIP} frame {SAMPLE_FRAME} rectified"
    report: dict[str, object] = {"image": source, "size": [1024, 1024], "runs": args.runs}
    report["measured_on"] = measured_on()
    for tile_px in sizes:
        for _ in range(3):
            detector.detect(image, tile_px)
        times = []
        for _ in range(args.runs):
            start = time.perf_counter()
            detector.detect(image, tile_px)
            times.append((time.perf_counter() - start) * 1000)
        report[f"ours_ms_at_tile_px_{tile_px:g}"] = round(float(np.median(times)), 2)
    if args.peer:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "bench1024.png"
            cv2.imwrite(str(path), image)
            listing = "\n".join([str(path)] * args.runs) + "\n"
            out = subprocess.run(
                [args.peer, str(PEER_RUNNER)], input=listing, capture_output=True, text=True, check=True
            ).stdout
            report["peer_ms"] = round(float(np.median([json.loads(r)["ms"] for r in out.splitlines()])), 2)
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
