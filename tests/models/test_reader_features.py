"""``models.reader_features``: an older reader file gains its pooled features output, logits unchanged."""

from __future__ import annotations

import numpy as np
import pytest

onnx = pytest.importorskip("onnx", reason="onnx is a test dependency: pip install -e '.[test]'")

from models.reader_features import OUTPUT, add_features_output, main  # noqa: E402
from vision.reader import DEFAULT_READER  # noqa: E402

needs_reader = pytest.mark.skipif(not DEFAULT_READER.is_file(), reason=f"{DEFAULT_READER} not built yet")


def _without_features(path) -> onnx.ModelProto:
    """The committed reader as it was before it had the output."""
    model = onnx.load(str(path))
    keep = [o for o in model.graph.output if o.name != OUTPUT]
    del model.graph.output[:]
    model.graph.output.extend(keep)
    nodes = [n for n in model.graph.node if OUTPUT not in n.output]
    del model.graph.node[:]
    model.graph.node.extend(nodes)
    return model


@needs_reader
def test_the_output_is_added_once_and_the_logits_do_not_change(tmp_path):
    import onnxruntime as ort

    old = _without_features(DEFAULT_READER)
    assert OUTPUT not in {o.name for o in old.graph.output}
    new = onnx.load(str(DEFAULT_READER))
    assert not add_features_output(new)  # the committed file has it already
    assert add_features_output(old) and not add_features_output(old)
    onnx.save(old, str(tmp_path / "r.onnx"))
    x = np.random.default_rng(0).random((3, 3, 48, 48), dtype=np.float32)
    a = ort.InferenceSession(str(tmp_path / "r.onnx")).run(None, {"crops": x})
    b = ort.InferenceSession(str(DEFAULT_READER)).run(None, {"crops": x})
    assert all(np.array_equal(p, q) for p, q in zip(a, b)) and a[2].shape == (3, 128)


def test_a_graph_without_a_reader_head_is_refused_and_the_command_fails_in_one_line(tmp_path, capsys):
    from onnx import TensorProto, helper

    graph = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 2])],
    )
    with pytest.raises(ValueError, match="found 0"):
        add_features_output(helper.make_model(graph))
    (tmp_path / "junk.onnx").write_bytes(b"junk")
    assert main([str(tmp_path / "junk.onnx"), str(tmp_path / "out.onnx")]) == 2
    err = capsys.readouterr().err
    assert "junk.onnx" in err and err.strip().count("\n") == 0 and not (tmp_path / "out.onnx").exists()


@needs_reader
def test_an_unwritable_out_is_one_line(tmp_path, capsys):
    """onnx.save's OSError was outside the try: a traceback."""
    assert main([str(DEFAULT_READER), str(tmp_path / "no" / "such" / "dir" / "r.onnx")]) == 2
    err = capsys.readouterr().err
    assert "r.onnx" in err and err.strip().count("\n") == 0
