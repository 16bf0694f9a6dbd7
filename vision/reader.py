"""``TileReader``: a second look at each face-up tile the detector found, at a higher resolution.

The detector sees every tile at ``NATIVE_TILE_PX`` (20 px wide): enough to find tiles, tight for
reading them (character numerals on Chinese sets, art styles it has not seen). The reader cuts a
square around each found tile from the image at its own resolution, scales it to ``READER_PX`` and
classifies it with a small CNN (``models/reader.onnx``, trained by ``models.train_reader``). The
crops are cut by one vectorised ``cv2.remap`` for all tiles, not a loop.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import cv2
import numpy as np

from models.spec import READER_MARGIN, READER_PX
from vision.reader_options import DEFAULT_READER


class Reading(NamedTuple):
    """One ``TileReader.read_full``: class ids, class probabilities, quarter turns, features."""

    class_ids: np.ndarray
    probs: np.ndarray
    quarter: np.ndarray | None
    features: np.ndarray | None


def crop_tiles(
    image: np.ndarray, boxes: np.ndarray, size: int = READER_PX, margin: float = READER_MARGIN
) -> np.ndarray:
    """(N, size, size, 3) uint8: squares of side ``margin * max(w, h)`` centred on each box."""
    n = len(boxes)
    if not n:
        return np.zeros((0, size, size, 3), np.uint8)
    boxes = np.asarray(boxes, np.float32)
    centre = (boxes[:, :2] + boxes[:, 2:]) / 2
    side = margin * np.maximum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])
    steps = (np.arange(size, dtype=np.float32) + 0.5) / size - 0.5  # pixel centres in [-0.5, 0.5)
    map_x = centre[:, 0, None, None] + side[:, None, None] * steps[None, None, :]
    map_y = centre[:, 1, None, None] + side[:, None, None] * steps[None, :, None]
    map_x = np.broadcast_to(map_x, (n, size, size)).reshape(n * size, size)
    map_y = np.broadcast_to(map_y, (n, size, size)).reshape(n * size, size)
    if (side / size).max() > 1.5:  # shrinking a lot: smooth first so the crop does not alias
        sigma = float(np.median(side) / size) * 0.5
        image = cv2.GaussianBlur(image, (0, 0), sigma)
    out = cv2.remap(image, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return out.reshape(n, size, size, 3)


def to_input(crops: np.ndarray) -> np.ndarray:
    """(N, S, S, 3) uint8 BGR -> (N, 3, S, S) float32 in [0, 1], the net's input."""
    return np.ascontiguousarray(crops.transpose(0, 3, 1, 2), dtype=np.float32) / np.float32(255)


def turned(crops: np.ndarray, turns: int) -> np.ndarray:
    """(turns * N, S, S, 3): the crops as they are, then each turned by 360 / ``turns`` degrees
    counterclockwise again and again (``turns`` in 1, 2, 4: quarter turns a tile may lie at)."""
    if turns not in (1, 2, 4):
        raise ValueError(f"reader turns must be 1, 2 or 4, not {turns}")
    step = 4 // turns
    return np.concatenate([np.rot90(crops, k * step, axes=(1, 2)) for k in range(turns)])


class TileReader:
    """Loads the reader model once; ``read`` classifies the tiles at ``boxes`` of one image.

    ``turns``: how many ways each crop is read, turned by quarter turns (1, 2 or 4); the class
    log-probabilities of the looks are averaged. The reader was trained on tiles at any quarter
    turn, so each look is as valid as the first, and their errors differ: on unseen art 4 looks
    read more tiles right than 1 (``models/README.md``), at 4 times the reader's cost."""

    def __init__(self, model_path: str | Path = DEFAULT_READER, threads: int = 2, turns: int = 1) -> None:
        from vision.detector import load_session  # detector imports this module: import late

        turned(np.zeros((0, 1, 1, 3), np.uint8), turns)  # refuse a bad count before loading
        self.model_path = Path(model_path)
        self.turns = turns
        self.session = load_session(self.model_path, threads)
        self.input_name = self.session.get_inputs()[0].name
        self.outputs = [o.name for o in self.session.get_outputs()]

    @property
    def has_features(self) -> bool:
        """Whether the model outputs its pooled ``features`` (``models.reader_features``)."""
        return "features" in self.outputs

    def read(self, image: np.ndarray, boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        """(class ids (N,) int64 into MODEL_CLASSES, class probabilities (N, C) float32, quarter
        turns (N,) int64 counterclockwise, or None from a reader model without orientation)."""
        return self.read_full(image, boxes)[:3]

    def read_full(self, image: np.ndarray, boxes: np.ndarray) -> Reading:
        """``read``'s answers and, from a model with them, each tile's ``features``: the sum of
        its looks' pooled features (N, D) float32 (None from a model without them)."""
        if not len(boxes):
            return Reading(np.zeros(0, np.int64), np.zeros((0, 0), np.float32), np.zeros(0, np.int64), None)
        n = len(boxes)
        crops = turned(crop_tiles(image, boxes), self.turns)
        out = dict(zip(self.outputs, self.session.run(None, {self.input_name: to_input(crops)})))
        logits = out.get("logits", out[self.outputs[0]])
        z = logits - logits.max(axis=1, keepdims=True)
        log_p = (z - np.log(np.exp(z).sum(axis=1, keepdims=True))).reshape(self.turns, n, -1).mean(axis=0)
        p = np.exp(log_p - log_p.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        orient = out.get("orient_logits")
        quarter = (
            orient[:n].argmax(axis=1).astype(np.int64) if orient is not None else None
        )  # (the first look's)
        features = out.get("features")
        if features is not None:
            features = features.reshape(self.turns, n, -1).sum(axis=0).astype(np.float32)
        return Reading(p.argmax(axis=1).astype(np.int64), p.astype(np.float32), quarter, features)
