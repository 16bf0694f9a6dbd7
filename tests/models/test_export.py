import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="the train extra (torch) is not installed")
pytest.importorskip("onnx", reason="the train extra (onnx) is not installed")

from models.net import OUTPUT_NAMES, split_heads  # noqa: E402
from models.quantize import quantize  # noqa: E402
from models.spec import NATIVE_TILE_PX, NUM_CLASSES  # noqa: E402


def _session(path):
    import onnxruntime as ort

    return ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])


def test_exported_graph_computes_the_training_graph(trained_like):
    """The export folds BatchNorm and splits the fuse conv: the numbers must not change."""
    net, path = trained_like
    x = np.random.default_rng(1).random((1, 3, 96, 128), dtype=np.float32)
    outs = dict(zip(OUTPUT_NAMES, _session(path).run(None, {"image": x})))
    with torch.no_grad():
        h = split_heads(net(torch.from_numpy(x)))
    assert outs["cls_logits"].shape == (1, NUM_CLASSES, 24, 32)
    np.testing.assert_allclose(outs["cls_logits"], h["cls"].numpy(), atol=1e-4)
    np.testing.assert_allclose(outs["orient_logits"], h["orient"].numpy(), atol=1e-4)
    np.testing.assert_allclose(outs["size"], np.exp(h["size"].numpy()) * NATIVE_TILE_PX, rtol=1e-4)
    heat = torch.sigmoid(h["heat"]).numpy()[0, 0]
    peaks = outs["peaks"][0, 0]
    assert (peaks > 0).any() and np.allclose(peaks[peaks > 0], heat[peaks > 0], atol=1e-5)


def test_int8_model_keeps_the_outputs_close(trained_like, tmp_path):
    _, path = trained_like
    rng = np.random.default_rng(2)
    calibration = [rng.random((1, 3, 64, 64), dtype=np.float32) for _ in range(4)]
    out = tmp_path / "int8.onnx"
    quantize(path, out, calibration)
    x = rng.random((1, 3, 64, 64), dtype=np.float32)
    ref = _session(path).run(None, {"image": x})
    got = _session(out).run(None, {"image": x})
    assert [o.name for o in _session(out).get_outputs()] == list(OUTPUT_NAMES)
    scale = np.abs(ref[1]).max()
    assert np.abs(got[1] - ref[1]).max() < 0.15 * scale  # class logits within int8 rounding
