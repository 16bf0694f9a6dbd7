"""models.evaluate: a reader it cannot load is one line and exit 2."""

import pytest

from vision.detector import DEFAULT_MODEL

needs_model = pytest.mark.skipif(not DEFAULT_MODEL.is_file(), reason=f"{DEFAULT_MODEL} not built yet")


@needs_model
def test_a_missing_reader_is_one_line_and_exit_2(tmp_path, capsys):
    from models.evaluate import main

    (tmp_path / "images").mkdir()
    (tmp_path / "labels").mkdir()
    argv = ["--images", str(tmp_path / "images"), "--labels", str(tmp_path / "labels"), "--classes", "1m,2m"]
    assert main(argv + ["--reader", str(tmp_path / "missing-reader.onnx")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("evaluate: ") and "missing-reader.onnx" in err and "\n" not in err
