"""``mjmon detect IMAGE... [--tile-px N] --json OUT``: tile detection on still images."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from tracker.commands import CommandError
from vision.reader_options import add_reader_argument, reader_options

#: tile widths tried when --tile-px is not given (geometric, covers 14..96 px)
AUTO_TILE_PX = (16.0, 24.0, 36.0, 54.0, 80.0)


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "detect",
        help="detect tiles on still images",
        description="Detect tiles on still images; boxes are written in each image's own pixels.",
    )
    p.add_argument("images", nargs="+", type=Path, metavar="IMAGE")
    p.add_argument(
        "--tile-px",
        type=float,
        help="expected tile box width in px (default: try several and keep the most self-consistent)",
    )
    p.add_argument("--json", required=True, type=Path, dest="out", metavar="OUT")
    p.add_argument("--model", type=Path, help="ONNX model (default: the packaged models/tiles.onnx)")
    p.add_argument("--threshold", type=float, default=0.3, help="minimum tile centre score")
    add_reader_argument(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from vision.detector import DEFAULT_MODEL, ModelError, TileDetector
    from vision.io import ImageError, read_image

    if args.tile_px is not None and not 1 <= args.tile_px <= 1024:
        raise CommandError(f"--tile-px must be between 1 and 1024, got {args.tile_px}")
    try:
        detector = TileDetector(
            args.model or DEFAULT_MODEL,
            threshold=args.threshold,
            **reader_options(args).detector_kwargs(),
        )
    except ModelError as err:
        raise CommandError(str(err)) from None
    result = {}
    for path in args.images:
        try:
            image = read_image(path)
        except ImageError as err:
            raise CommandError(str(err)) from None
        if args.tile_px is not None:
            found = detector.detect(image, args.tile_px)
        else:
            found = detect_any_scale(detector, image)
        result[str(path)] = found.to_records()
    try:
        args.out.write_text(json.dumps(result) + "\n")
    except OSError as err:
        raise CommandError(f"cannot write {args.out}: {err.strerror or err}") from None
    total = sum(len(v) for v in result.values())
    print(f"{total} tiles in {len(result)} image(s) -> {args.out}")
    return 0


def detect_any_scale(detector, image):
    """Without a tile size: run at each of AUTO_TILE_PX and keep the scale whose detections agree
    best with it (median detected width near the assumed one) weighted by their total confidence."""
    import numpy as np

    best, best_score = None, -1.0
    for tile_px in AUTO_TILE_PX:
        found = detector.detect(image, tile_px)
        if not len(found):
            continue
        widths = np.minimum(found.boxes[:, 2] - found.boxes[:, 0], found.boxes[:, 3] - found.boxes[:, 1])
        agreement = np.exp(-abs(np.log(np.median(widths) / tile_px)))
        score = float(found.confidence.sum()) * agreement
        if score > best_score:
            best, best_score = found, score
    return best if best is not None else detector.detect(image, AUTO_TILE_PX[len(AUTO_TILE_PX) // 2])
