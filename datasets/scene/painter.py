"""Painting tiles onto the felt canvas: physical bodies with thickness, faces from a tileset,
soft shadows. Raised surfaces are drawn where the camera sees them (``CameraModel.lift_to_felt``),
so the one warp to the image gives the right perspective."""

from __future__ import annotations

import cv2
import numpy as np

from datasets.scene.camera import CameraModel
from datasets.scene.placements import FACE_DOWN, FACE_UP, STANDING, Placements
from datasets.scene.style import Style
from datasets.scene.table_layout import PANEL_HALF, STICK, TABLE_HALF, TILE_T
from datasets.tileset import Tileset

SHIFT = 4  # fixed-point bits for sub-pixel polygons
ONE = 1 << SHIFT


class Canvas:
    """The felt plane as an image: ``scale`` px per mm, covering ``[-half, half]`` mm both ways."""

    def __init__(self, scale: float, half: float):
        self.scale = scale
        self.half = half
        self.size = int(round(2 * half * scale))

    def px(self, xy: np.ndarray) -> np.ndarray:
        return (np.asarray(xy, float) + self.half) * self.scale


def felt_image(canvas: Canvas, style: Style, rng: np.random.Generator) -> np.ndarray:
    """Felt with cloth texture, the table's raised edge and the automatic table's centre panel."""
    n = canvas.size
    base = np.empty((n, n, 3), np.float32)
    base[:] = style.felt
    coarse = cv2.resize(rng.normal(0, 1, (12, 12)).astype(np.float32), (n, n), interpolation=cv2.INTER_CUBIC)
    fine = cv2.GaussianBlur(rng.normal(0, 1, (n, n)).astype(np.float32), (0, 0), 0.8)
    # woven cloth: a fine criss-cross of about 1.2 mm
    ys, xs = np.mgrid[0:n, 0:n].astype(np.float32) / canvas.scale
    weave = np.sin(xs * 2 * np.pi / 1.2) * np.sin(ys * 2 * np.pi / 1.2)
    base *= (1 + 0.04 * coarse + 0.05 * fine + 0.05 * weave)[..., None]
    img = np.clip(base, 0, 255).astype(np.uint8)
    # outside the playing surface: the table's wooden rim
    rim = canvas.px(np.array([[-TABLE_HALF - 15, -TABLE_HALF - 15], [TABLE_HALF + 15, TABLE_HALF + 15]]))
    mask = np.ones((n, n), np.uint8)
    cv2.rectangle(mask, tuple(rim[0].astype(int)), tuple(rim[1].astype(int)), 0, -1)
    img[mask.astype(bool)] = (45, 60, 85)
    # centre panel with the seat-wind lights
    p = canvas.px(np.array([[-PANEL_HALF, -PANEL_HALF], [PANEL_HALF, PANEL_HALF]])).astype(int)
    cv2.rectangle(img, tuple(p[0]), tuple(p[1]), style.panel, -1, cv2.LINE_AA)
    cv2.rectangle(
        img,
        tuple(p[0]),
        tuple(p[1]),
        tuple(int(c * 0.6) for c in style.panel),
        max(1, int(canvas.scale * 3)),
        cv2.LINE_AA,
    )
    inner = canvas.px(np.array([[-35, -35], [35, 35]])).astype(int)
    cv2.rectangle(img, tuple(inner[0]), tuple(inner[1]), (25, 25, 25), -1, cv2.LINE_AA)
    return img


def _poly(canvas: Canvas, pts: np.ndarray) -> np.ndarray:
    return np.round(canvas.px(pts) * ONE).astype(np.int32)


def _shade(color: tuple[int, int, int], f: float) -> tuple[int, int, int]:
    return tuple(int(min(255, c * f)) for c in color)


