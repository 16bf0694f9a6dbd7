"""From the felt canvas to a camera frame: warp, lens softness, uneven light, glare, sensor noise."""

from __future__ import annotations

import cv2
import numpy as np

from datasets.scene.camera import CameraModel
from datasets.scene.painter import Canvas
from datasets.scene.style import Style


class Optics:
    """Everything per-video is precomputed; ``frame()`` costs one remap and a few uint8 ops."""

    def __init__(
        self,
        camera: CameraModel,
        canvas: Canvas,
        style: Style,
        rng: np.random.Generator,
        noise_frames: int = 6,
    ):
        self.camera = camera
        self.canvas = canvas
        p = camera.preset
        self.map1, self.map2 = camera.remap_maps(canvas.scale, canvas.half)
        h, w = p.height, p.width
        ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
        cx, cy = w / 2, h / 2
        r = np.hypot((xs - cx) / w, (ys - cy) / h)
        vignette = 1 - 0.35 * r**2
        dx, dy = np.cos(style.light_angle), np.sin(style.light_angle)
        gradient = 1 + style.light_strength * (((xs - cx) / w) * dx + ((ys - cy) / h) * dy)
        self.gain = np.clip(vignette * gradient * 255 / 1.15, 0, 255).astype(np.uint8)
        self.gain3 = cv2.merge([self.gain] * 3)
        gx, gy = cx + dx * w * 0.25, cy + dy * h * 0.25
        glare = np.exp(-(((xs - gx) / (w * 0.12)) ** 2 + ((ys - gy) / (h * 0.1)) ** 2))
        self.glare = cv2.merge([(glare * 60 * style.glare).astype(np.uint8)] * 3)
        sigma = p.noise
        self.noise_pos = []
        self.noise_neg = []
        for _ in range(noise_frames):
            n = rng.normal(0, sigma, (h, w, 1)).astype(np.float32)
            n = np.repeat(n, 3, axis=2) + rng.normal(0, sigma * 0.4, (h, w, 3)).astype(np.float32)
            self.noise_pos.append(np.clip(n, 0, 255).astype(np.uint8))
            self.noise_neg.append(np.clip(-n, 0, 255).astype(np.uint8))
        self.blur = p.blur

    def frame(self, canvas_img: np.ndarray, index: int) -> np.ndarray:
        out = cv2.remap(canvas_img, self.map1, self.map2, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        if self.blur > 0.3:
            out = cv2.GaussianBlur(out, (0, 0), self.blur)
        cv2.multiply(out, self.gain3, out, scale=1.15 / 255)
        cv2.add(out, self.glare, out)
        k = index % len(self.noise_pos)
        cv2.add(out, self.noise_pos[k], out)
        cv2.subtract(out, self.noise_neg[k], out)
        return out
