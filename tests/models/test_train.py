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


def test_a_run_can_start_from_the_committed_detector(tmp_path, capsys, one_class_photos):
    """``--init models/tiles.onnx``: a run too short for a step writes the committed detector back
    as ``models.from_onnx`` reads it (its BatchNorms re-expressed, its outputs the same)."""
    import onnxruntime as ort

    folder = one_class_photos((300, 300), (0.3, 0.5, 0.1, 0.14))
    out = tmp_path / "out"
    args = [
        "--data",
        str(folder),
        "--out",
        str(out),
        "--minutes",
        "0",
        "--batch",
        "2",
        "--init",
        str(COMMITTED),
    ]
    assert main(args) == 0
    assert f"warm start from {COMMITTED}" in capsys.readouterr().out
    # the BatchNorms took the warm batches' statistics (without, training mode would undo the start)
    import torch

    running_var = torch.load(out / "last.pt", weights_only=False)["net"]["stem.0.1.running_var"]
    assert not torch.allclose(running_var, torch.ones_like(running_var), atol=1e-3)
    x = np.random.default_rng(8).random((1, 3, 128, 128), dtype=np.float32)
    export_onnx(tilenet_from_onnx(COMMITTED), tmp_path / "read_back.onnx")
    want, got = (
        ort.InferenceSession(str(p), providers=["CPUExecutionProvider"]).run(None, {"image": x})
        for p in (tmp_path / "read_back.onnx", out / "tiles.onnx")
    )
    for w, g in zip(want, got):
        np.testing.assert_allclose(g, w, atol=1e-3 * max(1.0, float(np.abs(w).max())))
