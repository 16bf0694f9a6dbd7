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
    out = evaluate(
        [(np.zeros((40, 90, 3), np.uint8), codes, boxes, np.zeros(3, np.int64), np.zeros(3, bool))], det
    )
    assert out["per_code"] == {"1s": "1/2", "E": "1/1"}
    assert out["top_confusions"] == {"1s->S": 1}


def test_a_half_turn_counts_right_only_where_the_tile_looks_the_same_turned():
    from types import SimpleNamespace

    import numpy as np

    from models.evaluate_rendered import evaluate

    boxes = np.array([[0, 0, 20, 28], [30, 0, 50, 28], [60, 0, 80, 28], [90, 0, 110, 28]], np.float32)
    codes = np.array(["1p", "1p", "S", "back"], dtype=object)
    alike = np.array([True, True, False, True])

    class Found(SimpleNamespace):
        def __len__(self):
            return len(self.boxes)

    # all four read 180 degrees off, but the second 1p a quarter turn off (its body shows that)
    angles = np.array([180, 90, 180, 180])
    det = SimpleNamespace(detect=lambda image, tile_px: Found(boxes=boxes, codes=codes, angles=angles))
    frame = (np.zeros((40, 120, 3), np.uint8), codes, boxes, np.zeros(4, np.int64), alike)
    out = evaluate([frame], det)
    assert out["orientation_accuracy"] == 0.0 and out["orientation_accuracy_face_up"] == 0.0
    assert out["orientation_accuracy_visible"] == 0.5  # the first 1p and the back
    assert out["orientation_accuracy_face_up_visible"] == round(1 / 3, 4)


def test_synth_frames_name_the_arts_point_symmetric_faces(tmp_path, capsys):
    import json

    from datasets.tileset import DEFAULT_TILESET
    from models.evaluate_rendered import _half_turn_alike_codes, _synth_tileset

    (tmp_path / "synth.json").write_text(json.dumps({"request": {"tileset": str(DEFAULT_TILESET)}}))
    alike = _half_turn_alike_codes(_synth_tileset(tmp_path))
    assert {"back", "standing", "1p", "P"} <= set(alike) and "S" not in alike
    # the bundled art as another checkout named it: this checkout's copy
    other = "/elsewhere/mjmon/datasets/art/default"
    (tmp_path / "synth.json").write_text(json.dumps({"request": {"tileset": other}}))
    assert "1p" in _half_turn_alike_codes(_synth_tileset(tmp_path))
    # art no longer where the clip was drawn from: backs and standing tiles only, said in one line
    capsys.readouterr()
    (tmp_path / "synth.json").write_text(json.dumps({"request": {"tileset": str(tmp_path / "gone")}}))
    assert _half_turn_alike_codes(_synth_tileset(tmp_path)) == ["back", "standing"]
    err = capsys.readouterr().err
    assert err.startswith("evaluate_rendered: ") and "gone" in err and err.count("\n") == 1
