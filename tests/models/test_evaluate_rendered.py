"""models.evaluate_rendered: a reader it cannot load is one line and exit 2."""

import pytest

from vision.detector import DEFAULT_MODEL


@pytest.mark.skipif(not DEFAULT_MODEL.is_file(), reason=f"{DEFAULT_MODEL} not built yet")
def test_a_missing_reader_is_one_line_and_exit_2(tmp_path, capsys):
    from models.evaluate_rendered import main

    assert main([str(tmp_path), "--reader", str(tmp_path / "missing-reader.onnx")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("evaluate_rendered: ") and "missing-reader.onnx" in err and "\n" not in err


def test_per_code_counts_what_each_true_code_was_read_right_on_matched_tiles():
    from types import SimpleNamespace

    import numpy as np

    from models.evaluate_rendered import evaluate

    boxes = np.array([[0, 0, 20, 28], [30, 0, 50, 28], [60, 0, 80, 28]], np.float32)
    codes = np.array(["1s", "1s", "E"], dtype=object)

    class Found(SimpleNamespace):
        def __len__(self):
            return len(self.boxes)

    # the detector finds all three; the second 1s is read as S, the E right
    read = np.array(["1s", "S", "E"], dtype=object)
    det = SimpleNamespace(
        detect=lambda image, tile_px: Found(boxes=boxes, codes=read, angles=np.zeros(3, np.int64))
    )
    out = evaluate([(np.zeros((40, 90, 3), np.uint8), codes, boxes, np.zeros(3, np.int64))], det)
    assert out["per_code"] == {"1s": "1/2", "E": "1/1"}
    assert out["top_confusions"] == {"1s->S": 1}
