"""Calibration: where the table lies in the image, as a homography from table mm to image px.

``find_table`` looks for the playing surface: the largest region of one uniform colour (the felt)
around the image centre, takes its convex outline (tiles, the centre panel and arms inside or on
it do not matter) and fits a quadrilateral to it; the quadrilateral's corners are the felt square's
corners, which fixes the homography. Table coordinates: mm from the centre, x right and y toward
seat 0 as seen from above; ``seat0_edge`` says which image edge seat 0 sits at (None until the
tracker sees the first discard, which names the first dealer).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Literal

import cv2
import numpy as np
from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

EDGES = ("bottom", "right", "top", "left")  # counterclockwise seen from above, as seats go
Edge = Literal["bottom", "right", "top", "left"]
FELT_HALF_MM = 495.0  # half the felt square (the renderer's table: 480 mm play area + 15 mm)
TILE_W_MM = 26.0
# the smallest tile face, in image px, the detector is made and measured for (14-64 px): below it
# faces blur into one another (960x540 low camera, 12 px: 2m/3m/8m and the winds confused)
MIN_READABLE_TILE_PX = 14.0


class CalibrationError(Exception):
    """No table could be found; the message says why, in one line."""


class Calibration(BaseModel):
    """A saved calibration (``mjmon calibrate SOURCE --out FILE``)."""

    model_config = ConfigDict(frozen=True)

    width: int
    height: int
    homography: list[list[float]]  # 3x3, image-edge table mm (seat 0 at the image bottom) -> px
    felt_half_mm: float = FELT_HALF_MM
    seat0_edge: Edge | None = None
    corners_px: list[list[float]] = []  # the felt square's corners found in the image

    @field_validator("homography")
    @classmethod
    def _invertible(cls, h: list[list[float]]) -> list[list[float]]:
        m = np.asarray(h, np.float64)
        if m.shape != (3, 3) or not np.isfinite(m).all() or abs(np.linalg.det(m)) < 1e-12:
            raise ValueError("homography must be a finite, invertible 3x3 matrix")
        return h

    # --- geometry ---------------------------------------------------------------------------

    @property
    def h(self) -> np.ndarray:
        return np.asarray(self.homography, np.float64)

    def image_to_table(self, px: np.ndarray) -> np.ndarray:
        """(N, 2) image px -> (N, 2) mm, in the frame where the image bottom edge is toward y+."""
        pts = np.asarray(px, np.float64).reshape(-1, 1, 2)
        if not len(pts):
            return np.zeros((0, 2))
        return cv2.perspectiveTransform(pts, np.linalg.inv(self.h)).reshape(-1, 2)

    def table_to_image(self, mm: np.ndarray) -> np.ndarray:
        pts = np.asarray(mm, np.float64).reshape(-1, 1, 2)
        if not len(pts):
            return np.zeros((0, 2))
        return cv2.perspectiveTransform(pts, self.h).reshape(-1, 2)

    def px_per_mm(self) -> float:
        """Image px per table mm at the table centre."""
        p = self.table_to_image(np.array([[-50.0, 0.0], [50.0, 0.0], [0.0, -50.0], [0.0, 50.0]]))
        return float((np.linalg.norm(p[1] - p[0]) + np.linalg.norm(p[3] - p[2])) / 200.0)

    def tile_px(self) -> float:
        """Width of a tile face in image px at the table centre (the detector's scale)."""
        return TILE_W_MM * self.px_per_mm()

    def small_tiles_warning(self) -> str | None:
        """A line for the user when tiles are smaller than the detector reads reliably."""
        px = self.tile_px()
        if px >= MIN_READABLE_TILE_PX:
            return None
        return (
            f"tiles are {px:.1f} px wide in this view, under the {MIN_READABLE_TILE_PX:.0f} px the detector "
            "is made for: expect misread faces; record at a higher resolution or bring the camera closer"
        )

    def rectify(self, image: np.ndarray, px_per_mm: float = 1.0) -> np.ndarray:
        """Top-down image of the felt square at a fixed scale (seat-0-at-bottom orientation)."""
        half = self.felt_half_mm
        size = int(round(2 * half * px_per_mm))
        to_rect = np.array([[px_per_mm, 0, half * px_per_mm], [0, px_per_mm, half * px_per_mm], [0, 0, 1]])
        return cv2.warpPerspective(image, to_rect @ np.linalg.inv(self.h), (size, size))

    # --- files ------------------------------------------------------------------------------

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.model_dump(), indent=1) + "\n")

    @classmethod
    def load(cls, path: str | Path) -> Calibration:
        try:
            return cls.model_validate_json(Path(path).read_text())
        except FileNotFoundError:
            raise CalibrationError(f"calibration file not found: {path}") from None
        except ValidationError as err:
            first = err.errors()[0]
            where = ".".join(str(x) for x in first["loc"]) or "file"
            raise CalibrationError(f"bad calibration file {path}: {where}: {first['msg']}") from None
        except ValueError as err:
            first = str(err).strip().splitlines()[0]
            raise CalibrationError(f"bad calibration file {path}: {first}") from None


