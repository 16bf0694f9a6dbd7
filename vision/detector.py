"""``TileDetector``: the ONNX tile net behind one verb, ``detect(image, tile_px) -> TileDetections``.

The net is trained at one tile scale (``models.spec.NATIVE_TILE_PX`` px box width); the detector
rescales each image so its tiles land there, runs onnxruntime on CPU and decodes the stride-4 maps
with a handful of vectorised numpy operations (peaks above a threshold, gather, one suppression of
near-duplicate centres).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import cv2
import numpy as np

from models.spec import ANGLES, NATIVE_TILE_PX, STRIDE
from tracker.tiles import BACK, STANDING, class_id
from vision.detection_cache import file_md5
from vision.detections import TileDetections
from vision.reader import TileReader
from vision.reader_options import DEFAULT_READER, READER_TURNS
from vision.tile_reference import SHARPNESS, TEMPERATURE, ReferenceError, TileReference, lean_on_likeness

DEFAULT_MODEL = Path(__file__).resolve().parents[1] / "models" / "tiles.onnx"
_FACE_DOWN = np.array([class_id(BACK), class_id(STANDING)])
_ANGLES = np.asarray(ANGLES, dtype=np.int64)
MIN_TILE_PX, MAX_TILE_PX = 8.0, 256.0


def first_line(err: BaseException) -> str:
    """An exception's message cut to its first line (libraries such as onnx and onnxruntime raise
    many-line ones), or its type's name when it has none: for one-line errors."""
    text = str(err).strip()
    return text.splitlines()[0] if text else type(err).__name__


# how far a tile set's reference outweighs the net and reader's reading (``vision.tile_reference``)
REFERENCE_WEIGHT = 0.75


class ModelError(Exception):
    """The model file is missing or cannot be loaded; the message names the file."""


