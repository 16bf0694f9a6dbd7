"""``TileReference``: a venue's own tile set, shown to mjmon once, read by likeness.

The reader reads tile art it has never seen with a few systematic confusions (on the default art
the 1s bird reads South, North reads 1s: models/README.md); voting over looks keeps them, since
every copy of a kind is misread alike. But its pooled features still tell those faces apart: on
truth boxes of an evaluation clip, labelling each tile with the kind of the most alike reference
tile read 0.97 where the reader's own head read 0.84 (docs/BENCHMARKS.md, "A tile set's
reference"). A competition uses one tile set, so a referee can enrol it once (``mjmon enroll``,
from labelled photos or ``mjmon stills`` of its art) and pass the file to every analysis.

The file holds, per face class, up to ``per_class`` reference tiles' features: the sum of the
reader's looks at each tile (the same looks the analysis takes, so a tile turned half way round
reads alike), scaled to unit length. A tile's likeness to a class is its cosine with the class's
most alike reference tile; ``log_probs`` turns likenesses into class log-probabilities.
"""

from __future__ import annotations

import functools
import hashlib
import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tracker.tiles import BACK, MODEL_CLASSES, STANDING

FORMAT = 1
# log-probability per unit of cosine: how sharply likeness picks a class. 40 until 2026-12-03; 100
# read blurred low-camera tiles better and sharp ones as well (models/README.md, "Likeness sharpness")
SHARPNESS = 100.0
FIRST_SHARPNESS = 40.0  # (caches and analyses made with it carry no sharpness in their names)
# the leaned reading's log-probabilities are divided by this before they become the confidence the
# tracker weighs (its class is unchanged): at sharpness 100 wrong reads came out sure (p >= 0.6 for
# 126 of 315 on the tuning clips, against 30 of 483 before); 2 brings that back to 33
TEMPERATURE = 2.0
_FACE_DOWN = frozenset((BACK, STANDING))


class ReferenceError(Exception):
    """The reference file is missing, unreadable, or made for another reader; the message names it."""


@functools.cache
def _blas_controller():
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()  # (made on first use: it inspects the loaded libraries)


def one_blas_thread():
    """A context in which numpy's BLAS runs on one thread."""
    return _blas_controller().limit(limits=1, user_api="blas")


