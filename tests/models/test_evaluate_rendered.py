"""models.evaluate_rendered: a reader it cannot load is one line and exit 2."""

import pytest

from vision.detector import DEFAULT_MODEL


@pytest.mark.skipif(not DEFAULT_MODEL.is_file(), reason=f"{DEFAULT_MODEL} not built yet")
def test_a_missing_reader_is_one_line_and_exit_2(tmp_path, capsys):
    from models.evaluate_rendered import main

    assert main([str(tmp_path), "--reader", str(tmp_path / "missing-reader.onnx")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("evaluate_rendered: ") and "missing-reader.onnx" in err and "\n" not in err