# --- finding the table ---------------------------------------------------------------------

WORK_WIDTH = 640  # analyse a downscaled frame: the felt edge needs no more
SHADE_CUT_CORNER_PX = 10.0  # at WORK_WIDTH; see ``table_corners``


def felt_mask(image: np.ndarray) -> np.ndarray:
    """(h, w) uint8 mask of the dominant uniform colour around the image centre (the felt)."""
    return _felt_mask(_lab(image))


def _felt_mask(lab: np.ndarray) -> np.ndarray:
    """``felt_mask`` of an image's blurred Lab pixels (``_lab``)."""
    h, w = lab.shape[:2]
    # sample a ring between the centre panel and the walls, where felt is most of what shows
    ys, xs = np.mgrid[0:h, 0:w]
    r = np.hypot((xs - w / 2) / (h / 2), (ys - h / 2) / (h / 2))
    ring = lab[(r > 0.3) & (r < 0.75)]
    # mode of a coarse colour histogram: robust to tiles, arms and the panel
    q = (ring // 8).astype(np.int32)
    keys = q[:, 0] * 1024 + q[:, 1] * 32 + q[:, 2]
    mode = np.bincount(keys).argmax()
    centre = np.array([mode // 1024, (mode // 32) % 32, mode % 32]) * 8 + 4
    near = np.abs(ring - centre).sum(axis=1) < 30
    felt = np.median(ring[near], axis=0) if near.any() else centre
    return _opened(_near_colour(lab, felt))


def shaded_felt_mask(lab: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The felt mask again (of an image's ``_lab`` pixels), each pixel compared with the felt's
    colour where it lies: a plane in x, y fitted to the felt ``mask`` found with one colour. The
    light falls off across a table; a far edge in shade can fall out of the one-colour mask and
    take a corner with it."""
    h, w = mask.shape
    ys, xs = np.nonzero(mask)
    if len(xs) < 100:
        return mask
    pick = np.linspace(0, len(xs) - 1, min(len(xs), 5000)).astype(np.int64)
    ys, xs = ys[pick], xs[pick]
    design = np.stack([np.ones(len(xs)), xs / w, ys / h], axis=1)
    coef, *_ = np.linalg.lstsq(design, lab[ys, xs].astype(np.float64), rcond=None)
    gy, gx = np.mgrid[0:h, 0:w]
    felt = np.stack([np.ones((h, w)), gx / w, gy / h], axis=-1) @ coef
    return _opened(_near_colour(lab, felt))


def _lab(image: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(cv2.GaussianBlur(image, (5, 5), 0), cv2.COLOR_BGR2LAB).astype(np.int16)


def _near_colour(lab: np.ndarray, felt: np.ndarray) -> np.ndarray:
    """255 where ``lab`` is near the felt's colour (one Lab colour, or one per pixel)."""
    dist = np.abs(lab - felt).astype(np.float32)
    d = dist[..., 0] * 0.5 + dist[..., 1] + dist[..., 2]  # lightness varies with the light; hue less
    return (d < 28).astype(np.uint8) * 255


def _opened(mask: np.ndarray) -> np.ndarray:
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel)


def table_corners(image: np.ndarray) -> np.ndarray:
    """(4, 2) image px of the felt square's corners, ordered TL, TR, BR, BL in the image."""
    small, scale = work_image(image)
    quad, shaded = felt_quads(small)
    # the one-colour felt's edges are the crisper (they end where the felt does); a corner the
    # shaded felt puts this far away was cut off by shade (set 8 t6-confusing_nakis_7: 40 px)
    if shade_shift_px(quad, shaded) > SHADE_CUT_CORNER_PX:
        quad = shaded
    return quad / scale


def work_image(image: np.ndarray) -> tuple[np.ndarray, float]:
    """The image downscaled to ``WORK_WIDTH`` (never up), and the scale applied."""
    h0, w0 = image.shape[:2]
    scale = WORK_WIDTH / w0 if w0 > WORK_WIDTH else 1.0
    small = cv2.resize(image, (round(w0 * scale), round(h0 * scale)), interpolation=cv2.INTER_AREA)
    return small, scale


def calibration_frames(frames: list[np.ndarray]) -> list[np.ndarray]:
    """The frames ``calibrate_frames`` looks at: about 8, spread over those given."""
    return frames[:: max(1, len(frames) // 8)]


def felt_quads(small: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(one-colour, shaded) felt corners of an image already at ``WORK_WIDTH`` (``felt_mask``,
    ``shaded_felt_mask``); the shaded ones are the one-colour ones where that mask is no square."""
    lab = _lab(small)
    mask = _felt_mask(lab)
    quad = _felt_quad(mask)
    try:
        return quad, _felt_quad(shaded_felt_mask(lab, mask))
    except CalibrationError:
        return quad, quad


def shade_shift_px(quad: np.ndarray, shaded: np.ndarray) -> float:
    """How far (px) the shaded felt moves a corner of the one-colour felt's quad."""
    return float(np.linalg.norm(shaded - quad, axis=1).max())


def _felt_quad(mask: np.ndarray) -> np.ndarray:
    """(4, 2) ordered corners of the largest region of ``mask``, a filled quadrilateral."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    if count < 2:
        raise CalibrationError("no table in view: no uniform felt region found")
    big = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    area = stats[big, cv2.CC_STAT_AREA]
    h, w = mask.shape
    if area < 0.12 * h * w:
        raise CalibrationError(
            f"no table in view: the largest uniform region covers {area / (h * w):.0%} of the image"
        )
    if area > 0.9 * h * w:
        raise CalibrationError("no table in view: one uniform colour fills the view, no table edges")
    contours, _ = cv2.findContours((labels == big).astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    hull = cv2.convexHull(max(contours, key=cv2.contourArea))
    quad = _fit_quad(hull)
    if quad is None:
        raise CalibrationError("no table in view: the felt region is not a quadrilateral")
    hull_area = cv2.contourArea(hull)
    if cv2.contourArea(quad.astype(np.float32)) < 0.85 * hull_area or area < 0.6 * hull_area:
        raise CalibrationError("no table in view: the uniform region is not a filled square")
    return _order(quad)


def _fit_quad(hull: np.ndarray) -> np.ndarray | None:
    peri = cv2.arcLength(hull, True)
    for frac in (0.01, 0.015, 0.02, 0.03, 0.04, 0.06, 0.08):
        approx = cv2.approxPolyDP(hull, frac * peri, True)
        if len(approx) == 4:
            return _refine(approx.reshape(4, 2).astype(np.float64), hull.reshape(-1, 2).astype(np.float64))
    return None


def _refine(quad: np.ndarray, hull: np.ndarray) -> np.ndarray:
    """Fit a line to the hull points along each side and intersect neighbours: corners from edges."""
    lines = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        d = b - a
        length = np.linalg.norm(d)
        t = ((hull - a) @ d) / (length**2)
        rel = hull - a
        off = np.abs(d[0] * rel[:, 1] - d[1] * rel[:, 0]) / length
        near = (t > 0.1) & (t < 0.9) & (off < 0.02 * length + 2)
        pts = hull[near] if near.sum() >= 2 else np.stack([a, b])
        vx, vy, x0, y0 = cv2.fitLine(pts.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append((np.array([x0, y0]), np.array([vx, vy])))
    out = []
    for i in range(4):
        (p1, d1), (p2, d2) = lines[i - 1], lines[i]
        m = np.array([d1, -d2]).T
        if abs(np.linalg.det(m)) < 1e-9:
            out.append(quad[i])
            continue
        s = np.linalg.solve(m, p2 - p1)
        out.append(p1 + s[0] * d1)
    return np.array(out)


def _order(quad: np.ndarray) -> np.ndarray:
    """Order four points TL, TR, BR, BL by angle around their centre."""
    c = quad.mean(axis=0)
    ang = np.arctan2(quad[:, 1] - c[1], quad[:, 0] - c[0])  # image y down: -pi..pi starting left
    q = quad[np.argsort(ang)]  # from the left going up (counterclockwise on screen): TL first after -pi
    # argsort from -pi: the first point is the one up-left (angle near -3pi/4): TL, TR, BR, BL
    return q


def calibrate_frames(frames: list[np.ndarray], felt_half_mm: float = FELT_HALF_MM) -> Calibration:
    """Calibration from the first frames: the median of per-frame corners (arms come and go)."""
    if not frames:
        raise CalibrationError("no frames to calibrate from")
    found, last = [], None
    for image in calibration_frames(frames):
        try:
            found.append(table_corners(image))
        except CalibrationError as err:
            last = err
    if not found:
        raise last or CalibrationError("no table in view")
    corners = np.median(np.stack(found), axis=0)
    half = felt_half_mm
    mm = np.array([[-half, -half], [half, -half], [half, half], [-half, half]], np.float64)
    hmat = cv2.getPerspectiveTransform(mm.astype(np.float32), corners.astype(np.float32))
    hmat = hmat / hmat[2, 2]
    h, w = frames[0].shape[:2]
    return Calibration(
        width=w,
        height=h,
        homography=hmat.tolist(),
        felt_half_mm=felt_half_mm,
        corners_px=np.round(corners, 2).tolist(),
    )


def calibrate_video(source: str | Path, seconds: float = 2.0) -> Calibration:
    from vision.video import VideoError, first_frames

    try:
        frames = first_frames(source, seconds)
    except VideoError as err:
        raise CalibrationError(str(err)) from None
    return calibrate_frames(frames)
