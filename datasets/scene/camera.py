"""The camera: a pinhole looking at the table, mild barrel distortion, presets.

Table coordinates are millimetres, x right, y toward seat 0 (image down), z up from the felt. A
point at height z is seen where the ray through it meets the felt, so everything is painted on one
felt-plane canvas with raised things moved and scaled about the camera's nadir (``lift_to_felt``),
then warped to the image by one homography plus distortion (``CameraModel.remap_maps``).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from pydantic import BaseModel, ConfigDict


class CameraPreset(BaseModel):
    model_config = ConfigDict(frozen=True)

    width: int
    height: int
    tilt_deg: float  # off vertical, camera moved back behind seat 0's edge
    height_mm: float  # camera height above the felt
    view_mm: float  # table extent (mm) the image height spans at the centre
    k1: float  # radial distortion
    noise: float  # sensor noise sigma (8-bit levels)
    blur: float  # lens softness (gaussian sigma, px)
    crf: int  # H.264 quality


PRESETS = {
    "overhead": CameraPreset(
        width=1920,
        height=1080,
        tilt_deg=0.0,
        height_mm=1500,
        view_mm=1080,
        k1=-0.04,
        noise=2.5,
        blur=0.5,
        crf=23,
    ),
    "tilted": CameraPreset(
        width=1280,
        height=720,
        tilt_deg=15.0,
        height_mm=1400,
        view_mm=1100,
        k1=-0.06,
        noise=3.0,
        blur=0.6,
        crf=24,
    ),
    "low": CameraPreset(
        width=1280,
        height=720,
        tilt_deg=5.0,
        height_mm=1300,
        view_mm=1120,
        k1=-0.08,
        noise=6.0,
        blur=1.1,
        crf=30,
    ),
}


def corner_r2(size: tuple[int, int], focal: float) -> float:
    """The image corner's squared radius in coordinates normalised by the focal length: the
    lens distortion's strength ``k1`` is given there."""
    return (np.hypot(*size) / 2 / focal) ** 2


def distort(norm: np.ndarray, k1: float, r2_corner: float) -> np.ndarray:
    """Undistorted image coordinates normalised by the focal length -> where the lens puts them:
    ``x_d = x_u (1 + k1 r^2 / r_corner^2)`` (the renderer's lens, as ``truth.json`` describes
    it; ``r2_corner`` from ``corner_r2``)."""
    r2 = (norm**2).sum(axis=-1, keepdims=True)
    return norm * (1 + k1 / r2_corner * r2)


@dataclass
class CameraModel:
    preset: CameraPreset
    yaw_deg: float = 0.0  # small rotation of the table in the image
    offset: tuple[float, float] = (0.0, 0.0)  # table centre offset in the image (px)

    def __post_init__(self) -> None:
        p = self.preset
        t = np.deg2rad(p.tilt_deg)
        back = p.height_mm * np.tan(t)
        self.centre = np.array([0.0, back, p.height_mm])  # camera position; nadir is (0, back)
        # world -> camera: straight down, then pitched by the tilt to look at the table centre
        down = np.array([[1, 0, 0], [0, 1, 0], [0, 0, -1]], float)
        pitch = np.array([[1, 0, 0], [0, np.cos(t), np.sin(t)], [0, -np.sin(t), np.cos(t)]])
        yaw = np.deg2rad(self.yaw_deg)
        roll = np.array([[np.cos(yaw), -np.sin(yaw), 0], [np.sin(yaw), np.cos(yaw), 0], [0, 0, 1]])
        self.rotation = roll @ pitch @ down
        dist = float(np.linalg.norm(self.centre))
        self.focal = p.height / 2 * dist / (p.view_mm / 2)
        self.principal = np.array([p.width / 2 + self.offset[0], p.height / 2 + self.offset[1]])

    @property
    def nadir(self) -> np.ndarray:
        return self.centre[:2]

    def project(self, points: np.ndarray) -> np.ndarray:
        """(N, 3) table points (mm) -> (N, 2) image pixels, distortion included."""
        pts = np.asarray(points, float).reshape(-1, 3)
        cam = (pts - self.centre) @ self.rotation.T
        norm = cam[:, :2] / cam[:, 2:3]
        return distort(norm, self.preset.k1, self._r2_scale) * self.focal + self.principal

    @property
    def size(self) -> tuple[int, int]:
        return self.preset.width, self.preset.height

    @property
    def _r2_scale(self) -> float:
        return corner_r2(self.size, self.focal)

    def homography_felt_to_ideal(self) -> np.ndarray:
        """3x3 homography from felt (x, y mm, z=0) to undistorted image pixels."""
        k = np.array([[self.focal, 0, self.principal[0]], [0, self.focal, self.principal[1]], [0, 0, 1]])
        r = self.rotation
        t = -r @ self.centre
        return k @ np.column_stack([r[:, 0], r[:, 1], t])

    def lift_to_felt(self, xy: np.ndarray, z: np.ndarray | float) -> np.ndarray:
        """Where on the felt a point at height z appears: moved away from the nadir."""
        factor = self.centre[2] / (self.centre[2] - np.asarray(z, float))
        return self.nadir + (np.asarray(xy, float) - self.nadir) * np.reshape(factor, (-1, 1))

    def remap_maps(self, canvas_scale: float, canvas_half: float) -> tuple[np.ndarray, np.ndarray]:
        """cv2.remap maps: for each image pixel, the felt-canvas pixel it shows."""
        w, h = self.preset.width, self.preset.height
        ys, xs = np.mgrid[0:h, 0:w].astype(np.float64)
        norm = np.stack([(xs - self.principal[0]) / self.focal, (ys - self.principal[1]) / self.focal], -1)
        undist = norm.copy()
        k = self.preset.k1 / self._r2_scale
        for _ in range(5):  # invert x_d = x_u (1 + k r_u^2) by fixed point
            r2 = (undist**2).sum(-1, keepdims=True)
            undist = norm / (1 + k * r2)
        ideal = undist * self.focal + self.principal
        hinv = np.linalg.inv(self.homography_felt_to_ideal())
        pts = np.concatenate([ideal, np.ones((h, w, 1))], -1) @ hinv.T
        felt = pts[..., :2] / pts[..., 2:3]
        map_x = ((felt[..., 0] + canvas_half) * canvas_scale).astype(np.float32)
        map_y = ((felt[..., 1] + canvas_half) * canvas_scale).astype(np.float32)
        return cv2.convertMaps(map_x, map_y, cv2.CV_16SC2)

    def mm_per_px_at_centre(self) -> float:
        return self.preset.view_mm / self.preset.height