def paint_tiles(
    img: np.ndarray,
    canvas: Canvas,
    tiles_: Placements,
    tileset: Tileset,
    style: Style,
    camera: CameraModel,
    shadows: bool = True,
) -> np.ndarray:
    """Draw every placement onto ``img`` (in place) and return the (N, 4, 2) top-face corners in mm
    on the felt plane, i.e. where the camera sees each tile's visible face."""
    if not len(tiles_):
        return np.zeros((0, 4, 2), np.float32)
    a = tiles_.arrays()
    base = tiles_.corners()  # (N, 4, 2) at the felt
    height = _heights(a)
    top = _tops(base, height, camera)
    if shadows:
        _paint_shadows(img, canvas, base, camera)
    # far tiles first so nearer, taller ones overlap them correctly
    order = np.argsort(-np.linalg.norm(np.stack([a["x"], a["y"]], 1) - camera.nadir, axis=1))
    for i in order:
        code = tiles_.code[i]
        look = int(a["look"][i])
        if code == STICK:
            _paint_stick(img, canvas, top[i])
            continue
        hull = cv2.convexHull(np.concatenate([base[i], top[i]]).astype(np.float32)).reshape(-1, 2)
        mid = camera.lift_to_felt(base[i], np.full(4, height[i] * 0.55))
        if look == FACE_UP:
            cv2.fillConvexPoly(img, _poly(canvas, hull), _shade(style.back, 0.85), cv2.LINE_AA, SHIFT)
            upper = cv2.convexHull(np.concatenate([mid, top[i]]).astype(np.float32)).reshape(-1, 2)
            cv2.fillConvexPoly(img, _poly(canvas, upper), _shade(style.ivory, 0.8), cv2.LINE_AA, SHIFT)
            _paint_face(img, canvas, top[i], tileset, code, style)
        elif look == FACE_DOWN:
            cv2.fillConvexPoly(img, _poly(canvas, hull), _shade(style.ivory, 0.78), cv2.LINE_AA, SHIFT)
            upper = cv2.convexHull(np.concatenate([mid, top[i]]).astype(np.float32)).reshape(-1, 2)
            cv2.fillConvexPoly(img, _poly(canvas, upper), _shade(style.back, 0.8), cv2.LINE_AA, SHIFT)
            _paint_back(img, canvas, top[i], style)
        else:
            cv2.fillConvexPoly(img, _poly(canvas, hull), _shade(style.back, 0.75), cv2.LINE_AA, SHIFT)
            _paint_standing_top(img, canvas, top[i], style)
    return top.astype(np.float32)


def _heights(a: dict) -> np.ndarray:
    lift = a["lift"]
    return np.where(a["look"] == STANDING, lift, np.where(lift > 0, lift, TILE_T))


def tile_tops(tiles_: Placements, camera: CameraModel) -> np.ndarray:
    """(N, 4, 2) top-face corners in mm on the felt plane (where the camera sees each tile's
    visible face), without painting: what ``paint_tiles`` returns."""
    if not len(tiles_):
        return np.zeros((0, 4, 2), np.float32)
    return _tops(tiles_.corners(), _heights(tiles_.arrays()), camera).astype(np.float32)


def _tops(base: np.ndarray, height: np.ndarray, camera: CameraModel) -> np.ndarray:
    return camera.lift_to_felt(base.reshape(-1, 2), np.repeat(height, 4)).reshape(-1, 4, 2)


