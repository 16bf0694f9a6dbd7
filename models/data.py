"""Labelled tile images for training and evaluation: YOLO-txt folders and COCO json, one sample type.

A ``Sample`` names an image file and holds its tiles as arrays in the image's own pixels; images are
read only when asked (``load_image``), so listing a dataset is cheap. Class ids are always
``tracker.tiles.MODEL_CLASSES`` ids, whatever the source's own numbering.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from tracker.tiles import BACK, MODEL_CLASSES, STANDING, class_id

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp")
_FACE_DOWN = (class_id(BACK), class_id(STANDING))


@dataclass
class Sample:
    """One labelled image.

    ``boxes`` (N, 4) float32 x1 y1 x2 y2 in pixels; ``classes`` (N,) int64 MODEL_CLASSES ids;
    ``angles`` (N,) int64 in {0, 90, 180, 270}, or -1 where the source does not say;
    ``face_up`` (N,) bool. ``source`` groups augmented copies of one photo (never split across sets).
    """

    path: Path
    boxes: np.ndarray
    classes: np.ndarray
    angles: np.ndarray
    face_up: np.ndarray
    source: str = ""
    size: tuple[int, int] | None = field(default=None)  # (height, width) when known

    def __post_init__(self) -> None:
        n = len(self.classes)
        if self.boxes.shape != (n, 4) or self.angles.shape != (n,) or self.face_up.shape != (n,):
            raise ValueError(f"{self.path}: inconsistent label array shapes")

    def load_image(self) -> np.ndarray:
        image = cv2.imread(str(self.path), cv2.IMREAD_COLOR)
        if image is None:
            raise OSError(f"cannot read image {self.path}")
        return image

    def median_tile_width(self) -> float | None:
        """Median true box width in px (DESIGN.md's ``--tile-px`` for this image), None if no tiles."""
        if not len(self.boxes):
            return None
        return float(np.median(self.boxes[:, 2] - self.boxes[:, 0]))


def source_of(name: str) -> str:
    """The source photo of a Roboflow export name ``<source>_jpg.rf.<hash>.jpg`` (else the stem)."""
    stem = Path(name).name
    for marker in ("_jpg.rf.", "_jpeg.rf.", "_png.rf.", ".rf."):
        if marker in stem:
            return stem.split(marker)[0]
    return Path(stem).stem


def is_held_out(source: str, fraction: float = 0.15) -> bool:
    """Deterministic split by source photo: the same source always lands on the same side."""
    digest = hashlib.md5(source.encode()).digest()
    return int.from_bytes(digest[:4], "little") / 2**32 < fraction


def _classes_from_meta(folder: Path, classes: list[str] | None) -> list[str]:
    if classes is not None:
        return classes
    for meta in (folder / "meta.json", folder.parent / "meta.json"):
        if meta.is_file():
            return list(json.loads(meta.read_text())["classes"])
    raise FileNotFoundError(f"no classes given and no meta.json in {folder} or its parent")


def _yolo_rows(text: str, width: int, height: int) -> tuple[np.ndarray, np.ndarray]:
    """Parse YOLO rows (``cls cx cy w h`` or polygons ``cls x1 y1 x2 y2 ...``) into px boxes."""
    ids, boxes = [], []
    for line in text.splitlines():
        parts = line.split()
        if len(parts) < 5:
            continue
        values = np.asarray(parts[1:], dtype=np.float64)
        if len(values) == 4:
            cx, cy, w, h = values
            box = (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)
        else:  # polygon: its bounding box
            xs, ys = values[0::2], values[1::2]
            box = (xs.min(), ys.min(), xs.max(), ys.max())
        ids.append(int(parts[0]))
        boxes.append(box)
    box_arr = np.asarray(boxes, dtype=np.float64).reshape(-1, 4) * [width, height, width, height]
    return np.asarray(ids, dtype=np.int64), box_arr.astype(np.float32)


def load_yolo(folder: str | Path, classes: list[str] | None = None) -> list[Sample]:
    """A YOLO folder (``images/`` + ``labels/``); ``classes`` maps source ids to tile codes
    (default: ``meta.json`` beside or above the folder)."""
    folder = Path(folder)
    return load_yolo_dirs(folder / "images", folder / "labels", _classes_from_meta(folder, classes))


def load_yolo_dirs(images: str | Path, labels: str | Path, classes: list[str]) -> list[Sample]:
    """Images in one folder, YOLO txt labels (same stem) in another; orientation is unknown in YOLO."""
    to_model = np.asarray([class_id(code) for code in classes], dtype=np.int64)
    samples = []
    for path in sorted(Path(images).iterdir()):
        if path.suffix.lower() not in IMAGE_SUFFIXES:
            continue
        label = Path(labels) / (path.stem + ".txt")
        text = label.read_text() if label.is_file() else ""
        height, width = _image_size(path)
        ids, boxes = _yolo_rows(text, width, height)
        cls = to_model[ids]
        samples.append(
            Sample(
                path=path,
                boxes=boxes,
                classes=cls,
                angles=np.full(len(cls), -1, dtype=np.int64),
                face_up=~np.isin(cls, _FACE_DOWN),
                source=source_of(path.name),
                size=(height, width),
            )
        )
    return samples


def _image_size(path: Path) -> tuple[int, int]:
    header = cv2.imread(str(path), cv2.IMREAD_GRAYSCALE)
    if header is None:
        raise OSError(f"cannot read image {path}")
    return header.shape[:2]


def load_coco(json_path: str | Path) -> list[Sample]:
    """COCO json as ``mjmon stills`` writes it: ``images``, ``annotations`` (bbox x y w h,
    ``category_id`` = MODEL_CLASSES id unless a ``classes`` list of codes says otherwise, optional
    ``angle`` in degrees, rounded here to the nearest quarter turn, and ``face_up``)."""
    json_path = Path(json_path)
    doc = json.loads(json_path.read_text())
    if "classes" in doc:
        to_model = {i: class_id(code) for i, code in enumerate(doc["classes"])}
    else:
        to_model = {i: i for i in range(len(MODEL_CLASSES))}
    per_image: dict[int, list[dict]] = {}
    for ann in doc.get("annotations", []):
        per_image.setdefault(ann["image_id"], []).append(ann)
    samples = []
    for info in doc["images"]:
        anns = per_image.get(info["id"], [])
        boxes = np.asarray([a["bbox"] for a in anns], dtype=np.float32).reshape(-1, 4)
        boxes[:, 2:] += boxes[:, :2]
        cls = np.asarray([to_model[a["category_id"]] for a in anns], dtype=np.int64)
        angles = _nearest_quarter(np.asarray([a.get("angle", -1) for a in anns], dtype=np.float64))
        face_up = np.asarray(
            [bool(a.get("face_up", c not in _FACE_DOWN)) for a, c in zip(anns, cls)], dtype=bool
        )
        path = json_path.parent / info["file_name"]
        samples.append(
            Sample(
                path=path,
                boxes=boxes,
                classes=cls,
                angles=angles,
                face_up=face_up,
                source=str(info.get("source", path.stem)),
                size=(int(info["height"]), int(info["width"])) if "height" in info else None,
            )
        )
    return samples


def _nearest_quarter(angles: np.ndarray) -> np.ndarray:
    """Degrees (the renderer's are continuous) to the nearest of 0/90/180/270; negative: unknown, -1."""
    quarter = (np.round(angles / 90).astype(np.int64) % 4) * 90
    return np.where(angles >= 0, quarter, -1).astype(np.int64)


def load_any(spec: str | Path) -> list[Sample]:
    """A COCO ``.json`` file, a ``mjmon stills`` folder (``annotations.json``) or a YOLO folder."""
    spec = Path(spec)
    if spec.suffix == ".json":
        return load_coco(spec)
    if (spec / "annotations.json").is_file():
        return load_coco(spec / "annotations.json")
    return load_yolo(spec)


def split(samples: list[Sample], fraction: float = 0.15) -> tuple[list[Sample], list[Sample]]:
    """(train, held_out) by source photo."""
    train = [s for s in samples if not is_held_out(s.source, fraction)]
    test = [s for s in samples if is_held_out(s.source, fraction)]
    return train, test
