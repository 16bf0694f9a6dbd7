"""Training crops at the native tile scale: real photos and pasted art, with their target maps.

Everything here is numpy/OpenCV (no torch) so it can be tested without the ``train`` extra.
A crop is (S, S, 3) uint8 BGR with tiles ``NATIVE_TILE_PX`` wide (jittered); labels are arrays:
boxes (N, 4) x1 y1 x2 y2, classes (N,), orient (N,) in 0..3 (k * 90 degrees counterclockwise).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from models.spec import NATIVE_TILE_PX, NUM_CLASSES, STRIDE
from tracker.tiles import BACK, MODEL_CLASSES, STANDING, class_id


@dataclass
class Crop:
    image: np.ndarray  # (S, S, 3) uint8
    boxes: np.ndarray  # (N, 4) float32
    classes: np.ndarray  # (N,) int64
    orient: np.ndarray  # (N,) int64, -1 = unknown


def rot90(image: np.ndarray, boxes: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Rotate an image k * 90 degrees counterclockwise (np.rot90) and its (N, 4) boxes with it."""
    k %= 4
    boxes = boxes.astype(np.float32).copy()
    for _ in range(k):
        w = image.shape[1]
        image = np.rot90(image)
        x1, y1, x2, y2 = boxes.T.copy()
        boxes = np.stack([y1, w - x2, y2, w - x1], axis=1)
    return np.ascontiguousarray(image), boxes


def random_crop(image: np.ndarray, boxes: np.ndarray, size: int, rng: np.random.Generator):
    """A size x size window (padded with grey when the image is smaller); returns the crop, the
    shifted boxes clipped to it and the mask of boxes whose centre lies inside."""
    h, w = image.shape[:2]
    x0 = int(rng.integers(0, max(w - size, 0) + 1)) if w > size else -int(rng.integers(0, size - w + 1))
    y0 = int(rng.integers(0, max(h - size, 0) + 1)) if h > size else -int(rng.integers(0, size - h + 1))
    out = np.full((size, size, 3), rng.integers(60, 200), dtype=np.uint8)
    sx0, sy0 = max(x0, 0), max(y0, 0)
    sx1, sy1 = min(x0 + size, w), min(y0 + size, h)
    out[sy0 - y0 : sy1 - y0, sx0 - x0 : sx1 - x0] = image[sy0:sy1, sx0:sx1]
    shifted = boxes - np.array([x0, y0, x0, y0], dtype=np.float32)
    cx = (shifted[:, 0] + shifted[:, 2]) / 2
    cy = (shifted[:, 1] + shifted[:, 3]) / 2
    keep = (cx >= 0) & (cx < size) & (cy >= 0) & (cy < size)
    return out, np.clip(shifted, 0, size - 1), keep


def resolution_loss(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The same view through a camera that resolves less: down to 45-90 % and back up. A 720p
    camera sees tiles about 17 px wide, which the detector scales up to its 20 px, with lens
    softness and H.264 on top; renderer stills and close-up photos have none of that."""
    h, w = image.shape[:2]
    f = rng.uniform(0.45, 0.9)
    small = cv2.resize(image, (max(4, round(w * f)), max(4, round(h * f))), interpolation=cv2.INTER_AREA)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def photometric(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Resolution loss, colour, brightness, blur, noise and JPEG round trips, each at random."""
    if rng.random() < 0.3:
        image = resolution_loss(image, rng)
    img = image.astype(np.float32)
    img = img * rng.uniform(0.7, 1.3, size=3) + rng.uniform(-30, 30)  # per-channel gain, offset
    if rng.random() < 0.3:
        grey = img.mean(axis=2, keepdims=True)
        img = grey + (img - grey) * rng.uniform(0.3, 1.2)
    if rng.random() < 0.3:
        img += rng.normal(0, rng.uniform(2, 10), img.shape)
    img = np.clip(img, 0, 255).astype(np.uint8)
    if rng.random() < 0.3:
        k = int(rng.choice([3, 5]))
        img = cv2.GaussianBlur(img, (k, k), rng.uniform(0.5, 1.5))
    if rng.random() < 0.4:
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(15, 90))])
        img = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return img


