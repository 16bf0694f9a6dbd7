"""Tile face art: a directory of PNGs named by tile code (DESIGN.md). Bodies, edges and backs are
the renderer's own; a tileset only gives faces, so any art set drops in."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from tracker import tiles

DEFAULT_TILESET = Path(__file__).parent / "art" / "default"
FACE_CODES = tiles.KINDS34 + tiles.RED_FIVES + tiles.BONUS


class TilesetError(ValueError):
    pass


class Tileset:
    """Faces as BGRA uint8 arrays; a missing red five falls back to the plain five, a missing bonus
    tile to None (the renderer then cannot draw it and says so)."""

    def __init__(self, directory: str | Path):
        self.directory = Path(directory)
        if not self.directory.is_dir():
            raise TilesetError(f"tileset {self.directory}: not a directory")
        self.faces: dict[str, np.ndarray] = {}
        for code in FACE_CODES:
            path = self.directory / f"{code}.png"
            if path.exists():
                img = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
                if img is None:
                    raise TilesetError(f"tileset {self.directory}: cannot read {path.name}")
                self.faces[code] = _to_bgra(img)
        missing = [c for c in tiles.KINDS34 if c not in self.faces]
        if missing:
            raise TilesetError(f"tileset {self.directory}: missing faces {', '.join(missing)}")
        for red in tiles.RED_FIVES:
            self.faces.setdefault(red, self.faces[red[:2]])
        self.name = self.directory.name
        self._scaled: dict[tuple[str, int], np.ndarray] = {}

    def face(self, code: str, width_px: int) -> np.ndarray:
        """The face resized to ``width_px`` wide (aspect kept), cached."""
        key = (code, width_px)
        if key not in self._scaled:
            art = self.faces.get(code)
            if art is None:
                raise TilesetError(f"tileset {self.name} has no face for {code}")
            h = max(2, round(width_px * art.shape[0] / art.shape[1]))
            self._scaled[key] = cv2.resize(art, (max(2, width_px), h), interpolation=cv2.INTER_AREA)
        return self._scaled[key]

    def has(self, code: str) -> bool:
        return code in self.faces

    def alike_turned_half(self, code: str) -> bool:
        """Does ``code``'s face look the same turned 180 degrees (its quarter turn then cannot be
        told from the opposite one)? Measured on the face drawn a tile's width at a camera's
        scale on a light body: the mean difference from its half-turned self against its own
        mean deviation, under ``HALF_TURN_ALIKE``."""
        art = self.face(code, 26).astype(np.float32)
        alpha = art[..., 3:4] / 255.0
        grey = (art[..., :3] * alpha + 240.0 * (1 - alpha)).mean(axis=2)
        spread = float(np.abs(grey - grey.mean()).mean())
        return spread > 0 and float(np.abs(grey - grey[::-1, ::-1]).mean()) < HALF_TURN_ALIKE * spread


# the default art's 16 dot, bamboo and white-dragon faces drawn point-symmetric score 0.02-0.13,
# every other face 0.5 or more (2m 0.94, S 0.72, C 0.67)
HALF_TURN_ALIKE = 0.3


def _to_bgra(img: np.ndarray) -> np.ndarray:
    if img.ndim == 2:
        img = cv2.cvtColor(img, cv2.COLOR_GRAY2BGRA)
    elif img.shape[2] == 3:
        img = cv2.cvtColor(img, cv2.COLOR_BGR2BGRA)
    return img


def load_tileset(directory: str | Path | None) -> Tileset:
    return Tileset(directory if directory is not None else DEFAULT_TILESET)
