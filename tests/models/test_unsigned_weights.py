"""Unsigned weights: the int8 -> uint8 rewrite is lossless, and the committed models carry it."""

from __future__ import annotations

import numpy as np
import pytest

onnx = pytest.importorskip("onnx", reason="onnx is a test dependency: pip install -e '.[test]'")
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

from models.unsigned_weights import int8_weights, main, unsigned_weights  # noqa: E402
from vision.detector import DEFAULT_MODEL  # noqa: E402
from vision.reader import DEFAULT_READER  # noqa: E402


def _qdq_conv(weight: np.ndarray, zero: np.ndarray):
    """x -> Conv(x, DequantizeLinear(weight, scale, zero)) with per-channel scales."""
    out_ch = weight.shape[0]
    init = [
        numpy_helper.from_array(weight, "w"),
        numpy_helper.from_array(np.linspace(0.01, 0.05, out_ch).astype(np.float32), "w_scale"),
        numpy_helper.from_array(zero, "w_zero"),
    ]
    nodes = [
        helper.make_node("DequantizeLinear", ["w", "w_scale", "w_zero"], ["w_float"], axis=0),
        helper.make_node("Conv", ["x", "w_float"], ["y"], pads=[1, 1, 1, 1]),
    ]
    graph = helper.make_graph(
        nodes,
        "qdq",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, out_ch, 8, 8])],
        init,
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])


def _dequantized(model) -> np.ndarray:
    init = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    zero = init["w_zero"].astype(np.float32).reshape(-1, 1, 1, 1)
    scale = init["w_scale"].reshape(-1, 1, 1, 1)
    return (init["w"].astype(np.float32) - zero) * scale


def test_int8_weights_become_uint8_with_the_same_values():
    rng = np.random.default_rng(0)
    weight = rng.integers(-127, 128, (4, 3, 3, 3)).astype(np.int8)
    weight[0, 0, 0, 0], weight[1, 0, 0, 0] = -127, 127  # both ends of the symmetric range
    model = _qdq_conv(weight, np.zeros(4, np.int8))
    before = _dequantized(model)
    assert int8_weights(model) == ["w"]
    assert unsigned_weights(model) == 1
    assert int8_weights(model) == []
    w = numpy_helper.to_array(next(i for i in model.graph.initializer if i.name == "w"))
    assert w.dtype == np.uint8 and w.min() == 1 and w.max() == 255
    np.testing.assert_array_equal(_dequantized(model), before)
    onnx.checker.check_model(model)
    assert unsigned_weights(model) == 0  # a second pass changes nothing


def test_an_asymmetric_int8_weight_is_refused():
    weight = np.ones((2, 3, 3, 3), np.int8)
    model = _qdq_conv(weight, np.array([0, 3], np.int8))
    with pytest.raises(ValueError, match="not symmetric"):
        unsigned_weights(model)


def test_the_command_rewrites_a_file_and_fails_in_one_line_on_a_bad_one(tmp_path, capsys):
    path = tmp_path / "m.onnx"
    onnx.save(_qdq_conv(np.ones((2, 3, 3, 3), np.int8), np.zeros(2, np.int8)), str(path))
    assert main([str(path), str(path)]) == 0
    assert int8_weights(onnx.load(str(path))) == []
    bad = tmp_path / "bad.onnx"
    bad.write_bytes(b"not a model")
    assert main([str(bad), str(tmp_path / "out.onnx")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"unsigned_weights: cannot read {bad}")


@pytest.mark.parametrize("path", [DEFAULT_MODEL, DEFAULT_READER], ids=["detector", "reader"])
def test_the_committed_models_have_no_int8_weights(path):
    """int8 weights run a saturating kernel on AVX2-only CPUs (models.unsigned_weights)."""
    if not path.is_file():
        pytest.skip(f"{path} not built")
    model = onnx.load(str(path))
    assert int8_weights(model) == []
    assert any(n.op_type == "DequantizeLinear" for n in model.graph.node)  # still quantized


def test_quantize_writes_unsigned_weights(tmp_path):
    """``models.quantize`` ends with the rewrite: a model it quantizes runs no U8S8 kernel."""
    from models.quantize import quantize

    rng = np.random.default_rng(1)
    weight = numpy_helper.from_array(rng.normal(size=(4, 3, 3, 3)).astype(np.float32), "w")
    graph = helper.make_graph(
        [helper.make_node("Conv", ["image", "w"], ["y"], pads=[1, 1, 1, 1])],
        "float",
        [helper.make_tensor_value_info("image", TensorProto.FLOAT, [1, 3, 8, 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4, 8, 8])],
        [weight],
    )
    source, out = tmp_path / "float.onnx", tmp_path / "int8.onnx"
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), str(source))
    inputs = [rng.random((1, 3, 8, 8), np.float32) for _ in range(4)]
    quantize(source, out, inputs, float_nodes=())
    model = onnx.load(str(out))
    assert int8_weights(model) == []
    dq = [n for n in model.graph.node if n.op_type == "DequantizeLinear"]
    init = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    assert any(n.input[0] in init and init[n.input[0]].dtype == np.uint8 for n in dq)


