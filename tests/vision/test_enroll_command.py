"""``mjmon enroll``: a tile set's reference from labelled stills, and commands refusing bad ones."""

import json

import cv2
import numpy as np
import pytest

from tests.vision.test_detect_command import _one_line_error, run_cli
from tracker.tiles import BACK, class_id
from vision.detector import DEFAULT_MODEL
from vision.reader import DEFAULT_READER
from vision.tile_reference import TileReference

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
    own = samples[0].classes[samples[0].face_up]
    # (likeness alone is no test: the features are never negative, so any two tiles are > 0.5 alike)
    assert (like.argmax(axis=1) == own).mean() > 0.9


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


def _reference() -> "TileReference":
    from tracker.tiles import class_id
    from vision.tile_reference import TileReference, unit_rows

    return TileReference(
        unit_rows(np.eye(2, 128, dtype=np.float32)), np.array([class_id("1s"), class_id("S")]), "md5", 2
    )


@needs_models
def test_detect_with_a_npy_as_tiles_ref_fails_in_one_line(tmp_path):
    np.save(tmp_path / "features.npy", np.zeros((3, 128), np.float32))
    image = tmp_path / "t.png"
    cv2.imwrite(str(image), np.zeros((40, 40, 3), np.uint8))
    proc = run_cli(
        "detect",
        str(image),
        "--json",
        str(tmp_path / "o.json"),
        "--tiles-ref",
        str(tmp_path / "features.npy"),
    )
    _one_line_error(proc, "features.npy")


@needs_models
def test_enroll_skips_face_down_classes_marked_face_up(tmp_path):
    """A COCO file may say face_up for a `back` box; enroll handed it to TileReference, whose
    ValueError ('a reference holds face classes only') came out as a traceback."""
    image = np.full((80, 120, 3), 180, np.uint8)
    cv2.imwrite(str(tmp_path / "a.png"), image)
    doc = {
        "images": [{"id": 1, "file_name": "a.png", "height": 80, "width": 120}],
        "annotations": [
            {"id": 1, "image_id": 1, "category_id": class_id("1s"), "bbox": [10, 10, 30, 40]},
            {
                "id": 2,
                "image_id": 1,
                "category_id": class_id(BACK),
                "bbox": [60, 10, 30, 40],
                "face_up": True,
            },
        ],
    }
    (tmp_path / "labels.json").write_text(json.dumps(doc))
    proc = run_cli("enroll", str(tmp_path / "labels.json"), "--out", str(tmp_path / "ref.npz"))
    assert "Traceback" not in proc.stderr
    assert proc.returncode == 0, proc.stderr
    assert TileReference.load(tmp_path / "ref.npz").classes == ["1s"]


@needs_models
def test_a_reader_without_features_is_not_answered_with_pass_no_reader(tmp_path):
    """--reader OLD.onnx (no features output) --tiles-ref REF: the hint was '(pass --no-reader)',
    and --no-reader with --tiles-ref fails again ('a tile reference needs the tile reader')."""
    onnx = pytest.importorskip("onnx")
    from tests.models.test_reader_features import _without_features
    from tracker.commands import CommandError
    from tracker.commands.analyze import _load_detector
    from vision.reader_options import ReaderChoice

    old = tmp_path / "old.onnx"
    onnx.save(_without_features(DEFAULT_READER), str(old))
    _reference().save(tmp_path / "ref.npz")
    with pytest.raises(CommandError) as err:
        _load_detector(None, ReaderChoice(old, 2, tmp_path / "ref.npz"))
    assert "no features output" in str(err.value)
    assert "pass --no-reader" not in str(err.value)


@needs_models
def test_a_tile_sets_art_is_enrolled_on_rendered_tables(tmp_path):
    from tests.conftest import REPO

    ref = tmp_path / "ref.npz"
    art = REPO / "datasets" / "art" / "default"
    done = run_cli("enroll", "--tileset", str(art), "--stills", "4", "--seed", "3", "--out", str(ref))
    assert done.returncode == 0, done.stderr
    reference = TileReference.load(ref)
    assert len(reference.classes) >= 10 and all(c not in (BACK, "standing") for c in reference.classes)
    assert "from 4 image(s)" in done.stdout or "from 3 image(s)" in done.stdout
    _one_line_error(run_cli("enroll", "--out", str(ref)), "--tileset")
    _one_line_error(run_cli("enroll", "--tileset", str(tmp_path / "no-art"), "--out", str(ref)), "no-art")
    _one_line_error(run_cli("enroll", "--tileset", str(art), "--stills", "0", "--out", str(ref)), "--stills")


def test_seen_small_shrinks_blurs_and_keeps_the_size():
    """A low camera's look at a still: the same size (the boxes stay on their tiles), detail gone."""
    from vision.enroll_command import seen_small

    rng = np.random.default_rng(0)
    image = (rng.random((200, 300, 3)) * 255).astype(np.uint8)
    boxes = np.array([[10, 10, 50, 62], [60, 10, 100, 62]], np.float32)  # 40 px wide tiles
    small = seen_small(image, boxes, 17.0, np.random.default_rng(1))
    assert small.shape == image.shape and small.dtype == np.uint8
    detail = lambda im: cv2.Laplacian(cv2.cvtColor(im, cv2.COLOR_BGR2GRAY), cv2.CV_64F).var()  # noqa: E731
    assert detail(small) < 0.1 * detail(image)
    # tiles already smaller than asked are not enlarged: only blurred and compressed
    tiny = np.array([[10, 10, 16, 18]], np.float32)
    assert detail(seen_small(image, tiny, 17.0, np.random.default_rng(1))) > detail(small)


@needs_models
def test_each_image_is_enrolled_sharp_and_as_a_low_camera_sees_it(tmp_path):
    stills = tmp_path / "stills"
    assert run_cli("stills", "--count", "2", "--out", str(stills), "--seed", "5").returncode == 0
    refs = {}
    for px in ("0", "17"):
        out = tmp_path / f"ref{px}.npz"
        done = run_cli("enroll", str(stills), "--out", str(out), "--per-class", "1000", "--low-res-px", px)
        assert done.returncode == 0, done.stderr
        refs[px] = TileReference.load(out)
    sharp, both = refs["0"], refs["17"]
    assert len(both.class_ids) == 2 * len(sharp.class_ids)
    assert np.bincount(both.class_ids).tolist() == (2 * np.bincount(sharp.class_ids)).tolist()
    # the sharp looks are all there, and the others are new looks of the same tiles
    alike = both.features @ sharp.features.T
    assert (alike.max(axis=0) > 0.9999).all()
    assert (alike.max(axis=1) < 0.9999).sum() == len(sharp.class_ids)
    _one_line_error(
        run_cli("enroll", str(stills), "--out", str(tmp_path / "r.npz"), "--low-res-px", "-1"), "low-res-px"
    )
