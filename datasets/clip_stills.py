"""Training stills cut from rendered clips: keyframes of ``mjmon synth`` clips as a COCO folder.

``mjmon stills`` draws each picture once, with JPEG as its only compression. The tracker reads
frames of an H.264 video instead: at the low camera's quality (crf 30) and 960x540, a 14-17 px
honour is mostly codec blur. This turns the quiet keyframes of rendered clips (``video.mp4`` plus
the tile boxes of ``truth.json``) into the same COCO layout ``mjmon stills`` writes, so the reader
(and the detector) train on exactly what the video does to a face::

    python -m datasets.clip_stills CLIPDIR... --out DIR [--every 2]

Each image's ``source`` is its clip's folder name, so ``models.data.split`` holds out whole clips.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
from tqdm import tqdm

from datasets.stills import write_annotations
from tracker import tiles


def synth_keyframes(
    folder: str | Path, picks: int | None = None, every: int = 1
) -> Iterator[tuple[np.ndarray, list]]:
    """(frame image, its keyframe's ``tiles``) for the keyframes of a synth clip that show tiles:
    ``picks`` of them evenly spaced, or every ``every``-th one."""
    folder = Path(folder)
    truth = json.loads((folder / "truth.json").read_text())
    keyframes = [k for k in truth["keyframes"] if k["tiles"]]
    if picks is not None:
        chosen = [
            keyframes[i] for i in np.linspace(0, len(keyframes) - 1, min(picks, len(keyframes))).astype(int)
        ]
    else:
        chosen = keyframes[::every]
    wanted = {k["frame"]: k["tiles"] for k in chosen}
    video = cv2.VideoCapture(str(folder / "video.mp4"))
    index = 0
    try:
        while wanted:
            ok, frame = video.read()
            if not ok:
                break
            if index in wanted:
                yield frame, wanted.pop(index)
            index += 1
    finally:
        video.release()


def coco_annotations(tile_list: list, image_id: int, first_id: int) -> list[dict]:
    """COCO annotations of one keyframe's tiles that are a model class (``?`` is not)."""
    out = []
    for t in tile_list:
        code = t["code"]
        if code not in tiles.MODEL_CLASSES:
            continue
        x0, y0, x1, y1 = t["box"]
        out.append(
            {
                "id": first_id + len(out),
                "image_id": image_id,
                "category_id": tiles.class_id(code),
                "bbox": [x0, y0, x1 - x0, y1 - y0],
                "area": (x1 - x0) * (y1 - y0),
                "iscrowd": 0,
                "angle": t["angle"],
                "face_up": bool(t["face_up"]),
                "seat": t["seat"],
                "zone": t["zone"],
            }
        )
    return out


def write_clip_stills(clips: list[Path], out_dir: Path, every: int = 2, quality: int = 97) -> dict:
    """Every ``every``-th keyframe of each clip as ``images/NNNNNN.jpg`` plus ``annotations.json``."""
    (out_dir / "images").mkdir(parents=True, exist_ok=True)
    images, annotations = [], []
    for clip in tqdm(clips, desc="clips", unit="clip", file=sys.stderr):
        for frame, tile_list in synth_keyframes(clip, every=every):
            k = len(images)
            name = f"images/{k:06d}.jpg"
            cv2.imwrite(str(out_dir / name), frame, [cv2.IMWRITE_JPEG_QUALITY, quality])
            images.append(
                {
                    "id": k,
                    "file_name": name,
                    "width": frame.shape[1],
                    "height": frame.shape[0],
                    "source": clip.name,
                }
            )
            annotations += coco_annotations(tile_list, k, len(annotations))
    info = {"description": "mjmon keyframes of rendered clips", "clips": [c.name for c in clips]}
    coco = write_annotations(out_dir, info, images, annotations)
    return coco


def _has_keyframes(path: Path) -> bool:
    try:
        doc = json.loads(path.read_text())
    except ValueError:
        return False
    return isinstance(doc, dict) and isinstance(doc.get("keyframes"), list)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m datasets.clip_stills", description=__doc__.split("\n")[0])
    ap.add_argument("clips", nargs="+", type=Path, help="folders of mjmon synth (video.mp4 + truth.json)")
    ap.add_argument("--out", required=True, type=Path)
    ap.add_argument("--every", type=int, default=2, help="keep every n-th keyframe (neighbours look alike)")
    args = ap.parse_args(argv)
    missing = [c for c in args.clips if not (c / "truth.json").is_file() or not (c / "video.mp4").is_file()]
    if missing:
        print(f"clip_stills: not a rendered clip (video.mp4 + truth.json): {missing[0]}", file=sys.stderr)
        return 2
    for clip in args.clips:  # before anything is written: a broken truth file names its clip
        if not _has_keyframes(clip / "truth.json"):
            print(
                f"clip_stills: {clip / 'truth.json'}: not a synth truth file (no keyframes list)",
                file=sys.stderr,
            )
            return 2
    coco = write_clip_stills(args.clips, args.out, args.every)
    print(f"wrote {len(coco['images'])} frames, {len(coco['annotations'])} tiles to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
