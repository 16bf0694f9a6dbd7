"""The detections cache: same answers as the detector, from disk on the second run."""

from __future__ import annotations

import numpy as np
import pytest

from tracker.tiles import class_id
from vision.detection_cache import CachedDetector, detector_identity, image_key
from vision.detections import TileDetections
from vision.detector import DEFAULT_MODEL, TileDetector


class CountingDetector:
    """Finds one tile per call whose class says how many calls came before (none on odd images)."""

    def __init__(self) -> None:
        self.calls = 0

    def detect(self, image: np.ndarray, tile_px: float) -> TileDetections:
        self.calls += 1
        if int(image[0, 0, 0]) % 2:
            return TileDetections.empty()
        return TileDetections(
            boxes=np.array([[1.5, 2.0, 20.0, 30.25]], np.float32),
            class_ids=np.array([class_id("5pr") if self.calls == 1 else class_id("E")]),
            angles=np.array([90]),
            face_up=np.array([True]),
            confidence=np.array([0.875], np.float32),
        )


def _image(value: int) -> np.ndarray:
    return np.full((8, 12, 3), value, np.uint8)


def _saved_with_one_image(path, identity: str, value: int = 0) -> None:
    """A cache file at ``path`` that learned one image (pixels all ``value``)."""
    first = CachedDetector(CountingDetector(), path, identity)
    first.detect(_image(value), 20.0)
    first.save()


def _same(a: TileDetections, b: TileDetections) -> bool:
    fields = ("boxes", "class_ids", "angles", "face_up", "confidence")
    return all(np.array_equal(getattr(a, f), getattr(b, f)) for f in fields)


def test_second_run_answers_from_the_file_with_the_same_detections(tmp_path):
    path = tmp_path / "clip.npz"
    first = CachedDetector(CountingDetector(), path, "model-a")
    seen = [first.detect(_image(v), 20.0) for v in (0, 1, 2)]
    assert first.detector.calls == 3 and first.misses == 3
    first.save()

    again = CachedDetector(CountingDetector(), path, "model-a")
    replay = [again.detect(_image(v), 20.0) for v in (0, 1, 2)]
    assert again.detector.calls == 0 and again.hits == 3
    assert all(_same(a, b) for a, b in zip(seen, replay, strict=True))
    assert len(replay[1]) == 0 and replay[0].class_ids[0] == class_id("5pr")


def test_other_pixels_or_tile_size_are_misses():
    cached = CachedDetector(CountingDetector(), "/nonexistent/never-saved.npz", "m")
    cached.detect(_image(4), 20.0)
    cached.detect(_image(4), 20.0)
    cached.detect(_image(6), 20.0)
    cached.detect(_image(4), 21.0)
    assert (cached.hits, cached.misses) == (1, 3)
    assert image_key(_image(4), 20.0) != image_key(_image(4)[:, :-1], 20.0)


def test_a_cache_of_other_models_is_not_used_nor_overwritten(tmp_path, capsys):
    path = tmp_path / "clip.npz"
    _saved_with_one_image(path, "model-a")
    new = CachedDetector(CountingDetector(), path, "model-b")
    new.detect(_image(0), 20.0)
    new.detect(_image(1), 20.0)
    assert new.detector.calls == 2 and "other models or settings" in capsys.readouterr().err
    new.save()  # (a debugging run with another temperature once replaced an hour of detections)
    kept = CachedDetector(CountingDetector(), path, "model-a")
    kept.detect(_image(0), 20.0)
    assert kept.hits == 1 and not kept.foreign


def test_a_broken_cache_file_is_rebuilt_not_fatal(tmp_path, capsys):
    path = tmp_path / "clip.npz"
    path.write_bytes(b"not a zip")
    cached = CachedDetector(CountingDetector(), path, "m")
    cached.detect(_image(0), 20.0)
    assert cached.misses == 1 and "unreadable" in capsys.readouterr().err
    cached.save()
    assert CachedDetector(CountingDetector(), path, "m").detect(_image(0), 20.0).class_ids[0] == class_id(
        "5pr"
    )


def test_keys_ending_in_zero_bytes_survive_the_file(tmp_path, monkeypatch):
    """Fixed-width byte strings drop trailing NULs; the keys are stored as raw uint8 rows."""
    import vision.detection_cache as dc

    monkeypatch.setattr(dc, "image_key", lambda image, tile_px: bytes([int(image[0, 0, 0])]) + bytes(15))
    path = tmp_path / "clip.npz"
    _saved_with_one_image(path, "m", value=2)
    again = CachedDetector(CountingDetector(), path, "m")
    again.detect(_image(2), 20.0)
    assert again.hits == 1


@pytest.mark.skipif(not DEFAULT_MODEL.is_file(), reason=f"{DEFAULT_MODEL} not built yet")
def test_the_identity_names_the_readers_looks_when_more_than_one():
    one = detector_identity(TileDetector(reader_turns=1))
    four = detector_identity(TileDetector(reader_turns=4))
    assert "reader_turns" not in one and four == one + " reader_turns=4"
    assert "runner_up" in one  # caches from before detections named the runner-up are not used


@pytest.mark.skipif(not DEFAULT_MODEL.is_file(), reason=f"{DEFAULT_MODEL} not built yet")
def test_the_identity_names_the_faces_never_read():
    every = detector_identity(TileDetector())
    no_bonus = detector_identity(TileDetector(absent_classes=("flower1", "season1")))
    assert no_bonus == every + " absent_faces=flower1,season1"  # caches made reading every face stay valid


@pytest.mark.skipif(not DEFAULT_MODEL.is_file(), reason=f"{DEFAULT_MODEL} not built yet")
def test_the_identity_names_the_tile_sets_reference(tmp_path):
    import numpy as np

    from tracker.tiles import class_id
    from vision.detection_cache import file_md5
    from vision.reader import DEFAULT_READER
    from vision.tile_reference import TileReference

    ref = TileReference(
        np.eye(2, 128, dtype=np.float32),
        np.array([class_id("1s"), class_id("S")]),
        file_md5(DEFAULT_READER),
        2,
    )
    ref.save(tmp_path / "ref.npz")
    plain = detector_identity(TileDetector())
    referenced = detector_identity(TileDetector(reference_path=tmp_path / "ref.npz"))
    assert referenced == plain + f" reference={ref.digest()} weight=0.75 sharpness=100 temperature=2"
    # read with the first sharpness and no temperature, a reference's caches keep the name they
    # were made under
    first = detector_identity(
        TileDetector(reference_path=tmp_path / "ref.npz", reference_sharpness=40, reference_temperature=1)
    )
    assert first == plain + f" reference={ref.digest()} weight=0.75"