def real_crop(image: np.ndarray, sample, size: int, rng: np.random.Generator) -> Crop:
    """A crop of a labelled photo rescaled so its median tile is about NATIVE_TILE_PX wide."""
    median = sample.median_tile_width()
    scale = NATIVE_TILE_PX / median * np.exp(rng.uniform(-0.3, 0.3)) if median else rng.uniform(0.15, 0.6)
    h, w = image.shape[:2]
    nw, nh = max(8, round(w * scale)), max(8, round(h * scale))
    img = cv2.resize(image, (nw, nh), interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    boxes = sample.boxes * np.float32(scale)
    k = int(rng.integers(0, 4))
    img, boxes = rot90(img, boxes, k)
    # photos carry no orientation (and are not all taken from the tiles' owner side): unknown stays -1
    orient = np.where(sample.angles >= 0, (sample.angles // 90 + k) % 4, -1)
    crop, boxes, keep = random_crop(img, boxes, size, rng)
    return Crop(photometric(crop, rng), boxes[keep], sample.classes[keep], orient[keep])


# ---------------------------------------------------------------- pasted art (red fives, backs, bonus)

_BACK_COLOURS = np.array(
    [[40, 120, 40], [150, 90, 30], [30, 170, 220], [50, 60, 210], [60, 60, 60], [20, 110, 200]], np.float32
)
_BODY = np.array([228, 236, 240], np.float32)


class ArtBank:
    """Tile faces from tileset directories (PNG named by tile code), as BGR on an ivory body."""

    def __init__(self, dirs: list[Path]) -> None:
        self.faces: list[tuple[int, np.ndarray]] = []
        for d in dirs:
            for png in sorted(Path(d).glob("*.png")):
                if png.stem not in MODEL_CLASSES or png.stem in (BACK, STANDING):
                    continue
                rgba = cv2.imread(str(png), cv2.IMREAD_UNCHANGED)
                if rgba is None:
                    continue
                if rgba.shape[2] == 4:
                    alpha = rgba[:, :, 3:].astype(np.float32) / 255
                    bgr = rgba[:, :, :3] * alpha + _BODY * (1 - alpha)
                else:
                    bgr = rgba.astype(np.float32)
                self.faces.append((class_id(png.stem), bgr.astype(np.uint8)))
        # red fives are rare on a table but must be told apart: give each code equal weight
        codes = np.array([c for c, _ in self.faces])
        counts = np.bincount(codes, minlength=NUM_CLASSES)
        self.weights = 1.0 / counts[codes]
        self.weights /= self.weights.sum()


def _tile_picture(kind: str, face: np.ndarray | None, w: int, h: int, rng: np.random.Generator):
    """An upright tile seen from above: face with body margin, maybe a visible thick edge on one side."""
    edge = max(1, round(h * rng.uniform(0.05, 0.2)))
    back = _BACK_COLOURS[rng.integers(len(_BACK_COLOURS))] * rng.uniform(0.7, 1.2)
    body = _BODY * rng.uniform(0.8, 1.05)
    if kind == STANDING:  # the top of a standing tile: face-side ivory, back-side colour (sets its angle)
        th = max(3, round(w * rng.uniform(0.45, 0.8)))
        pic = np.empty((th, w, 3), np.float32)
        split = round(th * rng.uniform(0.35, 0.65))
        pic[:split], pic[split:] = body, back
        return np.clip(pic, 0, 255).astype(np.uint8)
    pic = np.empty((h, w, 3), np.float32)
    if kind == BACK:
        pic[:] = back
    else:
        pic[:] = body
        m = max(1, round(w * rng.uniform(0.0, 0.1)))
        inner = cv2.resize(face, (w - 2 * m, h - 2 * m), interpolation=cv2.INTER_AREA)
        pic[m : h - m, m : w - m] = inner
    pic *= np.linspace(1.05, 0.9, h)[:, None, None] if rng.random() < 0.5 else 1.0  # soft light falloff
    # the visible side edge depends on where the camera is, not on how the tile is turned: any side
    side = int(rng.integers(0, 5))
    if side < 4:
        strip = np.empty((edge, w, 3), np.float32)
        strip[:] = back if rng.random() < 0.7 else body * 0.8
        pic = _attach_edge(pic, strip, side)
    return np.clip(pic, 0, 255).astype(np.uint8)


def _attach_edge(pic: np.ndarray, strip: np.ndarray, side: int) -> np.ndarray:
    """Append an (e, w, 3) edge strip on side 0 bottom, 1 right, 2 top, 3 left of an (h, w, 3) tile."""
    turned = np.rot90(pic, side)  # bring that side to the bottom
    strip = cv2.resize(strip, (turned.shape[1], strip.shape[0]), interpolation=cv2.INTER_NEAREST)
    return np.ascontiguousarray(np.rot90(np.concatenate([turned, strip], axis=0), -side))


def _background(size: int, rng: np.random.Generator, photos: list[np.ndarray]) -> np.ndarray:
    if photos and rng.random() < 0.4:
        src = photos[rng.integers(len(photos))]
        return cv2.resize(src, (size, size), interpolation=cv2.INTER_AREA)
    colour = np.array([[60, 120, 50], [120, 80, 40], [90, 90, 90], [60, 100, 150], [40, 40, 40]])[
        rng.integers(5)
    ]
    bg = np.ones((size, size, 3), np.float32) * colour * rng.uniform(0.6, 1.4)
    bg += rng.normal(0, 8, bg.shape)
    return np.clip(bg, 0, 255).astype(np.uint8)


def paste_crop(bank: ArtBank, size: int, rng: np.random.Generator, photos: list[np.ndarray]) -> Crop:
    """Rows of tiles (river/wall/hand-like) pasted on felt or a photo, each row turned by k * 90."""
    canvas = _background(size, rng, photos)
    occupied = np.zeros((size, size), bool)
    boxes, classes, orients = [], [], []
    for _ in range(int(rng.integers(2, 7))):
        k = int(rng.integers(0, 4))
        w = max(8, round(NATIVE_TILE_PX * np.exp(rng.uniform(-0.3, 0.3))))
        h = round(w * rng.uniform(1.2, 1.45))
        mode = rng.random()
        pics, codes = [], []
        for _ in range(int(rng.integers(2, 10))):
            if mode < 0.15:
                kind, face, cid = BACK, None, class_id(BACK)
            elif mode < 0.3:
                kind, face, cid = STANDING, None, class_id(STANDING)
            else:
                cid, face = bank.faces[rng.choice(len(bank.faces), p=bank.weights)]
                kind = MODEL_CLASSES[cid]
                if rng.random() < 0.08:
                    kind, face, cid = BACK, None, class_id(BACK)
            pics.append(np.rot90(_tile_picture(kind, face, w, h, rng), k))
            codes.append(cid)
        gap = int(rng.integers(0, 3))
        horizontal = k % 2 == 0 if rng.random() < 0.8 else k % 2 == 1
        x, y = int(rng.integers(0, size)), int(rng.integers(0, size))
        for pic, cid in zip(pics, codes):
            ph, pw = pic.shape[:2]
            if x + pw > size or y + ph > size:
                break
            if not occupied[y : y + ph, x : x + pw].any():
                canvas[y : y + ph, x : x + pw] = pic
                occupied[y : y + ph, x : x + pw] = True
                boxes.append((x, y, x + pw, y + ph))
                classes.append(cid)
                orients.append(k)
            if horizontal:
                x += pw + gap
            else:
                y += ph + gap
    img = photometric(canvas, rng)
    return Crop(
        img,
        np.asarray(boxes, np.float32).reshape(-1, 4),
        np.asarray(classes, np.int64),
        np.asarray(orients, np.int64),
    )


# ---------------------------------------------------------------- target maps


def targets(crop: Crop) -> dict[str, np.ndarray]:
    """Dense targets on the stride grid (g = S / STRIDE): ``heat`` (1, g, g) Gaussian peaks at tile
    centres; ``cls`` (g, g) class id or -1; ``size`` (2, g, g) log(w, h / native); ``offset``
    (2, g, g) centre position inside its cell; ``orient`` (g, g) 0..3 or -1; ``reg`` (g, g) bool
    where size/offset are trained (the centre cell only)."""
    g = crop.image.shape[0] // STRIDE
    heat = np.zeros((g, g), np.float32)
    cls = np.full((g, g), -1, np.int64)
    orient = np.full((g, g), -1, np.int64)
    size = np.zeros((2, g, g), np.float32)
    offset = np.zeros((2, g, g), np.float32)
    reg = np.zeros((g, g), bool)
    if len(crop.boxes):
        b = crop.boxes / STRIDE
        cx, cy = (b[:, 0] + b[:, 2]) / 2, (b[:, 1] + b[:, 3]) / 2
        bw, bh = np.maximum(b[:, 2] - b[:, 0], 0.5), np.maximum(b[:, 3] - b[:, 1], 0.5)
        ys, xs = np.mgrid[0:g, 0:g].astype(np.float32) + 0.5
        # (N, g, g) Gaussians sized by the tile, max-combined (vectorised over tiles)
        sx, sy = np.maximum(bw / 6, 0.6), np.maximum(bh / 6, 0.6)
        gauss = np.exp(
            -((xs[None] - cx[:, None, None]) ** 2) / (2 * sx[:, None, None] ** 2)
            - ((ys[None] - cy[:, None, None]) ** 2) / (2 * sy[:, None, None] ** 2)
        )
        heat = gauss.max(axis=0)
        ix, iy = np.clip(cx.astype(int), 0, g - 1), np.clip(cy.astype(int), 0, g - 1)
        heat[iy, ix] = 1.0
        # class/orientation also on the 4-neighbours of the centre: more signal, same decision
        for dy, dx in ((0, 0), (-1, 0), (1, 0), (0, -1), (0, 1)):
            jy, jx = np.clip(iy + dy, 0, g - 1), np.clip(ix + dx, 0, g - 1)
            free = cls[jy, jx] < 0 if (dy or dx) else np.ones(len(ix), bool)
            cls[jy[free], jx[free]] = crop.classes[free]
            orient[jy[free], jx[free]] = crop.orient[free]
        size[:, iy, ix] = np.log(np.stack([bw, bh]) * STRIDE / NATIVE_TILE_PX)
        offset[:, iy, ix] = np.stack([cx - ix, cy - iy])
        reg[iy, ix] = True
    return {"heat": heat[None], "cls": cls, "size": size, "offset": offset, "orient": orient, "reg": reg}
