"""Speed benchmark: median ms to detect tiles in a 1024x1024 image, ours and the peer's.

    python -m models.bench IMAGE [--tile-px 24 32 40] [--runs 30] [--peer /tmp/peer-venv/bin/python]

IMAGE is resized to 1024x1024 (a rectified table image's size). Ours: ``TileDetector.detect`` with
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


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m models.bench", description=__doc__.splitlines()[0])
    ap.add_argument("image", type=Path)
    ap.add_argument("--tile-px", type=float, nargs="+", default=[24.0, 32.0, 40.0])
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--model", type=Path)
    ap.add_argument("--peer")
    args = ap.parse_args(argv)

    from vision.detector import DEFAULT_MODEL, TileDetector
    from vision.io import read_image

    image = cv2.resize(read_image(args.image), (1024, 1024), interpolation=cv2.INTER_AREA)
    detector = TileDetector(args.model or DEFAULT_MODEL, threads=2)
    report: dict[str, object] = {"image": str(args.image), "size": [1024, 1024], "runs": args.runs}
    for tile_px in args.tile_px:
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
