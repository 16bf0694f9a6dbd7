"""A tile set's reference: likeness to its tiles, its file, and the detector leaning on it."""

import numpy as np
import pytest

from tracker.tiles import BACK, MODEL_CLASSES, class_id
from vision.detections import TileDetections
from vision.detector import DEFAULT_MODEL, ModelError, TileDetector
from vision.reader import DEFAULT_READER, Reading
from vision.tile_reference import SHARPNESS, ReferenceError, TileReference, choose, unit_rows


def _reference(**by_code) -> TileReference:
    """A reference whose tiles of ``code`` have the given feature rows."""
    feats, ids = [], []
    for code, rows in by_code.items():
        feats += rows
        ids += [class_id(code)] * len(rows)
    return TileReference(unit_rows(np.array(feats, np.float32)), np.array(ids, np.int64), "md5", 2)


def test_likeness_is_the_cosine_with_the_most_alike_tile_of_each_class():
    ref = _reference(**{"1s": [[1, 0, 0], [0.6, 0.8, 0]], "S": [[0, 0, 1]]})
    like = ref.likeness(np.array([[0, 2, 0], [0, 0, 3]], np.float32))  # any scale
    assert like[0, class_id("1s")] == pytest.approx(0.8) and like[0, class_id("S")] == pytest.approx(0)
    assert like[1, class_id("S")] == pytest.approx(1) and like[1, class_id("1s")] == pytest.approx(0)
    assert like[0, class_id("9m")] == -1  # none in the reference
    assert ref.classes == ["1s", "S"] and "9m" in ref.missing() and BACK not in ref.missing()


def test_log_probs_are_normalised_over_the_faces_in_play_only():
    ref = _reference(**{"1s": [[1, 0]], "S": [[0, 1]], "season1": [[0.9, 0.1]]})
    faces = np.array([class_id(c) for c in ("1s", "S", "9m")])  # seasons not in play
    lp = ref.log_probs(np.array([[0.95, 0.2]], np.float32), faces)
    assert np.exp(lp[0]).sum() == pytest.approx(1, abs=1e-5)
    assert np.isneginf(lp[0, class_id("season1")]) and np.isneginf(lp[0, class_id(BACK)])
    assert lp[0].argmax() == class_id("1s")
    cos = unit_rows(np.array([[0.95, 0.2]]))[0]
    assert lp[0, class_id("1s")] - lp[0, class_id("S")] == pytest.approx(
        SHARPNESS * (cos[0] - cos[1]), rel=1e-4
    )


def test_a_reference_holds_faces_only():
    with pytest.raises(ValueError, match="back"):
        TileReference(np.ones((1, 2), np.float32), np.array([class_id(BACK)]), "md5", 1)


def test_the_file_round_trips_and_bad_files_fail_naming_themselves(tmp_path):
    ref = _reference(**{"1s": [[1, 0]], "5mr": [[0, 1]]})
    ref.save(tmp_path / "ref.npz")
    back = TileReference.load(tmp_path / "ref.npz")
    assert np.array_equal(back.features, ref.features) and back.classes == ["1s", "5mr"]
    assert (back.reader_md5, back.turns, back.digest()) == ("md5", 2, ref.digest())
    with pytest.raises(ReferenceError, match="not found: .*nothing.npz"):
        TileReference.load(tmp_path / "nothing.npz")
    (tmp_path / "junk.npz").write_bytes(b"not a zip")
    with pytest.raises(ReferenceError, match="junk.npz: not a tile reference"):
        TileReference.load(tmp_path / "junk.npz")
    np.savez(tmp_path / "other.npz", x=np.zeros(2))
    with pytest.raises(ReferenceError, match="other.npz: not a tile reference"):
        TileReference.load(tmp_path / "other.npz")


def test_choose_keeps_at_most_so_many_of_each_class():
    ids = np.array([3] * 10 + [5] * 2)
    keep = choose(ids, 4, np.random.default_rng(0))
    assert (ids[keep] == 3).sum() == 4 and (ids[keep] == 5).sum() == 2 and len(set(keep)) == 6


needs_models = pytest.mark.skipif(
    not (DEFAULT_MODEL.is_file() and DEFAULT_READER.is_file()), reason="models/*.onnx not built yet"
)


@needs_models
def test_the_committed_reader_gives_its_features():
    from vision.reader import TileReader

    reader = TileReader(turns=2)
    image = np.full((60, 60, 3), 200, np.uint8)
    reading = reader.read_full(image, np.array([[10, 10, 30, 38]], np.float32))
    assert reader.has_features and reading.features.shape == (1, 128) and np.isfinite(reading.features).all()
    ids, probs, quarter = reader.read(image, np.array([[10, 10, 30, 38]], np.float32))
    assert (ids == reading.class_ids).all() and np.array_equal(probs, reading.probs)


