"""Tile metrics on labelled photos for our detector and, side by side, the peer ``mahjong-detector``.

    python -m models.evaluate --images DIR/images --labels DIR/labels --classes DIR/meta.json \
        --held-out [--peer /tmp/peer-venv/bin/python] [--json OUT]

``--classes``: a meta.json with a ``classes`` list, or comma-separated tile codes (YOLO class order).
``--held-out`` keeps only the images whose source photo ``models.data.split`` held out of training.
``--unmatched FILE`` writes one JSON line per detection not counted correct (image, code,
confidence, box, the best IoU with a true tile and that tile's code): where precision goes.
Protocol (DESIGN.md): ``--tile-px`` for our detector is each image's median true box width (images
without tiles get the set's median); a detection is correct with IoU >= 0.5 and the same code; red
fives compare as plain fives when the labels have no red-five class. Times are median ms per image
of detection alone (image already decoded), ours with 2 onnxruntime threads.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from models.data import is_held_out, load_yolo_dirs
from models.metrics import Counts, count_image, unmatched_detections
from tracker.figures import emit_figures, write_output
from tracker.tiles import MODEL_CLASSES, RED_FIVES, deaka
from vision.reader_options import BUNDLED_READER, ReaderChoice, add_reader_argument, reader_options

PEER_RUNNER = Path(__file__).with_name("peer_runner.py")


def _classes(spec: str) -> list[str]:
    path = Path(spec)
    if path.suffix == ".json" and path.is_file():
        return list(json.loads(path.read_text())["classes"])
    return [c.strip() for c in spec.split(",") if c.strip()]


def _load(images: Path, labels: Path, classes: list[str], held_out: bool):
    samples = load_yolo_dirs(images, labels, classes)
    return [s for s in samples if is_held_out(s.source)] if held_out else samples


def _normalise(codes, keep_red: bool) -> np.ndarray:
    codes = list(codes)
    return np.asarray(codes if keep_red else [deaka(c) for c in codes], dtype=object)


def evaluate_ours(
    samples,
    model: Path | None,
    keep_red: bool,
    threads: int = 2,
    zoom: float = 1.0,
    reader: ReaderChoice = BUNDLED_READER,
    unmatched: list | None = None,
):
    """Our detector's counts over ``samples``, its times (ms) and per-image summaries; with
    ``unmatched`` (a list), each detection not counted correct is appended to it as a dict."""
    from vision.detector import DEFAULT_MODEL, TileDetector

    detector = TileDetector(model or DEFAULT_MODEL, threads=threads, **reader.detector_kwargs())
    widths = [w for s in samples if (w := s.median_tile_width())]
    fallback = float(np.median(widths)) if widths else 32.0
    codes = np.asarray(MODEL_CLASSES, dtype=object)
    total, times, per_image = Counts(), [], {}
    for s in samples:
        image = s.load_image()
        tile_px = (s.median_tile_width() or fallback) / zoom
        detector.detect(image, tile_px) if not times else None  # warm-up once
        start = time.perf_counter()
        found = detector.detect(image, tile_px)
        times.append((time.perf_counter() - start) * 1000)
        truth_codes, found_codes = _normalise(codes[s.classes], keep_red), _normalise(found.codes, keep_red)
        c = count_image(s.boxes, truth_codes, found.boxes, found_codes)
        total.add(c)
        if unmatched is not None:
            for d, iou, label in unmatched_detections(s.boxes, truth_codes, found.boxes, found_codes):
                unmatched.append(
                    {
                        "image": s.path.name,
                        "code": str(found.codes[d]),
                        "confidence": round(float(found.confidence[d]), 3),
                        "box": [round(float(v), 1) for v in found.boxes[d]],
                        "best_iou": iou,
                        "label_there": label,
                    }
                )
        per_image[s.path.name] = c.summary()
    return total, times, per_image


def evaluate_peer(samples, python: str, keep_red: bool):
    codes = np.asarray(MODEL_CLASSES, dtype=object)
    listing = "\n".join(str(s.path) for s in samples) + "\n"
    try:
        proc = subprocess.run(
            [python, str(PEER_RUNNER)],
            input=listing,
            capture_output=True,
            text=True,
            check=True,
            timeout=3600,
        )
    except (OSError, subprocess.CalledProcessError, subprocess.TimeoutExpired) as err:
        tail = getattr(err, "stderr", "") or str(err)
        raise SystemExit(
            f"peer run failed: {tail.strip().splitlines()[-1] if tail.strip() else err}"
        ) from None
    rows = {r["image"]: r for r in map(json.loads, proc.stdout.splitlines())}
    total, times = Counts(), []
    for s in samples:
        r = rows[str(s.path)]
        times.append(r["ms"])
        boxes = np.asarray([t["box"] for t in r["tiles"]], np.float32).reshape(-1, 4)
        total.add(
            count_image(
                s.boxes,
                _normalise(codes[s.classes], keep_red),
                boxes,
                _normalise([t["code"] for t in r["tiles"]], keep_red),
            )
        )
    return total, times


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m models.evaluate", description=__doc__.splitlines()[0])
    ap.add_argument("--images", required=True, type=Path)
    ap.add_argument("--labels", required=True, type=Path)
    ap.add_argument("--classes", required=True, help="meta.json or comma-separated codes in YOLO id order")
    ap.add_argument("--held-out", action="store_true", help="only images whose source was held out")
    ap.add_argument("--model", type=Path, help="ONNX model (default: models/tiles.onnx)")
    ap.add_argument("--peer", help="python of a virtualenv with mahjong-detector installed")
    ap.add_argument("--json", type=Path, help="write the figures here too")
    ap.add_argument(
        "--unmatched", type=Path, metavar="FILE", help="write each detection not counted correct (JSON lines)"
    )
    add_reader_argument(ap)
    ap.add_argument("--zoom", type=float, default=1.0, help="experiment: pass tile_px / ZOOM to our detector")
    args = ap.parse_args(argv)

    classes = _classes(args.classes)
    samples = _load(args.images, args.labels, classes, args.held_out)
    keep_red = any(c in RED_FIVES for c in classes)
    from vision.detector import ModelError

    unmatched: list | None = [] if args.unmatched else None
    try:
        ours, times, _ = evaluate_ours(
            samples,
            args.model,
            keep_red,
            zoom=args.zoom,
            reader=reader_options(args),
            unmatched=unmatched,
        )
    except ModelError as err:
        print(f"evaluate: {err}", file=sys.stderr)
        return 2
    report = {
        "images": len(samples),
        "ours": ours.summary() | {"median_ms": round(float(np.median(times)), 2)},
    }
    if args.peer:
        peer, peer_times = evaluate_peer(samples, args.peer, keep_red)
        report["peer"] = peer.summary() | {"median_ms": round(float(np.median(peer_times)), 2)}
    written = emit_figures(report, args.json, "evaluate")
    if unmatched is not None:
        text = "".join(json.dumps(row) + "\n" for row in unmatched)
        written = write_output(args.unmatched, text, "evaluate") and written
    return 0 if written else 2


if __name__ == "__main__":
    sys.exit(main())
