import copy
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="the train extra (torch) is not installed")
pytest.importorskip("onnx", reason="the train extra (onnx) is not installed")

from models.export import export_onnx  # noqa: E402
from models.from_onnx import (  # noqa: E402
    OnnxWeightsError,
    match_batch_statistics,
    readernet_from_onnx,
    tilenet_from_onnx,
)
from models.quantize import quantize  # noqa: E402
from models.reader_net import ReaderNet, export_reader  # noqa: E402
from tests.models.conftest import with_trained_statistics  # noqa: E402

MODELS = Path(__file__).resolve().parents[2] / "models"


def _outputs(net, x):
    with torch.no_grad():
        return net.eval()(x).numpy()


def test_float_export_comes_back_as_the_same_net(trained_like):
    net, path = trained_like
    x = torch.rand(2, 3, 96, 128, generator=torch.Generator().manual_seed(1))
    np.testing.assert_allclose(_outputs(tilenet_from_onnx(path), x), _outputs(net, x), atol=1e-4)


def test_reader_export_comes_back_as_the_same_net(tmp_path):
    net = with_trained_statistics(ReaderNet)
    export_reader(net, tmp_path / "reader.onnx")
    x = torch.rand(5, 3, 48, 48, generator=torch.Generator().manual_seed(5))
    np.testing.assert_allclose(
        _outputs(readernet_from_onnx(tmp_path / "reader.onnx"), x), _outputs(net, x), atol=1e-4
    )


def test_committed_reader_reads_as_the_file_does():
    import onnxruntime as ort

    x = np.random.default_rng(6).random((16, 3, 48, 48), dtype=np.float32)
    session = ort.InferenceSession(str(MODELS / "reader.onnx"), providers=["CPUExecutionProvider"])
    want = session.run(["logits"], {"crops": x})[0]
    got = _outputs(readernet_from_onnx(MODELS / "reader.onnx"), torch.from_numpy(x))[:, : want.shape[1]]
    # (the file rounds its activations; on noise crops a near tie may flip)
    assert (got.argmax(1) == want.argmax(1)).mean() >= 14 / 16
    assert np.abs(got - want).max() < 0.05 * np.abs(want).max()


def test_int8_export_comes_back_within_the_weights_rounding(trained_like, tmp_path):
    """The QDQ file's weights are dequantized: the net is the original up to int8 rounding."""
    net, path = trained_like
    rng = np.random.default_rng(2)
    int8 = tmp_path / "int8.onnx"
    quantize(path, int8, [rng.random((1, 3, 64, 64), dtype=np.float32) for _ in range(4)])
    back = tilenet_from_onnx(int8)
    x = torch.rand(1, 3, 64, 64, generator=torch.Generator().manual_seed(3))
    want, got = _outputs(net, x), _outputs(back, x)
    err = np.abs(got - want).max()
    assert 0 < err < 0.05 * np.abs(want).max()  # changed (rounded), but only by the rounding
    # the float head is stored as is
    np.testing.assert_array_equal(back.head.weight.detach().numpy(), net.head.weight.detach().numpy())


def test_committed_detector_reads_a_frame_as_the_file_does(tmp_path):
    """The committed int8 detector as a torch net, exported again in float: on the demo clip's
    frame it finds the same tiles with the same faces (activation rounding aside)."""
    import cv2

    from vision.detector import TileDetector

    clip = MODELS.parent / "tracker" / "samples" / "demo-kyoku" / "video.mp4"
    cap = cv2.VideoCapture(str(clip))
    cap.set(cv2.CAP_PROP_POS_FRAMES, 600)
    ok, frame = cap.read()
    cap.release()
    assert ok
    again = tmp_path / "float.onnx"
    export_onnx(tilenet_from_onnx(MODELS / "tiles.onnx"), again)
    a, b = (
        TileDetector(p, reader_path=None).detect(frame, tile_px=17.0) for p in (MODELS / "tiles.onnx", again)
    )
    # (tiles whose centre score is near the threshold come and go with the activations' rounding)
    assert min(len(a.class_ids), len(b.class_ids)) > 80
    assert abs(len(a.class_ids) - len(b.class_ids)) <= 0.12 * len(a.class_ids)
    if len(a.class_ids) > len(b.class_ids):
        a, b = b, a
    # nearest detection of the other read: same place, same face
    ca, cb = ((t.boxes[:, :2] + t.boxes[:, 2:]) / 2 for t in (a, b))
    d = np.hypot(*(ca[:, None] - cb[None]).transpose(2, 0, 1))
    near = d.argmin(1)
    matched = d[np.arange(len(ca)), near] < 4
    same = a.class_ids[matched] == b.class_ids[near[matched]]
    assert matched.mean() > 0.97 and same.mean() > 0.95


def test_batch_statistics_keep_eval_and_make_training_mode_agree(trained_like):
    net, path = trained_like
    warm = tilenet_from_onnx(path)
    x = torch.rand(4, 3, 64, 64, generator=torch.Generator().manual_seed(4))
    before = _outputs(warm, x)
    with torch.no_grad():
        drifted = copy.deepcopy(warm).train()(x).numpy()  # batch statistics undo the warm start
    assert np.abs(drifted - before).max() > 0.1
    match_batch_statistics(warm, [x])
    np.testing.assert_allclose(_outputs(warm, x), before, atol=1e-4)
    with torch.no_grad():
        trained_mode = warm.train()(x).numpy()
    np.testing.assert_allclose(trained_mode, before, atol=1e-3)


def test_a_graph_not_slid_or_folded_as_the_net_is_refused(tmp_path):
    """Same weight shapes, other convolution settings (a dilation of 1 where the net has 2), or
    BatchNorm layers left unfolded (an export in training mode): refused, not loaded wrong."""
    import torch.onnx

    from models.net import Exported, TileNet

    other = with_trained_statistics(TileNet)
    other.trunk[2][0].dilation, other.trunk[2][0].padding = (1, 1), (1, 1)
    export_onnx(other, tmp_path / "dilated.onnx")
    with pytest.raises(OnnxWeightsError, match="not an export of the tile net") as err:
        tilenet_from_onnx(tmp_path / "dilated.onnx")
    assert "slides otherwise" in str(err.value.__cause__)
    unfolded = with_trained_statistics(TileNet)
    torch.onnx.export(
        Exported(unfolded).train(),
        torch.zeros(1, 3, 64, 64),
        str(tmp_path / "unfolded.onnx"),
        opset_version=17,
        dynamo=False,
        training=torch.onnx.TrainingMode.TRAINING,
        do_constant_folding=False,
    )
    with pytest.raises(OnnxWeightsError, match="BatchNorm layers are not folded"):
        tilenet_from_onnx(tmp_path / "unfolded.onnx")


def test_other_files_are_refused_by_name(tmp_path):
    with pytest.raises(OnnxWeightsError, match="nothing.onnx: no such file"):
        readernet_from_onnx(tmp_path / "nothing.onnx")
    with pytest.raises(OnnxWeightsError, match="not an export of the tile net"):
        tilenet_from_onnx(MODELS / "reader.onnx")
    with pytest.raises(OnnxWeightsError, match="not an export of the tile reader"):
        readernet_from_onnx(MODELS / "tiles.onnx")
    junk = tmp_path / "junk.onnx"
    junk.write_bytes(b"not a model")
    with pytest.raises(OnnxWeightsError, match="junk.onnx"):
        tilenet_from_onnx(junk)
