"""``CachedDetector``: a detector that remembers what it found in each image, saved to one file.

Re-analysing a video after a tracker-only change asks the detector about the same frames again
(the reads are chosen by table motion, not by the tracker's state); the cache answers those from
disk, so an evaluation re-run costs the tracker's time, not the net's. Keys are a digest of the
image's pixels and the tile size asked for, so a changed crop or frame is simply a miss. The file
records which model files made it: a cache from other models is not used (and is overwritten).
"""

from __future__ import annotations

import hashlib
import os
import sys
import zipfile
from pathlib import Path

import numpy as np

from vision.detections import TileDetections
from vision.tile_reference import FIRST_SHARPNESS

_FIELDS = ("boxes", "class_ids", "angles", "face_up", "confidence", "runner_up", "runner_up_confidence")


def file_md5(path: str | Path) -> str:
    """Hex md5 of a file's bytes: which model file made a result."""
    return hashlib.md5(Path(path).read_bytes()).hexdigest()


def detector_identity(detector) -> str:
    """The md5s of a ``TileDetector``'s model and reader files and its decoding settings (a setting
    at its default is left out, so caches made before it existed still match)."""
    parts = [file_md5(detector.model_path)]
    if detector.reader is not None:
        parts.append(file_md5(detector.reader.model_path))
    parts.append(f"threshold={detector.threshold} reader_weight={detector.reader_weight}")
    # (named since detections carry the runner-up face: caches made before are not used)
    parts.append("runner_up")
    if detector.reader is not None and detector.reader.turns != 1:
        parts.append(f"reader_turns={detector.reader.turns}")
    if getattr(detector, "absent_classes", ()):
        # (named anew when the share of absent faces stopped going to the face-down classes:
        # caches read the earlier way are not used)
        parts.append("absent_faces=" + ",".join(detector.absent_classes))
    if getattr(detector, "reference", None) is not None:
        parts.append(f"reference={detector.reference.digest()} weight={detector.reference_weight}")
        sharpness = getattr(detector, "reference_sharpness", FIRST_SHARPNESS)
        if sharpness != FIRST_SHARPNESS:
            parts.append(f"sharpness={sharpness:g}")
        temperature = getattr(detector, "reference_temperature", 1.0)
        if temperature != 1.0:
            parts.append(f"temperature={temperature:g}")
    return " ".join(parts)


def image_key(image: np.ndarray, tile_px: float) -> bytes:
    """16-byte digest of the pixels, their shape and the tile size."""
    h = hashlib.blake2b(digest_size=16)
    h.update(np.asarray(image.shape, np.int64).tobytes())
    h.update(np.float64(tile_px).tobytes())
    h.update(np.ascontiguousarray(image).data)
    return h.digest()


class CachedDetector:
    """Wraps ``detector`` (anything with ``detect(image, tile_px)``); ``identity`` names the model
    files behind it (e.g. their md5s). ``save()`` writes the cache when it learned something, but
    never over a file that holds another identity's detections (those may have taken an hour)."""

    def __init__(self, detector, path: str | Path, identity: str) -> None:
        self.detector = detector
        self.path = Path(path)
        self.identity = identity
        self.hits = self.misses = 0
        self.foreign = False  # the file holds detections of other models or settings: kept
        self._found: dict[bytes, TileDetections] = {}
        if self.path.is_file():
            self._found = self._load()

    def detect(self, image: np.ndarray, tile_px: float) -> TileDetections:
        key = image_key(image, tile_px)
        found = self._found.get(key)
        if found is not None:
            self.hits += 1
            return found
        self.misses += 1
        found = self.detector.detect(image, tile_px)
        self._found[key] = found
        return found

    def _load(self) -> dict[bytes, TileDetections]:
        try:
            return self._read()
        except (OSError, ValueError, KeyError, zipfile.BadZipFile) as err:
            # a cache is only a shortcut: a broken one is rebuilt, never a reason to stop
            print(f"mjmon: {self.path} unreadable ({err}); starting a new detections cache", file=sys.stderr)
            return {}

    def _read(self) -> dict[bytes, TileDetections]:
        with np.load(self.path, allow_pickle=False) as data:
            if str(data["identity"]) != self.identity:
                print(
                    f"mjmon: {self.path} holds detections of other models or settings; it is kept as it"
                    " is and this run's detections are not cached (name another file to keep them)",
                    file=sys.stderr,
                )
                self.foreign = True
                return {}
            keys, ends = data["keys"], data["ends"]
            arrays = {name: data[name] for name in _FIELDS}
        starts = np.concatenate([[0], ends[:-1]]).astype(np.int64)
        return {
            k.tobytes(): TileDetections(*(arrays[name][s:e] for name in _FIELDS))
            for k, s, e in zip(keys, starts, ends, strict=True)
        }

    def save(self) -> None:
        """Write every image's detections (atomically: a broken run never leaves half a file)."""
        if not self.misses or self.foreign:
            return
        entries = list(self._found.items())
        keys = np.frombuffer(b"".join(k for k, _ in entries), np.uint8).reshape(-1, 16)
        ends = np.cumsum([len(d) for _, d in entries]).astype(np.int64)
        arrays = {
            name: np.concatenate([getattr(d, name) for _, d in entries])
            if entries
            else getattr(TileDetections.empty(), name)
            for name in _FIELDS
        }
        self.path.parent.mkdir(parents=True, exist_ok=True)
        partial = self.path.with_name(self.path.name + ".partial.npz")
        np.savez(partial, identity=np.str_(self.identity), keys=keys, ends=ends, **arrays)
        os.replace(partial, self.path)
