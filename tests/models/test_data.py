import json

import cv2
import numpy as np
import pytest

from datasets.stills import StillMaker, write_coco
from datasets.tileset import load_tileset
from models.data import is_held_out, load_any, load_coco, load_yolo, source_of, split
from tests.conftest import SAMPLE_LOG, SHARED
from tracker.logs import load_log
from tracker.tiles import class_id


def test_source_of_roboflow_names():
    assert (
        source_of("IMG_20231030_204854_jpg.rf.829916675d9b75f7d6695d87f5764cb5.jpg") == "IMG_20231030_204854"
    )
    assert source_of("plain.png") == "plain"


def test_yolo_boxes_polygons_and_class_mapping(tmp_path):
    (tmp_path / "images").mkdir()
    (tmp_path / "labels").mkdir()
    cv2.imwrite(str(tmp_path / "images" / "a_jpg.rf.1.jpg"), np.zeros((100, 200, 3), np.uint8))
    (tmp_path / "labels" / "a_jpg.rf.1.txt").write_text(
        "1 0.5 0.5 0.1 0.2\n0 0.1 0.1 0.2 0.1 0.2 0.3 0.1 0.3\n"
    )
    (tmp_path / "meta.json").write_text(json.dumps({"classes": ["season1", "5m"]}))
    (s,) = load_yolo(tmp_path)
    assert s.source == "a" and s.size == (100, 200)
    assert s.classes.tolist() == [class_id("5m"), class_id("season1")]
    assert np.allclose(s.boxes, [[90, 40, 110, 60], [20, 10, 40, 30]])
    assert s.angles.tolist() == [-1, -1] and s.face_up.all()
    assert s.median_tile_width() == 20


def test_coco_with_angles_and_codes(tmp_path):
    doc = {
        "classes": ["back", "5pr"],
        "images": [{"id": 7, "file_name": "f.png", "width": 64, "height": 48}],
        "annotations": [
            {"image_id": 7, "bbox": [1, 2, 10, 14], "category_id": 0, "angle": 90, "face_up": False},
            {"image_id": 7, "bbox": [20, 2, 10, 14], "category_id": 1, "angle": 0},
        ],
    }
    (tmp_path / "stills.json").write_text(json.dumps(doc))
    (s,) = load_coco(tmp_path / "stills.json")
    assert s.classes.tolist() == [class_id("back"), class_id("5pr")]
    assert s.boxes.tolist() == [[1, 2, 11, 16], [20, 2, 30, 16]]
    assert s.angles.tolist() == [90, 0] and s.face_up.tolist() == [False, True]


def test_renderer_angles_round_to_quarter_turns(tmp_path):
    anns = [
        {"image_id": 0, "bbox": [0, 0, 5, 5], "category_id": 1, "angle": a}
        for a in (358.4, 44.0, 46.0, 271.0)
    ]
    doc = {"images": [{"id": 0, "file_name": "f.png"}], "annotations": anns}
    (tmp_path / "a.json").write_text(json.dumps(doc))
    (s,) = load_coco(tmp_path / "a.json")
    assert s.angles.tolist() == [0, 0, 90, 270]


def test_mjmon_stills_folder_loads_as_training_data(tmp_path):
    maker = StillMaker([load_log(SAMPLE_LOG)], [load_tileset(None)], size=256, seed=3, tile_px=(18, 30))
    coco = write_coco(maker, 3, tmp_path)
    samples = load_any(tmp_path)
    assert len(samples) == 3 and sum(len(s.classes) for s in samples) == len(coco["annotations"])
    first = [a for a in coco["annotations"] if a["image_id"] == 0]
    assert samples[0].classes.tolist() == [a["category_id"] for a in first]
    assert samples[0].angles.tolist() == [round(a["angle"] / 90) % 4 * 90 for a in first]
    assert samples[0].face_up.tolist() == [a["face_up"] for a in first]
    assert samples[0].load_image().shape == (256, 256, 3)


def test_split_never_straddles_a_source():
    names = [f"src{i % 40}_jpg.rf.{i}.jpg" for i in range(200)]
    held = {source_of(n) for n in names if is_held_out(source_of(n))}
    kept = {source_of(n) for n in names if not is_held_out(source_of(n))}
    assert held and kept and not held & kept


@pytest.mark.skipif(
    not (SHARED / "data/real/riichi-jp/train").is_dir(), reason="../shared real photos absent"
)
def test_real_split_by_source():
    train, test = split(load_yolo(SHARED / "data/real/riichi-jp/train"))
    assert {s.source for s in train}.isdisjoint({s.source for s in test})
    assert 0.05 < len(test) / (len(train) + len(test)) < 0.3
