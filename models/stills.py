"""Training stills from ``mjmon synth`` clips: keyframes as PNG + one COCO json (``models.data.load_coco``).

    python -m models.stills /tmp/synth-a /tmp/synth-b --out /tmp/stills

Each keyframe of ``truth.json`` becomes an image; its tiles become annotations with ``bbox``
(x, y, w, h), ``category_id`` (index into ``classes``, the tile codes), ``angle`` (rounded to the
nearest 90 degrees) and ``face_up``. Written outside the repository (the images are data).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2

from tracker.tiles import MODEL_CLASSES, class_id


def convert(clips: list[Path], out: Path) -> dict:
    out.mkdir(parents=True, exist_ok=True)
    images, annotations = [], []
    for clip in clips:
        truth = json.loads((clip / "truth.json").read_text())
        wanted = {k["frame"]: k["tiles"] for k in truth["keyframes"] if k["tiles"]}
        video = cv2.VideoCapture(str(clip / "video.mp4"))
        index = 0
        while wanted:
            ok, frame = video.read()
            if not ok:
                break
            tiles = wanted.pop(index, None)
            if tiles is not None:
                image_id = len(images)
                name = f"{clip.name}-{index:06d}.png"
                cv2.imwrite(str(out / name), frame)
                images.append(
                    {
                        "id": image_id,
                        "file_name": name,
                        "width": frame.shape[1],
                        "height": frame.shape[0],
                        "source": f"{clip.name}-{index}",
                    }
                )
                for t in tiles:
                    x1, y1, x2, y2 = t["box"]
                    annotations.append(
                        {
                            "id": len(annotations),
                            "image_id": image_id,
                            "bbox": [x1, y1, x2 - x1, y2 - y1],
                            "category_id": class_id(t["code"]),
                            "angle": int(round(t["angle"] / 90) % 4 * 90),
                            "face_up": bool(t["face_up"]),
                        }
                    )
            index += 1
        video.release()
    doc = {"classes": list(MODEL_CLASSES), "images": images, "annotations": annotations}
    (out / "stills.json").write_text(json.dumps(doc))
    return doc


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m models.stills", description=__doc__.splitlines()[0])
    ap.add_argument("clips", nargs="+", type=Path)
    ap.add_argument("--out", required=True, type=Path)
    args = ap.parse_args(argv)
    doc = convert(args.clips, args.out)
    print(f"{len(doc['images'])} stills, {len(doc['annotations'])} tiles -> {args.out / 'stills.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
