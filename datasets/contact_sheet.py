"""Contact sheet: rendered table crops beside real photos at the same tile size.

    python -m datasets.contact_sheet --real ../shared/data/real --out docs/img/synth-vs-real.png

Real photos are read in place; crops are scaled so the median labelled tile is ``tile_px`` wide.
Photos on green automatic-table felt are preferred (the renderer's realism reference).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np

from datasets.stills import StillMaker
from datasets.tileset import Tileset, load_tileset
from tracker.logs import load_log

CROP = 224


def _yolo_boxes(label: Path, w: int, h: int) -> np.ndarray:
    rows = [line.split() for line in label.read_text().splitlines() if line.strip()]
    if not rows:
        return np.zeros((0, 4))
    a = np.array([r[1:5] for r in rows if len(r) >= 5], float).reshape(
        -1, 4
    )  # polygons: first 4 numbers only
    return np.stack(
        [
            (a[:, 0] - a[:, 2] / 2) * w,
            (a[:, 1] - a[:, 3] / 2) * h,
            (a[:, 0] + a[:, 2] / 2) * w,
            (a[:, 1] + a[:, 3] / 2) * h,
        ],
        1,
    )


def _greenness(img: np.ndarray, boxes: np.ndarray) -> float:
    mask = np.ones(img.shape[:2], bool)
    for x0, y0, x1, y1 in boxes.astype(int):
        mask[max(y0, 0) : y1, max(x0, 0) : x1] = False
    hsv = cv2.cvtColor(img, cv2.COLOR_BGR2HSV)[mask]
    if not len(hsv):
        return 0.0
    return float(((hsv[:, 0] > 35) & (hsv[:, 0] < 95) & (hsv[:, 1] > 60)).mean())


def _crop_at_scale(img: np.ndarray, boxes: np.ndarray, tile_px: float) -> np.ndarray | None:
    widths = np.minimum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])
    if not len(widths):
        return None
    f = tile_px / np.median(widths)
    scaled = cv2.resize(img, None, fx=f, fy=f, interpolation=cv2.INTER_AREA if f < 1 else cv2.INTER_LINEAR)
    centre = ((boxes[:, :2] + boxes[:, 2:]) / 2 * f).mean(0)
    x0 = int(np.clip(centre[0] - CROP / 2, 0, max(scaled.shape[1] - CROP, 0)))
    y0 = int(np.clip(centre[1] - CROP / 2, 0, max(scaled.shape[0] - CROP, 0)))
    crop = scaled[y0 : y0 + CROP, x0 : x0 + CROP]
    return crop if crop.shape[:2] == (CROP, CROP) else None


def real_crops(root: Path, count: int, tile_px: float, rng: np.random.Generator) -> list[np.ndarray]:
    scored = []
    for images in sorted(root.glob("*/train/images")):
        for path in sorted(images.glob("*.jpg"))[::3]:
            img = cv2.imread(str(path))
            label = path.parent.parent / "labels" / (path.stem + ".txt")
            if img is None or not label.exists():
                continue
            boxes = _yolo_boxes(label, img.shape[1], img.shape[0])
            if len(boxes) >= 4:
                scored.append((_greenness(img, boxes), str(path), boxes))
    scored.sort(key=lambda s: -s[0])
    picks = scored[: count * 3]
    rng.shuffle(picks)
    out = []
    for _, path, boxes in picks:
        crop = _crop_at_scale(cv2.imread(path), boxes, tile_px)
        if crop is not None:
            out.append(crop)
        if len(out) == count:
            break
    return out


def rendered_crops(tilesets: list[Tileset], count: int, tile_px: float, seed: int) -> list[np.ndarray]:
    sample = Path(__file__).resolve().parents[1] / "tracker" / "samples" / "jansou-mleague-hanchan.mjai.jsonl"
    maker = StillMaker([load_log(sample)], tilesets, size=448, seed=seed, tile_px=(tile_px, tile_px * 1.05))
    out = []
    while len(out) < count:
        img, labels = maker.make()
        faces = np.array([lab["box"] for lab in labels if lab["face_up"]])
        if len(faces) >= 4:
            crop = _crop_at_scale(img, faces, tile_px)
            if crop is not None:
                out.append(crop)
    return out


def sheet(rows: list[tuple[str, list[np.ndarray]]]) -> np.ndarray:
    pad = 6
    lines = []
    for name, crops in rows:
        label = np.full((CROP, 110, 3), 255, np.uint8)
        cv2.putText(label, name, (8, CROP // 2), cv2.FONT_HERSHEY_SIMPLEX, 0.7, (20, 20, 20), 2, cv2.LINE_AA)
        cells = [label]
        for c in crops:
            cells += [np.full((CROP, pad, 3), 255, np.uint8), c]
        lines += [np.concatenate(cells, 1), np.full((pad, sum(x.shape[1] for x in cells), 3), 255, np.uint8)]
    return np.concatenate(lines, 0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--real", required=True, help="folder holding <set>/train/images and labels")
    parser.add_argument("--tileset", action="append", help="art for the rendered row (default: bundled)")
    parser.add_argument("--count", type=int, default=6)
    parser.add_argument("--tile-px", type=float, default=44.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    real = real_crops(Path(args.real), args.count, args.tile_px, rng)
    tilesets = [load_tileset(t) for t in (args.tileset or [None])]
    rendered = rendered_crops(tilesets, args.count, args.tile_px, args.seed)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(out), sheet([("real", real), ("rendered", rendered)]), [cv2.IMWRITE_PNG_COMPRESSION, 9])
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
