"""models.evaluate: a reader it cannot load is one line and exit 2; detections not counted correct listed."""

from pathlib import Path

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


@needs_model
def test_unmatched_detections_are_listed_one_json_line_each(one_class_photos, tmp_path, capsys):
    import json

    import cv2

    from models.evaluate import main

    folder = one_class_photos((240, 320), (0.5, 0.5, 0.1, 0.1))
    # a real tile face on one photo, where no label is: a detection the figures count wrong
    art = sorted(Path("datasets/art/default").glob("*.png"))[0]
    photo = sorted((folder / "images").glob("*.jpg"))[0]
    image = cv2.imread(str(photo))
    image[20:84, 20:68] = cv2.resize(cv2.imread(str(art)), (48, 64))
    cv2.imwrite(str(photo), image)
    out = tmp_path / "unmatched.jsonl"
    argv = ["--images", str(folder / "images"), "--labels", str(folder / "labels")]
    argv += ["--classes", str(folder / "meta.json"), "--no-reader", "--unmatched", str(out)]
    assert main(argv) == 0
    figures = json.loads(capsys.readouterr().out)["ours"]
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    correct = round(figures["correct_precision"] * figures["detections"])
    assert rows and len(rows) == figures["detections"] - correct
    assert any(r["image"] == photo.name and r["label_there"] is None for r in rows)  # the unlabelled face
    assert all(set(r) == {"image", "code", "confidence", "box", "best_iou", "label_there"} for r in rows)
    # an unwritable list: one line, exit 2, the figures already printed
    assert main(argv[:-1] + [str(tmp_path)]) == 2
    printed = capsys.readouterr()
    assert printed.out.strip().startswith("{") and printed.err.startswith("evaluate: cannot write ")
    assert "\n" not in printed.err.strip()