@needs_models
def test_a_reference_from_another_reader_or_looks_is_refused(tmp_path):
    from vision.detection_cache import file_md5

    ref = _reference(**{"1s": [[1.0] * 128]})
    ref.save(tmp_path / "ref.npz")
    with pytest.raises(ModelError, match="ref.npz: made with reader md5 md5"):
        TileDetector(reference_path=tmp_path / "ref.npz")
    mine = TileReference(ref.features, ref.class_ids, file_md5(DEFAULT_READER), 4)
    mine.save(tmp_path / "mine.npz")
    with pytest.raises(ModelError, match="4 looks"):
        TileDetector(reference_path=tmp_path / "mine.npz", reader_turns=2)
    assert TileDetector(reference_path=tmp_path / "mine.npz", reader_turns=4).reference.turns == 4
    with pytest.raises(ModelError, match="needs the tile reader"):
        TileDetector(reference_path=tmp_path / "mine.npz", reader_path=None)
    with pytest.raises(ModelError, match="nothing.npz"):
        TileDetector(reference_path=tmp_path / "nothing.npz")


@needs_models
def test_the_reread_leans_on_the_reference_where_the_reader_is_fooled(tmp_path):
    """The reader reads both tiles S; the reference knows the first looks like its 1s tiles."""
    from types import SimpleNamespace

    from vision.detection_cache import file_md5

    ref = TileReference(
        unit_rows(np.array([[1, 0, 0], [0, 1, 0]], np.float32)),
        np.array([class_id("1s"), class_id("S")]),
        file_md5(DEFAULT_READER),
        2,
    )
    ref.save(tmp_path / "ref.npz")
    det = TileDetector(reference_path=tmp_path / "ref.npz")
    probs = np.full((2, len(MODEL_CLASSES)), 0.002, np.float32)
    probs[:, class_id("S")] = 0.9
    features = np.array([[0.9, 0.1, 0.0], [0.05, 1.0, 0.0]], np.float32)
    det.reader = SimpleNamespace(read_full=lambda image, boxes: Reading(None, probs, None, features))
    found = TileDetections(
        boxes=np.array([[0, 0, 10, 13], [20, 0, 30, 13]], np.float32),
        class_ids=np.array([class_id("S"), class_id("S")]),
        angles=np.zeros(2, np.int64),
        face_up=np.array([True, True]),
        confidence=np.full(2, 0.8, np.float32),
    )
    out = det._reread(np.zeros((20, 40, 3), np.uint8), found, probs)
    assert out.codes.tolist() == ["1s", "S"]
    assert MODEL_CLASSES[out.runner_up[0]] == "S"  # the reader's answer stays its runner-up
    # the temperature softens the confidences the tracker weighs, never the class
    det.reference_temperature = 1.0
    sharp = det._reread(np.zeros((20, 40, 3), np.uint8), found, probs)
    det.reference_temperature = 2.0
    assert sharp.codes.tolist() == out.codes.tolist() and sharp.runner_up.tolist() == out.runner_up.tolist()
    assert (out.confidence <= sharp.confidence).all()
    assert (out.runner_up_confidence > sharp.runner_up_confidence).all()
    det.reference_sharpness = 1.0  # likeness barely telling the faces apart: the reader's answer
    assert det._reread(np.zeros((20, 40, 3), np.uint8), found, probs).codes.tolist() == ["S", "S"]
    det.reference_sharpness, det.reference_weight = 100.0, 0.0
    assert det._reread(np.zeros((20, 40, 3), np.uint8), found, probs).codes.tolist() == ["S", "S"]


def test_a_reference_is_saved_at_the_path_it_is_given(tmp_path):
    """np.savez_compressed appends .npz to a path without it: `enroll --out tiles.ref` wrote
    tiles.ref.npz, printed '-> tiles.ref', and `--tiles-ref tiles.ref` then said 'not found'."""
    _reference(**{"1s": [[1, 0]], "S": [[0, 1]]}).save(tmp_path / "tiles.ref")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tiles.ref"]
    assert TileReference.load(tmp_path / "tiles.ref").classes == ["1s", "S"]


def test_a_file_that_is_not_a_reference_is_a_reference_error(tmp_path):
    """A .npy file (np.load gives an array, no context manager) or a non-scalar field raised
    TypeError, which no command catches: a traceback instead of one line."""
    np.save(tmp_path / "features.npy", np.zeros((3, 128), np.float32))
    with pytest.raises(ReferenceError, match="features.npy"):
        TileReference.load(tmp_path / "features.npy")
    np.savez(tmp_path / "odd.npz", format=np.array([1, 2]))
    with pytest.raises(ReferenceError, match="odd.npz"):
        TileReference.load(tmp_path / "odd.npz")


def test_the_reference_product_runs_on_one_blas_thread(monkeypatch):
    """OpenBLAS's threads spin after a product and starve the onnxruntime runs that follow
    (models.bench: 47 -> 76 ms a frame); ``likeness`` runs its product on one thread."""
    from vision import tile_reference as tr

    seen = []
    product = np.ndarray.__matmul__

    def watched(a, b):
        info = tr._blas_controller().info()
        seen.append(all(i["num_threads"] == 1 for i in info if i["user_api"] == "blas"))
        return product(a, b)

    ref = _reference(**{"1s": [[1, 0]], "S": [[0, 1]]})
    monkeypatch.setattr(tr, "unit_rows", lambda x: _Watched(unit_rows(x), watched))
    ref.likeness(np.array([[1.0, 0.2]], np.float32))
    assert seen == [True]


class _Watched(np.ndarray):
    """An array whose ``@`` calls ``hook`` (to see the BLAS threads as the product runs)."""

    def __new__(cls, array, hook):
        out = np.asarray(array).view(cls)
        out.hook = hook
        return out

    def __matmul__(self, other):
        return self.hook(np.asarray(self), other)