def _two_convs(shared_weight: bool):
    """Two QDQ convolutions sharing one zero point (``shared_weight``: and one int8 weight read by
    both, each with its own zero point name)."""
    rng = np.random.default_rng(2)
    w = [rng.integers(-127, 128, (2, 3, 3, 3)).astype(np.int8) for _ in range(2)]
    init = [numpy_helper.from_array(w[0], "w1"), numpy_helper.from_array(w[1], "w2")]
    init += [numpy_helper.from_array(np.full(2, 0.02, np.float32), "s")]
    init += [
        numpy_helper.from_array(np.zeros(2, np.int8), "z"),
        numpy_helper.from_array(np.zeros(2, np.int8), "z2"),
    ]
    second = ["w1", "s", "z2"] if shared_weight else ["w2", "s", "z"]
    nodes = [
        helper.make_node("DequantizeLinear", ["w1", "s", "z"], ["f1"], axis=0),
        helper.make_node("DequantizeLinear", second, ["f2"], axis=0),
        helper.make_node("Conv", ["x", "f1"], ["y1"], pads=[1, 1, 1, 1]),
        helper.make_node("Conv", ["x", "f2"], ["y2"], pads=[1, 1, 1, 1]),
    ]
    graph = helper.make_graph(
        nodes,
        "two",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 8])],
        [helper.make_tensor_value_info(y, TensorProto.FLOAT, [1, 2, 8, 8]) for y in ("y1", "y2")],
        init,
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])


@pytest.mark.parametrize("shared_weight", [False, True], ids=["shared zero point", "shared weight"])
def test_shared_weights_and_zero_points_are_rewritten_once(shared_weight):
    import onnxruntime as ort

    model = _two_convs(shared_weight)
    x = np.random.default_rng(3).random((1, 3, 8, 8), np.float32)

    def run(m):
        options = ort.SessionOptions()
        options.add_session_config_entry("session.disable_quant_qdq", "1")  # float: exact reference
        return ort.InferenceSession(m.SerializeToString(), options).run(None, {"x": x})

    before = run(model)
    assert unsigned_weights(model) == (1 if shared_weight else 2)
    onnx.checker.check_model(model, full_check=True)
    assert int8_weights(model) == []
    for a, b in zip(before, run(model), strict=True):
        np.testing.assert_array_equal(a, b)


def test_an_unwritable_output_fails_in_one_line_and_leaves_the_input(tmp_path, capsys):
    path = tmp_path / "m.onnx"
    onnx.save(_qdq_conv(np.ones((2, 3, 3, 3), np.int8), np.zeros(2, np.int8)), str(path))
    before = path.read_bytes()
    target = tmp_path / "missing" / "out.onnx"
    assert main([str(path), str(target)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"unsigned_weights: cannot write {target}: No such file or directory"]
    assert path.read_bytes() == before and not target.exists()
