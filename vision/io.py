"""Image file I/O for the vision stage: one-line errors that name the file."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np


class ImageError(OSError):
    """An image file is missing or cannot be decoded."""


def read_image(path: str | Path) -> np.ndarray:
    """(H, W, 3) uint8 BGR pixels of an image file; ImageError naming the file otherwise."""
    path = Path(path)
    if not path.is_file():
        raise ImageError(f"image not found: {path}")
    data = np.fromfile(str(path), dtype=np.uint8)
    image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if image is None:
        raise ImageError(f"cannot decode image: {path}")
    return image