def _paint_shadows(img: np.ndarray, canvas: Canvas, base: np.ndarray, camera: CameraModel) -> None:
    """Soft contact shadows: the footprints grown a little, blurred, darkening the felt."""
    n = canvas.size
    small = 4  # shadows are soft: draw them at a quarter resolution
    mask = np.zeros((n // small + 1, n // small + 1), np.uint8)
    centre = base.mean(axis=1, keepdims=True)
    grown = centre + (base - centre) * 1.08 + np.array([2.5, 3.5])  # light from the upper left
    pts = np.round(canvas.px(grown.reshape(-1, 2)).reshape(-1, 4, 2) / small * ONE).astype(np.int32)
    cv2.fillPoly(mask, list(pts), 255, cv2.LINE_AA, SHIFT)
    mask = cv2.GaussianBlur(mask, (0, 0), max(1.0, canvas.scale * 2.5 / small))
    mask = cv2.resize(mask, (n, n), interpolation=cv2.INTER_LINEAR)
    gain = 255 - (mask.astype(np.uint16) * 110 // 255).astype(np.uint8)
    cv2.multiply(img, cv2.merge([gain, gain, gain]), img, scale=1 / 255)


def _affine_paste(img: np.ndarray, canvas: Canvas, quad_mm: np.ndarray, src: np.ndarray) -> None:
    """Warp a BGRA image onto the quad (top-left, top-right, bottom-right, bottom-left) with alpha."""
    dst = canvas.px(quad_mm).astype(np.float32)
    x0, y0 = np.floor(dst.min(0)).astype(int) - 1
    x1, y1 = np.ceil(dst.max(0)).astype(int) + 1
    h_img, w_img = img.shape[:2]
    x0c, y0c, x1c, y1c = max(x0, 0), max(y0, 0), min(x1, w_img), min(y1, h_img)
    if x1c <= x0c or y1c <= y0c:
        return
    h, w = src.shape[:2]
    m = cv2.getAffineTransform(np.float32([[0, 0], [w, 0], [w, h]]), dst[:3] - np.float32([x0c, y0c]))
    patch = cv2.warpAffine(
        src,
        m,
        (x1c - x0c, y1c - y0c),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=(0, 0, 0, 0),
    )
    alpha = patch[..., 3:4].astype(np.float32) / 255.0
    roi = img[y0c:y1c, x0c:x1c]
    roi[:] = (roi * (1 - alpha) + patch[..., :3] * alpha).astype(np.uint8)


def _paint_face(
    img: np.ndarray, canvas: Canvas, quad: np.ndarray, tileset: Tileset, code: str, style: Style
) -> None:
    width_px = int(np.ceil(np.linalg.norm(quad[1] - quad[0]) * canvas.scale * 1.5)) + 2
    face = tileset.face(code, width_px)
    # ivory top with a slightly darker rim, then the art inset a little
    cv2.fillConvexPoly(img, _poly(canvas, quad), _shade(style.ivory, 0.92), cv2.LINE_AA, SHIFT)
    c = quad.mean(0)
    # real faces keep an ivory margin around the engraving
    _affine_paste(img, canvas, c + (quad - c) * np.array([0.86, 0.9]), face)
    # a glossy rim along the edge nearest the light
    edge = quad[[0, 1]] * 0.85 + c * 0.15
    cv2.line(
        img,
        *[tuple(np.round(canvas.px(p) * ONE).astype(int)) for p in edge],
        _shade(style.ivory, 1.12),
        max(1, int(canvas.scale * 0.8)),
        cv2.LINE_AA,
        SHIFT,
    )


def _paint_back(img: np.ndarray, canvas: Canvas, quad: np.ndarray, style: Style) -> None:
    cv2.fillConvexPoly(img, _poly(canvas, quad), style.back, cv2.LINE_AA, SHIFT)
    c = quad.mean(0)
    cv2.polylines(
        img, [_poly(canvas, c + (quad - c) * 0.9)], True, _shade(style.back, 1.12), 1, cv2.LINE_AA, SHIFT
    )


def _paint_standing_top(img: np.ndarray, canvas: Canvas, quad: np.ndarray, style: Style) -> None:
    """The top edge of a standing tile: ivory on the player's (face) side, back colour behind."""
    near = quad[[3, 2]]  # bottom edge of the footprint = the face side, toward the player
    far = quad[[0, 1]]
    mid = (near + far) / 2
    cv2.fillConvexPoly(
        img, _poly(canvas, np.array([far[0], far[1], mid[1], mid[0]])), style.back, cv2.LINE_AA, SHIFT
    )
    cv2.fillConvexPoly(
        img, _poly(canvas, np.array([mid[0], mid[1], near[1], near[0]])), style.ivory, cv2.LINE_AA, SHIFT
    )


def _paint_stick(img: np.ndarray, canvas: Canvas, quad: np.ndarray) -> None:
    cv2.fillConvexPoly(img, _poly(canvas, quad), (235, 240, 240), cv2.LINE_AA, SHIFT)
    c = canvas.px(quad.mean(0)).astype(int)
    cv2.circle(img, tuple(c), max(1, int(canvas.scale * 2.5)), (40, 40, 200), -1, cv2.LINE_AA)