def unit_rows(x: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length (a zero row stays zero)."""
    x = np.asarray(x, np.float32)
    return x / np.maximum(np.linalg.norm(x, axis=1, keepdims=True), np.float32(1e-9))


@dataclass(frozen=True)
class TileReference:
    """``features`` (M, D) float32 unit rows; ``class_ids`` (M,) int64 into MODEL_CLASSES, face
    classes only; ``reader_md5`` and ``turns``: the reader file and looks that made the features
    (features from another reader, or other looks, are not comparable)."""

    features: np.ndarray
    class_ids: np.ndarray
    reader_md5: str
    turns: int

    def __post_init__(self) -> None:
        if self.features.ndim != 2 or self.class_ids.shape != (len(self.features),):
            raise ValueError("reference features and class ids disagree in shape")
        down = {MODEL_CLASSES[i] for i in self.class_ids} & _FACE_DOWN
        if down:
            raise ValueError(f"a reference holds face classes only, not {sorted(down)}")

    @property
    def classes(self) -> list[str]:
        """The face classes the reference holds, in MODEL_CLASSES order."""
        return [MODEL_CLASSES[i] for i in np.unique(self.class_ids)]

    def missing(self) -> list[str]:
        """Face classes the reference has no tile of (a set without them reads none of them)."""
        have = set(self.classes)
        return [c for c in MODEL_CLASSES if c not in have and c not in _FACE_DOWN]

    def likeness(self, features: np.ndarray) -> np.ndarray:
        """(N, C) cosine of each tile (features (N, D), any scale) with the most alike reference
        tile of each class; -1 for a class the reference has none of."""
        # one BLAS thread: OpenBLAS's pool spins after a product and starved the onnxruntime runs
        # that follow (detector + reader 47 -> 76 ms a frame; 45 with one thread, models.bench)
        with one_blas_thread():
            cos = unit_rows(features) @ self.features.T  # (N, M)
        out = np.full((len(cos), len(MODEL_CLASSES)), -1.0, np.float32)
        # the max over each class's reference tiles, by class: M is small (a few thousand)
        order = np.argsort(self.class_ids, kind="stable")
        ids, starts = np.unique(self.class_ids[order], return_index=True)
        if len(cos):
            out[:, ids] = np.maximum.reduceat(cos[:, order], starts, axis=1)
        return out

    def log_probs(
        self, features: np.ndarray, face_ids: np.ndarray, sharpness: float = SHARPNESS
    ) -> np.ndarray:
        """(N, C) class log-probabilities from likeness (``sharpness`` per unit of cosine),
        normalised over the classes ``face_ids`` (the face classes in play); -inf elsewhere."""
        return likeness_log_probs(self.likeness(features), face_ids, sharpness)

    def save(self, path: str | Path) -> None:
        # (through an open file: given a path, numpy appends .npz to a name without it)
        with open(path, "wb") as out:
            np.savez_compressed(
                out,
                format=np.int64(FORMAT),
                features=self.features.astype(np.float32),
                classes=np.array([MODEL_CLASSES[i] for i in self.class_ids]),
                reader_md5=np.array(self.reader_md5),
                turns=np.int64(self.turns),
            )

    @classmethod
    def load(cls, path: str | Path) -> TileReference:
        path = Path(path)
        if not path.is_file():
            raise ReferenceError(f"tile reference not found: {path}")
        try:
            with np.load(path, allow_pickle=False) as f:
                if int(f["format"]) != FORMAT:
                    raise ReferenceError(
                        f"{path}: tile reference format {int(f['format'])}, expected {FORMAT}"
                    )
                names = [str(c) for c in f["classes"]]
                unknown = sorted(set(names) - set(MODEL_CLASSES))
                if unknown:
                    raise ReferenceError(f"{path}: unknown tile classes {unknown}")
                ids = np.array([MODEL_CLASSES.index(c) for c in names], np.int64)
                return cls(unit_rows(f["features"]), ids, str(f["reader_md5"]), int(f["turns"]))
        except ReferenceError:
            raise
        except (OSError, KeyError, ValueError, TypeError, zipfile.BadZipFile, EOFError) as err:
            raise ReferenceError(f"{path}: not a tile reference ({err})") from None

    def digest(self) -> str:
        """Short hex digest of the contents (names the reference in caches and reports)."""
        h = hashlib.md5(self.features.tobytes())
        h.update(self.class_ids.tobytes())
        h.update(f"{self.reader_md5} {self.turns}".encode())
        return h.hexdigest()[:8]


def choose(class_ids: np.ndarray, per_class: int, rng: np.random.Generator) -> np.ndarray:
    """Indices of at most ``per_class`` rows of each class, drawn at random (sorted)."""
    keep = []
    for c in np.unique(class_ids):
        rows = np.flatnonzero(class_ids == c)
        keep.append(rows if len(rows) <= per_class else rng.choice(rows, per_class, replace=False))
    return np.sort(np.concatenate(keep)) if keep else np.zeros(0, np.int64)


def likeness_log_probs(
    likeness: np.ndarray, face_ids: np.ndarray, sharpness: float = SHARPNESS
) -> np.ndarray:
    """``TileReference.log_probs`` of likenesses already measured (``TileReference.likeness``)."""
    z = np.full(likeness.shape, -np.inf, np.float32)
    z[:, face_ids] = np.float32(sharpness) * likeness[:, face_ids]
    top = z.max(axis=1, keepdims=True)
    return z - (top + np.log(np.exp(z - top).sum(axis=1, keepdims=True)))


def lean_on_likeness(log_p: np.ndarray, likeness: np.ndarray, weight: float, sharpness: float) -> np.ndarray:
    """Class log-probabilities (N, C) of the net and reader, ``-inf`` where no face can be,
    leaning on the reference's likenesses (N, C) with ``weight`` (a weighted geometric mean)."""
    out = log_p.copy()
    if not len(out):
        return out
    faces = np.flatnonzero(np.isfinite(out[0]))
    like = likeness_log_probs(likeness, faces, sharpness)
    out[:, faces] = (1 - weight) * out[:, faces] + weight * like[:, faces]
    return out
