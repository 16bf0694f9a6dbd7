"""The detector's training run: a warm start from the committed detector."""

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch", reason="the train extra (torch) is not installed")
pytest.importorskip("onnx", reason="the train extra (onnx) is not installed")

from models.export import export_onnx  # noqa: E402
from models.from_onnx import tilenet_from_onnx  # noqa: E402
from models.train import main  # noqa: E402

COMMITTED = Path(__file__).resolve().parents[2] / "models" / "tiles.onnx"


def test_a_run_can_start_from_the_committed_detector(tmp_path, one_class_photos, warm_start_run):
    """``--init models/tiles.onnx``: a run too short for a step writes the committed detector back
    as ``models.from_onnx`` reads it (its BatchNorms re-expressed, its outputs the same)."""
    import onnxruntime as ort

    folder = one_class_photos((300, 300), (0.3, 0.5, 0.1, 0.14))
    out = warm_start_run(main, COMMITTED, folder, 2, "stem.0.1.running_var")
    x = np.random.default_rng(8).random((1, 3, 128, 128), dtype=np.float32)
    export_onnx(tilenet_from_onnx(COMMITTED), tmp_path / "read_back.onnx")
    want, got = (
        ort.InferenceSession(str(p), providers=["CPUExecutionProvider"]).run(None, {"image": x})
        for p in (tmp_path / "read_back.onnx", out / "tiles.onnx")
    )
    for w, g in zip(want, got):
        np.testing.assert_allclose(g, w, atol=1e-3 * max(1.0, float(np.abs(w).max())))


def test_a_bad_init_file_is_one_line(tmp_path, capsys, one_class_photos):
    folder = one_class_photos((300, 300), (0.3, 0.5, 0.1, 0.14))
    args = [
        "--data",
        str(folder),
        "--out",
        str(tmp_path / "out"),
        "--minutes",
        "0",
        "--init",
        str(tmp_path / "no.onnx"),
    ]
    assert main(args) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("train:") and "no.onnx: no such file" in err and "\n" not in err
