"""``TileDetections``: every tile found in one image, as a struct of arrays."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from tracker.tiles import MODEL_CLASSES

_CODES = np.asarray(MODEL_CLASSES, dtype=object)


@dataclass(frozen=True)
class TileDetections:
    """N tiles of one image.

    ``boxes`` (N, 4) float32 x1 y1 x2 y2 in the image's pixels; ``class_ids`` (N,) int64 into
    ``tracker.tiles.MODEL_CLASSES``; ``angles`` (N,) int64 in {0, 90, 180, 270}: how far the tile is
    turned counterclockwise from upright in the image; ``face_up`` (N,) bool; ``confidence`` (N,)
    float32 in [0, 1]. ``runner_up`` (N,) int64: the face class read next most likely (-1 for a
    face-down tile, or where unknown), ``runner_up_confidence`` (N,) float32 its score on
    ``confidence``'s scale; both default to unknown. The game's four copies of a kind can then
    overrule a face read once too often (``tracker.copies``). Index with a boolean mask or an index
    array to select tiles.
    """

    boxes: np.ndarray
    class_ids: np.ndarray
    angles: np.ndarray
    face_up: np.ndarray
    confidence: np.ndarray
    runner_up: np.ndarray | None = field(default=None)
    runner_up_confidence: np.ndarray | None = field(default=None)

    def __post_init__(self) -> None:
        n = len(self.class_ids)
        if self.runner_up is None:
            object.__setattr__(self, "runner_up", np.full(n, -1, np.int64))
        if self.runner_up_confidence is None:
            object.__setattr__(self, "runner_up_confidence", np.zeros(n, np.float32))
        shapes = {
            "boxes": (self.boxes.shape, (n, 4)),
            "angles": (self.angles.shape, (n,)),
            "face_up": (self.face_up.shape, (n,)),
            "confidence": (self.confidence.shape, (n,)),
            "runner_up": (self.runner_up.shape, (n,)),
            "runner_up_confidence": (self.runner_up_confidence.shape, (n,)),
        }
        for name, (got, want) in shapes.items():
            if got != want:
                raise ValueError(f"TileDetections.{name} has shape {got}, expected {want}")
        if self.class_ids.ndim != 1:
            raise ValueError(f"TileDetections.class_ids must be 1-D, got shape {self.class_ids.shape}")

    @classmethod
    def empty(cls) -> TileDetections:
        return cls(
            boxes=np.zeros((0, 4), np.float32),
            class_ids=np.zeros(0, np.int64),
            angles=np.zeros(0, np.int64),
            face_up=np.zeros(0, bool),
            confidence=np.zeros(0, np.float32),
        )

    def __len__(self) -> int:
        return len(self.class_ids)

    def __getitem__(self, index) -> TileDetections:
        """Select tiles by boolean mask (N,), index array or slice; always returns TileDetections."""
        if isinstance(index, int | np.integer):
            index = [index]
        return TileDetections(
            boxes=self.boxes[index].reshape(-1, 4),
            class_ids=np.atleast_1d(self.class_ids[index]),
            angles=np.atleast_1d(self.angles[index]),
            face_up=np.atleast_1d(self.face_up[index]),
            confidence=np.atleast_1d(self.confidence[index]),
            runner_up=np.atleast_1d(self.runner_up[index]),
            runner_up_confidence=np.atleast_1d(self.runner_up_confidence[index]),
        )

    @property
    def codes(self) -> np.ndarray:
        """(N,) object array of tile codes."""
        return _CODES[self.class_ids]

    @property
    def centres(self) -> np.ndarray:
        """(N, 2) float32 box centres."""
        return (self.boxes[:, :2] + self.boxes[:, 2:]) / 2

    def to_records(self) -> list[dict]:
        """JSON-ready rows ``{code, box, angle, face_up, confidence}`` (the ``mjmon detect`` format)."""
        boxes = np.round(self.boxes.astype(np.float64), 1).tolist()
        conf = np.round(self.confidence.astype(np.float64), 4).tolist()
        return [
            {"code": c, "box": b, "angle": int(a), "face_up": bool(f), "confidence": p}
            for c, b, a, f, p in zip(
                self.codes.tolist(), boxes, self.angles.tolist(), self.face_up.tolist(), conf
            )
        ]
