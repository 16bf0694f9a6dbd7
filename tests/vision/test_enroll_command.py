"""``mjmon enroll``: a tile set's reference from labelled stills, and commands refusing bad ones."""

import numpy as np
import pytest

from tests.vision.test_detect_command import _one_line_error, run_cli
from vision.detector import DEFAULT_MODEL
from vision.reader import DEFAULT_READER

needs_models = pytest.mark.skipif(
    not (DEFAULT_MODEL.is_file() and DEFAULT_READER.is_file()), reason="models/*.onnx not built yet"
)


@needs_models
def test_enrolled_stills_make_a_reference_that_reads_their_own_tiles(tmp_path):
    from models.data import load_any
    from vision.detector import TileDetector
    from vision.tile_reference import TileReference

    stills = tmp_path / "stills"
    made = run_cli("stills", "--count", "3", "--out", str(stills), "--seed", "5")
    assert made.returncode == 0, made.stderr
    ref = tmp_path / "ref.npz"
    done = run_cli("enroll", str(stills), "--out", str(ref), "--per-class", "2")
    assert done.returncode == 0, done.stderr
    reference = TileReference.load(ref)
    samples = load_any(stills)
    labelled = np.concatenate([s.classes[s.face_up] for s in samples])
    assert np.bincount(reference.class_ids).max() <= 2
    assert set(reference.class_ids) == set(labelled)
    assert f"{len(reference.class_ids)} reference tiles" in done.stdout
    # the reference was made with the bundled reader and its default looks: a detector takes it
    detector = TileDetector(reference_path=ref)
    image = samples[0].load_image()
    reading = detector.reader.read_full(image, samples[0].boxes[samples[0].face_up])
    like = reference.likeness(reading.features)
    assert like.max(axis=1).min() > 0.5  # (each tile is like itself where it was kept)


@needs_models
def test_enroll_and_tiles_ref_fail_in_one_line(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    _one_line_error(run_cli("enroll", str(empty), "--out", str(tmp_path / "r.npz")), "empty")
    _one_line_error(run_cli("enroll", str(tmp_path / "missing"), "--out", str(tmp_path / "r.npz")), "missing")
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"junk")
    image = tmp_path / "t.png"
    import cv2

    cv2.imwrite(str(image), np.zeros((40, 40, 3), np.uint8))
    _one_line_error(
        run_cli("detect", str(image), "--json", str(tmp_path / "o.json"), "--tiles-ref", str(junk)),
        "junk.npz",
    )
    # (analyze's detector is loaded before the video is read)
    _one_line_error(run_cli("demo", "--tiles-ref", str(junk), "--out", str(tmp_path / "a")), "junk.npz")
