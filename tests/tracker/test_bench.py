"""tracker.bench: a model it cannot load is one line and exit 2, before the video is decoded."""

import pytest

from tracker.bench import main
from vision.detector import DEFAULT_MODEL


@pytest.mark.skipif(not DEFAULT_MODEL.is_file(), reason=f"{DEFAULT_MODEL} not built yet")
def test_a_missing_reader_is_one_line_before_decoding(tmp_path, capsys):
    # the video does not exist either: the reader is checked first, not after a full decode
    assert main([str(tmp_path / "no-video.mp4"), "--reader", str(tmp_path / "missing-reader.onnx")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("tracker.bench: ") and "missing-reader.onnx" in err and "\n" not in err


@pytest.mark.skipif(not DEFAULT_MODEL.is_file(), reason=f"{DEFAULT_MODEL} not built yet")
def test_a_missing_lift_model_is_one_line_before_decoding(tmp_path, capsys):
    # as the reader: checked before the video is decoded and the table found, not after
    assert main([str(tmp_path / "no-video.mp4"), "--lift-model", str(tmp_path / "no-lift.onnx")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("tracker.bench: ") and "no-lift.onnx" in err and "\n" not in err
