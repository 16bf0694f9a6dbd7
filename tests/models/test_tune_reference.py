"""``python -m models.tune_reference``: the weight and sharpness grid reads tiles as the detector does."""

import json
from pathlib import Path

import numpy as np
import pytest

from models import tune_reference
from models.metrics import greedy_match, iou_matrix
from tests.vision.test_detect_command import run_cli
from tracker.tiles import BACK, MODEL_CLASSES, STANDING, deaka
from vision.detector import DEFAULT_MODEL
from vision.reader import DEFAULT_READER

DEMO = Path(__file__).resolve().parents[2] / "tracker" / "samples" / "demo-kyoku"
needs_models = pytest.mark.skipif(
    not (DEFAULT_MODEL.is_file() and DEFAULT_READER.is_file()), reason="models/*.onnx not built yet"
)
_BONUS = tuple(c for c in MODEL_CLASSES if c.startswith(("flower", "season")))


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> Path:
    """A small reference enrolled from three default-art stills (not the demo's art: the test is
    of the arithmetic, not of how well it reads)."""
    folder = tmp_path_factory.mktemp("ref")
    made = run_cli("stills", "--count", "3", "--out", str(folder / "stills"), "--seed", "5")
    assert made.returncode == 0, made.stderr
    done = run_cli("enroll", str(folder / "stills"), "--out", str(folder / "ref.npz"), "--per-class", "3")
    assert done.returncode == 0, done.stderr
    return folder / "ref.npz"


def _kinds_right_as_detected(detector, clip: Path, frames: int) -> tuple[int, int]:
    """(matched face-up tiles, kinds read right) by ``detector.detect`` itself on the keyframes."""
    from datasets.clip_stills import synth_keyframes

    matched = right = 0
    for image, tiles in synth_keyframes(clip, picks=frames):
        up = [t for t in tiles if t["face_up"] and t["code"] not in (BACK, STANDING)]
        boxes = np.asarray([t["box"] for t in up], np.float32).reshape(-1, 4)
        found = detector.detect(image, float(np.median(boxes[:, 2] - boxes[:, 0])))
        face = np.flatnonzero(found.face_up)
        pairs = greedy_match(iou_matrix(boxes, found.boxes[face]), np.ones((len(up), len(face)), bool))
        matched += len(pairs)
        right += sum(deaka(up[t]["code"]) == deaka(found.codes[face[d]]) for t, d in pairs)
    return matched, right


@needs_models
def test_the_current_setting_reads_every_tile_as_the_detector_does(reference):
    from vision.detector import TileDetector

    detector = TileDetector(reference_path=reference, absent_classes=_BONUS)
    readings = tune_reference.clip_readings(detector, DEMO, frames=3)
    matched, right = _kinds_right_as_detected(detector, DEMO, frames=3)
    assert len(readings.truth) == matched > 50
    current = readings.kinds_right(detector.reference_weight, detector.reference_sharpness)
    assert current == pytest.approx(right / matched, abs=1e-9)
    # without the reference the sharpness cannot matter, and a strong one changes the reading
    assert readings.kinds_right(0.0, 40) == readings.kinds_right(0.0, 100)
    assert readings.kinds_right(1.0, 100) != readings.kinds_right(0.0, 100)


@needs_models
def test_the_grid_is_printed_and_written(reference, tmp_path, capsys):
    out = tmp_path / "grid.json"
    args = [str(DEMO), "--tiles-ref", str(reference), "--frames", "2", "--weights", "0,0.75"]
    assert tune_reference.main(args + ["--sharpness", "40,100", "--json", str(out)]) == 0
    grid = json.loads(out.read_text())
    assert grid["tiles"]["demo-kyoku"] > 0
    rows = {(r["weight"], r["sharpness"]): r for r in grid["grid"]}
    assert set(rows) == {(0, 40), (0, 100), (0.75, 40), (0.75, 100)}
    assert [k for k, r in rows.items() if r["current"]] == [(0.75, 100)]
    assert all(0 <= r["all"] <= 1 and r["all"] == r["clips"]["demo-kyoku"] for r in rows.values())
    printed = capsys.readouterr().out.splitlines()
    assert len(printed) == 5 + 7 and printed[4].endswith(" *")
    # a temperature never changes which reads are wrong, only how sure they come out
    sure = rows[(0.75, 100)]["sureness"]
    assert sure["1"]["wrong"] == sure["2"]["wrong"]
    assert sure["2"]["wrong_sure"] <= sure["1"]["wrong_sure"]
    assert sure["2"]["right_sure_share"] <= sure["1"]["right_sure_share"]
    # asking a multiple of the runner-up too can only make fewer reads sure
    assert tune_reference.main(args + ["--sharpness", "100", "--ratio", "10", "--json", str(out)]) == 0
    strict = {(r["weight"], r["sharpness"]): r for r in json.loads(out.read_text())["grid"]}
    for t in ("1", "2"):
        assert strict[(0.75, 100)]["sureness"][t]["wrong"] == sure[t]["wrong"]
        assert strict[(0.75, 100)]["sureness"][t]["wrong_sure"] <= sure[t]["wrong_sure"]
        assert strict[(0.75, 100)]["sureness"][t]["right_sure_share"] <= sure[t]["right_sure_share"]
    assert strict[(0.75, 100)]["sureness"]["1"]["right_sure_share"] < sure["1"]["right_sure_share"]


def test_bad_input_is_one_line_and_exit_2(tmp_path, capsys):
    assert tune_reference.main([str(DEMO)]) == 2
    assert "needs --tiles-ref" in capsys.readouterr().err
    ref = tmp_path / "ref.npz"
    ref.write_bytes(b"")
    assert tune_reference.main([str(tmp_path), "--tiles-ref", str(ref)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "no video.mp4 and truth.json" in err
    for bad in (["--temperatures", "0"], ["--frames", "0"], ["--sure", "1.5"], ["--ratio", "0.5"]):
        assert tune_reference.main([str(DEMO), "--tiles-ref", str(ref), *bad]) == 2
        assert "must be" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        tune_reference.main([str(DEMO), "--tiles-ref", str(ref), "--weights", "a,b"])
