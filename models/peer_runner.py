"""Runs the PyPI ``mahjong-detector`` (the peer) on images; executed by the PEER's python, standalone.

    /tmp/peer-venv/bin/python models/peer_runner.py < image_paths.txt

Reads image paths (one a line) on stdin; prints one JSON line per image:
``{"image", "ms", "tiles": [{"code", "box", "confidence"}]}`` with our tile codes. ``ms`` times the
peer's own preprocessing + ONNX inference + postprocessing (its ``detect_tiles`` path), after one
warm-up run. Imports nothing from this project: the peer lives in its own virtualenv.
"""

from __future__ import annotations

import json
import sys
import time

# the peer's class names -> mjai codes (it has no red fives, backs or bonus tiles)
PEER_TO_CODE = {"chun": "C", "haku": "P", "hatsu": "F", "nan": "S", "pe": "N", "sha": "W", "tou": "E"}


def main() -> int:
    from mahjong_detector.predict import CLASS_NAMES, predict
    from mahjong_detector.preprocess import preprocess_image
    from PIL import Image

    def run(path: str):
        img = Image.open(path)
        img.load()
        start = time.perf_counter()
        prepared, padding = preprocess_image(img)
        found = predict(prepared, padding)
        return found, (time.perf_counter() - start) * 1000

    paths = [line.strip() for line in sys.stdin if line.strip()]
    if paths:
        run(paths[0])  # warm-up: session creation is not per-image cost
    for path in paths:
        found, ms = run(path)
        tiles = [
            {
                "code": PEER_TO_CODE.get(CLASS_NAMES[d.class_id], CLASS_NAMES[d.class_id]),
                "box": [d.x1, d.y1, d.x2, d.y2],
                "confidence": round(float(d.confidence), 4),
            }
            for d in found
        ]
        print(json.dumps({"image": path, "ms": round(ms, 2), "tiles": tiles}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
