import json

import cv2
import numpy as np

from datasets.stills import StillMaker, write_coco
from datasets.tileset import load_tileset
from tracker import tiles


def test_stills_write_coco_with_boxes_on_tiles(tmp_path, sample_events):
    maker = StillMaker([sample_events], [load_tileset(None)], size=320, seed=4, tile_px=(14, 40))
    coco = write_coco(maker, 6, tmp_path)
    assert json.loads((tmp_path / "annotations.json").read_text()) == coco
    assert coco["classes"] == list(tiles.MODEL_CLASSES)
    assert len(coco["images"]) == 6 and len(coco["annotations"]) > 30
    codes = {a["code"] for a in coco["annotations"]}
    assert {"back", "standing"} & codes and codes - {"back", "standing"}
    bright = total = 0
    for ann in coco["annotations"]:
        x, y, w, h = ann["bbox"]
        assert 0 <= x and 0 <= y and x + w <= 320.01 and y + h <= 320.01
        assert ann["category_id"] == tiles.class_id(ann["code"])
        assert ann["face_up"] == (ann["code"] not in ("back", "standing"))
        if ann["face_up"] and ann["hidden"] == 0 and min(w, h) > 10:
            img = cv2.imread(str(tmp_path / coco["images"][ann["image_id"]]["file_name"]))
            patch = img[int(y + h * 0.2) : int(y + h * 0.8), int(x + w * 0.2) : int(x + w * 0.8)]
            total += 1
            bright += np.percentile(patch.sum(2), 75) > 450  # ivory face, not felt
    assert total > 10 and bright / total > 0.9


def test_tile_sizes_span_the_range(sample_events):
    maker = StillMaker([sample_events], [load_tileset(None)], size=320, seed=9, tile_px=(14, 64))
    widths = []
    for _ in range(12):
        _, labels = maker.make()
        boxes = [lab["box"] for lab in labels if lab["zone"] == "river"]
        widths += [min(b[2] - b[0], b[3] - b[1]) for b in boxes]
    assert min(widths) < 20 and max(widths) > 40


def test_art_without_red_fives_labels_plain_fives_and_bonus_art_shows_flowers(tmp_path, sample_events):
    art = tmp_path / "art"
    art.mkdir()
    for png in load_tileset(None).directory.glob("*.png"):
        if png.stem not in tiles.RED_FIVES:
            (art / png.name).write_bytes(png.read_bytes())
    maker = StillMaker([sample_events], [load_tileset(art)], size=320, seed=2, tile_px=(14, 30))
    codes = [lab["code"] for _ in range(25) for lab in maker.make()[1]]
    assert not set(codes) & set(tiles.RED_FIVES)  # drawn as plain fives, so labelled as such
    assert set(codes) & set(tiles.BONUS)


def test_red_fives_keep_their_label_with_red_art(sample_events):
    maker = StillMaker([sample_events], [load_tileset(None)], size=320, seed=2, tile_px=(14, 30))
    codes = [lab["code"] for _ in range(40) for lab in maker.make()[1]]
    assert set(codes) & set(tiles.RED_FIVES)


def test_angle_labels_match_the_picture_at_any_camera_turn(tmp_path, sample_events):
    """Faces dark in their top half only: turning each labelled crop back by its angle label must
    put the dark half on top, whatever the camera's yaw (a sign slip flips half the stills)."""
    art = tmp_path / "art"
    art.mkdir()
    face = np.full((64, 48, 3), 235, np.uint8)
    face[:28] = 30
    for png in load_tileset(None).directory.glob("*.png"):
        cv2.imwrite(str(art / png.name), face)
    maker = StillMaker([sample_events], [load_tileset(art)], size=320, seed=5, tile_px=(30, 48))
    right = total = 0
    for _ in range(8):
        img, labels = maker.make()
        for lab in labels:
            x0, y0, x1, y1 = (int(round(v)) for v in lab["box"])
            if not lab["face_up"] or lab["hidden"] > 0 or min(x1 - x0, y1 - y0) < 24:
                continue
            quarter = round(lab["angle"] / 90) % 4
            upright = np.rot90(img[y0:y1, x0:x1].mean(2), -quarter)
            third = upright.shape[0] // 3
            total += 1
            right += upright[:third].mean() < upright[-third:].mean() - 30
    assert total > 40 and right / total > 0.9
