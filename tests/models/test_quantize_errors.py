"""`python -m models.quantize` on bad input: one line naming the problem, exit 2, nothing written."""

import pytest

from models import quantize


def test_missing_model(tmp_path, capsys):
    out = tmp_path / "q.onnx"
    assert quantize.main([str(tmp_path / "nope.onnx"), str(out), "--data", str(tmp_path)]) == 2
    assert capsys.readouterr().err.strip() == f"quantize: model file not found: {tmp_path / 'nope.onnx'}"
    assert not out.exists()


@pytest.mark.parametrize("reader", [False, True])
def test_calibration_data_that_is_not_there(tmp_path, capsys, reader):
    model = tmp_path / "m.onnx"
    model.write_bytes(b"not looked at before the data")
    argv = [str(model), str(tmp_path / "q.onnx"), "--data", str(tmp_path / "no-such-set")] + [
        "--reader"
    ] * reader
    assert quantize.main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("quantize: calibration data:") and "no-such-set" in err and "\n" not in err