class TileDetector:
    """Loads the model once; ``detect`` is safe to call per frame.

    ``threshold``: minimum centre score for a tile. ``threads``: onnxruntime intra-op threads.
    ``reader_path``: the reader model that re-reads face-up tiles (``vision.reader``); None: the
    net's classes alone. ``reader_turns``: how many quarter-turned looks the reader takes at each
    tile (``TileReader``). ``absent_classes``: faces the game's tile set has none of (the bonus
    tiles under Japanese rules, red fives under MCR); a tile is never read as one, its class is
    the likeliest of the others (probabilities renormalised over them). ``reference_path``: the tile
    set's own tiles (``vision.tile_reference``, made with this reader and its looks); a face-up
    tile's class then leans on which reference tiles it is most alike, with ``reference_weight``;
    ``reference_sharpness``: log-probability per unit of cosine likeness; ``reference_temperature``:
    what the leaned log-probabilities are divided by for the confidences (not the class).
    """

    def __init__(
        self,
        model_path: str | Path = DEFAULT_MODEL,
        threads: int = 2,
        threshold: float = 0.3,
        reader_path: str | Path | None = DEFAULT_READER,
        reader_weight: float = 0.5,
        reader_turns: int = READER_TURNS,
        absent_classes: tuple[str, ...] = (),
        reference_path: str | Path | None = None,
        reference_weight: float = REFERENCE_WEIGHT,
        reference_sharpness: float = SHARPNESS,
        reference_temperature: float = TEMPERATURE,
    ) -> None:
        self.model_path = Path(model_path)
        self.absent_classes = tuple(absent_classes)
        self._absent = np.array([class_id(c) for c in self.absent_classes], np.int64)
        self.threshold = threshold
        self.session = load_session(self.model_path, threads)
        self.input_name = self.session.get_inputs()[0].name
        # models exported before the logits outputs return softmaxed maps named ``cls``
        self.class_logits = "cls_logits" in {o.name for o in self.session.get_outputs()}
        # the bundled reader is optional (a checkout without it detects with the net alone); a reader
        # asked for by name must exist
        use_reader = reader_path is not None and (
            Path(reader_path) != DEFAULT_READER or DEFAULT_READER.is_file()
        )
        self.reader = TileReader(reader_path, threads, reader_turns) if use_reader else None
        self.reader_weight = reader_weight
        self.reference_path = None if reference_path is None else Path(reference_path)
        self.reference = None if reference_path is None else load_reference(self.reference_path, self.reader)
        self.reference_weight = reference_weight
        self.reference_sharpness = reference_sharpness
        self.reference_temperature = reference_temperature

    def prepare(self, image: np.ndarray, tile_px: float) -> tuple[np.ndarray, float]:
        return net_input(image, tile_px)

    def detect(self, image: np.ndarray, tile_px: float) -> TileDetections:
        """Tiles in an (H, W, 3) uint8 BGR image whose tiles are about ``tile_px`` px wide."""
        found, probs = self.net_detections(image, tile_px)
        return self._reread(image, found, probs) if self.reader is not None else found

    def net_detections(self, image: np.ndarray, tile_px: float) -> tuple[TileDetections, np.ndarray]:
        """The net's own detections (boxes in ``image``'s px) and their class probabilities (N, C)."""
        x, scale = self.prepare(image, tile_px)
        peaks, cls, size, offset, orient = self.session.run(None, {self.input_name: x})
        found, probs = decode(
            peaks[0, 0],
            cls[0],
            size[0],
            offset[0],
            orient[0],
            self.threshold,
            self.class_logits,
            self._absent,
        )
        h, w = image.shape[:2]
        boxes = np.clip(found.boxes / np.float32(scale), 0, [w, h, w, h]).astype(np.float32)
        return dataclasses.replace(found, boxes=boxes), probs

    def face_readings(
        self, image: np.ndarray, boxes: np.ndarray, net_probs: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray | None]:
        """Of face-up tiles at ``boxes`` with the net's class probabilities ``net_probs`` (N, C):
        the weighted geometric mean of the net's and the reader's as log-probabilities (-inf on
        the face-down and absent classes), and the reference's likenesses (N, C) or None."""
        # the reader's quarter turn is not used: on unseen art it was right less often than the
        # net's (face-up orientation 0.914 vs 0.969 on the default-art clips, models/README.md)
        if self.reference is None:
            _, reader_probs, _ = self.reader.read(image, boxes)
            likeness = None
        else:
            reading = self.reader.read_full(image, boxes)
            reader_probs, likeness = reading.probs, self.reference.likeness(reading.features)
        w = self.reader_weight
        log_p = (1 - w) * np.log(net_probs + 1e-6) + w * np.log(reader_probs + 1e-6)
        log_p[:, _FACE_DOWN] = -np.inf  # the net found a face here; which face is the question
        log_p[:, self._absent] = -np.inf
        return log_p, likeness

    def _reread(self, image: np.ndarray, found: TileDetections, net_probs: np.ndarray) -> TileDetections:
        """Face-up tiles get the class both looks agree on best (``face_readings``), leaning on the
        tile set's reference when there is one."""
        up = np.flatnonzero(found.face_up)
        if not len(up):
            return found
        log_p, likeness = self.face_readings(image, found.boxes[up], net_probs[up])
        if likeness is not None:
            leaned = lean_on_likeness(log_p, likeness, self.reference_weight, self.reference_sharpness)
            log_p = leaned / np.float32(self.reference_temperature)  # (as sure as before it leaned harder)
        p = np.exp(log_p - log_p.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        ids, second = _two_best(p)
        rows = np.arange(len(up))
        class_ids, confidence = found.class_ids.copy(), found.confidence.copy()
        runner_up, runner_up_conf = found.runner_up.copy(), found.runner_up_confidence.copy()
        peak = confidence[up] / np.maximum(net_probs[up, found.class_ids[up]], 1e-6)  # the centre score
        class_ids[up], confidence[up] = ids, peak * p[rows, ids]
        runner_up[up], runner_up_conf[up] = second, peak * p[rows, second]
        return dataclasses.replace(
            found,
            class_ids=class_ids,
            confidence=confidence,
            runner_up=runner_up,
            runner_up_confidence=runner_up_conf,
        )


def load_reference(path: Path, reader: TileReader | None) -> TileReference:
    """The tile reference at ``path``; ModelError (one line naming the file) when it cannot be
    read or was not made by ``reader``'s file with its looks."""
    try:
        reference = TileReference.load(path)
    except ReferenceError as err:
        raise ModelError(str(err)) from None
    if reader is None:
        raise ModelError(
            f"{path}: a tile reference needs the tile reader (it compares the reader's features)"
        )
    if not reader.has_features:
        raise ModelError(
            f"{reader.model_path} has no features output: python -m models.reader_features "
            f"{reader.model_path} {reader.model_path}"
        )
    md5 = file_md5(reader.model_path)
    if reference.reader_md5 != md5 or reference.turns != reader.turns:
        raise ModelError(
            f"{path}: made with reader md5 {reference.reader_md5[:8]} and {reference.turns} looks, "
            f"not {md5[:8]} and {reader.turns}: enrol the tile set again (mjmon enroll)"
        )
    return reference


def load_session(model_path: Path, threads: int):
    """An onnxruntime CPU session, or ModelError naming the file."""
    import onnxruntime as ort

    if not model_path.is_file():
        raise ModelError(f"model file not found: {model_path}")
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.log_severity_level = 4
    # idle worker threads must not spin: the detector and the reader run one after the other, and a
    # session spinning on both cores starves the next (detect + read took 40 ms instead of 19)
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    try:
        return ort.InferenceSession(str(model_path), options, providers=["CPUExecutionProvider"])
    except Exception as err:  # onnxruntime raises several types for a bad file
        raise ModelError(f"cannot load model {model_path}: {first_line(err)}") from None


def net_input(image: np.ndarray, tile_px: float) -> tuple[np.ndarray, float]:
    """(H, W, 3) uint8 BGR -> ((1, 3, H', W') float32 input padded to a multiple of 8, scale)."""
    if image.ndim != 3 or image.shape[2] != 3:
        raise ValueError(f"expected an (H, W, 3) BGR image, got shape {image.shape}")
    tile_px = float(np.clip(tile_px, MIN_TILE_PX, MAX_TILE_PX))
    scale = NATIVE_TILE_PX / tile_px
    h, w = image.shape[:2]
    nw, nh = max(8, round(w * scale)), max(8, round(h * scale))
    interp = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    resized = cv2.resize(image, (nw, nh), interpolation=interp)
    ph, pw = -nh % 8, -nw % 8
    if ph or pw:
        resized = cv2.copyMakeBorder(resized, 0, ph, 0, pw, cv2.BORDER_CONSTANT, value=(128, 128, 128))
    x = cv2.dnn.blobFromImage(resized, 1 / 255)  # (1, 3, H', W') float32, one C++ pass
    return x, nw / w


def decode(
    peaks: np.ndarray,
    cls: np.ndarray,
    size: np.ndarray,
    offset: np.ndarray,
    orient: np.ndarray,
    threshold: float,
    class_logits: bool = True,
    absent: np.ndarray | None = None,
) -> tuple[TileDetections, np.ndarray]:
    """Net maps of one image -> (TileDetections in net-input px, class probabilities (N, C)).

    ``peaks`` (h, w) local-maximum scores, ``cls`` (C, h, w) logits (probabilities when
    ``class_logits`` is false), ``size`` (2, h, w) px, ``offset`` (2, h, w) in cells, ``orient``
    (4, h, w) logits or probabilities (only the argmax is used). ``absent``: class ids no tile can
    be (faces only); their probability goes to the other faces in proportion, so whether a tile
    lies face up is decided as before (a wind read as a season stays a face, for the reader).
    """
    ys, xs = np.nonzero(peaks > threshold)
    if not len(ys):
        return TileDetections.empty(), np.zeros((0, cls.shape[0]), np.float32)
    score = peaks[ys, xs]
    probs = cls[:, ys, xs]  # (C, K)
    if class_logits:  # softmax over the peak cells only
        probs = np.exp(probs - probs.max(axis=0))
        probs /= probs.sum(axis=0)
    if absent is not None and len(absent):
        probs = without_faces(probs, absent)
    ids = probs.argmax(axis=0)
    cx = (xs + offset[0, ys, xs]) * STRIDE
    cy = (ys + offset[1, ys, xs]) * STRIDE
    bw, bh = size[0, ys, xs], size[1, ys, xs]
    boxes = np.stack([cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2], axis=1).astype(np.float32)
    keep = suppress_duplicates(boxes, score)
    ids = ids[keep].astype(np.int64)
    face_up = ~np.isin(ids, _FACE_DOWN)
    faces = probs[:, keep].T.copy()
    faces[:, _FACE_DOWN] = 0.0
    _, second = _two_best(faces)
    det = TileDetections(
        boxes=boxes[keep],
        class_ids=ids,
        angles=_ANGLES[orient[:, ys[keep], xs[keep]].argmax(axis=0)],
        face_up=face_up,
        confidence=(score[keep] * probs[ids, keep]).astype(np.float32),
        runner_up=np.where(face_up, second, -1).astype(np.int64),
        runner_up_confidence=np.where(face_up, score[keep] * probs[second, keep], 0).astype(np.float32),
    )
    return det, probs[:, keep].T.astype(np.float32)


def _two_best(p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per row of (N, C) probabilities, the most likely column and the next one."""
    if not len(p):
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    best = p.argmax(axis=1).astype(np.int64)  # (ties: the first, as ``argmax`` picks the class)
    rest = p.astype(np.float64, copy=True)
    rest[np.arange(len(p)), best] = -np.inf
    return best, rest.argmax(axis=1).astype(np.int64)


def without_faces(probs: np.ndarray, absent: np.ndarray) -> np.ndarray:
    """(C, K) class probabilities with the faces ``absent`` removed: their share goes to the other
    faces in proportion to theirs; the face-down classes (back, standing) keep theirs."""
    out = probs.copy()
    others = np.ones(len(out), bool)
    others[_FACE_DOWN] = False
    others[absent] = False
    removed = out[absent].sum(axis=0)
    kept = out[others].sum(axis=0)
    out[absent] = 0.0
    out[others] *= (kept + removed) / np.maximum(kept, 1e-12)
    return out


def suppress_duplicates(boxes: np.ndarray, score: np.ndarray, iou: float = 0.5) -> np.ndarray:
    """Indices of boxes kept after dropping any box overlapping a higher-scoring one by >= ``iou``.

    One (K, K) IoU matrix instead of a sequential NMS loop: a box is dropped if any better box
    overlaps it, even one that is itself dropped (fine for tiles, which do not overlap in truth).
    """
    order = np.argsort(-score, kind="stable")
    b = boxes[order]
    x1 = np.maximum(b[:, None, 0], b[None, :, 0])
    y1 = np.maximum(b[:, None, 1], b[None, :, 1])
    x2 = np.minimum(b[:, None, 2], b[None, :, 2])
    y2 = np.minimum(b[:, None, 3], b[None, :, 3])
    inter = np.clip(x2 - x1, 0, None) * np.clip(y2 - y1, 0, None)
    area = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    overlap = inter / np.maximum(area[:, None] + area[None, :] - inter, 1e-6)
    worse_overlapped = np.triu(overlap >= iou, k=1).any(axis=0)  # column j overlapped by a better i < j
    return np.sort(order[~worse_overlapped])
